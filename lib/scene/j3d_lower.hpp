// The parts of the J3D lower (lower_j3d in lower.hpp) that live in their own files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/j3d.hpp"
#include "scene/lower.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

// What the Scene says about one SHP1 shape.
struct J3dShapeInput {
  const Primitive* incoming = nullptr;     // nullptr: the shape was removed (it draws nothing)
  std::string where;                       // the incoming primitive, e.g. "meshes[2].primitives[0]"
  std::vector<std::uint16_t> joint_map;    // the primitive's joint index -> JNT1 joint
};

// A primitive the base does not have: a new SHP1 shape drawn with J3D material `material`.
struct J3dNewShape {
  const Primitive* incoming = nullptr;
  std::string where;
  std::vector<std::uint16_t> joint_map;
  int material = -1;  // J3D material index (MAT3), -1 = the first
};

// Writes every shape's vertices, skinning and display lists into `out` (a copy of `base` whose JNT1
// and EVP1 already hold the Scene's bind pose): unchanged vertices keep their stored indices, changed
// values point at an equal stored element or one appended in the array's own format; shapes whose
// topology or draw matrices changed are rebuilt into packets of at most 10 matrix slots.
// `base_scene` is the base's own lift. Sets `geometry_changed` when any SHP1/VTX1/DRW1/EVP1 byte may move.
std::optional<Error> lower_j3d_geometry(const J3dFile& base, const Scene& base_scene, const std::vector<J3dShapeInput>& shapes,
                                        const std::vector<J3dNewShape>& added, J3dFile& out,
                                        std::vector<LowerWarning>& warnings, bool& geometry_changed);

}  // namespace remodel::scene
