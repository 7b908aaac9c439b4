// J3D animations of a model's materials and shapes -> Scene animations (lift.hpp). BTK (TTK1): each
// texture matrix that moves its material's base colour texture gets KHR_texture_transform (frame 0)
// and three KHR_animation_pointer channels (offset, rotation, scale), as the game composes the matrix
// (scene/j3d/texture_srt.hpp). BPK (PAK1): a material colour the material shows as its base colour
// drives baseColorFactor. Channels hold every frame 0..duration (LINEAR, 30 fps). BVA (VAF1): a shape
// whose show changes drives its node's KHR_node_visibility (STEP, keyed where it changes). The file's
// header fields, per record its material and what no pointer holds (BRK's TEV colours, BTP's
// textures, BVA's shapes, each at every frame) go to the animation's extras (lib/scene/j3d/README.md).
#include <algorithm>
#include <string>

#include "model/j3d/anim_eval.hpp"
#include "model/j3d/anim_ttk1.hpp"
#include "scene/anim_channels.hpp"
#include "scene/j3d/anim_joints.hpp"
#include "scene/j3d/lift.hpp"
#include "scene/j3d/texture_srt.hpp"

namespace remodel::scene {

namespace {

constexpr unsigned kGxTexMtx0 = 30;  // GX's TexMtx0; TexMtx n is 30 + 3n, 60 the identity

// Whether the material's base colour texture is sampled through its texture matrix `index` (the
// texgen the J3D lift chose, in its extras).
bool base_texture_uses(const Material& m, unsigned index) {
  if (m.texture < 0 || !m.extras.is_object() || !m.extras.contains("texgen")) return false;
  const Extras& gen = m.extras["texgen"];
  return gen.is_object() && gen.contains("matrix") && gen["matrix"].is_number_unsigned() && gen["matrix"].get<unsigned>() == kGxTexMtx0 + 3 * index;
}

Channel pointer_channel(std::string pointer, std::uint8_t width, std::uint16_t duration) {
  Channel c;
  c.pointer = std::move(pointer);
  c.pointer_width = width;
  for (std::size_t f = 0; f <= duration; ++f) c.times.push_back(static_cast<float>(f) / kJ3dFps);
  c.values.reserve(c.times.size() * width);
  return c;
}

Animation lift_ttk1(const J3dTtk1& t, const std::string& name, Scene& scene) {
  Animation anim;
  anim.name = name;
  const bool maya = (t.tex_mtx_calc_type & 1) != 0;  // the game keeps the low bit, as TexMtxInfo's bit 7
  anim.extras = {{"format", "btk"},      {"loop_mode", t.loop_mode}, {"angle_scale", t.angle_scale},
                 {"duration", t.duration}, {"tex_mtx_calc_type", t.tex_mtx_calc_type}};
  Extras mtxs = Extras::array();
  for (std::size_t i = 0; i < t.anims.size(); ++i) {
    const J3dTexMtxAnim& a = t.anims[i];
    const std::string material = i < t.names.names.size() ? t.names.names[i] : "";
    const int m = material_named(scene, material);
    const std::array<float, 2> centre{a.centre[0], a.centre[1]};
    Extras x = {{"material", material}, {"tex_mtx_index", a.tex_mtx_index}, {"centre", a.centre}};
    const std::string prefix = khr_texture_transform_pointer(m);
    bool taken = false;
    for (const Channel& c : anim.channels) taken = taken || c.pointer.starts_with(prefix);
    const bool uses = m >= 0 && base_texture_uses(scene.materials[static_cast<std::size_t>(m)], a.tex_mtx_index);
    if (!uses || taken) {
      // No glTF property shows it: the stored keys stay the file's (remodel dump shows them).
      x["target"] = m < 0 ? "no material of this name" : !uses ? "not the base colour texture's matrix" : "its texture is moved by an earlier matrix";
      mtxs.push_back(std::move(x));
      continue;
    }
    Channel offset = pointer_channel(prefix + "offset", 2, t.duration), rotation = pointer_channel(prefix + "rotation", 1, t.duration),
            scale = pointer_channel(prefix + "scale", 2, t.duration);
    bool exact = true;
    for (std::size_t f = 0; f <= t.duration; ++f) {
      const J3dTexSrt srt = j3d_texture_srt(a.keys, t.angle_scale, static_cast<float>(f));
      const TextureTransform k = khr_texture_transform(srt, centre, maya);
      exact = exact && khr_exact(srt, maya);
      offset.values.insert(offset.values.end(), {k.offset.x, k.offset.y});
      rotation.values.push_back(k.rotation);
      scale.values.insert(scale.values.end(), {k.scale.x, k.scale.y});
    }
    Material& target = scene.materials[static_cast<std::size_t>(m)];
    target.texture_transform = TextureTransform{{offset.values[0], offset.values[1]}, rotation.values[0], {scale.values[0], scale.values[1]}};
    x["target"] = prefix;
    x["exact"] = exact;  // false: unequal scales turned by the basic matrix, which KHR's order cannot say
    mtxs.push_back(std::move(x));
    anim.channels.push_back(std::move(offset));
    anim.channels.push_back(std::move(rotation));
    anim.channels.push_back(std::move(scale));
  }
  anim.extras["tex_mtx_anims"] = std::move(mtxs);
  return anim;
}

// A full-frame track's value at `frame` as the game reads it: that frame's, the last past the end.
template <typename T>
T frame_value(const J3dFrameTrack<T>& t, std::size_t frame) {
  return t.values.empty() ? T{} : t.values[std::min(frame, t.values.size() - 1)];
}

Extras frame_values(const auto& track, std::uint16_t duration) {
  Extras out = Extras::array();
  for (std::size_t f = 0; f <= duration; ++f) out.push_back(frame_value(track, f));
  return out;
}

// A set of colour animations: each one's R, G, B, A at every frame as its keys give them (0xFF full,
// not clamped), and for PAK1 the baseColorFactor channel of a material whose base colour is its
// material colour (the components the lift took from vertex colours stay 1).
Extras lift_colours(const J3dColourAnims& set, std::uint16_t duration, bool material_colour, Scene& scene, Animation& anim) {
  Extras out = Extras::array();
  for (std::size_t i = 0; i < set.anims.size(); ++i) {
    const J3dColourAnim& a = set.anims[i];
    const std::string material = i < set.names.names.size() ? set.names.names[i] : "";
    Extras x = {{"material", material}};
    if (!material_colour) x["colour_id"] = a.colour_id;
    const std::array<std::vector<J3dKey>, 4> keys{j3d_keys(a.rgba[0]), j3d_keys(a.rgba[1]), j3d_keys(a.rgba[2]), j3d_keys(a.rgba[3])};
    Extras rgba = Extras::array();
    for (std::size_t f = 0; f <= duration; ++f) {
      const float frame = static_cast<float>(f);
      rgba.push_back({j3d_sample(keys[0], frame), j3d_sample(keys[1], frame), j3d_sample(keys[2], frame), j3d_sample(keys[3], frame)});
    }
    const int m = material_colour ? material_named(scene, material) : -1;
    const Material* target = m >= 0 ? &scene.materials[static_cast<std::size_t>(m)] : nullptr;
    const auto from = [&](const char* key) { return target->extras.is_object() && target->extras.value(key, "") == "register"; };
    const std::string pointer = "/materials/" + std::to_string(m) + "/pbrMetallicRoughness/baseColorFactor";
    bool taken = false;
    for (const Channel& c : anim.channels) taken = taken || c.pointer == pointer;
    if (target != nullptr && !taken && (from("color_source") || from("alpha_source"))) {
      Channel c = pointer_channel(pointer, 4, duration);
      const std::array<bool, 4> shown{from("color_source"), from("color_source"), from("color_source"), from("alpha_source")};
      for (const Extras& v : rgba) {
        for (std::size_t k = 0; k < 4; ++k) c.values.push_back(shown[k] ? std::clamp(v[k].get<float>() / 255.0f, 0.0f, 1.0f) : 1.0f);
      }
      x["target"] = pointer;
      anim.channels.push_back(std::move(c));
    } else if (material_colour) {
      x["target"] = target == nullptr ? "no material of this name" : taken ? "its colour is driven by an earlier one" : "the material's base colour is the vertex colour";
    }
    x["rgba"] = std::move(rgba);
    out.push_back(std::move(x));
  }
  return out;
}

Animation lift_colour_file(const J3dAnimFile& file, const std::string& name, Scene& scene) {
  Animation anim;
  anim.name = name;
  if (const auto* trk1 = std::get_if<J3dTrk1>(&file.section)) {
    // TEV colour registers and konstants: no glTF property holds them.
    anim.extras = {{"format", "brk"}, {"loop_mode", trk1->loop_mode}, {"duration", trk1->duration}};
    anim.extras["registers"] = lift_colours(trk1->registers, trk1->duration, false, scene, anim);
    anim.extras["konstants"] = lift_colours(trk1->konstants, trk1->duration, false, scene, anim);
  } else {
    const J3dPak1& pak1 = std::get<J3dPak1>(file.section);
    anim.extras = {{"format", "bpk"}, {"loop_mode", pak1.loop_mode}, {"duration", pak1.duration}};
    anim.extras["material_colours"] = lift_colours(pak1.colours, pak1.duration, true, scene, anim);
  }
  return anim;
}

// BTP: each pattern's texture (the model's TEX1 index) at every frame; glTF cannot animate which
// texture a material shows.
Animation lift_tpt1(const J3dTpt1& t, const std::string& name) {
  Animation anim;
  anim.name = name;
  anim.extras = {{"format", "btp"}, {"loop_mode", t.loop_mode}, {"duration", t.duration}};
  Extras patterns = Extras::array();
  for (std::size_t i = 0; i < t.patterns.size(); ++i) {
    const J3dTexturePattern& p = t.patterns[i];
    patterns.push_back({{"material", i < t.material_names.names.size() ? t.material_names.names[i] : ""},
                        {"material_index", p.material_index},
                        {"texture_map", p.texture_map},
                        {"textures", frame_values(p.textures, t.duration)}});
  }
  anim.extras["patterns"] = std::move(patterns);
  return anim;
}

// BVA: each shape's show byte at every frame (1 shown), in the model's shape order, in the extras; and
// a STEP channel on KHR_node_visibility's visible of each shape's node (the lift's node with extras
// "shape") whose show changes, keyed at frame 0, at each change and at the last frame.
Animation lift_vaf1(const J3dVaf1& v, const std::string& name, const Scene& scene) {
  Animation anim;
  anim.name = name;
  anim.extras = {{"format", "bva"}, {"loop_mode", v.loop_mode}, {"duration", v.duration}};
  std::vector<int> node_of(v.shapes.size(), -1);
  for (std::size_t n = 0; n < scene.nodes.size(); ++n) {
    const Extras& x = scene.nodes[n].extras;
    if (!x.is_object() || !x.contains("shape") || !x["shape"].is_number_integer() || x["shape"].get<std::int64_t>() < 0) continue;
    const auto s = x["shape"].get<std::uint64_t>();
    if (s < node_of.size() && node_of[s] < 0) node_of[s] = static_cast<int>(n);
  }
  Extras shapes = Extras::array();
  for (std::size_t s = 0; s < v.shapes.size(); ++s) {
    const J3dFrameTrack<std::uint8_t>& track = v.shapes[s];
    shapes.push_back(frame_values(track, v.duration));
    if (node_of[s] < 0) continue;
    Channel c;
    c.pointer = node_visibility_pointer(static_cast<std::size_t>(node_of[s]));
    c.pointer_width = 1;
    c.boolean = true;
    c.interpolation = Interpolation::step;
    bool changes = false;
    for (std::size_t f = 0; f <= v.duration; ++f) {
      const bool shown = frame_value(track, f) != 0;
      if (f > 0 && shown != (c.values.back() != 0)) changes = true;
      else if (f > 0 && f < v.duration) continue;
      c.times.push_back(static_cast<float>(f) / kJ3dFps);
      c.values.push_back(shown ? 1.0f : 0.0f);
    }
    if (changes) anim.channels.push_back(std::move(c));
  }
  anim.extras["shapes"] = std::move(shapes);
  return anim;
}

}  // namespace

Result<bool> lift_j3d_material_animation(const J3dAnimFile& file, const std::string& name, Scene& scene) {
  Animation anim;
  if (const auto* ttk1 = std::get_if<J3dTtk1>(&file.section)) anim = lift_ttk1(*ttk1, name, scene);
  else if (std::holds_alternative<J3dTrk1>(file.section) || std::holds_alternative<J3dPak1>(file.section)) anim = lift_colour_file(file, name, scene);
  else if (const auto* tpt1 = std::get_if<J3dTpt1>(&file.section)) anim = lift_tpt1(*tpt1, name);
  else if (const auto* vaf1 = std::get_if<J3dVaf1>(&file.section)) anim = lift_vaf1(*vaf1, name, scene);
  else return false;
  if (!anim.channels.empty()) {
    scene.animations.push_back(std::move(anim));
    return true;
  }
  // glTF needs a channel: what no glTF property shows goes to the file's extras, "animations", by name.
  if (!scene.extras.is_object()) scene.extras = Extras::object();
  Extras kept = {{"name", anim.name}};
  kept.update(anim.extras);
  scene.extras["animations"].push_back(std::move(kept));
  return true;
}

}  // namespace remodel::scene
