// Which triangles of a rebuilt J3D shape go into which SHP1 packet, as Nintendo's converter packs
// them: triangles grouped by the draw matrices they use so each packet fills its matrix slots.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace remodel::scene {

struct J3dPacketPlan {
  std::vector<std::uint32_t> matrices;   // DRW1 entries, slot by slot
  std::vector<std::uint32_t> triangles;  // indices into the shape's triangles, in their order
};

// Packets of at most `slots` matrices over triangles whose corners draw with `corner_matrices`
// (DRW1 entries). A packet starts from the first triangle left, then takes the triangles its matrices
// already cover, then those needing the fewest new matrices (sharing one first), then any that fit.
std::vector<J3dPacketPlan> j3d_plan_packets(const std::vector<std::array<std::uint32_t, 3>>& corner_matrices, std::size_t slots);

}  // namespace remodel::scene
