// J3D animations of a model's materials -> Scene animations (lift.hpp). BTK (TTK1): each texture
// matrix that moves its material's base colour texture gets KHR_texture_transform (frame 0) and three
// KHR_animation_pointer channels (offset, rotation, scale), as the game composes the matrix
// (scene/j3d/texture_srt.hpp), every frame 0..duration (LINEAR, 30 fps). The file's header fields and
// per record its material, index, centre and target go to the animation's extras
// (lib/scene/j3d/README.md).
#include <string>

#include "model/j3d/anim_eval.hpp"
#include "model/j3d/anim_ttk1.hpp"
#include "scene/anim_channels.hpp"
#include "scene/j3d/lift.hpp"
#include "scene/j3d/texture_srt.hpp"

namespace remodel::scene {

namespace {

constexpr float kFps = 30;
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
  for (std::size_t f = 0; f <= duration; ++f) c.times.push_back(static_cast<float>(f) / kFps);
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
    if (m < 0 || taken || !base_texture_uses(scene.materials[static_cast<std::size_t>(m)], a.tex_mtx_index)) {
      // No glTF property shows it: the stored keys stay the file's (remodel dump shows them).
      x["target"] = m < 0 ? "no material of this name" : taken ? "its texture is moved by an earlier matrix" : "not the base colour texture's matrix";
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

}  // namespace

Result<bool> lift_j3d_material_animation(const J3dAnimFile& file, const std::string& name, Scene& scene) {
  Animation anim;
  if (const auto* ttk1 = std::get_if<J3dTtk1>(&file.section)) anim = lift_ttk1(*ttk1, name, scene);
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
