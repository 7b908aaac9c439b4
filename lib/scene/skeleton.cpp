#include "scene/skeleton.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

#include "scene/skin_joints.hpp"

namespace remodel::scene {

namespace {

std::string node_where(int n) { return "nodes[" + std::to_string(n) + "]"; }

// The game's joints and every ancestor of one, in node order, and each kept node's new index.
std::vector<int> kept_game_nodes(const Scene& game, const Skin& skin, std::vector<int>& new_index) {
  std::vector<char> keep(game.nodes.size(), 0);
  for (int j : skin.joints) {
    // A parent chain visits each node once: a cycle stops at the first node already kept.
    for (int n = j; n >= 0 && static_cast<std::size_t>(n) < game.nodes.size() && !keep[static_cast<std::size_t>(n)];
         n = game.nodes[static_cast<std::size_t>(n)].parent) {
      keep[static_cast<std::size_t>(n)] = 1;
    }
  }
  std::vector<int> kept;
  new_index.assign(game.nodes.size(), -1);
  for (std::size_t n = 0; n < game.nodes.size(); ++n) {
    if (!keep[n]) continue;
    new_index[n] = static_cast<int>(kept.size());
    kept.push_back(static_cast<int>(n));
  }
  return kept;
}

// Nodes of `in` walked up to the first whose name is a game joint's: that joint's skin index, -1 when
// none is. Memoised, and linear in the node count: each node is resolved once.
class JointResolver {
 public:
  JointResolver(const Scene& in, const std::unordered_map<std::string, int>& game_joint) : in_(in), game_joint_(game_joint), memo_(in.nodes.size(), kUnset) {}

  int operator()(int node) {
    std::vector<int> path;
    int n = node, found = -1;
    while (n >= 0 && static_cast<std::size_t>(n) < in_.nodes.size()) {
      const int m = memo_[static_cast<std::size_t>(n)];
      if (m == kVisiting) break;  // a cycle: nothing above it resolves
      if (m != kUnset) {
        found = m;
        break;
      }
      if (auto it = game_joint_.find(in_.nodes[static_cast<std::size_t>(n)].name); it != game_joint_.end()) {
        found = it->second;
        memo_[static_cast<std::size_t>(n)] = found;
        break;
      }
      memo_[static_cast<std::size_t>(n)] = kVisiting;
      path.push_back(n);
      n = in_.nodes[static_cast<std::size_t>(n)].parent;
    }
    for (int p : path) memo_[static_cast<std::size_t>(p)] = found;
    return found;
  }

 private:
  static constexpr int kUnset = -2, kVisiting = -3;
  const Scene& in_;
  const std::unordered_map<std::string, int>& game_joint_;
  std::vector<int> memo_;
};

// The matrix taking a vertex bound by `to_rest_in` to where the game's joints put it, or nothing when
// the game's blend is singular. The identity within float noise is exactly the identity, so a mesh on
// a skeleton that only Blender turned keeps its bytes.
std::optional<Mat4> rebind(const Mat4& to_rest_in, const Mat4& to_rest_game) {
  bool ok = true;
  const Mat4 m = inverse(to_rest_game, &ok) * to_rest_in;
  if (!ok || !finite(m)) return std::nullopt;
  return max_abs_difference(m, Mat4::identity()) <= 1e-6f ? Mat4::identity() : m;
}

}  // namespace

Result<BoundScene> bind_to_skeleton(const Scene& in, const Scene& game) {
  if (game.skins.empty() || game.skins[0].joints.empty()) {
    return Error{ErrorCode::unsupported, std::nullopt, "skins", "the skeleton file has no skinned joints to bind a mesh to"};
  }
  const Skin& game_skin = game.skins[0];
  const std::vector<Mat4> game_world = world_matrices(game), in_world = world_matrices(in);
  Result<RestPose> game_pose = rest_pose(game, 0, game_world);
  if (!game_pose) return game_pose.error();

  BoundScene out;
  std::vector<Warning>& warnings = out.warnings;
  Scene& s = out.scene;
  std::vector<int> new_index;
  for (int n : kept_game_nodes(game, game_skin, new_index)) {
    Node node = game.nodes[static_cast<std::size_t>(n)];
    node.parent = node.parent >= 0 ? new_index[static_cast<std::size_t>(node.parent)] : -1;
    std::erase_if(node.children, [&](int c) { return c < 0 || static_cast<std::size_t>(c) >= new_index.size() || new_index[static_cast<std::size_t>(c)] < 0; });
    for (int& c : node.children) c = new_index[static_cast<std::size_t>(c)];
    node.mesh = node.skin = -1;
    s.nodes.push_back(std::move(node));
  }
  Skin skin = game_skin;
  for (int& j : skin.joints) j = new_index[static_cast<std::size_t>(j)];
  if (skin.skeleton >= 0) skin.skeleton = new_index[static_cast<std::size_t>(skin.skeleton)];
  if (skin.inverse_bind_matrices.empty()) {
    for (int j : game_skin.joints) skin.inverse_bind_matrices.push_back(inverse(game_world[static_cast<std::size_t>(j)]));
  }
  s.skins.push_back(std::move(skin));
  s.scenes.push_back(SceneRoots{in.scenes.empty() ? std::string() : in.scenes[0].name, {}});
  for (std::size_t g = 0; g < s.nodes.size(); ++g) {
    if (s.nodes[g].parent < 0) s.scenes[0].nodes.push_back(static_cast<int>(g));
  }

  std::unordered_map<std::string, int> game_joint;
  for (std::size_t g = 0; g < game_skin.joints.size(); ++g) game_joint.emplace(game.nodes[static_cast<std::size_t>(game_skin.joints[g])].name, static_cast<int>(g));
  // Two incoming joints of one name would each claim the game's joint.
  std::unordered_map<std::string, int> claimed;
  for (std::size_t k = 0; k < in.skins.size(); ++k) {
    for (int j : in.skins[k].joints) {
      if (j < 0 || static_cast<std::size_t>(j) >= in.nodes.size()) {
        return at("skins[" + std::to_string(k) + "].joints", "names node " + std::to_string(j) + ", which does not exist");
      }
      const std::string& name = in.nodes[static_cast<std::size_t>(j)].name;
      if (!game_joint.contains(name)) continue;
      if (auto [it, fresh] = claimed.emplace(name, j); !fresh && it->second != j) {
        return at(node_where(j), "two joints are named \"" + name + "\"; the skeleton's joint of that name can stand for only one");
      }
    }
  }
  JointResolver resolve(in, game_joint);

  // A joint the modder moved is not the game's: the game's is kept, and the modder is told.
  float extent = 1;
  for (int j : game_skin.joints) {
    const Mat4& w = game_world[static_cast<std::size_t>(j)];
    extent = std::max(extent, length(Vec3{w.m[12], w.m[13], w.m[14]}));
  }
  for (const auto& [name, j] : claimed) {
    const Mat4& a = in_world[static_cast<std::size_t>(j)];
    const Mat4& b = game_world[static_cast<std::size_t>(game_skin.joints[static_cast<std::size_t>(game_joint.at(name))])];
    const float moved = length(Vec3{a.m[12] - b.m[12], a.m[13] - b.m[13], a.m[14] - b.m[14]});
    if (moved > 1e-3f * extent) {
      warnings.push_back({node_where(j), "joint \"" + name + "\" is " + std::to_string(moved) + " from where the skeleton file holds it; the skeleton file's joint is kept"});
    }
  }

  std::map<std::pair<int, int>, int> made;  // (mesh, skin or -1 - node) -> mesh of the result
  std::vector<char> told(in.nodes.size(), 0);
  for (std::size_t n = 0; n < in.nodes.size(); ++n) {
    const Node& node = in.nodes[n];
    if (node.mesh < 0 || !node.visible) continue;  // what authoring draws (skin_joints.hpp, drawn_nodes)
    if (static_cast<std::size_t>(node.mesh) >= in.meshes.size()) return at(node_where(static_cast<int>(n)) + ".mesh", "names a mesh that does not exist");
    const bool skinned = node.skin >= 0;
    if (skinned && static_cast<std::size_t>(node.skin) >= in.skins.size()) return at(node_where(static_cast<int>(n)) + ".skin", "names a skin that does not exist");
    const std::pair<int, int> key{node.mesh, skinned ? node.skin : -1 - static_cast<int>(n)};
    int mesh_index;
    if (auto it = made.find(key); it != made.end()) {
      mesh_index = it->second;
    } else {
      const Mesh& source = in.meshes[static_cast<std::size_t>(node.mesh)];
      Mesh mesh{source.name, {}, source.extras};
      std::optional<RestPose> in_pose;
      std::vector<int> joint_map;  // incoming skin joint -> game skin joint
      int rigid = -1;
      if (skinned) {
        Result<RestPose> pose = rest_pose(in, node.skin, in_world);
        if (!pose) return pose.error();
        in_pose = std::move(*pose);
        for (int j : in.skins[static_cast<std::size_t>(node.skin)].joints) {
          const int g = resolve(j);
          if (g < 0) return at(node_where(j), "joint \"" + in.nodes[static_cast<std::size_t>(j)].name + "\" is not in the skeleton file, and no joint above it is");
          if (!game_joint.contains(in.nodes[static_cast<std::size_t>(j)].name) && !told[static_cast<std::size_t>(j)]) {
            told[static_cast<std::size_t>(j)] = 1;
            warnings.push_back({node_where(j), "joint \"" + in.nodes[static_cast<std::size_t>(j)].name + "\" is not in the skeleton file; what it weighs goes to \"" +
                                                   game.nodes[static_cast<std::size_t>(game_skin.joints[static_cast<std::size_t>(g)])].name + "\", the nearest joint above it that is"});
          }
          joint_map.push_back(g);
        }
      } else {
        rigid = resolve(static_cast<int>(n));
        if (rigid < 0) {
          rigid = 0;
          warnings.push_back({node_where(static_cast<int>(n)), "the mesh node is under no joint of the skeleton file; it follows \"" +
                                                                   game.nodes[static_cast<std::size_t>(game_skin.joints[0])].name + "\", its first joint"});
        }
      }
      for (std::size_t pi = 0; pi < source.primitives.size(); ++pi) {
        const std::string where = "meshes[" + std::to_string(node.mesh) + "].primitives[" + std::to_string(pi) + "]";
        if (auto e = check_primitive(source.primitives[pi], where); !e) return e.error();
        Primitive p = source.primitives[pi];
        const std::size_t count = p.vertex_count();
        if (!skinned) {
          p.influences = 4;
          p.joints.assign(count * 4, 0);
          p.weights.assign(count * 4, 0.0f);
          for (std::size_t v = 0; v < count; ++v) {
            p.joints[v * 4] = static_cast<std::uint16_t>(rigid);
            p.weights[v * 4] = 1.0f;
          }
        } else {
          for (std::uint16_t& j : p.joints) j = j < joint_map.size() ? static_cast<std::uint16_t>(joint_map[j]) : std::uint16_t{0};
        }
        for (std::size_t v = 0; v < count; ++v) {
          const Mat4 from = skinned ? to_rest_of(source.primitives[pi], v, *in_pose) : in_world[n];
          if (skinned && std::all_of(from.m.begin(), from.m.end(), [](float f) { return f == 0.0f; })) continue;  // weighs nothing: kept as given
          const std::optional<Mat4> m = rebind(from, to_rest_of(p, v, *game_pose));
          if (!m) return at(where + ".attributes.JOINTS_0", "vertex " + std::to_string(v) + " cannot be bound to the skeleton file's joints: their blend is singular");
          if (*m == Mat4::identity()) continue;
          p.positions[v] = transform_point(*m, p.positions[v]);
          if (v < p.normals.size()) p.normals[v] = normalize(transform_direction(*m, p.normals[v]));
        }
        mesh.primitives.push_back(std::move(p));
      }
      mesh_index = static_cast<int>(s.meshes.size());
      s.meshes.push_back(std::move(mesh));
      made.emplace(key, mesh_index);
    }
    s.add_node(Node{node.name, -1, {}, Trs{}, mesh_index, 0, true, node.extras});
  }
  s.materials = in.materials;
  s.textures = in.textures;
  s.extras = in.extras;

  for (std::size_t a = 0; a < in.animations.size(); ++a) {
    Animation animation{in.animations[a].name, {}, in.animations[a].extras};
    std::size_t dropped = 0;
    for (const Channel& c : in.animations[a].channels) {
      const auto it = c.node >= 0 && static_cast<std::size_t>(c.node) < in.nodes.size() ? game_joint.find(in.nodes[static_cast<std::size_t>(c.node)].name) : game_joint.end();
      if (it == game_joint.end()) {
        ++dropped;
        continue;
      }
      Channel kept = c;
      kept.node = s.skins[0].joints[static_cast<std::size_t>(it->second)];
      animation.channels.push_back(std::move(kept));
    }
    if (dropped > 0) {
      warnings.push_back({"animations[" + std::to_string(a) + "]", std::to_string(dropped) + " of its channels move nodes that are not joints of the skeleton file; they are dropped"});
    }
    if (!animation.channels.empty()) s.animations.push_back(std::move(animation));
  }
  return out;
}

}  // namespace remodel::scene
