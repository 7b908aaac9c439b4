// J3D animations evaluated as the game evaluates them: a keyed track's value at a frame (cubic Hermite
// between keys, clamped outside them), a full-frame track's, a time mapped to a frame by the loop mode,
// and a BCK or BCA joint's scale, rotation and translation at a frame (docs/j3d-animations.md,
// "Evaluation").
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "model/j3d/anim.hpp"

namespace remodel {

// One key as the game reads it: time in frames, value, in and out tangents in value units per frame.
struct J3dKey {
  float time = 0, value = 0, in = 0, out = 0;
};

// A track's keys: one key is the constant (time 0, flat); tangent mode 0 gives the one tangent as both
// in and out. Rotation keys stay in their s16 units (times, values and tangents alike).
std::vector<J3dKey> j3d_keys(const J3dFloatTrack& track);
std::vector<J3dKey> j3d_keys(const J3dAngleTrack& track);

// The value at `frame`: the first value before the first key, the last after the last key, else the
// Hermite between the last key at or before `frame` and the next (so of two keys at one time, the
// later holds from that time on: a step).
float j3d_sample(std::span<const J3dKey> keys, float frame);
// The slope (value per frame) at `frame`, from its right: 0 outside the keys.
float j3d_slope(std::span<const J3dKey> keys, float frame);

// The Hermite between (t0, v0, out0) and (t1, v1, in1) at `frame`, tangents per frame scaled by t1 - t0.
float j3d_hermite(const J3dKey& k0, const J3dKey& k1, float frame);

// The frame shown `time` frames after the animation starts, by ANK1's loop mode: 0 holds the last
// frame, 1 returns to frame 0, 2 repeats, 3 plays back once to frame 0 and holds it, 4 plays back and
// forth; a mode past 4 plays as 0.
float j3d_loop_frame(std::uint8_t loop_mode, float duration, float time);

// Radians per rotation unit: 180 degrees * 2^angle_scale / 0x8000.
float j3d_angle_unit(std::uint8_t angle_scale);

// A joint at one frame: scale, X/Y/Z angles in radians (applied X, then Y, then Z), translation.
struct J3dJointPose {
  std::array<float, 3> scale{1, 1, 1}, rotation{}, translation{};
};
J3dJointPose j3d_joint_pose(const J3dJointAnim& joint, std::uint8_t angle_scale, float frame);

// A full-frame track's value at `frame`: the stored value of the whole frame at or before it, the
// first before frame 0, the last from the track's last frame on (one value holds at every frame).
template <typename T>
float j3d_frame_value(const J3dFrameTrack<T>& track, float frame) {
  if (track.values.empty()) return 0;
  if (!(frame > 0)) return static_cast<float>(track.values.front());
  const float last = static_cast<float>(track.values.size() - 1);
  return static_cast<float>(track.values[frame >= last ? track.values.size() - 1 : static_cast<std::size_t>(frame)]);
}
// A BCA joint at one frame; its rotations are s16 with 0x8000 = 180 degrees (ANF1 has no angle scale).
J3dJointPose j3d_joint_pose(const J3dFullFrameJoint& joint, float frame);

// The joint's local matrix (4x4, column-major): T * Rz * Ry * Rx * S, as JNT1's rest pose.
std::array<float, 16> j3d_pose_matrix(const J3dJointPose& pose);

// A texture matrix at one frame as J3DTexMtx takes it from a TTK1 record: scale and translation on S
// and T, the rotation about Q in radians (the S, T rotations and everything on Q are not used).
struct J3dTexSrt {
  float scale_s = 1, scale_t = 1, rotation = 0, translation_s = 0, translation_t = 0;
};
J3dTexSrt j3d_texture_srt(const J3dJointAnim& keys, std::uint8_t angle_scale, float frame);

// The 2x3 matrix (rows u, v: m[0] m[1] m[2], m[3] m[4] m[5]) the game makes of it: J3DGetTextureMtx
// about `centre` (S, T), or J3DGetTextureMtxMaya when the TTK1's calc type is 1 (Maya).
std::array<float, 6> j3d_texture_matrix(const J3dTexSrt& srt, std::array<float, 2> centre, bool maya);

}  // namespace remodel
