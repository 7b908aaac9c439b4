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

  const J3dJointAnimHeaderAt at = write_j3d_joint_anim_header(w, a.loop_mode, a.unknown_0x09, a.duration, a.joints.size(), base, filler, a.gap_after_header);
  for (std::size_t j = 0; j < a.joints.size(); ++j) {
    w.mark([&] { return "joint[" + std::to_string(j) + "]"; });
    for (std::size_t axis = 0; axis < 3; ++axis) {
      const std::size_t i = j * 3 + axis;
      write_j3d_frame_record(w, *scales[i], s.indices[i]);
      write_j3d_frame_record(w, *rotations[i], r.indices[i]);
      write_j3d_frame_record(w, *translations[i], t.indices[i]);
    }
  }
  write_j3d_joint_anim_tables(w, a, s, r, t, base, filler, at);
}

}  // namespace remodel
