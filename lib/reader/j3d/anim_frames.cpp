// Reads what the full-frame animation kinds share: (count, first index) records and value tables.
#include "reader/j3d/anim_frames.hpp"

#include <string>

namespace remodel {

J3dJointAnimHeader read_j3d_joint_anim_header(Cursor& c, const char* byte_0x09_field) {
  J3dJointAnimHeader h;
  h.loop_mode = c.u8("loop_mode");
  h.byte_0x09 = c.u8(byte_0x09_field);
  h.duration = c.u16("duration");
  h.joint_count = c.u16("joint_count");
  h.scale_count = c.u16("scale_count");
  h.rotation_count = c.u16("rotation_count");
  h.translation_count = c.u16("translation_count");
  h.joints_at = c.u32("joints_offset");
  h.scales_at = c.u32("scales_offset");
  h.rotations_at = c.u32("rotations_offset");
  h.translations_at = c.u32("translations_offset");
  return h;
}

J3dFrameRecord read_j3d_frame_record(Cursor& c) {
  J3dFrameRecord r;
  r.at = c.pos();
  r.count = c.u16("count");
  r.index = c.u16("index");
  return r;
}

std::vector<std::uint32_t> read_j3d_value_table(Cursor& c, J3dFiller& filler, std::uint32_t offset, std::uint16_t count,
                                                std::size_t size, std::size_t alignment, const char* offset_field,
                                                Verbatim& gap_before) {
  gap_before = read_j3d_gap(c, filler, offset, alignment, offset_field);
  c.check_count(count, size, offset_field);
  std::vector<std::uint32_t> out(count);
  for (std::uint32_t& v : out) v = size == 4 ? c.u32("value") : size == 2 ? c.u16("value") : c.u8("value");
  return out;
}

void J3dTrackReads::add(const Cursor& c, std::size_t length, std::size_t record_at) {
  read_ += length;
  const std::size_t bound = kJ3dReadsPerEntry * (table_ + records_) + kJ3dFreeReads;
  if (read_ > bound) {
    c.fail_at(ErrorCode::bad_count, record_at, "count",
              "brings the values the tracks read from a table of " + std::to_string(table_) + " to " + std::to_string(read_) +
                  "; past the reader's bound of " + std::to_string(kJ3dReadsPerEntry) + " x (" + std::to_string(table_) + " values + " +
                  std::to_string(records_) + " records) + " + std::to_string(kJ3dFreeReads) + " = " + std::to_string(bound) + " (tracks may share runs, not multiply them)");
  }
}

}  // namespace remodel
