// A new J3D BMD/BDL from a Scene alone (issue 17), laid out as Nintendo's converter lays out its files
// (lib/scene/j3d/README.md, "Authoring"): every node a JNT1 joint (INF1 nests materials and shapes under
// the joint that draws them), VTX1 formats chosen from the data, one SHP1 shape per primitive drawn
// through the lower's geometry pass (lower_shapes.cpp), MAT3/TEX1 in author_materials.cpp.
// A BDL adds MDL3, generated from MAT3 and TEX1 by j3d_mdl3_from_mat3 (model/j3d/mdl3.hpp).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "model/j3d/decode.hpp"
#include "model/j3d/mdl3.hpp"
#include "scene/j3d/author.hpp"
#include "scene/skin_joints.hpp"

namespace remodel::scene {

namespace {

constexpr std::size_t kMaxJoints = 0xFFFF;  // INF1 and DRW1 name joints by u16
constexpr std::size_t kMaxUvSets = 8;       // GX TEX0-7
constexpr float kS16Room = 32000.0f;        // the largest |stored| a fixed-point choice leaves room below 32767

// Joints: every node, depth first from the roots (INF1's and JNT1's order); several roots stand under
// a "root" joint, as a J3D model has one.
struct Joints {
  std::vector<int> node_of;        // JNT1 joint -> node (-1 = the added root)
  std::vector<int> joint_of_node;  // node -> JNT1 joint (-1 = none)
  std::vector<int> place_of_node;  // node -> the joint its shapes stand under in INF1
  std::vector<bool> folded_above;  // node -> a folded node stands between it and its parent joint
  std::vector<int> parent;         // JNT1 joint -> parent joint
};

// Joints in depth-first order from the roots (parents before children), with each one's children.
struct Tree {
  std::vector<std::vector<std::size_t>> children;
  std::vector<std::size_t> roots, order;
};

Tree depth_first(const std::vector<int>& parent) {
  Tree t;
  t.children.resize(parent.size());
  for (std::size_t c = 0; c < parent.size(); ++c) (parent[c] < 0 ? t.roots : t.children[static_cast<std::size_t>(parent[c])]).push_back(c);
  std::vector<std::size_t> stack(t.roots.rbegin(), t.roots.rend());
  while (!stack.empty()) {
    const std::size_t j = stack.back();
    stack.pop_back();
    t.order.push_back(j);
    stack.insert(stack.end(), t.children[j].rbegin(), t.children[j].rend());
  }
  return t;
}

// INF1 nests at most 256 levels: checked before anything builds or walks the hierarchy. A joint that
// draws stands two levels above its shapes (its material node between).
Result<void> check_inf1_depth(const Scene& scene, const Joints& j) {
  std::vector<bool> draws(j.node_of.size(), false);
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    const Node& node = scene.nodes[i];
    const bool has_primitives = node.mesh >= 0 && static_cast<std::size_t>(node.mesh) < scene.meshes.size() &&
                                !scene.meshes[static_cast<std::size_t>(node.mesh)].primitives.empty();
    if (has_primitives && node.visible && j.place_of_node[i] >= 0) draws[static_cast<std::size_t>(j.place_of_node[i])] = true;
  }
  std::vector<std::size_t> level(j.node_of.size(), 0);  // the INF1 child list each joint stands in
  for (const std::size_t k : depth_first(j.parent).order) {
    if (j.parent[k] >= 0) level[k] = level[static_cast<std::size_t>(j.parent[k])] + 1;
    if (level[k] + (draws[k] ? 2 : 0) > kJ3dMaxDepth) {
      const std::string what = j.node_of[k] >= 0 ? "nodes[" + std::to_string(static_cast<std::size_t>(j.node_of[k])) + "]" : "nodes";
      return at(what, "stands " + std::to_string(level[k] + 1) + " joints deep" + (draws[k] ? " and draws (its material and shape nodes nest two levels more)" : std::string()) +
                          "; J3D's INF1 hierarchy nests at most " + std::to_string(kJ3dMaxDepth) + " levels", ErrorCode::unsupported);
    }
  }
  return {};
}

Result<Joints> order_joints(const Scene& scene) {
  const std::size_t n = scene.nodes.size();
  if (n == 0) return at("nodes", "the scene has no nodes, so there is nothing to draw");
  if (n >= kMaxJoints) return at("nodes", "the scene has " + std::to_string(n) + " nodes; JNT1 names joints by u16 (at most 65534 here)", ErrorCode::unsupported);
  // A leaf drawing a skinned mesh and in no skin is no joint: glTF ignores its transform, and its
  // shapes stand under its parent joint (the lift's shape nodes). Nor is a node drawing nothing whose
  // children are all skin joints or such leaves (Blender's armature): it folds into its children.
  std::vector<bool> in_skin(n, false), has_child(n, false), skip(n, false);
  for (const Skin& k : scene.skins) {
    for (int j : k.joints) {
      if (j >= 0 && static_cast<std::size_t>(j) < n) in_skin[static_cast<std::size_t>(j)] = true;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const int p = scene.nodes[i].parent;
    if (p >= static_cast<int>(n) || p == static_cast<int>(i)) return at("nodes[" + std::to_string(i) + "].parent", "names node " + std::to_string(p) + ", which cannot be its parent");
    if (p >= 0) has_child[static_cast<std::size_t>(p)] = true;
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Node& node = scene.nodes[i];
    skip[i] = node.mesh >= 0 && node.skin >= 0 && !has_child[i] && !in_skin[i];
  }
  std::vector<bool> folds(n, true);  // every child is a skin joint or a skipped leaf
  for (std::size_t i = 0; i < n; ++i) {
    const int p = scene.nodes[i].parent;
    if (p >= 0 && !in_skin[i] && !skip[i]) folds[static_cast<std::size_t>(p)] = false;
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (scene.nodes[i].mesh < 0 && !in_skin[i] && has_child[i] && folds[i]) skip[i] = true;
    kept += skip[i] ? 0 : 1;
  }
  if (kept == 0) skip.assign(n, false);
  // Each node's nearest ancestor that is a joint (-1 none), walked at most n steps: more is a cycle.
  std::vector<int> up(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    int p = scene.nodes[i].parent;
    for (std::size_t steps = 0; p >= 0 && skip[static_cast<std::size_t>(p)]; ++steps) {
      if (steps > n) return at("nodes[" + std::to_string(i) + "].parent", "the node hierarchy holds a cycle above node " + std::to_string(i));
      p = scene.nodes[static_cast<std::size_t>(p)].parent;
    }
    up[i] = p;
  }
  std::vector<std::vector<int>> children(n);
  std::vector<int> roots;
  for (std::size_t i = 0; i < n; ++i) {
    if (skip[i]) continue;
    (up[i] < 0 ? roots : children[static_cast<std::size_t>(up[i])]).push_back(static_cast<int>(i));
  }
  Joints j;
  j.joint_of_node.assign(n, -1);
  const bool added_root = roots.size() != 1;
  if (added_root) {
    j.node_of.push_back(-1);
    j.parent.push_back(-1);
  }
  std::vector<std::pair<int, int>> stack;  // node, parent joint
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.emplace_back(*it, added_root ? 0 : -1);
  while (!stack.empty()) {
    const auto [node, parent] = stack.back();
    stack.pop_back();
    const int joint = static_cast<int>(j.node_of.size());
    j.joint_of_node[static_cast<std::size_t>(node)] = joint;
    j.node_of.push_back(node);
    j.parent.push_back(parent);
    const auto& c = children[static_cast<std::size_t>(node)];
    for (auto it = c.rbegin(); it != c.rend(); ++it) stack.emplace_back(*it, joint);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (j.joint_of_node[i] < 0 && !skip[i]) return at("nodes[" + std::to_string(i) + "].parent", "the node hierarchy holds a cycle, so node " + std::to_string(i) + " has no root");
  }
  j.place_of_node = j.joint_of_node;  // a skipped node's shapes: under its nearest joint ancestor, else the root
  j.folded_above.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    if (skip[i]) j.place_of_node[i] = up[i] >= 0 ? j.joint_of_node[static_cast<std::size_t>(up[i])] : 0;
    j.folded_above[i] = up[i] != scene.nodes[i].parent;
  }
  if (auto e = check_inf1_depth(scene, j); !e) return e.error();
  return j;
}

// On a game file's skeleton (--skeleton; `scene` bound to it by bind_to_skeleton): joint j is the
// bound skin 0's joint j (the lift's JNT1 order), its parent the game's INF1 parent; every other node
// stands under its nearest joint, else the game's first root joint.
Result<Joints> game_joints(const Scene& scene, const J3dFile& game) {
  const J3dJnt1* jnt = j3d_section<J3dJnt1>(game);
  const J3dInf1* inf = j3d_section<J3dInf1>(game);
  if (jnt == nullptr || inf == nullptr || scene.skins.empty() || scene.skins[0].joints.size() != jnt->joints.size()) {
    return at("skins[0]", "is not the --skeleton file's JNT1 (" + std::to_string(jnt == nullptr ? 0 : jnt->joints.size()) + " joints)", ErrorCode::unsupported);
  }
  const std::size_t n = scene.nodes.size();
  Joints j;
  j.joint_of_node.assign(n, -1);
  j.parent.assign(jnt->joints.size(), -1);
  j.folded_above.assign(n, false);
  for (int node : scene.skins[0].joints) {
    if (node < 0 || static_cast<std::size_t>(node) >= n) return at("skins[0].joints", "names node " + std::to_string(node) + ", which does not exist");
    j.joint_of_node[static_cast<std::size_t>(node)] = static_cast<int>(j.node_of.size());
    j.node_of.push_back(node);
  }
  int first_root = -1;
  struct Level {
    const std::vector<J3dNode>* nodes;
    int joint;
  };
  std::vector<Level> stack{{&inf->roots, -1}};  // INF1 walked with an explicit stack
  while (!stack.empty()) {
    const Level l = stack.back();
    stack.pop_back();
    for (const J3dNode& c : *l.nodes) {
      const bool joint = c.type == 0x10 && c.index < j.parent.size();
      if (joint) j.parent[c.index] = l.joint;
      if (joint && l.joint < 0 && first_root < 0) first_root = c.index;
      stack.push_back({&c.children, joint ? static_cast<int>(c.index) : l.joint});
    }
  }
  j.place_of_node = j.joint_of_node;
  for (std::size_t i = 0; i < n; ++i) {
    int p = static_cast<int>(i);
    for (std::size_t steps = 0; p >= 0 && j.joint_of_node[static_cast<std::size_t>(p)] < 0 && steps <= n; ++steps) p = scene.nodes[static_cast<std::size_t>(p)].parent;
    j.place_of_node[i] = p >= 0 && j.joint_of_node[static_cast<std::size_t>(p)] >= 0 ? j.joint_of_node[static_cast<std::size_t>(p)] : std::max(first_root, 0);
  }
  if (auto e = check_inf1_depth(scene, j); !e) return e.error();
  return j;
}

// One primitive as the geometry pass takes it: positions and normals in bind-pose model space, a
// joint map to JNT1 (rigid primitives lean on their node's joint).
struct Part {
  Primitive prim;
  std::string where;
  std::vector<std::uint16_t> joint_map;
  int scene_material = -1;
  std::size_t mesh_joint = 0;  // the joint of the node drawing it (its INF1 place)
  bool multi = false;          // its vertices lean on more than one joint or envelope
};

Result<void> prepare_parts(const Scene& scene, const Joints& joints, const std::vector<Mat4>& world, std::vector<Part>& parts) {
  for (std::size_t n = 0; n < scene.nodes.size(); ++n) {
    const Node& node = scene.nodes[n];
    if (node.mesh < 0 || !node.visible) continue;
    if (static_cast<std::size_t>(node.mesh) >= scene.meshes.size()) return at("nodes[" + std::to_string(n) + "].mesh", "names mesh " + std::to_string(node.mesh) + ", which does not exist");
    const Mesh& mesh = scene.meshes[static_cast<std::size_t>(node.mesh)];
    std::vector<std::uint16_t> skin_map;
    RestPose pose;  // glTF skins vertices by world * inverse bind; J3D stores them at the joints' rest pose
    if (node.skin >= 0) {
      if (static_cast<std::size_t>(node.skin) >= scene.skins.size()) return at("nodes[" + std::to_string(n) + "].skin", "names skin " + std::to_string(node.skin) + ", which does not exist");
      auto checked = skin_joints_parents_first(scene, node.skin);  // joints exist, once each; inverse binds one per joint
      if (!checked) return checked.error();
      auto rest = rest_pose(scene, node.skin, world);
      if (!rest) return rest.error();
      pose = std::move(*rest);
      const Skin& skin = scene.skins[static_cast<std::size_t>(node.skin)];
      for (std::size_t s = 0; s < skin.joints.size(); ++s) {
        skin_map.push_back(static_cast<std::uint16_t>(joints.joint_of_node[static_cast<std::size_t>(skin.joints[s])]));
      }
    }
    const Mat4& w = world[n];
    Mat4 normal_w;  // the inverse transpose of the node's world, for an unskinned primitive's normals
    {
      const Mat4 inv = inverse(w);
      for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 4; ++c) normal_w.at(r, c) = inv.at(c, r);
      }
    }
    for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
      Part part;
      part.where = "meshes[" + std::to_string(node.mesh) + "].primitives[" + std::to_string(p) + "]";
      part.prim = mesh.primitives[p];
      Primitive& prim = part.prim;
      part.scene_material = prim.material;
      part.mesh_joint = static_cast<std::size_t>(joints.place_of_node[n]);
      if (prim.material >= static_cast<int>(scene.materials.size())) {
        return at(part.where + ".material", "names material " + std::to_string(prim.material) + ", which does not exist");
      }
      if (node.skin < 0) {  // rigid to the node's joint
        prim.influences = 4;
        prim.joints.assign(prim.vertex_count() * 4, 0);
        prim.weights.assign(prim.vertex_count() * 4, 0.0f);
        for (std::size_t v = 0; v < prim.vertex_count(); ++v) prim.weights[v * 4] = 1.0f;
        part.joint_map = {static_cast<std::uint16_t>(part.mesh_joint)};
      } else {
        part.joint_map = skin_map;
      }
      if (auto e = j3d_check_primitive(prim, part.where); !e) return e.error();
      if (prim.uvs.size() > kMaxUvSets) return at(part.where + ".uvs", "has " + std::to_string(prim.uvs.size()) + " UV sets; GX draws at most 8 (TEX0-7)", ErrorCode::unsupported);
      std::map<std::vector<std::pair<std::uint16_t, float>>, int> seen;  // the distinct influences: one means one matrix
      for (std::size_t v = 0; v < prim.vertex_count(); ++v) {
        std::vector<std::pair<std::uint16_t, float>> inf;
        for (std::uint32_t k = 0; k < prim.influences; ++k) {
          const float wt = prim.weights[v * prim.influences + k];
          if (!(wt > 0)) continue;
          const std::uint16_t j = prim.joints[v * prim.influences + k];
          if (j >= part.joint_map.size()) {
            return at(part.where + ".joints", "vertex " + std::to_string(v) + " names joint " + std::to_string(j) + ", past the skin's " + std::to_string(part.joint_map.size()));
          }
          inf.emplace_back(part.joint_map[j], wt);
        }
        std::sort(inf.begin(), inf.end());
        seen[inf] = 1;
        if (node.skin < 0) {
          prim.positions[v] = transform_point(w, prim.positions[v]);
          if (!prim.normals.empty()) prim.normals[v] = normalize(transform_direction(normal_w, prim.normals[v]));
        } else if (!pose.at_rest && !inf.empty()) {
          const Mat4 blend = to_rest_of(prim, v, pose);
          prim.positions[v] = transform_point(blend, prim.positions[v]);
          if (!prim.normals.empty()) prim.normals[v] = normalize(transform_direction(blend, prim.normals[v]));
        }
      }
      part.multi = seen.size() > 1;
      parts.push_back(std::move(part));
    }
  }
  if (parts.empty()) return at("nodes", "no visible node draws a mesh, so the model would draw nothing", ErrorCode::unsupported);
  return {};
}

// The fixed-point shift that keeps `largest` inside s16, at most `most` bits; -1 when none does.
int s16_frac(float largest, int most) {
  for (int f = most; f >= 0; --f) {
    if (largest * std::ldexp(1.0f, f) <= kS16Room) return f;
  }
  return -1;
}

// VTX1 formats from the data: positions s16 with the most fractional bits their stored range allows
// (f32 past it), normals s16 with 14, colours RGBA8, UVs s16 with the most bits their range allows.
J3dVtx1 vertex_formats(const std::vector<Part>& parts, const std::vector<Mat4>& joint_world) {
  float pos = 0, uv[kMaxUvSets] = {};
  bool normals = false, colours = false;
  std::size_t uv_sets = 0;
  std::vector<std::optional<Mat4>> inverse_world(joint_world.size());
  for (const Part& part : parts) {
    const Primitive& p = part.prim;
    normals = normals || !p.normals.empty();
    colours = colours || !p.colors.empty();
    uv_sets = std::max(uv_sets, p.uvs.size());
    for (std::size_t u = 0; u < p.uvs.size(); ++u) {
      for (const Vec2& t : p.uvs[u]) uv[u] = std::max({uv[u], std::fabs(t.x), std::fabs(t.y)});
    }
    for (std::size_t v = 0; v < p.vertex_count(); ++v) {
      // A vertex on one joint is stored in that joint's space, one on an envelope in model space.
      int only = -1;
      for (std::uint32_t k = 0; k < p.influences; ++k) {
        if (!(p.weights[v * p.influences + k] > 0)) continue;
        const int j = part.joint_map[p.joints[v * p.influences + k]];
        only = only == -1 || only == j ? j : -2;
      }
      Vec3 stored = p.positions[v];
      if (only >= 0) {
        auto& inv = inverse_world[static_cast<std::size_t>(only)];
        if (!inv) inv = inverse(joint_world[static_cast<std::size_t>(only)]);
        stored = transform_point(*inv, stored);
      }
      pos = std::max({pos, std::fabs(stored.x), std::fabs(stored.y), std::fabs(stored.z)});
    }
  }
  J3dVtx1 vtx;
  const auto add = [&](std::uint32_t attribute, std::uint32_t components, std::uint32_t type, int frac, std::uint8_t slot) {
    vtx.formats.push_back({attribute, components, frac < 0 ? 4u : type, static_cast<std::uint8_t>(std::max(frac, 0)), {0xFF, 0xFF, 0xFF}});
    vtx.arrays.push_back({slot, {}, {}});
  };
  add(9, 1, 3, s16_frac(pos, 15), 0);  // POS XYZ
  if (normals) add(10, 0, 3, 14, 1);  // NRM XYZ, s16 with 14 bits as Nintendo's files
  if (colours) add(11, 1, 5, 0, 3);   // CLR0 RGBA8
  for (std::size_t u = 0; u < uv_sets; ++u) add(static_cast<std::uint32_t>(13 + u), 1, 3, s16_frac(uv[u], 15), static_cast<std::uint8_t>(5 + u));
  return vtx;
}

J3dJoint joint_of(const Trs& t) {
  J3dJoint j;
  j.scale = {t.scale.x, t.scale.y, t.scale.z};
  j.rotation = j3d_s16_angles(t.rotation);
  j.translation = {t.translation.x, t.translation.y, t.translation.z};
  return j;
}

// Each joint's bounds: the box and radius of the vertices leaning on it, in its own space.
void joint_bounds(const std::vector<Part>& parts, const std::vector<Mat4>& joint_world, J3dJnt1& jnt) {
  std::vector<bool> any(jnt.joints.size(), false);
  std::vector<Mat4> inv(joint_world.size());
  for (std::size_t j = 0; j < joint_world.size(); ++j) inv[j] = inverse(joint_world[j]);
  for (const Part& part : parts) {
    const Primitive& p = part.prim;
    for (std::size_t v = 0; v < p.vertex_count(); ++v) {
      for (std::uint32_t k = 0; k < p.influences; ++k) {
        if (!(p.weights[v * p.influences + k] > 0)) continue;
        const std::size_t j = part.joint_map[p.joints[v * p.influences + k]];
        const Vec3 q = transform_point(inv[j], p.positions[v]);
        J3dJoint& joint = jnt.joints[j];
        if (!any[j]) joint.min = joint.max = {q.x, q.y, q.z};
        any[j] = true;
        const float c[3] = {q.x, q.y, q.z};
        for (std::size_t a = 0; a < 3; ++a) {
          joint.min[a] = std::min(joint.min[a], c[a]);
          joint.max[a] = std::max(joint.max[a], c[a]);
        }
        joint.radius = std::max(joint.radius, length(q));
      }
    }
  }
}

// INF1: each joint's shapes under their materials (one material node per shape), then its child
// joints. Built from the leaves up in reverse depth-first order (explicit stacks, no recursion),
// each joint visited once.
std::vector<J3dNode> inf1_hierarchy(const std::vector<int>& parent, const std::vector<std::vector<std::pair<int, std::size_t>>>& shapes_of) {
  const std::size_t count = parent.size();
  const Tree tree = depth_first(parent);
  const auto& children = tree.children;
  std::vector<J3dNode> built(count);
  for (auto it = tree.order.rbegin(); it != tree.order.rend(); ++it) {
    const std::size_t j = *it;
    J3dNode& node = built[j];
    node = J3dNode{0x10, static_cast<std::uint16_t>(j), {}};
    node.children.reserve(shapes_of[j].size() + children[j].size());
    for (const auto& [material, shape] : shapes_of[j]) {
      node.children.push_back(J3dNode{0x11, static_cast<std::uint16_t>(material), {J3dNode{0x12, static_cast<std::uint16_t>(shape), {}}}});
    }
    for (std::size_t c : children[j]) node.children.push_back(std::move(built[c]));
  }
  std::vector<J3dNode> out;
  for (std::size_t r : tree.roots) out.push_back(std::move(built[r]));
  return out;
}

}  // namespace

void j3d_nintendo_draw_order(J3dFile& file) {
  J3dDrw1* drw = j3d_section<J3dDrw1>(file);
  J3dShp1* shp = j3d_section<J3dShp1>(file);
  if (drw == nullptr || shp == nullptr) return;
  std::vector<std::uint16_t> new_of(drw->indices.size());
  J3dDrw1 out;
  out.unknown_0x0a = drw->unknown_0x0a;
  for (std::uint8_t weighted : {0, 1}) {
    for (std::size_t d = 0; d < drw->indices.size(); ++d) {
      if (drw->weighted[d] != weighted) continue;
      new_of[d] = static_cast<std::uint16_t>(out.indices.size());
      out.weighted.push_back(weighted);
      out.indices.push_back(drw->indices[d]);
    }
  }
  const std::size_t rigid = static_cast<std::size_t>(std::count(out.weighted.begin(), out.weighted.end(), 0));
  for (std::size_t d = rigid, end = out.indices.size(); d < end; ++d) {  // the envelope run again, as every skinned sample
    out.weighted.push_back(1);
    out.indices.push_back(out.indices[d]);
  }
  for (std::uint16_t& m : shp->matrix_table) {
    if (m < new_of.size()) m = new_of[m];
  }
  for (J3dMatrixGroup& g : shp->matrix_groups) {
    if (g.use_matrix < new_of.size()) g.use_matrix = new_of[g.use_matrix];
  }
  *drw = std::move(out);
}

Result<Lowered> author_j3d(const Scene& scene, const LowerInputs& inputs) {
  Lowered result;
  const J3dFile* game = inputs.skeleton != nullptr ? std::get_if<J3dFile>(inputs.skeleton) : nullptr;
  auto joints = game != nullptr ? game_joints(scene, *game) : order_joints(scene);
  if (!joints) return joints.error();
  const std::vector<Mat4> world = world_matrices(scene);

  J3dFile file;
  file.type = inputs.j3d_bdl ? std::array<std::uint8_t, 4>{'b', 'd', 'l', '4'} : std::array<std::uint8_t, 4>{'b', 'm', 'd', '3'};
  file.header_0x10 = {'S', 'V', 'R', '3', 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

  // JNT1: local TRS of each node (the added root stands at the origin), names from the nodes.
  J3dJnt1 jnt;
  for (std::size_t j = 0; j < joints->node_of.size(); ++j) {
    const int n = joints->node_of[j];
    if (n < 0) {
      jnt.joints.push_back(J3dJoint{});
      jnt.names.names.push_back("root");
      continue;
    }
    const Node& node = scene.nodes[static_cast<std::size_t>(n)];
    const std::string where = "nodes[" + std::to_string(n) + "]";
    // Under a folded node: the local transform relative to the parent joint (the fold taken in).
    const int pj = joints->parent[j] >= 0 ? joints->node_of[static_cast<std::size_t>(joints->parent[j])] : -1;
    const Trs t = !joints->folded_above[static_cast<std::size_t>(n)] ? node.local
                  : decompose(pj >= 0 ? inverse(world[static_cast<std::size_t>(pj)]) * world[static_cast<std::size_t>(n)] : world[static_cast<std::size_t>(n)]);
    const float values[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w, t.scale.x, t.scale.y, t.scale.z};
    if (!std::all_of(std::begin(values), std::end(values), [](float f) { return std::isfinite(f); })) return at(where, "has a transform that is not finite");
    if (node.name.find('\0') != std::string::npos) return at(where + ".name", "holds a NUL byte, which a J3D name table cannot store");
    jnt.joints.push_back(joint_of(t));
    jnt.names.names.push_back(node.name.empty() ? "node" + std::to_string(n) : node.name);  // an unnamed node by its glTF index
  }
  for (std::size_t j = 0; j < jnt.joints.size(); ++j) jnt.remap.push_back(static_cast<std::uint16_t>(j));
  J3dEvp1 evp;
  if (game != nullptr) {  // the game's own joint records, byte for byte, and the inverse binds it stores
    jnt = *j3d_section<J3dJnt1>(*game);
    const J3dEvp1* game_evp = j3d_section<J3dEvp1>(*game);
    if (game_evp != nullptr && game_evp->inverse_binds.size() == jnt.joints.size()) evp.inverse_binds = game_evp->inverse_binds;
  }
  const std::vector<std::vector<std::pair<int, std::size_t>>> no_shapes(joints->node_of.size());
  J3dInf1 inf;
  inf.roots = inf1_hierarchy(joints->parent, no_shapes);
  file.sections = {inf, J3dVtx1{}, evp, J3dDrw1{}, jnt};
  // The rest pose as JNT1 holds it (s16 angles): what vertices are stored against.
  auto jw = j3d_joint_world_matrices(file);
  if (!jw) return jw.error();
  std::vector<Mat4> joint_world(jw->size());
  for (std::size_t j = 0; j < jw->size(); ++j) joint_world[j].m = (*jw)[j];

  std::vector<Part> parts;
  if (auto e = prepare_parts(scene, *joints, world, parts); !e) return e.error();
  if (game == nullptr) joint_bounds(parts, joint_world, std::get<J3dJnt1>(file.sections[4]));  // the game's stay

  // MAT3 and TEX1: one material per Scene material, one more for primitives with none.
  auto materials = author_j3d_materials(scene, result.warnings);
  if (!materials) return materials.error();

  // SHP1: one shape per primitive, its descriptors from what it holds.
  J3dShp1 shp;
  std::vector<std::vector<std::pair<int, std::size_t>>> shapes_of(joints->node_of.size());
  for (std::size_t s = 0; s < parts.size(); ++s) {
    const Part& part = parts[s];
    const Primitive& p = part.prim;
    std::vector<J3dVertexDescriptor> d;
    if (part.multi) d.push_back({0, 1});  // PNMTXIDX, direct
    d.push_back({9, 3});
    if (!p.normals.empty()) d.push_back({10, 3});
    if (!p.colors.empty()) d.push_back({11, 3});
    for (std::size_t u = 0; u < p.uvs.size(); ++u) d.push_back({static_cast<std::uint32_t>(13 + u), 3});
    const auto found = std::find(shp.descriptor_lists.begin(), shp.descriptor_lists.end(), d);
    J3dShape shape;
    shape.matrix_type = part.multi ? 3 : 0;
    shape.descriptors = static_cast<std::uint32_t>(found - shp.descriptor_lists.begin());
    if (found == shp.descriptor_lists.end()) shp.descriptor_lists.push_back(d);
    Vec3 lo{0, 0, 0}, hi{0, 0, 0};
    for (std::size_t v = 0; v < p.vertex_count(); ++v) {
      const Vec3 q = p.positions[v];
      lo = v == 0 ? q : Vec3{std::min(lo.x, q.x), std::min(lo.y, q.y), std::min(lo.z, q.z)};
      hi = v == 0 ? q : Vec3{std::max(hi.x, q.x), std::max(hi.y, q.y), std::max(hi.z, q.z)};
      shape.radius = std::max(shape.radius, length(q));
    }
    shape.min = {lo.x, lo.y, lo.z};
    shape.max = {hi.x, hi.y, hi.z};
    shp.shapes.push_back(shape);
    shp.remap.push_back(static_cast<std::uint16_t>(s));
    const int material = part.scene_material >= 0 ? materials->of_scene_material[static_cast<std::size_t>(part.scene_material)] : materials->default_material;
    shapes_of[part.mesh_joint].emplace_back(material, s);
  }
  if (shp.shapes.size() > 0xFFFF) return at("meshes", "the scene draws " + std::to_string(shp.shapes.size()) + " primitives; SHP1 holds at most 65535 shapes", ErrorCode::unsupported);
  std::get<J3dInf1>(file.sections[0]).roots = inf1_hierarchy(joints->parent, shapes_of);
  file.sections[1] = vertex_formats(parts, joint_world);
  file.sections.push_back(std::move(shp));
  if (inputs.j3d_bdl) {  // MDL3: each material's GX commands, as Galaxy's converter writes them
    auto mdl = j3d_mdl3_from_mat3(materials->mat3, materials->tex1);
    if (!mdl) return mdl.error();
    file.sections.push_back(std::move(materials->mat3));
    file.sections.push_back(std::move(*mdl));
  } else {
    file.sections.push_back(std::move(materials->mat3));
  }
  file.sections.push_back(std::move(materials->tex1));

  std::vector<J3dShapeInput> inputs_of(parts.size());
  for (std::size_t s = 0; s < parts.size(); ++s) inputs_of[s] = {&parts[s].prim, parts[s].where, parts[s].joint_map};
  if (auto e = author_j3d_geometry(inputs_of, file, result.warnings); !e) return e.error();
  j3d_nintendo_draw_order(file);
  result.document = std::move(file);
  return result;
}

}  // namespace remodel::scene
