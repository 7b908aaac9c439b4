// GX format tables shared by the texture reader, the writer and TEX1.
#include "model/gx/texture.hpp"

#include <algorithm>

namespace remodel {

GxTile gx_tile(std::uint8_t format) {
  static const GxTile tiles[15] = {{8, 8, 32}, {8, 4, 32}, {8, 4, 32}, {4, 4, 32}, {4, 4, 32}, {4, 4, 32}, {4, 4, 64}, {0, 0, 0},
                                   {8, 8, 32}, {8, 4, 32}, {4, 4, 32}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {8, 8, 32}};
  return format < 15 ? tiles[format] : GxTile{};
}

const char* gx_format_name(std::uint8_t format) {
  static const char* const names[15] = {"I4", "I8", "IA4", "IA8", "RGB565", "RGB5A3", "RGBA8", nullptr,
                                        "C4", "C8", "C14X2", nullptr, nullptr, nullptr, "CMPR"};
  return format < 15 && names[format] != nullptr ? names[format] : "unknown";
}

const char* gx_palette_format_name(std::uint8_t palette_format) {
  static const char* const names[3] = {"IA8", "RGB565", "RGB5A3"};
  return palette_format < 3 ? names[palette_format] : "unknown";
}

bool gx_is_indexed(std::uint8_t format) { return format == gx_c4 || format == gx_c8 || format == gx_c14x2; }

std::size_t gx_palette_capacity(std::uint8_t format) {
  return format == gx_c4 ? 16 : format == gx_c8 ? 256 : format == gx_c14x2 ? 16384 : 0;
}

std::size_t gx_image_size(std::uint8_t format, std::uint16_t width, std::uint16_t height, std::uint8_t levels) {
  const GxTile t = gx_tile(format);
  if (t.width == 0) return 0;
  std::size_t total = 0;
  for (unsigned level = 0; level < std::max<unsigned>(levels, 1); ++level) {
    const std::size_t w = gx_level_extent(width, level), h = gx_level_extent(height, level);
    total += (w + t.width - 1) / t.width * ((h + t.height - 1) / t.height) * t.bytes;
  }
  return total;
}

}  // namespace remodel
