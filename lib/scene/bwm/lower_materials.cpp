#include "scene/bwm/lower_materials.hpp"

#include <map>
#include <string>

#include "scene/bwm/space.hpp"

namespace remodel::scene {

namespace {

std::string diffuse_extra(const Material& m) {
  if (!m.extras.is_object() || !m.extras.contains("diffuse") || !m.extras["diffuse"].is_string()) return {};
  return m.extras["diffuse"].get<std::string>();
}

}  // namespace

std::vector<int> bwm_match_materials(const Scene& base, const Scene& in) {
  std::vector<int> out(base.materials.size(), -1);
  std::vector<bool> taken(in.materials.size(), false);
  for (const auto key : {diffuse_extra, +[](const Material& m) { return m.name; }}) {
    std::map<std::string, int> at;  // -1: more than one incoming material has the key
    for (std::size_t i = 0; i < in.materials.size(); ++i) {
      if (taken[i]) continue;
      const std::string k = key(in.materials[i]);
      if (!k.empty() && !at.emplace(k, static_cast<int>(i)).second) at[k] = -1;
    }
    for (std::size_t b = 0; b < base.materials.size(); ++b) {
      if (out[b] >= 0) continue;
      const auto it = at.find(key(base.materials[b]));
      if (it == at.end() || it->second < 0 || taken[static_cast<std::size_t>(it->second)]) continue;
      out[b] = it->second;
      taken[static_cast<std::size_t>(it->second)] = true;
    }
  }
  return out;
}

Result<BwmName64> bwm_stored_diffuse(const Scene& in, int m) {
  const std::string& diffuse = bwm_diffuse_name(in, in.materials[static_cast<std::size_t>(m)]);
  bool cut = false;
  const BwmName64 stored = bwm_name<64>(diffuse, cut);
  if (cut) return at("materials[" + std::to_string(m) + "].name", "texture name " + diffuse + " does not fit the 63 bytes of a BWM texture name", ErrorCode::unsupported);
  return stored;
}

Result<BwmMaterial> bwm_new_material(const Scene& in, int m, const Bwm& out) {
  Result<BwmName64> diffuse = bwm_stored_diffuse(in, m);
  if (!diffuse) return diffuse.error();
  BwmMaterial mat;
  mat.diffuse = *diffuse;
  bool cut = false;
  if (out.type == 3) mat.type = bwm_name<64>("SKIN", cut);  // the type skins store (tests/bwm_golden.hpp)
  return mat;
}

void bwm_remove_undrawn_materials(const Bwm& base, const Scene& base_scene, Bwm& out, std::vector<Warning>& warnings) {
  const auto drawn = [](const Bwm& b) {
    std::vector<bool> d(b.materials.size(), false);
    for (const BwmMesh& mesh : b.meshes) {
      for (const BwmMaterialRef& r : mesh.material_refs) {
        if (r.material < d.size()) d[r.material] = true;
      }
    }
    return d;
  };
  const std::vector<bool> was = drawn(base), is = drawn(out);
  std::vector<std::uint32_t> to(out.materials.size());
  std::vector<BwmMaterial> kept;
  for (std::size_t m = 0; m < out.materials.size(); ++m) {
    to[m] = static_cast<std::uint32_t>(kept.size());
    if (m < was.size() && was[m] && !is[m]) {
      // A base material m (m < was.size()) is the base Scene's material m: the lift keeps their order.
      warnings.push_back({"materials", "base material " + std::to_string(m) + " (\"" + base_scene.materials[m].name + "\") is drawn by no reference any more: removed"});
      continue;
    }
    kept.push_back(out.materials[m]);
  }
  if (kept.size() == out.materials.size()) return;
  out.materials = std::move(kept);
  for (BwmMesh& mesh : out.meshes) {
    for (BwmMaterialRef& r : mesh.material_refs) {
      if (r.material < to.size()) r.material = to[r.material];
    }
  }
}

}  // namespace remodel::scene
