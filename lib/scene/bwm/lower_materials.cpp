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

std::string text(const BwmName64& name) {
  std::string s(name.begin(), name.end());
  return s.substr(0, s.find('\0'));
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

Result<BwmMaterial> bwm_new_material(const Scene& in, int m, const Bwm& out) {
  const std::string& diffuse = bwm_diffuse_name(in, in.materials[static_cast<std::size_t>(m)]);
  bool cut = false;
  BwmMaterial mat;
  mat.diffuse = bwm_name<64>(diffuse, cut);
  if (cut) return at("materials[" + std::to_string(m) + "].name", "texture name " + diffuse + " does not fit the 63 bytes of a BWM texture name", ErrorCode::unsupported);
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
      const std::string name = m < base_scene.materials.size() ? base_scene.materials[m].name : text(out.materials[m].diffuse);
      warnings.push_back({"materials", "base material " + std::to_string(m) + " (\"" + name + "\") is drawn by no reference any more: removed"});
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
