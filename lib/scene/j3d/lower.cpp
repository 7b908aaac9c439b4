// Scene -> J3D BMD/BDL over a base: nodes, meshes, materials and textures matched to the base's
// joints, shapes, materials and TEX1 entries (extras, then names, then order); JNT1 bind poses and
// names, MAT3 names, TEX1 images here, geometry in lower_shapes.cpp.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <unordered_map>

#include "model/j3d/decode.hpp"
#include "model/j3d/mdl3.hpp"
#include "model/j3d/texture.hpp"
#include "scene/bone_turns.hpp"
#include "scene/j3d/author.hpp"
#include "scene/j3d/lower.hpp"
#include "scene/lift.hpp"

namespace remodel::scene {

std::array<std::int16_t, 3> j3d_s16_angles(const Quat& q) {
  const Vec3 a = euler_xyz_of(normalize(q));
  const float radians[3] = {a.x, a.y, a.z};
  std::array<std::int16_t, 3> out{};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto v = static_cast<std::int64_t>(std::llround(static_cast<double>(radians[i]) * 32768.0 / std::numbers::pi));
    out[i] = static_cast<std::int16_t>(static_cast<std::uint16_t>(v & 0xFFFF));  // +180 degrees wraps to -180
  }
  return out;
}

Result<void> j3d_check_primitive(const Primitive& p, const std::string& where) {
  if (auto e = check_primitive(p, where); !e) return e.error();
  const std::size_t n = p.vertex_count();
  if (p.influences == 0 && n != 0) return Error{ErrorCode::unsupported, std::nullopt, where, "has no JOINTS_0/WEIGHTS_0; every J3D vertex is drawn by a joint or an envelope"};
  if (p.topology != Topology::triangles && p.topology != Topology::triangle_strip && p.topology != Topology::triangle_fan) {
    return Error{ErrorCode::unsupported, std::nullopt, where, "draws points or lines, which a J3D shape cannot hold"};
  }
  return {};
}

namespace {

// The extras key `key` as an index, when it holds one.
std::optional<std::size_t> extras_index(const Extras& extras, const char* key) {
  if (!extras.is_object()) return std::nullopt;
  const auto it = extras.find(key);
  if (it == extras.end() || !it->is_number_unsigned()) return std::nullopt;
  return it->get<std::size_t>();
}

// Matches `count` incoming items to `base_count` base items: by extras index, then by the base's
// name, then the rest in order. Returns base index per incoming item (-1 = none) and whether order was used.
struct Matched {
  std::vector<int> base_of;
  bool by_order = false;
};

// Blender names a second item of one name "name.001": the name it was given.
std::string without_blender_suffix(const std::string& name) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string::npos || name.size() - dot != 4) return name;
  const bool digits = std::all_of(name.begin() + static_cast<std::ptrdiff_t>(dot) + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; });
  return digits ? name.substr(0, dot) : name;
}

template <typename GetExtras, typename GetName>
Matched match_items(std::size_t count, std::size_t base_count, const std::vector<std::string>& base_names, GetExtras extras_of, GetName name_of,
                    bool by_order = true) {
  Matched m;
  m.base_of.assign(count, -1);
  std::vector<bool> taken(base_count, false);
  for (std::size_t i = 0; i < count; ++i) {
    if (const auto b = extras_of(i); b && *b < base_count && !taken[*b]) {
      m.base_of[i] = static_cast<int>(*b);
      taken[*b] = true;
    }
  }
  std::unordered_map<std::string, std::size_t> by_name;
  for (std::size_t b = base_count; b-- > 0;) by_name[base_names[b]] = b;
  for (const bool blender_suffix : {false, true}) {
    for (std::size_t i = 0; i < count; ++i) {
      if (m.base_of[i] >= 0) continue;
      const std::string name = blender_suffix ? without_blender_suffix(name_of(i)) : name_of(i);
      if (const auto it = by_name.find(name); it != by_name.end() && !taken[it->second]) {
        m.base_of[i] = static_cast<int>(it->second);
        taken[it->second] = true;
      }
    }
  }
  if (!by_order) return m;
  std::size_t next = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (m.base_of[i] >= 0) continue;
    while (next < base_count && taken[next]) ++next;
    if (next == base_count) break;
    m.base_of[i] = static_cast<int>(next);
    taken[next] = true;
    m.by_order = true;
  }
  return m;
}

Result<void> check_name(const std::string& name, const std::string& where) {
  if (name.find('\0') != std::string::npos) return Error{ErrorCode::bad_value, std::nullopt, where, "holds a NUL byte, which a J3D name table cannot store"};
  return {};
}

// JNT1 names and bind poses from the joint nodes; EVP1's inverse binds follow the joints that moved.
Result<void> lower_joints(const Scene& scene, const Scene& base_scene, const std::vector<int>& base_joint_node, const std::vector<int>& node_of_joint,
                                  const J3dFile& base, J3dFile& out) {
  J3dJnt1* jnt = j3d_section<J3dJnt1>(out);
  J3dEvp1* evp = j3d_section<J3dEvp1>(out);
  bool moved = false;
  const std::vector<IncomingJoint> joints = incoming_joints(scene, node_of_joint, base_scene, base_joint_node);
  for (std::size_t j = 0; j < jnt->joints.size(); ++j) {
    if (node_of_joint[j] < 0) continue;
    const Node& in = scene.nodes[static_cast<std::size_t>(node_of_joint[j])];
    const Node& was = base_scene.nodes[static_cast<std::size_t>(base_joint_node[j])];
    const std::string where = "nodes[" + std::to_string(node_of_joint[j]) + "]";
    if (in.name != was.name) {
      if (auto e = check_name(in.name, where + ".name"); !e) return e.error();
      if (j >= jnt->names.names.size()) return Error{ErrorCode::unsupported, std::nullopt, where, "renames a joint JNT1's name table does not hold"};
      jnt->names.names[j] = in.name;
    }
    // Blender's bone turns taken off and its noise ignored (bone_turns.hpp): what moved is an edit.
    const IncomingJoint& ij = joints[j];
    if (!finite(ij.local.translation) || !finite(ij.local.scale) || !finite(ij.local.rotation)) {
      return Error{ErrorCode::bad_value, std::nullopt, where, "has a transform that is not finite"};
    }
    J3dJoint& joint = jnt->joints[j];
    if (ij.translation_moved) joint.translation = {ij.local.translation.x, ij.local.translation.y, ij.local.translation.z};
    if (ij.scale_moved) joint.scale = {ij.local.scale.x, ij.local.scale.y, ij.local.scale.z};
    // The stored s16 angles (steps of pi / 32768) stand unless the rotation moved past the noise.
    if (ij.rotation_moved) joint.rotation = j3d_s16_angles(ij.local.rotation);
    moved = moved || ij.translation_moved || ij.scale_moved || ij.rotation_moved;
  }
  if (!moved || evp == nullptr) return {};
  auto base_world = j3d_joint_world_matrices(base);
  if (!base_world) return base_world.error();
  auto new_world = j3d_joint_world_matrices(out);
  if (!new_world) return new_world.error();
  // EVP1's inverse bind of a joint whose world moved: the inverse of its new world matrix.
  for (std::size_t j = 0; j < jnt->joints.size() && j < evp->inverse_binds.size(); ++j) {
    if ((*new_world)[j] == (*base_world)[j]) continue;
    Mat4 w;
    w.m = (*new_world)[j];
    bool ok = true;
    const Mat4 ibm = inverse(w, &ok);
    if (!ok) continue;  // a joint scaled to 0 keeps what it stored
    std::array<float, 12> rows{};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 4; ++c) rows[static_cast<std::size_t>(r * 4 + c)] = ibm.at(r, c);
    }
    evp->inverse_binds[j] = rows;
  }
  return {};
}

// Puts SHP1 shape `shape` under INF1 material `material`: the material node above it is renamed
// when the shape is its only child, else the shape moves into a new material node just after it.
// Walked with an explicit stack. False when no material node holds the shape.
bool draw_shape_with(std::vector<J3dNode>& roots, std::uint16_t shape, std::uint16_t material) {
  std::vector<std::vector<J3dNode>*> stack{&roots};
  while (!stack.empty()) {
    std::vector<J3dNode>& nodes = *stack.back();
    stack.pop_back();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      J3dNode& m = nodes[i];
      const auto held = std::find_if(m.children.begin(), m.children.end(), [&](const J3dNode& c) { return c.type == 0x12 && c.index == shape; });
      if (m.type != 0x11 || held == m.children.end()) {
        stack.push_back(&m.children);
        continue;
      }
      if (m.index == material) return true;
      if (m.children.size() == 1) {
        m.index = material;
        return true;
      }
      J3dNode moved{0x11, material, {std::move(*held)}};
      m.children.erase(held);
      nodes.insert(nodes.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(moved));
      return true;
    }
  }
  return false;
}

}  // namespace

Result<Lowered> lower_j3d(const Scene& scene, const J3dFile& base, const LowerInputs& inputs) {
  (void)inputs;
  auto lifted = lift_j3d(base, LiftInputs{});
  if (!lifted) return lifted.error();
  const Scene& base_scene = *lifted;
  Lowered result;
  J3dFile out = base;
  J3dJnt1* jnt = j3d_section<J3dJnt1>(out);
  J3dShp1* shp = j3d_section<J3dShp1>(out);
  if (jnt == nullptr || shp == nullptr) return Error{ErrorCode::bad_value, std::nullopt, "sections", "a J3D model needs JNT1 and SHP1"};

  // Joints: the base's joint nodes (lift: joint j is skin joint j) against the incoming nodes that
  // stand for joints (every skin's joints, else every node).
  const Skin& base_skin = base_scene.skins.at(0);
  std::vector<std::string> joint_names;
  for (int n : base_skin.joints) joint_names.push_back(base_scene.nodes[static_cast<std::size_t>(n)].name);
  std::vector<int> candidates;
  {
    std::vector<bool> in_skin(scene.nodes.size(), false);
    for (std::size_t k = 0; k < scene.skins.size(); ++k) {
      for (std::size_t i = 0; i < scene.skins[k].joints.size(); ++i) {
        const int n = scene.skins[k].joints[i];
        if (n < 0 || static_cast<std::size_t>(n) >= scene.nodes.size()) {
          return Error{ErrorCode::bad_value, std::nullopt, "skins[" + std::to_string(k) + "].joints[" + std::to_string(i) + "]", "names node " + std::to_string(n) + ", which does not exist"};
        }
        if (!in_skin[static_cast<std::size_t>(n)]) candidates.push_back(n);
        in_skin[static_cast<std::size_t>(n)] = true;
      }
    }
  }
  const Matched joints = match_items(
      candidates.size(), base_skin.joints.size(), joint_names,
      [&](std::size_t i) { return extras_index(scene.nodes[static_cast<std::size_t>(candidates[i])].extras, "joint"); },
      [&](std::size_t i) { return scene.nodes[static_cast<std::size_t>(candidates[i])].name; });
  std::vector<int> node_of_joint(base_skin.joints.size(), -1), joint_of_node(scene.nodes.size(), -1);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (joints.base_of[i] < 0) {
      return Error{ErrorCode::unsupported, std::nullopt, "nodes[" + std::to_string(candidates[i]) + "]",
                   "is a joint the base does not have; JNT1 holds " + std::to_string(base_skin.joints.size()) + " and joints cannot be added"};
    }
    node_of_joint[static_cast<std::size_t>(joints.base_of[i])] = candidates[i];
    joint_of_node[static_cast<std::size_t>(candidates[i])] = joints.base_of[i];
  }
  if (joints.by_order) result.warnings.push_back({"skins", "joints without remodel extras or a base joint's name were matched to JNT1 by order"});
  // INF1 keeps the base's hierarchy: a joint under another parent joint is said, not carried.
  const auto parent_joint = [](const Scene& sc, int node, const std::vector<int>& joint_of) {
    for (int k = sc.nodes[static_cast<std::size_t>(node)].parent; k >= 0; k = sc.nodes[static_cast<std::size_t>(k)].parent) {
      if (joint_of[static_cast<std::size_t>(k)] >= 0) return joint_of[static_cast<std::size_t>(k)];
    }
    return -1;
  };
  std::vector<int> base_joint_of(base_scene.nodes.size(), -1);
  for (std::size_t j = 0; j < base_skin.joints.size(); ++j) base_joint_of[static_cast<std::size_t>(base_skin.joints[j])] = static_cast<int>(j);
  for (std::size_t j = 0; j < node_of_joint.size(); ++j) {
    if (node_of_joint[j] < 0) continue;
    if (parent_joint(scene, node_of_joint[j], joint_of_node) != parent_joint(base_scene, base_skin.joints[j], base_joint_of)) {
      result.warnings.push_back({"nodes[" + std::to_string(node_of_joint[j]) + "]", "has another parent joint than JNT1 joint " + std::to_string(j) +
                                                                                     " has in INF1; the hierarchy was kept from the base"});
    }
  }
  if (auto e = lower_joints(scene, base_scene, base_skin.joints, node_of_joint, base, out); !e) return e.error();

  // Materials: by extras, then by name (never by order: an unrelated base material would draw the
  // new mesh). Matched ones rename (MAT3 and, in a BDL, MDL3's copy); their other values are the base's.
  const Matched materials = match_items(
      scene.materials.size(), base_scene.materials.size(),
      [&] { std::vector<std::string> v; for (const Material& m : base_scene.materials) v.push_back(m.name); return v; }(),
      [&](std::size_t i) { return extras_index(scene.materials[i].extras, "material"); }, [&](std::size_t i) { return scene.materials[i].name; }, false);
  J3dMat3* mat = j3d_section<J3dMat3>(out);
  J3dMdl3* mdl = j3d_section<J3dMdl3>(out);
  for (std::size_t i = 0; i < scene.materials.size() && mat != nullptr; ++i) {
    const int b = materials.base_of[i];
    const std::string where = "materials[" + std::to_string(i) + "]";
    if (b < 0) continue;  // a new material, added below
    const Material& in = scene.materials[i];
    const Material& was = base_scene.materials[static_cast<std::size_t>(b)];
    if (in.name != was.name) {
      if (auto e = check_name(in.name, where + ".name"); !e) return e.error();
      if (static_cast<std::size_t>(b) >= mat->names.names.size()) return Error{ErrorCode::unsupported, std::nullopt, where, "renames a material MAT3's name table does not hold"};
      // MDL3 names its packets as MAT3 names the materials: kept equal when they were.
      if (mdl != nullptr && static_cast<std::size_t>(b) < mdl->names.names.size() && mdl->names.names[static_cast<std::size_t>(b)] == mat->names.names[static_cast<std::size_t>(b)]) {
        mdl->names.names[static_cast<std::size_t>(b)] = in.name;
      }
      mat->names.names[static_cast<std::size_t>(b)] = in.name;
    }
    const bool same_values = in.base_color == was.base_color && in.alpha_mode == was.alpha_mode && in.alpha_cutoff == was.alpha_cutoff &&
                             in.double_sided == was.double_sided && in.vertex_colors == was.vertex_colors && in.unlit == was.unlit;
    if (!same_values) {
      result.warnings.push_back({where, "changes colour, alpha, culling or lighting, which MAT3" + std::string(mdl != nullptr ? " and MDL3 encode" : " encodes") +
                                            " as GX state; those values were kept from the base"});
    }
  }
  // Textures only new materials show become TEX1 entries with them (below), not edits of the base's.
  std::vector<bool> shown_by_new(scene.textures.size(), false), shown_by_base(scene.textures.size(), false);
  for (std::size_t i = 0; i < scene.materials.size(); ++i) {
    const int t = scene.materials[i].texture;
    if (t >= 0 && static_cast<std::size_t>(t) < scene.textures.size()) (materials.base_of[i] < 0 ? shown_by_new : shown_by_base)[static_cast<std::size_t>(t)] = true;
  }

  // Textures: each incoming texture stands for TEX1 entries, by its extras, else through the materials
  // using it (Blender writes only the textures its materials use, one per material, unnamed, over its
  // distinct images, in its own order), else by name. TEX1 entries nothing stands for keep their bytes.
  if (!scene.textures.empty()) {
    J3dTex1* tex1 = j3d_section<J3dTex1>(out);
    const std::size_t base_count = base_scene.textures.size();
    std::vector<std::vector<std::size_t>> tex1_of(scene.textures.size());
    const auto stand_for = [&](std::size_t i, std::size_t k) {
      if (std::find(tex1_of[i].begin(), tex1_of[i].end(), k) == tex1_of[i].end()) tex1_of[i].push_back(k);
    };
    std::vector<bool> by_extras(scene.textures.size(), false);
    for (std::size_t i = 0; i < scene.textures.size(); ++i) {
      if (const auto k = extras_index(scene.textures[i].extras, "tex1_index"); k && *k < base_count) {
        stand_for(i, *k);
        by_extras[i] = true;
      }
    }
    for (std::size_t i = 0; i < scene.materials.size(); ++i) {
      const int t = scene.materials[i].texture, b = materials.base_of[i];
      if (t < 0 || static_cast<std::size_t>(t) >= scene.textures.size() || b < 0 || by_extras[static_cast<std::size_t>(t)]) continue;
      const int k = base_scene.materials[static_cast<std::size_t>(b)].texture;
      if (k >= 0 && static_cast<std::size_t>(k) < base_count) stand_for(static_cast<std::size_t>(t), static_cast<std::size_t>(k));
    }
    for (std::size_t i = 0; i < scene.textures.size(); ++i) {
      if (!tex1_of[i].empty() || scene.textures[i].name.empty() || (shown_by_new[i] && !shown_by_base[i])) continue;
      for (std::size_t k = 0; k < base_count; ++k) {
        if (base_scene.textures[k].name == scene.textures[i].name) stand_for(i, k);
      }
    }
    // The incoming texture each TEX1 entry takes its image from: one that changed it, when any does.
    std::vector<int> source(base_count, -1);
    for (std::size_t i = 0; i < scene.textures.size(); ++i) {
      const std::string where = "textures[" + std::to_string(i) + "]";
      if (tex1_of[i].empty() && shown_by_new[i]) continue;  // authored with its new material
      if (tex1_of[i].empty() || tex1 == nullptr) {
        result.warnings.push_back({where, "is not in the base's TEX1 and was left out (textures cannot be added)"});
        continue;
      }
      for (const std::size_t k : tex1_of[i]) {
        const RgbaImage& was = base_scene.textures[k].image;
        const int s = source[k];
        if (s < 0 || (scene.textures[static_cast<std::size_t>(s)].image == was && !(scene.textures[i].image == was))) {
          source[k] = static_cast<int>(i);
        } else if (!(scene.textures[i].image == was) && !(scene.textures[i].image == scene.textures[static_cast<std::size_t>(s)].image)) {
          result.warnings.push_back({where, "gives TEX1 " + std::to_string(k) + " another image than textures[" + std::to_string(s) + "] does; the first was used"});
        }
      }
    }
    for (std::size_t k = 0; k < base_count && tex1 != nullptr; ++k) {
      if (source[k] < 0) continue;
      const Texture& in = scene.textures[static_cast<std::size_t>(source[k])];
      const Texture& was = base_scene.textures[k];
      const std::string where = "textures[" + std::to_string(source[k]) + "]";
      if (!in.name.empty() && in.name != was.name) {  // an unnamed texture renames nothing
        if (auto e = check_name(in.name, where + ".name"); !e) return e.error();
        if (k < tex1->names.names.size()) tex1->names.names[k] = in.name;
      }
      if (in.image == was.image) continue;
      if (in.image.rgba.size() != std::size_t{in.image.width} * in.image.height * 4 || in.image.width == 0 || in.image.height == 0) {
        return Error{ErrorCode::bad_value, std::nullopt, where, "has an image whose pixels do not match its size"};
      }
      const J3dTexture before = k < tex1->textures.size() ? tex1->textures[k] : J3dTexture{};  // else replace_j3d_texture refuses
      if (auto replaced = replace_j3d_texture(*tex1, k, in.image); !replaced) {
        const Error& e = replaced.error();
        return Error{e.code, e.offset, where + " (TEX1 " + std::to_string(k) + ")", e.message};
      }
      if (mdl != nullptr && mat != nullptr) {  // a BDL's MDL3 repeats the texture's size
        if (auto followed = j3d_mdl3_follow_texture(*mdl, *mat, *tex1, k, before); !followed) {
          const Error& e = followed.error();
          return Error{e.code, e.offset, where + " (MDL3)", e.message};
        }
      }
    }
  }

  // A material no base material stands for: a new MAT3 entry (and TEX1 entry for its texture),
  // authored as a new file authors it, and its packet in a BDL's MDL3.
  std::vector<int> j3d_material_of(materials.base_of);
  if (std::find(j3d_material_of.begin(), j3d_material_of.end(), -1) != j3d_material_of.end()) {
    J3dTex1* tex1 = j3d_section<J3dTex1>(out);
    if (mat == nullptr || tex1 == nullptr) return Error{ErrorCode::unsupported, std::nullopt, "materials", "a new material needs the base's MAT3 and TEX1"};
    const std::size_t first = mat->remap.size();
    const auto sizes = j3d_mat3_table_sizes(*mat);
    std::vector<int> tex1_of(scene.textures.size(), -1);
    for (std::size_t i = 0; i < scene.materials.size(); ++i) {
      if (j3d_material_of[i] >= 0) continue;
      const Material& in = scene.materials[i];
      const std::string where = "materials[" + std::to_string(i) + "]";
      auto added = add_j3d_material(scene, in, in.name.empty() ? "material" + std::to_string(mat->remap.size()) : in.name, where, *mat, *tex1, tex1_of, result.warnings);
      if (!added) return added.error();
      j3d_material_of[i] = *added;
      result.warnings.push_back({where, "is not a material of the base: it was added as MAT3 material " + std::to_string(*added) +
                                            (in.texture >= 0 ? " with its texture as TEX1 " + std::to_string(tex1_of[static_cast<std::size_t>(in.texture)]) : std::string())});
    }
    j3d_mat3_follow_growth(*mat, sizes);
    if (mdl != nullptr) {
      if (auto e = j3d_mdl3_add_materials(*mdl, *mat, *tex1, first); !e) return Error{e.error().code, e.error().offset, "materials (MDL3)", e.error().message};
    }
  }

  // Shapes: each incoming primitive matched to a SHP1 shape (lift: mesh s = shape s, one primitive).
  struct Incoming {
    const Primitive* prim;
    std::string where;
    int mesh;
    std::string name;
  };
  std::vector<Incoming> prims;
  for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
    for (std::size_t p = 0; p < scene.meshes[m].primitives.size(); ++p) {
      const std::string where = "meshes[" + std::to_string(m) + "].primitives[" + std::to_string(p) + "]";
      if (auto e = j3d_check_primitive(scene.meshes[m].primitives[p], where); !e) return e.error();
      prims.push_back({&scene.meshes[m].primitives[p], where, static_cast<int>(m), p == 0 ? scene.meshes[m].name : ""});
    }
  }
  std::vector<std::string> shape_names;
  for (const Mesh& m : base_scene.meshes) shape_names.push_back(m.name);
  const Matched shapes = match_items(
      prims.size(), base_scene.meshes.size(), shape_names, [&](std::size_t i) { return extras_index(prims[i].prim->extras, "shape"); },
      [&](std::size_t i) { return prims[i].name; });
  if (shapes.by_order) result.warnings.push_back({"meshes", "primitives without remodel extras or a base mesh's name were matched to SHP1 shapes by order"});
  // Each mesh's skin: the node drawing it.
  std::vector<int> skin_of_mesh(scene.meshes.size(), -1);
  for (const Node& n : scene.nodes) {
    if (n.mesh >= 0 && static_cast<std::size_t>(n.mesh) < scene.meshes.size() && n.skin >= 0 && skin_of_mesh[static_cast<std::size_t>(n.mesh)] < 0) {
      if (static_cast<std::size_t>(n.skin) >= scene.skins.size()) return Error{ErrorCode::bad_value, std::nullopt, "nodes.skin", "names skin " + std::to_string(n.skin) + ", which does not exist"};
      skin_of_mesh[static_cast<std::size_t>(n.mesh)] = n.skin;
    }
  }
  const auto joint_map = [&](int mesh) -> Result<std::vector<std::uint16_t>> {
    std::vector<std::uint16_t> map;
    const int skin = skin_of_mesh[static_cast<std::size_t>(mesh)];
    if (skin < 0) return map;  // no skin: every joint index is out of range, said per vertex
    for (int n : scene.skins[static_cast<std::size_t>(skin)].joints) {
      const int j = joint_of_node[static_cast<std::size_t>(n)];
      if (j < 0) return Error{ErrorCode::bad_value, std::nullopt, "skins[" + std::to_string(skin) + "]", "holds a node that is not a JNT1 joint"};
      map.push_back(static_cast<std::uint16_t>(j));
    }
    return map;
  };
  std::vector<J3dShapeInput> shape_inputs(base_scene.meshes.size());
  std::vector<J3dNewShape> added;
  for (std::size_t i = 0; i < prims.size(); ++i) {
    auto map = joint_map(prims[i].mesh);
    if (!map) return map.error();
    if (shapes.base_of[i] < 0) {
      J3dNewShape n{prims[i].prim, prims[i].where, std::move(*map), -1};
      if (prims[i].prim->material >= 0 && static_cast<std::size_t>(prims[i].prim->material) < j3d_material_of.size()) n.material = j3d_material_of[static_cast<std::size_t>(prims[i].prim->material)];
      added.push_back(std::move(n));
      continue;
    }
    shape_inputs[static_cast<std::size_t>(shapes.base_of[i])] = {prims[i].prim, prims[i].where, std::move(*map)};
  }
  for (std::size_t s = 0; s < shape_inputs.size(); ++s) {
    if (shape_inputs[s].incoming == nullptr) {
      shape_inputs[s].where = "SHP1.shape[" + std::to_string(s) + "]";
      result.warnings.push_back({shape_inputs[s].where, "has no primitive in the Scene: it was removed from SHP1 and INF1 (later shapes move down one index)"});
    }
  }
  // A matched shape whose primitive now shows another material stands under that material in INF1.
  for (std::size_t s = 0; s < shape_inputs.size(); ++s) {
    const Primitive* in = shape_inputs[s].incoming;
    if (in == nullptr || in->material < 0 || static_cast<std::size_t>(in->material) >= j3d_material_of.size()) continue;
    const int m = j3d_material_of[static_cast<std::size_t>(in->material)];
    J3dInf1* inf = j3d_section<J3dInf1>(out);
    if (m >= 0 && inf != nullptr && m != base_scene.meshes[s].primitives[0].material) draw_shape_with(inf->roots, static_cast<std::uint16_t>(s), static_cast<std::uint16_t>(m));
  }
  bool geometry_changed = false;
  if (auto e = lower_j3d_geometry(base, base_scene, shape_inputs, added, out, result.warnings, geometry_changed); !e) return e.error();
  result.document = std::move(out);
  return result;
}

}  // namespace remodel::scene
