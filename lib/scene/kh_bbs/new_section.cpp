// A KH BBS section for a primitive no base section stands for, as authoring makes one (lib/scene/kh_bbs/README.md,
// "Authoring"): its texture info and TIM2 from the material's texture, its pass from the alpha mode,
// and the vertex format its data needs. Authoring and the lower over an original (a material the
// base has none of) both start their rebuilt sections here.
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "model/psp/texture.hpp"
#include "scene/image_check.hpp"
#include "scene/kh_bbs/lower.hpp"

namespace remodel::scene::kh_bbs {

namespace {

constexpr std::size_t kMaxTextures = 255;      // section texture ids are u8, 0xFF = none
constexpr std::uint32_t kMaxImageSide = 512;   // the GE samples textures up to 512 a side
constexpr std::uint32_t kWhiteDiffuse = 0xFF808080;  // RGB 0x80 is 1.0
constexpr std::uint16_t kTranslucentAttribute = 0x30;  // texture alpha + semi-transparent, as retail mesh1

// The texture info (and TIM2) of Scene texture `t`, made on first use; named by the texture, else by
// `material` (Blender names images and materials, not textures: the lift names a material by its info).
Result<int> new_texture_info(const Scene& scene, int t, const std::string& material, const std::string& material_where, NewTextures& made,
                             TextureLists lists, std::vector<Warning>& warnings) {
  if (made.info_of[static_cast<std::size_t>(t)] >= 0) return made.info_of[static_cast<std::size_t>(t)];
  const std::string where = "textures[" + std::to_string(t) + "]";
  if (lists.infos.size() >= kMaxTextures) return at(where, "more than 255 textures: a section names its texture by a byte", ErrorCode::unsupported);
  if (lists.tim2s.size() >= 0xFFFF) return at(where, "more than 65535 TIM2s", ErrorCode::unsupported);
  const Texture& texture = scene.textures[static_cast<std::size_t>(t)];
  RgbaImage image = texture.image;
  if (auto bad = check_image(image, where); !bad) return bad.error();
  if (image.width > kMaxImageSide || image.height > kMaxImageSide) {
    const float f = static_cast<float>(kMaxImageSide) / static_cast<float>(std::max(image.width, image.height));
    const auto w = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::lround(static_cast<float>(image.width) * f)));
    const auto h = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::lround(static_cast<float>(image.height) * f)));
    warnings.push_back({where, "the " + std::to_string(image.width) + "x" + std::to_string(image.height) + " image is scaled to " + std::to_string(w) + "x" + std::to_string(h) +
                                   " (the PSP samples textures up to 512 a side)"});
    image = resize_image(image, w, h);
  }
  auto picture = new_tim2_picture(image);
  if (!picture) return image_error(picture.error(), where);
  Tim2 tim2;
  tim2.pictures.push_back(std::move(*picture));
  PmoTextureInfo info;
  info.tim2 = static_cast<std::uint16_t>(lists.tim2s.size());
  const std::string named = !texture.name.empty() ? texture.name : !material.empty() ? material : "tex" + std::to_string(static_cast<std::size_t>(t));
  const std::string name = fitted_name(named, 12, texture.name.empty() && !material.empty() ? material_where + ".name" : where + ".name", warnings);
  std::memcpy(info.name.data(), name.data(), name.size());
  lists.tim2s.push_back(std::move(tim2));
  if (!lists.gaps_before_tim2.empty()) lists.gaps_before_tim2.emplace_back();
  const int index = static_cast<int>(lists.infos.size());
  lists.infos.push_back(info);
  auto ratio = [](std::uint32_t size) { return static_cast<float>(std::bit_ceil(size)) / static_cast<float>(size); };
  made.uv_scale.emplace_back(index, Vec2{ratio(image.width), ratio(image.height)});
  made.info_of[static_cast<std::size_t>(t)] = index;
  return index;
}

bool all_within(const std::vector<Vec2>& uvs, Vec2 scale, float top) {
  return std::all_of(uvs.begin(), uvs.end(), [&](const Vec2& v) {
    const float u = v.x / scale.x, w = v.y / scale.y;
    return u >= 0.0f && u <= top && w >= 0.0f && w <= top;
  });
}

bool exact_u8(const std::vector<Vec2>& uvs, Vec2 scale) {
  return std::all_of(uvs.begin(), uvs.end(), [&](const Vec2& v) {
    for (float x : {v.x / scale.x, v.y / scale.y}) {
      const auto s = psp::unsigned_stored(psp::NumFormat::i8, x);
      if (!s || psp::unsigned_value(psp::NumFormat::i8, *s) != x) return false;
    }
    return true;
  });
}

}  // namespace

std::string fitted_name(const std::string& name, std::size_t size, const std::string& where, std::vector<Warning>& warnings) {
  if (name.size() <= size) return name;
  std::size_t n = size;
  while (n > 0 && (static_cast<unsigned char>(name[n]) & 0xC0) == 0x80) --n;
  warnings.push_back({where, "the name \"" + name + "\" is cut to " + std::to_string(n) + " bytes (the field holds " + std::to_string(size) + ")"});
  return name.substr(0, n);
}

Vec2 NewTextures::uv_scale_of(int info) const {
  for (const auto& [i, s] : uv_scale) {
    if (i == info) return s;
  }
  return {1, 1};
}

Result<NewSection> new_section(const Scene& scene, const Primitive& prim, int material, bool skinned, NewTextures& made,
                               TextureLists lists, std::vector<Warning>& warnings) {
  if (made.info_of.size() != scene.textures.size()) made.info_of.assign(scene.textures.size(), -1);
  const Material* m = material >= 0 && static_cast<std::size_t>(material) < scene.materials.size() ? &scene.materials[static_cast<std::size_t>(material)] : nullptr;
  const bool translucent = m != nullptr && m->alpha_mode == AlphaMode::blend;
  NewSection out;
  PmoSection& base = out.base;
  base.texture = 0xFF;
  Vec2 uv_scale{1, 1};
  if (m != nullptr && m->texture >= 0) {
    if (static_cast<std::size_t>(m->texture) >= scene.textures.size()) {
      return at("materials[" + std::to_string(material) + "].texture", "texture " + std::to_string(m->texture) + " does not exist");
    }
    auto info = new_texture_info(scene, m->texture, m->name, "materials[" + std::to_string(material) + "]", made, lists, warnings);
    if (!info) return info.error();
    base.texture = static_cast<std::uint8_t>(*info);
    uv_scale = made.uv_scale_of(*info);
  }
  base.attribute = translucent ? kTranslucentAttribute : 0;
  psp::VertexFormat format;
  format.position = skinned ? psp::NumFormat::i16 : psp::NumFormat::f32;
  if (!prim.uvs.empty() && !prim.uvs[0].empty()) {
    // The smallest that holds every UV: u8 only when exact (maps' UVs often are), u16 over [0, 2), else f32.
    format.texcoord = exact_u8(prim.uvs[0], uv_scale)                                ? psp::NumFormat::i8
                      : all_within(prim.uvs[0], uv_scale, 65535.0f / 32768.0f) ? psp::NumFormat::i16
                                                                                   : psp::NumFormat::f32;
  }
  // Vertex colours only when they vary; one colour for the section goes in its uniform diffuse.
  const std::vector<Vec4>& c = prim.colors;
  const bool varies = std::any_of(c.begin(), c.end(), [&](const Vec4& v) { return v != c[0]; });
  if (varies) format.color = psp::ColorFormat::abgr8888;
  else if (!c.empty()) base.diffuse = kWhiteDiffuse;  // the rebuild stores the primitive's colour
  if (skinned) {
    format.weight = psp::NumFormat::i8;
    format.weight_count = 1;  // widened by the rebuild to the section's joints
    base.joints.emplace();
    base.joints->fill(0xFF);
  }
  base.vertex_flags = format.vtype() | (base.diffuse ? PmoSection::kUniformDiffuse : 0u) | (skinned ? 0u : PmoSection::kNoWeight);
  if (uv_scale != Vec2{1, 1}) out.lifted.extras["uv_scale"] = {uv_scale.x, uv_scale.y};
  out.list = translucent ? 1 : 0;
  return out;
}

}  // namespace remodel::scene::kh_bbs
