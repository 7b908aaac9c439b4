// The BWM lower's edits of the file's one index array (lower_run.cpp): a material reference's
// indices replaced, added or removed, the offsets after them moved and its mesh's counts following;
// a mesh removed with the vertices only it drew.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/bwm/bwm.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

// A reference's indices as the file draws them (into the file's vertices), its stored counts, and the
// lowest and highest vertex they reach.
struct BwmRun {
  std::vector<std::uint16_t> indices;
  std::uint32_t indices_size = 0, faces_size = 0;
  std::uint32_t first_vertex = 0, last_vertex = 0;
};

// Reference `ref` of mesh `record` draws `run`: in place of its old indices when no other reference or
// mesh draws from them (later offsets move by the difference), else after the file's indices.
void bwm_replace_run(Bwm& bwm, std::size_t record, std::size_t ref, const BwmRun& run);

// A new reference of material `material` drawing `run`, after mesh `record`'s others: its indices
// right after the mesh's when no other reference or mesh runs across that point, else after the file's.
void bwm_add_ref(Bwm& bwm, std::size_t record, std::uint32_t material, const BwmRun& run);

// Reference `ref` of mesh `record` gone: its indices leave the array when no other reference or mesh
// draws from them; its vertices stay (other ranges number them).
void bwm_remove_ref(Bwm& bwm, std::size_t record, std::size_t ref);

// Mesh `record` gone: its references (bwm_remove_ref), its record, and the vertices its ranges span or
// its runs reach that no range left spans and no index left names; every later vertex, index and
// vertex range moves back.
void bwm_remove_mesh(Bwm& bwm, std::size_t record);

// The vertices added after the base's `base_count` (vertex `base_count + n` by a reference of mesh
// `records[n]`) moved to just after their mesh's vertex range, so that no mesh's range spans another's
// vertices; the indices and vertex ranges, all still the base's, follow. Returns each vertex's new
// number, for the runs not yet placed.
std::vector<std::uint32_t> bwm_place_new_vertices(Bwm& bwm, std::size_t base_count, const std::vector<std::size_t>& records);

// Extents after the edits (lower_extents.cpp): each mesh of `out` whose drawn vertices' extent
// is not its base record's (`origin`: each mesh's record in `base`, none for a new mesh), and the
// header, store the extent authoring computes; the header the one `scene_extras` states instead when
// that is not the base's (see the definition).
Result<void> bwm_refit_extents(const Bwm& base, const Extras& scene_extras, const std::vector<std::optional<std::size_t>>& origin, Bwm& out);

}  // namespace remodel::scene
