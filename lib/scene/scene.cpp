#include "scene/scene.hpp"

#include <cmath>

namespace remodel::scene {

int Scene::add_node(Node node, int parent) {
  const int index = static_cast<int>(nodes.size());
  node.parent = parent;
  nodes.push_back(std::move(node));
  if (parent >= 0) {
    nodes[static_cast<std::size_t>(parent)].children.push_back(index);
  } else {
    if (scenes.empty()) scenes.push_back(SceneRoots{});
    scenes[0].nodes.push_back(index);
  }
  return index;
}

namespace {

template <typename T>
Result<void> all_finite(const std::vector<T>& values, const std::string& where) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!finite(values[i])) return Error{ErrorCode::bad_value, std::nullopt, where + "[" + std::to_string(i) + "]", "is non-finite (NaN or infinity)"};
  }
  return {};
}

}  // namespace

Error at(std::string field, std::string message, ErrorCode code) { return Error{code, std::nullopt, std::move(field), std::move(message)}; }

Result<void> check_primitive(const Primitive& p, const std::string& where) {
  const std::size_t n = p.vertex_count();
  const auto sized = [&](std::size_t size, const std::string& what) -> Result<void> {
    if (size == 0 || size == n) return {};
    return Error{ErrorCode::inconsistent, std::nullopt, where + "." + what, "has " + std::to_string(size) + " entries for " + std::to_string(n) + " positions"};
  };
  if (auto e = sized(p.normals.size(), "normals"); !e) return e;
  if (auto e = sized(p.colors.size(), "colors"); !e) return e;
  for (std::size_t u = 0; u < p.uvs.size(); ++u) {
    if (auto e = sized(p.uvs[u].size(), "uvs[" + std::to_string(u) + "]"); !e) return e;
  }
  if (p.joints.size() != std::size_t{p.influences} * n || p.weights.size() != std::size_t{p.influences} * n) {
    return Error{ErrorCode::inconsistent, std::nullopt, where + (p.joints.size() != std::size_t{p.influences} * n ? ".joints" : ".weights"),
                 "holds " + std::to_string(p.joints.size()) + " joints and " + std::to_string(p.weights.size()) + " weights for " + std::to_string(n) +
                     " vertices of " + std::to_string(p.influences) + " influences"};
  }
  for (std::size_t i = 0; i < p.indices.size(); ++i) {
    if (p.indices[i] >= n) {
      return Error{ErrorCode::bad_value, std::nullopt, where + ".indices[" + std::to_string(i) + "]", "names vertex " + std::to_string(p.indices[i]) + " of " + std::to_string(n)};
    }
  }
  if (auto e = all_finite(p.positions, where + ".positions"); !e) return e;
  if (auto e = all_finite(p.normals, where + ".normals"); !e) return e;
  if (auto e = all_finite(p.colors, where + ".colors"); !e) return e;
  for (std::size_t u = 0; u < p.uvs.size(); ++u) {
    if (auto e = all_finite(p.uvs[u], where + ".uvs[" + std::to_string(u) + "]"); !e) return e;
  }
  for (std::size_t i = 0; i < p.weights.size(); ++i) {
    if (!(p.weights[i] >= 0.0f) || !finite(p.weights[i])) {
      return Error{ErrorCode::bad_value, std::nullopt, where + ".weights", "weight " + std::to_string(i) + " is negative or not finite"};
    }
  }
  return {};
}

std::vector<Mat4> world_matrices(const Scene& scene) {
  std::vector<Mat4> world(scene.nodes.size());
  std::vector<std::uint8_t> state(scene.nodes.size(), 0);  // 0 todo, 1 in progress, 2 done
  // Iterative walk up to the first finished ancestor: no recursion on hostile parent chains.
  std::vector<std::size_t> chain;
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    chain.clear();
    std::size_t n = i;
    while (state[n] == 0) {
      state[n] = 1;
      chain.push_back(n);
      const int p = scene.nodes[n].parent;
      if (p < 0 || static_cast<std::size_t>(p) >= scene.nodes.size() || state[static_cast<std::size_t>(p)] == 1) break;
      n = static_cast<std::size_t>(p);
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const Node& node = scene.nodes[*it];
      const Mat4 local = trs_matrix(node.local);
      const int p = node.parent;
      const bool has_parent = p >= 0 && static_cast<std::size_t>(p) < scene.nodes.size() && state[static_cast<std::size_t>(p)] == 2;
      world[*it] = has_parent ? world[static_cast<std::size_t>(p)] * local : local;
      state[*it] = 2;
    }
  }
  return world;
}

}  // namespace remodel::scene
