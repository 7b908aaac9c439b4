// Writes VAF1 (bva): the reader's mirror; the show table laid out by its rule, offsets and counts from it.
#include "writer/j3d/anim_frames.hpp"

namespace remodel {

void write_j3d_vaf1(ByteWriter& w, const J3dVaf1& a, std::size_t base, const std::string& filler) {
  if (a.shapes.size() > 0xFFFF) w.fail("shape_count", "more than 65535 shapes");
  std::vector<const J3dFrameTrack<std::uint8_t>*> tracks;
  for (const J3dFrameTrack<std::uint8_t>& s : a.shapes) tracks.push_back(&s);
  const J3dFrameTable t = lay_out_j3d_frame_tracks(w, tracks, j3d_vaf1_show_rule(), a.stored_shows, "shows");

  w.u8(a.loop_mode);
  w.u8(a.unknown_0x09);
  w.u16(a.duration);
  w.u16(static_cast<std::uint16_t>(a.shapes.size()));
  const std::size_t count_at = w.pos();
  w.u16(0);  // show count, patched
  const std::size_t offsets_at = w.pos();
  w.fill(8, 0);  // shape and show offsets, patched
  write_j3d_gap(w, filler, 32, base, a.gap_after_header, [] { return std::string("header.gap"); });
  w.patch_u32(offsets_at, static_cast<std::uint32_t>(w.pos() - base));
  for (std::size_t i = 0; i < a.shapes.size(); ++i) {
    w.mark([&] { return "shape[" + std::to_string(i) + "]"; });
    write_j3d_frame_record(w, a.shapes[i], t.indices[i]);
  }
  write_j3d_value_table(w, t, a.stored_shows, 1, 4, base, filler, a.gap_after_shapes, count_at, offsets_at + 4, "shows");
  write_j3d_gap(w, filler, 32, base, a.gap_after_shows, [] { return std::string("shows.gap"); }, 4);
}

}  // namespace remodel
