// What the J3D joint animations (BCK, BCA) share going from a Scene to a file, and the lower and
// author of the J3D animation format, which pick the kind's own by the base's section or the new file's kind.
#include "scene/j3d/anim_joints.hpp"

#include <algorithm>
#include <cmath>

#include "model/j3d/anim_eval.hpp"
#include "model/j3d/decode.hpp"
#include "scene/anim_channels.hpp"

namespace remodel::scene {

namespace {

// Each joint's node: by the --skeleton model's names (`skeleton`), else the first skin's joints in order.
Result<std::vector<int>> joint_nodes(const Scene& scene, const J3dAnimSkeleton* skeleton, std::size_t joints, const char* kind,
                                     std::vector<Warning>& warnings) {
  std::vector<int> nodes(joints, -1);
  const std::string the = std::string("the ") + kind;
  if (skeleton != nullptr) {
    if (skeleton->names.size() != joints) {
      return at("skeleton", the + " animates " + std::to_string(joints) + " joints but the --skeleton model's JNT1 has " + std::to_string(skeleton->names.size()),
                ErrorCode::bad_count);
    }
    std::size_t missing = 0;
    for (std::size_t j = 0; j < joints; ++j) {
      nodes[j] = node_named(scene, skeleton->names[j]);
      missing += nodes[j] < 0 ? 1 : 0;
    }
    if (missing != 0) warnings.push_back({"nodes", std::to_string(missing) + " joints have no node of their name: their tracks are kept"});
    return nodes;
  }
  if (scene.skins.empty()) {
    return at("skeleton", std::string("a ") + kind + " names no joints itself and the glTF has no skin listing them: pass the model it animates with --skeleton",
              ErrorCode::unsupported);
  }
  const std::vector<int>& skin = scene.skins[0].joints;
  if (skin.size() != joints) {
    return at("skins[0].joints", the + " animates " + std::to_string(joints) + " joints but the glTF's skin has " + std::to_string(skin.size()) +
                                     "; pass the model it animates with --skeleton", ErrorCode::bad_count);
  }
  return skin;
}

// The incoming animation that stands for the base: the one named as the base file, else the only one.
Result<const Animation*> matching_animation(const Scene& scene, const std::string& base_name, const char* kind) {
  for (const Animation& a : scene.animations) {
    if (!base_name.empty() && a.name == base_name) return &a;
  }
  if (scene.animations.size() == 1) return &scene.animations[0];
  std::string names;
  for (const Animation& a : scene.animations) names += (names.empty() ? "\"" : ", \"") + a.name + "\"";
  return at("animations", scene.animations.empty() ? std::string("the glTF has no animations to store in a ") + kind
                                                   : "none of the glTF's animations (" + names + ") is named \"" + base_name +
                                                         "\" as the base " + kind + " is, and there is more than one",
            ErrorCode::unsupported);
}

}  // namespace

Result<J3dAnimSkeleton> j3d_anim_skeleton(const Document* doc, const char* needs) {
  const J3dFile* model = doc != nullptr ? std::get_if<J3dFile>(doc) : nullptr;
  const J3dJnt1* jnt = model != nullptr ? j3d_section<J3dJnt1>(*model) : nullptr;
  if (jnt == nullptr) {
    return at("skeleton", std::string(doc == nullptr ? "no --skeleton was given" : std::string("the --skeleton file is a ") + format_name(format_of(*doc)) +
                                                                                        (model != nullptr ? " without JNT1" : "")) +
                              "; " + needs, ErrorCode::unsupported);
  }
  J3dAnimSkeleton s;
  for (std::size_t j = 0; j < jnt->joints.size(); ++j) {
    const J3dJoint& joint = jnt->joints[j];
    s.names.push_back(j < jnt->names.names.size() ? jnt->names.names[j] : "joint" + std::to_string(j));
    J3dJointPose pose;
    for (std::size_t i = 0; i < 3; ++i) {
      pose.scale[i] = joint.scale[i];
      pose.rotation[i] = joint.rotation[i] * j3d_angle_unit(0);
      pose.translation[i] = joint.translation[i];
    }
    Trs t;
    t.scale = {pose.scale[0], pose.scale[1], pose.scale[2]};
    t.rotation = euler_to_quat({pose.rotation[0], pose.rotation[1], pose.rotation[2]}, EulerOrder::xyz);
    t.translation = {pose.translation[0], pose.translation[1], pose.translation[2]};
    s.rest.push_back(t);
  }
  return s;
}

Result<J3dAnimBase> j3d_anim_base(const Scene& scene, const std::string& base_name, const char* kind) {
  auto found = matching_animation(scene, base_name, kind);
  if (!found) return found.error();
  J3dAnimBase b{*found, "animations[" + std::to_string(static_cast<std::size_t>(*found - scene.animations.data())) + "]"};
  for (std::size_t c = 0; c < b.animation->channels.size(); ++c) {
    if (auto e = check_channel(b.animation->channels[c], scene.nodes.size(), b.where + ".channels[" + std::to_string(c) + "]"); !e) return e.error();
  }
  return b;
}

Result<J3dAnimTarget> j3d_anim_target(const Scene& scene, const LowerInputs& inputs, std::size_t joints, const char* kind,
                                      std::vector<Warning>& warnings) {
  J3dAnimTarget t;
  std::optional<J3dAnimSkeleton> skeleton;
  if (inputs.skeleton != nullptr) {
    auto read = j3d_anim_skeleton(inputs.skeleton, (std::string("a ") + kind + " animates the joints of a J3D model (BMD/BDL)").c_str());
    if (!read) return read.error();
    skeleton = std::move(*read);
  }
  auto nodes = joint_nodes(scene, skeleton ? &*skeleton : nullptr, joints, kind, warnings);
  if (!nodes) return nodes.error();
  t.nodes = std::move(*nodes);
  t.turns.resize(joints);
  if (skeleton) {
    // Blender's turns come off against the model's rest poses; the noise is allowed only where it turned.
    t.turns = joint_turns(scene, t.nodes, skeleton->rest);
    t.noise = pose_noise(scene, t.nodes, t.turns);
  }
  auto base = j3d_anim_base(scene, inputs.base_name, kind);
  if (!base) return base.error();
  t.animation = base->animation;
  t.where = std::move(base->where);
  return t;
}

std::array<std::optional<std::vector<float>>, 3> changed_angles(const std::vector<Quat>& incoming, const std::vector<Vec3>& stored, float unit,
                                                                const PoseNoise& noise) {
  std::array<std::optional<std::vector<float>>, 3> out;
  bool same = true;
  for (std::size_t f = 0; f < stored.size() && same; ++f) {
    same = rotation_angle(euler_to_quat(stored[f] * unit, EulerOrder::xyz), incoming[f]) <= std::max({1e-5, 0.5 * unit, noise.rotation()});
  }
  if (same) return out;
  std::array<std::vector<float>, 3> units;
  for (std::size_t f = 0; f < stored.size(); ++f) {
    const Vec3 e = nearest_euler(incoming[f], stored[f] * unit);
    for (std::size_t i = 0; i < 3; ++i) units[i].push_back(e[i] / unit);
  }
  const float axis_noise = std::max(0.5f, static_cast<float>(noise.rotation()) / unit);
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t f = 0; f < stored.size(); ++f) {
      if (!(std::abs(units[i][f] - stored[f][i]) <= axis_noise)) {
        out[i] = std::move(units[i]);
        break;
      }
    }
  }
  return out;
}

Result<J3dNewAnimation> new_j3d_animation(const Scene& scene, const LowerInputs& inputs, const char* kind, std::vector<Warning>& warnings) {
  auto skeleton = j3d_anim_skeleton(inputs.skeleton, (std::string("a new ") + kind +
                                                      " takes its joints, by name, from the J3D model (BMD/BDL) given with --skeleton").c_str());
  if (!skeleton) return skeleton.error();
  if (scene.animations.empty()) return at("animations", std::string("the glTF has no animations to store in a ") + kind, ErrorCode::unsupported);
  if (skeleton->names.size() > 0xFFFF) return at("skeleton", "the model has more than 65535 joints", ErrorCode::unsupported);
  if (scene.animations.size() > 1) {
    warnings.push_back({"animations", std::string("a ") + kind + " holds one animation: the first (\"" + scene.animations[0].name + "\") is stored, " +
                                          std::to_string(scene.animations.size() - 1) + " others are not"});
  }
  const Animation& anim = scene.animations[0];
  for (std::size_t c = 0; c < anim.channels.size(); ++c) {
    if (auto e = check_channel(anim.channels[c], scene.nodes.size(), "animations[0].channels[" + std::to_string(c) + "]"); !e) return e.error();
  }
  const double frames = std::round(static_cast<double>(last_time(anim)) * kJ3dFps);
  if (!(frames >= 0 && frames <= 0xFFFF)) {
    return at("animations[0]", "the animation lasts " + std::to_string(last_time(anim)) + " s; a " + kind + " holds 0 to 65535 frames at 30 fps",
              ErrorCode::unsupported);
  }
  J3dNewAnimation a;
  a.skeleton = std::move(*skeleton);
  a.animation = &anim;
  a.last_frame = static_cast<std::uint16_t>(frames);
  a.duration = extras_number<std::uint16_t>(anim.extras, "duration", a.last_frame, 0xFFFF);
  a.loop_mode = extras_number<std::uint8_t>(anim.extras, "loop_mode", 0, 4);
  return a;
}

std::size_t j3d_stored_frames(const J3dAnf1& a) {
  std::size_t longest = 1;
  for (const J3dFullFrameJoint& j : a.joints) {
    for (std::size_t i = 0; i < 3; ++i) longest = std::max({longest, j.scale[i].values.size(), j.rotation[i].values.size(), j.translation[i].values.size()});
  }
  return longest;
}

Result<void> add_sampled_joint_frames(std::size_t& sampled, std::size_t joints, std::size_t frames, const std::string& where,
                                      const char* kind) {
  sampled += joints * frames;
  if (sampled <= kMaxSampledJointFrames) return {};
  return at(where, std::string("the ") + kind + " samples " + std::to_string(frames) + " frames on " + std::to_string(joints) + " joints, bringing the joint frames sampled to " +
                       std::to_string(sampled) + " (over the animations so far); one export or import samples at most " + std::to_string(kMaxSampledJointFrames),
            ErrorCode::unsupported);
}

Result<std::vector<J3dSampledJoint>> sample_j3d_joints(const Scene& scene, const J3dNewAnimation& a, std::size_t last,
                                                       std::vector<Warning>& warnings) {
  std::size_t joint_frames = 0;
  if (auto capped = add_sampled_joint_frames(joint_frames, a.skeleton.names.size(), last + 1, "animations[0]", "new animation"); !capped) {
    return capped.error();
  }
  std::vector<float> times(last + 1);
  for (std::size_t f = 0; f < times.size(); ++f) times[f] = static_cast<float>(f);
  std::vector<J3dSampledJoint> sampled(a.skeleton.names.size());
  std::vector<int> nodes(sampled.size());
  std::size_t missing = 0;
  for (std::size_t j = 0; j < sampled.size(); ++j) {
    nodes[j] = node_named(scene, a.skeleton.names[j]);
    missing += nodes[j] < 0 ? 1 : 0;
  }
  // A skeleton Blender turned (its export of the model's armature) is sampled with the turns taken off.
  const std::vector<JointTurn> turns = joint_turns(scene, nodes, a.skeleton.rest);
  for (std::size_t j = 0; j < sampled.size(); ++j) {
    const int node = nodes[j];
    const Trs rest = node >= 0 ? scene.nodes[static_cast<std::size_t>(node)].local : a.skeleton.rest[j];
    const std::array<const Channel*, 3> paths = path_channels(*a.animation, node);
    Vec3 previous = euler_xyz_of(normalize(turns_taken_off(rest, turns[j]).rotation));
    for (const Trs& pose : IncomingJointPose{paths, rest, turns[j], kJ3dFps}.at(times)) {
      sampled[j].translation.push_back(pose.translation);
      sampled[j].scale.push_back(pose.scale);
      previous = nearest_euler(normalize(pose.rotation), previous);
      sampled[j].euler.push_back(previous);
    }
    for (const std::vector<Vec3>* path : {&sampled[j].translation, &sampled[j].scale, &sampled[j].euler}) {
      for (const Vec3& v : *path) {
        if (!finite(v)) return at("animations[0]", "joint " + std::to_string(j) + " has a non-finite sampled value");
      }
    }
  }
  if (missing == sampled.size()) {
    return at("nodes", "no node is named as a joint of the model's JNT1 (joints are found by name): the animation drives nothing",
              ErrorCode::unsupported);
  }
  if (missing != 0) warnings.push_back({"nodes", std::to_string(missing) + " joints have no node of their name and hold the model's rest pose"});
  return sampled;
}

Result<Lowered> lower_j3d_anim(const Scene& scene, const J3dAnimFile& base, const LowerInputs& inputs) {
  if (std::holds_alternative<J3dAnf1>(base.section)) return lower_j3d_bca(scene, base, inputs);
  if (std::holds_alternative<J3dTtk1>(base.section)) return lower_j3d_btk(scene, base, inputs);
  return lower_j3d_bck(scene, base, inputs);
}

Result<Lowered> author_j3d_anim(const Scene& scene, const LowerInputs& inputs) {
  return inputs.j3d_bca ? author_j3d_bca(scene, inputs) : author_j3d_bck(scene, inputs);
}

}  // namespace remodel::scene
