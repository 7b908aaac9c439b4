// Scene -> BWM over a base: the inverse of lift.cpp. z is negated back (the file is D3D left-handed);
// vertex attributes are f32 and u8 in the strides, so a value keeps its stored bytes unless the
// incoming one, taken back to the file's handedness, differs from the base's lifted one.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "scene/bone_turns.hpp"
#include "scene/bwm/lower_materials.hpp"
#include "scene/bwm/lower_run.hpp"
#include "scene/bwm/space.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene/palette_influences.hpp"

namespace remodel::scene {

namespace {

// Where each attribute of a vertex lives: stride, byte offset in the record.
struct Place {
  std::size_t stride = 0, offset = 0;
};
struct Places {
  std::optional<Place> position, normal;
  std::vector<Place> uv_sets, joints, weights;  // in the order decode_bwm_vertices fills them
};

Places places_of(const Bwm& bwm) {
  Places out;
  for (std::size_t s = 0; s < bwm.strides.size(); ++s) {
    std::size_t offset = 0;
    for (const BwmAttribute& a : bwm.strides[s].attributes) {
      const Place p{s, offset};
      if (a.id == 0 && a.format == BwmFormat::f32x3) out.position = p;
      else if (a.id == 1 && a.format == BwmFormat::f32x3) out.normal = p;
      else if (a.id == 2 && a.format == BwmFormat::f32x2) out.uv_sets.push_back(p);
      else if (a.id == 6 && a.format == BwmFormat::u8 && out.joints.size() < 4) out.joints.push_back(p);
      else if (a.id == 7 && a.format == BwmFormat::f32 && out.weights.size() < 4) out.weights.push_back(p);
      offset += bwm_format_size(a.format);
    }
  }
  return out;
}

void put_f32(Bwm& bwm, const Place& p, std::size_t vertex, std::size_t k, float value) {
  BwmStride& s = bwm.strides[p.stride];
  const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
  std::uint8_t* at = s.vertices.data() + vertex * s.size() + p.offset + 4 * k;
  for (int i = 0; i < 4; ++i) at[i] = static_cast<std::uint8_t>(bits >> (8 * i));
}

template <std::size_t N>
std::optional<std::array<std::uint8_t, N>> stored_name(const std::string& name) {
  bool cut = false;
  const std::array<std::uint8_t, N> out = bwm_name<N>(name, cut);
  if (cut) return std::nullopt;
  return out;
}

// For each base item, the incoming one standing for it: by key (extras) when every base key is found
// once, else by name likewise, else by order when the counts agree.
std::optional<std::vector<int>> match_keys(const std::vector<std::vector<std::string>>& base_keys,
                                           const std::vector<std::vector<std::string>>& in_keys, bool& by_order) {
  by_order = false;
  const std::size_t kinds = base_keys.empty() ? 0 : base_keys[0].size();
  for (std::size_t kind = 0; kind < kinds; ++kind) {
    std::map<std::string, int> at;
    for (std::size_t i = 0; i < in_keys.size(); ++i) {
      if (!at.emplace(in_keys[i][kind], static_cast<int>(i)).second) at[in_keys[i][kind]] = -1;
    }
    std::vector<int> out;
    for (const auto& k : base_keys) {
      auto it = at.find(k[kind]);
      if (k[kind].empty() || it == at.end() || it->second < 0) break;
      out.push_back(it->second);
    }
    if (out.size() == base_keys.size()) return out;
  }
  if (base_keys.size() != in_keys.size()) return std::nullopt;
  by_order = true;
  std::vector<int> out;
  for (std::size_t i = 0; i < base_keys.size(); ++i) out.push_back(static_cast<int>(i));
  return out;
}

std::string extra_string(const Extras& e, const char* key) {
  if (!e.is_object() || !e.contains(key)) return {};
  return e[key].is_string() ? e[key].get<std::string>() : e[key].dump();
}

// A reference drawn anew: its mesh record, its place there (none: a reference added after the mesh's
// others, drawing `material`) and its run.
struct Rebuilt {
  std::size_t record = 0;
  std::optional<std::size_t> ref;
  std::uint32_t material = 0;
  BwmRun run;
};

// For each base mesh, the incoming mesh standing for it (none: removed), and the (node, mesh) draws
// standing for none (meshes added).
struct MeshMatch {
  std::vector<std::optional<std::size_t>> meshes;
  std::vector<std::pair<int, std::size_t>> added;
};

// For each base primitive of a mesh, the incoming primitive standing for it (none: its reference is
// removed), and the incoming primitives standing for none (references added).
struct RefMatch {
  std::vector<std::optional<std::size_t>> refs;
  std::vector<std::size_t> added;
};

class Lowerer {
 public:
  Lowerer(const Scene& in, const Scene& base, const Bwm& base_file, Bwm& out, std::vector<Warning>& warnings)
      : in_(in), base_(base), base_file_(base_file), out_(out), warnings_(warnings), places_(places_of(out)) {}

  Result<void> run() {
    if (auto e = lower_nodes(); !e) return e.error();
    if (auto e = lower_materials(); !e) return e.error();
    return lower_meshes();
  }

 private:
  // Bones (under their identity root) and entities: their frames, and the entities' stored names.
  // Which nodes are bones or entities: on the base side those carrying a frame (a mesh node with
  // nothing to draw carries its record instead); on the incoming side the leaves that draw nothing,
  // but a node that draws a mesh (an added mesh's node never takes a bone's or entity's place: meshes
  // are matched apart, over the nodes that draw) and a node left without its mesh that bears a base
  // mesh's name and no base bone's or entity's (a removed mesh's node, never taken for a new entity).
  Result<void> lower_nodes() {
    std::vector<std::vector<std::string>> bkeys, ikeys;
    std::vector<int> bnodes;
    std::set<std::string> frames, meshes;  // the base's bone and entity names; its mesh nodes' names
    for (std::size_t n = 0; n < base_.nodes.size(); ++n) {
      const Node& node = base_.nodes[n];
      if (node.mesh >= 0) meshes.insert(node.name);
      if (node.mesh >= 0 || !node.extras.is_object() || !node.extras.contains("position") || node.extras.contains("material_refs")) continue;
      bnodes.push_back(static_cast<int>(n));
      bkeys.push_back({extra_string(node.extras, "entity") + "/" + node.name, node.name});
      frames.insert(node.name);
    }
    std::vector<int> inodes;
    for (std::size_t n = 0; n < in_.nodes.size(); ++n) {
      const Node& node = in_.nodes[n];
      if (node.mesh >= 0 || node.name == "bones" || !node.children.empty()) continue;
      if (node.extras.is_object() && node.extras.contains("material_refs")) continue;
      if (meshes.contains(node.name) && !frames.contains(node.name)) continue;
      inodes.push_back(static_cast<int>(n));
      ikeys.push_back({extra_string(node.extras, "entity") + "/" + node.name, node.name});
    }
    bool by_order = false;
    std::optional<std::vector<int>> match = match_keys(bkeys, ikeys, by_order);
    if (!match) {
      return at("nodes", "the Scene's " + std::to_string(ikeys.size()) + " bone and entity nodes match neither the names nor the count of the base's " +
                                      std::to_string(bkeys.size()) + " (adding or removing bones or entities is not supported)", ErrorCode::unsupported);
    }
    if (by_order && !bkeys.empty()) warnings_.push_back({"nodes", "bone and entity names do not match the base's: matched by order"});
    const std::vector<Mat4> bworld = world_matrices(base_), iworld = world_matrices(in_);
    // Blender's bone turns taken off the bones (entities are no joints: Blender does not turn them).
    std::vector<int> in_bones, base_bones;
    for (std::size_t k = 0; k < bnodes.size(); ++k) {
      const bool bone = !base_.nodes[static_cast<std::size_t>(bnodes[k])].extras.contains("entity");
      in_bones.push_back(bone ? inodes[static_cast<std::size_t>((*match)[k])] : -1);
      base_bones.push_back(bone ? bnodes[k] : -1);
    }
    const std::vector<IncomingJoint> joints = incoming_joints(in_, in_bones, base_, base_bones);
    std::size_t bone = 0, entity = 0;
    for (std::size_t k = 0; k < bnodes.size(); ++k) {
      const Node& b = base_.nodes[static_cast<std::size_t>(bnodes[k])];
      const auto ni = static_cast<std::size_t>(inodes[static_cast<std::size_t>((*match)[k])]);
      const Node& i = in_.nodes[ni];
      const std::string where = "nodes[" + std::to_string(ni) + "]";
      const Trs& t = i.local;
      if (!finite(t.translation) || !finite(t.scale) || !std::isfinite(t.rotation.x) || !std::isfinite(t.rotation.y) ||
          !std::isfinite(t.rotation.z) || !std::isfinite(t.rotation.w)) {
        return at(where, "node " + i.name + " has a non-finite translation, rotation or scale");
      }
      const bool is_entity = b.extras.contains("entity");
      BwmBone& frame = is_entity ? out_.entities[entity].transform : out_.bones[bone];
      const IncomingJoint& j = joints[k];
      if (!is_entity && !j.translation_moved && !j.rotation_moved && !j.scale_moved) {  // Blender's noise: the stored frame stays
        ++bone;
        continue;
      }
      // Entities are roots; bones hang from the identity root: world is the frame either way (a bone's
      // with Blender's turn taken off).
      const Mat4 world = is_entity || i.parent < 0 ? iworld[ni] : iworld[static_cast<std::size_t>(i.parent)] * trs_matrix(j.local);
      const BwmBone ie = frame_of(world), be = frame_of(bworld[static_cast<std::size_t>(bnodes[k])]);
      const auto keep = [](BwmVec3& stored, const BwmVec3& incoming, const BwmVec3& base) {
        if (incoming != base) stored = incoming;
      };
      keep(frame.xaxis, ie.xaxis, be.xaxis);
      keep(frame.yaxis, ie.yaxis, be.yaxis);
      keep(frame.zaxis, ie.zaxis, be.zaxis);
      keep(frame.position, ie.position, be.position);
      if (is_entity) {
        if (i.name != b.name) {
          auto name = stored_name<256>(i.name);
          if (!name) return at(where + ".name", "entity name " + i.name + " does not fit the 255 bytes a BWM entity name holds", ErrorCode::unsupported);
          out_.entities[entity].name = *name;
        }
        ++entity;
      } else {
        ++bone;
      }
    }
    return {};
  }

  // Materials by their diffuse texture name (extras), then by name (bwm_match_materials); the diffuse
  // texture name (what the game looks the material up by) becomes the image the material shows.
  Result<void> lower_materials() {
    materials_ = bwm_match_materials(base_, in_);
    for (std::size_t k = 0; k < materials_.size(); ++k) {
      if (materials_[k] < 0) continue;
      const Material& i = in_.materials[static_cast<std::size_t>(materials_[k])];
      if (bwm_diffuse_name(in_, i) == base_.materials[k].name) continue;
      Result<BwmName64> name = bwm_stored_diffuse(in_, materials_[k]);
      if (!name) return name.error();
      out_.materials[k].diffuse = *name;
    }
    return {};
  }

  Result<void> lower_meshes() {
    // Base Scene meshes are the BWM meshes with something to draw, in order.
    std::vector<std::size_t> records;
    for (std::size_t m = 0; m < out_.meshes.size(); ++m) {
      bool draws = false;
      for (const BwmMaterialRef& r : out_.meshes[m].material_refs) {
        Result<std::vector<Triangle>> t = bwm_triangles(out_, r);
        for (const Triangle& tri : t ? *t : std::vector<Triangle>{}) draws = draws || (tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2]);
      }
      if (draws) records.push_back(m);
    }
    if (records.size() != base_.meshes.size()) {
      return at("meshes", "the base's " + std::to_string(records.size()) + " drawing mesh records lift to " + std::to_string(base_.meshes.size()) + " meshes");
    }
    Result<MeshMatch> match = match_meshes();
    if (!match) return match.error();
    Result<std::vector<int>> bones = joint_bones();
    if (!bones) return bones.error();
    owner_.assign(bwm_vertex_count(out_), -1);
    int next_id = 0;
    std::vector<std::pair<std::size_t, std::size_t>> removed;  // (mesh record, reference)
    std::vector<std::size_t> removed_meshes;  // mesh records
    for (std::size_t bm = 0; bm < base_.meshes.size(); ++bm) {
      if (!match->meshes[bm]) {
        removed_meshes.push_back(records[bm]);
        continue;
      }
      const std::size_t im = *match->meshes[bm];
      const Mesh& imesh = in_.meshes[im];
      const Mesh& bmesh = base_.meshes[bm];
      const std::string where = "meshes[" + std::to_string(im) + "]";
      if (imesh.name != bmesh.name) {
        auto name = stored_name<64>(imesh.name);
        if (!name) return at(where + ".name", "mesh name " + imesh.name + " does not fit the 63 bytes a BWM mesh name holds", ErrorCode::unsupported);
        out_.meshes[records[bm]].name = *name;
      }
      Result<RefMatch> refs = match_refs(bmesh, imesh, where);
      if (!refs) return refs.error();
      const bool skinned = bmesh.primitives[0].influences > 0;
      std::size_t kept = 0;
      for (std::size_t p = 0; p < bmesh.primitives.size(); ++p) {
        const std::size_t r = bmesh.primitives[p].extras["ref"].get<std::size_t>();
        const std::optional<std::size_t> ip = refs->refs[p];
        const std::string pwhere = where + ".primitives[" + std::to_string(ip.value_or(p)) + "]";
        if (ip) {
          if (auto e = check_incoming(imesh.primitives[*ip], skinned, *bones, pwhere); !e) return e.error();
        }
        if (!ip || drawn_triangles(imesh.primitives[*ip]).empty()) {  // a primitive left with no triangle: its reference goes
          removed.emplace_back(records[bm], r);
          continue;
        }
        ++kept;
        if (auto e = lower_primitive(bmesh.primitives[p], imesh.primitives[*ip], *bones, pwhere, next_id++, records[bm], r); !e) return e.error();
        // The reference's material: the base material the incoming one stands for.
        Result<std::uint32_t> mat = material_index(imesh.primitives[*ip].material, pwhere);
        if (!mat) return mat.error();
        BwmMaterialRef& ref = out_.meshes[records[bm]].material_refs[r];
        if (*mat != static_cast<std::uint32_t>(bmesh.primitives[p].material)) ref.material = *mat;
      }
      for (std::size_t i : refs->added) {
        const Primitive& ip = imesh.primitives[i];
        const std::string pwhere = where + ".primitives[" + std::to_string(i) + "]";
        if (auto e = check_incoming(ip, skinned, *bones, pwhere); !e) return e.error();
        if (drawn_triangles(ip).empty()) continue;  // draws nothing: nothing to add
        Result<std::uint32_t> mat = material_index(ip.material, pwhere);
        if (!mat) return mat.error();
        Result<BwmRun> run = rebuild_ref(nullptr, ip, *bones, pwhere, next_id++, records[bm]);
        if (!run) return run.error();
        rebuilt_.push_back({records[bm], std::nullopt, *mat, std::move(*run)});
        ++kept;
      }
      if (kept == 0) {  // a mesh left drawing nothing is removed
        std::erase_if(removed, [&](const auto& rr) { return rr.first == records[bm]; });
        removed_meshes.push_back(records[bm]);
      }
    }
    // New meshes last, so that their vertices follow every base mesh's new ones.
    const std::size_t first_new = out_.meshes.size();
    for (const auto& [node, mesh] : match->added) {
      if (auto e = add_mesh(node, mesh, *bones, next_id); !e) return e.error();
    }
    if (removed_meshes.size() == records.size() && out_.meshes.size() == first_new) {
      return at("meshes", "no mesh of the Scene draws a triangle: a BWM needs at least one", ErrorCode::unsupported);
    }
    // New vertices to their meshes' ranges, the runs following them.
    const std::vector<std::uint32_t> to = bwm_place_new_vertices(out_, bwm_vertex_count(base_file_), new_record_);
    for (Rebuilt& rb : rebuilt_) {
      for (std::uint16_t& i : rb.run.indices) i = static_cast<std::uint16_t>(to[i]);
      const auto [lo, hi] = std::minmax_element(rb.run.indices.begin(), rb.run.indices.end());
      rb.run.first_vertex = *lo, rb.run.last_vertex = *hi;
    }
    for (const Rebuilt& rb : rebuilt_) {
      if (rb.ref) bwm_replace_run(out_, rb.record, *rb.ref, rb.run);
    }
    for (const Rebuilt& rb : rebuilt_) {
      BwmMesh& mesh = out_.meshes[rb.record];
      if (rb.record >= first_new && mesh.material_refs.empty()) {  // a new mesh's run and vertices begin with its first reference's
        mesh.indices_offset = static_cast<std::uint32_t>(out_.indices.size());
        mesh.vertex_offset = rb.run.first_vertex;
      }
      if (!rb.ref) bwm_add_ref(out_, rb.record, rb.material, rb.run);
    }
    // Last place first, so that the places still to remove stay where they were.
    std::sort(removed.begin(), removed.end(), std::greater<>());
    for (const auto& [record, r] : removed) bwm_remove_ref(out_, record, r);
    // Each mesh's record in the base (none: a new mesh), following the records removed.
    std::vector<std::optional<std::size_t>> origin(out_.meshes.size());
    for (std::size_t m = 0; m < first_new; ++m) origin[m] = m;
    std::sort(removed_meshes.begin(), removed_meshes.end(), std::greater<>());
    for (std::size_t record : removed_meshes) {
      bwm_remove_mesh(out_, record);
      origin.erase(origin.begin() + static_cast<std::ptrdiff_t>(record));
    }
    bwm_remove_undrawn_materials(base_file_, base_, out_, warnings_);
    // Only a moved, new or no longer drawn vertex moves an extent: decoding every vertex twice is
    // most of an unedited import's time otherwise.
    if (!moved_ && rebuilt_.empty() && removed.empty() && removed_meshes.empty()) return {};
    return bwm_refit_extents(base_file_, in_.extras, origin, out_);
  }

  // A drawn mesh no base mesh stands for: a new record after the base's, in model space like
  // authoring's, each primitive a new reference over new vertices (its node's transform applied, but
  // on a skin, whose vertices follow their bones).
  Result<void> add_mesh(int node, std::size_t m, const std::vector<int>& bones, int& next_id) {
    const Mesh& imesh = in_.meshes[m];
    const std::string where = "meshes[" + std::to_string(m) + "]";
    BwmMesh record;
    auto name = stored_name<64>(imesh.name);
    if (!name) return at(where + ".name", "mesh name " + imesh.name + " does not fit the 63 bytes a BWM mesh name holds", ErrorCode::unsupported);
    record.name = *name;
    bwm_model_space(record);
    record.vertex_offset = bwm_vertex_count(base_file_);  // new vertices go after every base mesh's
    out_.meshes.push_back(record);
    const std::size_t at_record = out_.meshes.size() - 1;
    const bool skinned = !base_.skins.empty();
    const Mat4 world = world_matrices(in_)[static_cast<std::size_t>(node)];
    for (std::size_t p = 0; p < imesh.primitives.size(); ++p) {
      const std::string pwhere = where + ".primitives[" + std::to_string(p) + "]";
      Primitive ip = imesh.primitives[p];
      if (auto e = check_incoming(ip, skinned, bones, pwhere); !e) return e.error();
      if (drawn_triangles(ip).empty()) continue;  // draws nothing: nothing to add
      Result<std::uint32_t> mat = material_index(ip.material, pwhere);
      if (!mat) return mat.error();
      if (!skinned && !(world == Mat4::identity())) {
        if (!finite(world)) return at("nodes[" + std::to_string(node) + "]", "the node's world matrix is not finite");
        for (Vec3& q : ip.positions) q = transform_point(world, q);
        for (Vec3& q : ip.normals) q = normalize(transform_direction(world, q));
      }
      Result<BwmRun> run = rebuild_ref(nullptr, ip, bones, pwhere, next_id++, at_record);
      if (!run) return run.error();
      rebuilt_.push_back({at_record, std::nullopt, *mat, std::move(*run)});
    }
    if (std::none_of(rebuilt_.begin(), rebuilt_.end(), [&](const Rebuilt& rb) { return rb.record == at_record; })) out_.meshes.pop_back();  // draws nothing
    return {};
  }

  // The incoming mesh standing for each base mesh (none: removed) and the meshes no base mesh stands
  // for (added), over the meshes nodes draw, in node order (a mesh drawn by several nodes stands for
  // one base mesh at most; each other node draws a copy): by name when every base name is found once,
  // else by order when the counts agree (renames, with a warning); else each base mesh by the first
  // drawn mesh of its name left (none: removed). When the counts differ and no name is found, which
  // meshes went or came cannot be told.
  Result<MeshMatch> match_meshes() {
    std::vector<std::pair<int, std::size_t>> drawn;  // (node, mesh)
    for (std::size_t n = 0; n < in_.nodes.size(); ++n) {
      const int m = in_.nodes[n].mesh;
      if (m < 0) continue;
      if (static_cast<std::size_t>(m) >= in_.meshes.size()) return at("nodes[" + std::to_string(n) + "].mesh", "mesh " + std::to_string(m) + " does not exist");
      drawn.emplace_back(static_cast<int>(n), static_cast<std::size_t>(m));
    }
    std::vector<std::vector<std::string>> bkeys, ikeys;
    for (const Mesh& m : base_.meshes) bkeys.push_back({m.name});
    for (const auto& d : drawn) ikeys.push_back({in_.meshes[d.second].name});
    bool by_order = false;
    std::optional<std::vector<int>> match = match_keys(bkeys, ikeys, by_order);
    if (by_order) warnings_.push_back({"meshes", "mesh names do not match the base's: matched by order"});
    if (!match) {
      match.emplace();
      std::vector<bool> taken(ikeys.size(), false);
      for (const auto& k : bkeys) {
        const auto it = std::find_if(ikeys.begin(), ikeys.end(), [&](const auto& i) { return i == k && !taken[static_cast<std::size_t>(&i - ikeys.data())]; });
        match->push_back(it == ikeys.end() ? -1 : static_cast<int>(it - ikeys.begin()));
        if (it != ikeys.end()) taken[static_cast<std::size_t>(it - ikeys.begin())] = true;
      }
      if (std::find(taken.begin(), taken.end(), true) == taken.end() && !drawn.empty()) {
        return at("meshes", "the Scene's " + std::to_string(drawn.size()) + " drawn meshes are not the base's " + std::to_string(bkeys.size()) +
                                " and none has a base mesh's name: which meshes were added or removed cannot be told", ErrorCode::unsupported);
      }
    }
    MeshMatch out;
    std::vector<bool> taken(drawn.size(), false);
    for (int k : *match) {
      if (k >= 0) taken[static_cast<std::size_t>(k)] = true;
      out.meshes.push_back(k < 0 ? std::nullopt : std::optional<std::size_t>(drawn[static_cast<std::size_t>(k)].second));
    }
    for (std::size_t k = 0; k < drawn.size(); ++k) {
      if (!taken[k]) out.added.push_back(drawn[k]);
    }
    return out;
  }

  // The base material an incoming one stands for.
  std::optional<std::uint32_t> base_material(int incoming) const {
    const auto it = std::find(materials_.begin(), materials_.end(), incoming);
    if (incoming < 0 || it == materials_.end()) return std::nullopt;
    return static_cast<std::uint32_t>(it - materials_.begin());
  }

  // The material definition a drawn primitive's material is stored as: the base's it stands for, else
  // one added after the file's (once per incoming material).
  Result<std::uint32_t> material_index(int incoming, const std::string& where) {
    if (const std::optional<std::uint32_t> m = base_material(incoming)) return *m;
    if (incoming < 0 || static_cast<std::size_t>(incoming) >= in_.materials.size()) {
      return at(where + ".material", "the primitive has no material: a BWM reference draws one of the file's material definitions", ErrorCode::unsupported);
    }
    if (const auto it = added_materials_.find(incoming); it != added_materials_.end()) return it->second;
    Result<BwmMaterial> made = bwm_new_material(in_, incoming, out_);
    if (!made) return made.error();
    out_.materials.push_back(*made);
    const auto index = static_cast<std::uint32_t>(out_.materials.size() - 1);
    added_materials_.emplace(incoming, index);
    warnings_.push_back({"materials[" + std::to_string(incoming) + "]", "\"" + in_.materials[static_cast<std::size_t>(incoming)].name +
                                                                         "\" is none of the base's materials: added as material " + std::to_string(index) +
                                                                         " with diffuse texture \"" + bwm_diffuse_name(in_, in_.materials[static_cast<std::size_t>(incoming)]) +
                                                                         "\" (the game loads the image by that name)"});
    return index;
  }

  // By the "ref" extra: a reference no primitive names is removed, a primitive naming none is added.
  // Without it, by order when the mesh has at least the base's primitives (those past them are
  // added); with fewer, by material when each material keeps all its references or none (those it
  // lost are removed); else which reference went cannot be told.
  Result<RefMatch> match_refs(const Mesh& bmesh, const Mesh& imesh, const std::string& where) {
    RefMatch out;
    out.refs.assign(bmesh.primitives.size(), std::nullopt);
    std::vector<bool> named(imesh.primitives.size(), false);
    std::size_t keyed = 0;
    for (std::size_t i = 0; i < imesh.primitives.size(); ++i) {
      const Extras& e = imesh.primitives[i].extras;
      if (!e.is_object() || !e.contains("ref") || !e["ref"].is_number_integer()) continue;
      for (std::size_t k = 0; k < bmesh.primitives.size() && !named[i]; ++k) {
        if (!out.refs[k] && bmesh.primitives[k].extras["ref"] == e["ref"]) out.refs[k] = i, named[i] = true, ++keyed;
      }
    }
    const auto unnamed_are_added = [&] {
      for (std::size_t i = 0; i < named.size(); ++i) {
        if (!named[i]) out.added.push_back(i);
      }
    };
    const std::string counts = "mesh " + imesh.name + " has " + std::to_string(imesh.primitives.size()) + " primitives where the base has " +
                               std::to_string(bmesh.primitives.size()) + " material references";
    if (keyed > 0) {
      unnamed_are_added();
      return out;
    }
    if (imesh.primitives.size() >= bmesh.primitives.size()) {
      for (std::size_t k = 0; k < bmesh.primitives.size(); ++k) out.refs[k] = k, named[k] = true;
      unnamed_are_added();
      if (!out.added.empty()) {
        warnings_.push_back({where, counts + " and none names its reference (extras.ref): the first " + std::to_string(bmesh.primitives.size()) +
                                        " stand for them in order, the " + std::to_string(out.added.size()) + " after them are added"});
      }
      return out;
    }
    std::map<std::uint32_t, std::vector<std::size_t>> base_of, in_of;  // base material -> its primitives on each side
    for (std::size_t k = 0; k < bmesh.primitives.size(); ++k) base_of[static_cast<std::uint32_t>(bmesh.primitives[k].material)].push_back(k);
    const std::string untold = counts + ", and none names its reference (extras.ref): which is removed cannot be told";
    for (std::size_t i = 0; i < imesh.primitives.size(); ++i) {
      const std::optional<std::uint32_t> m = base_material(imesh.primitives[i].material);
      if (!m || !base_of.contains(*m)) return at(where, untold + " (primitive " + std::to_string(i) + " draws a material none of them draws)", ErrorCode::unsupported);
      in_of[*m].push_back(i);
    }
    std::string gone;
    for (const auto& [m, ks] : base_of) {
      const auto it = in_of.find(m);
      const std::string name = base_.materials[m].name;
      if (it == in_of.end()) {
        gone += (gone.empty() ? "" : ", ") + name;
        continue;
      }
      if (it->second.size() != ks.size()) {
        return at(where, untold + " (material " + name + " is drawn by " + std::to_string(ks.size()) + " references and " +
                             std::to_string(it->second.size()) + " primitives)", ErrorCode::unsupported);
      }
      for (std::size_t j = 0; j < ks.size(); ++j) out.refs[ks[j]] = it->second[j];
    }
    warnings_.push_back({where, counts + " and none names its reference (extras.ref): matched by material; the references drawing " + gone + " are removed"});
    return out;
  }

  // The base bone each incoming skin joint stands for: by name, else by place in the skin.
  Result<std::vector<int>> joint_bones() {
    std::vector<int> out;
    if (base_.skins.empty() || in_.skins.empty()) return out;
    std::vector<std::vector<std::string>> bkeys, ikeys;
    // Keyed from the incoming side: for each incoming joint, the base bone.
    for (int j : in_.skins[0].joints) {
      if (j < 0 || static_cast<std::size_t>(j) >= in_.nodes.size()) return at("skins[0].joints", "a joint is not a node");
      bkeys.push_back({in_.nodes[static_cast<std::size_t>(j)].name});
    }
    for (int j : base_.skins[0].joints) ikeys.push_back({base_.nodes[static_cast<std::size_t>(j)].name});
    bool by_order = false;
    std::optional<std::vector<int>> m = match_keys(bkeys, ikeys, by_order);
    if (!m) {
      return at("skins[0].joints", "the skin's " + std::to_string(bkeys.size()) + " joints match neither the names nor the count of the base's " +
                                                std::to_string(ikeys.size()) + " bones (adding or removing bones is not supported)", ErrorCode::unsupported);
    }
    if (by_order) warnings_.push_back({"skins[0]", "joint names do not match the base's: matched by order"});
    return *m;
  }

  // An incoming primitive's arrays: sized for its vertices, finite, its indices and joints in range;
  // its vertex colours named in a warning (no BWM stride attribute holds a colour).
  Result<void> check_incoming(const Primitive& ip, bool skinned, const std::vector<int>& bones, const std::string& where) {
    if (ip.topology != Topology::triangles && ip.topology != Topology::triangle_strip && ip.topology != Topology::triangle_fan) {
      return at(where + ".mode", "points and lines cannot be drawn by a BWM (triangles only)", ErrorCode::unsupported);
    }
    const std::size_t n = ip.vertex_count();
    const auto sized = [&](std::size_t have, std::size_t per, const char* what) -> Result<void> {
      if (have == 0 || have == n * per) return {};
      return at(where + "." + what, std::to_string(have) + " values for " + std::to_string(n) + " vertices");
    };
    if (auto e = sized(ip.normals.size(), 1, "normals"); !e) return e.error();
    for (std::size_t s = 0; s < ip.uvs.size(); ++s) {
      if (auto e = sized(ip.uvs[s].size(), 1, "uvs"); !e) return e.error();
    }
    if (auto e = sized(ip.joints.size(), ip.influences, "joints"); !e) return e.error();
    if (auto e = sized(ip.weights.size(), ip.influences, "weights"); !e) return e.error();
    for (std::uint32_t i : ip.indices) {
      if (i >= n) return at(where + ".indices", "index " + std::to_string(i) + " is past the " + std::to_string(n) + " vertices");
    }
    for (std::size_t v = 0; v < n; ++v) {
      if (!finite(ip.positions[v])) return at(where + ".positions", "vertex " + std::to_string(v) + "'s position is not finite");
      if (!ip.normals.empty() && !finite(ip.normals[v])) return at(where + ".normals", "vertex " + std::to_string(v) + "'s normal is not finite");
      for (const auto& set : ip.uvs) {
        if (!std::isfinite(set[v].x) || !std::isfinite(set[v].y)) return at(where + ".uvs", "vertex " + std::to_string(v) + "'s UV is not finite");
      }
    }
    for (std::size_t k = 0; k < ip.weights.size(); ++k) {
      if (!std::isfinite(ip.weights[k]) || ip.weights[k] < 0) return at(where + ".weights", "weight " + std::to_string(k) + " is negative or not finite");
      if (skinned && ip.weights[k] > 0 && ip.joints[k] >= bones.size()) {
        return at(where + ".joints", "joint " + std::to_string(ip.joints[k]) + " is past the skin's " + std::to_string(bones.size()) + " joints");
      }
    }
    if (std::any_of(ip.colors.begin(), ip.colors.end(), [](const Vec4& c) { return !(c == Vec4{1, 1, 1, 1}); })) {
      warnings_.push_back({where + ".colors", "the primitive's vertex colours are dropped: a BWM vertex holds none (no stride attribute stores a colour)"});
    }
    return {};
  }

  // One warning per primitive for the vertices whose weights the 4 bone slots narrowed, then reset.
  void warn_narrowed(const std::string& where) {
    if (narrowed_ == 0) return;
    warnings_.push_back({where + ".weights", bwm_narrowed_message(narrowed_, narrowed_most_)});
    narrowed_ = 0;
    narrowed_most_ = 0;
  }

  // A vertex narrowed to 4 bones, losing `dropped` of its weight.
  void count_narrowed(float dropped) {
    ++narrowed_;
    narrowed_most_ = std::max(narrowed_most_, dropped);
  }

  Result<void> lower_primitive(const Primitive& bp, const Primitive& ip, const std::vector<int>& bones, const std::string& where, int id,
                                       std::size_t record, std::size_t r) {
    std::optional<std::vector<std::uint32_t>> match = match_vertices(bp, ip);
    if (!match) {
      Result<BwmRun> run = rebuild_ref(&bp, ip, bones, where, id, record);
      if (!run) return run.error();
      rebuilt_.push_back({record, r, 0, std::move(*run)});
      return {};
    }
    const std::size_t first = bp.extras["vertex_first"].get<std::size_t>();
    for (std::size_t v = 0; v < match->size(); ++v) {
      const std::uint32_t m = (*match)[v];
      if (m == kUnmatched) continue;
      const std::size_t g = first + v;  // the vertex in the file's arrays
      bool wrote = false;
      const auto put3 = [&](const std::optional<Place>& p, const BwmVec3& in, const BwmVec3& base) {
        if (!p || in == base) return;
        for (std::size_t k = 0; k < 3; ++k) put_f32(out_, *p, g, k, in[k]);
        wrote = true;
      };
      // Within Blender's noise of the base's value, a value is the base's (match.hpp).
      const bool kept_position = position_within_noise(bp.positions[v], ip.positions[m]);
      moved_ = moved_ || (places_.position && !kept_position);
      if (!kept_position) put3(places_.position, to_bwm(ip.positions[m]), to_bwm(bp.positions[v]));
      if (!ip.normals.empty() && !bp.normals.empty() && !normal_within_noise(bp.normals[v], ip.normals[m])) {
        put3(places_.normal, to_bwm(normalize(ip.normals[m])), to_bwm(bp.normals[v]));
      }
      for (std::size_t s = 0; s < places_.uv_sets.size() && s < ip.uvs.size() && s < bp.uvs.size(); ++s) {
        const Vec2 a = ip.uvs[s][m], b = bp.uvs[s][v];
        if (uv_within_noise(b, a)) continue;
        put_f32(out_, places_.uv_sets[s], g, 0, a.x);
        put_f32(out_, places_.uv_sets[s], g, 1, a.y);
        wrote = true;
      }
      if (bp.influences > 0 && ip.influences > 0) {
        if (auto e = lower_weights(bp, v, ip, m, bones, g, where, wrote); !e) return e.error();
      }
      if (wrote) {
        if (owner_[g] >= 0 && owner_[g] != id) {
          return at(where, "vertex " + std::to_string(g) + " is shared with another material reference that changes it differently", ErrorCode::unsupported);
        }
        owner_[g] = id;
      }
    }
    warn_narrowed(where);
    return {};
  }

  // A primitive whose triangles changed, or one added: its reference's indices as the file draws them (a
  // list for a model, one strip for a skin: bwm_index_run), over the base's vertex where an incoming
  // vertex holds the same values (a changed primitive's `bp`) and over a new vertex after the file's
  // others where none does. The runs are placed once every primitive is lowered.
  Result<BwmRun> rebuild_ref(const Primitive* bp, const Primitive& ip, const std::vector<int>& bones, const std::string& where, int id,
                             std::size_t record) {
    const std::vector<std::uint32_t> tris = drawn_triangles(ip);
    if (!places_.position) return at("strides", "no stride holds vertex positions (attribute 0 as f32x3): a new vertex cannot be stored", ErrorCode::unsupported);
    for (std::size_t s = 0; s < out_.strides.size(); ++s) {
      for (const BwmAttribute& a : out_.strides[s].attributes) {
        const bool known = (a.id <= 1 && a.format == BwmFormat::f32x3) || (a.id == 2 && a.format == BwmFormat::f32x2) ||
                           (a.id == 6 && a.format == BwmFormat::u8) || (a.id == 7 && a.format == BwmFormat::f32);
        if (!known) {
          return at(where, "stride " + std::to_string(s) + " holds attribute " + std::to_string(a.id) + " (format " +
                                        std::to_string(static_cast<std::uint32_t>(a.format)) + "), which a new vertex cannot be given: the topology cannot change", ErrorCode::unsupported);
        }
      }
    }
    if (!places_.joints.empty() && (bones.empty() || ip.influences == 0)) {
      return at(where + ".joints", "the base is a skin: the primitive's new vertices need joints and weights", ErrorCode::unsupported);
    }
    const std::size_t first = bp ? bp->extras["vertex_first"].get<std::size_t>() : 0;
    // Base vertices by position, to find one holding an incoming vertex's values.
    std::multimap<std::array<float, 3>, std::uint32_t> at;
    for (std::uint32_t v = 0; bp && v < bp->vertex_count(); ++v) at.emplace(std::array<float, 3>{bp->positions[v].x, bp->positions[v].y, bp->positions[v].z}, v);
    const std::vector<Vec3> smooth = ip.normals.empty() && places_.normal ? smooth_normals(ip.positions, tris) : std::vector<Vec3>{};
    std::vector<std::uint32_t> local(ip.vertex_count(), kUnmatched), used, over_local(tris.size());
    for (std::size_t k = 0; k < tris.size(); ++k) {
      const std::uint32_t i = tris[k];
      if (local[i] == kUnmatched) {
        std::optional<std::size_t> g;
        const auto [lo, hi] = at.equal_range({ip.positions[i].x, ip.positions[i].y, ip.positions[i].z});
        for (auto it = lo; it != hi && !g; ++it) {
          const std::size_t file = first + it->second;
          if (same_vertex(*bp, it->second, ip, i) && (owner_[file] < 0 || owner_[file] == id)) g = file;
        }
        if (!g) {
          auto added = add_vertex(ip, i, smooth, bones, where, record);
          if (!added) return added.error();
          g = *added;
        }
        owner_[*g] = id;  // drawn as it is: another primitive changing it is an error
        local[i] = static_cast<std::uint32_t>(used.size());
        used.push_back(static_cast<std::uint32_t>(*g));
      }
      over_local[k] = local[i];
    }
    warn_narrowed(where);
    BwmIndexRun run = bwm_index_run(over_local, used.size(), out_.type == 3);
    BwmRun out{{}, run.indices_size, run.faces_size, *std::min_element(used.begin(), used.end()), *std::max_element(used.begin(), used.end())};
    for (std::uint32_t i : run.indices) out.indices.push_back(static_cast<std::uint16_t>(used[i]));
    return out;
  }

  // Incoming vertex i as a new record after the file's vertices, in every stride (attributes the
  // incoming primitive lacks: smooth normals, zero UVs); its index in the file.
  Result<std::size_t> add_vertex(const Primitive& ip, std::size_t i, const std::vector<Vec3>& smooth, const std::vector<int>& bones,
                                 const std::string& where, std::size_t record) {
    const std::size_t g = bwm_vertex_count(out_);
    if (g >= kBwmMaxVertices) {
      return at(where, "the file would hold more than 65,535 vertices: a BWM's u16 indices number every vertex of its one vertex array", ErrorCode::unsupported);
    }
    for (BwmStride& s : out_.strides) s.vertices.resize(s.vertices.size() + s.size(), 0);
    owner_.push_back(-1);
    new_record_.push_back(record);
    const auto put3 = [&](const Place& p, const BwmVec3& v) {
      for (std::size_t k = 0; k < 3; ++k) put_f32(out_, p, g, k, v[k]);
    };
    put3(*places_.position, to_bwm(ip.positions[i]));
    if (places_.normal) put3(*places_.normal, to_bwm(normalize(ip.normals.empty() ? smooth[i] : ip.normals[i])));
    for (std::size_t s = 0; s < places_.uv_sets.size(); ++s) {
      const Vec2 uv = s < ip.uvs.size() ? ip.uvs[s][i] : Vec2{0, 0};
      put_f32(out_, places_.uv_sets[s], g, 0, uv.x);
      put_f32(out_, places_.uv_sets[s], g, 1, uv.y);
    }
    if (places_.joints.empty()) return g;
    bool cut = false;
    auto strongest = strongest_joints(ip, i, bones.size(), std::min(places_.joints.size(), places_.weights.size()), where, cut);
    if (!strongest) return strongest.error();
    if (cut) count_narrowed(bwm_dropped_weight(ip, i, *strongest));
    for (std::size_t k = 0; k < strongest->size(); ++k) {
      const int bone = bones[static_cast<std::size_t>((*strongest)[k].second)];
      if (bone < 0 || bone > 0xFF) return at(where + ".joints", "vertex " + std::to_string(i) + " weighs a joint no BWM bone index (a byte) names", ErrorCode::unsupported);
      const Place& p = places_.joints[k];
      out_.strides[p.stride].vertices[g * out_.strides[p.stride].size() + p.offset] = static_cast<std::uint8_t>(bone);
      put_f32(out_, places_.weights[k], g, 0, (*strongest)[k].first);
    }
    return g;
  }

  // Four bone indices (u8) and four f32 weights per vertex: the strongest four, renormalised.
  Result<void> lower_weights(const Primitive& bp, std::size_t v, const Primitive& ip, std::size_t m, const std::vector<int>& bones,
                                     std::size_t g, const std::string& where, bool& wrote) {
    std::map<int, float> in, base;
    for (std::size_t k = 0; k < ip.influences; ++k) {
      const float w = ip.weights[m * ip.influences + k];
      if (w > 0) in[bones[ip.joints[m * ip.influences + k]]] += w;
    }
    for (std::size_t k = 0; k < bp.influences; ++k) {
      const float w = bp.weights[v * bp.influences + k];
      if (w > 0) base[bp.joints[v * bp.influences + k]] += w;
    }
    if (in == base) return {};
    std::vector<std::pair<int, float>> strongest(in.begin(), in.end());
    // A full order (weight, then bone) with std::sort: see scene/mhfu/lower.cpp on stable_sort under ASan.
    std::sort(strongest.begin(), strongest.end(), [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    if (strongest.size() > 4) {
      float total = 0, kept = 0;
      for (std::size_t k = 0; k < strongest.size(); ++k) total += strongest[k].second, kept += k < 4 ? strongest[k].second : 0.0f;
      count_narrowed(1.0f - kept / total);
      strongest.resize(4);
    }
    if (strongest.empty()) return at(where + ".weights", "vertex " + std::to_string(m) + " weighs no joint");
    if (places_.joints.size() < strongest.size() || places_.weights.size() < strongest.size()) {
      return at(where + ".weights", "vertex " + std::to_string(m) + " weighs " + std::to_string(strongest.size()) + " bones where the base's strides store " +
                                                 std::to_string(std::min(places_.joints.size(), places_.weights.size())), ErrorCode::unsupported);
    }
    float sum = 0;
    for (const auto& s : strongest) sum += s.second;
    for (std::size_t k = 0; k < places_.joints.size() || k < places_.weights.size(); ++k) {
      const bool used = k < strongest.size();
      if (k < places_.joints.size()) {
        const Place& p = places_.joints[k];
        BwmStride& s = out_.strides[p.stride];
        s.vertices[g * s.size() + p.offset] = used ? static_cast<std::uint8_t>(strongest[k].first) : 0;
      }
      if (k < places_.weights.size()) put_f32(out_, places_.weights[k], g, 0, used ? strongest[k].second / sum : 0.0f);
    }
    wrote = true;
    return {};
  }

  const Scene& in_;
  const Scene& base_;
  const Bwm& base_file_;
  Bwm& out_;
  std::vector<Warning>& warnings_;
  Places places_;
  std::vector<int> materials_;  // base material -> incoming material (-1: none)
  std::map<int, std::uint32_t> added_materials_;  // incoming material -> the definition added for it
  std::vector<int> owner_;      // per file vertex: the primitive that rewrote it
  std::vector<Rebuilt> rebuilt_;
  bool moved_ = false;                   // a base vertex's position was rewritten
  std::size_t narrowed_ = 0;             // the primitive's vertices narrowed to 4 bones so far
  float narrowed_most_ = 0;              // the largest share of its weight one of them lost
  std::vector<std::size_t> new_record_;  // per vertex added: the mesh record whose reference added it
};

}  // namespace

Result<Lowered> lower_bwm(const Scene& scene, const Bwm& base, const LowerInputs& inputs) {
  static_cast<void>(inputs);  // a BWM needs nothing beside it
  Result<Scene> lifted = lift_bwm(base, {});
  if (!lifted) return lifted.error();
  Lowered out{Document{base}, {}};
  Lowerer lowerer(scene, *lifted, base, std::get<Bwm>(out.document), out.warnings);
  if (auto e = lowerer.run(); !e) return e.error();
  return out;
}

}  // namespace remodel::scene
