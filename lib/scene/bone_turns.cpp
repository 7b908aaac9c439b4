#include "scene/bone_turns.hpp"

#include <algorithm>
#include <cmath>

#include "scene/anim_channels.hpp"

namespace remodel::scene {

Mat4 nearest_axis_rotation(const Mat4& m) {
  Mat4 p;
  bool used[3] = {false, false, false};
  for (int r = 0; r < 3; ++r) {
    // Scale cancels: each row's largest entry names the axis it turns to.
    float row_length = 0;
    int best = 0;
    for (int c = 0; c < 3; ++c) {
      row_length += m.at(r, c) * m.at(r, c);
      if (std::fabs(m.at(r, c)) > std::fabs(m.at(r, best))) best = c;
    }
    // Past 45 degrees from an axis the largest entry is below cos 45 of the row.
    if (used[best] || !(std::fabs(m.at(r, best)) > 0.7072f * std::sqrt(row_length))) return Mat4::identity();
    used[best] = true;
    for (int c = 0; c < 3; ++c) p.at(r, c) = c == best ? (m.at(r, best) < 0 ? -1.0f : 1.0f) : 0.0f;
  }
  const float det = p.at(0, 0) * (p.at(1, 1) * p.at(2, 2) - p.at(1, 2) * p.at(2, 1)) - p.at(0, 1) * (p.at(1, 0) * p.at(2, 2) - p.at(1, 2) * p.at(2, 0)) +
                    p.at(0, 2) * (p.at(1, 0) * p.at(2, 1) - p.at(1, 1) * p.at(2, 0));
  return det > 0 ? p : Mat4::identity();  // a mirror is an edit, not a turn
}

namespace {

Mat4 transposed(const Mat4& m) {
  Mat4 t;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) t.at(r, c) = m.at(c, r);
  }
  return t;
}

}  // namespace

Trs blender_scaled(Trs t) {
  for (float* s : {&t.scale.x, &t.scale.y, &t.scale.z}) *s = *s == 0.0f ? 1.0f : *s;
  return t;
}

std::vector<JointTurn> joint_turns(const Scene& in, const std::vector<int>& in_nodes, const std::vector<Trs>& base_locals) {
  const auto valid = [&](int n) { return n >= 0 && static_cast<std::size_t>(n) < in.nodes.size(); };
  std::vector<int> base_of(in.nodes.size(), -1);  // incoming node -> pair
  for (std::size_t k = 0; k < in_nodes.size() && k < base_locals.size(); ++k) {
    if (valid(in_nodes[k])) base_of[static_cast<std::size_t>(in_nodes[k])] = static_cast<int>(k);
  }
  // Unedited, L_in = P_parent^T * L_base * P: each joint's turn from its local and its parent joint's
  // turn, parents first (from locals, so a joint moved to another parent is not taken for a turn).
  std::vector<Mat4> turn_of(in.nodes.size(), Mat4::identity());
  std::vector<char> done(in.nodes.size(), 0);
  std::vector<int> chain;  // a joint and its ancestor joints not yet done, child first
  for (std::size_t start = 0; start < in.nodes.size(); ++start) {
    chain.clear();
    // Stops at a node that is done or no joint; a cycle (refused elsewhere) stops where it closes.
    for (int n = static_cast<int>(start); valid(n) && base_of[static_cast<std::size_t>(n)] >= 0 && done[static_cast<std::size_t>(n)] == 0;
         n = in.nodes[static_cast<std::size_t>(n)].parent) {
      done[static_cast<std::size_t>(n)] = 1;
      chain.push_back(n);
    }
    for (std::size_t c = chain.size(); c-- > 0;) {
      const auto i = static_cast<std::size_t>(chain[c]);
      const int parent = in.nodes[i].parent;
      const Mat4 parent_turn = valid(parent) && base_of[static_cast<std::size_t>(parent)] >= 0 ? turn_of[static_cast<std::size_t>(parent)] : Mat4::identity();
      bool ok = true;
      const Mat4 base_inverse = inverse(trs_matrix(blender_scaled(base_locals[static_cast<std::size_t>(base_of[i])])), &ok);
      if (ok) turn_of[i] = nearest_axis_rotation(base_inverse * parent_turn * trs_matrix(in.nodes[i].local));  // a 0 scale: no turn to find
    }
  }
  std::vector<JointTurn> out(in_nodes.size());
  for (std::size_t k = 0; k < out.size() && k < base_locals.size(); ++k) {
    if (!valid(in_nodes[k])) continue;
    const int parent = in.nodes[static_cast<std::size_t>(in_nodes[k])].parent;
    out[k].turn = turn_of[static_cast<std::size_t>(in_nodes[k])];
    if (valid(parent) && base_of[static_cast<std::size_t>(parent)] >= 0) out[k].parent_turn = turn_of[static_cast<std::size_t>(parent)];
  }
  return out;
}

Trs turns_taken_off(const Trs& local, const JointTurn& t) {
  if (!t.turned()) return local;
  // Path by path, as Blender's importer puts the turns on: a decompose of the whole would move a
  // negative scale's sign into the rotation (jb__comp_appearance_o.bck's joint 30 scales X to -0.12).
  Trs out;
  out.translation = transform_point(t.parent_turn, local.translation);
  out.rotation = rotation_of(t.parent_turn * rotation_matrix(local.rotation) * transposed(t.turn));
  Mat4 scale;
  scale.at(0, 0) = local.scale.x;
  scale.at(1, 1) = local.scale.y;
  scale.at(2, 2) = local.scale.z;
  const Mat4 moved = t.turn * scale * transposed(t.turn);  // a signed permutation moves the axes, signs and all
  out.scale = {moved.at(0, 0), moved.at(1, 1), moved.at(2, 2)};
  return out;
}

std::vector<IncomingJoint> incoming_joints(const Scene& in, const std::vector<int>& in_nodes, const Scene& base, const std::vector<int>& base_nodes) {
  const std::vector<Mat4> base_world = world_matrices(base);
  const auto valid = [](int n, const Scene& s) { return n >= 0 && static_cast<std::size_t>(n) < s.nodes.size(); };
  std::vector<int> pair_in(in_nodes.size(), -1);  // in_nodes with the pairs whose base joint is no node unmatched
  std::vector<Trs> base_locals(in_nodes.size());
  float extent = 1;
  for (std::size_t k = 0; k < in_nodes.size() && k < base_nodes.size(); ++k) {
    if (!valid(in_nodes[k], in) || !valid(base_nodes[k], base)) continue;
    pair_in[k] = in_nodes[k];
    base_locals[k] = base.nodes[static_cast<std::size_t>(base_nodes[k])].local;
    const Mat4& w = base_world[static_cast<std::size_t>(base_nodes[k])];
    extent = std::max(extent, length(Vec3{w.at(0, 3), w.at(1, 3), w.at(2, 3)}));
  }
  const std::vector<JointTurn> turns = joint_turns(in, pair_in, base_locals);
  std::vector<IncomingJoint> out(in_nodes.size());
  for (std::size_t k = 0; k < in_nodes.size() && k < base_nodes.size(); ++k) {
    if (pair_in[k] < 0) continue;
    const Trs& was = base_locals[k];
    IncomingJoint& j = out[k];
    j.local = turns_taken_off(in.nodes[static_cast<std::size_t>(pair_in[k])].local, turns[k]);
    if (j.local == was) continue;
    const float reach = static_cast<float>(kBoneRollNoise) * length(was.translation) + kJointReachNoise * extent;
    const Vec3 dt = j.local.translation - was.translation;
    j.translation_moved = !(std::fabs(dt.x) <= reach && std::fabs(dt.y) <= reach && std::fabs(dt.z) <= reach);
    const Vec3 kept = blender_scaled(was).scale;
    const auto near = [](float x, float y) { return std::fabs(x - y) <= kJointScaleNoise * std::max(1.0f, std::fabs(y)); };
    j.scale_moved = !((near(j.local.scale.x, was.scale.x) || near(j.local.scale.x, kept.x)) && (near(j.local.scale.y, was.scale.y) || near(j.local.scale.y, kept.y)) &&
                      (near(j.local.scale.z, was.scale.z) || near(j.local.scale.z, kept.z)));
    j.rotation_moved = !(rotation_angle(j.local.rotation, was.rotation) <= kBoneRollNoise);
  }
  return out;
}

PoseNoise pose_noise(const Scene& in, const std::vector<int>& nodes, const std::vector<JointTurn>& turns) {
  PoseNoise noise;
  noise.blender = std::any_of(turns.begin(), turns.end(), [](const JointTurn& turn) { return turn.turned(); });
  const std::vector<Mat4> world = world_matrices(in);
  for (int node : nodes) {
    if (node < 0 || static_cast<std::size_t>(node) >= world.size()) continue;
    const Mat4& w = world[static_cast<std::size_t>(node)];
    noise.extent = std::max(noise.extent, length(Vec3{w.at(0, 3), w.at(1, 3), w.at(2, 3)}));
  }
  return noise;
}

std::vector<Vec3> incoming_vectors(const Channel* c, Vec3 rest, const std::vector<float>& frames, float fps) {
  std::vector<Vec3> out;
  out.reserve(frames.size());
  for (float f : frames) {
    if (c == nullptr) {
      out.push_back(rest);
    } else {
      const auto v = sample_channel(*c, 3, f / fps);
      out.push_back({v[0], v[1], v[2]});
    }
  }
  return out;
}

std::vector<Quat> incoming_rotations(const Channel* c, Quat rest, const std::vector<float>& frames, float fps) {
  std::vector<Quat> out;
  out.reserve(frames.size());
  for (float f : frames) {
    if (c == nullptr) {
      out.push_back(normalize(rest));
    } else {
      const auto v = sample_channel(*c, 4, f / fps);
      out.push_back({v[0], v[1], v[2], v[3]});
    }
  }
  return out;
}

std::vector<Trs> IncomingJointPose::at(const std::vector<float>& frames) const {
  const std::vector<Vec3> translations = incoming_vectors(paths[0], rest.translation, frames, fps);
  const std::vector<Quat> rotations = incoming_rotations(paths[1], rest.rotation, frames, fps);
  const std::vector<Vec3> scales = incoming_vectors(paths[2], rest.scale, frames, fps);
  std::vector<Trs> out(frames.size());
  for (std::size_t f = 0; f < frames.size(); ++f) out[f] = turns_taken_off(Trs{translations[f], rotations[f], scales[f]}, turn);
  return out;
}

double rotation_angle(Quat a, Quat b) {
  // The vector part and the scalar of conj(a) * b; their ratio is the same for unnormalised a and b.
  const double x = double{a.w} * b.x - double{a.x} * b.w - double{a.y} * b.z + double{a.z} * b.y;
  const double y = double{a.w} * b.y + double{a.x} * b.z - double{a.y} * b.w - double{a.z} * b.x;
  const double z = double{a.w} * b.z - double{a.x} * b.y + double{a.y} * b.x - double{a.z} * b.w;
  const double w = double{a.w} * b.w + double{a.x} * b.x + double{a.y} * b.y + double{a.z} * b.z;
  return 2 * std::atan2(std::sqrt(x * x + y * y + z * z), std::abs(w));
}

}  // namespace remodel::scene
