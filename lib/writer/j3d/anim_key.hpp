// Internal: what every keyed J3D animation section writer shares: the value tables laid out by the
// table rule (J3dTableBuilder, written by
// writer/j3d/anim_frames.hpp's write_j3d_value_table), component records and SRT records. The reader's mirror
// (reader/j3d/anim_key.hpp).
#pragma once

#include <string>
#include <vector>

#include "model/j3d/anim.hpp"
#include "writer/j3d/anim_frames.hpp"
#include "writer/j3d/common.hpp"

namespace remodel {

// One value table laid out by the table rule, and where each of its tracks starts.
J3dFrameTable lay_out_j3d_table(ByteWriter& w, const std::vector<const J3dFloatTrack*>& tracks, const Verbatim& stored_table, const char* field);
J3dFrameTable lay_out_j3d_table(ByteWriter& w, const std::vector<const J3dAngleTrack*>& tracks, const Verbatim& stored_table, const char* field);

// A component record: key count, first value (stored or the rule's), tangent mode.
template <typename T>
void write_j3d_stored_track(ByteWriter& w, const J3dAnimTrack<T>& t, std::uint16_t index) {
  w.u16(t.count);
  w.stored_or(t.stored_index, index, [] { return std::string("index"); });
  w.u16(t.tangent_mode);
}

// A keyed table of no values is left out (offset 0, no gap), as Nintendo's converter writes it; any
// other is written by write_j3d_value_table (ANK1 writes an empty one in place, so calls that directly).
void write_j3d_keyed_table(ByteWriter& w, const J3dFrameTable& t, const Verbatim& stored_table, std::size_t size, std::size_t alignment,
                           std::size_t base, const std::string& filler, const Verbatim& gap_before, std::size_t count_at,
                           std::size_t offset_at, const char* field);

// The value tables of SRT records, laid out record by record, x to z.
struct J3dSrtLaidOut {
  J3dFrameTable scales, rotations, translations;
};
J3dSrtLaidOut lay_out_j3d_srt(ByteWriter& w, const std::vector<const J3dJointAnim*>& anims, const Verbatim& stored_scales,
                              const Verbatim& stored_rotations, const Verbatim& stored_translations);
void write_j3d_srt_records(ByteWriter& w, const std::vector<const J3dJointAnim*>& anims, const J3dSrtLaidOut& l, const char* record_name);

// Section writers kept in their own files; `base` is the section's start, the cursor after its 8-byte header.
void write_j3d_ttk1(ByteWriter& w, const J3dTtk1& t, std::size_t base, const std::string& filler);
void write_j3d_trk1(ByteWriter& w, const J3dTrk1& t, std::size_t base, const std::string& filler);
void write_j3d_pak1(ByteWriter& w, const J3dPak1& p, std::size_t base, const std::string& filler);

}  // namespace remodel
