// Scene animations -> J3D BCK (ANK1), over a base BCK or new, on a J3D model's JNT1 joints.
// Over a base: each joint's path is sampled from its glTF channel at every frame 0..duration (and at
// the stored key times), the turns Blender gave its bones taken off (bone_turns.hpp), and compared with
// the base as the game evaluates it; a path that agrees keeps its keys (translation and scale within
// 1e-4 + 1e-5 * |value| + 1e-6 * (frame + 1) * |slope per frame|, for glTF's float seconds; rotation
// within half a rotation unit; from a skeleton Blender turned, also within Blender's bone noise), an
// axis that does not is refitted (fit_keys) and its kind's table laid out again by the table rule.
// New (author_j3d_bck): every joint's nine tracks fitted from 30 fps samples of the first animation.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "model/j3d/anim_eval.hpp"
#include "model/j3d/decode.hpp"
#include "scene/anim_channels.hpp"
#include "scene/bone_turns.hpp"
#include "scene/lower.hpp"

namespace remodel::scene {

namespace {

constexpr float kFps = 30;
// A refitted segment spans at most this many frames: fitting time stays linear in the duration.
constexpr std::size_t kLongestSegment = 32;

std::string num(std::size_t n) { return std::to_string(n); }

float axis(const Vec3& v, std::size_t i) { return i == 0 ? v.x : i == 1 ? v.y : v.z; }

// The slope the key at frame f takes: the central difference, one-sided at the ends.
float frame_slope(const std::vector<float>& v, std::size_t f) {
  if (v.size() < 2) return 0;
  if (f == 0) return v[1] - v[0];
  if (f + 1 == v.size()) return v[f] - v[f - 1];
  return (v[f + 1] - v[f - 1]) / 2;
}

// Hermite keys (tangent mode 0) at whole frames reproducing `values` (one per frame) within
// `tolerance`: one key when every value is within it of the first; else keys placed greedily, each
// segment as long as the Hermite between its ends stays within `tolerance` of every frame it spans.
// `quantise` rounds a key's time, value and tangent as the track stores them.
template <typename Quantise>
std::vector<J3dKey> fit_keys(const std::vector<float>& values, float tolerance, Quantise quantise) {
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (*hi - *lo <= tolerance) return {quantise(J3dKey{0, values.front(), 0, 0})};
  auto key = [&](std::size_t f) {
    const float slope = frame_slope(values, f);
    return quantise(J3dKey{static_cast<float>(f), values[f], slope, slope});
  };
  auto fits = [&](const J3dKey& a, std::size_t from, std::size_t to) {
    const J3dKey b = key(to);
    for (std::size_t m = from + 1; m < to; ++m) {
      if (!(std::abs(j3d_hermite(a, b, static_cast<float>(m)) - values[m]) <= tolerance)) return false;
    }
    return true;
  };
  std::vector<J3dKey> keys{key(0)};
  for (std::size_t a = 0; a + 1 < values.size();) {
    std::size_t b = a + 1;
    while (b + 1 < values.size() && b + 1 - a <= kLongestSegment && fits(keys.back(), a, b + 1)) ++b;
    keys.push_back(key(b));
    a = b;
  }
  return keys;
}

// A track of `keys` as the file stores them (tangent mode 0: time, value, tangent per key).
template <typename T>
J3dAnimTrack<T> track_of(const std::vector<J3dKey>& keys) {
  J3dAnimTrack<T> t;
  t.count = static_cast<std::uint16_t>(keys.size());
  auto store = [](float v) { return static_cast<T>(v); };
  if (keys.size() == 1) {
    t.values = {store(keys[0].value)};
    return t;
  }
  for (const J3dKey& k : keys) t.values.insert(t.values.end(), {store(k.time), store(k.value), store(k.out)});
  return t;
}

J3dFloatTrack fit_float_track(const std::vector<float>& values) {
  float largest = 0;
  for (float v : values) largest = std::max(largest, std::abs(v));
  return track_of<float>(fit_keys(values, 1e-4f + 1e-5f * largest, [](J3dKey k) { return k; }));
}

// `values` in rotation units; every stored number is an s16 (times, values and tangents alike).
Result<J3dAngleTrack> fit_angle_track(const std::vector<float>& values, const std::string& where) {
  for (float v : values) {
    if (!(std::abs(v) <= 32767.0f)) {
      return at(where, "an angle of " + std::to_string(v) + " rotation units does not fit the s16 the BCK stores; a larger angle_scale "
                       "(animation extras) widens the unit", ErrorCode::unsupported);
    }
  }
  const auto s16 = [](float v) { return std::clamp(std::round(v), -32768.0f, 32767.0f); };
  return track_of<std::int16_t>(fit_keys(values, 1.0f, [&](J3dKey k) { return J3dKey{k.time, s16(k.value), s16(k.in), s16(k.out)}; }));
}

// The rotation from a to b, in radians (well-conditioned near 0, unlike acos of the dot product).
double angle_between(const Quat& a, const Quat& b) {
  // The vector part of conj(a) * b.
  const double x = double{a.w} * b.x - double{a.x} * b.w - double{a.y} * b.z + double{a.z} * b.y;
  const double y = double{a.w} * b.y + double{a.x} * b.z - double{a.y} * b.w - double{a.z} * b.x;
  const double z = double{a.w} * b.z - double{a.x} * b.y + double{a.y} * b.x - double{a.z} * b.w;
  const double w = double{a.w} * b.w + double{a.x} * b.x + double{a.y} * b.y + double{a.z} * b.z;
  return 2 * std::atan2(std::sqrt(x * x + y * y + z * z), std::abs(w));
}

// The model's joints: names (JNT1's name table) and rest poses, in JNT1 order.
struct Skeleton {
  std::vector<std::string> names;
  std::vector<Trs> rest;
};

Result<Skeleton> skeleton_of(const Document* doc, const char* needs) {
  const J3dFile* model = doc != nullptr ? std::get_if<J3dFile>(doc) : nullptr;
  const J3dJnt1* jnt = model != nullptr ? j3d_section<J3dJnt1>(*model) : nullptr;
  if (jnt == nullptr) {
    return at("skeleton", std::string(doc == nullptr ? "no --skeleton was given" : std::string("the --skeleton file is a ") + format_name(format_of(*doc)) +
                                                                                        (model != nullptr ? " without JNT1" : "")) +
                              "; " + needs, ErrorCode::unsupported);
  }
  Skeleton s;
  for (std::size_t j = 0; j < jnt->joints.size(); ++j) {
    const J3dJoint& joint = jnt->joints[j];
    s.names.push_back(j < jnt->names.names.size() ? jnt->names.names[j] : "joint" + num(j));
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

// Each joint's node in the incoming Scene: by the skeleton's names, else the first skin's joints in
// order (an exported J3D model's skin lists every JNT1 joint in order).
Result<std::vector<int>> joint_nodes(const Scene& scene, const LowerInputs& inputs, std::size_t joints, std::vector<Warning>& warnings) {
  std::vector<int> nodes(joints, -1);
  if (inputs.skeleton != nullptr) {
    auto skeleton = skeleton_of(inputs.skeleton, "a BCK animates the joints of a J3D model (BMD/BDL)");
    if (!skeleton) return skeleton.error();
    if (skeleton->names.size() != joints) {
      return at("skeleton", "the BCK animates " + num(joints) + " joints but the --skeleton model's JNT1 has " + num(skeleton->names.size()),
                ErrorCode::bad_count);
    }
    std::size_t missing = 0;
    for (std::size_t j = 0; j < joints; ++j) {
      nodes[j] = node_named(scene, skeleton->names[j]);
      missing += nodes[j] < 0 ? 1 : 0;
    }
    if (missing != 0) warnings.push_back({"nodes", num(missing) + " joints have no node of their name: their tracks are kept"});
    return nodes;
  }
  if (scene.skins.empty()) {
    return at("skeleton", "a BCK names no joints itself and the glTF has no skin listing them: pass the model it animates with --skeleton",
              ErrorCode::unsupported);
  }
  const std::vector<int>& skin = scene.skins[0].joints;
  if (skin.size() != joints) {
    return at("skins[0].joints", "the BCK animates " + num(joints) + " joints but the glTF's skin has " + num(skin.size()) +
                                     "; pass the model it animates with --skeleton", ErrorCode::bad_count);
  }
  return skin;
}

// The incoming animation that stands for the base: the one named as the base file, else the only one.
Result<const Animation*> matching_animation(const Scene& scene, const std::string& base_name) {
  for (const Animation& a : scene.animations) {
    if (!base_name.empty() && a.name == base_name) return &a;
  }
  if (scene.animations.size() == 1) return &scene.animations[0];
  std::string names;
  for (const Animation& a : scene.animations) names += (names.empty() ? "\"" : ", \"") + a.name + "\"";
  return at("animations", scene.animations.empty() ? std::string("the glTF has no animations to store in a BCK")
                                                   : "none of the glTF's animations (" + names + ") is named \"" + base_name +
                                                         "\" as the base BCK is, and there is more than one",
            ErrorCode::unsupported);
}

// An extras number in [0, max], else `fallback`.
template <typename T>
T extras_number(const Extras& x, const char* key, T fallback, unsigned max) {
  if (!x.is_object() || !x.contains(key) || !x[key].is_number_unsigned() || x[key].get<unsigned>() > max) return fallback;
  return static_cast<T>(x[key].get<unsigned>());
}

// What each frame of a path shows in the incoming Scene: its channel sampled, else the node's rest.
std::vector<Vec3> incoming_vectors(const Channel* c, Vec3 rest, const std::vector<float>& frames) {
  std::vector<Vec3> out;
  out.reserve(frames.size());
  for (float f : frames) {
    if (c == nullptr) {
      out.push_back(rest);
    } else {
      const auto v = sample_channel(*c, 3, f / kFps);
      out.push_back({v[0], v[1], v[2]});
    }
  }
  return out;
}

std::vector<Quat> incoming_rotations(const Channel* c, Quat rest, const std::vector<float>& frames) {
  std::vector<Quat> out;
  out.reserve(frames.size());
  for (float f : frames) {
    if (c == nullptr) {
      out.push_back(normalize(rest));
    } else {
      const auto v = sample_channel(*c, 4, f / kFps);
      out.push_back({v[0], v[1], v[2], v[3]});
    }
  }
  return out;
}

// What each frame of a joint shows in the incoming Scene (each path's channel sampled, else the node's
// rest), with the turns Blender gave the joint and its parent taken off.
struct IncomingJointPose {
  const std::array<const Channel*, 3>& paths;
  const Trs& rest;
  const JointTurn& turn;

  std::vector<Trs> at(const std::vector<float>& frames) const {
    const std::vector<Vec3> translations = incoming_vectors(paths[0], rest.translation, frames);
    const std::vector<Quat> rotations = incoming_rotations(paths[1], rest.rotation, frames);
    const std::vector<Vec3> scales = incoming_vectors(paths[2], rest.scale, frames);
    std::vector<Trs> out(frames.size());
    for (std::size_t f = 0; f < frames.size(); ++f) out[f] = turns_taken_off(Trs{translations[f], rotations[f], scales[f]}, turn);
    return out;
  }
};

// Blender's noise on a joint's pose (bone_turns.hpp), where the skeleton came back turned; none else.
struct PoseNoise {
  bool blender = false;
  float extent = 1;  // the farthest joint from the origin, at least 1

  float translation(Vec3 stored) const { return blender ? static_cast<float>(kBoneRollNoise) * length(stored) + kJointReachNoise * extent : 0.0f; }
  float scale(float stored) const { return blender ? kJointScaleNoise * std::max(1.0f, std::abs(stored)) : 0.0f; }
  double rotation() const { return blender ? kBoneRollNoise : 0.0; }
};

// Frames 0..duration, then for a CUBICSPLINE channel (the lift's, exact between frames too) the
// stored keys' times within them.
std::vector<float> check_frames(std::uint16_t duration, const std::array<J3dFloatTrack, 3>& tracks, const Channel* c) {
  std::vector<float> frames;
  for (std::size_t f = 0; f <= duration; ++f) frames.push_back(static_cast<float>(f));
  if (c == nullptr || c->interpolation != Interpolation::cubic_spline) return frames;
  for (const J3dFloatTrack& t : tracks) {
    for (const J3dKey& k : j3d_keys(t)) {
      if (t.count > 1 && k.time > 0 && k.time < duration && k.time != std::floor(k.time)) frames.push_back(k.time);
    }
  }
  return frames;
}

// Which tables an edit laid out again.
struct Changed {
  bool scales = false, rotations = false, translations = false;
};

// The translation (Trs::translation) or scale tracks of one joint over the incoming pose; true where
// an axis changed.
bool lower_vectors(std::array<J3dFloatTrack, 3>& tracks, Vec3 Trs::*path, const IncomingJointPose& pose, const PoseNoise& noise,
                   std::uint16_t duration) {
  const std::vector<float> frames = check_frames(duration, tracks, pose.paths[path == &Trs::translation ? 0 : 2]);
  std::vector<Vec3> incoming;
  for (const Trs& t : pose.at(frames)) incoming.push_back(t.*path);
  const std::array<std::vector<J3dKey>, 3> keys{j3d_keys(tracks[0]), j3d_keys(tracks[1]), j3d_keys(tracks[2])};
  bool changed = false;
  for (std::size_t i = 0; i < 3; ++i) {
    bool same = true;
    for (std::size_t k = 0; k < frames.size() && same; ++k) {
      const Vec3 stored{j3d_sample(keys[0], frames[k]), j3d_sample(keys[1], frames[k]), j3d_sample(keys[2], frames[k])};
      const float value = axis(stored, i);
      // glTF's times are float seconds: a time off by its rounding moves a steep curve's value.
      const float timing = 1e-6f * (frames[k] + 1) * std::abs(j3d_slope(keys[i], frames[k]));
      const float blender = path == &Trs::translation ? noise.translation(stored) : noise.scale(value);
      same = std::abs(axis(incoming[k], i) - value) <= 1e-4f + 1e-5f * std::abs(value) + timing + blender;
    }
    if (same) continue;
    std::vector<float> values(std::size_t{duration} + 1);
    for (std::size_t f = 0; f < values.size(); ++f) values[f] = axis(incoming[f], i);
    tracks[i] = fit_float_track(values);
    changed = true;
  }
  return changed;
}

Result<bool> lower_rotations(std::array<J3dAngleTrack, 3>& tracks, const IncomingJointPose& pose, const PoseNoise& noise, std::uint16_t duration,
                             float unit, const std::string& where) {
  std::vector<float> frames(std::size_t{duration} + 1);
  for (std::size_t f = 0; f < frames.size(); ++f) frames[f] = static_cast<float>(f);
  std::vector<Quat> incoming;
  for (const Trs& t : pose.at(frames)) incoming.push_back(t.rotation);
  const std::array<std::vector<J3dKey>, 3> keys{j3d_keys(tracks[0]), j3d_keys(tracks[1]), j3d_keys(tracks[2])};
  std::vector<Vec3> stored(frames.size());
  bool same = true;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    stored[f] = {j3d_sample(keys[0], frames[f]), j3d_sample(keys[1], frames[f]), j3d_sample(keys[2], frames[f])};
    const Quat q = euler_to_quat(stored[f] * unit, EulerOrder::xyz);
    same = same && angle_between(q, incoming[f]) <= std::max({1e-5, 0.5 * unit, noise.rotation()});
  }
  if (same) return false;
  std::array<std::vector<float>, 3> units;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const Vec3 e = nearest_euler(incoming[f], stored[f] * unit);
    for (std::size_t i = 0; i < 3; ++i) units[i].push_back(axis(e, i) / unit);
  }
  bool changed = false;
  const float axis_noise = std::max(0.5f, static_cast<float>(noise.rotation()) / unit);
  for (std::size_t i = 0; i < 3; ++i) {
    bool axis_same = true;
    for (std::size_t f = 0; f < frames.size() && axis_same; ++f) axis_same = std::abs(units[i][f] - axis(stored[f], i)) <= axis_noise;
    if (axis_same) continue;
    auto track = fit_angle_track(units[i], where);
    if (!track) return track.error();
    tracks[i] = std::move(*track);
    changed = true;
  }
  return changed;
}

// A kind of table laid out again: the rule places every track of it, and what follows is canonical.
template <typename T>
void relayout(std::vector<J3dJointAnim>& joints, std::array<J3dAnimTrack<T>, 3> J3dJointAnim::*kind, Verbatim& stored_table) {
  for (J3dJointAnim& j : joints) {
    for (J3dAnimTrack<T>& t : j.*kind) t.stored_index.reset();
  }
  stored_table = Verbatim{};
}

}  // namespace

Result<Lowered> lower_j3d_bck(const Scene& scene, const J3dAnimFile& base, const LowerInputs& inputs) {
  const J3dAnk1* base_ank1 = std::get_if<J3dAnk1>(&base.section);
  if (base_ank1 == nullptr) return at("", "the base is not a BCK", ErrorCode::unsupported);
  Lowered out{Document{base}, {}};
  auto nodes = joint_nodes(scene, inputs, base_ank1->joints.size(), out.warnings);
  if (!nodes) return nodes.error();
  auto found = matching_animation(scene, inputs.base_name);
  if (!found) return found.error();
  const Animation& ia = **found;
  const std::string where = "animations[" + num(static_cast<std::size_t>(&ia - scene.animations.data())) + "]";
  for (std::size_t c = 0; c < ia.channels.size(); ++c) {
    if (auto e = check_channel(ia.channels[c], scene.nodes.size(), where + ".channels[" + num(c) + "]"); !e) return e.error();
  }
  J3dAnimFile& file = std::get<J3dAnimFile>(out.document);
  J3dAnk1& a = std::get<J3dAnk1>(file.section);
  a.loop_mode = extras_number<std::uint8_t>(ia.extras, "loop_mode", a.loop_mode, 0xFF);
  a.duration = extras_number<std::uint16_t>(ia.extras, "duration", a.duration, 0xFFFF);
  const float unit = j3d_angle_unit(a.angle_scale);
  // Blender's turns come off against the model's rest poses (--skeleton); without it none are known.
  std::vector<JointTurn> turns(a.joints.size());
  PoseNoise noise;
  if (inputs.skeleton != nullptr) {
    auto skeleton = skeleton_of(inputs.skeleton, "");
    if (!skeleton) return skeleton.error();
    turns = joint_turns(scene, *nodes, skeleton->rest);
    noise.blender = std::any_of(turns.begin(), turns.end(), [](const JointTurn& t) { return t.turned(); });
    const std::vector<Mat4> world = world_matrices(scene);
    for (int node : *nodes) {
      if (node < 0) continue;
      const Mat4& w = world[static_cast<std::size_t>(node)];
      noise.extent = std::max(noise.extent, length(Vec3{w.at(0, 3), w.at(1, 3), w.at(2, 3)}));
    }
  }
  Changed changed;
  for (std::size_t j = 0; j < a.joints.size(); ++j) {
    const int node = (*nodes)[j];
    if (node < 0) continue;
    const std::array<const Channel*, 3> paths = path_channels(ia, node);
    const IncomingJointPose pose{paths, scene.nodes[static_cast<std::size_t>(node)].local, turns[j]};
    J3dJointAnim& joint = a.joints[j];
    changed.translations |= lower_vectors(joint.translation, &Trs::translation, pose, noise, a.duration);
    auto turned = lower_rotations(joint.rotation, pose, noise, a.duration, unit, where + ".joint[" + num(j) + "]");
    if (!turned) return turned.error();
    changed.rotations |= *turned;
    changed.scales |= lower_vectors(joint.scale, &Trs::scale, pose, noise, a.duration);
  }
  if (changed.scales) relayout(a.joints, &J3dJointAnim::scale, a.stored_scales);
  if (changed.rotations) relayout(a.joints, &J3dJointAnim::rotation, a.stored_rotations);
  if (changed.translations) relayout(a.joints, &J3dJointAnim::translation, a.stored_translations);
  if (changed.scales || changed.rotations || changed.translations) {
    a.gap_after_scales = a.gap_after_rotations = a.gap_after_translations = Verbatim{};
    if (file.tail.stored()) {
      out.warnings.push_back({"tail", "the block after the section is kept as stored; the header's offset to it is not moved"});
    }
  }
  return out;
}

Result<Lowered> author_j3d_bck(const Scene& scene, const LowerInputs& inputs) {
  auto skeleton = skeleton_of(inputs.skeleton, "a new BCK takes its joints, by name, from the J3D model (BMD/BDL) given with --skeleton");
  if (!skeleton) return skeleton.error();
  if (scene.animations.empty()) return at("animations", "the glTF has no animations to store in a BCK", ErrorCode::unsupported);
  if (skeleton->names.size() > 0xFFFF) return at("skeleton", "the model has more than 65535 joints", ErrorCode::unsupported);
  Lowered out{Document{J3dAnimFile{}}, {}};
  if (scene.animations.size() > 1) {
    out.warnings.push_back({"animations", "a BCK holds one animation: the first (\"" + scene.animations[0].name + "\") is stored, " +
                                              num(scene.animations.size() - 1) + " others are not"});
  }
  const Animation& anim = scene.animations[0];
  for (std::size_t c = 0; c < anim.channels.size(); ++c) {
    if (auto e = check_channel(anim.channels[c], scene.nodes.size(), "animations[0].channels[" + num(c) + "]"); !e) return e.error();
  }
  const double frames = std::round(static_cast<double>(last_time(anim)) * kFps);
  if (!(frames >= 0 && frames <= 0xFFFF)) {
    return at("animations[0]", "the animation lasts " + std::to_string(last_time(anim)) + " s; a BCK holds 0 to 65535 frames at 30 fps",
              ErrorCode::unsupported);
  }
  J3dAnk1 a;
  a.duration = extras_number<std::uint16_t>(anim.extras, "duration", static_cast<std::uint16_t>(frames), 0xFFFF);
  a.loop_mode = extras_number<std::uint8_t>(anim.extras, "loop_mode", 0, 4);
  std::vector<float> times(std::size_t{a.duration} + 1);
  for (std::size_t f = 0; f < times.size(); ++f) times[f] = static_cast<float>(f);
  // Per joint, the sampled paths; a joint with no node holds the model's rest pose.
  struct Sampled {
    std::vector<Vec3> translation, scale, euler;
  };
  std::vector<Sampled> sampled(skeleton->names.size());
  std::size_t missing = 0;
  float widest = 0;
  for (std::size_t j = 0; j < sampled.size(); ++j) {
    const int node = node_named(scene, skeleton->names[j]);
    missing += node < 0 ? 1 : 0;
    const Trs rest = node >= 0 ? scene.nodes[static_cast<std::size_t>(node)].local : skeleton->rest[j];
    const std::array<const Channel*, 3> paths = path_channels(anim, node);
    sampled[j].translation = incoming_vectors(paths[0], rest.translation, times);
    sampled[j].scale = incoming_vectors(paths[2], rest.scale, times);
    Vec3 previous = euler_xyz_of(normalize(rest.rotation));
    for (const Quat& q : incoming_rotations(paths[1], rest.rotation, times)) {
      previous = nearest_euler(q, previous);
      sampled[j].euler.push_back(previous);
      widest = std::max({widest, std::abs(previous.x), std::abs(previous.y), std::abs(previous.z)});
    }
  }
  if (missing == sampled.size()) {
    return at("nodes", "no node is named as a joint of the model's JNT1 (joints are found by name): the animation drives nothing",
              ErrorCode::unsupported);
  }
  if (missing != 0) out.warnings.push_back({"nodes", num(missing) + " joints have no node of their name and hold the model's rest pose"});
  // The finest angle unit that holds every angle: 180 degrees * 2^angle_scale per 0x8000.
  while (a.angle_scale < 15 && widest / j3d_angle_unit(a.angle_scale) > 32767.0f) ++a.angle_scale;
  const float unit = j3d_angle_unit(a.angle_scale);
  a.joints.resize(sampled.size());
  for (std::size_t j = 0; j < sampled.size(); ++j) {
    for (std::size_t i = 0; i < 3; ++i) {
      std::vector<float> t, s, r;
      for (std::size_t f = 0; f < times.size(); ++f) {
        t.push_back(axis(sampled[j].translation[f], i));
        s.push_back(axis(sampled[j].scale[f], i));
        r.push_back(axis(sampled[j].euler[f], i) / unit);
      }
      for (float v : t) {
        if (!std::isfinite(v)) return at("animations[0]", "joint " + num(j) + " has a non-finite sampled translation");
      }
      for (float v : s) {
        if (!std::isfinite(v)) return at("animations[0]", "joint " + num(j) + " has a non-finite sampled scale");
      }
      a.joints[j].translation[i] = fit_float_track(t);
      a.joints[j].scale[i] = fit_float_track(s);
      auto rotation = fit_angle_track(r, "animations[0].joint[" + num(j) + "]");
      if (!rotation) return rotation.error();
      a.joints[j].rotation[i] = std::move(*rotation);
    }
  }
  std::get<J3dAnimFile>(out.document).section = std::move(a);
  return out;
}

}  // namespace remodel::scene
