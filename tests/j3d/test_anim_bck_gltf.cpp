// BCK into glTF and back: every BCK sample exports with its model as one glTF animation evaluated as
// the game evaluates it, the unedited glTF imports over the BCK to its bytes, an edited key changes
// only its own track, a new BCK authored from a glTF animation moves the joints as it did, and a BCK
// whose joint count is not its model's is refused naming both counts. Blender's export (bones turned,
// every frame sampled, its noise) imports back identical too, and authors a new BCK that moves the joints.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <vector>

#include "blender_like.hpp"
#include "j3d/anim_gltf.hpp"
#include "model/j3d/anim_eval.hpp"
#include "samples.hpp"
#include "scene/anim_channels.hpp"
#include "scene/lower.hpp"

namespace remodel {
namespace {

// Each sample set and the model it animates (SOURCES.md).
const std::map<std::string, std::string> kModels = {
    {"ww_link", "ww_cl.bdl"},           {"ww_jabun", "ww_jb.bdl"},
    {"sms_mario", "sms_ma_mdl1.bmd"},   {"smg_poltaformationrock", "smg_poltaformationrock.bdl"},
    {"mkdd_mariotree1", "mkdd_mariotree1.bmd"}};

using test::skeleton_scene;
using test::through_glb;

// Calls `each` with every BCK sample of a set whose model is present, the model and its joints' scene;
// returns how many.
template <typename Each>
std::size_t for_each_bck(const std::vector<std::filesystem::path>& files, Each each) {
  std::size_t tested = 0;
  for (const auto& [set, model_name] : kModels) {
    const auto model = test::load_named_sample("j3d", model_name);
    if (!model) continue;
    const scene::Scene joints = skeleton_scene(*model);
    for (const auto& path : files) {
      if (path.parent_path().filename() != set || path.extension() != ".bck") continue;
      SCOPED_TRACE(path.string());
      each(path, *model, joints, test::load_document(path));
      ++tested;
    }
  }
  return tested;
}

// `scene` lowered over the BCK at `path` gives that file's bytes.
void expect_lowers_to_file(const scene::Scene& scene, const Document& bck, const std::filesystem::path& path, scene::LowerInputs li) {
  li.base_name = path.stem().string();
  auto lowered = scene::lower(scene, bck, li);
  ASSERT_TRUE(lowered) << lowered.error().describe();
  auto bytes = write_document(lowered->document);
  ASSERT_TRUE(bytes) << bytes.error().describe();
  EXPECT_TRUE(*bytes == test::load_file(path));
}

TEST(J3dBckGltf, EverySampleExportsAndImportsBackIdentical) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim");
  const std::size_t tested = for_each_bck(files, [](const std::filesystem::path& path, const Document&, const scene::Scene& joints, const Document& bck) {
    const scene::Scene scene = through_glb(joints, bck, path.stem().string());
    ASSERT_EQ(scene.animations.size(), 1u);
    const J3dAnk1& a = std::get<J3dAnk1>(std::get<J3dAnimFile>(bck).section);
    EXPECT_EQ(scene.animations[0].name, path.stem().string());
    EXPECT_EQ(scene.animations[0].channels.size(), a.joints.size() * 3);
    EXPECT_EQ(scene.animations[0].extras["duration"], a.duration);
    // Every frame the game shows, on one joint that moves: the glTF's value is the game's.
    const std::size_t j = a.joints.size() / 2;
    const int node = scene.skins[0].joints[j];
    const auto paths = scene::path_channels(scene.animations[0], node);
    for (std::uint16_t f = 0; f <= a.duration; ++f) {
      const J3dJointPose pose = j3d_joint_pose(a.joints[j], a.angle_scale, f);
      const auto t = scene::sample_channel(*paths[0], 3, f / 30.0f);
      for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(t[i], pose.translation[i], 1e-3f + 1e-5f * std::abs(pose.translation[i])) << f;
      const auto r = scene::sample_channel(*paths[1], 4, f / 30.0f);
      const scene::Quat want = scene::euler_to_quat({pose.rotation[0], pose.rotation[1], pose.rotation[2]}, scene::EulerOrder::xyz);
      EXPECT_NEAR(std::abs(r[0] * want.x + r[1] * want.y + r[2] * want.z + r[3] * want.w), 1.0f, 1e-5f) << f;
    }
    expect_lowers_to_file(scene, bck, path, {});
  });
  EXPECT_GE(tested, 27u);
}

// As Blender exports an unedited action (tests/blender_like.hpp): joints turned, every channel sampled
// at each frame with the turn and Blender's pose noise in it. Over the --skeleton model, every BCK of
// every set with its model comes back identical.
TEST(J3dBckGltf, BlenderLikeExportImportsBackIdentical) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim");
  const std::size_t tested = for_each_bck(files, [](const std::filesystem::path& path, const Document& model, const scene::Scene& joints,
                                                    const Document& bck) {
    scene::Scene scene = through_glb(joints, bck, path.stem().string());
    test::sample_and_turn_animations_like_blender(scene);
    test::turn_bones_like_blender(scene);
    scene::LowerInputs li;
    li.skeleton = &model;
    expect_lowers_to_file(scene, bck, path, li);
  });
  EXPECT_GE(tested, 27u);
}

TEST(J3dBckGltf, AnEditedKeyChangesOnlyItsTrack) {
  const auto model = test::load_named_sample("j3d", "ww_cl.bdl");
  const auto bck = test::load_named_sample("j3d-anim/ww_link", "walk.bck");
  if (!model || !bck) GTEST_SKIP() << "ww_cl.bdl or walk.bck absent";
  scene::Scene scene = through_glb(skeleton_scene(*model), *bck, "walk");
  const J3dAnk1& base = std::get<J3dAnk1>(std::get<J3dAnimFile>(*bck).section);
  // Joint 0's translation: its y axis raised by 10 at every key.
  const int node = scene.skins[0].joints[0];
  scene::Channel& c = scene.animations[0].channels[0];
  ASSERT_EQ(c.node, node);
  ASSERT_EQ(c.path, scene::Path::translation);
  const std::size_t per_key = c.interpolation == scene::Interpolation::cubic_spline ? 9 : 3,
                    value_at = c.interpolation == scene::Interpolation::cubic_spline ? 3 : 0;
  for (std::size_t k = 0; k < c.times.size(); ++k) c.values[k * per_key + value_at + 1] += 10.0f;
  scene::LowerInputs li;
  li.skeleton = &*model;
  auto lowered = scene::lower(scene, *bck, li);
  ASSERT_TRUE(lowered) << lowered.error().describe();
  auto bytes = write_document(lowered->document);
  ASSERT_TRUE(bytes) << bytes.error().describe();
  auto reread = read_j3d_anim(*bytes);
  ASSERT_TRUE(reread) << reread.error().describe();
  const J3dAnk1& out = std::get<J3dAnk1>(reread->section);
  for (std::size_t j = 0; j < base.joints.size(); ++j) {
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(out.joints[j].scale[i].values, base.joints[j].scale[i].values) << j;
      EXPECT_EQ(out.joints[j].rotation[i].values, base.joints[j].rotation[i].values) << j;
      if (j != 0 || i != 1) {
        EXPECT_EQ(out.joints[j].translation[i].values, base.joints[j].translation[i].values) << j;
      }
    }
  }
  const auto before = j3d_keys(base.joints[0].translation[1]), after = j3d_keys(out.joints[0].translation[1]);
  for (std::uint16_t f = 0; f <= base.duration; ++f) EXPECT_NEAR(j3d_sample(after, f), j3d_sample(before, f) + 10.0f, 1e-3f) << f;
}

// A new BCK authored from `scene` (walk.bck's export on ww_cl.bdl's joints, as `bck` holds it) moves
// every joint as `bck` does at every frame: translations and scales within the float fit's tolerance
// and `noise` of their length, rotations within two rotation units (the fit's 1, and the s16 rounding
// of keys and tangents) plus `turn` radians; with fewer keys than frames where the motion allows.
void expect_new_bck_moves_as(const scene::Scene& scene, const Document& model, const Document& bck, float noise, float turn) {
  scene::LowerInputs li;
  li.skeleton = &model;
  auto authored = scene::author(scene, Format::j3d_anim, li);
  ASSERT_TRUE(authored) << authored.error().describe();
  auto bytes = write_document(authored->document);
  ASSERT_TRUE(bytes) << bytes.error().describe();
  auto reread = read_j3d_anim(*bytes);
  ASSERT_TRUE(reread) << reread.error().describe();
  const J3dAnk1& base = std::get<J3dAnk1>(std::get<J3dAnimFile>(bck).section);
  const J3dAnk1& out = std::get<J3dAnk1>(reread->section);
  ASSERT_EQ(out.joints.size(), base.joints.size());
  EXPECT_EQ(out.duration, base.duration);
  std::size_t keys = 0, frames = 0;
  for (std::size_t j = 0; j < base.joints.size(); ++j) {
    for (std::uint16_t f = 0; f <= base.duration; ++f) {
      const J3dJointPose want = j3d_joint_pose(base.joints[j], base.angle_scale, f), got = j3d_joint_pose(out.joints[j], out.angle_scale, f);
      for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_NEAR(got.translation[i], want.translation[i], 2e-4f + (2e-5f + noise) * std::abs(want.translation[i])) << j << " " << f;
        EXPECT_NEAR(got.scale[i], want.scale[i], 2e-4f) << j << " " << f;
      }
      const auto q = [](const J3dJointPose& p) { return scene::euler_to_quat({p.rotation[0], p.rotation[1], p.rotation[2]}, scene::EulerOrder::xyz); };
      const scene::Quat a = q(want), b = q(got);
      EXPECT_GE(std::abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w), std::cos((2 * j3d_angle_unit(out.angle_scale) + turn) / 2) - 1e-6f)
          << j << " " << f;
    }
    for (std::size_t i = 0; i < 3; ++i) keys += out.joints[j].rotation[i].count + out.joints[j].translation[i].count;
    frames += 6 * (std::size_t{base.duration} + 1);
  }
  EXPECT_LT(keys, frames);  // fewer keys than frames where the motion allows
}

TEST(J3dBckGltf, ANewBckMovesTheJointsAsTheGltfDid) {
  const auto model = test::load_named_sample("j3d", "ww_cl.bdl");
  const auto bck = test::load_named_sample("j3d-anim/ww_link", "walk.bck");
  if (!model || !bck) GTEST_SKIP() << "ww_cl.bdl or walk.bck absent";
  expect_new_bck_moves_as(through_glb(skeleton_scene(*model), *bck, "walk"), *model, *bck, 0, 0);
}

// From Blender's export (tests/blender_like.hpp: bones turned by axis rotations, every frame sampled
// with the turns and Blender's noise in it) the new BCK moves the joints as the model holds them, the
// turns taken off, within the noise Blender leaves on a pose (3e-4 of each translation, 4e-4 radians).
// Before, the turned local transforms were stored as they came (joints off by quarter and half turns).
TEST(J3dBckGltf, ANewBckFromBlendersTurnedExportMovesTheJointsAsTheGltfDid) {
  const auto model = test::load_named_sample("j3d", "ww_cl.bdl");
  const auto bck = test::load_named_sample("j3d-anim/ww_link", "walk.bck");
  if (!model || !bck) GTEST_SKIP() << "ww_cl.bdl or walk.bck absent";
  scene::Scene scene = through_glb(skeleton_scene(*model), *bck, "walk");
  test::sample_and_turn_animations_like_blender(scene);
  test::turn_bones_like_blender(scene);
  expect_new_bck_moves_as(scene, *model, *bck, 3e-4f, 4e-4f);
}

TEST(J3dBckGltf, AJointCountNotTheModelsIsRefusedWithBoth) {
  const auto model = test::load_named_sample("j3d", "ww_jb.bdl");
  const auto bck = test::load_named_sample("j3d-anim/ww_link", "walk.bck");
  if (!model || !bck) GTEST_SKIP() << "ww_jb.bdl or walk.bck absent";
  scene::LiftInputs in;
  in.animations.push_back(&*bck);
  auto lifted = scene::lift(*model, in);
  ASSERT_FALSE(lifted);
  EXPECT_NE(lifted.error().message.find("42 joints"), std::string::npos) << lifted.error().message;
  EXPECT_NE(lifted.error().message.find("44"), std::string::npos) << lifted.error().message;
}

}  // namespace
}  // namespace remodel
