// Shape nodes in J3D's INF1 hierarchy, placed and removed as the lower adds and removes SHP1 shapes.
#pragma once

#include <cstdint>
#include <vector>

#include "model/j3d/j3d.hpp"

namespace remodel::scene {

// Puts `node` after shape `like`'s node (beside it) or after its material node (`beside_shape`
// false); false when no node draws `like`.
bool j3d_insert_shape_beside(std::vector<J3dNode>& nodes, std::uint16_t like, bool beside_shape, const J3dNode& node);

// INF1 without shape `s`'s nodes (their children take their place: INF1 nests what follows a shape
// under it), later shapes renumbered one down.
void j3d_remove_shape_node(std::vector<J3dNode>& nodes, std::uint16_t s);

}  // namespace remodel::scene
