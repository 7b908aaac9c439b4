// Scene equality for the import tests: `as_exported` applies what the glTF writer documents it
// changes (lib/gltf/README.md, "What the writer guarantees"), and `same_scene` compares two Scenes
// field by field, floats bit for bit, naming the first difference.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>

#include "gltf/gltf.hpp"
#include "gltf/names.hpp"
#include "scene/match.hpp"
#include "scene/scene.hpp"

namespace remodel::test {

// A primitive's drawn triangles as position triples, each rotated to start at its smallest corner
// (winding kept), sorted: the same surface whatever the vertex order, strips or triangle order.
inline std::vector<std::array<float, 9>> primitive_surface(const scene::Primitive& p) {
  std::vector<std::array<float, 9>> out;
  const std::vector<std::uint32_t> t = scene::drawn_triangles(p);
  for (std::size_t i = 0; i + 2 < t.size(); i += 3) {
    std::array<std::array<float, 3>, 3> c;
    for (std::size_t k = 0; k < 3; ++k) c[k] = {p.positions[t[i + k]].x, p.positions[t[i + k]].y, p.positions[t[i + k]].z};
    const auto first = static_cast<std::size_t>(std::min_element(c.begin(), c.end()) - c.begin());
    std::array<float, 9> tri;
    for (std::size_t k = 0; k < 3; ++k) std::copy(c[(first + k) % 3].begin(), c[(first + k) % 3].end(), tri.begin() + static_cast<std::ptrdiff_t>(3 * k));
    out.push_back(tri);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The Scene as a glTF export carries it: degenerate triangles dropped (a strip or fan holding one
// becomes a list), normals and rotations unit length (gltf::unit_normal, unit_rotation), colours and base colours clamped to 0-1, weights merged per
// joint and renormalised, unused material fields at glTF's defaults, a
// mipmapped magnification filter as its base filter, default transforms with +0, non-finite numbers in extras as "NaN"/"Infinity" strings, scenes[0] made of the visible roots when the
// Scene has none and visibility = reached from scenes[0], empty extras as none.
inline scene::Scene as_exported(scene::Scene s) {
  const auto unit = [](float v) { return std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 0.0f; };
  const auto extras = [](scene::Extras& e) {
    e = gltf::json_extras(e);  // JSON has no NaN or infinity
    if (e.is_object() && e.empty()) e = scene::Extras();
    if (!e.is_null() && !e.is_object()) e = scene::Extras{{"value", e}};
  };
  std::vector<bool> colored(s.materials.size(), false);
  for (scene::Mesh& mesh : s.meshes) {
    extras(mesh.extras);
    for (scene::Primitive& p : mesh.primitives) {
      extras(p.extras);
      const bool triangles = p.topology == scene::Topology::triangles || p.topology == scene::Topology::triangle_strip ||
                             p.topology == scene::Topology::triangle_fan;
      const auto& ix = p.indices;
      const auto same = [](std::uint32_t a, std::uint32_t b, std::uint32_t c) { return a == b || b == c || a == c; };
      bool degenerate = false;
      for (std::size_t i = 0; triangles && i + 2 < ix.size(); ++i) {
        if (p.topology == scene::Topology::triangles && i % 3 == 0) degenerate = degenerate || same(ix[i], ix[i + 1], ix[i + 2]);
        if (p.topology == scene::Topology::triangle_strip) degenerate = degenerate || same(ix[i], ix[i + 1], ix[i + 2]);
        if (p.topology == scene::Topology::triangle_fan) degenerate = degenerate || same(ix[0], ix[i + 1], ix[i + 2]);
      }
      if (degenerate) {
        p.indices = scene::drawn_triangles(p);
        p.topology = scene::Topology::triangles;
      }
      for (scene::Vec3& n : p.normals) n = gltf::unit_normal(n);
      for (scene::Vec4& c : p.colors) c = {unit(c.x), unit(c.y), unit(c.z), unit(c.w)};
      if (!p.colors.empty() && p.material >= 0) colored[static_cast<std::size_t>(p.material)] = true;
      const std::size_t k = p.influences;
      for (std::size_t v = 0; k > 0 && v < p.vertex_count(); ++v) {
        std::uint16_t* j = &p.joints[v * k];
        float* w = &p.weights[v * k];
        float sum = 0;
        for (std::size_t i = 0; i < k; ++i) {
          const float given = w[i];
          if (w[i] == 0) j[i] = 0;
          for (std::size_t e = 0; e < i; ++e) {
            if (w[i] != 0 && w[e] != 0 && j[e] == j[i]) {
              w[e] += w[i], w[i] = 0, j[i] = 0;
              break;
            }
          }
          sum += given;
        }
        const float scale = 1.0f / sum;
        for (std::size_t i = 0; i < k; ++i) w[i] *= scale;
      }
    }
  }
  for (std::size_t i = 0; i < s.materials.size(); ++i) {
    scene::Material& m = s.materials[i];
    extras(m.extras);
    m.base_color = {unit(m.base_color.x), unit(m.base_color.y), unit(m.base_color.z), unit(m.base_color.w)};
    m.vertex_colors = m.vertex_colors && colored[i];
    if (m.alpha_mode != scene::AlphaMode::mask) m.alpha_cutoff = 0.5f;
    if (m.texture < 0) m.uv_set = 0;
  }
  for (scene::Texture& t : s.textures) {
    extras(t.extras);
    const scene::Filter f = t.sampler.mag;
    t.sampler.mag = f == scene::Filter::nearest || f == scene::Filter::nearest_mipmap_nearest || f == scene::Filter::nearest_mipmap_linear
                        ? scene::Filter::nearest
                        : scene::Filter::linear;
  }
  for (scene::Node& n : s.nodes) {
    extras(n.extras);
    // Defaults are left out, so a -0 among them comes back +0.
    if (n.local.translation == scene::Vec3{}) n.local.translation = scene::Vec3{};
    if (n.local.rotation == scene::Quat{}) n.local.rotation = scene::Quat{};
    else n.local.rotation = gltf::unit_rotation(n.local.rotation);
  }
  for (scene::Skin& k : s.skins) extras(k.extras);
  for (scene::Animation& a : s.animations) {
    extras(a.extras);
    for (scene::Channel& c : a.channels) {
      if (c.path != scene::Path::rotation) continue;
      const std::size_t per_key = c.interpolation == scene::Interpolation::cubic_spline ? 3 : 1;
      for (std::size_t k = 0; k < c.values.size() / 4; ++k) {
        if (per_key == 3 && k % 3 != 1) continue;
        const scene::Quat q = gltf::unit_rotation(scene::Quat{c.values[k * 4], c.values[k * 4 + 1], c.values[k * 4 + 2], c.values[k * 4 + 3]});
        c.values[k * 4] = q.x, c.values[k * 4 + 1] = q.y, c.values[k * 4 + 2] = q.z, c.values[k * 4 + 3] = q.w;
      }
    }
  }
  if (s.scenes.empty() && !s.nodes.empty()) {
    scene::SceneRoots roots;
    for (std::size_t i = 0; i < s.nodes.size(); ++i) {
      if (s.nodes[i].parent < 0 && s.nodes[i].visible) roots.nodes.push_back(static_cast<int>(i));
    }
    s.scenes.push_back(std::move(roots));
  }
  if (!s.scenes.empty()) {
    for (scene::Node& n : s.nodes) n.visible = false;
    std::vector<int> stack = s.scenes[0].nodes;
    while (!stack.empty()) {
      scene::Node& n = s.nodes[static_cast<std::size_t>(stack.back())];
      stack.pop_back();
      n.visible = true;
      stack.insert(stack.end(), n.children.begin(), n.children.end());
    }
  }
  extras(s.extras);
  return s;
}

namespace detail {

class SceneDiff {
 public:
  std::string first;  // empty: equal
  template <typename T>
  void eq(const std::string& where, const T& a, const T& b) {
    if (first.empty() && !(a == b)) first = where + " differs";
  }
  void floats(const std::string& where, const void* a, std::size_t na, const void* b, std::size_t nb, std::size_t width) {
    if (!first.empty()) return;
    if (na != nb) {
      first = where + " has " + std::to_string(nb) + " floats, expected " + std::to_string(na);
    } else if (na != 0 && std::memcmp(a, b, na * 4) != 0) {
      const auto* fa = static_cast<const float*>(a);
      const auto* fb = static_cast<const float*>(b);
      for (std::size_t i = 0; i < na; ++i) {
        if (std::bit_cast<std::uint32_t>(fa[i]) != std::bit_cast<std::uint32_t>(fb[i])) {
          std::ostringstream o;
          o.precision(9);
          o << where << "[" << i / width << "] component " << i % width << " is " << fb[i] << ", expected " << fa[i];
          first = o.str();
          return;
        }
      }
    }
  }
  template <typename V>
  void floats(const std::string& where, const std::vector<V>& a, const std::vector<V>& b) {
    floats(where, a.data(), a.size() * sizeof(V) / 4, b.data(), b.size() * sizeof(V) / 4, sizeof(V) / 4);
  }
  void extras(const std::string& where, const scene::Extras& a, const scene::Extras& b) {
    if (first.empty() && a != b) first = where + ".extras is " + b.dump() + ", expected " + a.dump();
  }
};

inline std::string at(const std::string& where, std::size_t i) { return where + "[" + std::to_string(i) + "]"; }

}  // namespace detail

// Compares `got` with `expected` (pass as_exported(lift) as expected for a glTF round trip).
inline ::testing::AssertionResult same_scene(const scene::Scene& expected, const scene::Scene& got) {
  detail::SceneDiff d;
  using detail::at;
  d.eq("nodes.size", expected.nodes.size(), got.nodes.size());
  for (std::size_t i = 0; i < expected.nodes.size() && d.first.empty(); ++i) {
    const scene::Node &a = expected.nodes[i], &b = got.nodes[i];
    const std::string w = at("nodes", i);
    d.eq(w + ".name", a.name, b.name);
    d.eq(w + ".parent", a.parent, b.parent);
    d.eq(w + ".children", a.children, b.children);
    d.floats(w + ".local", &a.local, 10, &b.local, 10, 10);
    d.eq(w + ".mesh", a.mesh, b.mesh);
    d.eq(w + ".skin", a.skin, b.skin);
    d.eq(w + ".visible", a.visible, b.visible);
    d.extras(w, a.extras, b.extras);
  }
  d.eq("meshes.size", expected.meshes.size(), got.meshes.size());
  for (std::size_t m = 0; m < expected.meshes.size() && d.first.empty(); ++m) {
    const scene::Mesh &a = expected.meshes[m], &b = got.meshes[m];
    const std::string w = at("meshes", m);
    d.eq(w + ".name", a.name, b.name);
    d.extras(w, a.extras, b.extras);
    d.eq(w + ".primitives.size", a.primitives.size(), b.primitives.size());
    for (std::size_t i = 0; i < a.primitives.size() && d.first.empty(); ++i) {
      const scene::Primitive &pa = a.primitives[i], &pb = b.primitives[i];
      const std::string p = at(w + ".primitives", i);
      d.eq(p + ".topology", pa.topology, pb.topology);
      d.floats(p + ".positions", pa.positions, pb.positions);
      d.floats(p + ".normals", pa.normals, pb.normals);
      d.floats(p + ".colors", pa.colors, pb.colors);
      d.eq(p + ".uvs.size", pa.uvs.size(), pb.uvs.size());
      for (std::size_t s = 0; s < pa.uvs.size() && d.first.empty(); ++s) d.floats(at(p + ".uvs", s), pa.uvs[s], pb.uvs[s]);
      d.eq(p + ".influences", pa.influences, pb.influences);
      d.eq(p + ".joints", pa.joints, pb.joints);
      d.floats(p + ".weights", pa.weights.data(), pa.weights.size(), pb.weights.data(), pb.weights.size(), std::max<std::size_t>(pa.influences, 1));
      d.eq(p + ".indices", pa.indices, pb.indices);
      d.eq(p + ".material", pa.material, pb.material);
      d.extras(p, pa.extras, pb.extras);
    }
  }
  d.eq("skins.size", expected.skins.size(), got.skins.size());
  for (std::size_t k = 0; k < expected.skins.size() && d.first.empty(); ++k) {
    const scene::Skin &a = expected.skins[k], &b = got.skins[k];
    const std::string w = at("skins", k);
    d.eq(w + ".name", a.name, b.name);
    d.eq(w + ".joints", a.joints, b.joints);
    d.floats(w + ".inverse_bind_matrices", a.inverse_bind_matrices, b.inverse_bind_matrices);
    d.eq(w + ".skeleton", a.skeleton, b.skeleton);
    d.extras(w, a.extras, b.extras);
  }
  d.eq("materials.size", expected.materials.size(), got.materials.size());
  for (std::size_t i = 0; i < expected.materials.size() && d.first.empty(); ++i) {
    const scene::Material &a = expected.materials[i], &b = got.materials[i];
    const std::string w = at("materials", i);
    d.eq(w + ".name", a.name, b.name);
    d.floats(w + ".base_color", &a.base_color, 4, &b.base_color, 4, 4);
    d.eq(w + ".texture", a.texture, b.texture);
    d.eq(w + ".uv_set", a.uv_set, b.uv_set);
    d.eq(w + ".vertex_colors", a.vertex_colors, b.vertex_colors);
    d.eq(w + ".alpha_mode", a.alpha_mode, b.alpha_mode);
    d.floats(w + ".alpha_cutoff", &a.alpha_cutoff, 1, &b.alpha_cutoff, 1, 1);
    d.eq(w + ".double_sided", a.double_sided, b.double_sided);
    d.eq(w + ".unlit", a.unlit, b.unlit);
    d.eq(w + ".texture_transform", a.texture_transform.has_value(), b.texture_transform.has_value());
    if (a.texture_transform && b.texture_transform) d.floats(w + ".texture_transform", &*a.texture_transform, 5, &*b.texture_transform, 5, 5);
    d.extras(w, a.extras, b.extras);
  }
  d.eq("textures.size", expected.textures.size(), got.textures.size());
  for (std::size_t i = 0; i < expected.textures.size() && d.first.empty(); ++i) {
    const scene::Texture &a = expected.textures[i], &b = got.textures[i];
    const std::string w = at("textures", i);
    d.eq(w + ".name", a.name, b.name);
    d.eq(w + ".image", a.image, b.image);
    d.eq(w + ".encoding", a.encoding, b.encoding);
    d.eq(w + ".sampler", a.sampler, b.sampler);
    d.extras(w, a.extras, b.extras);
  }
  d.eq("animations.size", expected.animations.size(), got.animations.size());
  for (std::size_t i = 0; i < expected.animations.size() && d.first.empty(); ++i) {
    const scene::Animation &a = expected.animations[i], &b = got.animations[i];
    const std::string w = at("animations", i);
    d.eq(w + ".name", a.name, b.name);
    d.extras(w, a.extras, b.extras);
    d.eq(w + ".channels.size", a.channels.size(), b.channels.size());
    for (std::size_t c = 0; c < a.channels.size() && d.first.empty(); ++c) {
      const scene::Channel &ca = a.channels[c], &cb = b.channels[c];
      const std::string cw = at(w + ".channels", c);
      d.eq(cw + ".node", ca.node, cb.node);
      d.eq(cw + ".path", ca.path, cb.path);
      d.eq(cw + ".pointer", ca.pointer, cb.pointer);
      d.eq(cw + ".pointer_width", ca.pointer_width, cb.pointer_width);
      d.eq(cw + ".boolean", ca.boolean, cb.boolean);
      d.eq(cw + ".interpolation", ca.interpolation, cb.interpolation);
      d.floats(cw + ".times", ca.times, cb.times);
      d.floats(cw + ".values", ca.values, cb.values);
    }
  }
  d.eq("scenes.size", expected.scenes.size(), got.scenes.size());
  for (std::size_t i = 0; i < expected.scenes.size() && d.first.empty(); ++i) {
    d.eq(at("scenes", i) + ".name", expected.scenes[i].name, got.scenes[i].name);
    d.eq(at("scenes", i) + ".nodes", expected.scenes[i].nodes, got.scenes[i].nodes);
  }
  d.extras("scene", expected.extras, got.extras);
  if (d.first.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << d.first;
}

}  // namespace remodel::test
