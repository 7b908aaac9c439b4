// Internal: what every keyed J3D animation section reader shares: component records (value tables:
// reader/j3d/anim_frames.hpp) and the table rule that gives each track its run (docs/j3d-animations.md).
#pragma once

#include <string>
#include <vector>

#include "model/j3d/anim.hpp"
#include "reader/j3d/anim_frames.hpp"
#include "reader/j3d/common.hpp"

namespace remodel {

// A component record as stored: key count, first value, tangent mode.
struct J3dStoredTrack {
  std::uint16_t count = 0, index = 0, tangent_mode = 0;
  std::size_t at = 0;  // the record's offset in the section
};
J3dStoredTrack read_j3d_stored_track(Cursor& c);

// Whether a table of `count` entries is left out (offset 0, as Nintendo's converter writes an empty one);
// fails on an empty table with an offset, which the writer would not give back.
bool j3d_table_absent(Cursor& c, std::size_t count, std::uint32_t offset, std::size_t offset_at, const char* offset_field);

// The tracks' runs out of a table, and the indices the table rule does not give kept as stored;
// when no stored index can explain the table, the table itself is kept (verbatim) and every index.
template <typename T>
void resolve_j3d_tracks(Cursor& c, const std::vector<J3dStoredTrack>& stored, const std::vector<J3dAnimTrack<T>*>& tracks,
                        const std::vector<std::uint32_t>& table, std::size_t table_offset, Verbatim& stored_table) {
  J3dTableBuilder builder;
  for (std::size_t i = 0; i < stored.size(); ++i) {
    const J3dStoredTrack& s = stored[i];
    J3dAnimTrack<T>& t = *tracks[i];
    t.count = s.count;
    t.tangent_mode = s.tangent_mode;
    if (s.tangent_mode > 1) c.fail_at(ErrorCode::bad_value, s.at + 4, "tangent_mode", "is " + std::to_string(s.tangent_mode) + ", not 0 or 1");
    const std::size_t length = j3d_track_length(s.count, s.tangent_mode);
    if (std::size_t{s.index} + length > table.size()) {
      c.fail_at(ErrorCode::bad_offset, s.at + 2, "index",
                "reads " + std::to_string(length) + " values from " + std::to_string(s.index) + " of a table of " + std::to_string(table.size()));
    }
    const std::vector<std::uint32_t> run(table.begin() + s.index, table.begin() + s.index + static_cast<std::ptrdiff_t>(length));
    t.values.clear();
    for (std::uint32_t v : run) t.values.push_back(j3d_value_from_bits<T>(v));
    if (builder.find(run) != s.index) t.stored_index = s.index;
    builder.place(run, s.index);
  }
  if (builder.finish() == table) return;
  stored_table = Verbatim(c.data().subspan(table_offset, table.size() * sizeof(T)));
  for (std::size_t i = 0; i < stored.size(); ++i) tracks[i]->stored_index = stored[i].index;
}

// `count` SRT records (nine component records each: x scale, rotation, translation, then y, then z).
std::vector<J3dStoredTrack> read_j3d_srt_records(Cursor& c, std::size_t count, const char* record_name, const char* count_field);

// The three value tables of SRT records and where they start in the section.
struct J3dSrtTables {
  std::vector<std::uint32_t> scales, rotations, translations;
  std::uint32_t scales_at = 0, rotations_at = 0, translations_at = 0;
};
// Gives each record's tracks their runs; each table is laid out record by record, x to z.
void resolve_j3d_srt(Cursor& c, const std::vector<J3dStoredTrack>& stored, const std::vector<J3dJointAnim*>& anims,
                     const J3dSrtTables& tables, Verbatim& stored_scales, Verbatim& stored_rotations,
                     Verbatim& stored_translations);

// Section readers kept in their own files; the cursor is on the section, after its 8-byte header.
J3dTtk1 read_j3d_ttk1(Cursor& c, J3dFiller& filler);
J3dTrk1 read_j3d_trk1(Cursor& c, J3dFiller& filler);
J3dPak1 read_j3d_pak1(Cursor& c, J3dFiller& filler);

}  // namespace remodel
