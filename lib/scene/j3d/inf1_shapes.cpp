// INF1 shape nodes placed beside another shape's, or removed with later shapes renumbered.
#include "scene/j3d/inf1_shapes.hpp"

namespace remodel::scene {

bool j3d_insert_shape_beside(std::vector<J3dNode>& nodes, std::uint16_t like, bool beside_shape, const J3dNode& node) {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].type == 0x12 && nodes[i].index == like && beside_shape) {
      nodes.insert(nodes.begin() + static_cast<std::ptrdiff_t>(i) + 1, node);
      return true;
    }
    if (!beside_shape && nodes[i].type == 0x11) {
      for (const J3dNode& c : nodes[i].children) {
        if (c.type == 0x12 && c.index == like) {
          nodes.insert(nodes.begin() + static_cast<std::ptrdiff_t>(i) + 1, node);
          return true;
        }
      }
    }
    if (j3d_insert_shape_beside(nodes[i].children, like, beside_shape, node)) return true;
  }
  return false;
}

void j3d_remove_shape_node(std::vector<J3dNode>& nodes, std::uint16_t s) {
  for (std::size_t i = 0; i < nodes.size();) {
    j3d_remove_shape_node(nodes[i].children, s);
    if (nodes[i].type == 0x12 && nodes[i].index == s) {
      std::vector<J3dNode> children = std::move(nodes[i].children);
      nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(i));
      nodes.insert(nodes.begin() + static_cast<std::ptrdiff_t>(i), children.begin(), children.end());
      i += children.size();
      continue;
    }
    if (nodes[i].type == 0x12 && nodes[i].index > s) --nodes[i].index;
    ++i;
  }
}

}  // namespace remodel::scene
