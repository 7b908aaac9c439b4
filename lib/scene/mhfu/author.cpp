// A new MHFU PAC (PMO 1.0 + skeleton + TMH) or bare PMO from a Scene alone (issue 16), laid out as
// the game's converter lays out its files (lib/scene/mhfu/README.md, "Authoring"): one PMO mesh for opaque
// and one for BLEND materials, a group (GE command list) per run of triangles on at most 8 bones,
// u8 weights summing to 128, u16 UVs, s8 normals, s16 positions over a per-axis scale, strips from
// meshoptimizer; the skeleton from the skin with its Euler angles in the lift's XYZ order; TMH CLUT
// images from the textures.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>

#include <meshoptimizer.h>

#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene/mhfu/groups.hpp"
#include "scene/mhfu/records.hpp"
#include "scene/palette_influences.hpp"
#include "scene/skeleton.hpp"
#include "scene/skin_joints.hpp"

namespace remodel::scene {

namespace {

using mhfu::Encoding;
using mhfu::Group;
using mhfu::Part;

using mhfu::kBlendFlags;
using mhfu::kBlendWord;
using mhfu::kMaxMaterials;
using mhfu::kMaxTextures;
using mhfu::kOpaqueFlags;
using mhfu::kShadow;

constexpr std::size_t kSlots = mhfu::kSlots;
constexpr std::size_t kMaxBones = 256;        // the bone palette names a bone by a byte
constexpr std::uint32_t kBoneTag = 0x40000001;

// ---- skeleton ----

struct Bones {
  MhfuSkeleton skeleton;
  std::vector<int> bone_of;   // skin joint -> bone
  RestPose rest;             // MHFU stores vertices at the skeleton's pose
};

// Bones parents first (the game walks them in order), locals relative to the nearest ancestor joint
// (a non-joint ancestor folds into it), parent/child/sibling links in bone order.
Result<Bones> author_skeleton(const Scene& scene, int skin_index, const std::vector<Mat4>& world) {
  const Skin& skin = scene.skins[static_cast<std::size_t>(skin_index)];
  const std::string where = "skins[" + std::to_string(static_cast<std::size_t>(skin_index)) + "]";
  const std::size_t n = skin.joints.size();
  if (n > kMaxBones) {
    return at(where + ".joints", "the skin has " + std::to_string(n) + " joints but an MHFU bone palette names bones by a byte (at most 256)",
              ErrorCode::unsupported);
  }
  auto joints = skin_joints_parents_first(scene, skin_index);
  if (!joints) return joints.error();
  const std::vector<int>& parent_slot = joints->parent;
  const std::vector<std::size_t>& order = joints->order;
  Bones out;
  out.bone_of = joints->index_of;
  MhfuSkeleton& sk = out.skeleton;
  sk.parameter_tag = 0;
  sk.parameters = {0};  // every sample's parameter block
  sk.bones.resize(n);
  for (std::size_t b = 0; b < n; ++b) {
    const std::size_t s = order[b];
    const int node = skin.joints[s];
    const Mat4& w = world[static_cast<std::size_t>(node)];
    const int ps = parent_slot[s];
    const Mat4 local = ps < 0 ? w : inverse(world[static_cast<std::size_t>(skin.joints[static_cast<std::size_t>(ps)])]) * w;
    if (!finite(local)) return at("nodes[" + std::to_string(node) + "]", "joint " + std::to_string(s) + " has a non-finite transform");
    const Trs t = decompose(local);
    const Vec3 e = euler_xyz_of(t.rotation);
    MhfuBone& bone = sk.bones[b];
    bone.tag = kBoneTag;
    bone.index = static_cast<std::int32_t>(b);
    bone.parent = ps < 0 ? -1 : out.bone_of[static_cast<std::size_t>(ps)];
    bone.scale = {t.scale.x, t.scale.y, t.scale.z, 1.0f};
    bone.rotation = {e.x, e.y, e.z, 1.0f};
    bone.position = {t.translation.x, t.translation.y, t.translation.z, 1.0f};
    for (float f : bone.scale) {
      if (!std::isfinite(f) || f == 0.0f) {
        return at("nodes[" + std::to_string(node) + "].scale", "joint " + std::to_string(s) + " has a zero or non-finite scale: a skeleton bone needs an inverse",
                  ErrorCode::unsupported);
      }
    }
  }
  // Links: a bone's first child, and each child's next sibling (roots chain as siblings too).
  std::vector<std::int32_t> last(n + 1, -1);  // per parent (n = the roots): the child linked last
  for (std::size_t b = 0; b < n; ++b) {
    const std::int32_t p = sk.bones[b].parent;
    std::int32_t& prev = last[p < 0 ? n : static_cast<std::size_t>(p)];
    if (prev >= 0) sk.bones[static_cast<std::size_t>(prev)].sibling = static_cast<std::int32_t>(b);
    else if (p >= 0) sk.bones[static_cast<std::size_t>(p)].child = static_cast<std::int32_t>(b);
    prev = static_cast<std::int32_t>(b);
  }
  auto rest = rest_pose(scene, skin_index, world);
  if (!rest) return rest.error();
  out.rest = std::move(*rest);
  return out;
}

// A skeleton of one bone at the origin, for a model with no skin (every group rigid to it).
MhfuSkeleton root_skeleton() {
  MhfuSkeleton sk;
  sk.parameters = {0};
  MhfuBone bone;
  bone.tag = kBoneTag;
  sk.bones.push_back(bone);
  return sk;
}

// ---- vertices ----

Result<void> check_part(const Primitive& p, const std::string& where) {
  if (p.influences > kSlots * 4) {
    return at(where + ".weights", "holds " + std::to_string(p.influences) + " influences per vertex, past the " + std::to_string(kSlots * 4) + " this author reads", ErrorCode::unsupported);
  }
  return check_primitive(p, where);
}

// Per-vertex bones (the strongest 8, renormalised), positions and normals moved to the rest pose.
Result<void> prepare(Part& part, const Bones* bones, const Mat4& node_world, std::vector<Warning>& warnings) {
  const Primitive& p = *part.prim;
  const std::size_t vc = p.vertex_count();
  part.influences.assign(vc, {});
  std::size_t limited = 0;
  for (std::size_t v = 0; v < vc; ++v) {
    PaletteInfluences& f = part.influences[v];
    if (!bones) {
      f.count = 1, f.joint[0] = 0, f.weight[0] = 1;
      continue;
    }
    bool cut = false;
    auto strongest = strongest_joints(p, v, bones->bone_of.size(), kSlots, part.where, cut);
    if (!strongest) return strongest.error();
    limited += cut;
    for (const auto& [w, j] : *strongest) {
      f.joint[f.count] = bones->bone_of[static_cast<std::size_t>(j)];
      f.weight[f.count++] = w;
    }
  }
  if (limited != 0) {
    warnings.push_back({part.where, std::to_string(limited) + " vertices lean on more than 8 joints: the strongest 8 are kept and renormalised "
                                    "(the GE blends 8 bones)"});
  }
  part.positions = p.positions;
  part.normals = p.normals;
  for (std::size_t v = 0; v < vc; ++v) {
    if (bones && bones->rest.at_rest) break;
    const Mat4 m = bones ? to_rest_of(p, v, bones->rest) : node_world;
    part.positions[v] = transform_point(m, p.positions[v]);
    if (!part.normals.empty()) part.normals[v] = transform_direction(m, p.normals[v]);
  }
  part.triangles = drawn_triangles(p);
  // The converter always stores normals (the meshes are lit): a glTF without them gets smooth ones.
  if (part.normals.empty()) part.normals = smooth_normals(part.positions, part.triangles);
  for (Vec3& n : part.normals) n = normalize(n);
  for (const Vec3& q : part.positions) {
    if (!std::isfinite(q.x) || !std::isfinite(q.y) || !std::isfinite(q.z)) return at(part.where + ".positions", "a vertex skinned to the rest pose is not finite");
  }
  return {};
}

// ---- textures ----

struct TmhImages {
  std::vector<int> image_of;  // per Scene texture: its TMH image, -1 until a material uses it
};

Result<int> tmh_image(const Scene& scene, int t, TmhImages& tex, Tmh& tmh, std::vector<Warning>& warnings) {
  if (tex.image_of[static_cast<std::size_t>(t)] >= 0) return tex.image_of[static_cast<std::size_t>(t)];
  const std::string where = "textures[" + std::to_string(t) + "]";
  if (tmh.images.size() == kMaxTextures) return at(where, "more than 255 textures: an MHFU material names its image by a byte", ErrorCode::unsupported);
  auto made = mhfu::tmh_image_of(scene.textures[static_cast<std::size_t>(t)].image, where, warnings);
  if (!made) return made.error();
  tmh.images.push_back(std::move(*made));
  const int index = static_cast<int>(tmh.images.size()) - 1;
  tex.image_of[static_cast<std::size_t>(t)] = index;
  return index;
}

// ---- the model ----

struct Made {
  MhfuPmo pmo;
  MhfuSkeleton skeleton;
  Tmh tmh;
};

// `game`: the game file's skeleton the Scene is bound to (bind_to_skeleton: its skin's joints are the
// game's bones in order), stored as it is; nullptr: the skin's own.
Result<Made> author_parts(const Scene& scene, std::vector<Warning>& warnings, const MhfuSkeleton* game = nullptr) {
  Made out;
  auto drawn = drawn_nodes(scene, "a PMO", "an MHFU model has one skeleton", "every group of an MHFU PMO follows the skeleton");
  if (!drawn) return drawn.error();
  const std::vector<int>& draws = drawn->nodes;
  const int skin = drawn->skin;
  const std::vector<Mat4> world = world_matrices(scene);
  std::optional<Bones> bones;
  if (skin >= 0) {
    auto b = author_skeleton(scene, skin, world);
    if (!b) return b.error();
    bones = std::move(*b);
    out.skeleton = bones->skeleton;
    if (game) {
      if (game->bones.size() != bones->bone_of.size()) {
        return at("skins", "the skin has " + std::to_string(bones->bone_of.size()) + " joints where the game's skeleton has " + std::to_string(game->bones.size()) + " bones",
                  ErrorCode::unsupported);
      }
      for (std::size_t k = 0; k < bones->bone_of.size(); ++k) bones->bone_of[k] = static_cast<int>(k);
      out.skeleton = *game;
    }
  } else {
    out.skeleton = root_skeleton();
  }

  std::vector<Part> parts;
  for (int d : draws) {
    const Node& n = scene.nodes[static_cast<std::size_t>(d)];
    const Mesh& mesh = scene.meshes[static_cast<std::size_t>(n.mesh)];
    for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
      const Primitive& src = mesh.primitives[p];
      Part part;
      part.prim = &src;
      part.where = "meshes[" + std::to_string(n.mesh) + "].primitives[" + std::to_string(p) + "]";
      if (src.topology != Topology::triangles && src.topology != Topology::triangle_strip && src.topology != Topology::triangle_fan) {
        return at(part.where + ".mode", "points and lines cannot be drawn by an MHFU PMO (triangles only)", ErrorCode::unsupported);
      }
      if (auto e = check_part(src, part.where); !e) return e.error();
      if (src.material >= 0 && static_cast<std::size_t>(src.material) >= scene.materials.size()) {
        return at(part.where + ".material", "material " + std::to_string(src.material) + " does not exist");
      }
      part.material = src.material;
      const int set = src.material >= 0 ? scene.materials[static_cast<std::size_t>(src.material)].uv_set : 0;
      part.uv_set = set >= 0 && static_cast<std::size_t>(set) < src.uvs.size() ? static_cast<std::size_t>(set) : 0;
      if (src.uvs.size() > 1) {
        warnings.push_back({part.where, "the primitive has " + std::to_string(src.uvs.size()) + " UV sets but an MHFU vertex holds one: set " + std::to_string(part.uv_set) +
                                            " (the one its material's texture uses) is kept"});
      }
      if (auto e = prepare(part, bones ? &*bones : nullptr, world[static_cast<std::size_t>(d)], warnings); !e) return e.error();
      if (part.triangles.empty()) continue;
      if (const std::size_t narrowed = narrow_triangles(part.influences, part.triangles)) {
        warnings.push_back({part.where, std::to_string(narrowed) + " triangles lean on more than 8 joints: the joints weighing least on them leave their "
                                        "vertices, whose weights are renormalised (a GE draw blends 8 bones)"});
      }
      parts.push_back(std::move(part));
    }
  }
  if (parts.empty()) return at("meshes", "no primitive draws a triangle: a PMO needs at least one", ErrorCode::unsupported);

  // Per-axis scale: s16 positions fill their range (largest |coordinate| * 32768/32767 on each axis).
  MhfuPmo& pmo = out.pmo;
  std::array<float, 3> extent{0, 0, 0};
  for (const Part& p : parts) {
    for (std::uint32_t v : p.triangles) {
      const Vec3& q = p.positions[v];
      extent = {std::max(extent[0], std::abs(q.x)), std::max(extent[1], std::abs(q.y)), std::max(extent[2], std::abs(q.z))};
    }
  }
  Encoding enc;
  for (std::size_t c = 0; c < 3; ++c) {
    enc.scale[c] = extent[c] > 0.0f ? extent[c] * 32768.0f / 32767.0f : 1.0f;
    if (!std::isfinite(enc.scale[c])) return at("meshes", "the positions' extent is not finite", ErrorCode::unsupported);
  }
  pmo.scale = enc.scale;
  pmo.clip_distance = *std::max_element(enc.scale.begin(), enc.scale.end());

  // Materials in order of first use, opaque mesh first; the glTF default material is white, untextured.
  TmhImages tex{std::vector<int>(scene.textures.size(), -1)};
  std::map<int, std::uint8_t> pmo_material;
  const auto material_of = [&](int m) -> Result<std::uint8_t> {
    if (auto it = pmo_material.find(m); it != pmo_material.end()) return it->second;
    if (pmo.materials.size() == kMaxMaterials) return at("materials", "more than 255 materials: the remap names them by a byte", ErrorCode::unsupported);
    MhfuMaterial mat;
    mat.shadow = kShadow;
    if (m >= 0) {
      const Material& sm = scene.materials[static_cast<std::size_t>(m)];
      const auto colour = mhfu::material_colour(sm.base_color);
      if (!colour) return at("materials[" + std::to_string(m) + "].base_color", "the base colour is not finite");
      mat.color = *colour;
      if (sm.texture >= 0) {
        if (static_cast<std::size_t>(sm.texture) >= scene.textures.size()) {
          return at("materials[" + std::to_string(m) + "].texture", "texture " + std::to_string(sm.texture) + " does not exist");
        }
        auto image = tmh_image(scene, sm.texture, tex, out.tmh, warnings);
        if (!image) return image.error();
        mat.texture = static_cast<std::uint8_t>(*image);
      }
    }
    pmo.materials.push_back(mat);
    const auto index = static_cast<std::uint8_t>(pmo.materials.size() - 1);
    pmo_material.emplace(m, index);
    return index;
  };

  for (int translucent = 0; translucent < 2; ++translucent) {
    MhfuMesh mesh;
    mesh.lighting_flags = translucent ? kBlendFlags : kOpaqueFlags;
    mesh.blend = translucent ? kBlendWord : 0;
    mesh.material_start = static_cast<std::uint16_t>(pmo.remap.size());
    mesh.group_start = static_cast<std::uint16_t>(pmo.groups.size());
    std::map<std::uint8_t, std::uint8_t> offset_of;  // PMO material -> its place in the mesh's remap run
    std::array<int, kSlots> palette;
    palette.fill(-1);
    int last_material = -1;  // a new material's first group loads its whole palette, as the samples do
    for (Part& part : parts) {
      const bool blend = part.material >= 0 && scene.materials[static_cast<std::size_t>(part.material)].alpha_mode == AlphaMode::blend;
      if (blend != (translucent == 1)) continue;
      auto material = material_of(part.material);
      if (!material) return material.error();
      auto [it, added] = offset_of.emplace(*material, static_cast<std::uint8_t>(offset_of.size()));
      if (added) {
        if (offset_of.size() > kMaxMaterials) return at("materials", "more than 255 materials in one mesh", ErrorCode::unsupported);
        pmo.remap.push_back(*material);
      }
      auto groups = mhfu::group_triangles(part);
      if (!groups) return groups.error();
      for (std::size_t g = 0; g < groups->size(); ++g) {
        Group& group = (*groups)[g];
        MhfuGroup record;
        record.material_offset = it->second;
        record.bone_start = static_cast<std::uint16_t>(pmo.bone_palette.size());
        const std::vector<MhfuPaletteEntry> entries = mhfu::load_palette(palette, group.bones, last_material != int{*material});
        last_material = *material;
        record.bone_count = static_cast<std::uint8_t>(entries.size());
        pmo.bone_palette.insert(pmo.bone_palette.end(), entries.begin(), entries.end());
        auto block = mhfu::encode_block(part, group, enc, warnings);
        if (!block) return block.error();
        record.block = static_cast<std::uint32_t>(pmo.blocks.size());
        pmo.blocks.push_back(std::move(*block));
        pmo.groups.push_back(record);
        if (pmo.groups.size() > 0xFFFF || pmo.bone_palette.size() > 0xFFFF) {
          return at(part.where, "more than 65535 groups or bone palette entries: the PMO counts them in 16 bits", ErrorCode::unsupported);
        }
      }
    }
    mesh.material_count = static_cast<std::uint8_t>(offset_of.size());
    mesh.group_count = static_cast<std::uint16_t>(pmo.groups.size() - mesh.group_start);
    if (mesh.group_count > 0) pmo.meshes.push_back(mesh);
  }
  return out;
}

}  // namespace

Result<Lowered> author_mhfu_pac(const Scene& scene, const LowerInputs& inputs) {
  // --skeleton: a PAC (scene::author bound the Scene to its lift) or a bare skeleton (bound here),
  // whose skeleton is stored byte for byte.
  const MhfuSkeletonFile* game = nullptr;
  std::vector<Warning> warnings;
  std::optional<Scene> bound;
  if (inputs.skeleton != nullptr) {
    if (const auto* pac = std::get_if<Pac>(inputs.skeleton)) {
      for (const PacEntry& e : pac->entries) {
        if (!game) game = std::get_if<MhfuSkeletonFile>(&e.content);
      }
    } else if ((game = std::get_if<MhfuSkeletonFile>(inputs.skeleton))) {
      auto lifted = mhfu::lift_skeleton_alone(*game);
      if (!lifted) return lifted.error();
      auto b = bind_to_skeleton(scene, *lifted);
      if (!b) return b.error();
      bound = std::move(b->scene);
      warnings = std::move(b->warnings);
    }
    if (!game) return at("skeleton", std::string("--skeleton takes an MHFU PAC or skeleton, not a ") + format_name(format_of(*inputs.skeleton)), ErrorCode::unsupported);
  }
  auto made = author_parts(bound ? *bound : scene, warnings, game ? &game->skeleton : nullptr);
  if (!made) return made.error();
  Pac pac;
  pac.entries.push_back({MhfuPmoFile{std::move(made->pmo), {}}, {}});
  pac.entries.push_back({MhfuSkeletonFile{std::move(made->skeleton), game ? game->tail : Verbatim{}}, {}});
  pac.entries.push_back({TmhFile{std::move(made->tmh), {}}, {}});
  return Lowered{Document{std::move(pac)}, std::move(warnings)};
}

Result<Lowered> author_mhfu_pmo(const Scene& scene, const LowerInputs& inputs) {
  if (inputs.skeleton != nullptr) {
    return at("skeleton", "an authored PMO names bones in the order its own skeleton would give them: pass no skeleton",
              ErrorCode::unsupported);
  }
  std::vector<Warning> warnings;
  auto made = author_parts(scene, warnings);
  if (!made) return made.error();
  if (!made->tmh.images.empty()) {
    warnings.push_back({"textures", "a bare PMO holds no textures: its materials name TMH images 0-" + std::to_string(made->tmh.images.size() - 1) +
                                        ", which the PAC would hold (author a .pac to keep them)"});
  }
  return Lowered{Document{MhfuPmoFile{std::move(made->pmo), {}}}, std::move(warnings)};
}

}  // namespace remodel::scene
