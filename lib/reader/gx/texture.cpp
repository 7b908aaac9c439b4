// Decodes GX textures: tiles of texels (big-endian), palettes, and CMPR's 2x2 DXT1 sub-blocks.
#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <string>

#include "model/gx/colour.hpp"
#include "model/gx/texture.hpp"

namespace remodel {

namespace {

std::uint16_t be16(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[0] << 8 | p[1]); }

using gx::decode_ia8;
using gx::decode_rgb565;
using gx::decode_rgb5a3;

Error short_data(std::size_t have, std::size_t need, const char* what) {
  return Error{ErrorCode::truncated, have, "data",
               std::string(what) + " needs " + std::to_string(need) + " bytes but " + std::to_string(have) + " are stored"};
}

// The texel at position n (row-major) of a tile of 4, 8 or 16 bits per texel.
std::uint16_t texel(const std::uint8_t* tile, unsigned bits, unsigned n) {
  if (bits == 4) return (tile[n / 2] >> (n % 2 == 0 ? 4 : 0)) & 0xF;
  if (bits == 8) return tile[n];
  return be16(tile + n * 2);
}

void decode_cmpr_subblock(const std::uint8_t* b, RgbaImage& image, std::uint32_t x0, std::uint32_t y0) {
  const std::uint16_t c0 = be16(b), c1 = be16(b + 2);
  Rgba colours[4] = {decode_rgb565(c0), decode_rgb565(c1), {}, {}};
  for (int c = 0; c < 3; ++c) {
    const unsigned a = colours[0][c], z = colours[1][c];
    if (c0 > c1) {
      // The GX blends with 5/8 and 3/8, not DXT1's 2/3 and 1/3.
      colours[2][c] = static_cast<std::uint8_t>((a * 5 + z * 3) >> 3);
      colours[3][c] = static_cast<std::uint8_t>((a * 3 + z * 5) >> 3);
    } else {
      colours[2][c] = static_cast<std::uint8_t>((a + z) / 2);
      colours[3][c] = colours[2][c];
    }
  }
  colours[2][3] = 255;
  colours[3][3] = c0 > c1 ? 255 : 0;
  for (unsigned y = 0; y < 4; ++y) {
    for (unsigned x = 0; x < 4; ++x) {
      if (x0 + x >= image.width || y0 + y >= image.height) continue;
      const Rgba& c = colours[(b[4 + y] >> (6 - 2 * x)) & 3];
      std::uint8_t* p = image.at(x0 + x, y0 + y);
      p[0] = c[0], p[1] = c[1], p[2] = c[2], p[3] = c[3];
    }
  }
}

// The colours of every texel value of a direct 4, 8 or 16-bit format.
const std::vector<Rgba>& direct_table(std::uint8_t format) {
  static const std::array<std::vector<Rgba>, 6> tables = [] {
    std::array<std::vector<Rgba>, 6> out;
    for (unsigned v = 0; v < 16; ++v) out[gx_i4].push_back({expand4(v), expand4(v), expand4(v), expand4(v)});
    for (unsigned v = 0; v < 256; ++v) {
      const auto b = static_cast<std::uint8_t>(v);
      out[gx_i8].push_back({b, b, b, b});
      out[gx_ia4].push_back({expand4(v & 0xF), expand4(v & 0xF), expand4(v & 0xF), expand4(v >> 4)});
    }
    for (unsigned v = 0; v < 65536; ++v) {
      const auto w = static_cast<std::uint16_t>(v);
      out[gx_ia8].push_back(decode_ia8(w));
      out[gx_rgb565].push_back(decode_rgb565(w));
      out[gx_rgb5a3].push_back(decode_rgb5a3(w));
    }
    return out;
  }();
  return tables[format];
}

}  // namespace

Result<std::vector<Rgba>> decode_gx_palette(ByteSpan data, std::uint8_t palette_format, std::size_t count) {
  if (palette_format > gx_palette_rgb5a3) {
    return Error{ErrorCode::bad_value, std::nullopt, "palette_format", "palette format " + std::to_string(palette_format) + " is not IA8, RGB565 or RGB5A3"};
  }
  if (data.size() / 2 < count) return short_data(data.size(), count * 2, "the palette");
  std::vector<Rgba> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint16_t v = be16(&data[i * 2]);
    out[i] = palette_format == gx_palette_ia8 ? decode_ia8(v) : palette_format == gx_palette_rgb565 ? decode_rgb565(v) : decode_rgb5a3(v);
  }
  return out;
}

Result<std::vector<std::uint16_t>> decode_gx_indices(std::uint8_t format, std::uint16_t width, std::uint16_t height, ByteSpan data) {
  if (!gx_is_indexed(format)) return Error{ErrorCode::bad_value, std::nullopt, "format", std::string(gx_format_name(format)) + " is not an indexed format"};
  const std::size_t need = gx_image_size(format, width, height, 1);
  if (data.size() < need) return short_data(data.size(), need, "the image");
  const GxTile t = gx_tile(format);
  const unsigned bits = gx_texel_bits(t);
  std::vector<std::uint16_t> out(std::size_t{width} * height);
  gx_for_each_tile(t, width, height, [&](std::size_t offset, std::uint32_t tx, std::uint32_t ty) {
    const std::uint8_t* tile = data.data() + offset;
    for (unsigned n = 0; n < unsigned{t.width} * t.height; ++n) {
      const std::uint32_t x = tx + n % t.width, y = ty + n / t.width;
      if (x < width && y < height) out[std::size_t{y} * width + x] = texel(tile, bits, n) & 0x3FFF;
    }
  });
  return out;
}

Result<RgbaImage> decode_gx_image(std::uint8_t format, std::uint16_t width, std::uint16_t height, ByteSpan data,
                                  const std::vector<Rgba>& palette) {
  const GxTile t = gx_tile(format);
  if (t.width == 0) return Error{ErrorCode::bad_value, std::nullopt, "format", "GX texture format " + std::to_string(format) + " does not exist"};
  if (width == 0 || height == 0) return Error{ErrorCode::bad_value, std::nullopt, "width", "a texture of 0 texels cannot be decoded"};
  const std::size_t need = gx_image_size(format, width, height, 1);
  if (data.size() < need) return short_data(data.size(), need, "the image");
  RgbaImage image(width, height);
  if (format == gx_cmpr) {
    gx_for_each_tile(t, width, height, [&](std::size_t offset, std::uint32_t tx, std::uint32_t ty) {
      for (unsigned s = 0; s < 4; ++s) decode_cmpr_subblock(data.data() + offset + s * 8, image, tx + (s % 2) * 4, ty + (s / 2) * 4);
    });
    return image;
  }
  if (format == gx_rgba8) {
    gx_for_each_tile(t, width, height, [&](std::size_t offset, std::uint32_t tx, std::uint32_t ty) {
      const std::uint8_t* tile = data.data() + offset;
      for (unsigned n = 0; n < 16; ++n) {
        const std::uint32_t x = tx + n % 4, y = ty + n / 4;
        if (x >= width || y >= height) continue;
        std::uint8_t* p = image.at(x, y);  // 16 AR pairs, then 16 GB pairs
        p[0] = tile[n * 2 + 1], p[1] = tile[32 + n * 2], p[2] = tile[32 + n * 2 + 1], p[3] = tile[n * 2];
      }
    });
    return image;
  }
  // Every other format maps a 4, 8 or 16-bit texel through a table: the palette, or the format's
  // own colours (built once).
  const std::vector<Rgba>& table = gx_is_indexed(format) ? palette : direct_table(format);
  const std::uint16_t mask = format == gx_c14x2 ? 0x3FFF : 0xFFFF;
  const unsigned bits = gx_texel_bits(t);
  std::optional<std::pair<std::size_t, std::uint16_t>> bad;  // texel, index
  gx_for_each_tile(t, width, height, [&](std::size_t offset, std::uint32_t tx, std::uint32_t ty) {
    const std::uint8_t* tile = data.data() + offset;
    const unsigned rows = std::min<unsigned>(t.height, height - ty), columns = std::min<unsigned>(t.width, width - tx);
    for (unsigned row = 0; row < rows; ++row) {
      std::uint8_t* out = image.at(tx, ty + row);
      for (unsigned column = 0; column < columns; ++column, out += 4) {
        const std::uint16_t v = texel(tile, bits, row * t.width + column) & mask;
        if (v >= table.size()) {
          const std::size_t at = std::size_t{ty + row} * width + tx + column;
          if (!bad || at < bad->first) bad = {at, v};
          continue;
        }
        std::memcpy(out, table[v].data(), 4);
      }
    }
  });
  if (bad) {
    return Error{ErrorCode::bad_value, std::nullopt, "palette",
                 "texel " + std::to_string(bad->first) + " uses palette entry " + std::to_string(bad->second) + " but the palette has " +
                     std::to_string(table.size())};
  }
  return image;
}

}  // namespace remodel
