// The BWM lower's extents: a mesh's and the header's box, centre, radius, height and volume, computed
// as authoring computes them (bwm_extent) where an edit moved them.
#include <cstring>
#include <string>

#include "scene/bwm/lower_run.hpp"
#include "scene/bwm/space.hpp"

namespace remodel::scene {

namespace {

// The header's extent as the lift states it in the Scene's extras, when every field is there.
std::optional<BwmExtent> stated_extent(const Extras& e) {
  if (!e.is_object()) return std::nullopt;
  const auto number = [&](const char* key, float& out) {
    if (!e.contains(key) || !e[key].is_number()) return false;
    out = e[key].get<float>();
    return true;
  };
  const auto vec3 = [&](const char* key, BwmVec3& out) {
    if (!e.contains(key) || !e[key].is_array() || e[key].size() != 3) return false;
    for (std::size_t k = 0; k < 3; ++k) {
      if (!e[key][k].is_number()) return false;
      out[k] = e[key][k].get<float>();
    }
    return true;
  };
  BwmExtent x;
  if (!vec3("box1", x.box1) || !vec3("box2", x.box2) || !vec3("center", x.center) || !number("radius", x.radius) || !number("height", x.height) ||
      !number("volume", x.volume)) {
    return std::nullopt;
  }
  return x;
}

// Each mesh's extent over the vertices its references draw, then the model's over them all.
Result<std::vector<BwmExtent>> drawn_extents(const Bwm& bwm) {
  Result<BwmVertices> v = decode_bwm_vertices(bwm);
  if (!v) return v.error();
  std::vector<BwmExtent> out;
  std::vector<bool> in_model(v->positions.size(), false);
  std::vector<BwmVec3> model;
  for (const BwmMesh& mesh : bwm.meshes) {
    std::vector<bool> in_mesh(v->positions.size(), false);
    std::vector<BwmVec3> drawn;
    for (const BwmMaterialRef& r : mesh.material_refs) {
      Result<std::vector<Triangle>> tris = bwm_triangles(bwm, r);
      if (!tris) return tris.error();
      for (const Triangle& t : *tris) {
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) continue;  // a strip's joins draw nothing
        for (std::uint32_t i : t) {
          if (i >= in_mesh.size()) return at("indices", "index " + std::to_string(i) + " is past the " + std::to_string(in_mesh.size()) + " vertices");
          if (!in_mesh[i]) in_mesh[i] = true, drawn.push_back(v->positions[i]);
          if (!in_model[i]) in_model[i] = true, model.push_back(v->positions[i]);
        }
      }
    }
    out.push_back(bwm_extent(drawn));
  }
  out.push_back(bwm_extent(model));
  return out;
}

}  // namespace

// A mesh whose drawn vertices' extent moved (vertices moved, added or no longer drawn), and a new
// mesh (`origin`: each mesh's base record, none for a new one), stores the extent authoring
// computes, over the vertices it draws; the header likewise over every mesh's, unless the Scene
// states the header's extent (export's extras) and it is not the base's: that one is a file's own
// (the base an edit of it), so lowering a file's Scene over its edit gives the file back. An extent
// that did not move keeps its stored bytes.
Result<void> bwm_refit_extents(const Bwm& base, const Extras& scene_extras, const std::vector<std::optional<std::size_t>>& origin, Bwm& out) {
  Result<std::vector<BwmExtent>> before = drawn_extents(base), after = drawn_extents(out);
  if (!before) return before.error();
  if (!after) return after.error();
  // Bit for bit: a base's NaN, computed again, is the same NaN.
  const auto same = [](const BwmExtent& a, const BwmExtent& b) { return std::memcmp(&a, &b, sizeof a) == 0; };
  for (std::size_t m = 0; m < out.meshes.size(); ++m) {
    if (origin[m] && same((*before)[*origin[m]], (*after)[m])) continue;
    bwm_store_extent(out.meshes[m], (*after)[m]);
  }
  const BwmExtent stored{base.box1, base.box2, base.center, base.radius, base.height, base.volume};
  const std::optional<BwmExtent> stated = stated_extent(scene_extras);
  if (stated && !same(*stated, stored)) {
    bwm_store_extent(out, *stated);
  } else if (!same(before->back(), after->back())) {
    bwm_store_extent(out, after->back());
  }
  return {};
}

}  // namespace remodel::scene
