// A new Black & White 2 BWM from a Scene alone (issue 17): version 6 (or 5), a mesh description per
// drawn mesh node, a material reference per primitive, one vertex array in strides (position, normal
// and UV sets in stride 0; a skin's 4 bone indices and 4 weights in strides 1-8, as skins store them),
// u16 indices as triangle lists (models) or one strip per reference (skins), bones from the skin,
// entities from empty nodes. Values no Scene gives are chosen as lib/scene/bwm/README.md says.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <span>
#include <string>

#include <meshoptimizer.h>

#include "scene/bwm/space.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene/palette_influences.hpp"
#include "scene/skin_joints.hpp"

namespace remodel::scene {

namespace {

constexpr std::size_t kMaxBones = 256;       // a vertex names its bones by a byte
constexpr std::size_t kMaxUvSets = 3;        // texture, lightmap and the third set the notes name
constexpr std::size_t kInfluences = 4;       // a skin's strides 1-4 (bone indices) and 5-8 (weights)
constexpr std::uint32_t kModel = 2, kSkin = 3;

void put_f32(Bytes& out, float f) {
  const auto bits = std::bit_cast<std::uint32_t>(f);
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));  // BWM is little-endian
}

// The file's one vertex array, attribute by attribute, in BWM space.
struct Vertices {
  std::vector<BwmVec3> positions, normals;
  std::vector<std::vector<std::array<float, 2>>> uv_sets;
  std::vector<std::array<std::uint8_t, kInfluences>> joints;
  std::vector<std::array<float, kInfluences>> weights;
};

struct Draw {
  int node = -1;
  const Mesh* mesh = nullptr;
};

class Author {
 public:
  Author(const Scene& scene, std::uint32_t version, const Bwm* game, std::vector<Warning>& warnings)
      : scene_(scene), world_(world_matrices(scene)), warnings_(warnings), game_(game) {
    out_.version = version;
    const char id[] = "LiOnHeAdMODEL";
    std::copy(id, id + sizeof id - 1, out_.identifier.begin());
  }

  Result<Bwm> run() {
    if (auto e = find_draws(); !e) return e.error();
    if (auto e = author_bones(); !e) return e.error();
    author_entities();
    // Attributes every vertex stores: normals when any primitive has them, up to 3 UV sets.
    for (const Draw& d : draws_) {
      for (const Primitive& p : d.mesh->primitives) {
        has_normals_ = has_normals_ || !p.normals.empty();
        uv_sets_ = std::max(uv_sets_, std::min(kMaxUvSets, p.uvs.size()));
      }
    }
    vertices_.uv_sets.resize(uv_sets_);
    for (const Draw& d : draws_) {
      if (auto e = author_mesh(d); !e) return e.error();
    }
    if (out_.meshes.empty()) return at("meshes", "no primitive draws a triangle: a BWM needs at least one", ErrorCode::unsupported);
    author_strides();
    bwm_store_extent(out_, bwm_extent(vertices_.positions));
    return std::move(out_);
  }

 private:
  // Visible mesh nodes; one skin over all of them or none (a BWM is a model or a skin).
  Result<void> find_draws() {
    auto drawn = drawn_nodes(scene_, "a BWM", "a BWM skin has one set of bones",
                             "a BWM is a model or a skin, and every vertex of a skin follows its bones");
    if (!drawn) return drawn.error();
    skin_ = drawn->skin;
    for (int d : drawn->nodes) draws_.push_back({d, &scene_.meshes[static_cast<std::size_t>(scene_.nodes[static_cast<std::size_t>(d)].mesh)]});
    return {};
  }

  // One bone per skin joint, in skin order (a vertex's bone index is its glTF joint index): the joint's
  // world matrix, the pose the glTF shows; vertices are skinned to it (a BWM keeps no inverse binds).
  Result<void> author_bones() {
    if (skin_ < 0) return {};
    const Skin& skin = scene_.skins[static_cast<std::size_t>(skin_)];
    const std::string where = "skins[" + std::to_string(skin_) + "]";
    if (skin.joints.size() > kMaxBones) {
      return at(where + ".joints", "the skin has " + std::to_string(skin.joints.size()) + " joints but a BWM vertex names its bones by a byte (at most 256)",
                ErrorCode::unsupported);
    }
    auto joints = skin_joints_parents_first(scene_, skin_);  // the skin's checks; a BWM keeps no hierarchy
    if (!joints) return joints.error();
    auto rest = rest_pose(scene_, skin_, world_);
    if (!rest) return rest.error();
    rest_ = std::move(*rest);
    for (std::size_t s = 0; s < skin.joints.size(); ++s) {
      const int node = skin.joints[s];
      const Mat4& w = world_[static_cast<std::size_t>(node)];
      if (!finite(w)) return at("nodes[" + std::to_string(node) + "]", "joint " + std::to_string(s) + " has a non-finite transform");
      out_.bones.push_back(frame_of(w));
    }
    // On a game file's skeleton (the skin bound to its bones, in its order): its own bone records, as
    // stored (the lifted frames' TRS would round them off).
    if (game_ != nullptr) {
      if (game_->bones.size() != out_.bones.size()) {
        return at(where + ".joints", "the skin has " + std::to_string(out_.bones.size()) + " joints but the skeleton file has " + std::to_string(game_->bones.size()) + " bones");
      }
      out_.bones = game_->bones;
    }
    return {};
  }

  // Empty leaf nodes (no mesh, no children, not a joint): markers the game finds by name.
  void author_entities() {
    std::vector<bool> joint(scene_.nodes.size(), false);
    for (const Skin& s : scene_.skins) {
      for (int j : s.joints) {
        if (j >= 0 && static_cast<std::size_t>(j) < joint.size()) joint[static_cast<std::size_t>(j)] = true;
      }
    }
    for (std::size_t i = 0; i < scene_.nodes.size(); ++i) {
      const Node& n = scene_.nodes[i];
      if (n.mesh >= 0 || !n.children.empty() || joint[i] || !n.visible || !finite(world_[i])) continue;
      BwmEntity e;
      e.transform = frame_of(world_[i]);
      e.name = name_field<256>(n.name, "nodes[" + std::to_string(i) + "].name", "entity");
      out_.entities.push_back(e);
    }
  }

  template <std::size_t N>
  std::array<std::uint8_t, N> name_field(const std::string& name, const std::string& where, const char* what) {
    bool cut = false;
    auto out = bwm_name<N>(name, cut);
    if (cut) warnings_.push_back({where, std::string(what) + " name " + name + " is cut to " + std::to_string(N - 1) + " bytes (a BWM " + what + " name holds " + std::to_string(N - 1) + ")"});
    return out;
  }

  // The material definition a primitive's material stands for, in order of first use; its diffuse
  // texture name is the image it shows (what the game loads), else the material's; a skin's type SKIN.
  std::uint32_t material_of(int m) {
    if (auto it = materials_.find(m); it != materials_.end()) return it->second;
    BwmMaterial mat;
    if (m >= 0) mat.diffuse = name_field<64>(bwm_diffuse_name(scene_, scene_.materials[static_cast<std::size_t>(m)]), "materials[" + std::to_string(m) + "]", "texture");
    if (skin_ >= 0) mat.type = name_field<64>("SKIN", "materials", "type");  // the type skins store (tests/bwm_golden.hpp, issue 30)
    out_.materials.push_back(mat);
    const auto index = static_cast<std::uint32_t>(out_.materials.size() - 1);
    materials_.emplace(m, index);
    return index;
  }

  Result<void> author_mesh(const Draw& d) {
    const Node& node = scene_.nodes[static_cast<std::size_t>(d.node)];
    const std::string mesh_where = "meshes[" + std::to_string(node.mesh) + "]";
    BwmMesh mesh;
    const std::string& name = !d.mesh->name.empty() ? d.mesh->name : node.name;
    mesh.name = name_field<64>(name, mesh_where + ".name", "mesh");
    bwm_model_space(mesh);
    const std::size_t first_vertex = vertices_.positions.size(), first_index = out_.indices.size();
    for (std::size_t p = 0; p < d.mesh->primitives.size(); ++p) {
      const std::string where = mesh_where + ".primitives[" + std::to_string(p) + "]";
      auto ref = author_primitive(d, d.mesh->primitives[p], where);
      if (!ref) return ref.error();
      if (ref->indices_size == 0) continue;  // draws nothing
      mesh.faces_count += ref->faces_size;
      mesh.indices_size += ref->indices_size;
      mesh.material_refs.push_back(*ref);
    }
    if (mesh.material_refs.empty()) return {};
    mesh.indices_offset = static_cast<std::uint32_t>(first_index);
    mesh.vertex_offset = static_cast<std::uint32_t>(first_vertex);
    mesh.vertex_size = static_cast<std::uint32_t>(vertices_.positions.size() - first_vertex);
    bwm_store_extent(mesh, bwm_extent(std::span(vertices_.positions).subspan(first_vertex, mesh.vertex_size)));
    out_.meshes.push_back(std::move(mesh));
    return {};
  }

  // The primitive's drawn vertices appended to the vertex array (in their glTF order), its triangles
  // to the indices: a list for a model, one strip for a skin; windings reversed (z is mirrored).
  Result<BwmMaterialRef> author_primitive(const Draw& d, const Primitive& src, const std::string& where) {
    if (src.topology != Topology::triangles && src.topology != Topology::triangle_strip && src.topology != Topology::triangle_fan) {
      return at(where + ".mode", "points and lines cannot be drawn by a BWM (triangles only)", ErrorCode::unsupported);
    }
    if (auto e = check_primitive(src, where); !e) return e.error();
    if (src.material >= 0 && static_cast<std::size_t>(src.material) >= scene_.materials.size()) {
      return at(where + ".material", "material " + std::to_string(src.material) + " does not exist");
    }
    const std::vector<std::uint32_t> tris = drawn_triangles(src);
    BwmMaterialRef ref;
    if (tris.empty()) return ref;
    if (src.uvs.size() > kMaxUvSets) {
      warnings_.push_back({where, "the primitive has " + std::to_string(src.uvs.size()) + " UV sets but a BWM vertex holds 3 (texture, lightmap and a "
                                  "third): the material's set and the first others, 3 in all, are kept"});
    }
    if (std::any_of(src.colors.begin(), src.colors.end(), [](const Vec4& c) { return !(c == Vec4{1, 1, 1, 1}); })) {
      warnings_.push_back({where, "the primitive's vertex colours are dropped: a BWM vertex holds none"});
    }
    // UV sets: the one the material's texture uses first (a BWM's first set is the diffuse texture's),
    // then the others in order.
    std::vector<std::size_t> sets;
    const int material_set = src.material >= 0 ? scene_.materials[static_cast<std::size_t>(src.material)].uv_set : 0;
    if (material_set > 0 && static_cast<std::size_t>(material_set) < src.uvs.size()) sets.push_back(static_cast<std::size_t>(material_set));
    for (std::size_t s = 0; s < src.uvs.size(); ++s) {
      if (sets.empty() || s != sets[0]) sets.push_back(s);
    }
    sets.resize(std::min(sets.size(), kMaxUvSets));
    // The drawn vertices, in their glTF order.
    const std::size_t vc = src.vertex_count();
    std::vector<std::uint32_t> local(vc, kUnmatched);
    for (std::uint32_t v : tris) local[v] = 0;
    std::uint32_t used = 0;
    for (std::uint32_t& l : local) {
      if (l != kUnmatched) l = used++;
    }
    const std::size_t base = vertices_.positions.size();
    if (base + used > kBwmMaxVertices) {
      return at(where, "the model reaches " + std::to_string(base + used) + " vertices here, but a BWM's u16 indices number every vertex of the file's one "
                       "vertex array (at most 65,535): split the model into several files", ErrorCode::unsupported);
    }
    const bool skinned = skin_ >= 0;
    const Mat4& world = world_[static_cast<std::size_t>(d.node)];
    if (!skinned && !finite(world)) return at("nodes[" + std::to_string(d.node) + "]", "the node's world matrix is not finite");
    std::vector<Vec3> positions(vc), normals;
    const bool moved = !skinned || !rest_.at_rest;  // a skin at its bind pose keeps its vertices as given
    if (!src.normals.empty()) normals.resize(vc);
    for (std::size_t v = 0; v < vc; ++v) {
      if (!moved) {
        positions[v] = src.positions[v];
        if (!normals.empty()) normals[v] = normalize(src.normals[v]);
        continue;
      }
      const Mat4 m = skinned ? to_rest_of(src, v, rest_) : world;
      positions[v] = transform_point(m, src.positions[v]);
      if (!normals.empty()) normals[v] = normalize(transform_direction(m, src.normals[v]));
    }
    if (src.normals.empty() && has_normals_) {
      normals = smooth_normals(positions, tris);
      warnings_.push_back({where, "the primitive has no normals but others in the model do: it gets smooth ones (every BWM vertex stores the same attributes)"});
    }
    const std::size_t joint_count = skinned ? scene_.skins[static_cast<std::size_t>(skin_)].joints.size() : 0;
    std::size_t limited = 0;
    float dropped = 0;  // the largest share of a vertex's weight left out
    for (std::size_t v = 0; v < vc; ++v) {
      if (local[v] == kUnmatched) continue;
      const BwmVec3 q = to_bwm(positions[v]);
      if (!std::all_of(q.begin(), q.end(), [](float f) { return std::isfinite(f); })) {
        return at(where + ".positions", "vertex " + std::to_string(v) + " placed by its node is not finite");
      }
      vertices_.positions.push_back(q);
      if (has_normals_) vertices_.normals.push_back(to_bwm(normals[v]));
      for (std::size_t s = 0; s < uv_sets_; ++s) {
        const Vec2 uv = s < sets.size() ? src.uvs[sets[s]][v] : Vec2{0, 0};  // D3D's texture origin is glTF's: kept as is
        vertices_.uv_sets[s].push_back({uv.x, uv.y});
      }
      if (skinned) {
        auto& j = vertices_.joints.emplace_back();
        auto& w = vertices_.weights.emplace_back();
        bool cut = false;
        auto strongest = strongest_joints(src, v, joint_count, kInfluences, where, cut);  // unused slots: bone 0, weight 0
        if (!strongest) return strongest.error();
        limited += cut;
        if (cut) dropped = std::max(dropped, bwm_dropped_weight(src, v, *strongest));
        for (std::size_t k = 0; k < strongest->size(); ++k) j[k] = static_cast<std::uint8_t>((*strongest)[k].second), w[k] = (*strongest)[k].first;
      }
    }
    if (limited != 0) warnings_.push_back({where + ".weights", bwm_narrowed_message(limited, dropped)});
    std::vector<std::uint32_t> over_local(tris.size());
    for (std::size_t k = 0; k < tris.size(); ++k) over_local[k] = local[tris[k]];
    const BwmIndexRun run = bwm_index_run(over_local, used, skinned);
    ref.material = material_of(src.material);
    ref.indices_offset = static_cast<std::uint32_t>(out_.indices.size());
    for (std::uint32_t i : run.indices) out_.indices.push_back(static_cast<std::uint16_t>(base + i));
    ref.indices_size = run.indices_size;
    ref.vertex_offset = static_cast<std::uint32_t>(base);
    ref.vertex_size = used;
    ref.faces_offset = faces_;
    ref.faces_size = run.faces_size;
    faces_ += ref.faces_size;
    return ref;
  }

  // Stride 0: position, normal, UV sets; a skin's 4 bone-index strides (u8) and 4 weight strides (f32).
  void author_strides() {
    const std::size_t n = vertices_.positions.size();
    BwmStride main;
    main.attributes.push_back({0, BwmFormat::f32x3});
    if (has_normals_) main.attributes.push_back({1, BwmFormat::f32x3});
    for (std::size_t s = 0; s < uv_sets_; ++s) main.attributes.push_back({2, BwmFormat::f32x2});
    main.vertices.reserve(n * main.size());
    for (std::size_t v = 0; v < n; ++v) {
      for (float f : vertices_.positions[v]) put_f32(main.vertices, f);
      if (has_normals_) {
        for (float f : vertices_.normals[v]) put_f32(main.vertices, f);
      }
      for (std::size_t s = 0; s < uv_sets_; ++s) put_f32(main.vertices, vertices_.uv_sets[s][v][0]), put_f32(main.vertices, vertices_.uv_sets[s][v][1]);
    }
    out_.strides.push_back(std::move(main));
    if (skin_ >= 0) {
      for (std::size_t k = 0; k < kInfluences; ++k) {
        BwmStride s;
        s.attributes.push_back({6, BwmFormat::u8});
        for (std::size_t v = 0; v < n; ++v) s.vertices.push_back(vertices_.joints[v][k]);
        out_.strides.push_back(std::move(s));
      }
      for (std::size_t k = 0; k < kInfluences; ++k) {
        BwmStride s;
        s.attributes.push_back({7, BwmFormat::f32});
        for (std::size_t v = 0; v < n; ++v) put_f32(s.vertices, vertices_.weights[v][k]);
        out_.strides.push_back(std::move(s));
      }
    }
    out_.type = skin_ >= 0 ? kSkin : kModel;
  }

  const Scene& scene_;
  const std::vector<Mat4> world_;
  RestPose rest_;  // the skin's bind pose to the nodes' pose
  std::vector<Warning>& warnings_;
  const Bwm* game_;  // the game file whose skeleton the skin is bound to (--skeleton), else none
  Bwm out_;
  std::vector<Draw> draws_;
  int skin_ = -1;
  bool has_normals_ = false;
  std::size_t uv_sets_ = 0;
  Vertices vertices_;
  std::map<int, std::uint32_t> materials_;  // Scene material (-1 = glTF's default) -> definition
  std::uint32_t faces_ = 0;                 // faces referenced so far: the next reference's faces_offset
};

}  // namespace

BwmExtent bwm_extent(std::span<const BwmVec3> positions) {
  BwmExtent e;
  if (positions.empty()) return e;
  e.box1 = e.box2 = positions[0];
  for (const BwmVec3& p : positions) {
    for (std::size_t k = 0; k < 3; ++k) e.box1[k] = std::min(e.box1[k], p[k]), e.box2[k] = std::max(e.box2[k], p[k]);
  }
  for (std::size_t k = 0; k < 3; ++k) e.center[k] = (e.box1[k] + e.box2[k]) / 2;
  for (const BwmVec3& p : positions) {
    const Vec3 d{p[0] - e.center[0], p[1] - e.center[1], p[2] - e.center[2]};
    e.radius = std::max(e.radius, length(d));
  }
  e.height = e.box2[1] - e.box1[1];
  e.volume = (e.box2[0] - e.box1[0]) * e.height * (e.box2[2] - e.box1[2]);
  return e;
}

BwmIndexRun bwm_index_run(const std::vector<std::uint32_t>& triangles, std::size_t vertex_count, bool strip) {
  // Reversed windings: the lift mirrors z and reverses them back.
  BwmIndexRun run;
  run.indices.reserve(triangles.size());
  for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) run.indices.insert(run.indices.end(), {triangles[t], triangles[t + 2], triangles[t + 1]});
  if (strip && !run.indices.empty()) {
    // meshoptimizer's restart index 0: the strip's pieces are joined by degenerate triangles.
    std::vector<unsigned> s(meshopt_stripifyBound(run.indices.size()));
    s.resize(meshopt_stripify(s.data(), run.indices.data(), run.indices.size(), vertex_count, 0));
    run.indices.assign(s.begin(), s.end());
  }
  const auto n = static_cast<std::uint32_t>(run.indices.size());
  run.indices_size = strip ? (n >= 2 ? n - 2 : 0) : n;
  run.faces_size = strip ? run.indices_size : n / 3;
  return run;
}

Result<Lowered> author_bwm(const Scene& scene, const LowerInputs& inputs) {
  const Bwm* game = inputs.skeleton != nullptr ? std::get_if<Bwm>(inputs.skeleton) : nullptr;
  if (inputs.skeleton != nullptr && game == nullptr) return at("skeleton", "a BWM takes its bones from a BWM file", ErrorCode::unsupported);
  if (inputs.bwm_version != 5 && inputs.bwm_version != 6) {
    return at("bwm_version", "is " + std::to_string(inputs.bwm_version) + "; BWM versions 5 and 6 exist", ErrorCode::unsupported);
  }
  std::vector<Warning> warnings;
  Author author(scene, inputs.bwm_version, game, warnings);
  auto bwm = author.run();
  if (!bwm) return bwm.error();
  return Lowered{Document{std::move(*bwm)}, std::move(warnings)};
}

}  // namespace remodel::scene
