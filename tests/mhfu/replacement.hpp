// Issue 30's replacement, made in code from an MHFU sample's lifted Scene as a modder makes it in
// Blender: the game's meshes deleted, a stretched sphere of their own inside the model's extent
// weighted to the game's joints (3 per vertex where the skeleton has them), a new material with a
// 64x64 checker texture, a colour layer; then Blender's export (extras stripped, bones turned).
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "blender_like.hpp"
#include "scene/math.hpp"
#include "scene/scene.hpp"

namespace remodel::test::mhfu {

// Red and blue squares of 8 texels, exact in RGBA5551 (authoring keeps the palette in it when every
// colour survives).
inline RgbaImage checker(std::uint32_t side = 64) {
  RgbaImage im(side, side);
  for (std::size_t y = 0; y < side; ++y) {
    for (std::size_t x = 0; x < side; ++x) {
      const bool dark = ((x / 8) + (y / 8)) % 2 == 1;
      const std::uint8_t c[4] = {dark ? std::uint8_t{0} : std::uint8_t{255}, 0, dark ? std::uint8_t{255} : std::uint8_t{0}, 255};
      std::copy(c, c + 4, im.rgba.begin() + static_cast<std::ptrdiff_t>((y * side + x) * 4));
    }
  }
  return im;
}

// The skin joints' world positions, and the drawn vertices' box, of `s` at bind pose.
struct Extent {
  scene::Vec3 low{1e30f, 1e30f, 1e30f}, high{-1e30f, -1e30f, -1e30f};
};
inline Extent drawn_extent(const scene::Scene& s) {
  Extent e;
  for (const scene::Mesh& m : s.meshes) {
    for (const scene::Primitive& p : m.primitives) {
      for (const scene::Vec3& q : p.positions) {
        e.low = {std::min(e.low.x, q.x), std::min(e.low.y, q.y), std::min(e.low.z, q.z)};
        e.high = {std::max(e.high.x, q.x), std::max(e.high.y, q.y), std::max(e.high.z, q.z)};
      }
    }
  }
  return e;
}

// The replacement as Blender exports it. `lifted`: the sample lifted (skinned, one skin).
inline scene::Scene blender_replacement(const scene::Scene& lifted) {
  scene::Scene s = lifted;
  const std::vector<scene::Mat4> world = scene::world_matrices(s);
  const scene::Skin& skin = s.skins[0];
  std::vector<scene::Vec3> heads;
  for (int j : skin.joints) {
    const scene::Mat4& w = world[static_cast<std::size_t>(j)];
    heads.push_back({w.m[12], w.m[13], w.m[14]});
  }
  const Extent e = drawn_extent(s);
  const scene::Vec3 centre = (e.low + e.high) * 0.5f, half = (e.high - e.low) * 0.4f;
  scene::Primitive p;
  p.influences = 4;
  const std::size_t rings = 8, segments = 12;
  for (std::size_t r = 0; r <= rings; ++r) {
    for (std::size_t k = 0; k <= segments; ++k) {
      const float u = static_cast<float>(k) / segments, v = static_cast<float>(r) / rings;
      const float theta = v * 3.14159265f, phi = u * 6.2831853f;
      const scene::Vec3 unit{std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)};
      const scene::Vec3 q{centre.x + unit.x * half.x, centre.y + unit.y * half.y, centre.z + unit.z * half.z};
      p.positions.push_back(q);
      p.normals.push_back(scene::normalize(scene::Vec3{unit.x / std::max(half.x, 1e-6f), unit.y / std::max(half.y, 1e-6f), unit.z / std::max(half.z, 1e-6f)}));
      p.uvs.resize(1);
      p.uvs[0].push_back({u, v});
      // A gradient over the height (one colour per position, as Blender's per-corner layer here).
      p.colors.push_back({0.25f + 0.75f * (1.0f - v), 0.2f, 1.0f - 0.5f * (1.0f - v), 1.0f});
      // Automatic weights, roughly: the nearest three joints by inverse distance.
      std::vector<std::pair<float, std::uint16_t>> near;
      for (std::size_t j = 0; j < heads.size(); ++j) near.emplace_back(scene::length(q - heads[j]) + 1e-3f, static_cast<std::uint16_t>(j));
      std::sort(near.begin(), near.end());
      near.resize(std::min<std::size_t>(3, near.size()));
      float sum = 0;
      for (const auto& [d, j] : near) sum += 1.0f / d;
      for (std::size_t i = 0; i < 4; ++i) {
        p.joints.push_back(i < near.size() ? near[i].second : 0);
        p.weights.push_back(i < near.size() ? 1.0f / near[i].first / sum : 0.0f);
      }
    }
  }
  for (std::uint32_t r = 0; r < rings; ++r) {
    for (std::uint32_t k = 0; k < segments; ++k) {
      const std::uint32_t a = r * (segments + 1) + k, b = a + segments + 1;
      for (std::uint32_t i : {a, b, a + 1, a + 1, b, b + 1}) p.indices.push_back(i);
    }
  }
  s.materials = {scene::Material{}};
  s.materials[0].name = "Checker";
  s.materials[0].texture = 0;
  s.materials[0].vertex_colors = true;
  s.textures = {scene::Texture{}};
  s.textures[0].image = checker();
  p.material = 0;
  s.meshes = {scene::Mesh{"Replacement", {std::move(p)}, nullptr}};
  bool placed = false;
  for (scene::Node& n : s.nodes) {
    if (n.mesh < 0) continue;
    n.mesh = placed ? -1 : 0;
    n.skin = placed ? -1 : n.skin;
    placed = true;
  }
  strip_extras_like_blender(s);
  turn_bones_like_blender(s);
  return s;
}

}  // namespace remodel::test::mhfu
