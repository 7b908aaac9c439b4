// Internal: what the full-frame animation readers share (BCA, BTP, BVA): records of (count, first
// index) over value tables, and the tables' rule (docs/j3d-animations.md).
#pragma once

#include <string>
#include <vector>

#include "model/j3d/anim.hpp"
#include "reader/j3d/common.hpp"

namespace remodel {

// The header ANK1 and ANF1 share: loop mode, the byte at 0x09 (`byte_0x09_field` names it), duration,
// the joint and table counts and the four offsets.
struct J3dJointAnimHeader {
  std::uint8_t loop_mode = 0, byte_0x09 = 0;
  std::uint16_t duration = 0, joint_count = 0, scale_count = 0, rotation_count = 0, translation_count = 0;
  std::uint32_t joints_at = 0, scales_at = 0, rotations_at = 0, translations_at = 0;
};
J3dJointAnimHeader read_j3d_joint_anim_header(Cursor& c, const char* byte_0x09_field);

// A (count, first index) record as stored, and its offset in the section.
struct J3dFrameRecord {
  std::uint16_t count = 0, index = 0;
  std::size_t at = 0;
};
J3dFrameRecord read_j3d_frame_record(Cursor& c);

// The gap to `offset` (aligned to `alignment`), then `count` values of `size` bytes (1, 2 or 4) as their bits.
std::vector<std::uint32_t> read_j3d_value_table(Cursor& c, J3dFiller& filler, std::uint32_t offset, std::uint16_t count,
                                                std::size_t size, std::size_t alignment, const char* offset_field,
                                                Verbatim& gap_before);

// What the tracks of one table may read in all: runs may overlap and any number of tracks may name one,
// so without a bound a few KB of records naming one long run ask for gigabytes (issue 32). The BCK and
// BCA samples read at most 1.64 values per table value and record (docs/j3d-animations.md); the
// reader stops past 4, plus 8,192 values any table may give (small BTKs and BVAs share more: at most 32 KB copied).
constexpr std::size_t kJ3dReadsPerEntry = 4;
constexpr std::size_t kJ3dFreeReads = 8192;

// Counts the values the tracks of one table read, failing at the record (`count` at `record_at`) whose
// run takes them past kJ3dReadsPerEntry x (table values + records) + kJ3dFreeReads.
class J3dTrackReads {
 public:
  J3dTrackReads(std::size_t table, std::size_t records) : table_(table), records_(records) {}
  void add(const Cursor& c, std::size_t length, std::size_t record_at);

 private:
  std::size_t table_, records_, read_ = 0;
};

// The tracks' runs out of `table` (at `table_offset`, `size` bytes a value); an index the rule does not
// give is kept as stored; when stored indices cannot explain the table, the table is kept (verbatim)
// and every index with it.
template <typename T>
void read_j3d_frame_tracks(Cursor& c, const std::vector<J3dFrameRecord>& records, const std::vector<J3dFrameTrack<T>*>& tracks,
                           const std::vector<std::uint32_t>& table, std::size_t table_offset, const J3dFrameTableRule& rule,
                           Verbatim& stored_table) {
  J3dTableBuilder builder;
  if (rule.seed) builder.place({*rule.seed}, 0);
  J3dTrackReads reads(table.size(), records.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    const J3dFrameRecord& r = records[i];
    if (std::size_t{r.index} + r.count > table.size()) {
      c.fail_at(ErrorCode::bad_offset, r.at + 2, "index",
                "reads " + std::to_string(r.count) + " values from " + std::to_string(r.index) + " of a table of " + std::to_string(table.size()));
    }
    reads.add(c, r.count, r.at);
    const std::vector<std::uint32_t> run(table.begin() + r.index, table.begin() + r.index + r.count);
    J3dFrameTrack<T>& t = *tracks[i];
    t.values.clear();
    t.values.reserve(run.size());
    for (std::uint32_t v : run) t.values.push_back(j3d_value_from_bits<T>(v));
    if ((rule.share ? builder.find(run) : builder.size()) != r.index) t.stored_index = r.index;
    builder.place(run, r.index);
  }
  if (builder.finish() == table) return;
  stored_table = Verbatim(c.data().subspan(table_offset, table.size() * sizeof(T)));
  for (std::size_t i = 0; i < records.size(); ++i) tracks[i]->stored_index = records[i].index;
}

// Section readers of the full-frame kinds; the cursor is on the section, after its 8-byte header.
J3dAnf1 read_j3d_anf1(Cursor& c, J3dFiller& filler);
J3dTpt1 read_j3d_tpt1(Cursor& c, J3dFiller& filler);
J3dVaf1 read_j3d_vaf1(Cursor& c, J3dFiller& filler);

}  // namespace remodel
