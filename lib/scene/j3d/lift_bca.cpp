// J3D BCA (ANF1) -> a Scene animation on a model's JNT1 joints. A BCA stores every frame, so each path
// is keyed at every frame its longest axis stores (LINEAR, frame / 30 s; the shorter axes hold their
// last value as the game does), one key when every axis holds one value; rotations are quaternions of
// the stored X, Y, Z angles (0x8000 = 180 degrees), composed as JNT1's. Loop mode and duration go to extras.
#include <algorithm>

#include "model/j3d/anim_eval.hpp"
#include "scene/anim_channels.hpp"
#include "scene/j3d/anim_joints.hpp"
#include "scene/j3d/lift.hpp"

namespace remodel::scene {

namespace {

// The frames a path is keyed at: 0 to its longest axis's last stored frame.
template <typename T>
std::vector<float> stored_frames(const std::array<J3dFrameTrack<T>, 3>& axes) {
  std::size_t longest = 1;
  for (const J3dFrameTrack<T>& t : axes) longest = std::max(longest, t.values.size());
  std::vector<float> frames(longest);
  for (std::size_t f = 0; f < longest; ++f) frames[f] = static_cast<float>(f);
  return frames;
}

template <typename T>
Channel frame_channel(int node, Path path, const std::array<J3dFrameTrack<T>, 3>& axes, float unit) {
  return sampled_channel(node, path, stored_frames(axes), kJ3dFps, [&](float f) {
    return Vec3{j3d_frame_value(axes[0], f) * unit, j3d_frame_value(axes[1], f) * unit, j3d_frame_value(axes[2], f) * unit};
  });
}

}  // namespace

Animation lift_j3d_bca(const J3dAnf1& a, const std::string& name, const std::vector<int>& joint_nodes) {
  Animation anim;
  anim.name = name;
  anim.extras = {{"format", "bca"}, {"loop_mode", a.loop_mode}, {"duration", a.duration}};
  for (std::size_t j = 0; j < a.joints.size(); ++j) {
    const J3dFullFrameJoint& joint = a.joints[j];
    anim.channels.push_back(frame_channel(joint_nodes[j], Path::translation, joint.translation, 1));
    anim.channels.push_back(frame_channel(joint_nodes[j], Path::rotation, joint.rotation, j3d_angle_unit(0)));
    anim.channels.push_back(frame_channel(joint_nodes[j], Path::scale, joint.scale, 1));
  }
  return anim;
}

}  // namespace remodel::scene
