// BCA into glTF and back: every BCA sample (and every BCA of the Pikmin 2 archive) exports with its
// model as one glTF animation showing each stored frame as the game does, the unedited glTF imports
// over the BCA to its bytes, an edited frame changes only its own track, a new BCA authored from a BCA's
// export moves the joints as the original did, and a BCA whose joint count is not its model's is
// refused naming both counts. Blender's export (bones turned, every frame sampled, its noise) imports
// back identical too.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "blender_like.hpp"
#include "j3d/anim_gltf.hpp"
#include "model/archive/members.hpp"
#include "model/j3d/anim_eval.hpp"
#include "samples.hpp"
#include "scene/anim_channels.hpp"
#include "scene/lower.hpp"

namespace remodel {
namespace {

using test::skeleton_scene;
using test::through_glb;

// The BCA's export on `joints` shows every frame 0..duration as the game does (on every joint), and
// imports over the BCA to its bytes.
void expect_round_trip(const scene::Scene& joints, const Bytes& original, const std::string& name) {
  SCOPED_TRACE(name);
  Result<Document> bca = read_document(original);
  ASSERT_TRUE(bca) << bca.error().describe();
  const scene::Scene scene = through_glb(joints, *bca, name);
  ASSERT_EQ(scene.animations.size(), 1u);
  const J3dAnf1& a = std::get<J3dAnf1>(std::get<J3dAnimFile>(*bca).section);
  EXPECT_EQ(scene.animations[0].channels.size(), a.joints.size() * 3);
  EXPECT_EQ(scene.animations[0].extras["format"], "bca");
  EXPECT_EQ(scene.animations[0].extras["duration"], a.duration);
  for (std::size_t j = 0; j < a.joints.size(); ++j) {
    const auto paths = scene::path_channels(scene.animations[0], scene.skins[0].joints[j]);
    for (int f = 0; f <= a.duration; ++f) {
      const J3dJointPose pose = j3d_joint_pose(a.joints[j], static_cast<float>(f));
      const float time = static_cast<float>(f) / 30.0f;
      const auto t = scene::sample_channel(*paths[0], 3, time), s = scene::sample_channel(*paths[2], 3, time);
      for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_NEAR(t[i], pose.translation[i], 1e-5f * (1 + std::abs(pose.translation[i]))) << j << " " << f;
        EXPECT_NEAR(s[i], pose.scale[i], 1e-5f * (1 + std::abs(pose.scale[i]))) << j << " " << f;
      }
      const auto r = scene::sample_channel(*paths[1], 4, time);
      const scene::Quat want = scene::euler_to_quat({pose.rotation[0], pose.rotation[1], pose.rotation[2]}, scene::EulerOrder::xyz);
      EXPECT_NEAR(std::abs(r[0] * want.x + r[1] * want.y + r[2] * want.z + r[3] * want.w), 1.0f, 1e-5f) << j << " " << f;
    }
  }
  scene::LowerInputs li;
  li.base_name = name;
  auto lowered = scene::lower(scene, *bca, li);
  ASSERT_TRUE(lowered) << lowered.error().describe();
  EXPECT_TRUE(lowered->warnings.empty());
  auto bytes = write_document(lowered->document);
  ASSERT_TRUE(bytes) << bytes.error().describe();
  EXPECT_TRUE(*bytes == original);
}

// As Blender exports the BCA's action unedited (tests/blender_like.hpp): joints turned, every channel
// sampled at each frame with the turn and Blender's pose noise in it; over the --skeleton model it
// imports to the BCA's bytes.
void expect_blender_like_round_trip(const Document& model, const scene::Scene& joints, const Bytes& original, const std::string& name) {
  SCOPED_TRACE(name + " (Blender-like)");
  Result<Document> bca = read_document(original);
  ASSERT_TRUE(bca) << bca.error().describe();
  scene::Scene scene = through_glb(joints, *bca, name);
  test::sample_and_turn_animations_like_blender(scene);
  test::turn_bones_like_blender(scene);
  scene::LowerInputs li;
  li.base_name = name;
  li.skeleton = &model;
  auto lowered = scene::lower(scene, *bca, li);
  ASSERT_TRUE(lowered) << lowered.error().describe();
  auto bytes = write_document(lowered->document);
  ASSERT_TRUE(bytes) << bytes.error().describe();
  EXPECT_TRUE(*bytes == original);
}

TEST(J3dBcaGltf, EverySampleExportsAndImportsBackIdentical) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim");
  const auto piki = test::load_named_sample("j3d-anim/pik2_piki", "piki_p2_red.bmd");
  const auto tree = test::load_named_sample("j3d", "mkdd_mariotree1.bmd");
  ASSERT_TRUE(piki && tree) << "piki_p2_red.bmd or mkdd_mariotree1.bmd absent beside the BCAs";
  const scene::Scene piki_joints = skeleton_scene(*piki), tree_joints = skeleton_scene(*tree);
  std::size_t tested = 0;
  for (const auto& path : files) {
    if (path.extension() != ".bca") continue;
    const std::string set = path.parent_path().filename().string();
    ASSERT_TRUE(set == "pik2_piki" || set == "mkdd_mariotree1") << path << ": which model does it animate?";
    const Bytes original = test::load_file(path);
    expect_round_trip(set == "pik2_piki" ? piki_joints : tree_joints, original, path.stem().string());
    expect_blender_like_round_trip(set == "pik2_piki" ? *piki : *tree, set == "pik2_piki" ? piki_joints : tree_joints, original, path.stem().string());
    ++tested;
  }
  EXPECT_EQ(tested, 11u);
}

TEST(J3dBcaGltf, EveryBcaOfThePikmin2ArchiveImportsBackIdentical) {
  const auto path = test::samples_root() / "archives" / "meltytool_goldens" / "yaz0" / "pikis" / "input" / "pikis.yaz0";
  const auto piki = test::load_named_sample("j3d-anim/pik2_piki", "piki_p2_red.bmd");
  if (!std::filesystem::exists(path) || !piki) {
    if (test::samples_required()) FAIL() << "REMODEL_REQUIRE_SAMPLES=1 but pikis.yaz0 or piki_p2_red.bmd is absent";
    GTEST_SKIP() << "pikis.yaz0 or piki_p2_red.bmd is absent";
  }
  Result<Archive> archive = open_archive(test::load_file(path));
  ASSERT_TRUE(archive) << archive.error().describe();
  const scene::Scene joints = skeleton_scene(*piki);
  std::size_t tested = 0;
  for (const RarcPath& p : rarc_paths(archive->rarc)) {
    if (p.directory || !p.path.ends_with(".bca")) continue;
    const Bytes& original = find_member(archive->rarc, p.path)->data;
    expect_round_trip(joints, original, std::filesystem::path(p.path).stem().string());
    expect_blender_like_round_trip(*piki, joints, original, std::filesystem::path(p.path).stem().string());
    ++tested;
  }
  EXPECT_EQ(tested, 68u);
}

TEST(J3dBcaGltf, AnEditedFrameChangesOnlyItsTrack) {
  const auto model = test::load_named_sample("j3d-anim/pik2_piki", "piki_p2_red.bmd");
  const auto bca = test::load_named_sample("j3d-anim/pik2_piki", "walk.bca");
  if (!model || !bca) GTEST_SKIP() << "piki_p2_red.bmd or walk.bca absent";
  scene::Scene scene = through_glb(skeleton_scene(*model), *bca, "walk");
  const J3dAnf1& base = std::get<J3dAnf1>(std::get<J3dAnimFile>(*bca).section);
  // The first joint whose translation y stores every frame: frame 5 raised by 10.
  std::size_t j = 0;
  while (j < base.joints.size() && base.joints[j].translation[1].values.size() < 6) ++j;
  ASSERT_LT(j, base.joints.size());
  scene::Channel& c = scene.animations[0].channels[j * 3];
  ASSERT_EQ(c.node, scene.skins[0].joints[j]);
  ASSERT_EQ(c.path, scene::Path::translation);
  c.values[5 * 3 + 1] += 10.0f;
  scene::LowerInputs li;
  li.skeleton = &*model;
  auto lowered = scene::lower(scene, *bca, li);
  ASSERT_TRUE(lowered) << lowered.error().describe();
  auto bytes = write_document(lowered->document);
  ASSERT_TRUE(bytes) << bytes.error().describe();
  auto reread = read_j3d_anim(*bytes);
  ASSERT_TRUE(reread) << reread.error().describe();
  EXPECT_TRUE(reread->closing_filler_cut);  // still cut as walk.bca is
  const J3dAnf1& out = std::get<J3dAnf1>(reread->section);
  for (std::size_t k = 0; k < base.joints.size(); ++k) {
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(out.joints[k].scale[i].values, base.joints[k].scale[i].values) << k;
      EXPECT_EQ(out.joints[k].rotation[i].values, base.joints[k].rotation[i].values) << k;
      if (k != j || i != 1) {
        EXPECT_EQ(out.joints[k].translation[i].values, base.joints[k].translation[i].values) << k;
      }
    }
  }
  const std::vector<float>& before = base.joints[j].translation[1].values;
  const std::vector<float>& after = out.joints[j].translation[1].values;
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t f = 0; f < before.size(); ++f) EXPECT_FLOAT_EQ(after[f], before[f] + (f == 5 ? 10.0f : 0.0f)) << f;
}

TEST(J3dBcaGltf, ANewBcaMovesTheJointsAsTheGltfDid) {
  const auto model = test::load_named_sample("j3d-anim/pik2_piki", "piki_p2_red.bmd");
  const auto bca = test::load_named_sample("j3d-anim/pik2_piki", "chatting.bca");
  if (!model || !bca) GTEST_SKIP() << "piki_p2_red.bmd or chatting.bca absent";
  const scene::Scene scene = through_glb(skeleton_scene(*model), *bca, "chatting");
  scene::LowerInputs li;
  li.skeleton = &*model;
  li.j3d_bca = true;
  auto authored = scene::author(scene, Format::j3d_anim, li);
  ASSERT_TRUE(authored) << authored.error().describe();
  EXPECT_TRUE(authored->warnings.empty());
  auto bytes = write_document(authored->document);
  ASSERT_TRUE(bytes) << bytes.error().describe();
  auto reread = read_j3d_anim(*bytes);
  ASSERT_TRUE(reread) << reread.error().describe();
  EXPECT_EQ(std::string(reread->type.begin(), reread->type.end()), "bca1");
  EXPECT_TRUE(reread->closing_filler_cut);  // as Nintendo's
  const J3dAnf1& base = std::get<J3dAnf1>(std::get<J3dAnimFile>(*bca).section);
  const J3dAnf1* out = std::get_if<J3dAnf1>(&reread->section);
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(out->joints.size(), base.joints.size());
  EXPECT_EQ(out->duration, base.duration);
  EXPECT_EQ(out->loop_mode, base.loop_mode);
  for (std::size_t j = 0; j < base.joints.size(); ++j) {
    for (int f = 0; f <= base.duration; ++f) {
      const J3dJointPose want = j3d_joint_pose(base.joints[j], static_cast<float>(f)), got = j3d_joint_pose(out->joints[j], static_cast<float>(f));
      for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_NEAR(got.translation[i], want.translation[i], 1e-5f * (1 + std::abs(want.translation[i]))) << j << " " << f;
        EXPECT_NEAR(got.scale[i], want.scale[i], 1e-5f * (1 + std::abs(want.scale[i]))) << j << " " << f;
      }
      const auto q = [](const J3dJointPose& p) { return scene::euler_to_quat({p.rotation[0], p.rotation[1], p.rotation[2]}, scene::EulerOrder::xyz); };
      const scene::Quat a = q(want), b = q(got);
      // Within one rotation unit (the s16 the angles are stored in).
      EXPECT_GE(std::abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w), std::cos(j3d_angle_unit(0) / 2) - 1e-6f) << j << " " << f;
    }
  }
}

TEST(J3dBcaGltf, AJointCountNotTheModelsIsRefusedWithBoth) {
  const auto model = test::load_named_sample("j3d", "ww_cl.bdl");
  const auto bca = test::load_named_sample("j3d-anim/pik2_piki", "walk.bca");
  if (!model || !bca) GTEST_SKIP() << "ww_cl.bdl or walk.bca absent";
  scene::LiftInputs in;
  in.animations.push_back(&*bca);
  auto lifted = scene::lift(*model, in);
  ASSERT_FALSE(lifted);
  EXPECT_NE(lifted.error().message.find("BCA animates 11 joints"), std::string::npos) << lifted.error().message;
  EXPECT_NE(lifted.error().message.find("42"), std::string::npos) << lifted.error().message;
}

}  // namespace
}  // namespace remodel
