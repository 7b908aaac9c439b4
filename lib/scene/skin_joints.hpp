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

// glTF skins a vertex by the sum of weight x (joint world x inverse bind); a format that stores only
// the skeleton's pose (MHFU skeleton, BWM bones) stores its vertices already skinned to that pose.
struct RestPose {
  std::vector<Mat4> to_rest;  // per skin joint: world x inverse bind (bind pose to the nodes' pose)
  bool at_rest = true;        // every to_rest is the identity within float noise: vertices stay as given
};

// Errors name the skin's inverse bind matrix that is singular or not finite.
Result<RestPose> rest_pose(const Scene& scene, int skin_index, const std::vector<Mat4>& world);

// The matrix taking vertex v of a skinned primitive to the rest pose: its weights (renormalised when
// they do not sum to 1) blend the joints' to_rest (a joint index past the skin adds nothing; the primitive's checks
// refuse those). All zeros when the vertex weighs nothing.
Mat4 to_rest_of(const Primitive& p, std::size_t v, const RestPose& pose);

}  // namespace remodel::scene
