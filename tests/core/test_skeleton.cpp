// scene::bind_to_skeleton: a modder's mesh, weighted in Blender to the game's armature, rebound to the
// game file's own joints (issue 30), checked by the posed comparison of tests/posing.hpp.
#include <gtest/gtest.h>

#include "blender_like.hpp"
#include "posing.hpp"
#include "scene/demo.hpp"
#include "scene/skeleton.hpp"

namespace remodel {
namespace {

using scene::Scene;

std::string joint_name(const Scene& s, std::size_t j) { return s.nodes[static_cast<std::size_t>(s.skins[0].joints[j])].name; }

// The game's skeleton, exactly: names, order, parents (by name), local transforms and inverse binds.
void expect_game_skeleton(const Scene& game, const Scene& bound) {
  ASSERT_EQ(bound.skins.size(), 1u);
  ASSERT_EQ(bound.skins[0].joints.size(), game.skins[0].joints.size());
  for (std::size_t j = 0; j < game.skins[0].joints.size(); ++j) {
    const scene::Node& g = game.nodes[static_cast<std::size_t>(game.skins[0].joints[j])];
    const scene::Node& b = bound.nodes[static_cast<std::size_t>(bound.skins[0].joints[j])];
    EXPECT_EQ(b.name, g.name) << "joint " << j;
    EXPECT_EQ(b.local, g.local) << "joint " << g.name;
    EXPECT_EQ(b.parent < 0 ? "" : bound.nodes[static_cast<std::size_t>(b.parent)].name, g.parent < 0 ? "" : game.nodes[static_cast<std::size_t>(g.parent)].name);
    EXPECT_EQ(bound.skins[0].inverse_bind_matrices[j], game.skins[0].inverse_bind_matrices[j]) << "joint " << g.name;
  }
}

TEST(BindToSkeleton, BlendersTurnedBonesBecomeTheGamesAndTheMeshMovesAsBlenderMovedIt) {
  const Scene game = scene::demo_grid(9, 9);
  Scene incoming = game;
  test::turn_bones_like_blender(incoming);
  test::strip_extras_like_blender(incoming);
  ASSERT_NE(incoming.nodes[2].local, game.nodes[2].local);  // the test means something: Blender turned joint_upper
  Result<scene::BoundScene> bound = scene::bind_to_skeleton(incoming, game);
  ASSERT_TRUE(bound) << bound.error().message;
  EXPECT_TRUE(bound->warnings.empty());
  expect_game_skeleton(game, bound->scene);
  const test::PosedDrift d = test::posed_drift(incoming, bound->scene, game, test::bend_every_joint(game, 0.6f), 2e-3f);
  EXPECT_EQ(d.vertices, 81u);
  EXPECT_LT(d.max_rest, 1e-3f);
  EXPECT_EQ(d.beyond, 0u) << "posed " << d.max_posed << " apart";
  // The comparison catches a mesh left on Blender's turned frames: bound to the game's joints with the
  // incoming inverse binds unchanged, it folds under the same pose.
  Scene folded = bound->scene;
  folded.skins[0].inverse_bind_matrices = incoming.skins[0].inverse_bind_matrices;
  EXPECT_GT(test::posed_drift(incoming, folded, game, test::bend_every_joint(game, 0.6f), 2e-3f).beyond, 0u);
}

TEST(BindToSkeleton, AJointTheGameLacksGivesItsWeightToTheNearestJointAboveWithAWarning) {
  const Scene game = scene::demo_grid(5, 5);
  Scene incoming = game;
  incoming.nodes[2].name = "tail_tip";  // joint_upper renamed: not in the game's skeleton
  Result<scene::BoundScene> bound = scene::bind_to_skeleton(incoming, game);
  ASSERT_TRUE(bound) << bound.error().message;
  ASSERT_EQ(bound->warnings.size(), 2u);  // the joint, and the demo's animation channels that moved it
  EXPECT_EQ(bound->warnings[1].where, "animations[0]");
  EXPECT_NE(bound->warnings[0].message.find("\"tail_tip\" is not in the skeleton file"), std::string::npos) << bound->warnings[0].message;
  EXPECT_NE(bound->warnings[0].message.find("\"joint_lower\""), std::string::npos) << bound->warnings[0].message;
  const scene::Primitive& p = bound->scene.meshes[0].primitives[0];
  for (std::size_t i = 0; i < p.joints.size(); ++i) {
    if (p.weights[i] > 0) {
      EXPECT_EQ(joint_name(bound->scene, p.joints[i]), "joint_lower");
    }
  }
  expect_game_skeleton(game, bound->scene);
}

TEST(BindToSkeleton, AMeshParentedToABoneFollowsThatBone) {
  const Scene game = scene::demo_grid(4, 4);
  Scene incoming = game;
  scene::Primitive rigid = incoming.meshes[0].primitives[0];
  rigid.influences = 0;
  rigid.joints.clear();
  rigid.weights.clear();
  incoming.meshes.push_back(scene::Mesh{"hat", {rigid}, nullptr});
  scene::Node hat;
  hat.name = "hat";
  hat.mesh = 1;
  hat.local.translation = {0, 0.25f, 0};
  incoming.add_node(std::move(hat), 2);  // under joint_upper
  Result<scene::BoundScene> bound = scene::bind_to_skeleton(incoming, game);
  ASSERT_TRUE(bound) << bound.error().message;
  EXPECT_TRUE(bound->warnings.empty());
  ASSERT_EQ(bound->scene.meshes.size(), 2u);
  const scene::Primitive& p = bound->scene.meshes[1].primitives[0];
  ASSERT_EQ(p.influences, 4u);
  EXPECT_EQ(joint_name(bound->scene, p.joints[0]), "joint_upper");
  EXPECT_EQ(p.weights[0], 1.0f);
  const test::PosedDrift d = test::posed_drift(incoming, bound->scene, game, test::bend_every_joint(game, 0.8f), 1e-4f);
  EXPECT_EQ(d.vertices, 32u);
  EXPECT_EQ(d.beyond, 0u) << "posed " << d.max_posed << " apart";
}

TEST(BindToSkeleton, AFileWithoutASkinIsRefused) {
  Scene game = scene::demo_grid(3, 3);
  game.skins.clear();
  Result<scene::BoundScene> bound = scene::bind_to_skeleton(scene::demo_grid(3, 3), game);
  ASSERT_FALSE(bound);
  EXPECT_EQ(bound.error().code, ErrorCode::unsupported);
}

// Hostile input: a 200,000-node parent chain is walked without recursion, in time linear in its length.
TEST(BindToSkeleton, ADeepChainAboveTheMeshIsWalkedOnce) {
  const Scene game = scene::demo_grid(3, 3);
  Scene incoming = game;
  int parent = -1;
  for (int i = 0; i < 200000; ++i) parent = incoming.add_node(scene::Node{"link", -1, {}, {}, -1, -1, true, nullptr}, parent);
  incoming.nodes[static_cast<std::size_t>(incoming.nodes.size() - 1)].mesh = 0;  // drawn at the bottom, unskinned
  Result<scene::BoundScene> bound = scene::bind_to_skeleton(incoming, game);
  ASSERT_TRUE(bound) << bound.error().message;
  ASSERT_EQ(bound->warnings.size(), 1u);  // the bottom node is under no joint: it follows the first
  EXPECT_NE(bound->warnings[0].message.find("under no joint"), std::string::npos);
  EXPECT_EQ(bound->scene.meshes.size(), 2u);
}

}  // namespace
}  // namespace remodel
