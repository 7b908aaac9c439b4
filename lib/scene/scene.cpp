#include "scene/scene.hpp"

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
