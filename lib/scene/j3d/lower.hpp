// The parts of the J3D lower (lower_j3d in lower.hpp) that live in their own files.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/j3d/anim.hpp"
#include "model/j3d/j3d.hpp"
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
Result<void> lower_j3d_geometry(const J3dFile& base, const Scene& base_scene, const std::vector<J3dShapeInput>& shapes,
                                        const std::vector<J3dNewShape>& added, J3dFile& out,
                                        std::vector<Warning>& warnings, bool& geometry_changed);

// Authoring (author.cpp): every shape of `out` (descriptors and matrix type set, no packets; VTX1
// arrays empty in their formats; JNT1 and INF1 in place, DRW1/EVP1 empty) drawn from `shapes`: the
// lower's own vertex encoding (elements de-duplicated), DRW1/EVP1 entries from the weights and packets
// of at most 10 matrix slots stripped by meshoptimizer.
Result<void> author_j3d_geometry(const std::vector<J3dShapeInput>& shapes, J3dFile& out, std::vector<Warning>& warnings);

// What both the lower and authoring check of an incoming primitive (array sizes, indices, topology,
// finite values, a joint or envelope for every vertex), naming `where`.
Result<void> j3d_check_primitive(const Primitive& p, const std::string& where);

// A rotation as JNT1 stores it: X, then Y, then Z (R = Rz * Ry * Rx), s16 with 0x8000 = 180 degrees.
std::array<std::int16_t, 3> j3d_s16_angles(const Quat& q);

// Shared by the J3D animation lowers (lower_bck.cpp): Hermite keys (tangent mode 0) fitted to one
// value per frame within the BCK's tolerances (floats: 1e-4 + 1e-5 * the largest value; angles, in
// rotation units, half a unit and stored as s16, an error naming `where` past them).
J3dFloatTrack fit_float_track(const std::vector<float>& values);
Result<J3dAngleTrack> fit_angle_track(const std::vector<float>& values, const std::string& where);

}  // namespace remodel::scene
