// Incoming joints as the base holds them. Blender's glTF importer turns every bone by one of the 24
// rotations by multiples of 90 degrees about the axes (so its tip points at a child) and its exporter
// writes that turn into the joint's node transform and inverse bind: skinning is the same, the local
// transforms are not. The lowers take the turns off before comparing joints (and their animated
// poses) with the base.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "scene/math.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

// The axis rotation (entries 0 and +-1, determinant 1) nearest `m`'s 3x3 part, the identity when the
// 3x3 part is near none (a turn of 45 degrees or more from all of them).
Mat4 nearest_axis_rotation(const Mat4& m);

// An incoming joint (node in_nodes[k], standing for base joint node base_nodes[k]) as the base holds
// it: its local transform with the turns of itself and its parent joint taken off (P_parent * L * P^T,
// P = the axis rotation nearest base_world^-1 * incoming_world; exactly its local when neither is
// turned, and signed permutations are exact in floats), and which parts moved past Blender's noise.
struct IncomingJoint {
  Trs local;
  bool translation_moved = false, rotation_moved = false, scale_moved = false;
};

// Blender rebuilds every bone from a head, a tail and a roll: measured on the J3D and MHFU samples, a
// joint comes back turned by up to 5.1e-4 radians, its translation off by that angle times its length
// plus noise at the model's size (2e-6 of it; 2e-5 for sms_ma_mdl1's zero-length M_foot joints,
// which Blender cannot hold as bones), its scale within 6e-8. Twice that is no edit: rotations within
// 1e-3 radians (0.06 degrees), translations within 1e-3 of their length plus 4e-5 of the skeleton's
// extent (the farthest joint from the origin, at least 1), scales within 1e-5.
inline constexpr double kBoneRollNoise = 1e-3;
inline constexpr float kJointReachNoise = 4e-5f;
inline constexpr float kJointScaleNoise = 1e-5f;

// Blender cannot hold a bone of zero size: a joint stored at scale 0 on an axis (riistudio_Mario's
// PartsControl, 0 on X) comes back at 1 there, which is no edit. `t` with such scales at 1.
Trs blender_scaled(Trs t);

// Entry k for pair k; an unmatched pair (-1) is left default, nothing moved.
std::vector<IncomingJoint> incoming_joints(const Scene& in, const std::vector<int>& in_nodes, const Scene& base, const std::vector<int>& base_nodes);

// The turns Blender gave incoming joint k (node in_nodes[k], standing for a base joint whose local
// transform is base_locals[k]) and its parent joint: P = the axis rotation nearest
// base_local^-1 * P_parent * incoming_local, parents first; the identity for an unmatched pair (-1).
struct JointTurn {
  Mat4 turn, parent_turn;
  bool turned() const { return !(turn == Mat4::identity()) || !(parent_turn == Mat4::identity()); }
};
std::vector<JointTurn> joint_turns(const Scene& in, const std::vector<int>& in_nodes, const std::vector<Trs>& base_locals);

// An incoming local transform (the joint's rest, or its pose at an animation frame) with the turns
// taken off, path by path as Blender's importer puts them on: translation P_parent * t, rotation
// P_parent * R * P^T, scale's axes permuted back by P with their signs (so P_parent * local * P^T);
// `local` itself when the joint and its parent are not turned.
Trs turns_taken_off(const Trs& local, const JointTurn& t);

// Blender's noise on a joint's pose (the bounds above), where the skeleton came back turned; none else.
struct PoseNoise {
  bool blender = false;
  float extent = 1;  // the farthest joint from the origin, at least 1

  float translation(Vec3 stored) const { return blender ? static_cast<float>(kBoneRollNoise) * length(stored) + kJointReachNoise * extent : 0.0f; }
  float scale(float stored) const { return blender ? kJointScaleNoise * std::max(1.0f, std::abs(stored)) : 0.0f; }
  double rotation() const { return blender ? kBoneRollNoise : 0.0; }
};

// The noise the incoming joints (nodes, -1 for none) may carry given their turns: Blender's where any
// joint came back turned, its extent the farthest of them from the origin.
PoseNoise pose_noise(const Scene& in, const std::vector<int>& nodes, const std::vector<JointTurn>& turns);

// What each frame of a path shows in the incoming Scene: its channel sampled at frame / fps seconds,
// else the node's rest.
std::vector<Vec3> incoming_vectors(const Channel* c, Vec3 rest, const std::vector<float>& frames, float fps);
std::vector<Quat> incoming_rotations(const Channel* c, Quat rest, const std::vector<float>& frames, float fps);

// What each frame of a joint shows in the incoming Scene (each path's channel sampled at `fps`, else
// the node's rest), with the turns Blender gave the joint and its parent taken off.
struct IncomingJointPose {
  const std::array<const Channel*, 3>& paths;
  const Trs& rest;
  const JointTurn& turn;
  float fps;

  std::vector<Trs> at(const std::vector<float>& frames) const;
};

// The angle between two rotations, radians (well-conditioned near 0, unlike acos of their dot product).
double rotation_angle(Quat a, Quat b);

}  // namespace remodel::scene
