// Checks for files authored from a Scene alone (issue 16): the drawn surface of the authored file,
// lifted back, against the input Scene's, corner by corner, within the format's quantisation.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <string>
#include <vector>

#include "author_scenes.hpp"
#include "cli/cli.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene/scene.hpp"

namespace remodel::test {

// `s` as a modder's tool hands it back: every `extras` dropped (Blender drops them unless asked).
inline scene::Scene without_extras(scene::Scene s) {
  s.extras = {};
  for (auto& n : s.nodes) n.extras = {};
  for (auto& m : s.meshes) {
    m.extras = {};
    for (auto& p : m.primitives) p.extras = {};
  }
  for (auto& m : s.materials) m.extras = {};
  for (auto& t : s.textures) t.extras = {};
  for (auto& k : s.skins) k.extras = {};
  return s;
}

// One drawn corner: its position key (the format's stored integer, or the float's bits), its values.
struct Corner {
  std::array<std::int64_t, 3> key{};
  std::array<std::int64_t, 4> colour{-1, -1, -1, -1};  // stored bytes (RGB x128, A x255); -1 = none
  std::optional<scene::Vec2> uv;
  std::map<std::string, float> weights;  // by joint name, normalised
};

using Triangle3 = std::array<Corner, 3>;

// How positions are compared: s16 over `scale` (key = the stored integer), or f32 (key = the bits);
// `axis_scale`, when set, is a scale per axis (MHFU's header).
struct PositionCode {
  bool s16 = false;
  float scale = 1.0f;
  std::optional<std::array<float, 3>> axis_scale;
  PositionCode() = default;
  PositionCode(bool s16_, float scale_, std::optional<std::array<float, 3>> axis_scale_ = std::nullopt)
      : s16(s16_), scale(scale_), axis_scale(axis_scale_) {}
  std::int64_t key(float v, std::size_t axis = 0) const {
    if (!s16) return std::bit_cast<std::uint32_t>(v);
    return std::lround(v / (axis_scale ? (*axis_scale)[axis] : scale) * 32768.0f);
  }
};

// `name` cut to `bytes` at a UTF-8 character boundary (0: whole), as a format's name field holds it.
inline std::string cut_name(const std::string& name, std::size_t bytes) {
  if (bytes == 0 || name.size() <= bytes) return name;
  while (bytes > 0 && (static_cast<unsigned char>(name[bytes]) & 0xC0) == 0x80) --bytes;
  return name.substr(0, bytes);
}

// The meshes skinned by skin `used` moved from bind space to the pose the nodes show (each vertex by
// the sum of weight x joint world x inverse bind): where formats that store only the skeleton's pose
// (MHFU, BWM) put them. The tests' own copy of the rule, written apart from the library's.
inline void pose_skinned_vertices(scene::Scene& s, int used) {
  const scene::Skin& skin = s.skins[static_cast<std::size_t>(used)];
  const std::vector<scene::Mat4> world = scene::world_matrices(s);
  std::vector<scene::Mat4> to_rest(skin.joints.size());
  bool at_rest = true;
  for (std::size_t j = 0; j < skin.joints.size(); ++j) {
    const scene::Mat4& w = world[static_cast<std::size_t>(skin.joints[j])];
    to_rest[j] = w * (skin.inverse_bind_matrices.empty() ? scene::inverse(w) : skin.inverse_bind_matrices[j]);
    at_rest = at_rest && scene::max_abs_difference(to_rest[j], scene::Mat4::identity()) <= 1e-5f;
  }
  for (const scene::Node& node : s.nodes) {
    if (node.mesh < 0 || node.skin != used || at_rest) continue;
    for (scene::Primitive& p : s.meshes[static_cast<std::size_t>(node.mesh)].primitives) {
      for (std::size_t v = 0; v < p.vertex_count(); ++v) {
        scene::Mat4 sum;
        sum.m.fill(0);
        for (std::size_t k = 0; k < p.influences; ++k) {
          const float w = p.weights[v * p.influences + k];
          if (w <= 0) continue;
          for (std::size_t i = 0; i < 16; ++i) sum.m[i] += w * to_rest[p.joints[v * p.influences + k]].m[i];
        }
        p.positions[v] = scene::transform_point(sum, p.positions[v]);
      }
    }
  }
}

// Every drawn triangle of the visible mesh nodes: unskinned ones placed by their world matrix,
// skinned ones in bind space; the UV set the material uses; weights merged per joint name (cut to
// `name_bytes`, the format's joint name field).
inline std::vector<Triangle3> drawn_surface(const scene::Scene& s, const PositionCode& code, std::size_t name_bytes = 0) {
  std::vector<Triangle3> out;
  const std::vector<scene::Mat4> world = scene::world_matrices(s);
  for (std::size_t n = 0; n < s.nodes.size(); ++n) {
    const scene::Node& node = s.nodes[n];
    if (node.mesh < 0 || !node.visible) continue;
    const scene::Skin* skin = node.skin >= 0 ? &s.skins[static_cast<std::size_t>(node.skin)] : nullptr;
    for (const scene::Primitive& p : s.meshes[static_cast<std::size_t>(node.mesh)].primitives) {
      const int set = p.material >= 0 ? s.materials[static_cast<std::size_t>(p.material)].uv_set : 0;
      const std::size_t uv_set = set >= 0 && static_cast<std::size_t>(set) < p.uvs.size() ? static_cast<std::size_t>(set) : 0;
      const std::vector<std::uint32_t> tris = scene::drawn_triangles(p);
      for (std::size_t t = 0; t + 2 < tris.size(); t += 3) {
        Triangle3 tri;
        for (std::size_t c = 0; c < 3; ++c) {
          const std::uint32_t v = tris[t + c];
          Corner& k = tri[c];
          const scene::Vec3 q = skin != nullptr ? p.positions[v] : scene::transform_point(world[n], p.positions[v]);
          k.key = {code.key(q.x, 0), code.key(q.y, 1), code.key(q.z, 2)};
          if (!p.colors.empty()) {
            const scene::Vec4 col = p.colors[v];
            auto byte = [](float x, float full) { return static_cast<std::int64_t>(std::lround(std::clamp(x, 0.0f, 1.0f) * full)); };
            k.colour = {byte(col.x, 128), byte(col.y, 128), byte(col.z, 128), byte(col.w, 255)};
          }
          if (!p.uvs.empty()) k.uv = p.uvs[uv_set][v];
          float sum = 0;
          for (std::size_t i = 0; skin != nullptr && i < p.influences; ++i) sum += p.weights[v * p.influences + i];
          for (std::size_t i = 0; skin != nullptr && i < p.influences && sum > 0; ++i) {
            const float w = p.weights[v * p.influences + i];
            if (w == 0.0f) continue;
            const int joint_node = skin->joints[p.joints[v * p.influences + i]];
            k.weights[cut_name(s.nodes[static_cast<std::size_t>(joint_node)].name, name_bytes)] += w / sum;
          }
        }
        // Canonical rotation (winding kept): the smallest corner key first.
        std::size_t first = 0;
        for (std::size_t c = 1; c < 3; ++c) {
          if (std::tie(tri[c].key, tri[c].colour) < std::tie(tri[first].key, tri[first].colour)) first = c;
        }
        std::rotate(tri.begin(), tri.begin() + static_cast<std::ptrdiff_t>(first), tri.end());
        out.push_back(std::move(tri));
      }
    }
  }
  return out;
}

struct Tolerance {
  float uv = 1.0f / 32768.0f;      // half a u16 step at the largest NPOT ratio (2)
  float weight = 1.0f / 128.0f;    // one u8 step: largest remainder moves a weight by less
};

// Every triangle of `expected` is drawn by `actual` exactly once, and the reverse: same position keys
// and colour bytes, UVs and weights within `tol`. Returns the number of triangles matched.
inline std::size_t expect_same_surface(const std::vector<Triangle3>& expected, const std::vector<Triangle3>& actual,
                                       const Tolerance& tol, const std::string& what) {
  using Key = std::array<std::int64_t, 21>;
  auto key_of = [](const Triangle3& t) {
    Key k{};
    for (std::size_t c = 0; c < 3; ++c) {
      for (std::size_t i = 0; i < 3; ++i) k[c * 7 + i] = t[c].key[i];
      for (std::size_t i = 0; i < 4; ++i) k[c * 7 + 3 + i] = t[c].colour[i];
    }
    return k;
  };
  auto close = [&](const Triangle3& a, const Triangle3& b) {
    for (std::size_t c = 0; c < 3; ++c) {
      if (a[c].uv.has_value() != b[c].uv.has_value()) return false;
      if (a[c].uv && (std::abs(a[c].uv->x - b[c].uv->x) > tol.uv || std::abs(a[c].uv->y - b[c].uv->y) > tol.uv)) return false;
      std::map<std::string, float> joints = a[c].weights;
      for (const auto& [name, w] : b[c].weights) joints[name];
      for (const auto& [name, w] : joints) {
        const auto other = b[c].weights.find(name);
        const float wb = other == b[c].weights.end() ? 0.0f : other->second;
        if (std::abs(w - wb) > tol.weight + 1e-5f) return false;
      }
    }
    return true;
  };
  std::map<Key, std::vector<std::size_t>> pending;
  for (std::size_t i = 0; i < expected.size(); ++i) pending[key_of(expected[i])].push_back(i);
  std::size_t matched = 0, unmatched = 0;
  for (const Triangle3& t : actual) {
    auto it = pending.find(key_of(t));
    bool found = false;
    if (it != pending.end()) {
      auto& list = it->second;
      for (std::size_t i = 0; i < list.size() && !found; ++i) {
        if (close(expected[list[i]], t)) {
          list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
          found = true;
        }
      }
    }
    if (found) {
      ++matched;
    } else if (++unmatched <= 3) {
      ADD_FAILURE() << what << ": an authored triangle at position keys (" << t[0].key[0] << "," << t[0].key[1] << "," << t[0].key[2]
                    << ") matches no input triangle within the tolerances";
    }
  }
  EXPECT_EQ(unmatched, 0u) << what;
  EXPECT_EQ(matched, expected.size()) << what << ": input triangles not drawn by the authored file";
  return matched;
}

// `remodel import GLB ARGS -o OUT` (no --like) authors a new `format` file: exit 0, the line saying
// so, `info` naming the format and `check` reading and writing it back identically.
inline void expect_cli_authors(const std::string& glb, const std::string& args, const std::filesystem::path& out, const std::string& format) {
  const CliRun made = run_cli("import " + glb + " " + args + " -o " + quoted(out));
  EXPECT_EQ(made.status, 0) << made.out;
  EXPECT_NE(made.out.find("as a new " + format), std::string::npos) << made.out;
  const CliRun info = run_cli("info " + quoted(out));
  EXPECT_NE(info.out.find(format), std::string::npos) << info.out;
  EXPECT_EQ(run_cli("check " + quoted(out)).status, 0) << out;
}

// Authoring `s` as `format` fails with an error whose field names `field_part`, a sentence and no
// file offset (a Scene has none).
inline void expect_author_refuses(const scene::Scene& s, Format format, const std::string& field_part,
                                  const std::string& what, const scene::LowerInputs& inputs = {},
                                  const std::string& message_part = "") {
  auto made = scene::author(s, format, inputs);
  ASSERT_FALSE(made.ok()) << what;
  EXPECT_NE(made.error().field.find(field_part), std::string::npos) << what << ": " << made.error().field << ": " << made.error().message;
  EXPECT_NE(made.error().message.find(message_part), std::string::npos) << what << ": " << made.error().message;
  EXPECT_FALSE(made.error().message.empty()) << what;
  EXPECT_FALSE(made.error().offset.has_value()) << what;
}

// Every shared hostile Scene is refused by `format`'s authoring.
inline void expect_author_refuses_hostile_scenes(Format format) {
  for (const HostileScene& h : hostile_scenes()) expect_author_refuses(h.scene, format, h.field_part, h.what, {}, h.message_part);
}

}  // namespace remodel::test
