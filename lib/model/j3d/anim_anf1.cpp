// ANF1 (bca): the table rule's seeds and the section as JSON.
#include "model/j3d/anim_anf1.hpp"

#include "model/j3d/anim_frames_json.hpp"

namespace remodel {

using namespace json_fields;

J3dFrameTableRule j3d_anf1_scale_rule() {
  return {true, std::bit_cast<std::uint32_t>(1.0f)};
}
J3dFrameTableRule j3d_anf1_rotation_rule() {
  return {true, 0};
}
J3dFrameTableRule j3d_anf1_translation_rule() {
  return {true, std::bit_cast<std::uint32_t>(0.0f)};
}

namespace {
template <typename T>
Json axes_json(const std::array<J3dFrameTrack<T>, 3>& tracks) {
  Json a = Json::array();
  for (const J3dFrameTrack<T>& t : tracks) a.push_back(j3d_frames_json(t));
  return a;
}
}  // namespace

Json j3d_anim_json(const J3dAnf1& a) {
  Json j{{"magic", "ANF1"}, {"loop_mode", a.loop_mode}, {"unknown_0x09", a.unknown_0x09}, {"duration", a.duration}};
  Json joints = Json::array();
  for (const J3dFullFrameJoint& k : a.joints) {
    joints.push_back(Json{{"scale", axes_json(k.scale)}, {"rotation", axes_json(k.rotation)}, {"translation", axes_json(k.translation)}});
  }
  j["joints"] = joints;
  verbatim(j, "stored_scales", a.stored_scales);
  verbatim(j, "stored_rotations", a.stored_rotations);
  verbatim(j, "stored_translations", a.stored_translations);
  verbatim(j, "gap_after_header", a.gap_after_header);
  verbatim(j, "gap_after_joints", a.gap_after_joints);
  verbatim(j, "gap_after_scales", a.gap_after_scales);
  verbatim(j, "gap_after_rotations", a.gap_after_rotations);
  verbatim(j, "gap_after_translations", a.gap_after_translations);
  return j;
}

}  // namespace remodel
