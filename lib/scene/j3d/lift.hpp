// The parts of the J3D lift (lift_j3d in lift.hpp) that live in their own files.
#pragma once

#include <optional>
#include <vector>

#include "model/error.hpp"
#include "model/j3d/j3d.hpp"
#include "scene/lift.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

// TEX1 textures (one per TEX1 entry, same order) and MAT3 materials (one per J3D material, same
// order) appended to `scene`; primitives keep their J3D material index.
[[nodiscard]] Result<void> lift_j3d_materials(const J3dFile& file, Scene& scene);

// The BCKs of `inputs` appended to `scene` as animations on the JNT1 joints (joint_nodes[j] is joint
// j's node); a BCK whose joint count is not the model's is an error naming both (lift_bck.cpp).
[[nodiscard]] Result<void> lift_j3d_animations(const LiftInputs& inputs, const std::vector<int>& joint_nodes, Scene& scene);

}  // namespace remodel::scene
