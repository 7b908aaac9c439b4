// J3D MAT3: material entries (indices into value pools) and the pools as typed records.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "model/bytes.hpp"

namespace remodel {

using J3dColor8 = std::array<std::uint8_t, 4>;  // RGBA

struct J3dColorChannel {  // 8 bytes
  std::uint8_t enable = 0, material_source = 0, light_mask = 0, diffuse_function = 0, attenuation_function = 0,
               ambient_source = 0;
  std::array<std::uint8_t, 2> unknown_0x06{0xFF, 0xFF};
  bool operator==(const J3dColorChannel&) const = default;
};

struct J3dLight {  // 0x34 bytes
  std::array<float, 3> position{}, direction{};
  J3dColor8 color{};
  std::array<float, 3> cos_attenuation{}, distance_attenuation{};
  bool operator==(const J3dLight&) const = default;
};

struct J3dTexGen {  // 4 bytes
  std::uint8_t type = 0, source = 0, matrix = 0, unknown_0x03 = 0xFF;
  bool operator==(const J3dTexGen&) const = default;
};

struct J3dTexMatrix {  // 0x64 bytes
  std::uint8_t projection = 0, info = 0;
  std::uint16_t unknown_0x02 = 0xFFFF;
  std::array<float, 3> center{};
  std::array<float, 2> scale{};
  std::int16_t rotation = 0;
  std::uint16_t unknown_0x1a = 0xFFFF;
  std::array<float, 2> translation{};
  std::array<float, 16> effect_matrix{};
  bool operator==(const J3dTexMatrix&) const = default;
};

struct J3dTevOrder {  // 4 bytes
  std::uint8_t texcoord = 0, texmap = 0, channel = 0, unknown_0x03 = 0xFF;
  bool operator==(const J3dTevOrder&) const = default;
};

using J3dTevColor = std::array<std::int16_t, 4>;

struct J3dTevStage {  // 20 bytes
  std::uint8_t unknown_0x00 = 0xFF;
  std::array<std::uint8_t, 4> color_in{};
  std::uint8_t color_op = 0, color_bias = 0, color_scale = 0, color_clamp = 0, color_register = 0;
  std::array<std::uint8_t, 4> alpha_in{};
  std::uint8_t alpha_op = 0, alpha_bias = 0, alpha_scale = 0, alpha_clamp = 0, alpha_register = 0;
  std::uint8_t unknown_0x13 = 0xFF;
  bool operator==(const J3dTevStage&) const = default;
};

struct J3dSwapMode {  // 4 bytes
  std::uint8_t raster = 0, texture = 0;
  std::array<std::uint8_t, 2> unknown_0x02{0xFF, 0xFF};
  bool operator==(const J3dSwapMode&) const = default;
};

using J3dSwapTable = std::array<std::uint8_t, 4>;  // R, G, B, A sources

struct J3dFog {  // 0x2C bytes
  std::uint8_t type = 0, enable = 0;
  std::uint16_t center = 0;
  float start_z = 0, end_z = 0, near_z = 0, far_z = 0;
  J3dColor8 color{};
  std::array<std::uint16_t, 10> range_adjustment{};
  bool operator==(const J3dFog&) const = default;
};

struct J3dAlphaCompare {  // 8 bytes
  std::uint8_t compare0 = 0, reference0 = 0, operation = 0, compare1 = 0, reference1 = 0;
  std::array<std::uint8_t, 3> unknown_0x05{0xFF, 0xFF, 0xFF};
  bool operator==(const J3dAlphaCompare&) const = default;
};

struct J3dBlend {  // 4 bytes
  std::uint8_t type = 0, source = 0, destination = 0, operation = 0;
  bool operator==(const J3dBlend&) const = default;
};

struct J3dZMode {  // 4 bytes
  std::uint8_t enable = 0, function = 0, update = 0, unknown_0x03 = 0xFF;
  bool operator==(const J3dZMode&) const = default;
};

struct J3dNbtScale {  // 0x10 bytes
  std::uint8_t enable = 0;
  std::array<std::uint8_t, 3> unknown_0x01{0xFF, 0xFF, 0xFF};
  std::array<float, 3> scale{};
  bool operator==(const J3dNbtScale&) const = default;
};

// Indirect texturing, one 0x138-byte record per material (not per entry). The defaults are the record
// every real file in the J3D samples stores for a material that does not use it.
struct J3dIndirectMatrix {
  std::array<float, 6> matrix{0.5f, 0.0f, 0.0f, 0.0f, 0.5f, 0.0f};  // 2x3
  std::int8_t exponent = 1;
  std::array<std::uint8_t, 3> unknown_0x19{0xFF, 0xFF, 0xFF};
};

// N copies of one record: an unused indirect record repeats one value in each of its tables.
template <std::size_t N, class T>
constexpr std::array<T, N> repeated(const T& v) {
  std::array<T, N> a{};
  a.fill(v);
  return a;
}

struct J3dIndirectEntry {
  std::uint8_t enable = 0, stage_count = 0;
  std::array<std::uint8_t, 2> unknown_0x02{0xFF, 0xFF};
  // texcoord, texmap, 2 pad
  std::array<std::array<std::uint8_t, 4>, 4> orders = repeated<4>(std::array<std::uint8_t, 4>{0xFF, 0xFF, 0xFF, 0xFF});
  std::array<J3dIndirectMatrix, 3> matrices{};
  // s, t, 2 pad
  std::array<std::array<std::uint8_t, 4>, 4> scales = repeated<4>(std::array<std::uint8_t, 4>{0, 0, 0xFF, 0xFF});
  std::array<std::array<std::uint8_t, 12>, 16> stages =
      repeated<16>(std::array<std::uint8_t, 12>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF});
};

// A material entry (0x14C bytes): indices into the pools; 0xFF / 0xFFFF = unused.
struct J3dMaterialEntry {
  std::uint8_t flag = 1;
  std::uint8_t cull = 0, channel_count = 0, texgen_count = 0, tev_stage_count = 0, zcompare_location = 0, zmode = 0,
               dither = 0;
  std::array<std::uint16_t, 2> material_colors{};
  std::array<std::uint16_t, 4> color_channels{};
  std::array<std::uint16_t, 2> ambient_colors{};
  std::array<std::uint16_t, 8> lights{};
  std::array<std::uint16_t, 8> texgens{};
  std::array<std::uint16_t, 8> post_texgens{};
  std::array<std::uint16_t, 10> tex_matrices{};
  std::array<std::uint16_t, 20> post_tex_matrices{};
  std::array<std::uint16_t, 8> textures{};
  std::array<std::uint16_t, 4> tev_kcolors{};
  std::array<std::uint8_t, 16> kcolor_selections{};
  std::array<std::uint8_t, 16> kalpha_selections{};
  std::array<std::uint16_t, 16> tev_orders{};
  std::array<std::uint16_t, 4> tev_colors{};
  std::array<std::uint16_t, 16> tev_stages{};
  std::array<std::uint16_t, 16> swap_modes{};
  std::array<std::uint16_t, 4> swap_tables{};
  // Uninitialised memory in some files (24 bytes): a byte is kept (verbatim) where it is not the 0xFF fill.
  std::array<std::optional<std::uint8_t>, 24> unknown_0x12c{};
  std::uint16_t fog = 0, alpha_compare = 0, blend = 0, nbt_scale = 0;
  bool operator==(const J3dMaterialEntry&) const = default;
};

// The 30 tables in header order (the offset at 0x0C + 4 * id).
enum class J3dMatTable : std::uint8_t {
  entries, remap, names, indirect, cull, material_color, channel_count, color_channel, ambient_color, light,
  texgen_count, texgen, post_texgen, tex_matrix, post_tex_matrix, texture, tev_order, tev_color, tev_kcolor,
  tev_stage_count, tev_stage, swap_mode, swap_table, fog, alpha_compare, blend, zmode, zcompare_location, dither,
  nbt_scale,
};
inline constexpr std::size_t kJ3dMatTables = 30;

}  // namespace remodel
