// BTK into glTF and back: the texture matrix J3D composes, by hand for both calc types, is the one
// KHR_texture_transform's offset, rotation and scale compose; every BTK sample exports with its model
// as KHR_animation_pointer channels that show the game's matrix at every frame, the unedited glTF
// imports over the BTK to its bytes, and an edited offset changes only its translation track.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <numbers>

#include "gltf/gltf.hpp"
#include "model/j3d/anim_eval.hpp"
#include "samples.hpp"
#include "scene/anim_channels.hpp"
#include "scene/j3d/texture_srt.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"

namespace remodel {
namespace {

// KHR_texture_transform's matrix T * R * S as rows u, v (as j3d_texture_matrix gives the game's).
std::array<float, 6> khr_matrix(const scene::TextureTransform& t) {
  const float c = std::cos(t.rotation), s = std::sin(t.rotation);
  return {t.scale.x * c, t.scale.y * s, t.offset.x, -t.scale.x * s, t.scale.y * c, t.offset.y};
}

void expect_matrix_near(const std::array<float, 6>& got, const std::array<float, 6>& want, float tolerance) {
  for (std::size_t i = 0; i < 6; ++i) EXPECT_NEAR(got[i], want[i], tolerance) << "element " << i;
}

TEST(J3dBtkGltf, TheGamesTextureMatrixByHand) {
  // Basic: scale 2 turned 90 degrees about the centre (0.5, 0.5), moved 0.1 along S.
  const J3dTexSrt turned{2, 2, std::numbers::pi_v<float> / 2, 0.1f, 0};
  expect_matrix_near(j3d_texture_matrix(turned, {0.5f, 0.5f}, false), {0, -2, 1.6f, 2, 0, -0.5f}, 1e-6f);
  // Maya: no scale or turn, moved (0.25, 0.5): T's translation is Maya's V, which runs up.
  const J3dTexSrt moved{1, 1, 0, 0.25f, 0.5f};
  expect_matrix_near(j3d_texture_matrix(moved, {0.5f, 0.5f}, true), {1, 0, 0.25f, 0, 1, -0.5f}, 1e-6f);
  // KHR composes the same matrices, and they turn back into the SRT.
  for (bool maya : {false, true}) {
    for (const J3dTexSrt& srt : {turned, moved, J3dTexSrt{0.5f, 3, 0.7f, -0.2f, 0.3f}}) {
      const scene::TextureTransform k = scene::khr_texture_transform(srt, {0.5f, 0.25f}, maya);
      if (scene::khr_exact(srt, maya)) expect_matrix_near(khr_matrix(k), j3d_texture_matrix(srt, {0.5f, 0.25f}, maya), 1e-5f);
      const J3dTexSrt back = scene::j3d_texture_srt_of(k, {0.5f, 0.25f}, maya);
      EXPECT_NEAR(back.scale_s, srt.scale_s, 1e-6f);
      EXPECT_NEAR(back.scale_t, srt.scale_t, 1e-6f);
      EXPECT_NEAR(back.rotation, srt.rotation, 1e-6f);
      EXPECT_NEAR(back.translation_s, srt.translation_s, 1e-5f);
      EXPECT_NEAR(back.translation_t, srt.translation_t, 1e-5f);
    }
  }
  // Basic with unequal scales turned is no T * R * S: khr_exact says so.
  EXPECT_FALSE(scene::khr_exact({0.5f, 3, 0.7f, 0, 0}, false));
}

// Each BTK sample and the model it animates (SOURCES.md).
struct BtkSample {
  const char* set;
  const char* btk;
  const char* model;
};
const BtkSample kBtks[] = {{"ww_link", "tboxopenlink.btk", "ww_cl.bdl"},
                           {"ww_link", "titemget.btk", "ww_cl.bdl"},
                           {"smg_lavarotateplanet", "lavarotateplanet.btk", "smg_lavarotateplanet.bdl"},
                           {"smg_mario", "ghostmario.btk", "riistudio_Mario.bdl"}};

// The model lifted with the BTK (its textures cut to one pixel: quick to write), as a .glb read back.
scene::Scene through_glb(const Document& model, const Document& btk, const std::string& name) {
  scene::LiftInputs in;
  in.animations.push_back(&btk);
  in.animation_names.push_back(name);
  auto lifted = scene::lift(model, in);
  EXPECT_TRUE(lifted) << lifted.error().describe();
  if (!lifted) return {};
  for (scene::Texture& t : lifted->textures) t.image = RgbaImage(1, 1);
  auto glb = gltf::write_glb(*lifted);
  EXPECT_TRUE(glb) << glb.error().describe();
  auto read = gltf::read_gltf(*glb);
  EXPECT_TRUE(read) << read.error().describe();
  return read ? std::move(read->scene) : scene::Scene{};
}

TEST(J3dBtkGltf, EverySampleShowsTheGamesMatrixAndImportsBackIdentical) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim");
  std::size_t tested = 0, channels = 0;
  for (const BtkSample& b : kBtks) {
    const auto model = test::load_named_sample("j3d", b.model);
    const auto btk = test::load_named_sample(std::string("j3d-anim/") + b.set, b.btk);
    if (!model || !btk) continue;
    SCOPED_TRACE(b.btk);
    const std::string name = std::filesystem::path(b.btk).stem().string();
    const scene::Scene scene = through_glb(*model, *btk, name);
    // ghostmario.btk moves only matrices of Mario's other texture stages: no channel, the file's extras.
    ASSERT_EQ(scene.animations.size(), name == "ghostmario" ? 0u : 1u);
    const scene::Extras& extras = scene.animations.empty() ? scene.extras.at("animations").at(0) : scene.animations[0].extras;
    const J3dTtk1& t = std::get<J3dTtk1>(std::get<J3dAnimFile>(*btk).section);
    EXPECT_EQ(extras["duration"], t.duration);
    ASSERT_EQ(extras["tex_mtx_anims"].size(), t.anims.size());
    // Every frame of every matrix a pointer shows: KHR's matrix is the game's.
    for (std::size_t i = 0; i < t.anims.size(); ++i) {
      const scene::Extras& x = extras["tex_mtx_anims"][i];
      if (!x["target"].get<std::string>().starts_with("/materials/")) continue;
      const scene::Animation& anim = scene.animations.at(0);
      const std::string prefix = x["target"];
      const scene::Channel *offset = nullptr, *rotation = nullptr, *scale = nullptr;
      for (const scene::Channel& c : anim.channels) {
        if (c.pointer == prefix + "offset") offset = &c;
        if (c.pointer == prefix + "rotation") rotation = &c;
        if (c.pointer == prefix + "scale") scale = &c;
      }
      ASSERT_TRUE(offset && rotation && scale);
      channels += 3;
      const bool maya = (t.tex_mtx_calc_type & 1) != 0;
      for (std::uint16_t f = 0; f <= t.duration; ++f) {
        const J3dTexSrt srt = j3d_texture_srt(t.anims[i].keys, t.angle_scale, f);
        const auto o = scene::sample_channel(*offset, 2, f / 30.0f), s = scene::sample_channel(*scale, 2, f / 30.0f);
        const scene::TextureTransform k{{o[0], o[1]}, scene::sample_channel(*rotation, 1, f / 30.0f)[0], {s[0], s[1]}};
        if (x["exact"].get<bool>()) expect_matrix_near(khr_matrix(k), j3d_texture_matrix(srt, {t.anims[i].centre[0], t.anims[i].centre[1]}, maya), 1e-4f);
      }
    }
    scene::LowerInputs li;
    li.base_name = name;
    auto lowered = scene::lower(scene, *btk, li);
    ASSERT_TRUE(lowered) << lowered.error().describe();
    auto bytes = write_document(lowered->document);
    ASSERT_TRUE(bytes) << bytes.error().describe();
    EXPECT_TRUE(*bytes == test::load_file(test::samples_root() / "j3d-anim" / b.set / b.btk));
    ++tested;
  }
  EXPECT_EQ(tested, std::size(kBtks));
  EXPECT_GT(channels, 0u);
}

TEST(J3dBtkGltf, AnEditedOffsetChangesOnlyItsTrack) {
  const auto model = test::load_named_sample("j3d", "ww_cl.bdl");
  const auto btk = test::load_named_sample("j3d-anim/ww_link", "titemget.btk");
  if (!model || !btk) GTEST_SKIP() << "ww_cl.bdl or titemget.btk absent";
  scene::Scene scene = through_glb(*model, *btk, "titemget");
  ASSERT_EQ(scene.animations.size(), 1u);
  const J3dTtk1& base = std::get<J3dTtk1>(std::get<J3dAnimFile>(*btk).section);
  ASSERT_FALSE(base.tex_mtx_calc_type & 1) << "the test moves S's offset as the basic matrix does";
  // The first matrix a pointer shows: its offset's S moved by 0.25 at every frame.
  std::size_t edited = base.anims.size();
  for (std::size_t i = 0; i < base.anims.size() && edited == base.anims.size(); ++i) {
    const scene::Extras& target = scene.animations[0].extras["tex_mtx_anims"][i]["target"];
    if (!target.get<std::string>().starts_with("/materials/")) continue;
    for (scene::Channel& c : scene.animations[0].channels) {
      if (c.pointer != target.get<std::string>() + "offset") continue;
      for (std::size_t k = 0; k < c.times.size(); ++k) c.values[k * 2] += 0.25f;
      edited = i;
    }
  }
  ASSERT_LT(edited, base.anims.size());
  auto lowered = scene::lower(scene, *btk, scene::LowerInputs{});
  ASSERT_TRUE(lowered) << lowered.error().describe();
  auto bytes = write_document(lowered->document);
  ASSERT_TRUE(bytes) << bytes.error().describe();
  auto reread = read_j3d_anim(*bytes);
  ASSERT_TRUE(reread) << reread.error().describe();
  const J3dTtk1& out = std::get<J3dTtk1>(reread->section);
  ASSERT_EQ(out.anims.size(), base.anims.size());
  for (std::size_t i = 0; i < base.anims.size(); ++i) {
    for (std::size_t a = 0; a < 3; ++a) {
      EXPECT_EQ(out.anims[i].keys.scale[a].values, base.anims[i].keys.scale[a].values) << i;
      EXPECT_EQ(out.anims[i].keys.rotation[a].values, base.anims[i].keys.rotation[a].values) << i;
      if (i != edited || a != 0) {
        EXPECT_EQ(out.anims[i].keys.translation[a].values, base.anims[i].keys.translation[a].values) << i;
      }
    }
  }
  const auto before = j3d_keys(base.anims[edited].keys.translation[0]), after = j3d_keys(out.anims[edited].keys.translation[0]);
  for (std::uint16_t f = 0; f <= base.duration; ++f) EXPECT_NEAR(j3d_sample(after, f), j3d_sample(before, f) + 0.25f, 1e-3f) << f;
}

}  // namespace
}  // namespace remodel
