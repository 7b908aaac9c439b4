// The BWM lower's edits of the file's one index array (bwm_lower_run.cpp): a material reference's
// indices replaced, added or removed, the offsets after them moved and its mesh's counts following.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/bwm.hpp"

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

// The vertices added after the base's `base_count` (vertex `base_count + n` by a reference of mesh
// `records[n]`) moved to just after their mesh's vertex range, so that no mesh's range spans another's
// vertices; the indices and vertex ranges, all still the base's, follow. Returns each vertex's new
// number, for the runs not yet placed.
std::vector<std::uint32_t> bwm_place_new_vertices(Bwm& bwm, std::size_t base_count, const std::vector<std::size_t>& records);

}  // namespace remodel::scene
