// BCK and BCA through glTF sample at most 2^23 joint frames (joints x frames) an export or import
// (kMaxSampledJointFrames, as a new PAM): 129 joints over 65,535 frames pass it and are refused naming
// the cap before any frame is sampled, in the export (lift), over a base and new.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "model/document.hpp"
#include "model/j3d/anim.hpp"
#include "model/j3d/j3d.hpp"
#include "scene/anim_channels.hpp"
#include "scene/j3d/lift.hpp"
#include "scene/lower.hpp"

namespace remodel {
namespace {

constexpr std::size_t kJoints = 129;  // x 65,536 frames = 8,454,144, past 2^23 = 8,388,608

void expect_capped(const Result<void>& r, const std::string& where, const std::string& counts) {
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::unsupported);
  EXPECT_EQ(r.error().field, where);
  EXPECT_NE(r.error().message.find(counts), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("at most " + std::to_string(scene::kMaxSampledJointFrames)), std::string::npos) << r.error().message;
}

template <typename T>
Result<void> status(const Result<T>& r) {
  if (r) return {};
  return r.error();
}

Document bck(std::uint16_t duration, std::size_t joints) {
  J3dAnk1 a;
  a.duration = duration;
  a.joints.resize(joints);
  J3dAnimFile f;
  f.section = std::move(a);
  return Document{std::move(f)};
}

// A BCA whose longest track (one joint's y translation) stores `frames` frames.
Document bca(std::size_t frames, std::size_t joints) {
  J3dAnf1 a;
  a.joints.resize(joints);
  a.joints[joints / 2].translation[1].values.assign(frames, 0.0f);
  J3dAnimFile f;
  f.type = {'b', 'c', 'a', '1'};
  f.section = std::move(a);
  return Document{std::move(f)};
}

// `joints` nodes in a skin, and one animation lasting `frames` frames at 30 fps (a translation of node 0).
scene::Scene scene_of(std::size_t joints, std::size_t frames) {
  scene::Scene s;
  s.nodes.resize(joints);
  scene::Skin skin;
  for (std::size_t j = 0; j < joints; ++j) {
    s.nodes[j].name = "joint" + std::to_string(j);
    skin.joints.push_back(static_cast<int>(j));
  }
  s.skins.push_back(skin);
  scene::Channel c;
  c.node = 0;
  c.times = {0, static_cast<float>(frames - 1) / 30};
  c.values = {0, 0, 0, 1, 0, 0};
  scene::Animation a;
  a.name = "long";
  a.channels.push_back(c);
  s.animations.push_back(a);
  return s;
}

TEST(J3dAnimCaps, ExportRefusesPastTheCapBeforeSampling) {
  const std::vector<int> nodes(kJoints, 0);
  const std::pair<Document, std::string> files[] = {{bck(65535, kJoints), "65536 frames on 129 joints"}, {bca(65535, kJoints), "65535 frames on 129 joints"}};
  for (const auto& [doc, counts] : files) {
    scene::LiftInputs in;
    in.animations.push_back(&doc);
    scene::Scene scene;
    expect_capped(scene::lift_j3d_animations(in, nodes, scene), "animations[0]", counts);
    EXPECT_TRUE(scene.animations.empty());
  }
  // The cap counts over every animation of the export: 2 x 65 joints x 65,536 frames pass it at the
  // second, and neither is sampled.
  const Document half = bck(65535, 65);
  scene::LiftInputs in;
  in.animations = {&half, &half};
  scene::Scene scene;
  expect_capped(scene::lift_j3d_animations(in, std::vector<int>(65, 0), scene), "animations[1]", "to 8519680");
  EXPECT_TRUE(scene.animations.empty());
}

TEST(J3dAnimCaps, ImportOverABaseRefusesPastTheCap) {
  scene::Scene scene = scene_of(kJoints, 2);
  scene.animations[0].extras = {{"duration", 65535u}};  // the BCK samples 0..duration (unsigned, as parsed JSON holds it)
  expect_capped(status(scene::lower(scene, bck(0, kJoints), scene::LowerInputs{})), "animations[0]", "65536 frames on 129 joints");
  // A BCA samples as long as the glTF runs: 65,535 frames.
  expect_capped(status(scene::lower(scene_of(kJoints, 65535), bca(1, kJoints), scene::LowerInputs{})), "animations[0]", "65535 frames on 129 joints");
}

TEST(J3dAnimCaps, ANewAnimationRefusesPastTheCap) {
  J3dJnt1 jnt;
  jnt.joints.resize(kJoints);
  J3dFile model;
  model.sections.push_back(std::move(jnt));
  const Document skeleton{std::move(model)};
  scene::LowerInputs li;
  li.skeleton = &skeleton;
  const scene::Scene scene = scene_of(kJoints, 65536);
  expect_capped(status(scene::author(scene, Format::j3d_anim, li)), "animations[0]", "65536 frames on 129 joints");
  li.j3d_bca = true;
  expect_capped(status(scene::author(scene, Format::j3d_anim, li)), "animations[0]", "65536 frames on 129 joints");
}

}  // namespace
}  // namespace remodel
