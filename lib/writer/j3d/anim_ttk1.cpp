// Writes TTK1 (btk): the reader's mirror (reader/j3d/anim_ttk1.cpp); tables in the converter's
// order, each after the filler to 4, the value tables by the table rule.
#include "writer/j3d/anim_key.hpp"

namespace remodel {

void write_j3d_ttk1(ByteWriter& w, const J3dTtk1& t, std::size_t base, const std::string& filler) {
  const std::size_t n = t.anims.size();
  if (n > 0xFFFF / 3) w.fail("anims", "more than 21845 texture-matrix animations");
  if (t.names.names.size() != n) w.fail("names", "holds " + std::to_string(t.names.names.size()) + " names for " + std::to_string(n) + " animations");
  std::vector<const J3dJointAnim*> anims;
  for (const J3dTexMtxAnim& a : t.anims) anims.push_back(&a.keys);
  const J3dSrtLaidOut l = lay_out_j3d_srt(w, anims, t.stored_scales, t.stored_rotations, t.stored_translations);

  w.u8(t.loop_mode);
  w.u8(t.angle_scale);
  w.u16(t.duration);
  w.u16(static_cast<std::uint16_t>(n * 3));
  const std::size_t counts_at = w.pos();
  w.fill(6, 0);  // scale, rotation and translation counts, patched
  const std::size_t offsets_at = w.pos();
  w.fill(32, 0);  // the tables' offsets, patched
  w.fill(40, 0);  // the post-matrix tables: none
  w.u32(t.tex_mtx_calc_type);

  auto table = [&](J3dTtk1Table which, bool present, auto&& body) {
    const auto i = static_cast<std::size_t>(which);
    if (!present) return;  // offset 0
    write_j3d_gap(w, filler, i == 0 ? 32 : 4, base, t.gaps[i], [&] { return std::string(kJ3dTtk1Tables[i]) + ".gap"; });
    w.patch_u32(offsets_at + 4 * i, static_cast<std::uint32_t>(w.pos() - base));
    w.mark([&] { return std::string(kJ3dTtk1Tables[i]); });
    body();
  };
  table(J3dTtk1Table::anims, n > 0, [&] { write_j3d_srt_records(w, anims, l, "anim"); });
  table(J3dTtk1Table::remap, n > 0, [&] {
    for (const J3dTexMtxAnim& a : t.anims) w.u16(a.remap);
  });
  table(J3dTtk1Table::names, true, [&] { write_j3d_names(w, t.names); });
  table(J3dTtk1Table::tex_mtx_index, n > 0, [&] {
    for (const J3dTexMtxAnim& a : t.anims) w.u8(a.tex_mtx_index);
  });
  table(J3dTtk1Table::centres, n > 0, [&] {
    for (const J3dTexMtxAnim& a : t.anims) {
      for (float v : a.centre) w.f32(v);
    }
  });
  const auto gap = [&](J3dTtk1Table which) -> const Verbatim& { return t.gaps[static_cast<std::size_t>(which)]; };
  write_j3d_keyed_table(w, l.scales, t.stored_scales, 4, 4, base, filler, gap(J3dTtk1Table::scales), counts_at, offsets_at + 20, "scales");
  write_j3d_keyed_table(w, l.rotations, t.stored_rotations, 2, 4, base, filler, gap(J3dTtk1Table::rotations), counts_at + 2, offsets_at + 24,
                        "rotations");
  write_j3d_keyed_table(w, l.translations, t.stored_translations, 4, 4, base, filler, gap(J3dTtk1Table::translations), counts_at + 4,
                        offsets_at + 28, "translations");
  if (!w.verbatim(t.end, [] { return std::string("end"); })) {
    w.u16(0);  // the empty name table the converter closes the section with
    w.u16(0xFFFF);
  }
}

}  // namespace remodel
