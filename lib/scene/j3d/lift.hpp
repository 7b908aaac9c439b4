// The parts of the J3D lift (lift_j3d in lift.hpp) that live in their own files.
#pragma once

#include <optional>

#include "model/error.hpp"
#include "model/j3d/j3d.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

// TEX1 textures (one per TEX1 entry, same order) and MAT3 materials (one per J3D material, same
// order) appended to `scene`; primitives keep their J3D material index.
[[nodiscard]] Result<void> lift_j3d_materials(const J3dFile& file, Scene& scene);

}  // namespace remodel::scene
