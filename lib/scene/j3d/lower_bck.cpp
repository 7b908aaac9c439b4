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
#include "scene/anim_channels.hpp"
#include "scene/j3d/anim_joints.hpp"
#include "scene/j3d/lower.hpp"

namespace remodel::scene {

namespace {

// A refitted segment spans at most this many frames: fitting time stays linear in the duration.
constexpr std::size_t kLongestSegment = 32;

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

}  // namespace

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

namespace {

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
      const float value = stored[i];
      // glTF's times are float seconds: a time off by its rounding moves a steep curve's value.
      const float timing = 1e-6f * (frames[k] + 1) * std::abs(j3d_slope(keys[i], frames[k]));
      const float blender = path == &Trs::translation ? noise.translation(stored) : noise.scale(value);
      same = std::abs(incoming[k][i] - value) <= 1e-4f + 1e-5f * std::abs(value) + timing + blender;
    }
    if (same) continue;
    std::vector<float> values(std::size_t{duration} + 1);
    for (std::size_t f = 0; f < values.size(); ++f) values[f] = incoming[f][i];
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
  for (std::size_t f = 0; f < frames.size(); ++f) {
    stored[f] = {j3d_sample(keys[0], frames[f]), j3d_sample(keys[1], frames[f]), j3d_sample(keys[2], frames[f])};
  }
  bool changed = false;
  for (std::size_t i = 0; std::optional<std::vector<float>>& units : changed_angles(incoming, stored, unit, noise)) {
    if (units) {
      auto track = fit_angle_track(*units, where);
      if (!track) return track.error();
      tracks[i] = std::move(*track);
      changed = true;
    }
    ++i;
  }
  return changed;
}

}  // namespace

Result<Lowered> lower_j3d_bck(const Scene& scene, const J3dAnimFile& base, const LowerInputs& inputs) {
  const J3dAnk1* base_ank1 = std::get_if<J3dAnk1>(&base.section);
  if (base_ank1 == nullptr) return at("", "the base is not a BCK", ErrorCode::unsupported);
  Lowered out{Document{base}, {}};
  auto target = j3d_anim_target(scene, inputs, base_ank1->joints.size(), "BCK", out.warnings);
  if (!target) return target.error();
  const Animation& ia = *target->animation;
  const std::string& where = target->where;
  J3dAnimFile& file = std::get<J3dAnimFile>(out.document);
  J3dAnk1& a = std::get<J3dAnk1>(file.section);
  a.loop_mode = extras_number<std::uint8_t>(ia.extras, "loop_mode", a.loop_mode, 0xFF);
  a.duration = extras_number<std::uint16_t>(ia.extras, "duration", a.duration, 0xFFFF);
  std::size_t sampled = 0;
  if (auto capped = add_sampled_joint_frames(sampled, a.joints.size(), std::size_t{a.duration} + 1, where, "BCK"); !capped) return capped.error();
  const float unit = j3d_angle_unit(a.angle_scale);
  J3dChangedTables changed;
  for (std::size_t j = 0; j < a.joints.size(); ++j) {
    const int node = target->nodes[j];
    if (node < 0) continue;
    const std::array<const Channel*, 3> paths = path_channels(ia, node);
    const IncomingJointPose pose{paths, scene.nodes[static_cast<std::size_t>(node)].local, target->turns[j], kJ3dFps};
    J3dJointAnim& joint = a.joints[j];
    changed.translations |= lower_vectors(joint.translation, &Trs::translation, pose, target->noise, a.duration);
    auto turned = lower_rotations(joint.rotation, pose, target->noise, a.duration, unit, where + ".joint[" + std::to_string(j) + "]");
    if (!turned) return turned.error();
    changed.rotations |= *turned;
    changed.scales |= lower_vectors(joint.scale, &Trs::scale, pose, target->noise, a.duration);
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
  Lowered out{Document{J3dAnimFile{}}, {}};
  auto anim = new_j3d_animation(scene, inputs, "BCK", out.warnings);
  if (!anim) return anim.error();
  J3dAnk1 a;
  a.duration = anim->duration;
  a.loop_mode = anim->loop_mode;
  auto sampled = sample_j3d_joints(scene, *anim, a.duration, out.warnings);
  if (!sampled) return sampled.error();
  float widest = 0;
  for (const J3dSampledJoint& joint : *sampled) {
    for (const Vec3& e : joint.euler) widest = std::max({widest, std::abs(e.x), std::abs(e.y), std::abs(e.z)});
  }
  // The finest angle unit that holds every angle: 180 degrees * 2^angle_scale per 0x8000.
  while (a.angle_scale < 15 && widest / j3d_angle_unit(a.angle_scale) > 32767.0f) ++a.angle_scale;
  const float unit = j3d_angle_unit(a.angle_scale);
  a.joints.resize(sampled->size());
  for (std::size_t j = 0; j < sampled->size(); ++j) {
    const J3dSampledJoint& joint = (*sampled)[j];
    for (std::size_t i = 0; i < 3; ++i) {
      std::vector<float> t, s, r;
      for (std::size_t f = 0; f < joint.euler.size(); ++f) {
        t.push_back(joint.translation[f][i]);
        s.push_back(joint.scale[f][i]);
        r.push_back(joint.euler[f][i] / unit);
      }
      a.joints[j].translation[i] = fit_float_track(t);
      a.joints[j].scale[i] = fit_float_track(s);
      auto rotation = fit_angle_track(r, "animations[0].joint[" + std::to_string(j) + "]");
      if (!rotation) return rotation.error();
      a.joints[j].rotation[i] = std::move(*rotation);
    }
  }
  std::get<J3dAnimFile>(out.document).section = std::move(a);
  return out;
}

}  // namespace remodel::scene
