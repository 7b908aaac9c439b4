// J3D MAT3/TEX1 -> Scene materials and textures: what glTF can show of a GX material (the first
// textured TEV stage, the material colour, vertex colours, cull mode, alpha compare and blend), the
// rest named in extras.
#include <optional>
#include <string>

#include "model/gx/texture.hpp"
#include "model/j3d/texture.hpp"
#include "scene/j3d/lift.hpp"

namespace remodel::scene {

namespace {

constexpr std::uint16_t kUnused = 0xFFFF;

Wrap gx_wrap(std::uint8_t v) {
  switch (v) {
    case 0: return Wrap::clamp;
    case 2: return Wrap::mirror;
    default: return Wrap::repeat;
  }
}

// GX's min filters are numbered as Filter is: near, linear, then the four mipmap modes.
Filter gx_min_filter(std::uint8_t v) { return v <= 5 ? static_cast<Filter>(v) : Filter::linear_mipmap_linear; }
Filter gx_mag_filter(std::uint8_t v) { return v == 0 ? Filter::nearest : Filter::linear; }

const char* cull_name(std::uint32_t v) {
  switch (v) {
    case 0: return "none";
    case 1: return "front";
    case 2: return "back";
    case 3: return "all";
    default: return "unknown";
  }
}

template <typename T, typename Index>
const T* pick(const std::vector<T>& table, Index i) {
  return i < table.size() ? &table[i] : nullptr;
}

Result<void> lift_textures(const J3dTex1& tex1, Scene& scene) {
  for (std::size_t i = 0; i < tex1.textures.size(); ++i) {
    const J3dTexture& t = tex1.textures[i];
    auto image = decode_j3d_texture(tex1, i);
    if (!image) return image.error();
    Texture out;
    out.name = i < tex1.names.names.size() ? tex1.names.names[i] : "texture" + std::to_string(i);
    out.image = std::move(*image);
    out.encoding = std::string("GX ") + gx_format_name(t.format);
    if (gx_is_indexed(t.format)) out.encoding += std::string("/") + gx_palette_format_name(t.palette_format);
    out.sampler.wrap_s = gx_wrap(t.wrap_s);
    out.sampler.wrap_t = gx_wrap(t.wrap_t);
    out.sampler.min = gx_min_filter(t.min_filter);
    out.sampler.mag = gx_mag_filter(t.mag_filter);
    out.extras = {{"tex1_index", i},     {"format", t.format},       {"palette_format", t.palette_format},
                  {"mip_count", t.mip_count}, {"min_lod", t.min_lod}, {"max_lod", t.max_lod},
                  {"lod_bias", t.lod_bias},   {"max_aniso", t.max_aniso}, {"wrap_s", t.wrap_s},
                  {"wrap_t", t.wrap_t},       {"min_filter", t.min_filter}, {"mag_filter", t.mag_filter}};
    scene.textures.push_back(std::move(out));
  }
  return {};
}

Material lift_material(const J3dMat3& mat, std::size_t m, const J3dTex1* tex1) {
  const std::uint16_t entry_index = mat.remap[m];
  const J3dMaterialEntry& e = mat.entries[entry_index];
  Material out;
  out.name = m < mat.names.names.size() ? mat.names.names[m] : "material" + std::to_string(m);
  Extras extras = {{"material", m}, {"mat3_entry", entry_index}, {"flag", e.flag}};

  if (const std::uint32_t* cull = pick(mat.cull_modes, e.cull)) {
    out.double_sided = *cull == 0;  // front-face culling cannot be said in glTF: kept in extras
    extras["cull_mode"] = cull_name(*cull);
  }

  // Colour channel 0 (RGB) and alpha channel 0 each take the material colour register or the vertex colour.
  const J3dColorChannel* color = e.color_channels[0] != kUnused ? pick(mat.color_channels, e.color_channels[0]) : nullptr;
  const J3dColorChannel* alpha = e.color_channels[1] != kUnused ? pick(mat.color_channels, e.color_channels[1]) : nullptr;
  const J3dColor8* register_color = e.material_colors[0] != kUnused ? pick(mat.material_colors, e.material_colors[0]) : nullptr;
  const J3dColor8 c = register_color ? *register_color : J3dColor8{255, 255, 255, 255};
  const bool rgb_from_vertex = color != nullptr && color->material_source == 1;
  const bool alpha_from_vertex = alpha != nullptr && alpha->material_source == 1;
  out.base_color = {rgb_from_vertex ? 1.0f : c[0] / 255.0f, rgb_from_vertex ? 1.0f : c[1] / 255.0f,
                    rgb_from_vertex ? 1.0f : c[2] / 255.0f, alpha_from_vertex ? 1.0f : c[3] / 255.0f};
  out.vertex_colors = rgb_from_vertex || alpha_from_vertex;
  out.unlit = color != nullptr && color->enable == 0;  // lighting off: the raster colour is shown as it is
  extras["material_color"] = c;
  extras["color_source"] = rgb_from_vertex ? "vertex" : "register";
  extras["alpha_source"] = alpha_from_vertex ? "vertex" : "register";
  extras["lighting"] = color != nullptr && color->enable != 0;

  // The texture: of the TEV stages that sample one, the first with the best of: through the mesh's
  // UVs (texgen source TEX0-7; Wind Waker's stage 0 samples a toon ramp by the lit colour), a colour
  // format (SMS Mario's stage 0 is an I4 mask over his CMPR main texture), no texture matrix.
  const std::uint8_t* stage_count = pick(mat.tev_stage_counts, e.tev_stage_count);
  const std::size_t stages = stage_count != nullptr ? std::min<std::size_t>(*stage_count, e.tev_orders.size()) : 0;
  int best_score = -1;
  for (std::size_t s = 0; s < stages; ++s) {
    const J3dTevOrder* order = e.tev_orders[s] != kUnused ? pick(mat.tev_orders, e.tev_orders[s]) : nullptr;
    if (order == nullptr || order->texmap >= e.textures.size() || e.textures[order->texmap] == kUnused) continue;
    const std::uint16_t* tex1_index = pick(mat.textures, e.textures[order->texmap]);
    if (tex1_index == nullptr || tex1 == nullptr || *tex1_index >= tex1->textures.size()) continue;
    const J3dTexGen* gen = order->texcoord < e.texgens.size() && e.texgens[order->texcoord] != kUnused
                               ? pick(mat.texgens, e.texgens[order->texcoord])
                               : nullptr;
    const bool uvs = gen != nullptr && gen->source >= 4 && gen->source <= 11;
    const bool colour = tex1->textures[*tex1_index].format > 3;  // GX 0-3: I4, I8, IA4, IA8
    const bool plain = gen != nullptr && gen->matrix == 60;        // GX texture matrix 60 = identity
    const int score = (uvs ? 4 : 0) + (colour ? 2 : 0) + (plain ? 1 : 0);
    if (score <= best_score) continue;
    best_score = score;
    out.texture = *tex1_index;
    out.uv_set = uvs ? gen->source - 4 : 0;  // generated coordinates (positions, normals, colours) shown on UV 0
    extras["tev_stage"] = s;
    extras["texmap"] = order->texmap;
    extras.erase("texgen");
    if (gen != nullptr) extras["texgen"] = {{"type", gen->type}, {"source", gen->source}, {"matrix", gen->matrix}};
  }

  // J3D sorts each material into a draw list by its flag: 1 opaque, 2 alpha-tested, 4 translucent.
  // Translucent materials that blend (GX blend type 1) are BLEND; an alpha compare that can fail
  // (GX 7 = always; 4 greater, 6 greater-or-equal) is MASK; the rest are OPAQUE (SMS Mario's opaque
  // materials set a blend that their alpha of 1 makes no-op).
  const J3dAlphaCompare* ac = e.alpha_compare != kUnused ? pick(mat.alpha_compares, e.alpha_compare) : nullptr;
  const J3dBlend* b = e.blend != kUnused ? pick(mat.blends, e.blend) : nullptr;
  const bool blends = b != nullptr && b->type == 1 && !(b->source == 1 && b->destination == 0);  // ONE/ZERO: no blend
  if (ac != nullptr) {
    const bool always0 = ac->compare0 == 7, always1 = ac->compare1 == 7;
    const bool passes_all = ac->operation == 0 ? always0 && always1 : ac->operation == 1 ? always0 || always1 : false;
    if (!passes_all) {
      out.alpha_mode = AlphaMode::mask;
      out.alpha_cutoff = (!always0 ? ac->reference0 : ac->reference1) / 255.0f;
    }
    extras["alpha_compare"] = {{"compare0", ac->compare0}, {"reference0", ac->reference0}, {"operation", ac->operation},
                               {"compare1", ac->compare1}, {"reference1", ac->reference1}};
  }
  if (blends && (e.flag & 4) != 0) out.alpha_mode = AlphaMode::blend;
  if (b != nullptr) extras["blend"] = {{"type", b->type}, {"source", b->source}, {"destination", b->destination}, {"operation", b->operation}};
  out.extras = std::move(extras);
  return out;
}

}  // namespace

Result<void> lift_j3d_materials(const J3dFile& file, Scene& scene) {
  const J3dTex1* tex1 = nullptr;
  for (const J3dSection& s : file.sections) {
    if (const auto* t = std::get_if<J3dTex1>(&s)) tex1 = t;
  }
  if (tex1 != nullptr) {
    if (auto e = lift_textures(*tex1, scene); !e) return e.error();
  }
  for (const J3dSection& s : file.sections) {
    const auto* mat = std::get_if<J3dMat3>(&s);
    if (mat == nullptr) continue;
    for (std::size_t m = 0; m < mat->remap.size(); ++m) {
      if (mat->remap[m] >= mat->entries.size()) {
        return Error{ErrorCode::bad_value, std::nullopt, "MAT3.remap[" + std::to_string(m) + "]", "names a material entry past the " + std::to_string(mat->entries.size()) + " stored"};
      }
      scene.materials.push_back(lift_material(*mat, m, tex1));
    }
  }
  // A shape whose INF1 material does not exist draws with glTF's default material.
  for (Mesh& mesh : scene.meshes) {
    for (Primitive& p : mesh.primitives) {
      if (p.material >= static_cast<int>(scene.materials.size())) p.material = -1;
    }
  }
  return {};
}

}  // namespace remodel::scene
