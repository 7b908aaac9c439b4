// Reads TTK1 (btk): keyed texture-matrix SRT per material (docs/j3d-animations.md).
#include <algorithm>

#include "reader/j3d/anim_key.hpp"

namespace remodel {

namespace {
// The empty name table Nintendo's converter closes the section with (no offset points at it).
constexpr std::uint8_t kEmptyNames[] = {0x00, 0x00, 0xFF, 0xFF};
}  // namespace

J3dTtk1 read_j3d_ttk1(Cursor& c, J3dFiller& filler) {
  J3dTtk1 t;
  t.loop_mode = c.u8("loop_mode");
  t.angle_scale = c.u8("angle_scale");
  t.duration = c.u16("duration");
  const std::uint16_t component_count = c.u16("component_count");
  if (component_count % 3 != 0) c.fail_at(ErrorCode::bad_value, 0x0C, "component_count", "is not 3 per texture matrix");
  const std::size_t anim_count = component_count / 3;
  const std::uint16_t scale_count = c.u16("scale_count");
  const std::uint16_t rotation_count = c.u16("rotation_count");
  const std::uint16_t translation_count = c.u16("translation_count");
  std::array<std::uint32_t, static_cast<std::size_t>(J3dTtk1Table::count)> at{};
  for (std::uint32_t& o : at) o = c.u32("offset");
  // 0x34 to 0x5B: the post-matrix tables (counts and offsets), zero on every sample.
  for (std::size_t i = 0x34; i < 0x5C; i += 4) {
    if (c.u32("post_matrix") != 0) c.fail_at(ErrorCode::unsupported, i, "post_matrix", "post-texture-matrix animations are not read");
  }
  t.tex_mtx_calc_type = c.u32("tex_mtx_calc_type");

  auto gap = [&](J3dTtk1Table table, std::size_t count, const char* field) {
    const auto i = static_cast<std::size_t>(table);
    if (j3d_table_absent(c, count, at[i], 0x14 + 4 * i, field)) return false;
    t.gaps[i] = read_j3d_gap(c, filler, at[i], i == 0 ? 32 : 4, field);
    return true;
  };
  std::vector<J3dStoredTrack> stored;
  if (gap(J3dTtk1Table::anims, anim_count, "anims_offset")) stored = read_j3d_srt_records(c, anim_count, "anim", "component_count");
  t.anims.resize(anim_count);
  if (gap(J3dTtk1Table::remap, anim_count, "remap_offset")) {
    for (J3dTexMtxAnim& a : t.anims) a.remap = c.u16("remap");
  }
  t.gaps[static_cast<std::size_t>(J3dTtk1Table::names)] = read_j3d_gap(c, filler, at[2], 4, "names_offset");
  t.names = read_j3d_names(c, anim_count);
  if (gap(J3dTtk1Table::tex_mtx_index, anim_count, "tex_mtx_index_offset")) {
    for (J3dTexMtxAnim& a : t.anims) a.tex_mtx_index = c.u8("tex_mtx_index");
  }
  if (gap(J3dTtk1Table::centres, anim_count, "centres_offset")) {
    for (J3dTexMtxAnim& a : t.anims) {
      for (float& v : a.centre) v = c.f32("centre");
    }
  }
  J3dSrtTables tables{{}, {}, {}, at[5], at[6], at[7]};
  Verbatim* gaps = t.gaps.data();
  if (!j3d_table_absent(c, scale_count, at[5], 0x28, "scales_offset")) {
    tables.scales = read_j3d_value_table(c, filler, at[5], scale_count, 4, 4, "scales_offset", gaps[5]);
  }
  if (!j3d_table_absent(c, rotation_count, at[6], 0x2C, "rotations_offset")) {
    tables.rotations = read_j3d_value_table(c, filler, at[6], rotation_count, 2, 4, "rotations_offset", gaps[6]);
  }
  if (!j3d_table_absent(c, translation_count, at[7], 0x30, "translations_offset")) {
    tables.translations = read_j3d_value_table(c, filler, at[7], translation_count, 4, 4, "translations_offset", gaps[7]);
  }
  const ByteSpan end = c.span(c.remaining(), "end");
  if (!std::equal(end.begin(), end.end(), std::begin(kEmptyNames), std::end(kEmptyNames))) t.end = Verbatim(end);

  std::vector<J3dJointAnim*> anims;
  for (J3dTexMtxAnim& a : t.anims) anims.push_back(&a.keys);
  resolve_j3d_srt(c, stored, anims, tables, t.stored_scales, t.stored_rotations, t.stored_translations);
  return t;
}

}  // namespace remodel
