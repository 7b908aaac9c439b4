// What Blender 3.4's glTF import and export do to a Scene nobody edited, made in code (Blender is not
// in CI; tools/blender_roundtrip.sh runs the real one).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "scene/anim_channels.hpp"
#include "scene/match.hpp"
#include "scene/math.hpp"
#include "scene/scene.hpp"

namespace remodel::test {

// Blender's default export drops every extras object; names stay.
inline void strip_extras_like_blender(scene::Scene& s) {
  for (scene::Node& n : s.nodes) n.extras = nullptr;
  for (scene::Mesh& m : s.meshes) {
    m.extras = nullptr;
    for (scene::Primitive& p : m.primitives) p.extras = nullptr;
  }
  for (scene::Material& m : s.materials) m.extras = nullptr;
  for (scene::Texture& t : s.textures) t.extras = nullptr;
}

// Blender writes materials in its own order, and then one texture per material that shows one: in
// that order, unnamed, without extras or a source encoding; textures no material shows are gone.
inline void prune_textures_like_blender(scene::Scene& s) {
  std::reverse(s.materials.begin(), s.materials.end());
  const int count = static_cast<int>(s.materials.size());
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) {
      if (p.material >= 0 && p.material < count) p.material = count - 1 - p.material;
    }
  }
  std::vector<scene::Texture> textures;
  for (scene::Material& m : s.materials) {
    if (m.texture < 0 || static_cast<std::size_t>(m.texture) >= s.textures.size()) continue;
    scene::Texture t = s.textures[static_cast<std::size_t>(m.texture)];
    t.name.clear();
    t.extras = nullptr;
    t.encoding.clear();
    m.texture = static_cast<int>(textures.size());
    textures.push_back(std::move(t));
  }
  s.textures = std::move(textures);
}

// Blender drops our `_COLOR_0` (the colours of a primitive whose material does not show them).
inline void drop_unshown_colours_like_blender(scene::Scene& s) {
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) {
      const bool shown = p.material >= 0 && static_cast<std::size_t>(p.material) < s.materials.size() && s.materials[static_cast<std::size_t>(p.material)].vertex_colors;
      if (!shown) p.colors.clear();
    }
  }
}

// Blender gives a primitive without normals flat ones: every triangle corner its own vertex with the
// triangle's normal.
inline void flat_normals_like_blender(scene::Scene& s) {
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) {
      if (!p.normals.empty() || p.positions.empty()) continue;
      const std::vector<std::uint32_t> corners = scene::drawn_triangles(p);
      scene::Primitive q = p;
      q.positions.clear();
      q.colors.clear();
      for (auto& u : q.uvs) u.clear();
      q.joints.clear();
      q.weights.clear();
      q.indices.clear();
      q.topology = scene::Topology::triangles;
      for (std::size_t t = 0; t + 2 < corners.size(); t += 3) {
        const scene::Vec3 a = p.positions[corners[t]], b = p.positions[corners[t + 1]], c = p.positions[corners[t + 2]];
        const scene::Vec3 normal = scene::normalize(scene::cross(b - a, c - a));
        for (std::size_t k = 0; k < 3; ++k) {
          const std::uint32_t v = corners[t + k];
          q.indices.push_back(static_cast<std::uint32_t>(q.positions.size()));
          q.positions.push_back(p.positions[v]);
          q.normals.push_back(normal);
          if (!p.colors.empty()) q.colors.push_back(p.colors[v]);
          for (std::size_t u = 0; u < p.uvs.size(); ++u) q.uvs[u].push_back(p.uvs[u][v]);
          for (std::uint32_t i = 0; i < p.influences; ++i) {
            q.joints.push_back(p.joints[std::size_t{v} * p.influences + i]);
            q.weights.push_back(p.weights[std::size_t{v} * p.influences + i]);
          }
        }
      }
      p = std::move(q);
    }
  }
}

// Blender merges a mesh's primitives that share a material into one: vertices appended, triangles in
// order. Then it gives every triangle corner its own vertex, each normal with its own float noise
// (custom normals are kept per face corner): here 1e-6 per component, alternating in sign, far
// below half a step of the 8-bit normals the MHFU samples store (noise that crosses a step is an edit).
inline void merge_primitives_like_blender(scene::Scene& s) {
  for (scene::Mesh& m : s.meshes) {
    std::vector<scene::Primitive> merged;
    for (scene::Primitive& p : m.primitives) {
      const std::vector<std::uint32_t> corners = scene::drawn_triangles(p);
      scene::Primitive* into = nullptr;
      for (scene::Primitive& q : merged) {
        if (q.material == p.material && q.influences == p.influences && q.uvs.size() == p.uvs.size() && q.normals.empty() == p.normals.empty() &&
            q.colors.empty() == p.colors.empty()) {
          into = &q;
        }
      }
      if (into == nullptr) {
        scene::Primitive q = p;
        q.positions.clear();
        q.normals.clear();
        q.colors.clear();
        for (auto& u : q.uvs) u.clear();
        q.joints.clear();
        q.weights.clear();
        q.indices.clear();
        q.topology = scene::Topology::triangles;
        merged.push_back(std::move(q));
        into = &merged.back();
      }
      for (std::size_t k = 0; k < corners.size(); ++k) {
        const std::uint32_t v = corners[k];
        into->indices.push_back(static_cast<std::uint32_t>(into->positions.size()));
        into->positions.push_back(p.positions[v]);
        if (!p.normals.empty()) {
          const float e = k % 2 == 0 ? 1e-6f : -1e-6f;
          into->normals.push_back(p.normals[v] + scene::Vec3{e, -e, e});
        }
        if (!p.colors.empty()) into->colors.push_back(p.colors[v]);
        for (std::size_t u = 0; u < p.uvs.size(); ++u) into->uvs[u].push_back(p.uvs[u][v]);
        for (std::uint32_t i = 0; i < p.influences; ++i) {
          into->joints.push_back(p.joints[std::size_t{v} * p.influences + i]);
          into->weights.push_back(p.weights[std::size_t{v} * p.influences + i]);
        }
      }
    }
    m.primitives = std::move(merged);
  }
}

// Blender's noise on J3D vertices (measured with tools/blender_roundtrip.sh, Blender 3.4; the bounds
// in scene/match.hpp): positions off by up to 52 float steps of their size (here -32 .. 31, the same
// for every copy of a vertex: one Blender vertex holds one position), each corner's normal turned its
// own way (custom normals are kept per face corner, so copies of a vertex differ; up to 1.3e-2),
// UVs through Blender's V flip and back, colours through the sRGB bytes Blender keeps them in (one
// byte step off for 73 of 256 values). Run after merge_primitives_like_blender, which gives every
// corner its own vertex.
inline float srgb_byte_round_trip(float linear) {
  const float srgb = linear <= 0.0031308f ? 12.92f * linear : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
  const float stored = std::round(std::clamp(srgb, 0.0f, 1.0f) * 255.0f) / 255.0f;
  return stored <= 0.04045f ? stored / 12.92f : std::pow((stored + 0.055f) / 1.055f, 2.4f);
}

inline void vertex_noise_like_blender(scene::Scene& s, float normal_turn = 1e-2f) {
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) {
      for (std::size_t v = 0; v < p.vertex_count(); ++v) {
        scene::Vec3& x = p.positions[v];
        const float size = std::max({1.0f, std::fabs(x.x), std::fabs(x.y), std::fabs(x.z)}) * std::numeric_limits<float>::epsilon();
        for (float* c : {&x.x, &x.y, &x.z}) {
          std::uint32_t bits = 0;
          std::memcpy(&bits, c, 4);
          *c += static_cast<float>(static_cast<int>((bits * 2654435761u) >> 26) - 32) * size;  // by value
        }
        if (!p.normals.empty()) {
          const scene::Vec3 n = scene::normalize(p.normals[v]);
          // A direction across the normal, turned per corner: the normal moves by normal_turn.
          scene::Vec3 across = scene::normalize(scene::cross(n, std::fabs(n.x) < 0.9f ? scene::Vec3{1, 0, 0} : scene::Vec3{0, 1, 0}));
          if (v % 3 == 1) across = scene::normalize(scene::cross(n, across));
          if (v % 2 == 1) across = across * -1.0f;
          p.normals[v] = scene::normalize(n + across * normal_turn);
        }
        for (auto& set : p.uvs) {
          if (v < set.size()) set[v].y = 1.0f - (1.0f - set[v].y);
        }
        if (v < p.colors.size()) {
          scene::Vec4& c = p.colors[v];
          c = {srgb_byte_round_trip(c.x), srgb_byte_round_trip(c.y), srgb_byte_round_trip(c.z), c.w};
        }
      }
    }
  }
}

// Which turn each node gets: skin joint j gets turns[j % 4] (turns[1] is none), a node no joint none.
struct BlenderLikeTurns {
  std::vector<int> of;  // node -> index into turns, -1 for no joint

  static scene::Quat turn(int t) {
    const float quarter = 1.57079632679f;
    const scene::Quat turns[4] = {scene::axis_angle({1, 0, 0}, -quarter), scene::Quat{}, scene::axis_angle({0, 0, 1}, quarter),
                                  scene::axis_angle({0, 1, 0}, 2 * quarter)};
    return t < 0 ? scene::Quat{} : turns[t];
  }
  int index(int node) const { return node >= 0 && static_cast<std::size_t>(node) < of.size() ? of[static_cast<std::size_t>(node)] : -1; }
  static scene::Mat4 inverse_of(int t) {
    const scene::Quat q = turn(t);
    return scene::rotation_matrix(scene::Quat{-q.x, -q.y, -q.z, q.w});
  }
  scene::Mat4 matrix(int node) const { return scene::rotation_matrix(turn(index(node))); }
  scene::Mat4 inverse(int node) const { return inverse_of(index(node)); }
};

inline BlenderLikeTurns blender_like_turns(const scene::Scene& s) {
  BlenderLikeTurns t{std::vector<int>(s.nodes.size(), -1)};
  if (s.skins.empty()) return t;
  const std::vector<int>& joints = s.skins[0].joints;
  for (std::size_t j = 0; j < joints.size(); ++j) {
    if (joints[j] >= 0 && static_cast<std::size_t>(joints[j]) < s.nodes.size()) t.of[static_cast<std::size_t>(joints[j])] = static_cast<int>(j % 4);
  }
  return t;
}

// The rotation noise of Blender's bone rebuild (measured up to 5.1e-4 radians).
inline scene::Quat blender_like_nudge() { return scene::axis_angle(scene::normalize(scene::Vec3{1, 2, 3}), 4e-4f); }

// Blender turns every bone by an axis rotation (so its tip points at a child) and writes the turn into
// the joint's local transform (L' = P_parent^T * L * P) and inverse bind (P^T * IBM), with the noise
// of rebuilding bones from head, tail and roll: here 4e-4 radians and 3e-4 of each translation
// (Blender measured up to 5.1e-4), scales 1 float step off; a scale of 0 (riistudio_Mario's
// PartsControl) comes back 1, as Blender holds no bone of zero size. Skin joint j gets turns[j % 4].
inline void turn_bones_like_blender(scene::Scene& s) {
  if (s.skins.empty()) return;
  const BlenderLikeTurns turns = blender_like_turns(s);
  const scene::Quat nudge = blender_like_nudge();
  std::vector<scene::Trs> turned(s.nodes.size());
  for (std::size_t n = 0; n < s.nodes.size(); ++n) {
    if (turns.of[n] < 0) continue;
    scene::Trs rest = s.nodes[n].local;
    for (float* c : {&rest.scale.x, &rest.scale.y, &rest.scale.z}) *c = *c == 0.0f ? 1.0f : *c;  // no bone of zero size
    scene::Trs t = scene::decompose(turns.inverse(s.nodes[n].parent) * scene::trs_matrix(rest) * turns.matrix(static_cast<int>(n)));
    t.rotation = scene::normalize(nudge * t.rotation);
    t.translation = t.translation + t.translation * 3e-4f + scene::Vec3{1e-6f, -1e-6f, 1e-6f};
    t.scale = t.scale * 0.99999994f;
    turned[n] = t;
  }
  for (std::size_t n = 0; n < s.nodes.size(); ++n) {
    if (turns.of[n] >= 0) s.nodes[n].local = turned[n];
  }
  scene::Skin& skin = s.skins[0];
  for (std::size_t j = 0; j < skin.joints.size() && j < skin.inverse_bind_matrices.size(); ++j) {
    skin.inverse_bind_matrices[j] = BlenderLikeTurns::inverse_of(static_cast<int>(j % 4)) * skin.inverse_bind_matrices[j];
  }
}

// Blender's export of an action (after turn_bones_like_blender's turns, the same per joint): every
// channel sampled at every frame of 30 fps from its first key to its last (LINEAR; Blender's scene set to
// the animation's rate), each key turned as its joint path by path as Blender's importer turns them
// (L' = P_parent^T * L * P: translation P_parent^T * t, rotation P_parent^T * R * P, the scale's axes
// permuted by P with their signs) with the noise Blender's bone rebuild leaves on a pose: 4e-4 radians,
// 3e-4 of each translation, a scale 1 float step off.
inline void sample_and_turn_animations_like_blender(scene::Scene& s) {
  if (s.skins.empty()) return;
  const BlenderLikeTurns turns = blender_like_turns(s);
  const scene::Quat nudge = blender_like_nudge();
  for (scene::Animation& a : s.animations) {
    for (scene::Channel& c : a.channels) {
      if (c.node < 0 || static_cast<std::size_t>(c.node) >= s.nodes.size() || c.times.empty()) continue;
      const std::size_t comps = c.path == scene::Path::rotation ? 4 : 3;
      const scene::Mat4 p = turns.matrix(c.node), pp_inverse = turns.inverse(s.nodes[static_cast<std::size_t>(c.node)].parent);
      scene::Channel out;
      out.node = c.node;
      out.path = c.path;
      const auto first = static_cast<long>(std::lround(c.times.front() * 30)), last = static_cast<long>(std::lround(c.times.back() * 30));
      for (long f = first; f <= last; ++f) {
        const auto v = scene::sample_channel(c, comps, static_cast<float>(f) / 30.0f);
        out.times.push_back(static_cast<float>(f) / 30.0f);
        if (c.path == scene::Path::translation) {
          const scene::Vec3 t = scene::transform_point(pp_inverse, {v[0], v[1], v[2]});
          const scene::Vec3 x = t + t * 3e-4f;
          out.values.insert(out.values.end(), {x.x, x.y, x.z});
        } else if (c.path == scene::Path::rotation) {
          const scene::Quat r = scene::rotation_of(pp_inverse * scene::rotation_matrix({v[0], v[1], v[2], v[3]}) * p);
          const scene::Quat q = scene::normalize(nudge * r);
          out.values.insert(out.values.end(), {q.x, q.y, q.z, q.w});
        } else {
          scene::Mat4 scale;
          scale.at(0, 0) = v[0];
          scale.at(1, 1) = v[1];
          scale.at(2, 2) = v[2];
          const scene::Mat4 moved = turns.inverse(c.node) * scale * p;  // the axes permuted, each sign kept
          const scene::Vec3 x = scene::Vec3{moved.at(0, 0), moved.at(1, 1), moved.at(2, 2)} * 0.99999994f;
          out.values.insert(out.values.end(), {x.x, x.y, x.z});
        }
      }
      c = std::move(out);
    }
  }
}

}  // namespace remodel::test
