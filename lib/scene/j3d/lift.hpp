// The parts of the J3D lift (lift_j3d in lift.hpp) that live in their own files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/j3d/anim.hpp"
#include "model/j3d/j3d.hpp"
#include "scene/lift.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

// TEX1 textures (one per TEX1 entry, same order) and MAT3 materials (one per J3D material, same
// order) appended to `scene`; primitives keep their J3D material index.
[[nodiscard]] Result<void> lift_j3d_materials(const J3dFile& file, Scene& scene);

// The BCKs and BCAs of `inputs` appended to `scene` as animations on the JNT1 joints (joint_nodes[j] is
// joint j's node); one whose joint count is not the model's is an error naming both (lift_bck.cpp).
[[nodiscard]] Result<void> lift_j3d_animations(const LiftInputs& inputs, const std::vector<int>& joint_nodes, Scene& scene);

// A J3D animation of the model's materials or shapes (BTK, BRK, BPK, BTP, BVA) appended to `scene` as
// one animation named `name`, by the materials' names, or with no glTF channel to the Scene's extras
// (lift_material_anims.cpp); false when `file` is of another kind.
[[nodiscard]] Result<bool> lift_j3d_material_animation(const J3dAnimFile& file, const std::string& name, Scene& scene);

// A BCA as one animation on the joints' nodes, each stored frame a key (lift_bca.cpp).
Animation lift_j3d_bca(const J3dAnf1& a, const std::string& name, const std::vector<int>& joint_nodes);

}  // namespace remodel::scene
