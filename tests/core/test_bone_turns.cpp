// scene::incoming_joints: which parts of a joint Blender brought back moved past its own noise.
#include <gtest/gtest.h>

#include "scene/bone_turns.hpp"

namespace remodel {
namespace {

using scene::Scene;

// A leg as sms_ma_mdl1 holds its feet: hip at 100 up, foot at the origin, and a zero-length joint
// on the foot (M_foot_R), which Blender cannot hold as a bone.
Scene leg() {
  Scene s;
  s.nodes.resize(3);
  s.nodes[0].name = "hip";
  s.nodes[0].local.translation = {0, 100, 0};
  s.nodes[0].children = {1};
  s.nodes[1].name = "foot";
  s.nodes[1].parent = 0;
  s.nodes[1].local.translation = {0, -100, 0};
  s.nodes[1].children = {2};
  s.nodes[2].name = "M_foot";
  s.nodes[2].parent = 1;
  s.nodes[2].local.translation = {0, 0, -1e-6f};
  return s;
}

scene::IncomingJoint foot_mark_moved_by(float dy) {
  const Scene base = leg();
  Scene in = base;
  in.nodes[2].local.translation.y += dy;
  return scene::incoming_joints(in, {0, 1, 2}, base, {0, 1, 2})[2];
}

// Measured: Blender's round trip of sms_ma_mdl1 moved M_foot_R by 1.93e-3 at an extent of 97 (2e-5).
TEST(IncomingJoints, AZeroLengthJointWithinBlendersNoiseDidNotMove) {
  EXPECT_FALSE(foot_mark_moved_by(2e-5f * 100).translation_moved);
  EXPECT_FALSE(foot_mark_moved_by(-3.5e-5f * 100).translation_moved);
}

TEST(IncomingJoints, AZeroLengthJointMovedPastTheNoiseIsAnEdit) {
  EXPECT_TRUE(foot_mark_moved_by(1e-4f * 100).translation_moved);
  EXPECT_TRUE(foot_mark_moved_by(1.0f).translation_moved);
}

}  // namespace
}  // namespace remodel
