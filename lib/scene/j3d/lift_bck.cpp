// J3D BCK (ANK1) -> Scene animations on a model's JNT1 joints, evaluated as the game evaluates them
// (model/j3d/anim_eval.hpp). Translation and scale are the game's Hermite curves exactly, as glTF
// CUBICSPLINE keys at every key time of the path's three axes (a J3D tangent per frame is glTF's per
// second divided by 30); rotation, Hermite on Euler angles, is no quaternion spline and is sampled on
// every frame from 0 to the duration (LINEAR). Loop mode, duration and angle scale go to extras.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "model/j3d/anim_eval.hpp"
#include "scene/anim_channels.hpp"
#include "scene/j3d/anim_joints.hpp"
#include "scene/j3d/lift.hpp"

namespace remodel::scene {

namespace {

using AxisKeys = std::array<std::vector<J3dKey>, 3>;

bool keyed(const std::vector<J3dKey>& keys) { return keys.size() > 1; }

// Whether glTF's spline can hold the axes as they are: finite key times from 0 on, strictly increasing
// (two keys at one time are a step, which glTF's times cannot hold).
bool spline_exact(const AxisKeys& axes) {
  for (const std::vector<J3dKey>& keys : axes) {
    if (!keyed(keys)) continue;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (!std::isfinite(keys[k].time) || keys[k].time < 0 || (k > 0 && !(keys[k].time > keys[k - 1].time))) return false;
    }
  }
  return true;
}

// Every frame from 0 to the duration, as the game shows them.
std::vector<float> every_frame(std::uint16_t duration) {
  std::vector<float> frames(std::size_t{duration} + 1);
  for (std::size_t f = 0; f < frames.size(); ++f) frames[f] = static_cast<float>(f);
  return frames;
}

Channel sampled(int node, Path path, const AxisKeys& axes, const std::vector<float>& frames, float unit) {
  return sampled_channel(node, path, frames, kJ3dFps, [&](float f) {
    return Vec3{j3d_sample(axes[0], f) * unit, j3d_sample(axes[1], f) * unit, j3d_sample(axes[2], f) * unit};
  });
}

// A translation or scale path: the union of its axes' key times as CUBICSPLINE keys, each axis's value
// and slopes there (a cubic cut at any time is the same cubic); one LINEAR key when nothing moves.
Channel spline(int node, Path path, const AxisKeys& axes) {
  std::set<float> times;
  for (const std::vector<J3dKey>& keys : axes) {
    if (keyed(keys)) {
      for (const J3dKey& k : keys) times.insert(k.time);
    }
  }
  if (times.empty()) return sampled(node, path, axes, {0.0f}, 1);
  Channel c;
  c.node = node;
  c.path = path;
  c.interpolation = Interpolation::cubic_spline;
  for (float t : times) {
    c.times.push_back(t / kJ3dFps);
    std::array<float, 3> in{}, value{}, out{};
    for (std::size_t a = 0; a < 3; ++a) {
      const std::vector<J3dKey>& keys = axes[a];
      value[a] = j3d_sample(keys, t);
      const auto key = std::find_if(keys.begin(), keys.end(), [&](const J3dKey& k) { return k.time == t; });
      if (keyed(keys) && key != keys.end()) {
        // Flat before the first key and after the last, as the game clamps.
        in[a] = key == keys.begin() ? 0 : key->in;
        out[a] = key + 1 == keys.end() ? 0 : key->out;
      } else {
        in[a] = out[a] = j3d_slope(keys, t);
      }
    }
    for (std::size_t a = 0; a < 3; ++a) c.values.push_back(in[a] * kJ3dFps);
    c.values.insert(c.values.end(), value.begin(), value.end());
    for (std::size_t a = 0; a < 3; ++a) c.values.push_back(out[a] * kJ3dFps);
  }
  return c;
}

template <typename T>
AxisKeys axis_keys(const std::array<J3dAnimTrack<T>, 3>& tracks) {
  return {j3d_keys(tracks[0]), j3d_keys(tracks[1]), j3d_keys(tracks[2])};
}

Animation lift_ank1(const J3dAnk1& a, const std::string& name, const std::vector<int>& joint_nodes) {
  Animation anim;
  anim.name = name;
  anim.extras = {{"format", "bck"}, {"loop_mode", a.loop_mode}, {"angle_scale", a.angle_scale}, {"duration", a.duration}};
  const std::vector<float> frames = every_frame(a.duration);
  const float unit = j3d_angle_unit(a.angle_scale);
  for (std::size_t j = 0; j < a.joints.size(); ++j) {
    const int node = joint_nodes[j];
    const J3dJointAnim& joint = a.joints[j];
    const AxisKeys translation = axis_keys(joint.translation), rotation = axis_keys(joint.rotation), scale = axis_keys(joint.scale);
    anim.channels.push_back(spline_exact(translation) ? spline(node, Path::translation, translation)
                                                      : sampled(node, Path::translation, translation, frames, 1));
    const bool turns = keyed(rotation[0]) || keyed(rotation[1]) || keyed(rotation[2]);
    anim.channels.push_back(sampled(node, Path::rotation, rotation, turns ? frames : std::vector<float>{0.0f}, unit));
    anim.channels.push_back(spline_exact(scale) ? spline(node, Path::scale, scale) : sampled(node, Path::scale, scale, frames, 1));
  }
  return anim;
}

// The frames a lift samples a joint at: a BCK's every frame 0..duration (its turning rotations), a
// BCA's every frame it stores.
std::size_t lifted_frames(const J3dAnk1* ank1, const J3dAnf1* anf1) {
  return ank1 != nullptr ? std::size_t{ank1->duration} + 1 : j3d_stored_frames(*anf1);
}

}  // namespace

Result<void> lift_j3d_animations(const LiftInputs& inputs, const std::vector<int>& joint_nodes, Scene& scene) {
  // Every animation checked and its joint frames counted first: the cap holds before any is sampled.
  std::vector<const J3dAnimFile*> files(inputs.animations.size(), nullptr);
  std::size_t sampled = 0;
  for (std::size_t i = 0; i < inputs.animations.size(); ++i) {
    const std::string where = "animations[" + std::to_string(i) + "]";
    const Document* doc = inputs.animations[i];
    if (doc == nullptr) continue;
    const auto* file = std::get_if<J3dAnimFile>(doc);
    const auto* ank1 = file != nullptr ? std::get_if<J3dAnk1>(&file->section) : nullptr;
    const auto* anf1 = file != nullptr ? std::get_if<J3dAnf1>(&file->section) : nullptr;
    if (file == nullptr) {
      return Error{ErrorCode::unsupported, std::nullopt, where,
                   std::string("a ") + format_name(format_of(*doc)) + " file is not an animation remodel exports with a J3D model (BCK, BCA, BTK, BRK, BPK, BTP, BVA)"};
    }
    files[i] = file;
    if (ank1 == nullptr && anf1 == nullptr) continue;  // of the materials or shapes: lifted by their names below
    const std::size_t joints = ank1 != nullptr ? ank1->joints.size() : anf1->joints.size();
    if (joints != joint_nodes.size()) {
      return Error{ErrorCode::bad_count, std::nullopt, where + ".joint_count",
                   std::string("the ") + (ank1 != nullptr ? "BCK" : "BCA") + " animates " + std::to_string(joints) +
                       " joints but the model's JNT1 has " + std::to_string(joint_nodes.size())};
    }
    if (auto capped = add_sampled_joint_frames(sampled, joints, lifted_frames(ank1, anf1), where, ank1 != nullptr ? "BCK" : "BCA"); !capped) {
      return capped.error();
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (files[i] == nullptr) continue;
    const std::string name = i < inputs.animation_names.size() && !inputs.animation_names[i].empty() ? inputs.animation_names[i]
                                                                                                     : "animation" + std::to_string(i);
    if (const auto* ank1 = std::get_if<J3dAnk1>(&files[i]->section)) {
      scene.animations.push_back(lift_ank1(*ank1, name, joint_nodes));
    } else if (const auto* anf1 = std::get_if<J3dAnf1>(&files[i]->section)) {
      scene.animations.push_back(lift_j3d_bca(*anf1, name, joint_nodes));
    } else if (auto lifted = lift_j3d_material_animation(*files[i], name, scene); !lifted) {
      return lifted.error();
    }
  }
  return {};
}

}  // namespace remodel::scene
