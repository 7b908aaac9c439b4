// MHFU groups as the game's converter lays them out: triangles in runs on at most 8 bones, the
// running GE palette each run loads, and its block (command list, vertices, indices: strips from
// meshoptimizer, or one list where that is smaller). Shared by authoring (author.cpp) and the
// lower over a base, which adds groups where edited weights leave a group's palette.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/mhfu/pmo.hpp"
#include "model/psp/vertex.hpp"
#include "scene/lower.hpp"
#include "scene/palette_influences.hpp"
#include "scene/scene.hpp"

namespace remodel::scene::mhfu {

inline constexpr std::size_t kSlots = kPaletteSlots;  // the GE's bone matrices

// One primitive as drawn: positions and normals in model space as the PMO stores them, per-vertex bones.
struct Part {
  const Primitive* prim = nullptr;
  std::string where;
  int material = -1;  // Scene material, -1 = the glTF default
  std::vector<Vec3> positions, normals;
  std::vector<PaletteInfluences> influences;  // joints are bones
  std::vector<std::uint32_t> triangles;
  std::size_t uv_set = 0;
};

struct Group {
  std::vector<int> bones;                // palette slot -> bone
  std::vector<std::uint32_t> triangles;  // part vertex indices
};

// Triangles in runs whose vertices lean on at most 8 bones and that index at most 65536 vertices.
// Triangles are taken in the order of their sorted bone sets (draw order among equals), so triangles
// on the same bones meet in one group instead of scattering over many.
Result<std::vector<Group>> group_triangles(const Part& part);

// The running GE palette: the group's bones placed in the first slots, keeping those already loaded
// where they are (the converter's files do); `fresh` loads every slot all the same. -1: no bone.
std::vector<MhfuPaletteEntry> load_palette(std::array<int, kSlots>& current, std::vector<int>& bones, bool fresh);

struct Encoding {
  std::array<float, 3> scale{1, 1, 1};     // the PMO header's
  std::array<float, 2> uv_scale{1, 1};     // the mesh record's
  const psp::VertexFormat* like = nullptr;  // a base block's VTYPE to follow (weights aside); nullptr: the converter's
};

// One group's command list, vertices and indices: strips from meshoptimizer, or one triangle list
// where that stores fewer bytes; u8 weights (or like's) in as many slots as the group has bones.
Result<MhfuBlock> encode_block(const Part& part, const Group& group, const Encoding& enc, std::vector<Warning>& warnings);

}  // namespace remodel::scene::mhfu
