// A generated large BMD for the benchmarks, the shape of the largest real J3D files (issue 18): a
// Scene built in code and authored by scene::author_j3d. 40 wavy grids of 40 x 30 vertices (positions,
// normals, colours, one UV set), each placed apart, and 80 small quads; 120 materials, each showing its
// own 32 x 32 texture (grey, few-colour, translucent and full-colour images in turn, so TEX1 holds I8,
// C8, RGBA8 and CMPR, mipmapped). Deterministic: the same bytes every run.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../tests/author_scenes.hpp"
#include "model/document.hpp"
#include "model/image.hpp"
#include "scene/lower.hpp"
#include "scene/scene.hpp"

namespace remodel::bench {

// Texture `t`: a 32 x 32 image whose kind cycles with t (grey, 12 colours, translucent, full colour).
inline RgbaImage large_j3d_texture(std::uint32_t t) {
  RgbaImage image(32, 32);
  for (std::uint32_t y = 0; y < 32; ++y) {
    for (std::uint32_t x = 0; x < 32; ++x) {
      const std::uint32_t h = (x * 73856093u) ^ (y * 19349663u) ^ (t * 83492791u);
      std::uint8_t* p = image.at(x, y);
      const auto ramp = static_cast<std::uint8_t>(x * 8 + y * 3 + t * 5);
      switch (t % 4) {
        case 0: p[0] = p[1] = p[2] = ramp; p[3] = 255; break;
        case 1: {
          const std::uint32_t k = (x / 8 + y / 8 + t) % 12;  // colours RGB565 holds exactly
          p[0] = static_cast<std::uint8_t>((k * 2 + 1) * 8); p[1] = static_cast<std::uint8_t>(k * 20); p[2] = static_cast<std::uint8_t>(248 - k * 16); p[3] = 255;
          break;
        }
        case 2: p[0] = ramp; p[1] = static_cast<std::uint8_t>(h >> 8); p[2] = static_cast<std::uint8_t>(t * 2); p[3] = static_cast<std::uint8_t>(x * 7 + 1); break;
        default: p[0] = ramp; p[1] = static_cast<std::uint8_t>(y * 8); p[2] = static_cast<std::uint8_t>(h >> 16); p[3] = 255; break;
      }
    }
  }
  return image;
}

// A w x h grid of vertices placed at `origin`, waving in y, with normals, colours and UVs, drawn with `material`.
inline scene::Primitive large_j3d_grid(std::size_t w, std::size_t h, scene::Vec3 origin, float phase, int material) {
  scene::Primitive p;
  p.uvs.resize(1);
  for (std::size_t y = 0; y < h; ++y) {
    for (std::size_t x = 0; x < w; ++x) {
      const float fx = static_cast<float>(x) * 0.25f, fz = static_cast<float>(y) * 0.25f;
      const float wave = 0.5f * std::sin(fx * 0.7f + phase) * std::cos(fz * 0.5f + phase);
      p.positions.push_back({origin.x + fx, origin.y + wave, origin.z + fz});
      const float dx = 0.35f * std::cos(fx * 0.7f + phase) * std::cos(fz * 0.5f + phase);
      const float dz = -0.25f * std::sin(fx * 0.7f + phase) * std::sin(fz * 0.5f + phase);
      const float n = std::sqrt(dx * dx + 1 + dz * dz);
      p.normals.push_back({-dx / n, 1 / n, -dz / n});
      p.colors.push_back({static_cast<float>(x) / static_cast<float>(w), static_cast<float>(y) / static_cast<float>(h), 0.5f + 0.5f * std::sin(phase), 1});
      p.uvs[0].push_back({static_cast<float>(x) / static_cast<float>(w - 1) * 2, static_cast<float>(y) / static_cast<float>(h - 1) * 2});
    }
  }
  for (std::size_t y = 0; y + 1 < h; ++y) {
    for (std::size_t x = 0; x + 1 < w; ++x) {
      const auto a = static_cast<std::uint32_t>(y * w + x), b = a + 1, c = static_cast<std::uint32_t>(a + w), d = c + 1;
      p.indices.insert(p.indices.end(), {a, c, b, b, c, d});
    }
  }
  p.material = material;
  return p;
}

inline scene::Scene large_j3d_scene() {
  constexpr int kGrids = 40, kQuads = 80;
  std::vector<scene::Primitive> prims;
  for (int i = 0; i < kGrids + kQuads; ++i) {
    const auto fi = static_cast<float>(i);
    const scene::Vec3 origin{fi * 11.0f - 200.0f, fi * 0.3f, static_cast<float>(i % 7) * 9.0f};
    prims.push_back(i < kGrids ? large_j3d_grid(40, 30, origin, fi * 0.37f, i) : large_j3d_grid(4, 4, origin, fi * 0.37f, i));
  }
  scene::Scene s = test::one_mesh(std::move(prims));
  for (int i = 0; i < kGrids + kQuads; ++i) {
    scene::Texture t;
    t.name = "tex" + std::to_string(i);
    t.image = large_j3d_texture(static_cast<std::uint32_t>(i));
    s.textures.push_back(std::move(t));
    scene::Material m;
    m.name = "mat" + std::to_string(i);
    m.texture = i;
    m.vertex_colors = i < kGrids;
    m.base_color = {1, 1 - static_cast<float>(i) / 256, 1, 1};
    if (i % 4 == 2) m.alpha_mode = scene::AlphaMode::blend;
    s.materials.push_back(std::move(m));
  }
  return s;
}

// The BMD bytes of large_j3d_scene().
inline Bytes large_j3d_file() {
  auto lowered = scene::author_j3d(large_j3d_scene(), {});
  return write_document(lowered.value().document).value();
}

}  // namespace remodel::bench
