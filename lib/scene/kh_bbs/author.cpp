// A new KH BBS PMO from a Scene alone (issue 16), laid out as the game's converter lays out its
// files (see lib/scene/kh_bbs/README.md, "Authoring"): one synthetic section per primitive in the format the
// data needs, handed to the lower's section rebuild (lower_strips.cpp) so joint partitions,
// strips or lists and the GE vertex encoding have one home; BON from the skin; TIM2s from the images.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "scene/kh_bbs/lower.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene/skin_joints.hpp"

namespace remodel::scene {

namespace {

constexpr std::size_t kMaxJoints = 255;        // section joint slots are u8, 0xFF = unused

template <std::size_t N>
std::array<std::uint8_t, N> name_field(const std::string& name) {
  std::array<std::uint8_t, N> out{};
  std::memcpy(out.data(), name.data(), std::min(N, name.size()));
  return out;
}

struct Draw {
  int node;
  const Mesh* mesh;
};

}  // namespace

// The BON from the one skin: joints parents first (the game builds world matrices in order), each
// local relative to its nearest ancestor joint (a non-joint ancestor is folded into it), inverse
// binds as the skin gives them. bon_of maps a skin joint to its BON joint.
Result<Bon> kh_bbs::author_bon(const Scene& scene, int skin_index, const std::vector<Mat4>& world, std::vector<int>& bon_of,
                       std::vector<Warning>& warnings) {
  const Skin& skin = scene.skins[static_cast<std::size_t>(skin_index)];
  const std::string where = "skins[" + std::to_string(static_cast<std::size_t>(skin_index)) + "]";
  const std::size_t n = skin.joints.size();
  if (n > kMaxJoints) {
    return at(where + ".joints", "the skin has " + std::to_string(n) + " joints but a PMO section names joints by a byte (at most 255)",
              ErrorCode::unsupported);
  }
  auto joints = skin_joints_parents_first(scene, skin_index);
  if (!joints) return joints.error();
  const std::vector<int>& parent_slot = joints->parent;
  const std::vector<std::size_t>& order = joints->order;
  bon_of = joints->index_of;
  Bon bon;
  for (std::size_t b = 0; b < n; ++b) {
    const std::size_t s = order[b];
    const int node = skin.joints[s];
    BonJoint j;
    j.index = static_cast<std::uint16_t>(b);
    j.skin_index = static_cast<std::uint16_t>(b);
    j.parent = parent_slot[s] < 0 ? 0xFFFF : static_cast<std::uint16_t>(bon_of[static_cast<std::size_t>(parent_slot[s])]);
    const std::string name = kh_bbs::fitted_name(scene.nodes[static_cast<std::size_t>(node)].name, 16, "nodes[" + std::to_string(node) + "].name", warnings);
    for (const BonJoint& other : bon.joints) {
      if (fixed_string(other.name) == name && !name.empty()) {
        warnings.push_back({"nodes[" + std::to_string(node) + "].name", "two joints are named \"" + name +
                                                                          "\" in the BON's 16 bytes: a PAM finds joints by name"});
        break;
      }
    }
    j.name = name_field<16>(name);
    const Mat4& w = world[static_cast<std::size_t>(node)];
    const Mat4 local = parent_slot[s] < 0 ? w : inverse(world[static_cast<std::size_t>(skin.joints[static_cast<std::size_t>(parent_slot[s])])]) * w;
    bool ok = true;
    const Mat4 inverse_bind = skin.inverse_bind_matrices.empty() ? inverse(w, &ok) : skin.inverse_bind_matrices[s];
    for (float f : local.m) {
      if (!std::isfinite(f)) return at("nodes[" + std::to_string(node) + "]", "joint " + std::to_string(s) + " has a non-finite transform");
    }
    for (float f : inverse_bind.m) {
      if (!std::isfinite(f) || !ok) return at(where + ".inverse_bind_matrices[" + std::to_string(s) + "]", "a non-finite or singular inverse bind matrix");
    }
    j.local = local.m;
    j.inverse_bind = inverse_bind.m;
    bon.joints.push_back(j);
  }
  return bon;
}

// On a game file's skeleton (`--skeleton GAME.pmo`, the Scene already bound to its joints by
// bind_to_skeleton): the game's BON records as they are, byte for byte; bon_of by joint name.
Result<Bon> game_bon(const Scene& scene, int skin_index, const Bon& game, std::vector<int>& bon_of) {
  const Skin& skin = scene.skins[static_cast<std::size_t>(skin_index)];
  bon_of.assign(skin.joints.size(), -1);
  for (std::size_t s = 0; s < skin.joints.size(); ++s) {
    const std::string& name = scene.nodes[static_cast<std::size_t>(skin.joints[s])].name;
    for (std::size_t b = 0; b < game.joints.size() && bon_of[s] < 0; ++b) {
      if (fixed_string(game.joints[b].name) == name) bon_of[s] = static_cast<int>(b);
    }
    if (bon_of[s] < 0) {
      return at("skins[" + std::to_string(static_cast<std::size_t>(skin_index)) + "].joints[" + std::to_string(s) + "]",
                "joint \"" + name + "\" is not in the skeleton file's BON", ErrorCode::unsupported);
    }
  }
  return game;
}

Result<Lowered> author_kh_bbs_pmo(const Scene& scene, const LowerInputs& inputs) {
  const Pmo* game = nullptr;
  if (inputs.skeleton != nullptr) {
    const PmoFile* file = std::get_if<PmoFile>(inputs.skeleton);
    if (file == nullptr || !file->pmo.skeleton) {
      return at("skeleton", "a PMO's skeleton comes from a PMO with a BON (or, for a PAM, the PMO it animates)", ErrorCode::unsupported);
    }
    game = &file->pmo;
  }
  Lowered out{Document{PmoFile{}}, {}};
  std::vector<Warning>& warnings = out.warnings;
  PmoFile& file = std::get<PmoFile>(out.document);
  Pmo& pmo = file.pmo;

  // What is drawn: every visible node with a mesh; at most one skin over all of them.
  auto drawn = drawn_nodes(scene, "a PMO", "a PMO holds one skeleton", "every section of a PMO with a skeleton follows its joints");
  if (!drawn) return drawn.error();
  const int skin = drawn->skin;
  std::vector<Draw> draws;
  for (int d : drawn->nodes) draws.push_back({d, &scene.meshes[static_cast<std::size_t>(scene.nodes[static_cast<std::size_t>(d)].mesh)]});
  const std::vector<Mat4> world = world_matrices(scene);
  std::vector<int> bon_of;
  if (game != nullptr && skin < 0) {
    return at("meshes", "a skeleton file is given but no mesh is skinned: nothing is bound to its joints", ErrorCode::unsupported);
  }
  if (skin >= 0) {
    auto bon = game != nullptr ? game_bon(scene, skin, *game->skeleton, bon_of) : kh_bbs::author_bon(scene, skin, world, bon_of, warnings);
    if (!bon) return bon.error();
    pmo.skeleton = std::move(*bon);
  }

  // The primitives as drawn: unskinned ones placed by their node's world matrix (a PMO has no node
  // transforms), skinned ones in their bind space as glTF skins them.
  struct Part {
    Primitive prim;
    int material;
    std::string where;
  };
  std::vector<Part> parts;
  for (const Draw& d : draws) {
    const Node& n = scene.nodes[static_cast<std::size_t>(d.node)];
    for (std::size_t p = 0; p < d.mesh->primitives.size(); ++p) {
      const Primitive& src = d.mesh->primitives[p];
      const std::string where = "meshes[" + std::to_string(n.mesh) + "].primitives[" + std::to_string(p) + "]";
      if (src.topology != Topology::triangles && src.topology != Topology::triangle_strip && src.topology != Topology::triangle_fan) {
        return at(where + ".mode", "points and lines cannot be drawn by a PMO (triangle lists and strips only)", ErrorCode::unsupported);
      }
      if (auto e = kh_bbs::check_primitive(src, where); !e) return e.error();
      if (src.material >= 0 && static_cast<std::size_t>(src.material) >= scene.materials.size()) {
        return at(where + ".material", "material " + std::to_string(src.material) + " does not exist");
      }
      if (skin >= 0) {
        for (std::uint16_t j : src.joints) {
          if (j >= bon_of.size()) return at(where + ".joints", "joint " + std::to_string(j) + " is past the skin's " + std::to_string(bon_of.size()) + " joints");
        }
      }
      Part part{src, src.material, where};
      Primitive& prim = part.prim;
      prim.normals.clear();  // BBS lights nothing by normals: no retail section stores them
      const int uv_set = src.material >= 0 ? scene.materials[static_cast<std::size_t>(src.material)].uv_set : 0;
      if (!prim.uvs.empty()) {
        const std::size_t keep = uv_set >= 0 && static_cast<std::size_t>(uv_set) < prim.uvs.size() ? static_cast<std::size_t>(uv_set) : 0;
        if (prim.uvs.size() > 1) {
          warnings.push_back({where, "the primitive has " + std::to_string(prim.uvs.size()) + " UV sets but a PMO vertex holds one: set " + std::to_string(keep) +
                                         " (the one its material's texture uses) is kept"});
        }
        prim.uvs = {std::move(prim.uvs[keep])};
      }
      if (skin < 0) {
        for (Vec3& v : prim.positions) v = transform_point(world[static_cast<std::size_t>(d.node)], v);
      }
      if (!drawn_triangles(prim).empty()) parts.push_back(std::move(part));
    }
  }
  if (parts.empty()) return at("meshes", "no primitive draws a triangle: a PMO needs at least one", ErrorCode::unsupported);

  // Bounds and model scale: s16 positions fill their range (scale = largest |coordinate| * 32768/32767,
  // as retail characters store it); unskinned models store f32 positions with scale 1, as maps do.
  Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
  for (const Part& p : parts) {
    for (const Vec3& v : p.prim.positions) {
      lo = {std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z)};
      hi = {std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z)};
    }
  }
  const float extent = std::max({std::abs(lo.x), std::abs(lo.y), std::abs(lo.z), std::abs(hi.x), std::abs(hi.y), std::abs(hi.z)});
  const bool skinned = skin >= 0;
  pmo.scale = skinned && extent > 0.0f ? extent * 32768.0f / 32767.0f : 1.0f;
  if (!std::isfinite(pmo.scale)) return at("meshes", "the positions' extent is not finite", ErrorCode::unsupported);
  for (std::size_t i = 0; i < 8; ++i) {
    // Corner order: x fastest, then z, then y.
    pmo.bounding_box[i] = {i & 1 ? hi.x : lo.x, i & 4 ? hi.y : lo.y, i & 2 ? hi.z : lo.z, 1.0f};
  }

  kh_bbs::NewTextures made;
  PmoMeshList lists[2];
  for (const Part& p : parts) {
    auto section = kh_bbs::new_section(scene, p.prim, p.material, skinned, made, {pmo.textures, pmo.tim2s, pmo.gaps_before_tim2}, warnings);
    if (!section) return section.error();
    const int list = section->list;
    kh_bbs::SectionEdit edit{section->base, section->lifted, p.prim, pmo.scale, skinned ? &bon_of : nullptr, p.where,
                             "pmo.mesh" + std::to_string(list), true};
    auto sections = kh_bbs::rebuild_section(edit, warnings);
    if (!sections) return sections.error();
    auto& l = lists[list].sections;
    l.insert(l.end(), sections->begin(), sections->end());
  }
  if (!lists[0].sections.empty()) pmo.mesh0 = std::move(lists[0]);
  if (!lists[1].sections.empty()) pmo.mesh1 = std::move(lists[1]);
  // The header's counts are u16: past them the count saturates (the sections hold the true ones).
  if (pmo.vertex_count() > 0xFFFF) {
    pmo.stored_vertex_count = 0xFFFF;
    warnings.push_back({"pmo", std::to_string(pmo.vertex_count()) + " vertices: the header's u16 vertex count is stored as 65535"});
  }
  if (pmo.triangle_count() > 0xFFFF) {
    pmo.stored_triangle_count = 0xFFFF;
    warnings.push_back({"pmo", std::to_string(pmo.triangle_count()) + " triangles: the header's u16 triangle count is stored as 65535"});
  }
  return out;
}

}  // namespace remodel::scene
