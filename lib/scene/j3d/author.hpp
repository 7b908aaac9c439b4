// The parts of J3D authoring (author_j3d in lower.hpp) that live in their own files.
#pragma once

#include <vector>

#include "model/error.hpp"
#include "model/j3d/j3d.hpp"
#include "scene/j3d/lower.hpp"
#include "scene/lower.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

struct J3dAuthoredMaterials {
  J3dMat3 mat3;
  J3dTex1 tex1;
  std::vector<int> of_scene_material;  // Scene material -> J3D material
  int default_material = -1;           // the material of primitives with none (glTF's default)
};

// MAT3 (author_materials.cpp): one material per Scene material, Nintendo's pre-seeded pools,
// entries and pools de-duplicated; TEX1 with each used texture in a GX format chosen from its texels.
Result<J3dAuthoredMaterials> author_j3d_materials(const Scene& scene, std::vector<Warning>& warnings);

// DRW1 as Nintendo's files order it (author.cpp): rigid entries first, then the envelope run twice.
void j3d_nintendo_draw_order(J3dFile& file);

}  // namespace remodel::scene
