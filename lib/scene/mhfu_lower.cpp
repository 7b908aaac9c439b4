// Scene -> MHFU PAC / PMO over a base: the inverse of mhfu.cpp. Vertices are re-encoded in their block's
// stored VTYPE only where the incoming value quantises differently from the base's; the skeleton's
// Euler angles, the materials' colours and the TMH images likewise.
#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <string>

#include "model/textures.hpp"
#include "scene/bone_turns.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene/mhfu_lower.hpp"

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
Result<std::vector<int>> joint_bones(const Scene& in, const Scene& base, const Skin*& iskin, std::vector<LowerWarning>& warnings) {
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
};

class Lowerer {
 public:
  Lowerer(const Scene& in, const Scene& base, std::vector<LowerWarning>& warnings)
      : in_(in), base_(base), warnings_(warnings) {}

  std::optional<Error> run(std::vector<PmoPart> parts, MhfuSkeleton* skeleton) {
    Result<std::vector<int>> bones = joint_bones(in_, base_, iskin_, warnings_);
    if (!bones) return bones.error();
    bones_ = std::move(*bones);
    if (skeleton) {
      if (auto e = lower_skeleton(*skeleton)) return e;
    }
    if (auto e = match_meshes()) return e;
    for (const PmoPart& part : parts) {
      if (auto e = lower_pmo(part)) return e;
    }
    return lower_materials(parts);
  }

  // Base texture index -> incoming image, for the caller to encode into its TMH.
  std::vector<std::pair<int, const RgbaImage*>> replaced_textures;

 private:
  std::optional<Error> lower_skeleton(MhfuSkeleton& skeleton) {
    if (!iskin_ || base_.skins.empty()) return std::nullopt;
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
    return std::nullopt;
  }

  std::optional<Error> match_meshes() {
    std::vector<std::string> bnames, inames;
    for (const Mesh& m : base_.meshes) bnames.push_back(m.name);
    for (const Mesh& m : in_.meshes) inames.push_back(m.name);
    bool by_order = false;
    std::optional<std::vector<int>> m = match_names(bnames, inames, by_order);
    if (!m) {
      return at("meshes", "the Scene's " + std::to_string(in_.meshes.size()) + " meshes match neither the names nor the count of the base's " +
                                       std::to_string(base_.meshes.size()) + " PMO meshes (adding or removing a mesh is not supported)", ErrorCode::unsupported);
    }
    if (by_order) warnings_.push_back({"meshes", "mesh names do not match the base's: matched by order"});
    meshes_ = std::move(*m);
    return std::nullopt;
  }

  // The incoming primitive for each base group of a mesh (and its index in the incoming mesh), and the
  // incoming primitives no base group stands for. By the "group" extra: a group no primitive names is
  // removed, a primitive naming none is added. Else by order (the primitives past the base's groups
  // are added), else split back by material (merged_groups).
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
    if (imesh.primitives.size() >= bmesh.primitives.size()) {
      for (std::size_t k = 0; k < out.groups.size(); ++k) out.groups[k] = {&imesh.primitives[k], k};
      for (std::size_t i = out.groups.size(); i < imesh.primitives.size(); ++i) out.added.push_back(i);
      if (!out.added.empty()) {
        warnings_.push_back({where, "mesh " + imesh.name + "'s primitives have no group extras: the first " + std::to_string(out.groups.size()) +
                                        " stand for the base's groups in order, the " + std::to_string(out.added.size()) + " after them are new"});
      }
      return out;
    }
    if (merged_groups(bmesh, imesh, out.groups)) return out;
    return at(where, "mesh " + imesh.name + " has " + std::to_string(imesh.primitives.size()) + " primitives where the base draws " +
                                  std::to_string(bmesh.primitives.size()) + " groups, and none names its group (extras.group): which group "
                                  "is removed cannot be told", ErrorCode::unsupported);
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

  std::optional<Error> lower_pmo(const PmoPart& part) {
    MhfuPmo& pmo = *part.pmo;
    Result<std::vector<GeBonePalette>> palettes = mhfu_group_palettes(pmo);
    if (!palettes) return palettes.error();
    std::vector<int> block_owner(pmo.blocks.size(), -1);  // the group whose primitive wrote the block
    std::vector<bool> removed(pmo.groups.size(), false);
    groups_.clear();
    for (std::size_t m = 0; m < pmo.meshes.size(); ++m) {
      const std::size_t bm = part.first_mesh + m;
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
        if (!last) return at(where, "every base group of the mesh is removed: a new group follows one kept", ErrorCode::unsupported);
        auto offset = material_offset(part, pmo.meshes[m], imesh.primitives[i].material, where);
        if (!offset) return offset.error();
        if (auto e = groups_.add_primitive(pmo, pmo.meshes[m], *last, (*palettes)[*last], imesh.primitives[i], *offset, where)) return e;
      }
    }
    std::vector<mhfu::AddedGroup> added = std::move(groups_.added);
    groups_.clear();
    return mhfu::place_groups(pmo, *palettes, std::move(added), removed);
  }

  // The place in the mesh's run of the remap table of the PMO material an incoming material stands for
  // (by name, as lower_materials matches them).
  Result<std::uint8_t> material_offset(const PmoPart& part, const MhfuMesh& mesh, int material, const std::string& where) {
    std::vector<std::string> bnames, inames;
    for (const Material& m : base_.materials) bnames.push_back(m.name);
    for (const Material& m : in_.materials) inames.push_back(m.name);
    bool by_order = false;
    const std::optional<std::vector<int>> match = match_names(bnames, inames, by_order);
    const auto it = match ? std::find(match->begin(), match->end(), material) : std::vector<int>::const_iterator{};
    if (material < 0 || !match || it == match->end()) {
      return at(where + ".material", "the primitive's material is none of the base's: a new group draws one of its mesh's materials", ErrorCode::unsupported);
    }
    const auto base_material = static_cast<std::size_t>(it - match->begin());
    for (std::size_t k = 0; k < mesh.material_count; ++k) {
      const std::size_t at = std::size_t{mesh.material_start} + k;
      if (at < part.pmo->remap.size() && part.first_material + part.pmo->remap[at] == base_material) return static_cast<std::uint8_t>(k);
    }
    return at(where + ".material", "material " + base_.materials[base_material].name + " is not one its mesh draws (the mesh's remap "
                                            "run): adding it to the run is not supported", ErrorCode::unsupported);
  }

  // Material colours (RGBA8 with red low) and texture images: the incoming material matched by name
  // or order stands for the base material.
  std::optional<Error> lower_materials(const std::vector<PmoPart>& parts) {
    std::vector<std::string> bnames, inames;
    for (const Material& m : base_.materials) bnames.push_back(m.name);
    for (const Material& m : in_.materials) inames.push_back(m.name);
    bool by_order = false;
    std::optional<std::vector<int>> match = match_names(bnames, inames, by_order);
    if (!match) {
      return at("materials", "the Scene's " + std::to_string(in_.materials.size()) + " materials match neither the names nor the count of the base's " +
                                          std::to_string(base_.materials.size()) + " (adding or removing a material is not supported)", ErrorCode::unsupported);
    }
    if (by_order) warnings_.push_back({"materials", "material names do not match the base's: matched by order"});
    std::vector<MhfuMaterial*> stored;
    for (const PmoPart& part : parts) {
      for (MhfuMaterial& m : part.pmo->materials) stored.push_back(&m);
    }
    for (std::size_t i = 0; i < base_.materials.size() && i < stored.size(); ++i) {
      const Material& b = base_.materials[i];
      const Material& m = in_.materials[static_cast<std::size_t>((*match)[i])];
      const std::string where = "materials[" + std::to_string((*match)[i]) + "]";
      const auto rgba = [&](const Vec4& c) -> std::optional<std::uint32_t> {
        std::uint32_t out = 0;
        const float ch[4] = {c.x, c.y, c.z, c.w};
        for (int k = 0; k < 4; ++k) {
          if (!finite(ch[k])) return std::nullopt;
          out |= static_cast<std::uint32_t>(std::nearbyint(std::clamp(ch[k], 0.0f, 1.0f) * 255.0f)) << (8 * k);
        }
        return out;
      };
      const auto ic = rgba(m.base_color);
      if (!ic) return at(where + ".base_color", "the base colour is not finite");
      if (*ic != rgba(b.base_color)) stored[i]->color = *ic;
      if (b.texture < 0) continue;
      if (m.texture < 0 || static_cast<std::size_t>(m.texture) >= in_.textures.size()) {
        return at(where + ".texture", "material " + m.name + " lost its texture: an MHFU material's texture cannot be removed", ErrorCode::unsupported);
      }
      const RgbaImage& bi = base_.textures[static_cast<std::size_t>(b.texture)].image;
      const RgbaImage& ii = in_.textures[static_cast<std::size_t>(m.texture)].image;
      if (ii.width == bi.width && ii.height == bi.height && ii.rgba == bi.rgba) continue;
      for (const auto& [t, img] : replaced_textures) {
        if (t == b.texture && !(img->width == ii.width && img->height == ii.height && img->rgba == ii.rgba)) {
          return at(where + ".texture", "two materials sharing TMH image " + base_.textures[static_cast<std::size_t>(t)].name +
                                                     " give it different images", ErrorCode::unsupported);
        }
      }
      replaced_textures.emplace_back(b.texture, &ii);
    }
    return std::nullopt;
  }

  const Scene& in_;
  const Scene& base_;
  std::vector<LowerWarning>& warnings_;
  const Skin* iskin_ = nullptr;  // the incoming meshes' skin
  std::vector<int> bones_;        // its joint -> base bone
  mhfu::GroupLowerer groups_{bones_, warnings_};
  std::deque<Primitive> split_;   // groups split back from a primitive Blender merged (stable addresses)
  std::vector<int> meshes_;  // base mesh -> incoming mesh
};

// A TMH image as list_textures numbers it in `doc`, from the base Scene texture's "tmh_image" extra.
std::optional<Error> replace_images(Document& doc, const Scene& base, std::size_t first,
                                    const std::vector<std::pair<int, const RgbaImage*>>& replaced) {
  for (const auto& [t, image] : replaced) {
    const Texture& bt = base.textures[static_cast<std::size_t>(t)];
    const std::size_t k = first + bt.extras["tmh_image"].get<std::size_t>();
    if (auto e = replace_texture(doc, k, *image)) {
      return Error{e->code, e->offset, "textures[" + bt.name + "]." + e->field, e->message};
    }
  }
  return std::nullopt;
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
  std::size_t mesh = 0, material = 0, images = 0;
  std::optional<std::size_t> first_image;
  for (PacEntry& e : pac.entries) {
    if (auto* p = std::get_if<MhfuPmoFile>(&e.content)) {
      parts.push_back({&p->pmo, mesh, material});
      mesh += p->pmo.meshes.size();
      material += p->pmo.materials.size();
    }
    if (auto* s = std::get_if<MhfuSkeletonFile>(&e.content); s && !skeleton) skeleton = &s->skeleton;
    if (auto* t = std::get_if<TmhFile>(&e.content)) {
      if (!first_image) first_image = images;
      images += t->tmh.images.size();
    }
  }
  Lowerer lowerer(scene, *lifted, out.warnings);
  if (auto e = lowerer.run(parts, skeleton)) return *e;
  if (auto e = replace_images(out.document, *lifted, first_image.value_or(0), lowerer.replaced_textures)) return *e;
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
  Lowerer lowerer(scene, *lifted, out.warnings);
  // The skeleton is not part of a bare PMO: its bind pose is not written.
  if (auto e = lowerer.run({{&file.pmo, 0, 0}}, nullptr)) return *e;
  return out;
}

}  // namespace remodel::scene
