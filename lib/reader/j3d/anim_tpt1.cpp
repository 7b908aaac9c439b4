// Reads TPT1 (btp): the header, a pattern record a material, the texture index table, the materials'
// model indices and their name table; tables after the records at 4-byte boundaries.
#include "reader/j3d/anim_frames.hpp"

namespace remodel {

J3dTpt1 read_j3d_tpt1(Cursor& c, J3dFiller& filler) {
  J3dTpt1 a;
  a.loop_mode = c.u8("loop_mode");
  a.unknown_0x09 = c.u8("unknown_0x09");
  a.duration = c.u16("duration");
  const std::uint16_t material_count = c.u16("material_count");
  const std::uint16_t texture_count = c.u16("texture_count");
  const std::uint32_t patterns_at = c.u32("patterns_offset");
  const std::uint32_t textures_at = c.u32("textures_offset");
  const std::uint32_t material_indices_at = c.u32("material_indices_offset");
  const std::uint32_t names_at = c.u32("names_offset");
  a.gap_after_header = read_j3d_gap(c, filler, patterns_at, 32, "patterns_offset");
  c.check_count(material_count, 8, "material_count");
  a.patterns.resize(material_count);
  std::vector<J3dFrameRecord> records;
  records.reserve(material_count);
  for (std::size_t i = 0; i < material_count; ++i) {
    PathScope scope(c, "pattern", static_cast<std::int64_t>(i));
    J3dTexturePattern& p = a.patterns[i];
    records.push_back(read_j3d_frame_record(c));
    p.texture_map = c.u8("texture_map");
    p.unknown_0x05 = c.u8("unknown_0x05");
    p.unknown_0x06 = c.u16("unknown_0x06");
  }
  const auto textures = read_j3d_value_table(c, filler, textures_at, texture_count, 2, 4, "textures_offset", a.gap_after_patterns);
  a.gap_after_textures = read_j3d_gap(c, filler, material_indices_at, 4, "material_indices_offset");
  c.check_count(material_count, 2, "material_count");
  for (J3dTexturePattern& p : a.patterns) p.material_index = c.u16("material_index");
  a.gap_after_material_indices = read_j3d_gap(c, filler, names_at, 4, "names_offset");
  {
    PathScope scope(c, "names");
    a.material_names = read_j3d_names(c, material_count);
  }
  a.gap_after_names = read_j3d_gap(c, filler, c.size(), 32, "size");

  std::vector<J3dFrameTrack<std::uint16_t>*> tracks;
  tracks.reserve(material_count);
  for (J3dTexturePattern& p : a.patterns) tracks.push_back(&p.textures);
  read_j3d_frame_tracks(c, records, tracks, textures, textures_at, j3d_tpt1_texture_rule(), a.stored_textures);
  return a;
}

}  // namespace remodel
