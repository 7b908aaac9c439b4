// Reads ANF1 (bca): the header, nine (count, first index) records a joint, and the scale, rotation and
// translation tables the records index into.
#include "reader/j3d/anim_frames.hpp"

namespace remodel {

J3dAnf1 read_j3d_anf1(Cursor& c, J3dFiller& filler) {
  J3dAnf1 a;
  a.loop_mode = c.u8("loop_mode");
  a.unknown_0x09 = c.u8("unknown_0x09");
  a.duration = c.u16("duration");
  const std::uint16_t joint_count = c.u16("joint_count");
  const std::uint16_t scale_count = c.u16("scale_count");
  const std::uint16_t rotation_count = c.u16("rotation_count");
  const std::uint16_t translation_count = c.u16("translation_count");
  const std::uint32_t joints_at = c.u32("joints_offset");
  const std::uint32_t scales_at = c.u32("scales_offset");
  const std::uint32_t rotations_at = c.u32("rotations_offset");
  const std::uint32_t translations_at = c.u32("translations_offset");
  a.gap_after_header = read_j3d_gap(c, filler, joints_at, 32, "joints_offset");
  c.check_count(joint_count, 36, "joint_count");
  // Records are x (scale, rotation, translation), then y, then z; each table's runs go joint by joint, x to z.
  std::vector<J3dFrameRecord> by_kind[3];
  for (std::size_t j = 0; j < joint_count; ++j) {
    PathScope scope(c, "joint", static_cast<std::int64_t>(j));
    for (std::size_t k = 0; k < 9; ++k) by_kind[k % 3].push_back(read_j3d_frame_record(c));
  }
  const auto scales = read_j3d_value_table(c, filler, scales_at, scale_count, 4, 32, "scales_offset", a.gap_after_joints);
  const auto rotations = read_j3d_value_table(c, filler, rotations_at, rotation_count, 2, 32, "rotations_offset", a.gap_after_scales);
  const auto translations =
      read_j3d_value_table(c, filler, translations_at, translation_count, 4, 32, "translations_offset", a.gap_after_rotations);
  a.gap_after_translations = read_j3d_gap(c, filler, c.size(), 32, "size");

  a.joints.resize(joint_count);
  std::vector<J3dFrameTrack<float>*> scale_tracks, translation_tracks;
  std::vector<J3dFrameTrack<std::int16_t>*> rotation_tracks;
  for (J3dFullFrameJoint& joint : a.joints) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
      scale_tracks.push_back(&joint.scale[axis]);
      rotation_tracks.push_back(&joint.rotation[axis]);
      translation_tracks.push_back(&joint.translation[axis]);
    }
  }
  read_j3d_frame_tracks(c, by_kind[0], scale_tracks, scales, scales_at, j3d_anf1_scale_rule(), a.stored_scales);
  read_j3d_frame_tracks(c, by_kind[1], rotation_tracks, rotations, rotations_at, j3d_anf1_rotation_rule(), a.stored_rotations);
  read_j3d_frame_tracks(c, by_kind[2], translation_tracks, translations, translations_at, j3d_anf1_translation_rule(),
                        a.stored_translations);
  return a;
}

}  // namespace remodel
