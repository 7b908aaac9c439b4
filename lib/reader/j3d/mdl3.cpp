// Reads MDL3: the packet table, each material's GX command packet, and the tables after them.
#include <string>

#include "reader/j3d/common.hpp"

namespace remodel {

namespace {

std::optional<J3dMdlPacket> decode_packet(ByteSpan b) {
  J3dMdlPacket p;
  std::size_t at = 0;
  while (at < b.size() && b[at] != 0) {
    const std::size_t n = j3d_gx_command_size(b.subspan(at));
    if (n == 0 || b.size() - at - 1 < n) return std::nullopt;
    p.commands.push_back(J3dGxCommand{b[at], Bytes(b.begin() + static_cast<std::ptrdiff_t>(at + 1), b.begin() + static_cast<std::ptrdiff_t>(at + 1 + n))});
    at += 1 + n;
  }
  for (std::size_t k = at; k < b.size(); ++k) {
    if (b[k] != 0) return std::nullopt;
  }
  if (b.size() != at + (32 - at % 32) % 32) p.stored_size = static_cast<std::uint32_t>(b.size());
  return p;
}


}  // namespace

J3dMdl3 read_j3d_mdl3(Cursor& c, J3dFiller& filler) {
  J3dMdl3 s;
  const std::uint16_t count = c.u16("count");
  s.unknown_0x0a = c.u16("unknown_0x0a");
  const std::uint32_t packets_at = c.u32("packets_offset");
  const std::uint32_t subpackets_at = c.u32("subpackets_offset");
  const std::uint32_t matrix_at = c.u32("matrix_info_offset");
  const std::uint32_t pe_at = c.u32("pe_modes_offset");
  const std::uint32_t indices_at = c.u32("indices_offset");
  const std::uint32_t names_at = c.u32("names_offset");
  s.gap_after_header = read_j3d_gap(c, filler, packets_at, 32, "packets_offset");
  c.check_count(count, 8, "count");
  std::vector<std::pair<std::size_t, std::uint32_t>> table(count);  // absolute offset, size
  for (auto& [offset, size] : table) {
    const std::size_t entry = c.pos();
    offset = entry + c.u32("packet.offset");  // relative to the entry itself
    size = c.u32("packet.size");
  }
  s.gap_after_packet_table = read_j3d_gap(c, filler, count != 0 ? table[0].first : subpackets_at, 32, "packet.offset");
  s.packets.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    PathScope scope(c, "packet", static_cast<std::int64_t>(i));
    j3d_expect_at(c, table[i].first, "offset");
    ByteSpan bytes = c.span(table[i].second, "size");
    std::optional<J3dMdlPacket> p = decode_packet(bytes);
    if (!p) {
      p = J3dMdlPacket{};
      p->raw = Verbatim(bytes);
    }
    s.packets.push_back(std::move(*p));
  }
  j3d_expect_at(c, subpackets_at, "subpackets_offset");
  c.check_count(count, 16, "count");
  s.subpackets.resize(count);
  for (J3dMdlSubpacket& sp : s.subpackets) {
    for (std::uint16_t& o : sp.offsets) o = c.u16("subpacket.offset");
    sp.unknown_0x0c = c.u32("subpacket.unknown_0x0c");
  }
  j3d_expect_at(c, matrix_at, "matrix_info_offset");
  s.matrix_info.resize(count);
  for (auto& m : s.matrix_info) {
    m[0] = c.u32("matrix_info");
    m[1] = c.u32("matrix_info");
  }
  j3d_expect_at(c, pe_at, "pe_modes_offset");
  s.pe_modes.resize(count);
  for (std::uint8_t& m : s.pe_modes) m = c.u8("pe_mode");
  s.gap_after_pe_modes = read_j3d_gap(c, filler, indices_at, 4, "indices_offset");
  s.indices.resize(count);
  for (std::uint16_t& i : s.indices) i = c.u16("index");
  s.gap_after_indices = read_j3d_gap(c, filler, names_at, 4, "names_offset");
  {
    PathScope scope(c, "names");
    s.names = read_j3d_names(c, count);
  }
  s.gap_after_names = read_j3d_gap(c, filler, c.size(), 32, "size");
  return s;
}

}  // namespace remodel
