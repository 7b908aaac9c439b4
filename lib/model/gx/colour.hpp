// GameCube/Wii GX colour formats (big-endian): one decoder and encoder each for texels, palettes,
// CMPR endpoints and vertex colours. Channels widen by bit replication, as the GX does.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/image.hpp"

namespace remodel::gx {

inline Rgba decode_rgb565(std::uint16_t v) { return {expand5(v >> 11), expand6((v >> 5) & 0x3F), expand5(v & 0x1F), 255}; }

// Top bit set: opaque RGB555; clear: A3 RGB444.
inline Rgba decode_rgb5a3(std::uint16_t v) {
  if (v & 0x8000) return {expand5((v >> 10) & 0x1F), expand5((v >> 5) & 0x1F), expand5(v & 0x1F), 255};
  return {expand4((v >> 8) & 0xF), expand4((v >> 4) & 0xF), expand4(v & 0xF), expand3((v >> 12) & 0x7)};
}

inline Rgba decode_ia8(std::uint16_t v) {  // first byte alpha, second intensity
  const auto i = static_cast<std::uint8_t>(v & 0xFF);
  return {i, i, i, static_cast<std::uint8_t>(v >> 8)};
}

// Rec. 601 weights summing to 1000, so a grey pixel gives its own value back.
inline std::uint8_t luma(const std::uint8_t* rgba) {
  return static_cast<std::uint8_t>((rgba[0] * 299 + rgba[1] * 587 + rgba[2] * 114 + 500) / 1000);
}

inline std::uint16_t encode_rgb565(const std::uint8_t* p) { return static_cast<std::uint16_t>((p[0] >> 3) << 11 | (p[1] >> 2) << 5 | p[2] >> 3); }

// An opaque texel whose channels are 4-bit values RGB555 cannot hold (0x11 x n but not 0 or 255)
// takes A3 RGB444 with alpha 7, which also decodes opaque, as Nintendo's files store such texels:
// so every texel an RGB5A3 texture decodes to encodes back to itself.
inline std::uint16_t encode_rgb5a3(const std::uint8_t* p) {
  const auto exact5 = [](std::uint8_t c) { return expand5(c >> 3) == c; };
  const auto exact4 = [](std::uint8_t c) { return expand4(c >> 4) == c; };
  const bool as_555 = exact5(p[0]) && exact5(p[1]) && exact5(p[2]);
  const bool as_444 = exact4(p[0]) && exact4(p[1]) && exact4(p[2]);
  if (p[3] == 255 && (as_555 || !as_444)) return static_cast<std::uint16_t>(0x8000 | (p[0] >> 3) << 10 | (p[1] >> 3) << 5 | p[2] >> 3);
  return static_cast<std::uint16_t>((p[3] >> 5) << 12 | (p[0] >> 4) << 8 | (p[1] >> 4) << 4 | p[2] >> 4);
}

inline std::uint16_t encode_ia8(const std::uint8_t* p) { return static_cast<std::uint16_t>(p[3] << 8 | luma(p)); }

// Vertex colour component types (VTX1 / GX_VA_CLR0-1): 0 RGB565, 1 RGB8, 2 RGBX8, 3 RGBA4,
// 4 RGBA6, 5 RGBA8.
inline std::size_t vertex_colour_size(std::uint8_t type) {
  static constexpr std::uint8_t sizes[6] = {2, 3, 4, 2, 3, 4};
  return type < 6 ? sizes[type] : 0;
}

// The vertex colour at p (vertex_colour_size(type) bytes); type must be 0-5.
inline Rgba decode_vertex_colour(std::uint8_t type, const std::uint8_t* p) {
  switch (type) {
    case 0: return decode_rgb565(static_cast<std::uint16_t>(p[0] << 8 | p[1]));
    case 1:
    case 2: return {p[0], p[1], p[2], 255};
    case 3: {
      const unsigned v = static_cast<unsigned>(p[0] << 8 | p[1]);
      return {expand4(v >> 12), expand4((v >> 8) & 0xF), expand4((v >> 4) & 0xF), expand4(v & 0xF)};
    }
    case 4: {
      const unsigned v = static_cast<unsigned>(p[0] << 16 | p[1] << 8 | p[2]);
      return {expand6(v >> 18), expand6((v >> 12) & 0x3F), expand6((v >> 6) & 0x3F), expand6(v & 0x3F)};
    }
    default: return {p[0], p[1], p[2], p[3]};
  }
}

// The inverse of decode_vertex_colour: `rgba` stored as `type` (0-5) at p; channels narrow by
// dropping low bits, and RGBX8's pad byte is written 0xFF.
inline void encode_vertex_colour(std::uint8_t type, const Rgba& rgba, std::uint8_t* p) {
  const auto r = rgba[0], g = rgba[1], b = rgba[2], a = rgba[3];
  switch (type) {
    case 0: {
      const std::uint16_t v = encode_rgb565(rgba.data());
      p[0] = static_cast<std::uint8_t>(v >> 8);
      p[1] = static_cast<std::uint8_t>(v);
      break;
    }
    case 1: p[0] = r; p[1] = g; p[2] = b; break;
    case 2: p[0] = r; p[1] = g; p[2] = b; p[3] = 0xFF; break;
    case 3: p[0] = static_cast<std::uint8_t>((r & 0xF0) | g >> 4); p[1] = static_cast<std::uint8_t>((b & 0xF0) | a >> 4); break;
    case 4: {
      const unsigned v = (unsigned{r} >> 2) << 18 | (unsigned{g} >> 2) << 12 | (unsigned{b} >> 2) << 6 | unsigned{a} >> 2;
      p[0] = static_cast<std::uint8_t>(v >> 16);
      p[1] = static_cast<std::uint8_t>(v >> 8);
      p[2] = static_cast<std::uint8_t>(v);
      break;
    }
    default: p[0] = r; p[1] = g; p[2] = b; p[3] = a;
  }
}

}  // namespace remodel::gx
