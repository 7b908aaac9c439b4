// The posed comparison of issue 30: a written file, lifted, must move under the game's animation as
// the modder's glTF moved in Blender. A pose turns the game skeleton's joints (by name, each about its
// own frame); a Scene whose joints are named like the game's follows it bone for bone whatever frames
// its joints have (Blender turns them), and its skinned vertices are compared vertex for vertex: each
// vertex of `incoming` is matched to the vertex of `written` nearest it at rest.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "scene/math.hpp"
#include "scene/scene.hpp"

namespace remodel::test {

// Per game joint name, a rotation applied after the joint's own local rotation.
using Pose = std::unordered_map<std::string, scene::Quat>;

// A pose that bends every joint of `game`'s skin 0 by `radians` about an axis that changes from joint
// to joint, so no two neighbours turn alike.
inline Pose bend_every_joint(const scene::Scene& game, float radians) {
  Pose pose;
  const scene::Vec3 axes[3] = {{1, 0, 0}, {0, 0.6f, 0.8f}, {0.8f, 0, -0.6f}};
  if (game.skins.empty()) return pose;
  for (std::size_t j = 0; j < game.skins[0].joints.size(); ++j) {
    pose.emplace(game.nodes[static_cast<std::size_t>(game.skins[0].joints[j])].name, scene::axis_angle(axes[j % 3], radians));
  }
  return pose;
}

struct SkinnedVertex {
  scene::Vec3 rest, posed;
};

// Every vertex of every visible mesh node of `s`, at rest and under `pose` of `game`'s skeleton: a node
// named like a game joint moves as that joint moves (its world times the joint's world change); any
// other node as its nearest ancestor does.
inline std::vector<SkinnedVertex> skinned_vertices(const scene::Scene& s, const scene::Scene& game, const Pose& pose) {
  using scene::Mat4;
  std::vector<scene::Scene> scenes{game, game};
  for (scene::Node& n : scenes[1].nodes) {
    if (auto it = pose.find(n.name); it != pose.end()) n.local.rotation = scene::normalize(n.local.rotation * it->second);
  }
  const std::vector<Mat4> game_rest = scene::world_matrices(scenes[0]), game_posed = scene::world_matrices(scenes[1]);
  std::unordered_map<std::string, Mat4> change;  // game joint name -> posed world x rest world^-1
  for (std::size_t n = 0; n < game.nodes.size(); ++n) change.emplace(game.nodes[n].name, game_posed[n] * scene::inverse(game_rest[n]));
  const std::vector<Mat4> rest = scene::world_matrices(s);
  std::vector<Mat4> posed(s.nodes.size());
  for (std::size_t n = 0; n < s.nodes.size(); ++n) {
    // The nearest node (itself or above) named like a game node gives the change; parents come first
    // in no guaranteed order, so each node looks up its own chain.
    int m = static_cast<int>(n);
    std::size_t steps = 0;
    Mat4 c = Mat4::identity();
    while (m >= 0 && steps++ <= s.nodes.size()) {
      if (auto it = change.find(s.nodes[static_cast<std::size_t>(m)].name); it != change.end()) {
        c = it->second;
        break;
      }
      m = s.nodes[static_cast<std::size_t>(m)].parent;
    }
    posed[n] = c * rest[n];
  }
  std::vector<SkinnedVertex> out;
  for (std::size_t n = 0; n < s.nodes.size(); ++n) {
    const scene::Node& node = s.nodes[n];
    if (node.mesh < 0 || !node.visible) continue;
    for (const scene::Primitive& p : s.meshes[static_cast<std::size_t>(node.mesh)].primitives) {
      for (std::size_t v = 0; v < p.vertex_count(); ++v) {
        SkinnedVertex sv{};
        if (node.skin < 0 || p.influences == 0) {
          sv = {scene::transform_point(rest[n], p.positions[v]), scene::transform_point(posed[n], p.positions[v])};
        } else {
          const scene::Skin& skin = s.skins[static_cast<std::size_t>(node.skin)];
          for (std::size_t k = 0; k < p.influences; ++k) {
            const float w = p.weights[v * p.influences + k];
            const std::size_t j = p.joints[v * p.influences + k];
            if (!(w > 0) || j >= skin.joints.size()) continue;
            const Mat4 ibm = j < skin.inverse_bind_matrices.size() ? skin.inverse_bind_matrices[j] : scene::inverse(rest[static_cast<std::size_t>(skin.joints[j])]);
            const scene::Vec3 bound = scene::transform_point(ibm, p.positions[v]);
            sv.rest = sv.rest + scene::transform_point(rest[static_cast<std::size_t>(skin.joints[j])], bound) * w;
            sv.posed = sv.posed + scene::transform_point(posed[static_cast<std::size_t>(skin.joints[j])], bound) * w;
          }
        }
        out.push_back(sv);
      }
    }
  }
  return out;
}

struct PosedDrift {
  float max_rest = 0;   // the farthest an incoming vertex is from its match, at rest
  float max_posed = 0;  // the farthest the pair are apart under the pose
  std::size_t vertices = 0, beyond = 0;  // incoming vertices, and those posed farther than the tolerance
};

// Each vertex of `incoming` against the vertex of `written` nearest it at rest (a grid of `cell`-sized
// buckets, searched outwards), posed by `pose` of `game`.
inline PosedDrift posed_drift(const scene::Scene& incoming, const scene::Scene& written, const scene::Scene& game, const Pose& pose, float tolerance) {
  const std::vector<SkinnedVertex> a = skinned_vertices(incoming, game, pose), b = skinned_vertices(written, game, pose);
  PosedDrift d;
  d.vertices = a.size();
  if (b.empty()) {
    d.max_rest = d.max_posed = INFINITY;
    d.beyond = a.size();
    return d;
  }
  const float cell = std::max(tolerance * 4, 1e-6f);
  const auto key = [cell](scene::Vec3 p) {
    return (static_cast<std::int64_t>(std::floor(p.x / cell)) * 73856093) ^ (static_cast<std::int64_t>(std::floor(p.y / cell)) * 19349663) ^
           (static_cast<std::int64_t>(std::floor(p.z / cell)) * 83492791);
  };
  std::unordered_multimap<std::int64_t, std::size_t> grid;
  for (std::size_t i = 0; i < b.size(); ++i) grid.emplace(key(b[i].rest), i);
  for (const SkinnedVertex& v : a) {
    float best = INFINITY;
    std::size_t found = 0;
    for (int dx = -1; dx <= 1; ++dx) {
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dz = -1; dz <= 1; ++dz) {
          auto [lo, hi] = grid.equal_range(key(v.rest + scene::Vec3{dx * cell, dy * cell, dz * cell}));
          for (auto it = lo; it != hi; ++it) {
            const float dist = scene::length(b[it->second].rest - v.rest);
            if (dist < best) best = dist, found = it->second;
          }
        }
      }
    }
    if (!std::isfinite(best)) {
      for (std::size_t i = 0; i < b.size(); ++i) {
        const float dist = scene::length(b[i].rest - v.rest);
        if (dist < best) best = dist, found = i;
      }
    }
    const float posed = scene::length(b[found].posed - v.posed);
    d.max_rest = std::max(d.max_rest, best);
    d.max_posed = std::max(d.max_posed, posed);
    if (posed > tolerance) ++d.beyond;
  }
  return d;
}

}  // namespace remodel::test
