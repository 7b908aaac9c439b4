#include "scene/skin_joints.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace remodel::scene {

Result<SkinJoints> skin_joints_parents_first(const Scene& scene, int skin_index) {
  const Skin& skin = scene.skins[static_cast<std::size_t>(skin_index)];
  const std::string where = "skins[" + std::to_string(skin_index) + "]";
  const auto fail = [](std::string field, std::string message) { return Error{ErrorCode::bad_value, std::nullopt, std::move(field), std::move(message)}; };
  const std::size_t n = skin.joints.size();
  if (n == 0) return Error{ErrorCode::bad_count, std::nullopt, where + ".joints", "the skin has no joints"};
  if (!skin.inverse_bind_matrices.empty() && skin.inverse_bind_matrices.size() != n) {
    return Error{ErrorCode::inconsistent, std::nullopt, where + ".inverse_bind_matrices",
                 "the skin has " + std::to_string(n) + " joints but " + std::to_string(skin.inverse_bind_matrices.size()) + " inverse bind matrices"};
  }
  std::vector<int> slot_of_node(scene.nodes.size(), -1);
  for (std::size_t s = 0; s < n; ++s) {
    const int node = skin.joints[s];
    const std::string field = where + ".joints[" + std::to_string(s) + "]";
    if (node < 0 || static_cast<std::size_t>(node) >= scene.nodes.size()) {
      return fail(field, "joint " + std::to_string(s) + " is node " + std::to_string(node) + ", which does not exist");
    }
    if (slot_of_node[static_cast<std::size_t>(node)] >= 0) return fail(field, "node " + std::to_string(node) + " is in the skin twice");
    slot_of_node[static_cast<std::size_t>(node)] = static_cast<int>(s);
  }
  SkinJoints out;
  // Each joint's nearest ancestor that is a joint (bounded walk: a cyclic hierarchy is an error).
  out.parent.assign(n, -1);
  for (std::size_t s = 0; s < n; ++s) {
    int p = scene.nodes[static_cast<std::size_t>(skin.joints[s])].parent;
    for (std::size_t steps = 0; p >= 0 && out.parent[s] < 0; ++steps) {
      if (static_cast<std::size_t>(p) >= scene.nodes.size() || steps > scene.nodes.size()) {
        return fail("nodes[" + std::to_string(skin.joints[s]) + "].parent", "the node hierarchy above joint " + std::to_string(s) + " is broken");
      }
      out.parent[s] = slot_of_node[static_cast<std::size_t>(p)];
      p = scene.nodes[static_cast<std::size_t>(p)].parent;
    }
  }
  out.index_of.assign(n, -1);
  while (out.order.size() < n) {
    const std::size_t before = out.order.size();
    for (std::size_t s = 0; s < n; ++s) {
      if (out.index_of[s] < 0 && (out.parent[s] < 0 || out.index_of[static_cast<std::size_t>(out.parent[s])] >= 0)) {
        out.index_of[s] = static_cast<int>(out.order.size());
        out.order.push_back(s);
      }
    }
    if (out.order.size() == before) return fail(where + ".joints", "the joints' parents form a cycle");
  }
  return out;
}

Result<DrawnNodes> drawn_nodes(const Scene& scene, const std::string& file, const std::string& one_skin, const std::string& all_skinned) {
  const auto at = [](std::string field, std::string message, ErrorCode code) { return Error{code, std::nullopt, std::move(field), std::move(message)}; };
  DrawnNodes out;
  for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
    const Node& n = scene.nodes[i];
    if (n.mesh < 0 || !n.visible) continue;
    const std::string where = "nodes[" + std::to_string(i) + "]";
    if (static_cast<std::size_t>(n.mesh) >= scene.meshes.size()) return at(where + ".mesh", "mesh " + std::to_string(n.mesh) + " does not exist", ErrorCode::bad_value);
    if (n.skin >= 0 && static_cast<std::size_t>(n.skin) >= scene.skins.size()) {
      return at(where + ".skin", "skin " + std::to_string(n.skin) + " does not exist", ErrorCode::bad_value);
    }
    if (n.skin >= 0 && out.skin >= 0 && n.skin != out.skin) {
      return at(where + ".skin", "the node uses skin " + std::to_string(n.skin) + " and another node skin " + std::to_string(out.skin) + ": " + one_skin,
                ErrorCode::unsupported);
    }
    if (n.skin >= 0) out.skin = n.skin;
    out.nodes.push_back(static_cast<int>(i));
  }
  if (out.nodes.empty()) return at("nodes", "no node draws a mesh: " + file + " needs at least one triangle", ErrorCode::unsupported);
  for (int d : out.nodes) {
    if (out.skin >= 0 && scene.nodes[static_cast<std::size_t>(d)].skin < 0) {
      return at("nodes[" + std::to_string(d) + "].skin", "the node draws a mesh with no skin but the model is skinned: " + all_skinned, ErrorCode::unsupported);
    }
  }
  return out;
}

Result<RestPose> rest_pose(const Scene& scene, int skin_index, const std::vector<Mat4>& world) {
  const Skin& skin = scene.skins[static_cast<std::size_t>(skin_index)];
  RestPose out;
  out.to_rest.resize(skin.joints.size());
  for (std::size_t s = 0; s < skin.joints.size(); ++s) {
    const Mat4& w = world[static_cast<std::size_t>(skin.joints[s])];
    bool ok = true;
    const Mat4 ibm = skin.inverse_bind_matrices.empty() ? inverse(w, &ok) : skin.inverse_bind_matrices[s];
    if (ok) (void)inverse(ibm, &ok);  // an inverse bind is the inverse of a pose: a singular one binds nothing
    if (!ok || !std::all_of(ibm.m.begin(), ibm.m.end(), [](float f) { return std::isfinite(f); })) {
      return Error{ErrorCode::bad_value, std::nullopt, "skins[" + std::to_string(skin_index) + "].inverse_bind_matrices[" + std::to_string(s) + "]",
                   "a non-finite or singular inverse bind matrix"};
    }
    out.to_rest[s] = w * ibm;
    if (max_abs_difference(out.to_rest[s], Mat4::identity()) > 1e-5f) out.at_rest = false;
  }
  return out;
}

Mat4 to_rest_of(const Primitive& p, std::size_t v, const RestPose& pose) {
  Mat4 m;
  m.m.fill(0);
  float sum = 0;
  std::size_t used = 0;
  for (std::size_t k = 0; k < p.influences; ++k) {
    const float w = p.weights[v * p.influences + k];
    const std::size_t j = p.joints[v * p.influences + k];
    if (!(w > 0.0f) || j >= pose.to_rest.size()) continue;
    for (std::size_t i = 0; i < 16; ++i) m.m[i] += w * pose.to_rest[j].m[i];
    sum += w;
    ++used;
  }
  // Weights summing to 1 within glTF-Validator's bound (2e-7 per weight) blend as glTF draws them; others
  // are renormalised, as every format stores them.
  if (sum > 0.0f && std::fabs(sum - 1.0f) > 2e-7f * static_cast<float>(used)) {
    for (float& f : m.m) f /= sum;
  }
  return m;
}

}  // namespace remodel::scene
