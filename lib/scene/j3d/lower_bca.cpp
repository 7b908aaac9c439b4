// Scene animations -> J3D BCA (ANF1), over a base BCA or new, on a J3D model's JNT1 joints.
// Over a base: each joint's path is sampled from its glTF channel at every frame the file stores (and
// any the glTF runs past them), the turns Blender gave its bones taken off (bone_turns.hpp), and
// compared with the stored frames: translation and scale within 1e-4 + 1e-5 * |value|, rotation within
// half a rotation unit (as rotations, then each axis's angles nearest the stored ones); from a skeleton
// Blender turned, also within Blender's bone noise; what agrees keeps its values, an axis that does not stores the glTF's value
// at every frame and its kind's table is laid out again by the table rule.
// New (author_j3d_bca): every joint's nine tracks from 30 fps samples of the first animation.
#include <algorithm>
#include <cmath>
#include <string>

#include "model/j3d/anim_eval.hpp"
#include "scene/anim_channels.hpp"
#include "scene/j3d/anim_joints.hpp"

namespace remodel::scene {

namespace {

// A track of one value per frame, or of one value when every frame holds the first.
template <typename T>
J3dFrameTrack<T> frame_track(std::vector<T> values) {
  J3dFrameTrack<T> t;
  if (std::all_of(values.begin(), values.end(), [&](T v) { return j3d_value_bits(v) == j3d_value_bits(values.front()); })) values.resize(1);
  t.values = std::move(values);
  return t;
}

// An angle in rotation units (0x8000 = 180 degrees) as the s16 that shows it: whole turns wrap, as
// the game's angles do.
std::int16_t angle_s16(float units) {
  const double turns = std::fmod(std::round(static_cast<double>(units)), 65536.0);
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(static_cast<std::int32_t>(turns) & 0xFFFF));
}

// The frames the file shows: 0 to the last any track stores, or to the glTF's end when it runs past.
Result<std::vector<float>> shown_frames(const J3dAnf1& a, const Animation& incoming, const std::string& where) {
  const std::size_t stored = j3d_stored_frames(a);
  const double end = std::round(static_cast<double>(last_time(incoming)) * kJ3dFps) + 1;
  if (!(end <= 0xFFFF)) {
    return at(where, "the animation lasts " + std::to_string(last_time(incoming)) + " s; a BCA track holds at most 65535 frames at 30 fps",
              ErrorCode::unsupported);
  }
  std::vector<float> frames(std::max(stored, static_cast<std::size_t>(end)));
  for (std::size_t f = 0; f < frames.size(); ++f) frames[f] = static_cast<float>(f);
  return frames;
}

// The translation (Trs::translation) or scale tracks of one joint against the incoming poses; true
// where an axis changed.
bool lower_vectors(std::array<J3dFrameTrack<float>, 3>& tracks, Vec3 Trs::*path, const std::vector<Trs>& poses, const PoseNoise& noise,
                   const std::vector<float>& frames) {
  std::vector<Vec3> incoming;
  for (const Trs& t : poses) incoming.push_back(t.*path);
  bool changed = false;
  for (std::size_t i = 0; i < 3; ++i) {
    bool same = true;
    for (std::size_t f = 0; f < frames.size() && same; ++f) {
      const Vec3 stored{j3d_frame_value(tracks[0], frames[f]), j3d_frame_value(tracks[1], frames[f]), j3d_frame_value(tracks[2], frames[f])};
      const float value = stored[i];
      const float blender = path == &Trs::translation ? noise.translation(stored) : noise.scale(value);
      same = std::abs(incoming[f][i] - value) <= 1e-4f + 1e-5f * std::abs(value) + blender;
    }
    if (same) continue;
    std::vector<float> values;
    for (const Vec3& v : incoming) values.push_back(v[i]);
    tracks[i] = frame_track(std::move(values));
    changed = true;
  }
  return changed;
}

bool lower_rotations(std::array<J3dFrameTrack<std::int16_t>, 3>& tracks, const std::vector<Trs>& poses, const PoseNoise& noise,
                     const std::vector<float>& frames) {
  const float unit = j3d_angle_unit(0);
  std::vector<Quat> incoming;
  for (const Trs& t : poses) incoming.push_back(t.rotation);
  std::vector<Vec3> stored(frames.size());
  for (std::size_t f = 0; f < frames.size(); ++f) {
    stored[f] = {j3d_frame_value(tracks[0], frames[f]), j3d_frame_value(tracks[1], frames[f]), j3d_frame_value(tracks[2], frames[f])};
  }
  bool changed = false;
  for (std::size_t i = 0; const std::optional<std::vector<float>>& units : changed_angles(incoming, stored, unit, noise)) {
    if (units) {
      std::vector<std::int16_t> values;
      for (float u : *units) values.push_back(angle_s16(u));
      tracks[i] = frame_track(std::move(values));
      changed = true;
    }
    ++i;
  }
  return changed;
}

}  // namespace

Result<Lowered> lower_j3d_bca(const Scene& scene, const J3dAnimFile& base, const LowerInputs& inputs) {
  const J3dAnf1* base_anf1 = std::get_if<J3dAnf1>(&base.section);
  if (base_anf1 == nullptr) return at("", "the base is not a BCA", ErrorCode::unsupported);
  Lowered out{Document{base}, {}};
  auto target = j3d_anim_target(scene, inputs, base_anf1->joints.size(), "BCA", out.warnings);
  if (!target) return target.error();
  const Animation& ia = *target->animation;
  J3dAnimFile& file = std::get<J3dAnimFile>(out.document);
  J3dAnf1& a = std::get<J3dAnf1>(file.section);
  a.loop_mode = extras_number<std::uint8_t>(ia.extras, "loop_mode", a.loop_mode, 0xFF);
  a.duration = extras_number<std::uint16_t>(ia.extras, "duration", a.duration, 0xFFFF);
  auto frames = shown_frames(a, ia, target->where);
  if (!frames) return frames.error();
  std::size_t sampled = 0;
  if (auto capped = add_sampled_joint_frames(sampled, a.joints.size(), frames->size(), target->where, "BCA"); !capped) return capped.error();
  bool scales = false, rotations = false, translations = false;
  for (std::size_t j = 0; j < a.joints.size(); ++j) {
    const int node = target->nodes[j];
    if (node < 0) continue;
    const std::array<const Channel*, 3> paths = path_channels(ia, node);
    const std::vector<Trs> poses = IncomingJointPose{paths, scene.nodes[static_cast<std::size_t>(node)].local, target->turns[j], kJ3dFps}.at(*frames);
    J3dFullFrameJoint& joint = a.joints[j];
    translations |= lower_vectors(joint.translation, &Trs::translation, poses, target->noise, *frames);
    rotations |= lower_rotations(joint.rotation, poses, target->noise, *frames);
    scales |= lower_vectors(joint.scale, &Trs::scale, poses, target->noise, *frames);
  }
  if (scales) relayout(a.joints, &J3dFullFrameJoint::scale, a.stored_scales);
  if (rotations) relayout(a.joints, &J3dFullFrameJoint::rotation, a.stored_rotations);
  if (translations) relayout(a.joints, &J3dFullFrameJoint::translation, a.stored_translations);
  if (scales || rotations || translations) {
    a.gap_after_scales = a.gap_after_rotations = a.gap_after_translations = Verbatim{};
    if (file.closing_filler_cut) a.gap_after_translations = Verbatim(Bytes{});  // still cut before its closing filler
    file.stored_size.reset();  // a size the file stated no longer describes it
  }
  return out;
}

Result<Lowered> author_j3d_bca(const Scene& scene, const LowerInputs& inputs) {
  std::vector<Warning> warnings;
  auto anim = new_j3d_animation(scene, inputs, "BCA", warnings);
  if (!anim) return anim.error();
  auto sampled = sample_j3d_joints(scene, *anim, anim->last_frame, warnings);
  if (!sampled) return sampled.error();
  J3dAnf1 a;
  a.duration = anim->duration;
  a.loop_mode = anim->loop_mode;
  const float unit = j3d_angle_unit(0);
  for (const J3dSampledJoint& joint : *sampled) {
    J3dFullFrameJoint& made = a.joints.emplace_back();
    for (std::size_t i = 0; i < 3; ++i) {
      std::vector<float> t, s;
      std::vector<std::int16_t> r;
      for (std::size_t f = 0; f < joint.euler.size(); ++f) {
        t.push_back(joint.translation[f][i]);
        s.push_back(joint.scale[f][i]);
        r.push_back(angle_s16(joint.euler[f][i] / unit));
      }
      made.translation[i] = frame_track(std::move(t));
      made.scale[i] = frame_track(std::move(s));
      made.rotation[i] = frame_track(std::move(r));
    }
  }
  J3dAnimFile file;
  file.type = {'b', 'c', 'a', '1'};
  // Cut before its closing filler, as Nintendo's BCAs (docs/j3d-animations.md): the last gap stored empty.
  file.closing_filler_cut = true;
  a.gap_after_translations = Verbatim(Bytes{});
  file.section = std::move(a);
  return Lowered{Document{std::move(file)}, std::move(warnings)};
}

}  // namespace remodel::scene
