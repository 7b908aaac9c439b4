// Writes MDL3: packet offsets (relative to their table entries), sizes and table offsets from the layout.
#include <string>

#include "writer/j3d/common.hpp"

namespace remodel {

void write_j3d_mdl3(ByteWriter& w, const J3dMdl3& s, std::size_t base, const std::string& filler) {
  const std::size_t count = s.packets.size();
  if (count > 0xFFFF || s.subpackets.size() != count || s.matrix_info.size() != count || s.pe_modes.size() != count ||
      s.indices.size() != count || s.names.names.size() != count) {
    w.fail("MDL3", "needs one subpacket, matrix info, PE mode, index and name per packet");
  }
  w.u16(static_cast<std::uint16_t>(count));
  w.u16(s.unknown_0x0a);
  const std::size_t offsets_at = w.pos();
  w.fill(24, 0);
  const auto offset_here = [&](std::size_t k) { w.patch_u32(offsets_at + 4 * k, static_cast<std::uint32_t>(w.pos() - base)); };
  write_j3d_gap(w, filler, 32, base, s.gap_after_header, [] { return std::string("MDL3.gap_after_header"); });
  offset_here(0);
  const std::size_t table = w.pos();
  w.fill(8 * count, 0);
  write_j3d_gap(w, filler, 32, base, s.gap_after_packet_table, [] { return std::string("MDL3.gap_after_packet_table"); });
  for (std::size_t i = 0; i < count; ++i) {
    const J3dMdlPacket& p = s.packets[i];
    const std::size_t start = w.pos();
    w.mark([&] { return "MDL3.packet[" + std::to_string(i) + "]"; });
    if (!w.verbatim(p.raw, [&] { return "MDL3.packet[" + std::to_string(i) + "].raw"; })) {
      for (const J3dGxCommand& cmd : p.commands) {
        w.u8(cmd.opcode);
        w.bytes(cmd.args);
      }
      const std::size_t used = w.pos() - start;
      const std::size_t size = p.stored_size.value_or(used + (32 - used % 32) % 32);
      if (size < used) w.fail("MDL3.packet[" + std::to_string(i) + "]", "its stored size is smaller than its commands");
      w.fill(size - used, 0);
    }
    w.patch_u32(table + 8 * i, static_cast<std::uint32_t>(start - (table + 8 * i)));
    w.patch_u32(table + 8 * i + 4, static_cast<std::uint32_t>(w.pos() - start));
  }
  offset_here(1);
  w.mark([] { return std::string("MDL3.subpackets"); });
  for (const J3dMdlSubpacket& sp : s.subpackets) {
    for (std::uint16_t o : sp.offsets) w.u16(o);
    w.u32(sp.unknown_0x0c);
  }
  offset_here(2);
  for (const auto& m : s.matrix_info) {
    w.u32(m[0]);
    w.u32(m[1]);
  }
  offset_here(3);
  for (std::uint8_t m : s.pe_modes) w.u8(m);
  write_j3d_gap(w, filler, 4, base, s.gap_after_pe_modes, [] { return std::string("MDL3.gap_after_pe_modes"); });
  offset_here(4);
  for (std::uint16_t i : s.indices) w.u16(i);
  write_j3d_gap(w, filler, 4, base, s.gap_after_indices, [] { return std::string("MDL3.gap_after_indices"); });
  offset_here(5);
  w.mark([] { return std::string("MDL3.names"); });
  write_j3d_names(w, s.names);
  write_j3d_gap(w, filler, 32, base, s.gap_after_names, [] { return std::string("MDL3.gap_after_names"); });
}

}  // namespace remodel
