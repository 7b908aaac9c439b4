// scene::incoming_joints: which parts of a joint Blender brought back moved past its own noise;
// scene::turns_taken_off: a pose with its turns taken off path by path.
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


// Blender's importer turns a pose path by path: with P = 90 degrees about Z (X to Y) and P_parent =
// -90 degrees about X, a pose of translation (1, 2, 3), scale (1, -0.5, 2) comes in as translation
// P_parent^T * t = (1, -3, 2) and scale (-0.5, 1, 2): taken off, each sign is back on its own axis
// (a decompose of the whole moved it to X and turned the rotation 180 degrees).
TEST(TurnsTakenOff, ANegativeScaleKeepsItsSignOnItsAxis) {
  scene::JointTurn t;
  t.turn = scene::nearest_axis_rotation(scene::rotation_matrix(scene::axis_angle({0, 0, 1}, 1.5707964f)));
  t.parent_turn = scene::nearest_axis_rotation(scene::rotation_matrix(scene::axis_angle({1, 0, 0}, -1.5707964f)));
  ASSERT_TRUE(t.turned());
  const scene::Quat rotation = scene::axis_angle(scene::normalize(scene::Vec3{1, 2, 3}), 0.3f);
  scene::Mat4 parent_back;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) parent_back.at(r, c) = t.parent_turn.at(c, r);
  }
  scene::Trs incoming;
  incoming.translation = {1, -3, 2};
  incoming.rotation = scene::rotation_of(parent_back * scene::rotation_matrix(rotation) * t.turn);
  incoming.scale = {-0.5f, 1, 2};
  const scene::Trs base = scene::turns_taken_off(incoming, t);
  EXPECT_EQ(base.translation, (scene::Vec3{1, 2, 3}));
  EXPECT_EQ(base.scale, (scene::Vec3{1, -0.5f, 2}));
  EXPECT_LT(scene::rotation_angle(base.rotation, rotation), 1e-5);
}

}  // namespace
}  // namespace remodel
