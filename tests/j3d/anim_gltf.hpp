// A J3D model with its animations, lifted and through a .glb and back: what the J3D animation glTF tests share.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "gltf/gltf.hpp"
#include "scene/j3d/lift.hpp"
#include "scene/lift.hpp"

namespace remodel::test {

// The model's joints alone (no meshes, materials or textures): what the animations need, quick to
// write as a .glb.
inline scene::Scene skeleton_scene(const Document& model) {
  auto lifted = scene::lift(model);
  EXPECT_TRUE(lifted) << lifted.error().describe();
  if (!lifted) return {};
  scene::Scene s = std::move(*lifted);
  s.meshes.clear();
  s.materials.clear();
  s.textures.clear();
  for (scene::Node& n : s.nodes) n.mesh = n.skin = -1;
  return s;
}

// The model lifted with the animation file's animation, named `name`.
inline scene::Scene lifted_with(const Document& model, const Document& anim, const std::string& name) {
  scene::LiftInputs in;
  in.animations.push_back(&anim);
  in.animation_names.push_back(name);
  auto s = scene::lift(model, in);
  EXPECT_TRUE(s) << s.error().describe();
  return s ? std::move(*s) : scene::Scene{};
}

// `scene` with the animation file's animation (named `name`), written as a .glb and read back.
inline scene::Scene through_glb(scene::Scene scene, const Document& anim, const std::string& name) {
  scene::LiftInputs in;
  in.animations.push_back(&anim);
  in.animation_names.push_back(name);
  auto lifted = scene::lift_j3d_animations(in, scene.skins[0].joints, scene);
  EXPECT_TRUE(lifted) << lifted.error().describe();
  auto glb = gltf::write_glb(scene);
  EXPECT_TRUE(glb) << glb.error().describe();
  auto read = gltf::read_gltf(*glb);
  EXPECT_TRUE(read) << read.error().describe();
  return read ? std::move(read->scene) : scene::Scene{};
}

}  // namespace remodel::test
