// A glTF skin's joints as a PSP skeleton stores them (KH BBS BON, MHFU skeleton): each joint's
// parent is its nearest ancestor that is a joint, and joints come parents first (the games build
// world matrices in joint order). One home for both formats' authoring.
#pragma once

#include <cstddef>
#include <vector>

#include "model/error.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

struct SkinJoints {
  std::vector<int> parent;         // per skin joint: its nearest ancestor joint (skin index), -1 = a root
  std::vector<std::size_t> order;  // skin joints, parents first (skin order among those ready together)
  std::vector<int> index_of;       // per skin joint: its place in `order`
};

// Errors name the skin or node: no joints, an inverse bind count that is not the joint count, a joint
// that is not a node, a node in the skin twice, a broken or cyclic hierarchy.
Result<SkinJoints> skin_joints_parents_first(const Scene& scene, int skin_index);

}  // namespace remodel::scene
