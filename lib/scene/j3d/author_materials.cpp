// J3D authoring, MAT3 and TEX1: one material per Scene material with the GX state glTF can say
// (texture x vertex colour x material colour in one TEV stage, lighting, cull mode, alpha compare
// and blend), Nintendo's pre-seeded pools and defaults; each used texture in a GX format chosen from
// its texels.
#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <string>

#include "model/gx/texture.hpp"
#include "model/j3d/texture.hpp"
#include "scene/j3d/author.hpp"

namespace remodel::scene {

namespace {

constexpr std::uint16_t kNone = 0xFFFF;
constexpr std::uint32_t kMaxSide = 1024;  // GX textures are at most 1024 texels a side

// The index of `value` in `pool`, appended when it is not there (pools hold each value once).
template <typename T>
std::uint16_t pooled(std::vector<T>& pool, const T& value) {
  const auto it = std::find(pool.begin(), pool.end(), value);
  if (it != pool.end()) return static_cast<std::uint16_t>(it - pool.begin());
  pool.push_back(value);
  return static_cast<std::uint16_t>(pool.size() - 1);
}

std::uint8_t byte_of(float f) { return static_cast<std::uint8_t>(std::lround(std::clamp(f, 0.0f, 1.0f) * 255.0f)); }

// ---- TEX1 ----

// The GX format that holds an image: grey images as intensity (4 bits when every value has them),
// few colours through a palette that holds them exactly, opaque or 1-bit alpha as CMPR, the rest
// RGB5A3 when it holds them exactly, else RGBA8.
struct Choice {
  std::uint8_t format = gx_cmpr, palette_format = 0, alpha = 0;
  std::uint16_t palette_count = 0;
};

Choice choose_format(const RgbaImage& image) {
  bool grey = true, opaque = true, one_bit = true, four_bit = true, rgb5a3 = true;
  std::set<std::uint32_t> colours;
  for (std::size_t i = 0; i + 3 < image.rgba.size(); i += 4) {
    const Rgba c{image.rgba[i], image.rgba[i + 1], image.rgba[i + 2], image.rgba[i + 3]};
    grey = grey && c[0] == c[1] && c[1] == c[2];
    opaque = opaque && c[3] == 255;
    one_bit = one_bit && (c[3] == 0 || c[3] == 255);
    four_bit = four_bit && c[0] % 17 == 0 && c[3] % 17 == 0;
    rgb5a3 = rgb5a3 && gx_palette_representable(c, gx_palette_rgb5a3) == c;
    if (colours.size() <= 256) colours.insert(static_cast<std::uint32_t>(c[0]) << 24 | c[1] << 16 | c[2] << 8 | c[3]);
  }
  Choice out;
  out.alpha = opaque ? 0 : 1;
  if (grey) {
    out.format = opaque ? (four_bit ? gx_i4 : gx_i8) : (four_bit ? gx_ia4 : gx_ia8);
    return out;
  }
  if (colours.size() <= 256) {
    bool rgb565 = opaque;
    for (std::uint32_t k : colours) {
      const Rgba c{static_cast<std::uint8_t>(k >> 24), static_cast<std::uint8_t>(k >> 16), static_cast<std::uint8_t>(k >> 8), static_cast<std::uint8_t>(k)};
      rgb565 = rgb565 && gx_palette_representable(c, gx_palette_rgb565) == c;
    }
    if (rgb565 || rgb5a3) {
      out.format = colours.size() <= 16 ? gx_c4 : gx_c8;
      out.palette_format = rgb565 ? gx_palette_rgb565 : gx_palette_rgb5a3;
      out.palette_count = static_cast<std::uint16_t>(colours.size());
      return out;
    }
  }
  out.format = opaque || one_bit ? gx_cmpr : rgb5a3 ? gx_rgb5a3 : gx_rgba8;
  return out;
}

std::uint8_t gx_wrap(Wrap w) { return w == Wrap::clamp ? 0 : w == Wrap::mirror ? 2 : 1; }

bool mipmapped(Filter f) { return f != Filter::nearest && f != Filter::linear; }

Result<std::uint16_t> author_texture(const Scene& scene, std::size_t t, J3dTex1& tex1, std::vector<Warning>& warnings) {
  const Texture& in = scene.textures[t];
  const std::string where = "textures[" + std::to_string(t) + "]";
  RgbaImage image = in.image;
  if (image.width == 0 || image.height == 0 || image.rgba.size() != std::size_t{image.width} * image.height * 4) {
    return Error{ErrorCode::bad_value, std::nullopt, where + ".image", "has an image whose pixels do not match its size"};
  }
  if (image.width > kMaxSide || image.height > kMaxSide) {
    while (image.width > kMaxSide || image.height > kMaxSide) image = downsample_half(image);
    warnings.push_back({where, "is " + std::to_string(in.image.width) + "x" + std::to_string(in.image.height) + "; GX textures are at most 1024 a side, so it was halved to " +
                                   std::to_string(image.width) + "x" + std::to_string(image.height)});
  }
  const bool pot = std::has_single_bit(image.width) && std::has_single_bit(image.height);
  if (!pot && (in.sampler.wrap_s != Wrap::clamp || in.sampler.wrap_t != Wrap::clamp)) {
    warnings.push_back({where, "is " + std::to_string(image.width) + "x" + std::to_string(image.height) + ": GX repeats and mirrors only power-of-two textures, so it was set to clamp"});
  }
  const Choice c = choose_format(image);
  J3dTexture h;
  h.format = c.format;
  h.alpha = c.alpha;
  h.width = static_cast<std::uint16_t>(image.width);
  h.height = static_cast<std::uint16_t>(image.height);
  h.wrap_s = pot ? gx_wrap(in.sampler.wrap_s) : 0;
  h.wrap_t = pot ? gx_wrap(in.sampler.wrap_t) : 0;
  // Mip levels when the sampler asks for them (power-of-two sizes), down to 1 texel on the short side.
  const unsigned levels = pot && mipmapped(in.sampler.min) ? static_cast<unsigned>(std::bit_width(std::min(image.width, image.height))) : 1u;
  h.mip_count = static_cast<std::uint8_t>(levels);
  h.mip_enable = levels > 1 ? 1 : 0;
  h.min_filter = levels > 1 ? static_cast<std::uint8_t>(in.sampler.min) : (in.sampler.min == Filter::nearest ? 0 : 1);
  h.mag_filter = in.sampler.mag == Filter::nearest ? 0 : 1;
  h.max_lod = static_cast<std::int8_t>((levels - 1) * 8);  // in 1/8 levels
  h.image_block = static_cast<std::uint32_t>(tex1.blocks.size());
  if (gx_is_indexed(c.format)) {
    h.palette_enable = 1;
    h.palette_format = c.palette_format;
    h.palette_count = c.palette_count;
    h.palette_block = static_cast<std::uint32_t>(tex1.blocks.size());
    tex1.blocks.push_back({Bytes(std::size_t{c.palette_count} * 2, 0), {}});
    h.image_block = static_cast<std::uint32_t>(tex1.blocks.size());
  }
  tex1.blocks.push_back({});
  tex1.textures.push_back(h);
  tex1.names.names.push_back(in.name.empty() ? "texture" + std::to_string(t) : in.name);
  if (tex1.names.names.back().find('\0') != std::string::npos) return Error{ErrorCode::bad_value, std::nullopt, where + ".name", "holds a NUL byte, which a J3D name table cannot store"};
  if (auto replaced = replace_j3d_texture(tex1, tex1.textures.size() - 1, image); !replaced) {
    const Error& e = replaced.error();
    return Error{e.code, e.offset, where + "." + e.field, e.message};
  }
  return static_cast<std::uint16_t>(tex1.textures.size() - 1);
}

// Nintendo's files put palettes before images, and point a texture without one at the first image
// (the converter's palette cursor).
void nintendo_block_order(J3dTex1& tex1) {
  std::vector<std::uint32_t> order;
  for (const J3dTexture& t : tex1.textures) {
    if (t.palette_block) order.push_back(*t.palette_block);
  }
  for (const J3dTexture& t : tex1.textures) order.push_back(t.image_block);
  std::vector<std::uint32_t> new_of(tex1.blocks.size());
  std::vector<J3dTexBlock> blocks;
  for (std::uint32_t b : order) {
    new_of[b] = static_cast<std::uint32_t>(blocks.size());
    blocks.push_back(std::move(tex1.blocks[b]));
  }
  for (J3dTexture& t : tex1.textures) {
    t.image_block = new_of[t.image_block];
    t.palette_block = t.palette_block ? new_of[*t.palette_block] : static_cast<std::uint32_t>(order.size() - tex1.textures.size());
  }
  tex1.blocks = std::move(blocks);
}

// ---- MAT3 ----

struct Pools {
  J3dMat3& m;

  J3dMaterialEntry entry(const Material& in, int texture) {
    J3dMaterialEntry e;
    e.flag = in.alpha_mode == AlphaMode::blend ? 4 : 1;
    e.cull = pooled<std::uint32_t>(m.cull_modes, in.double_sided ? 0u : 2u);  // GX cull none / back
    e.channel_count = pooled<std::uint8_t>(m.channel_counts, 1);
    e.texgen_count = pooled<std::uint8_t>(m.texgen_counts, texture >= 0 ? 1 : 0);
    e.tev_stage_count = pooled<std::uint8_t>(m.tev_stage_counts, 1);
    e.zcompare_location = pooled<std::uint8_t>(m.zcompare_locations, in.alpha_mode == AlphaMode::mask ? 0 : 1);  // alpha test before the z write
    e.zmode = pooled(m.zmodes, J3dZMode{1, 3, static_cast<std::uint8_t>(in.alpha_mode == AlphaMode::blend ? 0 : 1), 0xFF});  // LEQUAL
    e.dither = pooled<std::uint8_t>(m.dithers, 0);  // the SMG samples' entries
    const bool vertex = in.vertex_colors;
    const J3dColor8 colour{byte_of(in.base_color.x), byte_of(in.base_color.y), byte_of(in.base_color.z), byte_of(in.base_color.w)};
    e.material_colors[0] = e.material_colors[1] = pooled(m.material_colors, vertex ? J3dColor8{255, 255, 255, 255} : colour);
    // Colour and alpha channel 0: lit by light 0 unless unlit, from the vertex colour or the register;
    // channel 1 as the samples leave it (diffuse clamp, spot attenuation).
    const std::uint8_t lit = in.unlit ? 0 : 1, source = vertex ? 1 : 0;
    e.color_channels = {pooled(m.color_channels, J3dColorChannel{lit, source, lit, 2, 1, 0, {0xFF, 0xFF}}),
                        pooled(m.color_channels, J3dColorChannel{0, source, 0, 2, 1, 0, {0xFF, 0xFF}}),
                        pooled(m.color_channels, J3dColorChannel{1, 0, 0, 1, 0, 0, {0xFF, 0xFF}}),
                        pooled(m.color_channels, J3dColorChannel{0, 0, 0, 0, 2, 0, {0xFF, 0xFF}})};
    e.ambient_colors = {pooled(m.ambient_colors, J3dColor8{0x32, 0x32, 0x32, 0x32}), pooled(m.ambient_colors, J3dColor8{0, 0, 0, 0})};
    e.lights.fill(kNone);
    e.texgens.fill(kNone);
    e.post_texgens.fill(kNone);
    e.tex_matrices.fill(kNone);
    e.post_tex_matrices.fill(kNone);
    e.textures.fill(kNone);
    e.tev_kcolors.fill(kNone);
    e.tev_orders.fill(kNone);
    e.tev_colors.fill(kNone);
    e.tev_stages.fill(kNone);
    e.swap_modes.fill(kNone);
    e.swap_tables.fill(kNone);
    e.kcolor_selections.fill(0x0C);  // GX_TEV_KCSEL_1
    e.kalpha_selections.fill(0x1C);  // GX_TEV_KASEL_1
    for (std::size_t k = 0; k < 4; ++k) e.tev_kcolors[k] = pooled(m.tev_kcolors, J3dColor8{255, 255, 255, 255});
    for (std::size_t k = 0; k < 4; ++k) e.tev_colors[k] = pooled(m.tev_colors, k < 3 ? J3dTevColor{255, 255, 255, 255} : J3dTevColor{0, 0, 0, 0});
    J3dTevStage stage;
    stage.color_clamp = stage.alpha_clamp = 1;
    if (texture >= 0) {
      e.texgens[0] = pooled(m.texgens, J3dTexGen{1, static_cast<std::uint8_t>(4 + in.uv_set), 60, 0xFF});  // 2x4 from TEXn, identity
      e.textures[0] = pooled<std::uint16_t>(m.textures, static_cast<std::uint16_t>(texture));
      e.tev_orders[0] = pooled(m.tev_orders, J3dTevOrder{0, 0, 4, 0xFF});  // TEXCOORD0, TEXMAP0, COLOR0A0
      stage.color_in = {15, 8, 10, 15};  // texture colour x raster colour
      stage.alpha_in = {7, 4, 5, 7};     // texture alpha x raster alpha
    } else {
      e.tev_orders[0] = pooled(m.tev_orders, J3dTevOrder{0xFF, 0xFF, 4, 0xFF});
      stage.color_in = {15, 15, 15, 10};  // the raster colour
      stage.alpha_in = {7, 7, 7, 5};
    }
    // Swap modes share the stages' indices, as in every Nintendo file (pooled apart in a base whose
    // tables are not aligned).
    if (m.swap_modes.size() != m.tev_stages.size()) {
      e.tev_stages[0] = pooled(m.tev_stages, stage);
      e.swap_modes[0] = pooled(m.swap_modes, J3dSwapMode{});
    } else {
      e.tev_stages[0] = static_cast<std::uint16_t>(m.tev_stages.size());
      for (std::size_t k = 0; k < m.tev_stages.size(); ++k) {
        if (m.tev_stages[k] == stage && m.swap_modes[k] == J3dSwapMode{}) e.tev_stages[0] = static_cast<std::uint16_t>(k);
      }
      if (e.tev_stages[0] == m.tev_stages.size()) {
        m.tev_stages.push_back(stage);
        m.swap_modes.push_back(J3dSwapMode{});
      }
      e.swap_modes[0] = e.tev_stages[0];
    }
    for (std::size_t k = 0; k < 4; ++k) e.swap_tables[k] = pooled(m.swap_tables, J3dSwapTable{0, 1, 2, 3});
    J3dFog fog;
    fog.color = {255, 255, 255, 255};  // off, as the SMG samples
    e.fog = pooled(m.fogs, fog);
    J3dAlphaCompare ac{7, 0, 1, 7, 0, {0xFF, 0xFF, 0xFF}};  // always, OR, always
    if (in.alpha_mode == AlphaMode::mask) ac = {6, byte_of(in.alpha_cutoff), 0, 7, 0, {0xFF, 0xFF, 0xFF}};  // GEQUAL cutoff AND always
    e.alpha_compare = pooled(m.alpha_compares, ac);
    e.blend = pooled(m.blends, in.alpha_mode == AlphaMode::blend ? J3dBlend{1, 4, 5, 3} : J3dBlend{0, 1, 0, 3});  // SRCALPHA / INVSRCALPHA, logic op COPY
    e.nbt_scale = pooled(m.nbt_scales, J3dNbtScale{0, {0xFF, 0xFF, 0xFF}, {1, 1, 1}});
    return e;
  }
};

}  // namespace

Result<std::uint16_t> add_j3d_material(const Scene& scene, const Material& in, const std::string& name, const std::string& where, J3dMat3& m, J3dTex1& tex1,
                                       std::vector<int>& tex1_of, std::vector<Warning>& warnings) {
  if (m.remap.size() >= 0xFFFF) return Error{ErrorCode::unsupported, std::nullopt, "materials", "MAT3 holds at most 65535 materials"};
  if (name.find('\0') != std::string::npos) return Error{ErrorCode::bad_value, std::nullopt, where + ".name", "holds a NUL byte, which a J3D name table cannot store"};
  const bool finite = std::isfinite(in.base_color.x) && std::isfinite(in.base_color.y) && std::isfinite(in.base_color.z) && std::isfinite(in.base_color.w) &&
                      std::isfinite(in.alpha_cutoff);
  if (!finite) return Error{ErrorCode::bad_value, std::nullopt, where, "has a colour or alpha cutoff that is not finite"};
  int texture = -1;
  if (in.texture >= 0) {
    if (static_cast<std::size_t>(in.texture) >= scene.textures.size()) {
      return Error{ErrorCode::bad_value, std::nullopt, where + ".texture", "names texture " + std::to_string(in.texture) + ", which does not exist"};
    }
    if (in.uv_set < 0 || in.uv_set >= 8) return Error{ErrorCode::unsupported, std::nullopt, where + ".uv_set", "GX samples UV sets 0 to 7 (TEX0-7)"};
    int& t = tex1_of[static_cast<std::size_t>(in.texture)];
    const Texture& wanted = scene.textures[static_cast<std::size_t>(in.texture)];
    for (std::size_t o = 0; o < scene.textures.size() && t < 0; ++o) {
      // Exporters write a glTF texture per material: the same name, sampler and texels are one TEX1 texture.
      const Texture& other = scene.textures[o];
      if (tex1_of[o] >= 0 && other.name == wanted.name && other.sampler == wanted.sampler && other.image.width == wanted.image.width &&
          other.image.height == wanted.image.height && other.image.rgba == wanted.image.rgba) {
        t = tex1_of[o];
      }
    }
    if (t < 0) {
      auto made = author_texture(scene, static_cast<std::size_t>(in.texture), tex1, warnings);
      if (!made) return made.error();
      t = *made;
    }
    texture = t;
  }
  const bool indirect_per_material = m.indirect.size() == m.remap.size();  // a base may store none
  const J3dMaterialEntry e = Pools{m}.entry(in, texture);
  std::size_t k = 0;
  while (k < m.entries.size() && !(m.entries[k] == e)) ++k;
  if (k == m.entries.size()) m.entries.push_back(e);
  m.remap.push_back(static_cast<std::uint16_t>(k));
  m.names.names.push_back(name);
  if (indirect_per_material) m.indirect.push_back(J3dIndirectEntry{});
  return static_cast<std::uint16_t>(m.remap.size() - 1);
}

std::array<std::size_t, kJ3dMatTables> j3d_mat3_table_sizes(const J3dMat3& m) {
  std::array<std::size_t, kJ3dMatTables> out{};
  for (std::size_t t = 0; t < kJ3dMatTables; ++t) out[t] = j3d_mat_table_size(m, static_cast<J3dMatTable>(t));
  return out;
}

void j3d_mat3_follow_growth(J3dMat3& m, const std::array<std::size_t, kJ3dMatTables>& before) {
  bool grew = false;
  for (std::size_t t = 0; t < kJ3dMatTables; ++t) {
    const auto table = static_cast<J3dMatTable>(t);
    if (j3d_mat_table_size(m, table) == before[t]) continue;
    grew = true;
    m.gaps[t] = {};  // a stored gap's length fitted the old size
    m.points_at_next &= ~(1u << t);
    if (std::find(m.order.begin(), m.order.end(), table) != m.order.end()) continue;
    auto at = m.order.begin();  // a table that was empty joins in header order
    while (at != m.order.end() && static_cast<std::size_t>(*at) < t) ++at;
    m.order.insert(at, table);
  }
  if (grew && !m.order.empty()) m.gaps[static_cast<std::size_t>(m.order.back())] = {};  // the section's end moved
}

Result<J3dAuthoredMaterials> author_j3d_materials(const Scene& scene, std::vector<Warning>& warnings) {
  J3dAuthoredMaterials out;
  J3dMat3& m = out.mat3;
  m.cull_modes = {2, 1, 0};  // pre-seeded: BACK, FRONT, NONE
  m.zcompare_locations = {0, 1};
  m.dithers = {0, 1};
  std::vector<int> tex1_of(scene.textures.size(), -1);
  std::vector<Material> materials = scene.materials;
  Material fallback;
  fallback.name = "default";
  bool need_default = false;
  for (const Mesh& mesh : scene.meshes) {
    for (const Primitive& p : mesh.primitives) need_default = need_default || p.material < 0;
  }
  if (need_default) materials.push_back(fallback);
  for (std::size_t i = 0; i < materials.size(); ++i) {
    const Material& in = materials[i];
    auto added = add_j3d_material(scene, in, in.name.empty() ? "material" + std::to_string(i) : in.name, "materials[" + std::to_string(i) + "]", m, out.tex1, tex1_of, warnings);
    if (!added) return added.error();
    if (i < scene.materials.size()) out.of_scene_material.push_back(static_cast<int>(i));
    else out.default_material = static_cast<int>(i);
  }
  nintendo_block_order(out.tex1);
  // Tables in header order; empty ones Nintendo leaves at 0, lights share the next table's offset.
  for (std::size_t t = 0; t < kJ3dMatTables; ++t) {
    const auto table = static_cast<J3dMatTable>(t);
    const bool empty = j3d_mat_table_size(m, table) == 0;
    if (empty && table == J3dMatTable::light) m.points_at_next |= 1u << t;
    else if (empty) continue;
    m.order.push_back(table);
  }
  return out;
}

}  // namespace remodel::scene
