// BRK, BPK and BTP into the Scene: a BPK's material colour drives baseColorFactor where the material
// shows it as its base colour; what no glTF property holds (BRK's TEV colours, BTP's textures) is
// kept at every frame in the extras, as the game reads it. BVA: test_anim_bva_gltf.cpp.
#include <gtest/gtest.h>

#include "anim_gltf.hpp"
#include "gltf/gltf.hpp"
#include "model/j3d/anim_eval.hpp"
#include "samples.hpp"
#include "scene/anim_channels.hpp"
#include "scene/j3d/lift.hpp"
#include "scene/lift.hpp"

namespace remodel {
namespace {

// The Scene's extras kept for the animation named `name`, or null.
const scene::Extras* kept(const scene::Scene& s, const std::string& name) {
  if (!s.extras.is_object() || !s.extras.contains("animations")) return nullptr;
  for (const scene::Extras& a : s.extras["animations"]) {
    if (a["name"] == name) return &a;
  }
  return nullptr;
}

TEST(J3dMaterialAnimGltf, BrkColoursAreKeptAtEveryFrame) {
  const auto model = test::load_named_sample("j3d-anim/pik2_cursor", "cursor.bmd");
  const auto brk = test::load_named_sample("j3d-anim/pik2_cursor", "arrow_luji.brk");
  if (!model || !brk) GTEST_SKIP() << "pik2_cursor's cursor.bmd or arrow_luji.brk absent";
  const scene::Scene s = test::lifted_with(*model, *brk, "arrow_luji");
  EXPECT_TRUE(s.animations.empty());  // TEV registers have no glTF property
  const scene::Extras* x = kept(s, "arrow_luji");
  ASSERT_NE(x, nullptr);
  const J3dTrk1& t = std::get<J3dTrk1>(std::get<J3dAnimFile>(*brk).section);
  EXPECT_EQ((*x)["format"], "brk");
  ASSERT_EQ((*x)["registers"].size(), t.registers.anims.size());
  ASSERT_EQ((*x)["konstants"].size(), t.konstants.anims.size());
  for (std::size_t i = 0; i < t.registers.anims.size(); ++i) {
    const scene::Extras& r = (*x)["registers"][i];
    EXPECT_EQ(r["material"], t.registers.names.names[i]);
    EXPECT_EQ(r["colour_id"], t.registers.anims[i].colour_id);
    ASSERT_EQ(r["rgba"].size(), std::size_t{t.duration} + 1);
    for (std::size_t k = 0; k < 4; ++k) {
      const std::vector<J3dKey> keys = j3d_keys(t.registers.anims[i].rgba[k]);
      for (std::uint16_t f = 0; f <= t.duration; ++f) EXPECT_FLOAT_EQ(r["rgba"][f][k].get<float>(), j3d_sample(keys, f)) << f;
    }
  }
}

TEST(J3dMaterialAnimGltf, BpkDrivesTheBaseColourOfAMaterialShowingIt) {
  // No model the BPK samples animate is public: two materials named as on.bpk's, one showing its
  // material colour as base colour, one its vertex colour.
  const auto bpk = test::load_named_sample("j3d-anim/smg_bpk_nomodel", "on.bpk");
  if (!bpk) GTEST_SKIP() << "on.bpk absent";
  const J3dPak1& p = std::get<J3dPak1>(std::get<J3dAnimFile>(*bpk).section);
  ASSERT_EQ(p.colours.names.names.size(), 2u);
  scene::Scene s;
  s.materials.resize(2);
  s.materials[0].name = p.colours.names.names[0];
  s.materials[0].extras = {{"color_source", "register"}, {"alpha_source", "register"}};
  s.materials[1].name = p.colours.names.names[1];
  s.materials[1].extras = {{"color_source", "vertex"}, {"alpha_source", "vertex"}};
  auto taken = scene::lift_j3d_material_animation(std::get<J3dAnimFile>(*bpk), "on", s);
  ASSERT_TRUE(taken && *taken);
  ASSERT_EQ(s.animations.size(), 1u);
  const scene::Animation& a = s.animations[0];
  ASSERT_EQ(a.channels.size(), 1u);
  const scene::Channel& c = a.channels[0];
  EXPECT_EQ(c.pointer, "/materials/0/pbrMetallicRoughness/baseColorFactor");
  EXPECT_EQ(c.pointer_width, 4);
  ASSERT_EQ(c.times.size(), std::size_t{p.duration} + 1);
  for (std::uint16_t f = 0; f <= p.duration; ++f) {
    for (std::size_t k = 0; k < 4; ++k) {
      const float game = std::clamp(j3d_sample(j3d_keys(p.colours.anims[0].rgba[k]), f) / 255.0f, 0.0f, 1.0f);
      EXPECT_FLOAT_EQ(scene::sample_channel(c, 4, f / 30.0f)[k], game) << f;
    }
  }
  EXPECT_EQ(a.extras["material_colours"][1]["target"], "the material's base colour is the vertex colour");
  EXPECT_EQ(a.extras["material_colours"][1]["rgba"].size(), std::size_t{p.duration} + 1);
  // It writes as a glTF (KHR_animation_pointer) and reads back as the same channel.
  auto glb = gltf::write_glb(s);
  ASSERT_TRUE(glb) << glb.error().describe();
  auto read = gltf::read_gltf(*glb);
  ASSERT_TRUE(read) << read.error().describe();
  ASSERT_EQ(read->scene.animations.size(), 1u);
  EXPECT_EQ(read->scene.animations[0].channels[0].pointer, c.pointer);
  EXPECT_EQ(read->scene.animations[0].channels[0].values, c.values);
}

// BVA's shapes drive KHR_node_visibility and stay in their animation's extras: test_anim_bva_gltf.cpp.
TEST(J3dMaterialAnimGltf, BtpTexturesAreKeptAtEveryFrame) {
  const auto link = test::load_named_sample("j3d", "ww_cl.bdl");
  const auto btp = test::load_named_sample("j3d-anim/ww_link", "titemget.btp");
  if (!link || !btp) GTEST_SKIP() << "ww_cl.bdl or titemget.btp absent";
  const scene::Scene s = test::lifted_with(*link, *btp, "titemget");
  const scene::Extras* x = kept(s, "titemget");
  ASSERT_NE(x, nullptr);
  const J3dTpt1& t = std::get<J3dTpt1>(std::get<J3dAnimFile>(*btp).section);
  ASSERT_EQ((*x)["patterns"].size(), t.patterns.size());
  for (std::size_t i = 0; i < t.patterns.size(); ++i) {
    const scene::Extras& p = (*x)["patterns"][i];
    EXPECT_EQ(p["material"], t.material_names.names[i]);
    ASSERT_EQ(p["textures"].size(), std::size_t{t.duration} + 1);
    const auto& values = t.patterns[i].textures.values;
    for (std::size_t f = 0; f <= t.duration; ++f) {
      EXPECT_EQ(p["textures"][f], values[std::min(f, values.size() - 1)]);
      EXPECT_LT(p["textures"][f].get<std::size_t>(), s.textures.size());
    }
  }
}

}  // namespace
}  // namespace remodel
