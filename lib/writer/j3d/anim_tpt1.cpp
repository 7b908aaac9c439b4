// Writes TPT1 (btp): the reader's mirror; the texture table laid out by its rule, offsets and counts from it.
#include "writer/j3d/anim_frames.hpp"

namespace remodel {

void write_j3d_tpt1(ByteWriter& w, const J3dTpt1& a, std::size_t base, const std::string& filler) {
  if (a.patterns.size() > 0xFFFF) w.fail("material_count", "more than 65535 materials");
  if (a.material_names.names.size() != a.patterns.size()) {
    w.fail("names", std::to_string(a.material_names.names.size()) + " names for " + std::to_string(a.patterns.size()) + " patterns");
  }
  std::vector<const J3dFrameTrack<std::uint16_t>*> tracks;
  for (const J3dTexturePattern& p : a.patterns) tracks.push_back(&p.textures);
  const J3dFrameTable t = lay_out_j3d_frame_tracks(w, tracks, j3d_tpt1_texture_rule(), a.stored_textures, "textures");

  w.u8(a.loop_mode);
  w.u8(a.unknown_0x09);
  w.u16(a.duration);
  w.u16(static_cast<std::uint16_t>(a.patterns.size()));
  const std::size_t count_at = w.pos();
  w.u16(0);  // texture count, patched
  const std::size_t offsets_at = w.pos();
  w.fill(16, 0);  // pattern, texture, material index and name offsets, patched
  write_j3d_gap(w, filler, 32, base, a.gap_after_header, [] { return std::string("header.gap"); });
  w.patch_u32(offsets_at, static_cast<std::uint32_t>(w.pos() - base));
  for (std::size_t i = 0; i < a.patterns.size(); ++i) {
    const J3dTexturePattern& p = a.patterns[i];
    w.mark([&] { return "pattern[" + std::to_string(i) + "]"; });
    write_j3d_frame_record(w, p.textures, t.indices[i]);
    w.u8(p.texture_map);
    w.u8(p.unknown_0x05);
    w.u16(p.unknown_0x06);
  }
  write_j3d_value_table(w, t, a.stored_textures, 2, 4, base, filler, a.gap_after_patterns, count_at, offsets_at + 4, "textures");
  write_j3d_gap(w, filler, 4, base, a.gap_after_textures, [] { return std::string("textures.gap"); });
  w.patch_u32(offsets_at + 8, static_cast<std::uint32_t>(w.pos() - base));
  w.mark([] { return std::string("material_indices"); });
  for (const J3dTexturePattern& p : a.patterns) w.u16(p.material_index);
  write_j3d_gap(w, filler, 4, base, a.gap_after_material_indices, [] { return std::string("material_indices.gap"); });
  w.patch_u32(offsets_at + 12, static_cast<std::uint32_t>(w.pos() - base));
  w.mark([] { return std::string("names"); });
  write_j3d_names(w, a.material_names);
  write_j3d_gap(w, filler, 32, base, a.gap_after_names, [] { return std::string("names.gap"); });
}

}  // namespace remodel
