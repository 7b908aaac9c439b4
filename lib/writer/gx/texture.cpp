// Encodes GX textures and palettes; CMPR blocks come from libsquish's DXT1 compressor.
#include <squish.h>

#include <algorithm>
#include <cstring>

#include "model/gx/colour.hpp"
#include "model/gx/texture.hpp"

namespace remodel {

namespace {

void put16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v);
}

using gx::encode_ia8;
using gx::encode_rgb565;
using gx::encode_rgb5a3;
using gx::luma;

std::uint16_t raw_texel(std::uint8_t format, const std::uint8_t* p) {
  switch (format) {
    case gx_i4: return luma(p) >> 4;
    case gx_i8: return luma(p);
    case gx_ia4: return static_cast<std::uint16_t>((p[3] >> 4) << 4 | luma(p) >> 4);
    case gx_ia8: return encode_ia8(p);
    case gx_rgb565: return encode_rgb565(p);
    default: return encode_rgb5a3(p);
  }
}

void put_texel(std::uint8_t* tile, unsigned bits, unsigned n, std::uint16_t v) {
  if (bits == 4) {
    const unsigned shift = n % 2 == 0 ? 4 : 0;
    tile[n / 2] = static_cast<std::uint8_t>((tile[n / 2] & ~(0xF << shift)) | (v & 0xF) << shift);
  } else if (bits == 8) {
    tile[n] = static_cast<std::uint8_t>(v);
  } else {
    put16(tile + n * 2, v);
  }
}

// squish writes DXT1 (little-endian colours, first texel in the low bits); CMPR is big-endian with
// the first texel in the high bits.
void dxt1_to_cmpr(std::uint8_t* b) {
  std::swap(b[0], b[1]);
  std::swap(b[2], b[3]);
  for (int i = 4; i < 8; ++i) {
    const unsigned v = b[i];
    b[i] = static_cast<std::uint8_t>((v & 3) << 6 | (v >> 2 & 3) << 4 | (v >> 4 & 3) << 2 | (v >> 6 & 3));
  }
}

void encode_cmpr_tile(const RgbaImage& image, std::uint32_t tx, std::uint32_t ty, std::uint8_t* tile) {
  for (unsigned s = 0; s < 4; ++s) {
    std::uint8_t rgba[64] = {};
    int mask = 0;
    const std::uint32_t x0 = tx + (s % 2) * 4, y0 = ty + (s / 2) * 4;
    for (unsigned n = 0; n < 16; ++n) {
      const std::uint32_t x = x0 + n % 4, y = y0 + n / 4;
      if (x >= image.width || y >= image.height) continue;
      std::memcpy(rgba + n * 4, image.at(x, y), 4);
      mask |= 1 << n;
    }
    std::uint8_t* block = tile + s * 8;
    if (mask == 0) {
      std::memset(block, 0, 8);
      continue;
    }
    squish::CompressMasked(rgba, mask, block, squish::kDxt1 | squish::kColourClusterFit);
    dxt1_to_cmpr(block);
  }
}

bool same_tile(const RgbaImage& a, const RgbaImage& b, GxTile t, std::uint32_t tx, std::uint32_t ty) {
  for (std::uint32_t y = ty; y < std::min<std::uint32_t>(ty + t.height, a.height); ++y) {
    const std::uint32_t x_end = std::min<std::uint32_t>(tx + t.width, a.width);
    if (std::memcmp(a.at(tx, y), b.at(tx, y), (x_end - tx) * 4) != 0) return false;
  }
  return true;
}

}  // namespace

Rgba gx_palette_representable(Rgba c, std::uint8_t palette_format) {
  auto v = std::vector<Rgba>{c};
  const Bytes stored = encode_gx_palette(v, palette_format);
  return decode_gx_palette(stored, palette_format, 1).value()[0];
}

Bytes encode_gx_palette(const std::vector<Rgba>& colours, std::uint8_t palette_format) {
  Bytes out(colours.size() * 2);
  for (std::size_t i = 0; i < colours.size(); ++i) {
    const std::uint8_t* p = colours[i].data();
    put16(&out[i * 2], palette_format == gx_palette_ia8 ? encode_ia8(p) : palette_format == gx_palette_rgb565 ? encode_rgb565(p) : encode_rgb5a3(p));
  }
  return out;
}

Bytes encode_gx_image(std::uint8_t format, const RgbaImage& image, ByteSpan reference) {
  const GxTile t = gx_tile(format);
  if (t.width == 0 || gx_is_indexed(format)) return {};
  const auto width = static_cast<std::uint16_t>(image.width), height = static_cast<std::uint16_t>(image.height);
  Bytes out(gx_image_size(format, width, height, 1), 0);
  RgbaImage before;
  if (reference.size() >= out.size()) {
    auto decoded = decode_gx_image(format, width, height, reference);
    if (decoded) before = std::move(decoded.value());
  }
  const unsigned bits = gx_texel_bits(t);
  gx_for_each_tile(t, width, height, [&](std::size_t offset, std::uint32_t tx, std::uint32_t ty) {
    std::uint8_t* tile = out.data() + offset;
    if (!before.rgba.empty() && same_tile(image, before, t, tx, ty)) {
      std::memcpy(tile, reference.data() + offset, t.bytes);
    } else if (format == gx_cmpr) {
      encode_cmpr_tile(image, tx, ty, tile);
    } else {
      for (unsigned n = 0; n < unsigned{t.width} * t.height; ++n) {
        const std::uint32_t x = tx + n % t.width, y = ty + n / t.width;
        if (x >= width || y >= height) continue;
        const std::uint8_t* p = image.at(x, y);
        if (format == gx_rgba8) {
          tile[n * 2] = p[3], tile[n * 2 + 1] = p[0], tile[32 + n * 2] = p[1], tile[32 + n * 2 + 1] = p[2];
        } else {
          put_texel(tile, bits, n, raw_texel(format, p));
        }
      }
    }
  });
  return out;
}

Bytes encode_gx_indices(std::uint8_t format, std::uint16_t width, std::uint16_t height, const std::vector<std::uint16_t>& indices,
                        ByteSpan reference) {
  const GxTile t = gx_tile(format);
  if (!gx_is_indexed(format) || indices.size() != std::size_t{width} * height) return {};
  Bytes out(gx_image_size(format, width, height, 1), 0);
  std::vector<std::uint16_t> before;
  if (reference.size() >= out.size()) {
    auto decoded = decode_gx_indices(format, width, height, reference);
    if (decoded) before = std::move(decoded.value());
  }
  const unsigned bits = gx_texel_bits(t);
  gx_for_each_tile(t, width, height, [&](std::size_t offset, std::uint32_t tx, std::uint32_t ty) {
    std::uint8_t* tile = out.data() + offset;
    bool same = !before.empty();
    for (unsigned n = 0; n < unsigned{t.width} * t.height; ++n) {
      const std::uint32_t x = tx + n % t.width, y = ty + n / t.width;
      if (x >= width || y >= height) continue;
      const std::uint16_t index = indices[std::size_t{y} * width + x];
      if (same && before[std::size_t{y} * width + x] != index) same = false;
      put_texel(tile, bits, n, index);
    }
    if (same) std::memcpy(tile, reference.data() + offset, t.bytes);
  });
  return out;
}

}  // namespace remodel
