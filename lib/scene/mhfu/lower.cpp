// Scene -> MHFU PAC / PMO over a base: the inverse of lift.cpp. Vertices are re-encoded in their block's
// stored VTYPE only where the incoming value quantises differently from the base's; the skeleton's
// Euler angles, the materials' colours and the TMH images likewise.
#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "model/textures.hpp"
#include "scene/bone_turns.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene/mhfu/lower.hpp"
#include "scene/mhfu/records.hpp"

namespace remodel::scene {

namespace {

// ---- matching ----

// For each base item, the incoming one standing for it: by name when every base name is found once,
// else by order when the counts agree. nullopt: neither.
std::optional<std::vector<int>> match_names(const std::vector<std::string>& base, const std::vector<std::string>& incoming,
                                            bool& by_order) {
  std::map<std::string, int> at;
  for (std::size_t i = 0; i < incoming.size(); ++i) {
    if (!at.emplace(incoming[i], static_cast<int>(i)).second) at[incoming[i]] = -1;
  }
  std::vector<int> out;
  for (const std::string& name : base) {
    auto it = at.find(name);
    if (it == at.end() || it->second < 0) break;
    out.push_back(it->second);
  }
  by_order = false;
  if (out.size() == base.size()) return out;
  if (base.size() != incoming.size()) return std::nullopt;
  by_order = true;
  out.clear();
  for (std::size_t i = 0; i < base.size(); ++i) out.push_back(static_cast<int>(i));
  return out;
}

// The base bone each incoming skin joint stands for: the node's "index" extra, else its name, else
// its place in the skin.
Result<std::vector<int>> joint_bones(const Scene& in, const Scene& base, const Skin*& iskin, std::vector<Warning>& warnings) {
  std::vector<int> out;
  iskin = nullptr;
  if (base.skins.empty()) return out;
  const Skin& bskin = base.skins[0];
  for (const Node& n : in.nodes) {
    if (n.mesh >= 0 && n.skin >= 0 && static_cast<std::size_t>(n.skin) < in.skins.size()) iskin = &in.skins[static_cast<std::size_t>(n.skin)];
  }
  if (!iskin && !in.skins.empty()) iskin = &in.skins[0];
  if (!iskin) return out;
  std::vector<std::string> bnames, inames;
  for (int j : bskin.joints) bnames.push_back(base.nodes[static_cast<std::size_t>(j)].name);
  for (int j : iskin->joints) {
    if (j < 0 || static_cast<std::size_t>(j) >= in.nodes.size()) return at("skins.joints", "a joint is not a node");
    inames.push_back(in.nodes[static_cast<std::size_t>(j)].name);
  }
  // The bone record's own index field, as the lift wrote it, when every joint has one the base has once.
  std::map<std::int64_t, int> by_index;
  for (std::size_t b = 0; b < bskin.joints.size(); ++b) {
    const Extras& e = base.nodes[static_cast<std::size_t>(bskin.joints[b])].extras;
    const auto i = e.value("index", std::int64_t{-1});
    if (!by_index.emplace(i, static_cast<int>(b)).second) by_index[i] = -1;
  }
  out.assign(iskin->joints.size(), -1);
  std::vector<bool> taken(bskin.joints.size(), false);
  std::size_t by_extras = 0;
  for (std::size_t k = 0; k < iskin->joints.size(); ++k) {
    const Extras& e = in.nodes[static_cast<std::size_t>(iskin->joints[k])].extras;
    if (!e.is_object() || !e.contains("index") || !e["index"].is_number_integer()) continue;
    auto it = by_index.find(e["index"].get<std::int64_t>());
    if (it == by_index.end() || it->second < 0 || taken[static_cast<std::size_t>(it->second)]) continue;
    out[k] = it->second;
    taken[static_cast<std::size_t>(it->second)] = true;
    ++by_extras;
  }
  if (by_extras == out.size() && by_extras == bskin.joints.size()) return out;
  bool by_order = false;
  std::optional<std::vector<int>> m = match_names(inames, bnames, by_order);
  if (!m) {
    return at("skins[0].joints", "the skin's " + std::to_string(inames.size()) + " joints match neither the names nor the count of the base skeleton's " +
                                              std::to_string(bnames.size()) + " bones (adding or removing bones is not supported)", ErrorCode::unsupported);
  }
  if (by_order) warnings.push_back({"skins[0]", "joint names do not match the base skeleton: matched by order"});
  return *m;
}

// ---- the lower ----

struct PmoPart {
  MhfuPmo* pmo = nullptr;
  std::size_t first_mesh = 0;      // its first mesh in the base Scene
  std::size_t first_material = 0;  // its first material in the base Scene
  std::size_t materials = 0;       // its materials in the base (the lower may add more)
};

// Appends PMO material `material` to mesh m's run of the remap table; the runs after it move up one.
// Its place in the run.
Result<std::uint8_t> add_to_run(MhfuPmo& pmo, std::size_t m, std::uint8_t material, const std::string& where) {
  MhfuMesh& mesh = pmo.meshes[m];
  const std::size_t end = std::size_t{mesh.material_start} + mesh.material_count;
  if (mesh.material_count >= mhfu::kMaxMaterials || pmo.remap.size() >= 0xFFFF || end > pmo.remap.size()) {
    return at(where + ".material", "mesh " + std::to_string(m) + "'s run of the remap table is full or past the table: a material cannot be added to it",
              ErrorCode::unsupported);
  }
  for (std::size_t k = 0; k < pmo.meshes.size(); ++k) {
    const MhfuMesh& o = pmo.meshes[k];
    if (k != m && o.material_start < end && end < std::size_t{o.material_start} + o.material_count) {
      return at(where + ".material", "mesh " + std::to_string(k) + "'s run of the remap table overlaps the end of mesh " + std::to_string(m) +
                                         "'s: a material cannot be added to it", ErrorCode::unsupported);
    }
  }
  for (std::size_t k = 0; k < pmo.meshes.size(); ++k) {
    if (k != m && pmo.meshes[k].material_start >= end && pmo.meshes[k].material_count > 0) ++pmo.meshes[k].material_start;
  }
  pmo.remap.insert(pmo.remap.begin() + static_cast<std::ptrdiff_t>(end), material);
  return static_cast<std::uint8_t>(mesh.material_count++);
}

// The PMO materials `gone` marks (no group draws them) leave the material table with their remap
// entries; the runs, the groups' offsets into them and the remap's material numbers follow. False (the
// materials kept unused) when two meshes' runs share remap entries, so one run cannot shrink alone.
bool remove_materials(MhfuPmo& pmo, const std::vector<bool>& gone) {
  const auto removed = [&](std::uint8_t k) { return k < gone.size() && gone[k]; };
  std::vector<int> run_of(pmo.remap.size(), -1);
  for (std::size_t m = 0; m < pmo.meshes.size(); ++m) {
    const MhfuMesh& mesh = pmo.meshes[m];
    for (std::size_t e = mesh.material_start; e < std::size_t{mesh.material_start} + mesh.material_count; ++e) {
      if (e >= run_of.size() || run_of[e] >= 0) return false;
      run_of[e] = static_cast<int>(m);
    }
  }
  std::vector<std::size_t> dropped_before(pmo.remap.size() + 1, 0);
  for (std::size_t e = 0; e < pmo.remap.size(); ++e) dropped_before[e + 1] = dropped_before[e] + (run_of[e] >= 0 && removed(pmo.remap[e]) ? 1 : 0);
  for (MhfuMesh& mesh : pmo.meshes) {
    const std::size_t start = mesh.material_start;
    for (std::size_t g = mesh.group_start; g < std::size_t{mesh.group_start} + mesh.group_count && g < pmo.groups.size(); ++g) {
      MhfuGroup& group = pmo.groups[g];
      const std::size_t e = start + group.material_offset;
      if (e < pmo.remap.size()) group.material_offset = static_cast<std::uint8_t>(group.material_offset - (dropped_before[e] - dropped_before[start]));
    }
    mesh.material_count = static_cast<std::uint8_t>(mesh.material_count - (dropped_before[start + mesh.material_count] - dropped_before[start]));
    mesh.material_start = static_cast<std::uint16_t>(start - dropped_before[start]);
  }
  std::vector<std::uint8_t> number(pmo.materials.size(), 0);
  std::vector<MhfuMaterial> materials;
  for (std::size_t k = 0; k < pmo.materials.size(); ++k) {
    number[k] = static_cast<std::uint8_t>(materials.size());
    if (!removed(static_cast<std::uint8_t>(k))) materials.push_back(pmo.materials[k]);
  }
  Bytes remap;
  for (std::size_t e = 0; e < pmo.remap.size(); ++e) {
    if (run_of[e] >= 0 && removed(pmo.remap[e])) continue;
    remap.push_back(pmo.remap[e] < number.size() ? number[pmo.remap[e]] : pmo.remap[e]);
  }
  pmo.remap = std::move(remap);
  pmo.materials = std::move(materials);
  return true;
}

class Lowerer {
 public:
  // tmh: the PAC's TMH bank the materials name images of (new ones are added to it); nullptr for a bare PMO.
  Lowerer(const Scene& in, const Scene& base, Tmh* tmh, std::vector<Warning>& warnings)
      : in_(in), base_(base), tmh_(tmh), warnings_(warnings) {}

  Result<void> run(std::vector<PmoPart> parts, MhfuSkeleton* skeleton) {
    Result<std::vector<int>> bones = joint_bones(in_, base_, iskin_, warnings_);
    if (!bones) return bones.error();
    bones_ = std::move(*bones);
    if (skeleton) {
      if (auto e = lower_skeleton(*skeleton); !e) return e.error();
    }
    if (auto e = match_meshes(); !e) return e.error();
    if (auto e = match_materials(); !e) return e.error();
    for (const PmoPart& part : parts) {
      if (auto e = lower_pmo(part, &part == &parts.front()); !e) return e.error();
    }
    if (auto e = lower_materials(parts); !e) return e.error();
    for (const PmoPart& part : parts) drop_undrawn_materials(part);
    return {};
  }

  // Base texture index -> incoming image, for the caller to encode into its TMH.
  std::vector<std::pair<int, const RgbaImage*>> replaced_textures;

 private:
  Result<void> lower_skeleton(MhfuSkeleton& skeleton) {
    if (!iskin_ || base_.skins.empty()) return {};
    const Skin& bskin = base_.skins[0];
    const Skin* iskin = iskin_;
    std::vector<int> in_nodes, base_nodes;
    for (std::size_t k = 0; k < bones_.size(); ++k) {
      in_nodes.push_back(iskin->joints[k]);
      base_nodes.push_back(bskin.joints[static_cast<std::size_t>(bones_[k])]);
    }
    // Blender's bone turns taken off and its noise ignored (bone_turns.hpp): what moved is an edit,
    // written as f32 (XYZ angles for the rotation); the rest keeps its stored bytes.
    const std::vector<IncomingJoint> joints = incoming_joints(in_, in_nodes, base_, base_nodes);
    for (std::size_t k = 0; k < bones_.size(); ++k) {
      const auto b = static_cast<std::size_t>(bones_[k]);
      const Node& n = in_.nodes[static_cast<std::size_t>(iskin->joints[k])];
      MhfuBone& bone = skeleton.bones[b];
      const std::string where = "nodes[" + std::to_string(iskin->joints[k]) + "]";
      const Trs& t = joints[k].local;
      for (float f : {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w,
                      t.scale.x, t.scale.y, t.scale.z}) {
        if (!finite(f)) return at(where, "joint " + n.name + " has a non-finite translation, rotation or scale");
      }
      if (joints[k].translation_moved) bone.position = {t.translation.x, t.translation.y, t.translation.z, bone.position[3]};
      if (joints[k].scale_moved) bone.scale = {t.scale.x, t.scale.y, t.scale.z, bone.scale[3]};
      if (joints[k].rotation_moved) {
        const Vec3 e = euler_xyz_of(t.rotation);
        bone.rotation = {e.x, e.y, e.z, bone.rotation[3]};
      }
    }
    return {};
  }

  // The incoming mesh standing for each base mesh (meshes_, -1: removed) and the incoming meshes
  // standing for none (added_meshes_), among the meshes a node draws: by name when every base name is
  // found once, else by order when the counts agree; else by the names found (a base mesh whose name is
  // not found is removed), else by order for the base's meshes (the incoming ones past them are added).
  Result<void> match_meshes() {
    std::vector<int> drawn;
    std::vector<bool> seen(in_.meshes.size(), false);
    for (const Node& n : in_.nodes) {
      if (n.mesh < 0 || static_cast<std::size_t>(n.mesh) >= in_.meshes.size() || seen[static_cast<std::size_t>(n.mesh)]) continue;
      seen[static_cast<std::size_t>(n.mesh)] = true;
      drawn.push_back(n.mesh);
    }
    std::sort(drawn.begin(), drawn.end());
    std::vector<std::string> bnames, inames;
    for (const Mesh& m : base_.meshes) bnames.push_back(m.name);
    for (int i : drawn) inames.push_back(in_.meshes[static_cast<std::size_t>(i)].name);
    bool by_order = false;
    std::optional<std::vector<int>> match = match_names(bnames, inames, by_order);
    if (by_order) warnings_.push_back({"meshes", "mesh names do not match the base's: matched by order"});
    if (!match) {
      std::map<std::string, int> named;
      for (std::size_t k = 0; k < inames.size(); ++k) {
        if (!named.emplace(inames[k], static_cast<int>(k)).second) named[inames[k]] = -1;
      }
      match.emplace(bnames.size(), -1);
      std::size_t found = 0;
      for (std::size_t b = 0; b < bnames.size(); ++b) {
        const auto it = named.find(bnames[b]);
        if (it != named.end() && it->second >= 0) (*match)[b] = it->second, ++found;
      }
      if (found == 0 && !inames.empty() && inames.size() < bnames.size()) {
        return at("meshes", "the Scene's " + std::to_string(inames.size()) + " drawn meshes are fewer than the base's " + std::to_string(bnames.size()) +
                                " PMO meshes and none has a base mesh's name: which mesh was removed cannot be told", ErrorCode::unsupported);
      }
      if (found == 0 && !inames.empty()) {
        for (std::size_t b = 0; b < bnames.size(); ++b) (*match)[b] = static_cast<int>(b);
        warnings_.push_back({"meshes", "mesh names do not match the base's: the first " + std::to_string(bnames.size()) +
                                           " drawn meshes stand for the base's in order, the others are new"});
      }
    }
    meshes_.assign(bnames.size(), -1);
    added_meshes_.clear();
    std::vector<bool> taken(drawn.size(), false);
    for (std::size_t b = 0; b < bnames.size(); ++b) {
      const int k = (*match)[b];
      if (k < 0) {
        warnings_.push_back({"meshes", "no node draws a mesh named " + bnames[b] + ": the base's mesh is removed with its groups"});
        continue;
      }
      meshes_[b] = drawn[static_cast<std::size_t>(k)];
      taken[static_cast<std::size_t>(k)] = true;
    }
    for (std::size_t k = 0; k < drawn.size(); ++k) {
      if (!taken[k]) added_meshes_.push_back(static_cast<std::size_t>(drawn[k]));
    }
    return {};
  }

  // The incoming primitive for each base group of a mesh (and its index in the incoming mesh), and the
  // incoming primitives no base group stands for. By the "group" extra: a group no primitive names is
  // removed, a primitive naming none is added. Else, when every primitive draws a base material, by
  // order (the primitives past the base's groups are added) or split back by material (merged_groups);
  // else each base group takes the next primitive drawing its material (by name).
  struct MeshMatch {
    std::vector<std::pair<const Primitive*, std::size_t>> groups;  // nullptr: the group is removed
    std::vector<std::size_t> added;
  };
  Result<MeshMatch> match_primitives(std::size_t bm) {
    const Mesh& bmesh = base_.meshes[bm];
    const Mesh& imesh = in_.meshes[static_cast<std::size_t>(meshes_[bm])];
    const std::string where = "meshes[" + std::to_string(meshes_[bm]) + "]";
    MeshMatch out;
    out.groups.assign(bmesh.primitives.size(), {nullptr, 0});
    std::size_t keyed = 0;
    std::vector<bool> named(imesh.primitives.size(), false);
    for (std::size_t i = 0; i < imesh.primitives.size(); ++i) {
      const Primitive& p = imesh.primitives[i];
      if (!p.extras.is_object() || !p.extras.contains("group") || !p.extras["group"].is_number_integer()) continue;
      for (std::size_t k = 0; k < bmesh.primitives.size(); ++k) {
        if (bmesh.primitives[k].extras["group"] == p.extras["group"] && !out.groups[k].first) out.groups[k] = {&p, i}, ++keyed, named[i] = true;
      }
    }
    if (keyed == out.groups.size() && keyed == imesh.primitives.size()) return out;
    if (keyed > 0) {
      for (std::size_t i = 0; i < named.size(); ++i) {
        if (!named[i]) out.added.push_back(i);
      }
      return out;
    }
    const auto material_name = [](const Scene& s, int m) { return m >= 0 && static_cast<std::size_t>(m) < s.materials.size() ? s.materials[static_cast<std::size_t>(m)].name : std::string(); };
    std::set<std::string> base_names;
    for (const Primitive& p : bmesh.primitives) base_names.insert(material_name(base_, p.material));
    const bool base_materials = std::all_of(imesh.primitives.begin(), imesh.primitives.end(), [&](const Primitive& p) { return base_names.count(material_name(in_, p.material)) > 0; });
    if (base_materials && imesh.primitives.size() >= bmesh.primitives.size()) {
      for (std::size_t k = 0; k < out.groups.size(); ++k) out.groups[k] = {&imesh.primitives[k], k};
      for (std::size_t i = out.groups.size(); i < imesh.primitives.size(); ++i) out.added.push_back(i);
      if (!out.added.empty()) {
        warnings_.push_back({where, "mesh " + imesh.name + "'s primitives have no group extras: the first " + std::to_string(out.groups.size()) +
                                        " stand for the base's groups in order, the " + std::to_string(out.added.size()) + " after them are new"});
      }
      return out;
    }
    if (base_materials && merged_groups(bmesh, imesh, out.groups)) return out;
    // By material name: each base group takes the next primitive drawing its material; the groups left
    // over are removed and the primitives left over (the modder's own materials among them) are added.
    std::vector<bool> taken(imesh.primitives.size(), false);
    std::size_t removed = 0;
    for (std::size_t k = 0; k < bmesh.primitives.size(); ++k) {
      const std::string name = material_name(base_, bmesh.primitives[k].material);
      for (std::size_t i = 0; i < imesh.primitives.size() && !out.groups[k].first; ++i) {
        if (!taken[i] && material_name(in_, imesh.primitives[i].material) == name) out.groups[k] = {&imesh.primitives[i], i}, taken[i] = true;
      }
      removed += out.groups[k].first == nullptr;
    }
    for (std::size_t i = 0; i < taken.size(); ++i) {
      if (!taken[i]) out.added.push_back(i);
    }
    warnings_.push_back({where, "mesh " + imesh.name + "'s primitives have no group extras: each base group takes the next primitive drawing its material; " +
                                    std::to_string(removed) + " of the base's " + std::to_string(bmesh.primitives.size()) + " groups are removed, " +
                                    std::to_string(out.added.size()) + " primitives are new"});
    return out;
  }

  // Blender merges the primitives of a mesh that share a material into one, their triangles in group
  // order (f_hair097's two material3 groups come back as one primitive). When every incoming primitive
  // holds exactly the drawn triangles of the base groups of its material (matched by name), each group
  // takes its share, in order, as a primitive of its own (kept in split_).
  bool merged_groups(const Mesh& bmesh, const Mesh& imesh, std::vector<std::pair<const Primitive*, std::size_t>>& out) {
    const auto base_material = [&](int m) -> int {
      if (m < 0 || static_cast<std::size_t>(m) >= in_.materials.size()) return -1;
      for (std::size_t b = 0; b < base_.materials.size(); ++b) {
        if (base_.materials[b].name == in_.materials[static_cast<std::size_t>(m)].name) return static_cast<int>(b);
      }
      return -1;
    };
    std::vector<bool> taken(bmesh.primitives.size(), false);
    std::vector<std::pair<const Primitive*, std::size_t>> found(bmesh.primitives.size(), {nullptr, 0});
    for (std::size_t i = 0; i < imesh.primitives.size(); ++i) {
      const Primitive& p = imesh.primitives[i];
      const int material = base_material(p.material);
      if (material < 0) return false;
      const std::vector<std::uint32_t> drawn = drawn_triangles(p);
      std::size_t at = 0;
      for (std::size_t k = 0; k < bmesh.primitives.size(); ++k) {
        if (taken[k] || bmesh.primitives[k].material != material) continue;
        const std::size_t count = drawn_triangles(bmesh.primitives[k]).size();
        if (at + count > drawn.size()) return false;
        Primitive part = p;
        part.topology = Topology::triangles;
        part.indices.assign(drawn.begin() + static_cast<std::ptrdiff_t>(at), drawn.begin() + static_cast<std::ptrdiff_t>(at + count));
        at += count;
        split_.push_back(std::move(part));
        found[k] = {&split_.back(), i};
        taken[k] = true;
      }
      if (at != drawn.size()) return false;
    }
    if (std::find(taken.begin(), taken.end(), false) != taken.end()) return false;
    warnings_.push_back({"meshes", "mesh " + imesh.name + " draws groups of one material as one primitive (as Blender merges them): split back by the base's triangle counts"});
    out = std::move(found);
    return true;
  }

  Result<void> lower_pmo(const PmoPart& part, bool takes_new_meshes) {
    MhfuPmo& pmo = *part.pmo;
    Result<std::vector<GeBonePalette>> palettes = mhfu_group_palettes(pmo);
    if (!palettes) return palettes.error();
    std::vector<int> block_owner(pmo.blocks.size(), -1);  // the group whose primitive wrote the block
    std::vector<bool> removed(pmo.groups.size(), false);
    std::vector<bool> removed_meshes(pmo.meshes.size(), false);
    groups_.clear();
    for (std::size_t m = 0; m < removed_meshes.size(); ++m) {
      const std::size_t bm = part.first_mesh + m;
      if (meshes_[bm] < 0) {
        removed_meshes[m] = true;
        const MhfuMesh& mesh = pmo.meshes[m];
        for (std::size_t g = mesh.group_start; g < std::size_t{mesh.group_start} + mesh.group_count && g < removed.size(); ++g) removed[g] = true;
        continue;
      }
      auto prims = match_primitives(bm);
      if (!prims) return prims.error();
      std::optional<std::size_t> last;  // the mesh's last group kept: added primitives go after it
      for (std::size_t k = 0; k < prims->groups.size(); ++k) {
        const std::size_t g = std::size_t{pmo.meshes[m].group_start} + k;
        if (!prims->groups[k].first) {
          removed[g] = true;
          continue;
        }
        last = g;
        const std::string where = "meshes[" + std::to_string(meshes_[bm]) + "].primitives[" + std::to_string(prims->groups[k].second) + "]";
        if (auto e = lower_group_material(part, m, g, base_.meshes[bm].primitives[k].material, prims->groups[k].first->material, where); !e) return e.error();
        Result<bool> changed = groups_.lower_group(pmo, pmo.meshes[m], g, (*palettes)[g], base_.meshes[bm].primitives[k], *prims->groups[k].first, where);
        if (!changed) return changed.error();
        if (std::find(groups_.replaced.begin(), groups_.replaced.end(), g) != groups_.replaced.end()) removed[g] = true;
        const std::uint32_t b = pmo.groups[g].block;
        if (*changed) {
          if (block_owner[b] >= 0 && block_owner[b] != static_cast<int>(g)) {
            return at(where, "block " + std::to_string(b) + " is drawn by groups " + std::to_string(block_owner[b]) + " and " +
                                          std::to_string(g) + ": an edit must change both primitives the same way", ErrorCode::unsupported);
          }
          block_owner[b] = static_cast<int>(g);
        }
      }
      const Mesh& imesh = in_.meshes[static_cast<std::size_t>(meshes_[bm])];
      for (std::size_t i : prims->added) {
        const std::string where = "meshes[" + std::to_string(meshes_[bm]) + "].primitives[" + std::to_string(i) + "]";
        auto offset = material_offset(part, m, imesh.primitives[i].material, where, true);
        if (!offset) return offset.error();
        mhfu::Placing placing;
        placing.material_offset = *offset;
        placing.after = last.value_or(pmo.meshes[m].group_start);
        // Every base group of the mesh removed: the first new group takes the place of its first, loading
        // every slot it weighs, and the mesh draws as the converter draws its materials.
        if (!last) {
          if (pmo.meshes[m].group_count == 0) return at(where, "the base mesh has no group for a new group to take the place of", ErrorCode::unsupported);
          placing.fresh = placing.takes_over = i == prims->added.front();
          if (placing.fresh) converter_flags(imesh, pmo.meshes[m]);
        }
        if (auto e = groups_.add_primitive(pmo, pmo.meshes[m], (*palettes)[placing.after], imesh.primitives[i], placing, where); !e) return e.error();
      }
    }
    if (takes_new_meshes) {
      for (std::size_t i : added_meshes_) {
        if (auto e = add_mesh(part, *palettes, i); !e) return e.error();
      }
    }
    std::vector<mhfu::AddedGroup> added = std::move(groups_.added);
    groups_.clear();
    return mhfu::place_groups(pmo, *palettes, std::move(added), removed, removed_meshes);
  }

  // A kept group whose primitive draws another material than the base's: its material offset names that
  // material's place in the mesh's remap run (added to the run, or to the PMO, as for a new group).
  Result<void> lower_group_material(const PmoPart& part, std::size_t m, std::size_t g, int base_material, int material, const std::string& where) {
    if (base_material < 0 || static_cast<std::size_t>(base_material) >= materials_.size() || materials_[static_cast<std::size_t>(base_material)] == material) {
      return {};
    }
    auto offset = material_offset(part, m, material, where, true);
    if (!offset) return offset.error();
    part.pmo->groups[g].material_offset = *offset;
    return {};
  }

  // The converter's lighting flags and blend word for a mesh drawing imesh's materials: alpha-blended
  // when one of them is BLEND, else opaque.
  void converter_flags(const Mesh& imesh, MhfuMesh& record) const {
    bool blend = false;
    for (const Primitive& p : imesh.primitives) {
      blend = blend || (p.material >= 0 && static_cast<std::size_t>(p.material) < in_.materials.size() &&
                        in_.materials[static_cast<std::size_t>(p.material)].alpha_mode == AlphaMode::blend);
    }
    record.lighting_flags = blend ? mhfu::kBlendFlags : mhfu::kOpaqueFlags;
    record.blend = blend ? mhfu::kBlendWord : 0;
  }

  // An incoming mesh no base mesh stands for: a new PMO mesh record after the base's (the converter's
  // lighting flags, opaque or alpha-blended by its materials; UV scale 1), its primitives new groups
  // after the PMO's last, in the converter's vertex format, the first loading every slot it weighs.
  Result<void> add_mesh(const PmoPart& part, const std::vector<GeBonePalette>& palettes, std::size_t i) {
    MhfuPmo& pmo = *part.pmo;
    const Mesh& imesh = in_.meshes[i];
    const std::string where = "meshes[" + std::to_string(i) + "]";
    if (pmo.groups.empty() || palettes.size() != pmo.groups.size()) return at(where, "the base PMO has no group for a new mesh's groups to follow", ErrorCode::unsupported);
    if (pmo.meshes.size() >= 0xFFFF) return at(where, "the PMO already holds 65535 meshes (a u16 counts them)", ErrorCode::unsupported);
    if (imesh.primitives.empty()) return at(where, "mesh " + imesh.name + " has no primitive: a new PMO mesh draws at least one group", ErrorCode::unsupported);
    MhfuMesh record;
    converter_flags(imesh, record);
    record.material_start = static_cast<std::uint16_t>(pmo.remap.size());
    pmo.meshes.push_back(record);
    const std::size_t m = pmo.meshes.size() - 1;
    const std::size_t after = pmo.groups.size() - 1;
    for (std::size_t k = 0; k < imesh.primitives.size(); ++k) {
      const std::string pwhere = where + ".primitives[" + std::to_string(k) + "]";
      auto offset = material_offset(part, m, imesh.primitives[k].material, pwhere, false);
      if (!offset) return offset.error();
      mhfu::Placing placing;
      placing.after = after;
      placing.material_offset = *offset;
      placing.mesh = m;
      placing.fresh = k == 0;
      if (auto e = groups_.add_primitive(pmo, pmo.meshes[m], palettes[after], imesh.primitives[k], placing, pwhere); !e) return e.error();
    }
    warnings_.push_back({where, "mesh " + imesh.name + " is none of the base's: added as PMO mesh " + std::to_string(m) + " with " +
                                    std::to_string(pmo.meshes[m].material_count) + " materials in its remap run"});
    return {};
  }

  // The place in mesh m's run of the remap table of the PMO material an incoming material stands for
  // (materials_); a material the run does not hold is added to it, one the base does not have is added
  // to the PMO's table (new_material).
  Result<std::uint8_t> material_offset(const PmoPart& part, std::size_t m, int material, const std::string& where, bool say_added) {
    MhfuPmo& pmo = *part.pmo;
    if (material < 0 || static_cast<std::size_t>(material) >= in_.materials.size()) {
      return at(where + ".material", "the primitive has no material: every MHFU group draws one", ErrorCode::unsupported);
    }
    std::optional<std::uint8_t> index;  // in the PMO's material table
    const auto it = std::find(materials_.begin(), materials_.end(), material);
    if (it != materials_.end()) {
      const auto b = static_cast<std::size_t>(it - materials_.begin());
      if (b < part.first_material || b >= part.first_material + part.materials) {
        return at(where + ".material", "material " + in_.materials[static_cast<std::size_t>(material)].name + " is another PMO's of the PAC",
                  ErrorCode::unsupported);
      }
      index = static_cast<std::uint8_t>(b - part.first_material);
    } else {
      auto made = new_material(part, material);
      if (!made) return made.error();
      index = *made;
    }
    const MhfuMesh& mesh = pmo.meshes[m];
    for (std::size_t k = 0; k < mesh.material_count; ++k) {
      const std::size_t r = std::size_t{mesh.material_start} + k;
      if (r < pmo.remap.size() && pmo.remap[r] == *index) return static_cast<std::uint8_t>(k);
    }
    auto offset = add_to_run(pmo, m, *index, where);
    if (offset && say_added) {
      warnings_.push_back({where + ".material", "material " + in_.materials[static_cast<std::size_t>(material)].name + " is added to mesh " +
                                                    std::to_string(m) + "'s run of the remap table"});
    }
    return offset;
  }

  // An incoming material the base does not have, as a new record at the end of the PMO's table: its
  // base colour, the converter's shadow colour, its texture's TMH image (texture_image).
  Result<std::uint8_t> new_material(const PmoPart& part, int material) {
    const auto key = std::make_pair(part.pmo, material);
    if (auto it = added_materials_.find(key); it != added_materials_.end()) return it->second;
    MhfuPmo& pmo = *part.pmo;
    const Material& im = in_.materials[static_cast<std::size_t>(material)];
    const std::string field = "materials[" + std::to_string(material) + "]";
    if (pmo.materials.size() >= mhfu::kMaxMaterials) {
      return at(field, "the PMO already holds 255 materials: the remap names them by a byte (0xFF = keep)", ErrorCode::unsupported);
    }
    MhfuMaterial record;
    record.shadow = mhfu::kShadow;
    const auto colour = mhfu::material_colour(im.base_color);
    if (!colour) return at(field + ".base_color", "the base colour is not finite");
    record.color = *colour;
    if (im.texture >= 0) {
      auto image = texture_image(im.texture, field);
      if (!image) return image.error();
      record.texture = *image;
    }
    pmo.materials.push_back(record);
    const auto index = static_cast<std::uint8_t>(pmo.materials.size() - 1);
    added_materials_.emplace(key, index);
    warnings_.push_back({field, "material " + im.name + " is not the base's: added as PMO material " + std::to_string(index)});
    return index;
  }

  // The TMH image an incoming texture stands for: its "tmh_image" extra, else the base texture with the
  // same pixels, else a new image at the end of the PAC's TMH bank (as authoring encodes it).
  Result<std::uint8_t> texture_image(int t, const std::string& field) {
    if (static_cast<std::size_t>(t) >= in_.textures.size()) return at(field + ".texture", "texture " + std::to_string(t) + " does not exist");
    const Texture& it = in_.textures[static_cast<std::size_t>(t)];
    const std::size_t images = tmh_ ? tmh_->images.size() : 0;
    if (it.extras.is_object() && it.extras.contains("tmh_image") && it.extras["tmh_image"].is_number_integer()) {
      const auto k = it.extras["tmh_image"].get<std::int64_t>();
      if (k >= 0 && static_cast<std::size_t>(k) < (tmh_ ? images : mhfu::kMaxTextures)) return static_cast<std::uint8_t>(k);
    }
    for (const Texture& bt : base_.textures) {
      const int k = bt.extras.is_object() ? bt.extras.value("tmh_image", -1) : -1;
      if (k >= 0 && k < 0xFF && bt.image == it.image) return static_cast<std::uint8_t>(k);
    }
    return new_image(t);
  }

  // Incoming texture t as a new image at the end of the PAC's TMH bank, encoded as authoring encodes one.
  Result<std::uint8_t> new_image(int t) {
    if (auto made = new_images_.find(t); made != new_images_.end()) return made->second;
    const Texture& it = in_.textures[static_cast<std::size_t>(t)];
    const std::size_t images = tmh_ ? tmh_->images.size() : 0;
    const std::string where = "textures[" + std::to_string(t) + "]";
    if (!tmh_) {
      return at(where, "texture " + it.name + " is none of the base's images, and a bare PMO holds no textures: lower over the PAC to add it",
                ErrorCode::unsupported);
    }
    if (images >= mhfu::kMaxTextures) return at(where, "the TMH already holds 255 images: a material names its image by a byte", ErrorCode::unsupported);
    auto made = mhfu::tmh_image_of(it.image, where, warnings_);
    if (!made) return made.error();
    tmh_->images.push_back(std::move(*made));
    warnings_.push_back({where, "texture" + (it.name.empty() ? std::string() : " " + it.name) + " is added to the TMH as image " + std::to_string(images)});
    new_images_.emplace(t, static_cast<std::uint8_t>(images));
    return static_cast<std::uint8_t>(images);
  }

  // The incoming material standing for each base material (materials_): by name only, so a material of
  // the modder's never takes over an unrelated base material. An incoming material standing for none is a
  // new one (new_material) when a group draws it; a base material none stands for is drawn no more.
  Result<void> match_materials() {
    std::map<std::string, int> named;
    for (std::size_t i = 0; i < in_.materials.size(); ++i) {
      if (!named.emplace(in_.materials[i].name, static_cast<int>(i)).second) named[in_.materials[i].name] = -1;
    }
    materials_.assign(base_.materials.size(), -1);
    for (std::size_t b = 0; b < base_.materials.size(); ++b) {
      const auto it = named.find(base_.materials[b].name);
      if (it == named.end()) continue;
      if (it->second < 0) {
        return at("materials", "two materials are named " + it->first + ", the base's material of that name: which one stands for it cannot be told",
                  ErrorCode::unsupported);
      }
      materials_[b] = it->second;
    }
    return {};
  }

  // The base materials no incoming material stands for and no group draws any more are removed (with
  // their remap entries), or kept unused where the remap runs overlap; a warning names them.
  void drop_undrawn_materials(const PmoPart& part) {
    MhfuPmo& pmo = *part.pmo;
    std::vector<bool> drawn(pmo.materials.size(), false);
    for (const MhfuMesh& mesh : pmo.meshes) {
      for (std::size_t g = mesh.group_start; g < std::size_t{mesh.group_start} + mesh.group_count && g < pmo.groups.size(); ++g) {
        const std::size_t e = std::size_t{mesh.material_start} + pmo.groups[g].material_offset;
        if (e < pmo.remap.size() && pmo.remap[e] < drawn.size()) drawn[pmo.remap[e]] = true;
      }
    }
    std::vector<bool> gone(pmo.materials.size(), false);
    std::string names;
    std::size_t count = 0;
    for (std::size_t k = 0; k < part.materials && k < gone.size(); ++k) {
      gone[k] = materials_[part.first_material + k] < 0 && !drawn[k];
      if (gone[k]) names += (count++ == 0 ? "" : ", ") + base_.materials[part.first_material + k].name;
    }
    if (count == 0) return;
    const std::string which = count == 1 ? "the base's material " + names + " is" : "the base's materials " + names + " are";
    warnings_.push_back({"materials", which + (remove_materials(pmo, gone) ? " drawn no more: removed from the PMO's table"
                                                                           : " drawn no more: kept unused (mesh runs of the remap table overlap)")});
  }

  // Material colours (RGBA8 with red low) and texture images: the incoming material matched by name
  // or order stands for the base material.
  Result<void> lower_materials(const std::vector<PmoPart>& parts) {
    std::vector<MhfuMaterial*> stored;  // the base's materials, in Scene order
    for (const PmoPart& part : parts) {
      for (std::size_t k = 0; k < part.materials && k < part.pmo->materials.size(); ++k) stored.push_back(&part.pmo->materials[k]);
    }
    for (std::size_t i = 0; i < base_.materials.size() && i < stored.size(); ++i) {
      if (materials_[i] < 0) continue;  // drawn no more: kept as stored
      const Material& b = base_.materials[i];
      const Material& m = in_.materials[static_cast<std::size_t>(materials_[i])];
      const std::string where = "materials[" + std::to_string(materials_[i]) + "]";
      const auto ic = mhfu::material_colour(m.base_color);
      if (!ic) return at(where + ".base_color", "the base colour is not finite");
      if (*ic != mhfu::material_colour(b.base_color)) stored[i]->color = *ic;
      if (b.texture < 0) {
        // Its picture is in a TMH this lower was not given (a bare PMO's bank): the glTF's image is stored nowhere.
        if (stored[i]->texture != 0xFF && m.texture >= 0 && static_cast<std::size_t>(m.texture) < in_.textures.size() && dropped_.insert(m.texture).second) {
          warnings_.push_back({"textures[" + std::to_string(m.texture) + "]",
                               "the image of texture " + in_.textures[static_cast<std::size_t>(m.texture)].name +
                                   " is not stored, edited or not: a bare PMO holds no pictures (they are in the TMH); import over the PAC to store it"});
        }
        continue;
      }
      if (m.texture < 0 || static_cast<std::size_t>(m.texture) >= in_.textures.size()) {
        return at(where + ".texture", "material " + m.name + " lost its texture: an MHFU material's texture cannot be removed", ErrorCode::unsupported);
      }
      const RgbaImage& bi = base_.textures[static_cast<std::size_t>(b.texture)].image;
      const RgbaImage& ii = in_.textures[static_cast<std::size_t>(m.texture)].image;
      if (ii.width == bi.width && ii.height == bi.height && ii.rgba == bi.rgba) continue;
      // A new size for an image another base material shows: this material gets an image of its own.
      const bool shared = std::any_of(base_.materials.begin(), base_.materials.end(), [&](const Material& o) { return &o != &b && o.texture == b.texture; });
      if (shared && (ii.width != bi.width || ii.height != bi.height) && tmh_) {
        auto image = new_image(m.texture);
        if (!image) return image.error();
        stored[i]->texture = *image;
        continue;
      }
      for (const auto& [t, img] : replaced_textures) {
        if (t == b.texture && !(img->width == ii.width && img->height == ii.height && img->rgba == ii.rgba)) {
          return at(where + ".texture", "two materials sharing TMH image " + base_.textures[static_cast<std::size_t>(t)].name +
                                                     " give it different images", ErrorCode::unsupported);
        }
      }
      replaced_textures.emplace_back(b.texture, &ii);
    }
    return {};
  }

  const Scene& in_;
  const Scene& base_;
  Tmh* tmh_ = nullptr;
  std::vector<Warning>& warnings_;
  std::vector<int> materials_;  // base material -> incoming
  std::map<int, std::uint8_t> new_images_;  // incoming texture -> the TMH image added for it
  std::set<int> dropped_;  // incoming textures whose image no TMH here can store (warned once)
  std::map<std::pair<const MhfuPmo*, int>, std::uint8_t> added_materials_;  // (PMO, incoming material) -> its new record
  const Skin* iskin_ = nullptr;  // the incoming meshes' skin
  std::vector<int> bones_;        // its joint -> base bone
  mhfu::GroupLowerer groups_{bones_, warnings_};
  std::deque<Primitive> split_;   // groups split back from a primitive Blender merged (stable addresses)
  std::vector<int> meshes_;  // base mesh -> incoming mesh, -1: removed
  std::vector<std::size_t> added_meshes_;  // incoming meshes no base mesh stands for, added to the first PMO
};

// A TMH image as list_textures numbers it in `doc`, from the base Scene texture's "tmh_image" extra.
Result<void> replace_images(Document& doc, const Scene& base, std::size_t first,
                                    const std::vector<std::pair<int, const RgbaImage*>>& replaced) {
  for (const auto& [t, image] : replaced) {
    const Texture& bt = base.textures[static_cast<std::size_t>(t)];
    const std::size_t k = first + bt.extras["tmh_image"].get<std::size_t>();
    if (auto replaced = replace_texture(doc, k, *image); !replaced) {
      const Error& e = replaced.error();
      return Error{e.code, e.offset, "textures[" + bt.name + "]." + e.field, e.message};
    }
  }
  return {};
}

}  // namespace

Result<Lowered> lower_mhfu_pac(const Scene& scene, const Pac& base, const LowerInputs& inputs) {
  static_cast<void>(inputs);  // a PAC carries its own skeleton and textures
  Result<Scene> lifted = lift_mhfu_pac(base, {});
  if (!lifted) return lifted.error();
  Lowered out{Document{base}, {}};
  Pac& pac = std::get<Pac>(out.document);
  std::vector<PmoPart> parts;
  MhfuSkeleton* skeleton = nullptr;
  Tmh* tmh = nullptr;  // the bank the materials name images of (the lift's)
  std::size_t mesh = 0, material = 0, images = 0;
  std::optional<std::size_t> first_image;
  for (PacEntry& e : pac.entries) {
    if (auto* p = std::get_if<MhfuPmoFile>(&e.content)) {
      parts.push_back({&p->pmo, mesh, material, p->pmo.materials.size()});
      mesh += p->pmo.meshes.size();
      material += p->pmo.materials.size();
    }
    if (auto* s = std::get_if<MhfuSkeletonFile>(&e.content); s && !skeleton) skeleton = &s->skeleton;
    if (auto* t = std::get_if<TmhFile>(&e.content)) {
      if (!first_image) first_image = images, tmh = &t->tmh;
      images += t->tmh.images.size();
    }
  }
  Lowerer lowerer(scene, *lifted, tmh, out.warnings);
  if (auto e = lowerer.run(parts, skeleton); !e) return e.error();
  if (auto e = replace_images(out.document, *lifted, first_image.value_or(0), lowerer.replaced_textures); !e) return e.error();
  return out;
}

Result<Lowered> lower_mhfu_pmo(const Scene& scene, const MhfuPmoFile& base, const LowerInputs& inputs) {
  // The export lifted the bare PMO with its PAC's skeleton: the same one gives the same joints.
  LiftInputs lift_inputs;
  if (inputs.skeleton) {
    lift_inputs.skeleton = std::get_if<MhfuSkeletonFile>(inputs.skeleton);
    if (!lift_inputs.skeleton) {
      return at("skeleton", std::string("a bare MHFU PMO takes an MHFU skeleton, not a ") + format_name(format_of(*inputs.skeleton)), ErrorCode::unsupported);
    }
  }
  Result<Scene> lifted = lift_mhfu_pmo(base, lift_inputs);
  if (!lifted) return lifted.error();
  Lowered out{Document{base}, {}};
  MhfuPmoFile& file = std::get<MhfuPmoFile>(out.document);
  Lowerer lowerer(scene, *lifted, nullptr, out.warnings);
  // The skeleton is not part of a bare PMO: its bind pose is not written.
  if (auto e = lowerer.run({{&file.pmo, 0, 0, file.pmo.materials.size()}}, nullptr); !e) return e.error();
  return out;
}

}  // namespace remodel::scene
