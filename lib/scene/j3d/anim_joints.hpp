// What the J3D joint animations (BCK, BCA) share going from a Scene to a file: the model's joints by
// name and rest pose, each joint's node in the incoming Scene, the glTF animation standing for a base,
// its paths sampled on whole frames at 30 fps, and a new animation sampled onto the model's joints.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/document.hpp"
#include "model/verbatim.hpp"
#include "scene/bone_turns.hpp"
#include "scene/lower.hpp"

namespace remodel::scene {

// J3D animations count frames at 30 per second.
constexpr float kJ3dFps = 30;

// Which value tables (scales, rotations, translations) an edit laid out again.
struct J3dChangedTables {
  bool scales = false, rotations = false, translations = false;
};

// The model's joints: names (JNT1's name table) and rest poses, in JNT1 order.
struct J3dAnimSkeleton {
  std::vector<std::string> names;
  std::vector<Trs> rest;
};
// `doc`'s JNT1 joints; an error saying `needs` when it is no J3D model with JNT1.
Result<J3dAnimSkeleton> j3d_anim_skeleton(const Document* doc, const char* needs);

// The incoming animation standing for a base animation of `kind`: the one named as the base file, else
// the only one; its channels checked.
struct J3dAnimBase {
  const Animation* animation = nullptr;
  std::string where;  // "animations[i]"
};
Result<J3dAnimBase> j3d_anim_base(const Scene& scene, const std::string& base_name, const char* kind);

// The incoming animation standing for a base (`kind`, "BCK") of `joints` joints, its channels checked,
// and each joint's node: the animation named as the base file (else the only one); the nodes by the
// --skeleton model's names, else the first skin's joints in order (an exported J3D model's skin lists
// every JNT1 joint in order). With --skeleton, the turns Blender gave each joint, found against the
// model's JNT1 rest poses, and the noise its pose may carry; without it none are known.
struct J3dAnimTarget {
  const Animation* animation = nullptr;
  std::vector<int> nodes;
  std::vector<JointTurn> turns;  // one per joint
  PoseNoise noise;
  std::string where;  // "animations[i]"
};
Result<J3dAnimTarget> j3d_anim_target(const Scene& scene, const LowerInputs& inputs, std::size_t joints, const char* kind,
                                      std::vector<Warning>& warnings);

// An extras number in [0, max], else `fallback`.
template <typename T>
T extras_number(const Extras& x, const char* key, T fallback, unsigned max) {
  if (!x.is_object() || !x.contains(key) || !x[key].is_number_unsigned() || x[key].get<unsigned>() > max) return fallback;
  return static_cast<T>(x[key].get<unsigned>());
}

// Where the incoming rotations disagree with the stored X, Y, Z angles (`stored`, rotation units, one
// per frame) by more than half a unit (or Blender's noise, `noise`): each axis's incoming angles
// nearest the stored ones, for the axes not within that of them at every frame; all empty when the
// rotations agree.
std::array<std::optional<std::vector<float>>, 3> changed_angles(const std::vector<Quat>& incoming, const std::vector<Vec3>& stored, float unit,
                                                                const PoseNoise& noise);

// A kind of table laid out again: the rule places every track of it, and what follows is canonical.
template <typename Joint, typename Track>
void relayout(std::vector<Joint>& joints, std::array<Track, 3> Joint::*kind, Verbatim& stored_table) {
  for (Joint& j : joints) {
    for (Track& t : j.*kind) t.stored_index.reset();
  }
  stored_table = Verbatim{};
}

// The first glTF animation of a new file, checked: its last frame at 30 fps (round(end * 30)), and the
// loop mode and duration its extras give (else 0, once, and that last frame).
struct J3dNewAnimation {
  J3dAnimSkeleton skeleton;
  const Animation* animation = nullptr;
  std::uint16_t last_frame = 0, duration = 0;
  std::uint8_t loop_mode = 0;
};
Result<J3dNewAnimation> new_j3d_animation(const Scene& scene, const LowerInputs& inputs, const char* kind, std::vector<Warning>& warnings);

// The frames a BCA stores: its longest track's, at least 1.
std::size_t j3d_stored_frames(const J3dAnf1& a);

// Adds `joints` x `frames` to the joint frames sampled so far (`sampled`); an error at `where` past
// kMaxSampledJointFrames, before any is sampled (a BCK or BCA lifted, lowered over a base or new).
Result<void> add_sampled_joint_frames(std::size_t& sampled, std::size_t joints, std::size_t frames, const std::string& where,
                                      const char* kind);

// One joint's paths at each sampled frame; `euler` is X, Y, Z radians, each nearest the frame before.
struct J3dSampledJoint {
  std::vector<Vec3> translation, scale, euler;
};
// Every skeleton joint sampled at frames 0..`last` from its node of the same name, with the turns
// Blender gave it and its parent (found against the model's JNT1 rest poses) taken off; a joint without
// one holds the model's rest pose (a warning), no joint with one is an error.
Result<std::vector<J3dSampledJoint>> sample_j3d_joints(const Scene& scene, const J3dNewAnimation& a, std::size_t last,
                                                       std::vector<Warning>& warnings);

}  // namespace remodel::scene
