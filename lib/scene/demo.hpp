// A Scene built in code: a skinned, textured, animated grid for the glTF tests, the export benchmark
// and the quickstart, so they run with no game file.
#pragma once

#include <cstdint>

#include "scene/scene.hpp"

namespace remodel::scene {

// A `columns` x `rows` vertex grid in the XY plane (1 unit square, facing +Z) bound to two joints
// (a root joint and one above it, blended by height, four influences a vertex with two unused), an
// 8x8 checker texture, vertex colours, and a one-second animation bending the upper joint.
Scene demo_grid(std::uint32_t columns, std::uint32_t rows);

}  // namespace remodel::scene
