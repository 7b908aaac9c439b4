// Scene -> MHFU PAC / PMO over a base: the inverse of mhfu.cpp. Vertices are re-encoded in their block's
// stored VTYPE only where the incoming value quantises differently from the base's; the skeleton's
// Euler angles, the materials' colours and the TMH images likewise.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <string>

#include <meshoptimizer.h>

#include "model/textures.hpp"
#include "scene/bone_turns.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"

namespace remodel::scene {

namespace {

Error unsupported(const std::string& where, const std::string& message) {
  return Error{ErrorCode::unsupported, std::nullopt, where, message};
}
Error bad(const std::string& where, const std::string& message) { return Error{ErrorCode::bad_value, std::nullopt, where, message}; }

bool finite(float f) { return std::isfinite(f); }

// ---- one value in a GE vertex element format (psp_vertex.hpp's scaling, inverted) ----

// Signed element (normals, positions): nullopt when the value does not fit the element's range.
std::optional<std::uint32_t> encode_signed(psp::NumFormat f, float v) {
  switch (f) {
    case psp::NumFormat::f32: return std::bit_cast<std::uint32_t>(v);
    case psp::NumFormat::i8: {
      const float q = std::nearbyint(v * 128.0f);
      if (!(q >= -128.0f && q <= 127.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(static_cast<std::int32_t>(q)) & 0xFF;
    }
    case psp::NumFormat::i16: {
      const float q = std::nearbyint(v * 32768.0f);
      if (!(q >= -32768.0f && q <= 32767.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(static_cast<std::int32_t>(q)) & 0xFFFF;
    }
    case psp::NumFormat::none: break;
  }
  return 0;
}

// A unit normal's component: 1.0 is one step past the signed range, so it saturates.
std::uint32_t encode_normal(psp::NumFormat f, float v) {
  if (f == psp::NumFormat::f32) return std::bit_cast<std::uint32_t>(v);
  const float limit = f == psp::NumFormat::i8 ? 127.0f / 128.0f : 32767.0f / 32768.0f;
  return *encode_signed(f, std::clamp(v, -1.0f, limit));
}

// Unsigned element (UVs, weights).
std::optional<std::uint32_t> encode_unsigned(psp::NumFormat f, float v) {
  switch (f) {
    case psp::NumFormat::f32: return std::bit_cast<std::uint32_t>(v);
    case psp::NumFormat::i8: {
      const float q = std::nearbyint(v * 128.0f);
      if (!(q >= 0.0f && q <= 255.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(q);
    }
    case psp::NumFormat::i16: {
      const float q = std::nearbyint(v * 32768.0f);
      if (!(q >= 0.0f && q <= 65535.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(q);
    }
    case psp::NumFormat::none: break;
  }
  return 0;
}

std::uint32_t encode_vertex_colour(psp::ColorFormat f, const Vec4& c) {
  std::array<std::uint8_t, 4> rgba{};
  const float ch[4] = {c.x, c.y, c.z, c.w};
  for (int i = 0; i < 4; ++i) rgba[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(std::nearbyint(std::clamp(ch[i], 0.0f, 1.0f) * 255.0f));
  return psp::encode_colour(*psp::colour_format(f), rgba.data());
}

// Weights per palette slot (summing to 1) as stored: u8 and u16 split 128 or 32768 by largest
// remainder, so the stored total is exact, as the game's converter leaves it.
std::array<std::uint32_t, 8> encode_weights(psp::NumFormat f, std::size_t count, const std::array<float, 8>& w) {
  std::array<std::uint32_t, 8> out{};
  if (f == psp::NumFormat::f32) {
    for (std::size_t k = 0; k < count; ++k) out[k] = std::bit_cast<std::uint32_t>(w[k]);
    return out;
  }
  const double total = f == psp::NumFormat::i8 ? 128.0 : 32768.0;
  std::array<double, 8> rest{};
  std::uint32_t given = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const double exact = static_cast<double>(w[k]) * total;
    out[k] = static_cast<std::uint32_t>(std::floor(exact));
    rest[k] = exact - out[k];
    given += out[k];
  }
  for (auto left = static_cast<std::uint32_t>(total) - std::min<std::uint32_t>(given, static_cast<std::uint32_t>(total)); left > 0; --left) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < count; ++k) best = rest[k] > rest[best] ? k : best;
    ++out[best];
    rest[best] = -1.0;
  }
  return out;
}

// Overwrites the components of one stored vertex, keeping its padding bytes as stored.
void store_vertex(const psp::VertexFormat& f, const psp::Vertex& v, std::uint8_t* dst) {
  const psp::VertexLayout l = f.layout();
  const std::vector<std::uint8_t> enc = psp::encode_vertices(f, std::span<const psp::Vertex>(&v, 1));
  const auto copy = [&](std::size_t at, std::size_t n) { std::copy_n(enc.begin() + static_cast<std::ptrdiff_t>(at), n, dst + at); };
  copy(l.weights, f.weight_count * psp::element_size(f.weight));
  copy(l.texcoord, 2 * psp::element_size(f.texcoord));
  copy(l.color, psp::color_size(f.color));
  copy(l.normal, 3 * psp::element_size(f.normal));
  copy(l.position, 3 * psp::element_size(f.position));
}

// A value as the element stores it: encoded and decoded again (unchanged when it does not fit, which
// the encoder then says). Compared so, float noise below half a step (Blender's) is no difference.
float on_grid(psp::NumFormat f, float v, bool is_signed) {
  const std::optional<std::uint32_t> e = is_signed ? encode_signed(f, v) : encode_unsigned(f, v);
  if (!e || !finite(v)) return v;
  switch (f) {
    case psp::NumFormat::i8: return (is_signed ? static_cast<float>(static_cast<std::int8_t>(*e & 0xFF)) : static_cast<float>(*e)) / 128.0f;
    case psp::NumFormat::i16: return (is_signed ? static_cast<float>(static_cast<std::int16_t>(*e & 0xFFFF)) : static_cast<float>(*e)) / 32768.0f;
    case psp::NumFormat::f32:
    case psp::NumFormat::none: break;
  }
  return v;
}

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
    if (j < 0 || static_cast<std::size_t>(j) >= in.nodes.size()) return bad("skins.joints", "a joint is not a node");
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
    return unsupported("skins[0].joints", "the skin's " + std::to_string(inames.size()) + " joints match neither the names nor the count of the base skeleton's " +
                                              std::to_string(bnames.size()) + " bones (adding or removing bones is not supported)");
  }
  if (by_order) warnings.push_back({"skins[0]", "joint names do not match the base skeleton: matched by order"});
  return *m;
}

// ---- the lower ----

struct PmoPart {
  MhfuPmo* pmo = nullptr;
  std::size_t first_mesh = 0;  // its first mesh in the base Scene
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
        if (!finite(f)) return bad(where, "joint " + n.name + " has a non-finite translation, rotation or scale");
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
      return unsupported("meshes", "the Scene's " + std::to_string(in_.meshes.size()) + " meshes match neither the names nor the count of the base's " +
                                       std::to_string(base_.meshes.size()) + " PMO meshes (adding or removing a mesh is not supported)");
    }
    if (by_order) warnings_.push_back({"meshes", "mesh names do not match the base's: matched by order"});
    meshes_ = std::move(*m);
    return std::nullopt;
  }

  // The incoming primitive for each base group of a mesh (and its index in the incoming mesh): by the
  // "group" extra, else by order, else split back by material (merged_groups).
  Result<std::vector<std::pair<const Primitive*, std::size_t>>> match_primitives(std::size_t bm) {
    const Mesh& bmesh = base_.meshes[bm];
    const Mesh& imesh = in_.meshes[static_cast<std::size_t>(meshes_[bm])];
    const std::string where = "meshes[" + std::to_string(meshes_[bm]) + "]";
    std::vector<std::pair<const Primitive*, std::size_t>> out(bmesh.primitives.size(), {nullptr, 0});
    std::size_t keyed = 0;
    for (std::size_t i = 0; i < imesh.primitives.size(); ++i) {
      const Primitive& p = imesh.primitives[i];
      if (!p.extras.is_object() || !p.extras.contains("group") || !p.extras["group"].is_number_integer()) continue;
      for (std::size_t k = 0; k < bmesh.primitives.size(); ++k) {
        if (bmesh.primitives[k].extras["group"] == p.extras["group"] && !out[k].first) out[k] = {&p, i}, ++keyed;
      }
    }
    if (keyed == out.size() && keyed == imesh.primitives.size()) return out;
    if (imesh.primitives.size() == bmesh.primitives.size()) {
      for (std::size_t k = 0; k < out.size(); ++k) out[k] = {&imesh.primitives[k], k};
      return out;
    }
    if (merged_groups(bmesh, imesh, out)) return out;
    return unsupported(where, "mesh " + imesh.name + " has " + std::to_string(imesh.primitives.size()) + " primitives where the base draws " +
                                  std::to_string(bmesh.primitives.size()) + " groups (adding or removing a primitive is not supported)");
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
    for (std::size_t m = 0; m < pmo.meshes.size(); ++m) {
      const std::size_t bm = part.first_mesh + m;
      auto prims = match_primitives(bm);
      if (!prims) return prims.error();
      for (std::size_t k = 0; k < prims->size(); ++k) {
        const std::size_t g = std::size_t{pmo.meshes[m].group_start} + k;
        const std::string where = "meshes[" + std::to_string(meshes_[bm]) + "].primitives[" + std::to_string((*prims)[k].second) + "]";
        Result<bool> changed = lower_group(pmo, pmo.meshes[m], g, (*palettes)[g], base_.meshes[bm].primitives[k], *(*prims)[k].first, where);
        if (!changed) return changed.error();
        const std::uint32_t b = pmo.groups[g].block;
        if (*changed) {
          if (block_owner[b] >= 0 && block_owner[b] != static_cast<int>(g)) {
            return unsupported(where, "block " + std::to_string(b) + " is drawn by groups " + std::to_string(block_owner[b]) + " and " +
                                          std::to_string(g) + ": an edit must change both primitives the same way");
          }
          block_owner[b] = static_cast<int>(g);
        }
      }
    }
    return std::nullopt;
  }

  // Re-encodes the vertices of one group's block that the incoming primitive moved; true when any did.
  Result<bool> lower_group(MhfuPmo& pmo, const MhfuMesh& mesh, std::size_t g, const GeBonePalette& palette, const Primitive& bp,
                           const Primitive& incoming, const std::string& where) {
    MhfuBlock& block = pmo.blocks[pmo.groups[g].block];
    Result<MhfuDrawList> draw = decode_mhfu_block(block);
    if (!draw) return draw.error();
    const psp::VertexFormat& f = draw->format;
    const std::size_t stride = f.layout().size;
    Result<std::vector<psp::Vertex>> stored = psp::decode_vertices(f, block.vertices, draw->vertex_count);
    if (!stored) return stored.error();

    const std::size_t n = incoming.vertex_count();
    const auto sized = [&](std::size_t have, std::size_t per, const char* what) -> std::optional<Error> {
      if (have == 0 || have == n * per) return std::nullopt;
      return bad(where + "." + what, std::to_string(have) + " values for " + std::to_string(n) + " vertices");
    };
    if (auto e = sized(incoming.normals.size(), 1, "normals")) return *e;
    if (auto e = sized(incoming.colors.size(), 1, "colors")) return *e;
    if (!incoming.uvs.empty()) {
      if (auto e = sized(incoming.uvs[0].size(), 1, "uvs[0]")) return *e;
    }
    const Primitive& ip = incoming;
    // Matched over positions, normals and UV set 0 as the block would store them, so that Blender's
    // float noise (it splits a vertex whose loops got different custom normals) is no difference.
    Primitive grid = incoming;
    for (Vec3& p : grid.positions) {
      if (f.position == psp::NumFormat::f32) break;
      p = {on_grid(f.position, p.x / pmo.scale[0], true) * pmo.scale[0], on_grid(f.position, p.y / pmo.scale[1], true) * pmo.scale[1],
           on_grid(f.position, p.z / pmo.scale[2], true) * pmo.scale[2]};
    }
    for (Vec3& v : grid.normals) {
      if (f.normal == psp::NumFormat::none || f.normal == psp::NumFormat::f32) break;
      const Vec3 u = normalize(v);
      const float top = f.normal == psp::NumFormat::i8 ? 127.0f / 128.0f : 32767.0f / 32768.0f;  // saturated as encode_normal does
      const auto at = [&](float c) { return on_grid(f.normal, std::clamp(c, -1.0f, top), true); };
      v = {at(u.x), at(u.y), at(u.z)};
    }
    if (!grid.uvs.empty() && f.texcoord != psp::NumFormat::none && f.texcoord != psp::NumFormat::f32 && mesh.uv_scale[0] != 0.0f && mesh.uv_scale[1] != 0.0f) {
      for (Vec2& t : grid.uvs[0]) t = {on_grid(f.texcoord, t.x / mesh.uv_scale[0], false) * mesh.uv_scale[0], on_grid(f.texcoord, t.y / mesh.uv_scale[1], false) * mesh.uv_scale[1]};
    }
    if (auto e = sized(ip.joints.size(), ip.influences, "joints")) return *e;
    if (auto e = sized(ip.weights.size(), ip.influences, "weights")) return *e;
    for (std::uint32_t i : ip.indices) {
      if (i >= n) return bad(where + ".indices", "index " + std::to_string(i) + " is past the " + std::to_string(n) + " vertices");
    }
    for (const Vec3& p : ip.positions) {
      if (!finite(p.x) || !finite(p.y) || !finite(p.z)) return bad(where + ".positions", "a position is not finite");
    }
    for (std::size_t i = 0; i < ip.weights.size(); ++i) {
      if (!finite(ip.weights[i]) || ip.weights[i] < 0) return bad(where + ".weights", "weight " + std::to_string(i) + " is negative or not finite");
    }
    for (std::uint16_t j : ip.joints) {
      if (bp.influences > 0 && j >= bones_.size()) {
        return bad(where + ".joints", "joint " + std::to_string(j) + " is past the skin's " + std::to_string(bones_.size()) + " joints");
      }
    }

    std::optional<std::vector<std::uint32_t>> match = match_vertices(bp, grid);
    if (!match) {
      if (auto e = rebuild_group(pmo, mesh, g, palette, bp, ip, *stored, *draw, where)) return *e;
      return true;
    }

    bool changed = false;
    limited_ = 0;
    for (std::size_t v = 0; v < match->size(); ++v) {
      const std::uint32_t m = (*match)[v];
      if (m == kUnmatched) continue;  // drawn by no triangle: kept as stored
      psp::Vertex vx = (*stored)[v];
      bool moved = false;
      const auto set = [&](std::uint32_t& field, std::uint32_t incoming, std::uint32_t base) {
        if (incoming != base) field = incoming, moved = true;
      };
      const auto pos = [&](const Vec3& p) -> std::optional<std::array<std::uint32_t, 3>> {
        std::array<std::uint32_t, 3> out{};
        const float c[3] = {p.x, p.y, p.z};
        for (std::size_t i = 0; i < 3; ++i) {
          const float raw = f.position == psp::NumFormat::f32 ? c[i] : c[i] / pmo.scale[i];
          std::optional<std::uint32_t> e = encode_signed(f.position, raw);
          if (!e) return std::nullopt;
          out[i] = *e;
        }
        return out;
      };
      const auto ipos = pos(ip.positions[m]);
      if (!ipos) {
        return unsupported(where + ".positions", "vertex " + std::to_string(m) + " lies outside the PMO's scale (" + std::to_string(pmo.scale[0]) + ", " +
                                                     std::to_string(pmo.scale[1]) + ", " + std::to_string(pmo.scale[2]) +
                                                     ") times the stored element range; the header's scale is kept");
      }
      const auto bpos = pos(bp.positions[v]);
      for (std::size_t i = 0; i < 3; ++i) set(vx.position[i], (*ipos)[i], bpos ? (*bpos)[i] : ~0u);
      if (f.normal != psp::NumFormat::none && !ip.normals.empty()) {
        const Vec3 a = normalize(ip.normals[m]), b = bp.normals[v];
        if (!finite(a.x) || !finite(a.y) || !finite(a.z)) return bad(where + ".normals", "vertex " + std::to_string(m) + "'s normal is not finite");
        const float ac[3] = {a.x, a.y, a.z}, bc[3] = {b.x, b.y, b.z};
        for (std::size_t i = 0; i < 3; ++i) set(vx.normal[i], encode_normal(f.normal, ac[i]), encode_normal(f.normal, bc[i]));
      }
      if (f.texcoord != psp::NumFormat::none && !ip.uvs.empty()) {
        const Vec2 a = ip.uvs[0][m], b = bp.uvs[0][v];
        const float ac[2] = {a.x, a.y}, bc[2] = {b.x, b.y};
        for (std::size_t i = 0; i < 2; ++i) {
          if (mesh.uv_scale[i] == 0.0f || !finite(ac[i])) return bad(where + ".uvs[0]", "vertex " + std::to_string(m) + "'s UV cannot be stored over a zero UV scale or is not finite");
          const auto ia = encode_unsigned(f.texcoord, ac[i] / mesh.uv_scale[i]), ib = encode_unsigned(f.texcoord, bc[i] / mesh.uv_scale[i]);
          if (!ia) {
            return unsupported(where + ".uvs[0]", "vertex " + std::to_string(m) + "'s UV " + std::to_string(ac[i]) +
                                                      " is outside what the block's unsigned UVs times the mesh's UV scale can hold");
          }
          set(vx.texcoord[i], *ia, ib ? *ib : ~0u);
        }
      }
      if (f.color != psp::ColorFormat::none && !ip.colors.empty()) {
        const Vec4& c = ip.colors[m];
        if (!finite(c.x) || !finite(c.y) || !finite(c.z) || !finite(c.w)) return bad(where + ".colors", "vertex " + std::to_string(m) + "'s colour is not finite");
        set(vx.color, encode_vertex_colour(f.color, c), encode_vertex_colour(f.color, bp.colors[v]));
      }
      if (bp.influences > 0 && ip.influences > 0) {
        Result<std::array<float, 8>> iw = slot_weights(ip, m, palette, f, where, true);
        if (!iw) return iw.error();
        Result<std::array<float, 8>> bw = slot_weights(bp, v, palette, f, where, false);
        if (!bw) return bw.error();
        const std::size_t count = f.weight == psp::NumFormat::none ? 0 : f.weight_count;
        const auto ie = encode_weights(f.weight, count, *iw), be = encode_weights(f.weight, count, *bw);
        for (std::size_t k = 0; k < count; ++k) set(vx.weights[k], ie[k], be[k]);
      }
      if (moved) {
        store_vertex(f, vx, block.vertices.data() + v * stride);
        changed = true;
      }
    }
    if (limited_ > 0) {
      warnings_.push_back({where, std::to_string(limited_) + " vertices weigh more bones than group " + std::to_string(g) + "'s VTYPE stores (" +
                                      std::to_string(f.weight == psp::NumFormat::none ? 1 : f.weight_count) +
                                      "): the strongest are kept and renormalised"});
    }
    return changed;
  }

  // One incoming vertex in the block's VTYPE: the stored bytes of a base vertex with the same values
  // when there is one, else every component encoded afresh.
  Result<Bytes> encode_new_vertex(const MhfuPmo& pmo, const MhfuMesh& mesh, const GeBonePalette& palette, const Primitive& bp,
                                  const Primitive& ip, std::uint32_t i, const std::vector<psp::Vertex>& stored,
                                  const psp::VertexFormat& f, const MhfuBlock& block, const std::string& where) {
    const std::size_t stride = f.layout().size;
    for (std::uint32_t v = 0; v < bp.vertex_count() && v < stored.size(); ++v) {
      if (same_vertex(bp, v, ip, i) && (bp.influences == 0) == (ip.influences == 0)) {
        return Bytes(block.vertices.begin() + static_cast<std::ptrdiff_t>(v * stride), block.vertices.begin() + static_cast<std::ptrdiff_t>((v + 1) * stride));
      }
    }
    psp::Vertex vx;
    const std::string at = "vertex " + std::to_string(i);
    const Vec3& p = ip.positions[i];
    const float pc[3] = {p.x, p.y, p.z};
    for (std::size_t c = 0; c < 3; ++c) {
      const auto e = encode_signed(f.position, f.position == psp::NumFormat::f32 ? pc[c] : pc[c] / pmo.scale[c]);
      if (!e) return unsupported(where + ".positions", at + " lies outside the PMO's scale times the stored element range");
      vx.position[c] = *e;
    }
    if (f.normal != psp::NumFormat::none) {
      const Vec3 n = ip.normals.empty() ? Vec3{0, 1, 0} : normalize(ip.normals[i]);
      const float nc[3] = {n.x, n.y, n.z};
      for (std::size_t c = 0; c < 3; ++c) vx.normal[c] = encode_normal(f.normal, nc[c]);
    }
    if (f.texcoord != psp::NumFormat::none) {
      const Vec2 uv = ip.uvs.empty() ? Vec2{} : ip.uvs[0][i];
      const float uc[2] = {uv.x, uv.y};
      for (std::size_t c = 0; c < 2; ++c) {
        const auto e = mesh.uv_scale[c] == 0.0f || !finite(uc[c]) ? std::nullopt : encode_unsigned(f.texcoord, uc[c] / mesh.uv_scale[c]);
        if (!e) return unsupported(where + ".uvs[0]", at + "'s UV is outside what the block's unsigned UVs times the mesh's UV scale can hold");
        vx.texcoord[c] = *e;
      }
    }
    if (f.color != psp::ColorFormat::none) vx.color = encode_vertex_colour(f.color, ip.colors.empty() ? Vec4{1, 1, 1, 1} : ip.colors[i]);
    if (f.weight != psp::NumFormat::none && ip.influences > 0 && bp.influences > 0) {
      Result<std::array<float, 8>> w = slot_weights(ip, i, palette, f, where, true);
      if (!w) return w.error();
      const auto e = encode_weights(f.weight, f.weight_count, *w);
      std::copy(e.begin(), e.end(), vx.weights.begin());
    } else if (ip.influences > 0 && bp.influences > 0) {
      Result<std::array<float, 8>> w = slot_weights(ip, i, palette, f, where, true);  // checks the one bone
      if (!w) return w.error();
    }
    return psp::encode_vertices(f, std::span<const psp::Vertex>(&vx, 1));
  }

  // A group whose triangles changed: its block's vertices (the ones the triangles use, in incoming
  // order), indices and PRIM commands rebuilt from meshoptimizer strips, one GE strip per strip (the
  // game's own converter draws strips, many of them three long). The commands before the first PRIM
  // and after the last stay as stored; u8 indices widen to u16 past 256 vertices.
  std::optional<Error> rebuild_group(MhfuPmo& pmo, const MhfuMesh& mesh, std::size_t g, const GeBonePalette& palette, const Primitive& bp,
                                     const Primitive& ip, const std::vector<psp::Vertex>& stored, const MhfuDrawList& draw,
                                     const std::string& where) {
    MhfuBlock& block = pmo.blocks[pmo.groups[g].block];
    for (std::size_t other = 0; other < pmo.groups.size(); ++other) {
      if (other != g && pmo.groups[other].block == pmo.groups[g].block) {
        return unsupported(where, "block " + std::to_string(pmo.groups[g].block) + " is drawn by groups " + std::to_string(g) + " and " +
                                      std::to_string(other) + ": its topology cannot change for one of them");
      }
    }
    std::vector<std::uint32_t> triangles = drawn_triangles(ip);
    if (triangles.empty()) return unsupported(where, "the primitive draws no triangle: removing an MHFU group is not supported");
    // Vertices the triangles use, renumbered in incoming order.
    std::vector<std::uint32_t> slot(ip.vertex_count(), kUnmatched);
    for (std::uint32_t i : triangles) slot[i] = 0;
    std::vector<std::uint32_t> used;
    for (std::uint32_t i = 0; i < slot.size(); ++i) {
      if (slot[i] == 0) slot[i] = static_cast<std::uint32_t>(used.size()), used.push_back(i);
    }
    psp::VertexFormat f = draw.format;
    if (f.index == psp::NumFormat::i8 && used.size() > 256) f.index = psp::NumFormat::i16;
    if (f.index != psp::NumFormat::none && used.size() > 65536) {
      return unsupported(where, "the primitive uses " + std::to_string(used.size()) + " vertices: a GE block's u16 indices reach 65536");
    }
    // FFACE bit 0 flips every triangle the block draws: store them flipped so they draw as given.
    for (std::size_t t = 0; t < triangles.size(); t += 3) {
      for (std::size_t k = 0; k < 3; ++k) triangles[t + k] = slot[triangles[t + k]];
      if (draw.flip) std::swap(triangles[t + 1], triangles[t + 2]);
    }
    std::vector<unsigned> strip(meshopt_stripifyBound(triangles.size()));
    const unsigned restart = ~0u;
    strip.resize(meshopt_stripify(strip.data(), triangles.data(), triangles.size(), used.size(), restart));

    Bytes vertices;
    for (std::uint32_t i : used) {
      Result<Bytes> b = encode_new_vertex(pmo, mesh, palette, bp, ip, i, stored, draw.format, block, where);
      if (!b) return b.error();
      vertices.insert(vertices.end(), b->begin(), b->end());
    }
    std::vector<psp::GeCommand> prims;
    Bytes indices, unindexed;
    const std::size_t stride = draw.format.layout().size;
    for (std::size_t start = 0; start < strip.size();) {
      std::size_t end = start;
      while (end < strip.size() && strip[end] != restart) ++end;
      const std::size_t count = end - start;
      if (count > 0xFFFF) return unsupported(where, "a strip of " + std::to_string(count) + " indices is past a GE PRIM's 65535");
      if (count >= 3) {
        prims.push_back(psp::GeCommand::make(psp::ge::kPrim, std::uint32_t{psp::ge::kPrimStrip} << 16 | static_cast<std::uint32_t>(count)));
        for (std::size_t k = start; k < end; ++k) {
          const std::uint32_t v = strip[k];
          if (f.index == psp::NumFormat::none) {
            unindexed.insert(unindexed.end(), vertices.begin() + static_cast<std::ptrdiff_t>(v * stride),
                             vertices.begin() + static_cast<std::ptrdiff_t>((v + 1) * stride));
          } else {
            for (std::size_t b = 0; b < psp::element_size(f.index); ++b) indices.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
          }
        }
      }
      start = end + 1;
    }
    std::vector<psp::GeCommand> commands;
    bool placed = false;
    for (const psp::GeCommand& c : block.commands) {
      if (c.op() == psp::ge::kVtype && f.index != draw.format.index) {
        commands.push_back(psp::GeCommand::make(psp::ge::kVtype, f.vtype()));
      } else if (c.op() == psp::ge::kPrim) {
        if (!placed) commands.insert(commands.end(), prims.begin(), prims.end());
        placed = true;
      } else {
        commands.push_back(c);
      }
    }
    block.commands = std::move(commands);
    block.vertices = f.index == psp::NumFormat::none ? std::move(unindexed) : std::move(vertices);
    block.indices = std::move(indices);
    if (Result<MhfuDrawList> check = decode_mhfu_block(block); !check) {
      return Error{check.error().code, std::nullopt, where, "the rebuilt block does not decode: " + check.error().message};
    }
    return std::nullopt;
  }

  // A vertex's weights per palette slot, summing to 1. Incoming joints are skin joints (mapped to
  // bones); base joints are bones already.
  Result<std::array<float, 8>> slot_weights(const Primitive& p, std::size_t v, const GeBonePalette& palette,
                                            const psp::VertexFormat& f, const std::string& where, bool incoming) {
    std::array<float, 8> out{};
    const std::size_t slots = f.weight == psp::NumFormat::none ? 1 : f.weight_count;
    std::vector<std::pair<int, float>> by_bone;  // in first-met order, repeated joints summed
    for (std::size_t k = 0; k < p.influences; ++k) {
      const float w = p.weights[v * p.influences + k];
      if (w <= 0) continue;
      const std::uint16_t j = p.joints[v * p.influences + k];
      const int bone = incoming ? bones_[j] : int{j};
      auto it = std::find_if(by_bone.begin(), by_bone.end(), [&](const auto& b) { return b.first == bone; });
      if (it == by_bone.end()) by_bone.emplace_back(bone, w);
      else it->second += w;
    }
    // More bones than the VTYPE stores weights for: the strongest ones, renormalised below.
    if (by_bone.size() > slots) {
      // std::sort with a full order (weight, then bone): clang 14's ASan reports libstdc++ 12's
      // stable_sort temporary buffer as a double free.
      std::sort(by_bone.begin(), by_bone.end(), [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
      by_bone.resize(slots);
      ++limited_;
    }
    float sum = 0;
    for (const auto& [bone, w] : by_bone) {
      std::size_t s = 0;
      while (s < slots && !(palette[s] && int{*palette[s]} == bone)) ++s;
      if (s == slots) {
        return unsupported(where + ".joints", "vertex " + std::to_string(v) + " weighs bone " + std::to_string(bone) +
                                                  ", which its group's " + std::to_string(slots) +
                                                  "-slot GE palette does not hold (re-partitioning palettes is not supported)");
      }
      out[s] += w;
      sum += w;
    }
    if (sum <= 0) {
      out[0] = 1;
      return out;
    }
    for (float& w : out) w /= sum;
    return out;
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
      return unsupported("materials", "the Scene's " + std::to_string(in_.materials.size()) + " materials match neither the names nor the count of the base's " +
                                          std::to_string(base_.materials.size()) + " (adding or removing a material is not supported)");
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
      if (!ic) return bad(where + ".base_color", "the base colour is not finite");
      if (*ic != rgba(b.base_color)) stored[i]->color = *ic;
      if (b.texture < 0) continue;
      if (m.texture < 0 || static_cast<std::size_t>(m.texture) >= in_.textures.size()) {
        return unsupported(where + ".texture", "material " + m.name + " lost its texture: an MHFU material's texture cannot be removed");
      }
      const RgbaImage& bi = base_.textures[static_cast<std::size_t>(b.texture)].image;
      const RgbaImage& ii = in_.textures[static_cast<std::size_t>(m.texture)].image;
      if (ii.width == bi.width && ii.height == bi.height && ii.rgba == bi.rgba) continue;
      for (const auto& [t, img] : replaced_textures) {
        if (t == b.texture && !(img->width == ii.width && img->height == ii.height && img->rgba == ii.rgba)) {
          return unsupported(where + ".texture", "two materials sharing TMH image " + base_.textures[static_cast<std::size_t>(t)].name +
                                                     " give it different images");
        }
      }
      replaced_textures.emplace_back(b.texture, &ii);
    }
    return std::nullopt;
  }

  const Scene& in_;
  const Scene& base_;
  std::vector<LowerWarning>& warnings_;
  std::size_t limited_ = 0;       // vertices of the current group whose weights were cut to the VTYPE's
  const Skin* iskin_ = nullptr;  // the incoming meshes' skin
  std::vector<int> bones_;        // its joint -> base bone
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
  std::size_t mesh = 0, images = 0;
  std::optional<std::size_t> first_image;
  for (PacEntry& e : pac.entries) {
    if (auto* p = std::get_if<MhfuPmoFile>(&e.content)) {
      parts.push_back({&p->pmo, mesh});
      mesh += p->pmo.meshes.size();
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
      return unsupported("skeleton", std::string("a bare MHFU PMO takes an MHFU skeleton, not a ") + format_name(format_of(*inputs.skeleton)));
    }
  }
  Result<Scene> lifted = lift_mhfu_pmo(base, lift_inputs);
  if (!lifted) return lifted.error();
  Lowered out{Document{base}, {}};
  MhfuPmoFile& file = std::get<MhfuPmoFile>(out.document);
  Lowerer lowerer(scene, *lifted, out.warnings);
  // The skeleton is not part of a bare PMO: its bind pose is not written.
  if (auto e = lowerer.run({{&file.pmo, 0}}, nullptr)) return *e;
  return out;
}

}  // namespace remodel::scene
