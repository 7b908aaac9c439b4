// What every lifted Scene must satisfy (issue 14), shared by the tests/test_scene_<format>.cpp files.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "scene/scene.hpp"

namespace remodel::test {

// Largest |world(joint) * inverse_bind - I| over every joint of every skin, at bind pose.
inline float max_bind_error(const scene::Scene& s) {
  const std::vector<scene::Mat4> world = scene::world_matrices(s);
  float worst = 0;
  for (const scene::Skin& skin : s.skins) {
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
      const scene::Mat4 product = world[static_cast<std::size_t>(skin.joints[j])] * skin.inverse_bind_matrices[j];
      worst = std::max(worst, scene::max_abs_difference(product, scene::Mat4::identity()));
    }
  }
  return worst;
}

inline std::size_t triangle_count(const scene::Scene& s) {
  std::size_t n = 0;
  for (const scene::Mesh& m : s.meshes) {
    for (const scene::Primitive& p : m.primitives) {
      EXPECT_EQ(p.topology, scene::Topology::triangles);
      n += (p.indices.empty() ? p.vertex_count() : p.indices.size()) / 3;
    }
  }
  return n;
}

// Indices, joints and references in range, every float finite, weights summing to 1, arrays sized
// alike, every skin's joints and inverse binds paired, and no degenerate triangle.
inline void expect_well_formed(const scene::Scene& s, const std::string& what) {
  SCOPED_TRACE(what);
  const auto finite = [](float f) { return std::isfinite(f); };
  for (const scene::Skin& skin : s.skins) {
    ASSERT_EQ(skin.joints.size(), skin.inverse_bind_matrices.size());
    for (int j : skin.joints) ASSERT_TRUE(j >= 0 && static_cast<std::size_t>(j) < s.nodes.size());
    for (const scene::Mat4& m : skin.inverse_bind_matrices) {
      for (float f : m.m) ASSERT_TRUE(finite(f));
    }
  }
  for (const scene::Node& n : s.nodes) {
    ASSERT_TRUE(n.mesh < static_cast<int>(s.meshes.size()));
    ASSERT_TRUE(n.skin < static_cast<int>(s.skins.size()));
    for (float f : {n.local.translation.x, n.local.translation.y, n.local.translation.z, n.local.rotation.x,
                    n.local.rotation.y, n.local.rotation.z, n.local.rotation.w, n.local.scale.x, n.local.scale.y,
                    n.local.scale.z}) {
      ASSERT_TRUE(finite(f)) << n.name;
    }
  }
  for (const scene::Material& m : s.materials) ASSERT_TRUE(m.texture < static_cast<int>(s.textures.size()));
  for (const scene::Texture& t : s.textures) {
    ASSERT_EQ(t.image.rgba.size(), std::size_t{t.image.width} * t.image.height * 4) << t.name;
  }
  for (std::size_t mi = 0; mi < s.meshes.size(); ++mi) {
    std::size_t joints = 0;  // the joint count of the skin this mesh is drawn with
    for (const scene::Node& n : s.nodes) {
      if (n.mesh == static_cast<int>(mi) && n.skin >= 0) joints = s.skins[static_cast<std::size_t>(n.skin)].joints.size();
    }
    for (const scene::Primitive& p : s.meshes[mi].primitives) {
      const std::size_t v = p.vertex_count();
      ASSERT_TRUE(p.material < static_cast<int>(s.materials.size()));
      ASSERT_TRUE(p.normals.empty() || p.normals.size() == v);
      ASSERT_TRUE(p.colors.empty() || p.colors.size() == v);
      for (const auto& set : p.uvs) ASSERT_EQ(set.size(), v);
      for (const scene::Vec3& q : p.positions) ASSERT_TRUE(finite(q.x) && finite(q.y) && finite(q.z));
      for (const scene::Vec3& q : p.normals) ASSERT_TRUE(finite(q.x) && finite(q.y) && finite(q.z));
      for (const auto& set : p.uvs) {
        for (const scene::Vec2& q : set) ASSERT_TRUE(finite(q.x) && finite(q.y));
      }
      ASSERT_EQ(p.indices.size() % 3, 0u);
      for (std::size_t i = 0; i < p.indices.size(); i += 3) {
        ASSERT_LT(p.indices[i], v);
        ASSERT_LT(p.indices[i + 1], v);
        ASSERT_LT(p.indices[i + 2], v);
        ASSERT_TRUE(p.indices[i] != p.indices[i + 1] && p.indices[i + 1] != p.indices[i + 2] &&
                    p.indices[i] != p.indices[i + 2])
            << "degenerate triangle at index " << i;
      }
      ASSERT_EQ(p.influences % 4, 0u);
      if (p.influences == 0) continue;
      ASSERT_GT(joints, 0u) << "a skinned primitive on a node without a skin";
      ASSERT_EQ(p.joints.size(), v * p.influences);
      ASSERT_EQ(p.weights.size(), v * p.influences);
      for (std::size_t k = 0; k < v; ++k) {
        float sum = 0;
        for (std::size_t i = 0; i < p.influences; ++i) {
          const float w = p.weights[k * p.influences + i];
          ASSERT_TRUE(finite(w) && w >= 0);
          ASSERT_LT(p.joints[k * p.influences + i], joints);
          sum += w;
        }
        ASSERT_NEAR(sum, 1.0f, 1e-3f) << "vertex " << k;
      }
    }
  }
}

}  // namespace remodel::test
