// Writes ANF1 (bca): the reader's mirror; the tables laid out by their rule, offsets and counts from them.
#include "writer/j3d/anim_frames.hpp"

namespace remodel {

void write_j3d_anf1(ByteWriter& w, const J3dAnf1& a, std::size_t base, const std::string& filler) {
  if (a.joints.size() > 0xFFFF) w.fail("joint_count", "more than 65535 joints");
  std::vector<const J3dFrameTrack<float>*> scales, translations;
  std::vector<const J3dFrameTrack<std::int16_t>*> rotations;
  for (const J3dFullFrameJoint& j : a.joints) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
      scales.push_back(&j.scale[axis]);
      rotations.push_back(&j.rotation[axis]);
      translations.push_back(&j.translation[axis]);
    }
  }
  const J3dFrameTable s = lay_out_j3d_frame_tracks(w, scales, j3d_anf1_scale_rule(), a.stored_scales, "scales");
  const J3dFrameTable r = lay_out_j3d_frame_tracks(w, rotations, j3d_anf1_rotation_rule(), a.stored_rotations, "rotations");
  const J3dFrameTable t =
      lay_out_j3d_frame_tracks(w, translations, j3d_anf1_translation_rule(), a.stored_translations, "translations");

  w.u8(a.loop_mode);
  w.u8(a.unknown_0x09);
  w.u16(a.duration);
  w.u16(static_cast<std::uint16_t>(a.joints.size()));
  const std::size_t counts_at = w.pos();
  w.fill(6, 0);  // scale, rotation and translation counts, patched
  const std::size_t offsets_at = w.pos();
  w.fill(16, 0);  // joint, scale, rotation and translation offsets, patched
  write_j3d_gap(w, filler, 32, base, a.gap_after_header, [] { return std::string("header.gap"); });
  w.patch_u32(offsets_at, static_cast<std::uint32_t>(w.pos() - base));
  for (std::size_t j = 0; j < a.joints.size(); ++j) {
    w.mark([&] { return "joint[" + std::to_string(j) + "]"; });
    for (std::size_t axis = 0; axis < 3; ++axis) {
      const std::size_t i = j * 3 + axis;
      write_j3d_frame_record(w, *scales[i], s.indices[i]);
      write_j3d_frame_record(w, *rotations[i], r.indices[i]);
      write_j3d_frame_record(w, *translations[i], t.indices[i]);
    }
  }
  write_j3d_value_table(w, s, a.stored_scales, 4, 32, base, filler, a.gap_after_joints, counts_at, offsets_at + 4, "scales");
  write_j3d_value_table(w, r, a.stored_rotations, 2, 32, base, filler, a.gap_after_scales, counts_at + 2, offsets_at + 8, "rotations");
  write_j3d_value_table(w, t, a.stored_translations, 4, 32, base, filler, a.gap_after_rotations, counts_at + 4, offsets_at + 12,
                        "translations");
  write_j3d_gap(w, filler, 32, base, a.gap_after_translations, [] { return std::string("translations.gap"); });
}

}  // namespace remodel
