// Internal: what the full-frame animation writers share (BCA, BTP, BVA): the value tables laid out by
// their kind's rule from the tracks' runs, and the (count, first index) records; the readers' mirror.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/j3d/anim.hpp"
#include "writer/j3d/common.hpp"

namespace remodel {

// One value table and where each of its tracks starts.
struct J3dFrameTable {
  std::vector<std::uint32_t> table;
  std::vector<std::uint16_t> indices;
};

// The table the tracks' placed runs make; stored indices that leave a hole, or more values than u16
// indices reach, fail.
inline std::vector<std::uint32_t> finish_j3d_frame_table(ByteWriter& w, const J3dTableBuilder& builder, const char* field) {
  std::optional<std::vector<std::uint32_t>> table = builder.finish();
  if (!table) w.fail(field, "the tracks' stored indices leave a hole in the table or overlap with other values");
  if (table->size() > 0xFFFF) w.fail(field, "the table holds more than 65535 values");
  return std::move(*table);
}

template <typename T>
J3dFrameTable lay_out_j3d_frame_tracks(ByteWriter& w, const std::vector<const J3dFrameTrack<T>*>& tracks,
                                       const J3dFrameTableRule& rule, const Verbatim& stored_table, const char* field) {
  J3dTableBuilder builder;
  if (rule.seed) builder.place({*rule.seed}, 0);
  J3dFrameTable out;
  out.indices.reserve(tracks.size());
  for (const J3dFrameTrack<T>* t : tracks) {
    if (t->values.size() > 0xFFFF) w.fail(field, "a track holds more than 65535 values");
    std::vector<std::uint32_t> run;
    run.reserve(t->values.size());
    for (T v : t->values) run.push_back(j3d_value_bits(v));
    const std::size_t rule_at = rule.share ? builder.find(run) : builder.size();
    const std::size_t at = builder.place(run, t->stored_index ? *t->stored_index : rule_at);
    if (at > 0xFFFF) w.fail(field, "a track starts past the 65535th value");
    out.indices.push_back(static_cast<std::uint16_t>(at));
  }
  if (!stored_table.stored()) out.table = finish_j3d_frame_table(w, builder, field);  // else written as stored
  return out;
}

template <typename T>
void write_j3d_frame_record(ByteWriter& w, const J3dFrameTrack<T>& t, std::uint16_t index) {
  w.u16(static_cast<std::uint16_t>(t.values.size()));
  w.stored_or(t.stored_index, index, [] { return std::string("index"); });
}

// The gap to `alignment`, then the table (`size` bytes a value, or as stored); patches its offset (u32
// at offset_at) and its count (u16 at count_at).
void write_j3d_value_table(ByteWriter& w, const J3dFrameTable& t, const Verbatim& stored_table, std::size_t size,
                           std::size_t alignment, std::size_t base, const std::string& filler, const Verbatim& gap_before,
                           std::size_t count_at, std::size_t offset_at, const char* field);

// Section writers of the full-frame kinds; `base` is the section's start.
// The header ANK1 and ANF1 share (loop mode, the byte at 0x09, duration, joint count; the table counts
// and offsets patched later) and the gap to the joint records, whose offset it patches.
struct J3dJointAnimHeaderAt {
  std::size_t counts_at = 0, offsets_at = 0;
};
J3dJointAnimHeaderAt write_j3d_joint_anim_header(ByteWriter& w, std::uint8_t loop_mode, std::uint8_t byte_0x09, std::uint16_t duration,
                                                 std::size_t joints, std::size_t base, const std::string& filler, const Verbatim& gap);

// Their scale, rotation and translation tables (4, 2 and 4 bytes a value, each after a gap to 32) and
// the gap closing the section; `A` is J3dAnk1 or J3dAnf1, which name their stored tables and gaps alike.
template <typename A>
void write_j3d_joint_anim_tables(ByteWriter& w, const A& a, const J3dFrameTable& s, const J3dFrameTable& r, const J3dFrameTable& t,
                                 std::size_t base, const std::string& filler, J3dJointAnimHeaderAt at) {
  write_j3d_value_table(w, s, a.stored_scales, 4, 32, base, filler, a.gap_after_joints, at.counts_at, at.offsets_at + 4, "scales");
  write_j3d_value_table(w, r, a.stored_rotations, 2, 32, base, filler, a.gap_after_scales, at.counts_at + 2, at.offsets_at + 8, "rotations");
  write_j3d_value_table(w, t, a.stored_translations, 4, 32, base, filler, a.gap_after_rotations, at.counts_at + 4, at.offsets_at + 12,
                        "translations");
  write_j3d_gap(w, filler, 32, base, a.gap_after_translations, [] { return std::string("translations.gap"); });
}

void write_j3d_anf1(ByteWriter& w, const J3dAnf1& a, std::size_t base, const std::string& filler);
void write_j3d_tpt1(ByteWriter& w, const J3dTpt1& a, std::size_t base, const std::string& filler);
void write_j3d_vaf1(ByteWriter& w, const J3dVaf1& a, std::size_t base, const std::string& filler);

}  // namespace remodel
