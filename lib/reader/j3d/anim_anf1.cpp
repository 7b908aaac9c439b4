// Reads ANF1 (bca): the header, nine (count, first index) records a joint, and the scale, rotation and
// translation tables the records index into.
#include "reader/j3d/anim_frames.hpp"

namespace remodel {

J3dAnf1 read_j3d_anf1(Cursor& c, J3dFiller& filler) {
  J3dAnf1 a;
  const J3dJointAnimHeader h = read_j3d_joint_anim_header(c, "unknown_0x09");
  a.loop_mode = h.loop_mode;
  a.unknown_0x09 = h.byte_0x09;
  a.duration = h.duration;
  a.gap_after_header = read_j3d_gap(c, filler, h.joints_at, 32, "joints_offset");
  c.check_count(h.joint_count, 36, "joint_count");
  // Records are x (scale, rotation, translation), then y, then z; each table's runs go joint by joint, x to z.
  std::vector<J3dFrameRecord> by_kind[3];
  for (std::size_t j = 0; j < h.joint_count; ++j) {
    PathScope scope(c, "joint", static_cast<std::int64_t>(j));
    for (std::size_t k = 0; k < 9; ++k) by_kind[k % 3].push_back(read_j3d_frame_record(c));
  }
  const auto scales = read_j3d_value_table(c, filler, h.scales_at, h.scale_count, 4, 32, "scales_offset", a.gap_after_joints);
  const auto rotations = read_j3d_value_table(c, filler, h.rotations_at, h.rotation_count, 2, 32, "rotations_offset", a.gap_after_scales);
  const auto translations =
      read_j3d_value_table(c, filler, h.translations_at, h.translation_count, 4, 32, "translations_offset", a.gap_after_rotations);
  a.gap_after_translations = read_j3d_gap(c, filler, c.size(), 32, "size");

  a.joints.resize(h.joint_count);
  std::vector<J3dFrameTrack<float>*> scale_tracks, translation_tracks;
  std::vector<J3dFrameTrack<std::int16_t>*> rotation_tracks;
  for (J3dFullFrameJoint& joint : a.joints) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
      scale_tracks.push_back(&joint.scale[axis]);
      rotation_tracks.push_back(&joint.rotation[axis]);
      translation_tracks.push_back(&joint.translation[axis]);
    }
  }
  read_j3d_frame_tracks(c, by_kind[0], scale_tracks, scales, h.scales_at, j3d_anf1_scale_rule(), a.stored_scales);
  read_j3d_frame_tracks(c, by_kind[1], rotation_tracks, rotations, h.rotations_at, j3d_anf1_rotation_rule(), a.stored_rotations);
  read_j3d_frame_tracks(c, by_kind[2], translation_tracks, translations, h.translations_at, j3d_anf1_translation_rule(),
                        a.stored_translations);
  return a;
}

}  // namespace remodel
