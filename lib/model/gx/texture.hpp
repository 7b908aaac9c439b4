// GameCube/Wii GX texture formats: tiles, palettes, decode to RGBA and encode back.
#pragma once

#include <cstdint>
#include <vector>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/image.hpp"

namespace remodel {

enum GxFormat : std::uint8_t {
  gx_i4 = 0, gx_i8 = 1, gx_ia4 = 2, gx_ia8 = 3, gx_rgb565 = 4, gx_rgb5a3 = 5, gx_rgba8 = 6,
  gx_c4 = 8, gx_c8 = 9, gx_c14x2 = 10, gx_cmpr = 14,
};
enum GxPaletteFormat : std::uint8_t { gx_palette_ia8 = 0, gx_palette_rgb565 = 1, gx_palette_rgb5a3 = 2 };

struct GxTile {
  std::uint8_t width = 0, height = 0, bytes = 0;  // width 0: not a GX format
};
GxTile gx_tile(std::uint8_t format);
inline unsigned gx_texel_bits(GxTile t) { return t.bytes * 8u / (t.width * t.height); }
// Visits a level's tiles in stored order: fn(byte offset of the tile, x and y of its first texel).
template <typename Fn>
void gx_for_each_tile(GxTile t, std::uint32_t width, std::uint32_t height, Fn fn) {
  std::size_t offset = 0;
  for (std::uint32_t ty = 0; ty < height; ty += t.height) {
    for (std::uint32_t tx = 0; tx < width; tx += t.width, offset += t.bytes) fn(offset, tx, ty);
  }
}
const char* gx_format_name(std::uint8_t format);
const char* gx_palette_format_name(std::uint8_t palette_format);
bool gx_is_indexed(std::uint8_t format);
std::size_t gx_palette_capacity(std::uint8_t format);  // 16, 256 or 16384 entries; 0 when not indexed
// Bytes of a GX image: every mip level in whole tiles (0 for an unknown format); the offset of
// level n is the size of levels 0..n-1.
std::size_t gx_image_size(std::uint8_t format, std::uint16_t width, std::uint16_t height, std::uint8_t levels);
inline std::size_t gx_level_offset(std::uint8_t format, std::uint16_t width, std::uint16_t height, unsigned level) {
  return level == 0 ? 0 : gx_image_size(format, width, height, static_cast<std::uint8_t>(level));
}
// Pixels of a mip level: each level halves, never below 1.
inline std::uint16_t gx_level_extent(std::uint16_t extent, unsigned level) {
  return static_cast<std::uint16_t>(level >= 16 || extent >> level == 0 ? 1 : extent >> level);
}

// Palettes: two big-endian bytes per entry.
Result<std::vector<Rgba>> decode_gx_palette(ByteSpan data, std::uint8_t palette_format, std::size_t count);
Bytes encode_gx_palette(const std::vector<Rgba>& colours, std::uint8_t palette_format);
Rgba gx_palette_representable(Rgba colour, std::uint8_t palette_format);

// One level. Indexed formats look their texels up in `palette`; an index past it is an error.
Result<RgbaImage> decode_gx_image(std::uint8_t format, std::uint16_t width, std::uint16_t height, ByteSpan data,
                                  const std::vector<Rgba>& palette = {});
// Indexed formats: the texel indices, row-major.
Result<std::vector<std::uint16_t>> decode_gx_indices(std::uint8_t format, std::uint16_t width, std::uint16_t height, ByteSpan data);

// One level of a direct format (CMPR through libsquish). A tile of `reference` (the same format
// and size) that decodes to the image's pixels keeps its bytes, padding texels included.
Bytes encode_gx_image(std::uint8_t format, const RgbaImage& image, ByteSpan reference = {});
// One level of an indexed format; a tile of `reference` holding the same indices keeps its bytes.
Bytes encode_gx_indices(std::uint8_t format, std::uint16_t width, std::uint16_t height, const std::vector<std::uint16_t>& indices,
                        ByteSpan reference = {});

}  // namespace remodel
