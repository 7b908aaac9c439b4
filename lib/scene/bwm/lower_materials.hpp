// The BWM lower's materials (lower_materials.cpp): which base material each incoming one stands for,
// a material none stands for added as the author adds it, and base materials no longer drawn removed.
#pragma once

#include <vector>

#include "model/bwm/bwm.hpp"
#include "model/error.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

// For each base material, the incoming one standing for it (-1: none): by the diffuse texture name
// the lift keeps in extras, else by name, each only when one incoming material has it; never by order,
// so an unrelated base material is not drawn in place of a modder's.
std::vector<int> bwm_match_materials(const Scene& base, const Scene& in);

// Incoming material `m`'s diffuse texture name as a BWM stores it (bwm_diffuse_name: the image it
// shows); a name past the field's 63 bytes is an error.
Result<BwmName64> bwm_stored_diffuse(const Scene& in, int m);

// A material definition for incoming material `m`, as authoring makes one: its diffuse texture name
// the image it shows (bwm_diffuse_name), typed SKIN in a skin.
Result<BwmMaterial> bwm_new_material(const Scene& in, int m, const Bwm& out);

// Base materials some reference drew that none draws now leave the file, the references' material
// indices following; a material the base itself left undrawn stays (an unedited file is unchanged).
void bwm_remove_undrawn_materials(const Bwm& base, const Scene& base_scene, Bwm& out, std::vector<Warning>& warnings);

}  // namespace remodel::scene
