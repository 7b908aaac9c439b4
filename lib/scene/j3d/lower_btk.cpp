// Scene animation -> J3D BTK (TTK1) over a base BTK (one the export kept in the file's extras, having no
// target, stays as it is). Each texture matrix whose material (by name) has
// KHR_texture_transform pointer channels is sampled at every frame 0..duration, turned back into the
// J3D SRT (scene/j3d/texture_srt.hpp; a path with no channel reads as the base shows it) and compared
// with the base as the game evaluates it: a track that agrees keeps its keys (scale and translation
// within 1e-4 + 1e-5 * |value|, rotation within half a rotation unit), one that does not is refitted
// (fit_float_track, fit_angle_track) and its kind's table laid out again by the table rule.
#include <cmath>
#include <set>
#include <string>

#include "model/j3d/anim_eval.hpp"
#include "scene/anim_channels.hpp"
#include "scene/j3d/anim_joints.hpp"
#include "scene/j3d/lower.hpp"
#include "scene/j3d/texture_srt.hpp"

namespace remodel::scene {

namespace {

// The incoming channel whose pointer is `pointer`, or null.
const Channel* pointer_channel(const Animation& a, const std::string& pointer) {
  for (const Channel& c : a.channels) {
    if (c.pointer == pointer) return &c;
  }
  return nullptr;
}

// Whether the base's animation is one the export kept in the file's extras (no glTF property showed any
// of its records) and no glTF animation has its name: nothing in the glTF can have edited it.
bool kept_in_extras(const Scene& scene, const std::string& base_name) {
  for (const Animation& a : scene.animations) {
    if (a.name == base_name) return false;
  }
  if (base_name.empty() || !scene.extras.is_object() || !scene.extras.contains("animations") || !scene.extras["animations"].is_array()) return false;
  for (const Extras& a : scene.extras["animations"]) {
    if (a.is_object() && a.value("name", "") == base_name && a.value("format", "") == "btk") return true;
  }
  return false;
}

// A track's values at every frame, and whether they all agree with the stored ones within `tolerance`.
struct Samples {
  std::vector<float> incoming, stored;
  bool same(float tolerance, float relative) const {
    for (std::size_t f = 0; f < incoming.size(); ++f) {
      if (!(std::abs(incoming[f] - stored[f]) <= tolerance + relative * std::abs(stored[f]))) return false;
    }
    return true;
  }
};

// One texture matrix's S and T tracks over the incoming channels under `prefix`.
Result<void> lower_tex_mtx(J3dTexMtxAnim& a, const Animation& ia, const std::string& prefix, const J3dTtk1& t, bool maya,
                           const std::string& where, J3dChangedTables& changed) {
  const Channel* offset = pointer_channel(ia, prefix + "offset");
  const Channel* rotation = pointer_channel(ia, prefix + "rotation");
  const Channel* scale = pointer_channel(ia, prefix + "scale");
  if (offset == nullptr && rotation == nullptr && scale == nullptr) return {};
  for (const Channel* c : {offset, rotation, scale}) {
    if (c != nullptr && c->pointer_width != (c == rotation ? 1 : 2)) {
      return at(where + "." + c->pointer, "holds " + std::to_string(c->pointer_width) + " floats a key; KHR_texture_transform's needs " + (c == rotation ? "1" : "2"),
                ErrorCode::bad_count);
    }
  }
  const std::array<float, 2> centre{a.centre[0], a.centre[1]};
  const float unit = j3d_angle_unit(t.angle_scale);
  std::array<Samples, 5> s;  // scale S, scale T, rotation (units), translation S, translation T
  for (std::size_t f = 0; f <= t.duration; ++f) {
    const J3dTexSrt stored = j3d_texture_srt(a.keys, t.angle_scale, static_cast<float>(f));
    TextureTransform k = khr_texture_transform(stored, centre, maya);
    const float time = static_cast<float>(f) / kJ3dFps;
    if (offset != nullptr) {
      const auto v = sample_channel(*offset, 2, time);
      k.offset = {v[0], v[1]};
    }
    if (rotation != nullptr) k.rotation = sample_channel(*rotation, 1, time)[0];
    if (scale != nullptr) {
      const auto v = sample_channel(*scale, 2, time);
      k.scale = {v[0], v[1]};
    }
    const J3dTexSrt in = j3d_texture_srt_of(k, centre, maya);
    const std::array<float, 5> ins{in.scale_s, in.scale_t, in.rotation / unit, in.translation_s, in.translation_t};
    const std::array<float, 5> was{stored.scale_s, stored.scale_t, stored.rotation / unit, stored.translation_s, stored.translation_t};
    for (std::size_t i = 0; i < 5; ++i) {
      s[i].incoming.push_back(ins[i]);
      s[i].stored.push_back(was[i]);
    }
  }
  std::array<J3dFloatTrack*, 4> floats{&a.keys.scale[0], &a.keys.scale[1], &a.keys.translation[0], &a.keys.translation[1]};
  std::array<const Samples*, 4> float_samples{&s[0], &s[1], &s[3], &s[4]};
  for (std::size_t i = 0; i < 4; ++i) {
    if (float_samples[i]->same(1e-4f, 1e-5f)) continue;
    *floats[i] = fit_float_track(float_samples[i]->incoming);
    (i < 2 ? changed.scales : changed.translations) = true;
  }
  if (!s[2].same(0.5f, 0)) {
    auto track = fit_angle_track(s[2].incoming, where + ".rotation");
    if (!track) return track.error();
    a.keys.rotation[2] = std::move(*track);
    changed.rotations = true;
  }
  return {};
}

// A kind of table laid out again: the rule places every track of it, and the gaps after it are the filler.
template <typename T>
void relayout(J3dTtk1& t, std::array<J3dAnimTrack<T>, 3> J3dJointAnim::*kind, Verbatim& stored_table) {
  for (J3dTexMtxAnim& a : t.anims) {
    for (J3dAnimTrack<T>& track : a.keys.*kind) track.stored_index.reset();
  }
  stored_table = Verbatim{};
  for (J3dTtk1Table table : {J3dTtk1Table::scales, J3dTtk1Table::rotations, J3dTtk1Table::translations}) {
    t.gaps[static_cast<std::size_t>(table)] = Verbatim{};
  }
}

}  // namespace

Result<Lowered> lower_j3d_btk(const Scene& scene, const J3dAnimFile& base, const LowerInputs& inputs) {
  Lowered out{Document{base}, {}};
  if (kept_in_extras(scene, inputs.base_name)) return out;
  auto found = j3d_anim_base(scene, inputs.base_name, "BTK");
  if (!found) return found.error();
  const Animation& ia = *found->animation;
  const std::string& where = found->where;
  J3dTtk1& t = std::get<J3dTtk1>(std::get<J3dAnimFile>(out.document).section);
  t.loop_mode = extras_number<std::uint8_t>(ia.extras, "loop_mode", t.loop_mode, 0xFF);
  t.duration = extras_number<std::uint16_t>(ia.extras, "duration", t.duration, 0xFFFF);
  const bool maya = (t.tex_mtx_calc_type & 1) != 0;
  J3dChangedTables changed;
  const Extras* targets = ia.extras.is_object() && ia.extras.contains("tex_mtx_anims") && ia.extras["tex_mtx_anims"].is_array()
                              ? &ia.extras["tex_mtx_anims"] : nullptr;
  std::set<std::string> taken;
  for (std::size_t i = 0; i < t.anims.size() && i < t.names.names.size(); ++i) {
    // The export's target where its extras say (none: no glTF property showed it), else by name.
    std::string prefix;
    if (targets != nullptr && i < targets->size() && (*targets)[i].is_object() && (*targets)[i].contains("target")) {
      const Extras& target = (*targets)[i]["target"];
      if (target.is_string() && target.get<std::string>().starts_with("/materials/")) prefix = target.get<std::string>();
    } else if (const int m = material_named(scene, t.names.names[i]); m >= 0) {
      prefix = khr_texture_transform_pointer(m);
    }
    if (prefix.empty() || !taken.insert(prefix).second) continue;
    if (auto e = lower_tex_mtx(t.anims[i], ia, prefix, t, maya, where + ".tex_mtx_anims[" + std::to_string(i) + "]", changed); !e) return e.error();
  }
  if (changed.scales) relayout(t, &J3dJointAnim::scale, t.stored_scales);
  if (changed.rotations) relayout(t, &J3dJointAnim::rotation, t.stored_rotations);
  if (changed.translations) relayout(t, &J3dJointAnim::translation, t.stored_translations);
  return out;
}

}  // namespace remodel::scene
