// MDL3 from MAT3: model-level, as it encodes one J3D section from two others and needs no Scene.
// Register layouts are GX's (BP 0x00-0xFF, XF 0x0000-0x1057); the order and grouping of the
// commands, and the values Nintendo's converter puts in unused fields, are measured on the real
// BDL samples (tests/j3d/test_mdl3.cpp compares every command).
#include "model/j3d/mdl3.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>

namespace remodel {

namespace {

constexpr std::uint16_t kNone = 0xFFFF;
constexpr std::uint8_t kNull = 0xFF;          // no texture map / texcoord / channel
constexpr std::uint32_t kIdentityMatrix = 60;  // GX_IDENTITY as a texgen matrix row

struct Packet {
  std::vector<J3dGxCommand> commands;
  std::size_t bytes = 0;

  void bp(std::uint8_t address, std::uint32_t value) {
    commands.push_back(J3dGxCommand{0x61, Bytes{address, static_cast<std::uint8_t>(value >> 16),
                                                static_cast<std::uint8_t>(value >> 8), static_cast<std::uint8_t>(value)}});
    bytes += 5;
  }
  void masked(std::uint32_t mask, std::uint8_t address, std::uint32_t value) {
    bp(0xFE, mask);
    bp(address, value);
  }
  void xf(std::uint16_t address, const std::vector<std::uint32_t>& values) {
    const std::size_t n = values.size() - 1;
    Bytes args{static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n), static_cast<std::uint8_t>(address >> 8),
               static_cast<std::uint8_t>(address)};
    for (std::uint32_t v : values) {
      args.insert(args.end(), {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16),
                               static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)});
    }
    bytes += 1 + args.size();
    commands.push_back(J3dGxCommand{0x10, std::move(args)});
  }
  std::uint16_t here() const { return static_cast<std::uint16_t>(bytes); }
};

std::uint32_t rgba(const J3dColor8& c) {
  return std::uint32_t{c[0]} << 24 | std::uint32_t{c[1]} << 16 | std::uint32_t{c[2]} << 8 | c[3];
}
std::uint32_t s11(std::int32_t v) { return static_cast<std::uint32_t>(v) & 0x7FF; }

// Reads a material's pool entries; the first index outside its pool is the error.
struct Encoder {
  template <typename T>
  const T* at(const std::vector<T>& pool, std::uint16_t index, const char* field) {
    if (index < pool.size()) return &pool[index];
    if (!error) {
      error = Error{ErrorCode::bad_value, std::nullopt, "MAT3.material[" + std::to_string(material) + "]." + field,
                     "indexes entry " + std::to_string(index) + " of a table of " + std::to_string(pool.size())};
    }
    return nullptr;
  }
  template <typename T>
  T value(const std::vector<T>& pool, std::uint16_t index, const char* field, T fallback = T{}) {
    const T* p = at(pool, index, field);
    return p ? *p : fallback;
  }
  // The TEX1 texture a material's texture map shows, or none.
  const J3dTexture* texture(const J3dMaterialEntry& e, std::uint8_t map) {
    if (map >= 8 || e.textures[map] == kNone) return nullptr;
    const std::uint16_t* number = at(mat.textures, e.textures[map], "texture");
    return number ? at(tex.textures, *number, "texture (TEX1)") : nullptr;
  }
  const J3dMat3& mat;
  const J3dTex1& tex;
  std::size_t material = 0;
  std::optional<Error> error;
};

// Texcoord scale (BP SU_SSIZE/SU_TSIZE) of slot `coord` to a texture's size; slot 0xFF wraps to 0x2E.
void texcoord_scale(Packet& p, std::uint8_t coord, const J3dTexture* t) {
  const std::uint8_t address = static_cast<std::uint8_t>(0x30 + 2 * coord);
  p.masked(0x03FFFF, address, t ? t->width - 1u : 0u);
  p.bp(static_cast<std::uint8_t>(address + 1), t ? t->height - 1u : 0u);
}

void textures(Packet& p, Encoder& enc, const J3dMaterialEntry& e) {
  static constexpr std::uint8_t kMinFilter[6] = {0, 4, 1, 5, 2, 6};  // GX filter enum -> TX_SETMODE0 bits
  for (std::uint8_t k = 0; k < 8; ++k) {
    if (e.textures[k] == kNone) continue;
    const std::uint16_t* number = enc.at(enc.mat.textures, e.textures[k], "texture");
    const J3dTexture* t = number ? enc.at(enc.tex.textures, *number, "texture (TEX1)") : nullptr;
    if (!t) return;
    const std::uint8_t lo = k < 4 ? k : static_cast<std::uint8_t>(k - 4);
    const std::uint8_t image3 = static_cast<std::uint8_t>((k < 4 ? 0x94 : 0xB4) + lo);
    const std::uint8_t image0 = static_cast<std::uint8_t>((k < 4 ? 0x88 : 0xA8) + lo);
    const std::uint8_t mode0 = static_cast<std::uint8_t>((k < 4 ? 0x80 : 0xA0) + lo);
    const std::uint8_t mode1 = static_cast<std::uint8_t>((k < 4 ? 0x84 : 0xA4) + lo);
    const std::uint8_t tlut = static_cast<std::uint8_t>((k < 4 ? 0x98 : 0xB8) + lo);
    p.bp(image3, *number);  // the runtime patches this to the image's address
    p.bp(image0, (t->width - 1u) | (t->height - 1u) << 10 | std::uint32_t{t->format} << 20);
    const auto bias = static_cast<std::uint32_t>(static_cast<std::int32_t>(t->lod_bias * 32 / 100)) & 0xFF;
    p.bp(mode0, t->wrap_s | t->wrap_t << 2 | (t->mag_filter == 1) << 4 | std::uint32_t{kMinFilter[t->min_filter % 6]} << 5 |
                    (t->edge_lod == 0) << 8 | bias << 9 | std::uint32_t{t->max_aniso} << 19 | std::uint32_t{t->bias_clamp} << 21);
    p.bp(mode1, (static_cast<std::uint32_t>(t->min_lod * 2) & 0xFF) | (static_cast<std::uint32_t>(t->max_lod * 2) & 0xFF) << 8);
    if (t->format >= 8 && t->format <= 10) {  // C4, C8, C14X2: load the palette into TMEM
      const std::uint32_t tmem = 0x380 + 0x10u * k;
      const std::uint32_t lines = t->format == 8 ? 1 : t->format == 9 ? 16 : (t->palette_count + 15u) / 16;
      p.masked(0xFFFF00, 0x0F, 0);
      p.bp(0x64, 0);  // source address: known at run time only
      p.bp(0x65, tmem | lines << 10);
      p.masked(0xFFFF00, 0x0F, 0);
      p.bp(tlut, tmem | std::uint32_t{t->palette_format} << 10);
    }
  }
}

void tev_orders(Packet& p, Encoder& enc, const J3dMaterialEntry& e, std::size_t stages) {
  static constexpr std::uint8_t kRasColour[9] = {0, 1, 0, 1, 0, 1, 7, 5, 6};  // GX channel -> RAS1 colour
  for (std::size_t pair = 0; 2 * pair < stages; ++pair) {
    std::uint32_t tref = 0;
    std::array<std::pair<std::uint8_t, const J3dTexture*>, 2> scales{};
    for (std::size_t half = 0; half < 2; ++half) {
      const std::size_t s = 2 * pair + half;
      J3dTevOrder o{0, kNull, 0, 0xFF};  // past the stage count: Nintendo's tool wrote stale data here
      if (s < stages) {
        o = e.tev_orders[s] == kNone ? J3dTevOrder{kNull, kNull, kNull, 0xFF} : enc.value(enc.mat.tev_orders, e.tev_orders[s], "tev_order");
      }
      const bool mapped = o.texmap != kNull;
      const std::uint32_t bits = (mapped ? o.texmap & 7u : 7u) | (o.texcoord != kNull ? o.texcoord & 7u : 0u) << 3 |
                                 std::uint32_t{mapped} << 6 | std::uint32_t{o.channel < 9 ? kRasColour[o.channel] : 7u} << 7;
      tref |= bits << (12 * half);
      scales[half] = {mapped ? static_cast<std::uint8_t>(o.texcoord & 7) : std::uint8_t{7}, mapped ? enc.texture(e, o.texmap) : nullptr};
    }
    p.bp(static_cast<std::uint8_t>(0x28 + pair), tref);
    for (const auto& [coord, t] : scales) texcoord_scale(p, coord, t);
  }
}

void tev_colours(Packet& p, Encoder& enc, const J3dMaterialEntry& e) {
  for (std::uint8_t k = 0; k < 3; ++k) {  // registers 1-3; 0 (PREV) is not loaded
    const J3dTevColor c = e.tev_colors[k] == kNone ? J3dTevColor{} : enc.value(enc.mat.tev_colors, e.tev_colors[k], "tev_color");
    p.bp(static_cast<std::uint8_t>(0xE2 + 2 * k), s11(c[0]) | s11(c[3]) << 12);
    for (int repeat = 0; repeat < 3; ++repeat) p.bp(static_cast<std::uint8_t>(0xE3 + 2 * k), s11(c[2]) | s11(c[1]) << 12);
  }
  for (std::uint8_t k = 0; k < 4; ++k) {
    const J3dColor8 c = e.tev_kcolors[k] == kNone ? J3dColor8{} : enc.value(enc.mat.tev_kcolors, e.tev_kcolors[k], "tev_kcolor");
    p.bp(static_cast<std::uint8_t>(0xE0 + 2 * k), c[0] | std::uint32_t{c[3]} << 12 | 1u << 23);
    p.bp(static_cast<std::uint8_t>(0xE1 + 2 * k), c[2] | std::uint32_t{c[1]} << 12 | 1u << 23);
  }
}

std::uint32_t combiner_tail(std::uint8_t op, std::uint8_t bias, std::uint8_t scale, std::uint8_t clamp, std::uint8_t reg) {
  if (op >= 8) {  // comparisons: bias 3, the compare mode where the scale goes
    return 3u << 16 | (op & 1u) << 18 | std::uint32_t{clamp} << 19 | ((op >> 1) & 3u) << 20 | std::uint32_t{reg} << 22;
  }
  return std::uint32_t{bias} << 16 | std::uint32_t{op} << 18 | std::uint32_t{clamp} << 19 | std::uint32_t{scale} << 20 |
         std::uint32_t{reg} << 22;
}

void tev_stages(Packet& p, Encoder& enc, const J3dMaterialEntry& e, std::size_t stages, const J3dIndirectEntry* ind) {
  for (std::size_t s = 0; s < stages; ++s) {
    const J3dTevStage t = enc.value(enc.mat.tev_stages, e.tev_stages[s], "tev_stage");
    const J3dSwapMode w = e.swap_modes[s] == kNone ? J3dSwapMode{} : enc.value(enc.mat.swap_modes, e.swap_modes[s], "swap_mode");
    const auto& c = t.color_in;
    const auto& a = t.alpha_in;
    p.bp(static_cast<std::uint8_t>(0xC0 + 2 * s), c[3] | c[2] << 4 | c[1] << 8 | c[0] << 12 |
                                                      combiner_tail(t.color_op, t.color_bias, t.color_scale, t.color_clamp, t.color_register));
    p.bp(static_cast<std::uint8_t>(0xC1 + 2 * s), w.raster | w.texture << 2 | a[3] << 4 | a[2] << 7 | a[1] << 10 | a[0] << 13 |
                                                      combiner_tail(t.alpha_op, t.alpha_bias, t.alpha_scale, t.alpha_clamp, t.alpha_register));
    std::uint32_t cmd = 0;
    if (ind) {  // stage, format, bias, matrix, wrap s, wrap t, add previous, UTC LOD, bump alpha
      const auto& x = ind->stages[s];
      cmd = x[0] | x[1] << 2 | x[2] << 4 | x[8] << 7 | x[3] << 9 | x[4] << 13 | x[5] << 16 | x[7] << 19 | x[6] << 20;
    }
    p.bp(static_cast<std::uint8_t>(0x10 + s), cmd);
  }
}

void konst_and_swaps(Packet& p, Encoder& enc, const J3dMaterialEntry& e) {
  for (std::uint8_t k = 0; k < 8; ++k) {
    const std::uint16_t table = e.swap_tables[k / 2];
    const J3dSwapTable t = table == kNone ? J3dSwapTable{0, 1, 2, 3} : enc.value(enc.mat.swap_tables, table, "swap_table");
    const std::uint32_t swap = k % 2 == 0 ? (t[0] | t[1] << 2) : (t[2] | t[3] << 2);
    p.bp(static_cast<std::uint8_t>(0xF6 + k), swap | std::uint32_t{e.kcolor_selections[2 * k]} << 4 |
                                                  std::uint32_t{e.kalpha_selections[2 * k]} << 9 |
                                                  std::uint32_t{e.kcolor_selections[2 * k + 1]} << 14 |
                                                  std::uint32_t{e.kalpha_selections[2 * k + 1]} << 19);
  }
}

// An indirect matrix element as GX's s1.10 (truncated, as the files hold them); out of range clamps.
std::int32_t fixed_s10(float f) {
  if (!(std::fabs(f) < 2.0f)) return std::isnan(f) ? 0 : f < 0 ? -1024 : 1023;
  return static_cast<std::int32_t>(f * 1024.0f);
}

void indirect(Packet& p, Encoder& enc, const J3dMaterialEntry& e, const J3dIndirectEntry* ind, std::size_t count) {
  if (ind) {
    for (std::size_t m = 0; m < std::min<std::size_t>(count, 3); ++m) {
      const J3dIndirectMatrix& x = ind->matrices[m];
      std::array<std::uint32_t, 6> q{};
      for (std::size_t k = 0; k < 6; ++k) q[k] = static_cast<std::uint32_t>(fixed_s10(x.matrix[k])) & 0x7FF;
      const auto scale = static_cast<std::uint32_t>(x.exponent + 17);
      for (std::uint8_t col = 0; col < 3; ++col) {
        p.bp(static_cast<std::uint8_t>(0x06 + 3 * m + col), q[col] | q[3 + col] << 11 | ((scale >> (2 * col)) & 3u) << 22);
      }
    }
    for (std::size_t r = 0; 2 * r < count; ++r) {
      const auto& a = ind->scales[2 * r];
      const std::array<std::uint8_t, 4> b = 2 * r + 1 < count ? ind->scales[2 * r + 1] : std::array<std::uint8_t, 4>{};
      p.bp(static_cast<std::uint8_t>(0x25 + r), a[0] | a[1] << 4 | b[0] << 8 | b[1] << 12);
    }
  }
  std::uint32_t iref = 0xFFFFFF, imask = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    std::uint8_t coord = kNull;
    const J3dTexture* t = nullptr;
    if (ind && k < count) {
      coord = ind->orders[k][0];
      const std::uint8_t map = ind->orders[k][1];
      t = enc.texture(e, map);
      iref = (iref & ~(0x3Fu << (6 * k))) | ((map & 7u) | (coord & 7u) << 3) << (6 * k);
      imask |= 1u << (map & 7);
    }
    texcoord_scale(p, coord, t);
  }
  p.bp(0x27, iref);
  p.bp(0x0F, imask);
}

std::uint32_t float_field(float f) {  // GX's 20-bit float: 11 mantissa bits, 8 exponent bits, sign
  const auto b = std::bit_cast<std::uint32_t>(f);
  return ((b >> 12) & 0x7FF) | ((b >> 23) & 0xFF) << 11 | (b >> 31) << 19;
}

void fog(Packet& p, const J3dFog& f) {
  // GX's fog equation: z' = A / (B - z), applied as (A / 2^e, B's mantissa, e) and C as an offset.
  double a = 0, b = 0.5, c = 0;
  if (f.far_z != f.near_z && f.end_z != f.start_z) {
    a = double(f.far_z) * f.near_z / ((double(f.far_z) - f.near_z) * (double(f.end_z) - f.start_z));
    b = double(f.far_z) / (double(f.far_z) - f.near_z);
    c = double(f.start_z) / (double(f.end_z) - f.start_z);
  }
  if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c) || std::fabs(b) > 1e30) a = 0, b = 0.5, c = 0;  // no fog to speak of
  double mantissa = b;
  int exponent = 1;
  while (mantissa > 1.0) {
    mantissa /= 2;
    ++exponent;
  }
  while (mantissa > 0 && mantissa < 0.5) {
    mantissa *= 2;
    --exponent;
  }
  p.bp(0xEE, float_field(static_cast<float>(a / std::ldexp(1.0, exponent))));
  p.bp(0xEF, static_cast<std::uint32_t>(8388638.0 * mantissa) & 0xFFFFFF);
  p.bp(0xF0, static_cast<std::uint32_t>(exponent) & 0x1F);
  p.bp(0xF1, float_field(static_cast<float>(c)) | std::uint32_t(f.type & 7u) << 21);
  p.bp(0xF2, std::uint32_t{f.color[0]} << 16 | std::uint32_t{f.color[1]} << 8 | f.color[2]);
  if (f.enable) {
    for (std::uint8_t k = 0; k < 5; ++k) {
      p.bp(static_cast<std::uint8_t>(0xE9 + k), f.range_adjustment[2 * k] | std::uint32_t{f.range_adjustment[2 * k + 1]} << 12);
    }
  }
  p.bp(0xE8, (f.center + 342u) | std::uint32_t{f.enable} << 10);
}

// A texture matrix as the rows XF loads (2x4, or 3x4 for a 3x4 texgen): scale, rotation and
// translation about the centre.
std::vector<std::uint32_t> texture_matrix(const J3dTexMatrix& m, bool three_rows) {
  // J3D's sine table has 2048 steps a turn: the angle is the s16 rotation's top 11 bits.
  const double angle = (m.rotation >> 5) * 3.14159265358979323846 / 1024.0;
  const double cs = std::cos(angle), sn = std::sin(angle);
  const double r[2][2] = {{m.scale[0] * cs, -m.scale[0] * sn}, {m.scale[1] * sn, m.scale[1] * cs}};
  const double cx = m.center[0], cy = m.center[1];
  const double tx = cx + m.translation[0] - (r[0][0] * cx + r[0][1] * cy);
  const double ty = cy + m.translation[1] - (r[1][0] * cx + r[1][1] * cy);
  const float rows[8] = {float(r[0][0]), float(r[0][1]), 0.0f, float(tx), float(r[1][0]), float(r[1][1]), 0.0f, float(ty)};
  std::vector<std::uint32_t> out;
  for (float v : rows) out.push_back(std::bit_cast<std::uint32_t>(v));
  if (three_rows) out.insert(out.end(), {0, 0, 0, 0x3F800000});  // (0, 0, 0, 1), as the files' third rows
  return out;
}

std::uint32_t texgen_register(const J3dTexGen& g) {
  std::uint32_t row = 5, kind = 0, form = 0, emboss = 5, light = 0;  // bits 12-14 hold 5 in every regular texgen
  if (g.source <= 3) {
    row = g.source == 0 ? 0u : g.source == 1 ? 1u : g.source + 1u;  // position, normal, binormal, tangent
    form = 1;
  } else if (g.source <= 11) {
    row = 5u + (g.source - 4u);
  } else if (g.source == 19 || g.source == 20) {
    row = 2;
  }
  if (g.type >= 2 && g.type <= 9) {  // bump: emboss from a texcoord towards a light
    kind = 1;
    emboss = g.source >= 12 && g.source <= 18 ? g.source - 12u : 0u;
    light = g.type - 2u;
  } else if (g.type == 10) {
    kind = g.source == 20 ? 3 : 2;
  }
  return std::uint32_t{g.type == 0} << 1 | form << 2 | kind << 4 | row << 7 | emboss << 12 | light << 15;
}

// Channel control (lights follow it in the same subpacket): material source, lighting, lights, ambient source, diffuse and attenuation.
std::uint32_t channel_register(const J3dColorChannel& c) {
  const std::uint32_t diffuse = c.attenuation_function == 0 ? 0u : c.diffuse_function;
  return std::uint32_t{c.material_source} | std::uint32_t{c.enable} << 1 | (c.light_mask & 0xFu) << 2 |
         std::uint32_t{c.ambient_source} << 6 | diffuse << 7 | std::uint32_t{c.attenuation_function != 2} << 9 |
         std::uint32_t{c.attenuation_function != 0} << 10 | (c.light_mask >> 4u) << 11;
}

}  // namespace

Result<J3dMdl3> j3d_mdl3_from_mat3(const J3dMat3& mat, const J3dTex1& tex, J3dMdlFlavour flavour) {
  J3dMdl3 out;
  const std::size_t count = mat.remap.size();
  if (count > 0xFFFF || mat.names.names.size() != count) {
    return Error{ErrorCode::inconsistent, std::nullopt, "MAT3.names", "needs one name per material"};
  }
  out.names = mat.names;
  for (std::size_t i = 0; i < count; ++i) {
    Encoder enc{mat, tex, i, std::nullopt};
    const J3dMaterialEntry* ep = enc.at(mat.entries, mat.remap[i], "remap");
    if (!ep) return *enc.error;
    const J3dMaterialEntry& e = *ep;
    const std::size_t stages = enc.value(mat.tev_stage_counts, e.tev_stage_count, "tev_stage_count");
    const std::uint8_t texgens = enc.value(mat.texgen_counts, e.texgen_count, "texgen_count");
    const std::uint8_t channels = enc.value(mat.channel_counts, e.channel_count, "channel_count");
    if (enc.error) return *enc.error;
    if (stages == 0 || stages > 16 || texgens > 8 || channels > 2) {
      return Error{ErrorCode::bad_value, std::nullopt, "MAT3.material[" + std::to_string(i) + "]",
                   "needs 1-16 TEV stages, at most 8 texgens and 2 colour channels"};
    }
    const J3dIndirectEntry* ind = i < mat.indirect.size() && mat.indirect[i].enable ? &mat.indirect[i] : nullptr;
    const std::size_t ind_stages = ind ? std::min<std::size_t>(ind->stage_count, 4) : 0;

    Packet p;
    J3dMdlSubpacket sub;
    sub.offsets[3] = p.here();
    textures(p, enc, e);
    tev_orders(p, enc, e, stages);
    sub.offsets[4] = p.here();
    tev_colours(p, enc, e);
    tev_stages(p, enc, e, stages, ind);
    konst_and_swaps(p, enc, e);
    indirect(p, enc, e, ind, ind_stages);
    sub.offsets[5] = p.here();
    fog(p, enc.value(mat.fogs, e.fog, "fog"));
    const J3dAlphaCompare ac = enc.value(mat.alpha_compares, e.alpha_compare, "alpha_compare");
    p.bp(0xF3, ac.reference0 | std::uint32_t{ac.reference1} << 8 | std::uint32_t{ac.compare0} << 16 |
                   std::uint32_t{ac.compare1} << 19 | std::uint32_t{ac.operation} << 22);
    const J3dBlend bl = enc.value(mat.blends, e.blend, "blend");
    const std::uint32_t dither = enc.value(mat.dithers, e.dither, "dither");
    p.masked(flavour == J3dMdlFlavour::wind_waker ? 0x001FE7 : 0x00FFE7, 0x41,
             std::uint32_t{bl.type == 1 || bl.type == 3} | std::uint32_t{bl.type == 2} << 1 | dither << 2 |
                 std::uint32_t{bl.destination} << 5 | std::uint32_t{bl.source} << 8 | std::uint32_t{bl.type == 3} << 11 |
                 std::uint32_t{bl.operation} << 12);
    const J3dZMode z = enc.value(mat.zmodes, e.zmode, "zmode");
    p.bp(0x40, z.enable | std::uint32_t{z.function} << 1 | std::uint32_t{z.update} << 4);
    p.masked(0x000040, 0x43, std::uint32_t{enc.value(mat.zcompare_locations, e.zcompare_location, "zcompare_location")} << 6);
    static constexpr std::uint32_t kCull[4] = {0, 2, 1, 3};  // GX cull mode -> GEN_MODE (front/back swapped)
    const std::uint32_t cull = enc.value(mat.cull_modes, e.cull, "cull");
    p.masked(0x07FC3F, 0x00, texgens | std::uint32_t{channels} << 4 | (stages - 1) << 10 | kCull[cull & 3] << 14 |
                                 ind_stages << 16);

    // XF: texture matrices and texgens, then colours, then channel controls.
    sub.offsets[2] = p.here();
    std::array<std::uint32_t, 8> texgen_matrix{};
    texgen_matrix.fill(kIdentityMatrix);
    std::vector<J3dTexGen> gens;
    for (std::size_t k = 0; k < texgens; ++k) gens.push_back(enc.value(mat.texgens, e.texgens[k], "texgen"));
    for (std::size_t k = 0; k < 10; ++k) {  // only the matrices a texgen uses (30 + 3k is TEXMTXk)
      const auto user = std::find_if(gens.begin(), gens.end(), [&](const J3dTexGen& g) { return g.matrix == 30 + 3 * k; });
      if (e.tex_matrices[k] == kNone || user == gens.end()) continue;
      const J3dTexMatrix* m = enc.at(mat.tex_matrices, e.tex_matrices[k], "tex_matrix");
      if (m) p.xf(static_cast<std::uint16_t>(0x78 + 12 * k), texture_matrix(*m, user->type == 0));
    }
    if (texgens > 0) {
      std::vector<std::uint32_t> regs, post;
      for (std::size_t k = 0; k < texgens; ++k) {
        const J3dTexGen& g = gens[k];
        regs.push_back(texgen_register(g));
        texgen_matrix[k] = g.matrix;
        const J3dTexGen pg = e.post_texgens[k] == kNone ? J3dTexGen{0, 0, 125, 0xFF} : enc.value(mat.post_texgens, e.post_texgens[k], "post_texgen");
        post.push_back(static_cast<std::uint32_t>(pg.matrix - 64) & 0x3F);
      }
      p.xf(0x1040, regs);
      p.xf(0x1050, post);
    }
    sub.offsets[0] = p.here();
    std::vector<std::uint32_t> colours, ambients;
    for (std::size_t k = 0; k < 2; ++k) {
      colours.push_back(rgba(e.material_colors[k] == kNone ? J3dColor8{} : enc.value(mat.material_colors, e.material_colors[k], "material_color")));
      ambients.push_back(rgba(e.ambient_colors[k] == kNone ? J3dColor8{} : enc.value(mat.ambient_colors, e.ambient_colors[k], "ambient_color")));
    }
    p.xf(0x100C, colours);
    p.xf(0x100A, ambients);
    sub.offsets[1] = p.here();
    std::vector<std::uint32_t> controls;
    for (std::size_t k : {0, 2, 1, 3}) {  // XF order: colour 0, colour 1, alpha 0, alpha 1
      controls.push_back(channel_register(e.color_channels[k] == kNone ? J3dColorChannel{} : enc.value(mat.color_channels, e.color_channels[k], "color_channel")));
    }
    p.xf(0x100E, controls);
    for (std::size_t k = 0; k < 8; ++k) {  // lights: position, attenuation, colour, direction
      if (e.lights[k] == kNone) continue;
      const J3dLight* l = enc.at(mat.lights, e.lights[k], "light");
      if (!l) continue;
      const auto base = static_cast<std::uint16_t>(0x600 + 0x10 * k);
      const auto bits = [](const std::array<float, 3>& v) {
        return std::vector<std::uint32_t>{std::bit_cast<std::uint32_t>(v[0]), std::bit_cast<std::uint32_t>(v[1]), std::bit_cast<std::uint32_t>(v[2])};
      };
      p.xf(static_cast<std::uint16_t>(base + 0xA), bits(l->position));
      std::vector<std::uint32_t> attenuation = bits(l->cos_attenuation);
      for (std::uint32_t v : bits(l->distance_attenuation)) attenuation.push_back(v);
      p.xf(static_cast<std::uint16_t>(base + 4), attenuation);
      p.xf(static_cast<std::uint16_t>(base + 3), {rgba(l->color)});
      p.xf(static_cast<std::uint16_t>(base + 0xD), bits(l->direction));
    }
    p.xf(0x1009, {channels});
    p.xf(0x103F, {texgens});
    if (enc.error) return *enc.error;
    if (texgens == 0) sub.offsets[2] = sub.offsets[0];

    out.packets.push_back(J3dMdlPacket{std::move(p.commands), std::nullopt, {}});
    out.subpackets.push_back(sub);
    out.matrix_info.push_back({texgen_matrix[0] << 6 | texgen_matrix[1] << 12 | texgen_matrix[2] << 18 | texgen_matrix[3] << 24,
                               texgen_matrix[4] | texgen_matrix[5] << 6 | texgen_matrix[6] << 12 | texgen_matrix[7] << 18});
    out.pe_modes.push_back(e.flag);
    out.indices.push_back(static_cast<std::uint16_t>(i));
  }
  return out;
}

Result<void> j3d_mdl3_follow_texture(J3dMdl3& mdl, const J3dMat3& mat, const J3dTex1& tex, std::size_t texture, const J3dTexture& before) {
  if (texture >= tex.textures.size()) return Error{ErrorCode::bad_value, std::nullopt, "TEX1", "texture " + std::to_string(texture) + " does not exist"};
  const auto held = [](const J3dTexture& t) {  // what MDL3's texture registers repeat
    return std::tie(t.format, t.width, t.height, t.wrap_s, t.wrap_t, t.palette_format, t.palette_count, t.mip_enable, t.edge_lod, t.bias_clamp,
                    t.max_aniso, t.min_filter, t.mag_filter, t.min_lod, t.max_lod, t.mip_count, t.lod_bias);
  };
  if (held(tex.textures[texture]) == held(before)) return {};
  auto fresh = j3d_mdl3_from_mat3(mat, tex);
  if (!fresh) return fresh.error();
  const auto follows = [](std::uint8_t a) {  // image 0, mode 0/1 of maps 0-7, texcoord scales 0-7
    return (a >= 0x80 && a <= 0x8B) || (a >= 0xA0 && a <= 0xAB) || (a >= 0x30 && a <= 0x3F);
  };
  for (std::size_t i = 0; i < mdl.packets.size() && i < fresh->packets.size() && i < mat.remap.size(); ++i) {
    const J3dMaterialEntry& e = mat.entries[mat.remap[i]];  // in range: j3d_mdl3_from_mat3 checked it
    const bool shows = std::any_of(e.textures.begin(), e.textures.end(),
                                   [&](std::uint16_t t) { return t != kNone && mat.textures[t] == texture; });
    std::vector<J3dGxCommand>& stored = mdl.packets[i].commands;
    const std::vector<J3dGxCommand>& made = fresh->packets[i].commands;
    if (!shows || mdl.packets[i].raw.stored()) continue;
    for (std::size_t k = 0; k < stored.size() && k < made.size(); ++k) {
      const J3dGxCommand& m = made[k];
      J3dGxCommand& c = stored[k];
      if (c.opcode == 0x61 && m.opcode == 0x61 && c.args.size() == 4 && m.args.size() == 4 && c.args[0] == m.args[0] && follows(c.args[0])) {
        c.args = m.args;
      }
    }
  }
  return {};
}

Result<void> j3d_mdl3_add_materials(J3dMdl3& mdl, const J3dMat3& mat, const J3dTex1& tex, std::size_t first) {
  if (mdl.packets.size() != first || mdl.subpackets.size() != first || first > mat.remap.size() || mat.names.names.size() != mat.remap.size()) {
    return Error{ErrorCode::inconsistent, std::nullopt, "MDL3.packets", "MDL3 holds " + std::to_string(mdl.packets.size()) + " packets where MAT3 had " + std::to_string(first) + " materials"};
  }
  // Wind Waker's converter masks the PE blend mode with 0x001FE7: its packets say which flavour this is.
  J3dMdlFlavour flavour = J3dMdlFlavour::galaxy;
  for (const J3dMdlPacket& p : mdl.packets) {
    for (const J3dGxCommand& c : p.commands) {
      if (c.opcode == 0x61 && c.args == Bytes{0xFE, 0x00, 0x1F, 0xE7}) flavour = J3dMdlFlavour::wind_waker;
    }
  }
  J3dMat3 added = mat;  // the new materials alone: a base material the generator cannot encode stays out of it
  const auto from = static_cast<std::ptrdiff_t>(first);
  added.remap.assign(mat.remap.begin() + from, mat.remap.end());
  added.names.names.assign(mat.names.names.begin() + from, mat.names.names.end());
  added.indirect.clear();
  if (mat.indirect.size() == mat.remap.size()) added.indirect.assign(mat.indirect.begin() + from, mat.indirect.end());
  auto made = j3d_mdl3_from_mat3(added, tex, flavour);
  if (!made) return made.error();
  for (std::size_t k = 0; k < made->packets.size(); ++k) {
    mdl.packets.push_back(std::move(made->packets[k]));
    mdl.subpackets.push_back(made->subpackets[k]);
    mdl.matrix_info.push_back(made->matrix_info[k]);
    mdl.pe_modes.push_back(made->pe_modes[k]);
    mdl.indices.push_back(static_cast<std::uint16_t>(first + k));
    mdl.names.names.push_back(made->names.names[k]);
  }
  // Stored gaps fitted the old table sizes.
  mdl.gap_after_packet_table = mdl.gap_after_pe_modes = mdl.gap_after_indices = mdl.gap_after_names = {};
  return {};
}

}  // namespace remodel
