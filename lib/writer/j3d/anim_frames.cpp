// Writes what the full-frame animation kinds share: their value tables.
#include "writer/j3d/anim_frames.hpp"

namespace remodel {

void write_j3d_value_table(ByteWriter& w, const J3dFrameTable& t, const Verbatim& stored_table, std::size_t size,
                           std::size_t alignment, std::size_t base, const std::string& filler, const Verbatim& gap_before,
                           std::size_t count_at, std::size_t offset_at, const char* field) {
  write_j3d_gap(w, filler, alignment, base, gap_before, [&] { return std::string(field) + ".gap"; });
  w.patch_u32(offset_at, static_cast<std::uint32_t>(w.pos() - base));
  w.mark([&] { return std::string(field); });
  if (w.verbatim(stored_table, [&] { return std::string(field); })) {
    if (stored_table.size() % size != 0 || stored_table.size() / size > 0xFFFF) w.fail(field, "the stored table is not whole values");
    w.patch_u16(count_at, static_cast<std::uint16_t>(stored_table.size() / size));
    return;
  }
  for (std::uint32_t v : t.table) {
    if (size == 4) w.u32(v);
    else if (size == 2) w.u16(static_cast<std::uint16_t>(v));
    else w.u8(static_cast<std::uint8_t>(v));
  }
  w.patch_u16(count_at, static_cast<std::uint16_t>(t.table.size()));
}

J3dJointAnimHeaderAt write_j3d_joint_anim_header(ByteWriter& w, std::uint8_t loop_mode, std::uint8_t byte_0x09, std::uint16_t duration,
                                                 std::size_t joints, std::size_t base, const std::string& filler, const Verbatim& gap) {
  w.u8(loop_mode);
  w.u8(byte_0x09);
  w.u16(duration);
  w.u16(static_cast<std::uint16_t>(joints));
  J3dJointAnimHeaderAt at;
  at.counts_at = w.pos();
  w.fill(6, 0);  // scale, rotation and translation counts, patched
  at.offsets_at = w.pos();
  w.fill(16, 0);  // joint, scale, rotation and translation offsets, patched
  write_j3d_gap(w, filler, 32, base, gap, [] { return std::string("header.gap"); });
  w.patch_u32(at.offsets_at, static_cast<std::uint32_t>(w.pos() - base));
  return at;
}

}  // namespace remodel
