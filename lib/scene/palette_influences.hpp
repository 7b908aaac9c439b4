// A vertex's joints as a PSP GE bone palette draws them (KH BBS sections, MHFU groups: 8 slots),
// and the narrowing of triangles that lean on more joints than one palette holds. One home for the
// KH BBS lower/authoring and MHFU authoring; a vertex's strongest joints for every authoring (BWM too).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/error.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

inline constexpr std::size_t kPaletteSlots = 8;

struct PaletteInfluences {
  std::array<int, kPaletteSlots> joint{};
  std::array<float, kPaletteSlots> weight{};
  std::size_t count = 0;
};

// Vertex v's joint weights merged per joint, strongest first (ties: the lower joint), at most `keep`
// of them, renormalised to sum 1: (weight, skin joint) pairs; `limited` is set when some were left
// out. Errors name `where`: a weighted joint past `joint_count`, or no weight at all.
Result<std::vector<std::pair<float, int>>> strongest_joints(const Primitive& p, std::size_t v, std::size_t joint_count, std::size_t keep,
                                                            const std::string& where, bool& limited);

// A triangle whose corners lean on more than 8 joints together cannot be drawn by one palette: the
// joint weighing least on it (its largest weight over the three corners) leaves those corners,
// renormalised, until 8 remain or no corner can give one up. Returns the triangles narrowed.
std::size_t narrow_triangles(std::vector<PaletteInfluences>& influences, const std::vector<std::uint32_t>& triangles);

}  // namespace remodel::scene
