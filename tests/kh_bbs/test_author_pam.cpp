// KH BBS PAM authored from a Scene alone (issue 16) on the demo PMO's BON: sampling the written PAM
// at every frame gives the glTF's values within half the quantisation step of each channel's range
// ((max - min) / 65535) plus the float round trip (1e-5).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "author_scenes.hpp"
#include "model/document.hpp"
#include "model/kh_bbs/demo.hpp"
#include "model/kh_bbs/pam.hpp"
#include "gltf/gltf.hpp"
#include "gltf_samples.hpp"
#include "samples.hpp"
#include "scene/lower.hpp"

namespace remodel {
namespace {

using scene::Scene;

constexpr float kPi = std::numbers::pi_v<float>;

// The demo cube's joints as glTF nodes: "root" at the origin, "top" one unit above it, and an extra
// node no BON joint names.
Scene skeleton_scene() {
  Scene s;
  s.scenes.push_back({"scene", {}});
  scene::Node root;
  root.name = "root";
  const int r = s.add_node(root);
  scene::Node top;
  top.name = "top";
  top.local.translation = {0, 1, 0};
  s.add_node(top, r);
  scene::Node other;
  other.name = "not_a_joint";
  s.add_node(other);
  return s;
}

// "wave": root moves on X over 1 s (three linear keys), top turns 90 degrees about Z (slerp).
scene::Animation wave() {
  scene::Animation a;
  a.name = "wave";
  scene::Channel t;
  t.node = 0;
  t.path = scene::Path::translation;
  t.times = {0, 0.5f, 1};
  t.values = {0, 0, 0, 0.25f, 0, 0, 1, 0, 0};
  scene::Channel r;
  r.node = 1;
  r.path = scene::Path::rotation;
  r.times = {0, 1};
  const float s = std::sin(kPi / 4), c = std::cos(kPi / 4);
  r.values = {0, 0, 0, 1, 0, 0, s, c};
  a.channels = {t, r};
  return a;
}

// "long": 10 s (301 frames, so u16 counts) of top's Y translation stepping between two values.
scene::Animation long_steps() {
  scene::Animation a;
  a.name = "a_long_name_past_12";
  scene::Channel t;
  t.node = 1;
  t.path = scene::Path::translation;
  t.interpolation = scene::Interpolation::step;
  for (int k = 0; k <= 10; ++k) {
    t.times.push_back(static_cast<float>(k));
    t.values.insert(t.values.end(), {0, k % 2 == 0 ? 1.0f : 1.5f, 0});
  }
  a.channels = {t};
  return a;
}

// The value a decoded channel gives at `frame`, or `absent` when the PAM stores no such channel.
float at_frame(const PamDecodedBone& bone, PamChannelKind kind, std::size_t frame, float absent) {
  for (const PamDecodedChannel& c : bone.channels) {
    if (c.kind == kind) return pam_sample(c, static_cast<float>(frame));
  }
  return absent;
}

float step_of(const PamAnimation& a, std::size_t bone, PamChannelKind kind) {
  const auto& c = a.bones[bone].channels[static_cast<std::size_t>(kind)];
  return c ? (c->max - c->min) / 65535.0f : 0.0f;
}

TEST(AuthorKhBbsPam, SamplesWithinEachChannelsQuantisation) {
  const Document skeleton{build_demo_pmo()};
  Scene s = skeleton_scene();
  s.animations = {wave(), long_steps()};
  auto made = scene::author(s, Format::kh_bbs_pam, {&skeleton});
  ASSERT_TRUE(made.ok()) << made.error().message;
  auto bytes = write_document(made->document);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  auto read = read_document(*bytes);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(write_document(*read).value(), *bytes) << "round trip";
  const Pam& pam = std::get<Pam>(*read);
  ASSERT_EQ(pam.entries.size(), 2u);
  EXPECT_EQ(fixed_string(pam.entries[0].name), "wave");
  EXPECT_EQ(fixed_string(pam.entries[1].name), "a_long_name_");
  ASSERT_EQ(pam.animations.size(), 2u);

  const PamAnimation& w = pam.animations[0];
  EXPECT_EQ(w.fps, 30);
  EXPECT_EQ(w.frame_count, 31);
  ASSERT_EQ(w.bones.size(), 2u);
  auto wd = decode_pam_animation(w);
  ASSERT_TRUE(wd.ok());
  for (std::size_t f = 0; f < w.frame_count; ++f) {
    const float t = static_cast<float>(f) / 30.0f;
    const float x = t <= 0.5f ? 0.5f * t : 0.25f + 1.5f * (t - 0.5f);
    const float tol_x = step_of(w, 0, PamChannelKind::translation_x) / 2 + 1e-5f;
    EXPECT_NEAR(at_frame(wd->bones[0], PamChannelKind::translation_x, f, NAN), x, tol_x) << "frame " << f;
    const float z = kPi / 2 * t;
    const float tol_z = step_of(w, 1, PamChannelKind::rotation_z) / 2 + 1e-5f;
    EXPECT_NEAR(at_frame(wd->bones[1], PamChannelKind::rotation_z, f, NAN), z, tol_z) << "frame " << f;
    EXPECT_NEAR(at_frame(wd->bones[1], PamChannelKind::translation_y, f, NAN), 1.0f, 1e-5f) << "the rest pose, stored";
  }
  // Constant channels collapse to one key; scale is stored only where it leaves 1.
  ASSERT_TRUE(w.bones[1].channels[static_cast<std::size_t>(PamChannelKind::translation_y)].has_value());
  EXPECT_TRUE(w.bones[1].channels[static_cast<std::size_t>(PamChannelKind::translation_y)]->constant);
  EXPECT_FALSE(w.bones[0].channels[static_cast<std::size_t>(PamChannelKind::scale_x)].has_value());
  // Root X: two linear pieces, so sparse keys at the ends and the knee beat 31 every-frame keys.
  const auto& rx = w.bones[0].channels[static_cast<std::size_t>(PamChannelKind::translation_x)];
  ASSERT_TRUE(rx.has_value());
  EXPECT_LT(rx->keys.size(), 31u);

  const PamAnimation& l = pam.animations[1];
  EXPECT_EQ(l.frame_count, 301);
  EXPECT_TRUE(l.wide());
  auto ld = decode_pam_animation(l);
  ASSERT_TRUE(ld.ok());
  for (std::size_t f = 0; f < l.frame_count; ++f) {
    const float y = (f / 30) % 2 == 0 ? 1.0f : 1.5f;
    EXPECT_NEAR(at_frame(ld->bones[1], PamChannelKind::translation_y, f, NAN), y, step_of(l, 1, PamChannelKind::translation_y) / 2 + 1e-5f)
        << "frame " << f;
  }
  ASSERT_FALSE(made->warnings.empty());
  EXPECT_NE(made->warnings.back().message.find("cut to 12"), std::string::npos);
}

// Issue 16's skinned cylinder with a 2-key animation: the PMO authored from it is the PAM's skeleton,
// and the PAM authored from its animation turns the second joint 90 degrees about Z over 1 s.
TEST(AuthorKhBbsPam, SkinnedCylinderWithATwoKeyAnimation) {
  Scene s = test::one_mesh({test::cylinder(12, 5, 2.0f, 2, true)});
  test::add_chain(s, 2, 2.0f);
  auto pmo = scene::author(s, Format::kh_bbs_pmo);
  ASSERT_TRUE(pmo.ok()) << pmo.error().message;
  ASSERT_EQ(s.skins.size(), 1u);
  ASSERT_EQ(s.skins[0].joints.size(), 2u);
  scene::Animation bend;
  bend.name = "bend";
  scene::Channel r;
  r.node = s.skins[0].joints[1];
  r.path = scene::Path::rotation;
  r.times = {0, 1};
  r.values = {0, 0, 0, 1, 0, 0, std::sin(kPi / 4), std::cos(kPi / 4)};
  bend.channels = {r};
  s.animations = {bend};
  auto made = scene::author(s, Format::kh_bbs_pam, {&pmo->document});
  ASSERT_TRUE(made.ok()) << made.error().message;
  auto bytes = write_document(made->document);
  ASSERT_TRUE(bytes.ok()) << bytes.error().message;
  auto read = read_document(*bytes);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(write_document(*read).value(), *bytes) << "round trip";
  const Pam& pam = std::get<Pam>(*read);
  ASSERT_EQ(pam.animations.size(), 1u);
  const PamAnimation& a = pam.animations[0];
  EXPECT_EQ(a.frame_count, 31);
  ASSERT_EQ(a.bones.size(), 2u) << "one PAM bone per BON joint";
  auto decoded = decode_pam_animation(a);
  ASSERT_TRUE(decoded.ok());
  for (std::size_t f = 0; f < a.frame_count; ++f) {
    const float z = kPi / 2 * static_cast<float>(f) / 30.0f;
    EXPECT_NEAR(at_frame(decoded->bones[1], PamChannelKind::rotation_z, f, NAN), z, step_of(a, 1, PamChannelKind::rotation_z) / 2 + 1e-5f) << "frame " << f;
    EXPECT_NEAR(at_frame(decoded->bones[1], PamChannelKind::translation_y, f, NAN), 2.0f, 1e-5f) << "the rest pose, stored";
  }
}

// Every shared glTF with a skin and animations (figures from other tools) becomes a PMO and a PAM on
// that PMO's BON: one PAM animation per glTF animation, one bone per BON joint, 30 fps over its keys.
TEST(AuthorKhBbsPam, SharedAnimatedGltfSamples) {
  REMODEL_SAMPLES_OR_SKIP(files, "gltf");
  std::size_t authored = 0;
  for (const auto& [what, read] : test::readable_gltf_samples(files)) {
    if (read.scene.animations.empty() || read.scene.skins.empty()) continue;
    auto pmo = scene::author(read.scene, Format::kh_bbs_pmo);
    if (!pmo) continue;  // AuthorKhBbs.SharedGltfSamples says why
    auto made = scene::author(read.scene, Format::kh_bbs_pam, {&pmo->document});
    if (!made) {
      EXPECT_EQ(made.error().code, ErrorCode::unsupported) << what << ": " << made.error().field << ": " << made.error().message;
      std::printf("refused %s: %s: %s\n", what.c_str(), made.error().field.c_str(), made.error().message.c_str());
      continue;
    }
    auto bytes = write_document(made->document);
    ASSERT_TRUE(bytes.ok()) << what << ": " << bytes.error().message;
    auto back = read_document(*bytes);
    ASSERT_TRUE(back.ok()) << what << ": " << back.error().message;
    EXPECT_EQ(write_document(*back).value(), *bytes) << what << ": round trip";
    const Pam& pam = std::get<Pam>(*back);
    const auto& bon = std::get<PmoFile>(pmo->document).pmo.skeleton;
    ASSERT_TRUE(bon.has_value()) << what;
    ASSERT_EQ(pam.animations.size(), read.scene.animations.size()) << what;
    for (std::size_t k = 0; k < pam.animations.size(); ++k) {
      const PamAnimation& a = pam.animations[k];
      EXPECT_EQ(a.bones.size(), bon->joints.size()) << what << " animation " << k;
      float last = 0;
      for (const scene::Channel& c : read.scene.animations[k].channels) {
        if (!c.times.empty()) last = std::max(last, c.times.back());
      }
      EXPECT_NEAR(static_cast<float>(a.frame_count), last * 30.0f + 1.0f, 1.0f) << what << " animation " << k;
      EXPECT_TRUE(decode_pam_animation(a).ok()) << what << " animation " << k;
    }
    std::printf("%s: %zu animations on %zu BON joints\n", what.c_str(), pam.animations.size(), bon->joints.size());
    ++authored;
  }
  EXPECT_GT(authored, 0u) << "no shared glTF with a skin and animations authored a PAM";
}

TEST(AuthorKhBbsPam, MissingJointsAreNamedAndRefusalsAreClear) {
  const Document skeleton{build_demo_pmo()};
  Scene s = skeleton_scene();
  s.nodes[1].name = "renamed";
  s.animations = {wave()};
  auto made = scene::author(s, Format::kh_bbs_pam, {&skeleton});
  ASSERT_TRUE(made.ok()) << made.error().message;
  ASSERT_FALSE(made->warnings.empty());
  EXPECT_NE(made->warnings[0].message.find("\"top\""), std::string::npos) << made->warnings[0].message;

  EXPECT_FALSE(scene::author(s, Format::kh_bbs_pam).ok()) << "no skeleton";
  Scene none = skeleton_scene();
  EXPECT_FALSE(scene::author(none, Format::kh_bbs_pam, {&skeleton}).ok()) << "no animations";
  Scene bad = skeleton_scene();
  bad.animations = {wave()};
  bad.animations[0].channels[0].values.pop_back();
  auto r = scene::author(bad, Format::kh_bbs_pam, {&skeleton});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().field.find("animations[0].channels[0]"), std::string::npos) << r.error().field;
  bad.animations = {wave()};
  bad.animations[0].channels[0].times = {0, 0.5f, 5000};  // 150,001 frames
  EXPECT_FALSE(scene::author(bad, Format::kh_bbs_pam, {&skeleton}).ok());
  bad.animations[0].channels[0].times = {0, 0.5f, NAN};
  EXPECT_FALSE(scene::author(bad, Format::kh_bbs_pam, {&skeleton}).ok());
}

// issue 32: "pass --skeleton" when --skeleton was passed (a PMO without a BON); a time near the float
// maximum printed as its 39 digits of frames.
TEST(AuthorKhBbsPam, RefusalsSayWhatWasPassed) {
  Scene s = skeleton_scene();
  s.animations = {wave()};
  auto none = scene::author(s, Format::kh_bbs_pam);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("with --skeleton"), std::string::npos) << none.error().message;
  PmoFile bare = build_demo_pmo();
  bare.pmo.skeleton.reset();
  const Document static_pmo{bare};
  auto no_bon = scene::author(s, Format::kh_bbs_pam, {&static_pmo});
  ASSERT_FALSE(no_bon.ok());
  EXPECT_EQ(no_bon.error().message.find("pass"), std::string::npos) << no_bon.error().message;
  EXPECT_NE(no_bon.error().message.find("the --skeleton file is a kh-bbs-pmo without a BON"), std::string::npos) << no_bon.error().message;
  const Document skeleton{build_demo_pmo()};
  s.animations[0].channels[0].times.back() = 3.0e38f;
  auto long_one = scene::author(s, Format::kh_bbs_pam, {&skeleton});
  ASSERT_FALSE(long_one.ok());
  EXPECT_NE(long_one.error().message.find("lasts 3e+38 s"), std::string::npos) << long_one.error().message;
  EXPECT_LT(long_one.error().message.size(), 120u) << long_one.error().message;
}

// issue 32 F12: 18 animations of 65,535 frames took 21 s to sample on p01ex00's 53 joints; the joint
// frames one import samples are capped, and the animation that passes the cap is named.
TEST(AuthorKhBbsPam, SampledJointFramesAreCapped) {
  const Document skeleton{build_demo_pmo()};
  Scene s = skeleton_scene();
  scene::Animation longest = wave();
  for (scene::Channel& c : longest.channels) c.times.back() = 2184.0f;  // 65,521 frames
  s.animations.assign(200, longest);
  auto r = scene::author(s, Format::kh_bbs_pam, {&skeleton});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::unsupported);
  EXPECT_EQ(r.error().field.rfind("animations[", 0), 0u) << r.error().field;
  EXPECT_NE(r.error().field, "animations[0]") << "one record of the longest length fits";
  EXPECT_NE(r.error().message.find("at most 8388608"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace remodel
