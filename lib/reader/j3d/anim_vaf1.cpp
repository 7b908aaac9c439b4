// Reads VAF1 (bva): the header, a (count, first index) record a shape and the show table (one byte a value).
#include "reader/j3d/anim_frames.hpp"

namespace remodel {

J3dVaf1 read_j3d_vaf1(Cursor& c, J3dFiller& filler) {
  J3dVaf1 a;
  a.loop_mode = c.u8("loop_mode");
  a.unknown_0x09 = c.u8("unknown_0x09");
  a.duration = c.u16("duration");
  const std::uint16_t shape_count = c.u16("shape_count");
  const std::uint16_t show_count = c.u16("show_count");
  const std::uint32_t shapes_at = c.u32("shapes_offset");
  const std::uint32_t shows_at = c.u32("shows_offset");
  a.gap_after_header = read_j3d_gap(c, filler, shapes_at, 32, "shapes_offset");
  c.check_count(shape_count, 4, "shape_count");
  std::vector<J3dFrameRecord> records;
  records.reserve(shape_count);
  for (std::size_t i = 0; i < shape_count; ++i) {
    PathScope scope(c, "shape", static_cast<std::int64_t>(i));
    records.push_back(read_j3d_frame_record(c));
  }
  const auto shows = read_j3d_value_table(c, filler, shows_at, show_count, 1, 4, "shows_offset", a.gap_after_shapes);
  a.gap_after_shows = read_j3d_gap(c, filler, c.size(), 32, "size", 4);  // the show table padded to 4, then the section to 32

  a.shapes.resize(shape_count);
  std::vector<J3dFrameTrack<std::uint8_t>*> tracks;
  tracks.reserve(shape_count);
  for (J3dFrameTrack<std::uint8_t>& t : a.shapes) tracks.push_back(&t);
  read_j3d_frame_tracks(c, records, tracks, shows, shows_at, j3d_vaf1_show_rule(), a.stored_shows);
  return a;
}

}  // namespace remodel
