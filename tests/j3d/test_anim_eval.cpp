// J3D key evaluation against values worked out by hand from docs/j3d-animations.md ("Evaluation"):
// Hermite with tangents scaled by the key interval, steps at equal-time keys, clamping, the loop
// modes, rotation units and the T * Rz * Ry * Rx * S joint matrix; BCA full frames (the whole frame
// at or before, held past the last, one value for all, 0x8000 = 180 degrees whatever the header says).
#include <gtest/gtest.h>

#include <numbers>

#include "model/j3d/anim_eval.hpp"

namespace remodel {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

J3dFloatTrack track(std::uint16_t count, std::uint16_t tangent_mode, std::vector<float> values) {
  J3dFloatTrack t;
  t.count = count;
  t.tangent_mode = tangent_mode;
  t.values = std::move(values);
  return t;
}

TEST(J3dAnimEval, OneKeyIsAConstant) {
  const auto keys = j3d_keys(track(1, 0, {2.5f}));
  EXPECT_FLOAT_EQ(j3d_sample(keys, -3), 2.5f);
  EXPECT_FLOAT_EQ(j3d_sample(keys, 0), 2.5f);
  EXPECT_FLOAT_EQ(j3d_sample(keys, 40), 2.5f);
}

TEST(J3dAnimEval, HermiteScalesTangentsByTheKeyInterval) {
  // (0, 0, 1) to (10, 10, 1): slope 1 per frame at both ends is the straight line; at frame 2
  // (s = 0.2) the basis gives 0.104 * 10 + 0.128 * 1 * 10 - 0.032 * 1 * 10 = 2.
  const auto line = j3d_keys(track(2, 0, {0, 0, 1, 10, 10, 1}));
  EXPECT_NEAR(j3d_sample(line, 2), 2.0f, 1e-5f);
  EXPECT_NEAR(j3d_sample(line, 7.5f), 7.5f, 1e-5f);
  EXPECT_NEAR(j3d_slope(line, 3), 1.0f, 1e-5f);
  // Mode 1 (time, value, in, out): out 3 at the first key, in 0 at the second. Frame 2:
  // 0.104 * 10 + 0.128 * 3 * 10 = 4.88; frame 5 (s = 0.5): 0.5 * 10 + 0.125 * 3 * 10 = 8.75.
  const auto curve = j3d_keys(track(2, 1, {0, 0, -7, 3, 10, 10, 0, 99}));
  EXPECT_NEAR(j3d_sample(curve, 2), 4.88f, 1e-5f);
  EXPECT_NEAR(j3d_sample(curve, 5), 8.75f, 1e-5f);
  // Slope at frame 5: (6/4 - 3) * (0 - 10) / 10 + (3/4 - 2 + 1) * 3 = 1.5 - 0.75 = 0.75.
  EXPECT_NEAR(j3d_slope(curve, 5), 0.75f, 1e-5f);
  EXPECT_FLOAT_EQ(j3d_slope(curve, 0), 3.0f);
}

TEST(J3dAnimEval, ClampsOutsideTheKeys) {
  const auto keys = j3d_keys(track(2, 1, {4, 1, 0, 0, 8, 3, 0, 0}));
  EXPECT_FLOAT_EQ(j3d_sample(keys, -1), 1.0f);
  EXPECT_FLOAT_EQ(j3d_sample(keys, 2), 1.0f);
  EXPECT_FLOAT_EQ(j3d_sample(keys, 8), 3.0f);
  EXPECT_FLOAT_EQ(j3d_sample(keys, 100), 3.0f);
  EXPECT_FLOAT_EQ(j3d_slope(keys, 100), 0.0f);
  // Zero tangents halfway: the smoothstep's middle, (1 + 3) / 2.
  EXPECT_FLOAT_EQ(j3d_sample(keys, 6), 2.0f);
}

TEST(J3dAnimEval, EqualTimeKeysStep) {
  // Flat at 1 until frame 5, flat at 4 from frame 5: the later of the two keys at 5 holds from 5 on.
  const auto keys = j3d_keys(track(4, 0, {0, 1, 0, 5, 1, 0, 5, 4, 0, 10, 4, 0}));
  EXPECT_FLOAT_EQ(j3d_sample(keys, 4.99f), 1.0f);
  EXPECT_FLOAT_EQ(j3d_sample(keys, 5), 4.0f);
  EXPECT_FLOAT_EQ(j3d_sample(keys, 7), 4.0f);
}

TEST(J3dAnimEval, LoopModesMapTimeToFrame) {
  // Duration 10.
  EXPECT_FLOAT_EQ(j3d_loop_frame(0, 10, 3), 3.0f);
  EXPECT_FLOAT_EQ(j3d_loop_frame(0, 10, 15), 10.0f);   // once: holds the end
  EXPECT_FLOAT_EQ(j3d_loop_frame(1, 10, 10), 10.0f);
  EXPECT_FLOAT_EQ(j3d_loop_frame(1, 10, 15), 0.0f);    // once and reset: back to the start
  EXPECT_FLOAT_EQ(j3d_loop_frame(2, 10, 15), 5.0f);    // repeat
  EXPECT_FLOAT_EQ(j3d_loop_frame(2, 10, 25), 5.0f);
  EXPECT_FLOAT_EQ(j3d_loop_frame(2, 10, 10), 0.0f);
  EXPECT_FLOAT_EQ(j3d_loop_frame(3, 10, 15), 5.0f);    // mirror once: back to 0 and holds it
  EXPECT_FLOAT_EQ(j3d_loop_frame(3, 10, 25), 0.0f);
  EXPECT_FLOAT_EQ(j3d_loop_frame(4, 10, 15), 5.0f);    // mirror repeat
  EXPECT_FLOAT_EQ(j3d_loop_frame(4, 10, 20), 0.0f);
  EXPECT_FLOAT_EQ(j3d_loop_frame(4, 10, 35), 5.0f);
  EXPECT_FLOAT_EQ(j3d_loop_frame(2, 10, -4), 0.0f);
}

TEST(J3dAnimEval, AngleUnitsFollowTheScale) {
  EXPECT_FLOAT_EQ(0x4000 * j3d_angle_unit(0), kPi / 2);
  EXPECT_FLOAT_EQ(0x4000 * j3d_angle_unit(1), kPi);
  EXPECT_FLOAT_EQ(0x1000 * j3d_angle_unit(3), kPi);
}

TEST(J3dAnimEval, JointPoseAndMatrix) {
  // Scale (2, 3, 4); X and Z turned 90 degrees (0x2000 at angle scale 1); translation (5, 6, 7).
  J3dJointAnim joint;
  for (std::size_t i = 0; i < 3; ++i) {
    joint.scale[i] = track(1, 0, {2.0f + static_cast<float>(i)});
    joint.translation[i] = track(1, 0, {5.0f + static_cast<float>(i)});
    joint.rotation[i].values = {static_cast<std::int16_t>(i == 1 ? 0 : 0x2000)};
  }
  const J3dJointPose pose = j3d_joint_pose(joint, 1, 3);
  EXPECT_FLOAT_EQ(pose.rotation[0], kPi / 2);
  EXPECT_FLOAT_EQ(pose.rotation[1], 0);
  // X first: x stays x, then Z takes it to y; y goes to z under X and stays; z goes to -y, then to x.
  const std::array<float, 16> want{0, 2, 0, 0, 0, 0, 3, 0, 4, 0, 0, 0, 5, 6, 7, 1};
  const std::array<float, 16> m = j3d_pose_matrix(pose);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_NEAR(m[i], want[i], 1e-5f) << i;
}

TEST(J3dAnimEval, FullFramesHoldTheWholeFrameAndTheLast) {
  J3dFrameTrack<float> t;
  t.values = {1, 4, 9};
  EXPECT_FLOAT_EQ(j3d_frame_value(t, -2), 1);  // before frame 0: the first
  EXPECT_FLOAT_EQ(j3d_frame_value(t, 0), 1);
  EXPECT_FLOAT_EQ(j3d_frame_value(t, 1), 4);
  EXPECT_FLOAT_EQ(j3d_frame_value(t, 1.75f), 4);  // between frames: the one at or before
  EXPECT_FLOAT_EQ(j3d_frame_value(t, 2), 9);
  EXPECT_FLOAT_EQ(j3d_frame_value(t, 30), 9);  // past the stored frames: the last
  J3dFrameTrack<float> one;
  one.values = {2.5f};
  EXPECT_FLOAT_EQ(j3d_frame_value(one, 17), 2.5f);
}

TEST(J3dAnimEval, FullFrameJointPose) {
  // Frame 1 of: scale x (1, 2), rotation y (0, 0x4000, 0x8000) = 0, 90, -180 degrees, translation z
  // (3) for every frame; the rest the identity.
  J3dFullFrameJoint joint;
  for (std::size_t i = 0; i < 3; ++i) {
    joint.scale[i].values = {1.0f};
    joint.rotation[i].values = {0};
    joint.translation[i].values = {0.0f};
  }
  joint.scale[0].values = {1.0f, 2.0f};
  joint.rotation[1].values = {0, 0x4000, static_cast<std::int16_t>(-0x8000)};
  joint.translation[2].values = {3.0f};
  const J3dJointPose p1 = j3d_joint_pose(joint, 1);
  EXPECT_FLOAT_EQ(p1.scale[0], 2);
  EXPECT_FLOAT_EQ(p1.rotation[1], kPi / 2);
  EXPECT_FLOAT_EQ(p1.translation[2], 3);
  // Y by 90 degrees takes x to -z: the scaled x column (2, 0, 0) becomes (0, 0, -2).
  const std::array<float, 16> m = j3d_pose_matrix(p1);
  EXPECT_NEAR(m[0], 0, 1e-6f);
  EXPECT_NEAR(m[2], -2, 1e-6f);
  EXPECT_FLOAT_EQ(m[14], 3);
  const J3dJointPose p5 = j3d_joint_pose(joint, 5);  // scale held at 2, rotation at its last, -180 degrees
  EXPECT_FLOAT_EQ(p5.scale[0], 2);
  EXPECT_FLOAT_EQ(p5.rotation[1], -kPi);
}

}  // namespace
}  // namespace remodel
