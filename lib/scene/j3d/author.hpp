// The parts of J3D authoring (author_j3d in lower.hpp) that live in their own files.
#pragma once

#include <array>
#include <string>
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

// Adds Scene material `in` to `mat3` under `name` (its GX state as authoring gives it, pooled with
// what the tables hold), its texture to `tex1` once (`tex1_of`: Scene texture -> TEX1 index, -1 none
// yet); the new J3D material's index. `where` names it in errors.
Result<std::uint16_t> add_j3d_material(const Scene& scene, const Material& in, const std::string& name, const std::string& where, J3dMat3& mat3, J3dTex1& tex1,
                                       std::vector<int>& tex1_of, std::vector<Warning>& warnings);

// MAT3's record count per table, and its layout after tables grew from `before`: a grown table's gap
// and the last one's are canonical again, a table that was empty joins `order` in header order.
std::array<std::size_t, kJ3dMatTables> j3d_mat3_table_sizes(const J3dMat3& m);
void j3d_mat3_follow_growth(J3dMat3& m, const std::array<std::size_t, kJ3dMatTables>& before);

// DRW1 as Nintendo's files order it (author.cpp): rigid entries first, then the envelope run twice.
void j3d_nintendo_draw_order(J3dFile& file);

}  // namespace remodel::scene
