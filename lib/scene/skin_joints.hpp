// What an authored file draws and the skin it draws with, and a glTF skin's joints as a PSP skeleton
// stores them (KH BBS BON, MHFU skeleton): each joint's parent is its nearest ancestor that is a
// joint, and joints come parents first (the games build world matrices in joint order). One home for
// every format's authoring (KH BBS, MHFU, BWM).
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

// What an authored file draws: every visible node with a mesh, in node order, all under one skin or
// none (every format authored so far holds one skeleton, and a skinned model skins every mesh).
struct DrawnNodes {
  std::vector<int> nodes;
  int skin = -1;
};

// Errors name the node: a mesh or skin that does not exist; two skins or a mix of skinned and unskinned
// meshes (unsupported, saying `one_skin` or `all_skinned`, the format's reason); nothing drawn
// (unsupported: "`file` needs at least one triangle", e.g. file = "a PMO").
Result<DrawnNodes> drawn_nodes(const Scene& scene, const std::string& file, const std::string& one_skin, const std::string& all_skinned);

// Errors name the skin or node: no joints, an inverse bind count that is not the joint count, a joint
// that is not a node, a node in the skin twice, a broken or cyclic hierarchy.
Result<SkinJoints> skin_joints_parents_first(const Scene& scene, int skin_index);

}  // namespace remodel::scene
