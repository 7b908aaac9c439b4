// PSP GE colour formats (little-endian): one decoder and one encoder for vertex colours, TIM2 and
// TMH pixels and palettes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/image.hpp"

namespace remodel {

// GE's modes 0-3, plus TIM2's 24-bit RGB.
enum class PspColour : std::uint8_t { c5650 = 0, c5551 = 1, c4444 = 2, c8888 = 3, c888 = 4 };

namespace psp {

inline std::size_t colour_size(PspColour c) { return c == PspColour::c8888 ? 4 : c == PspColour::c888 ? 3 : 2; }

// The stored value (red in the low bits) to 8-bit RGBA. The GE widens a channel by bit replication
// (5-bit c to c<<3 | c>>2, 6-bit c to c<<2 | c>>4, 4-bit c to c*17), so narrowing gives c back.
inline Rgba decode_colour(PspColour c, std::uint32_t v) {
  switch (c) {
    case PspColour::c5650: return {expand5(v & 0x1F), expand6(v >> 5 & 0x3F), expand5(v >> 11 & 0x1F), 255};
    case PspColour::c5551:
      return {expand5(v & 0x1F), expand5(v >> 5 & 0x1F), expand5(v >> 10 & 0x1F), static_cast<std::uint8_t>(v & 0x8000 ? 255 : 0)};
    case PspColour::c4444: return {expand4(v & 0xF), expand4(v >> 4 & 0xF), expand4(v >> 8 & 0xF), expand4(v >> 12 & 0xF)};
    case PspColour::c8888:
      return {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v >> 16),
              static_cast<std::uint8_t>(v >> 24)};
    case PspColour::c888: break;
  }
  return {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v >> 16), 255};
}

// The colour at p (colour_size(c) bytes, little-endian).
inline Rgba decode_colour(PspColour c, const std::uint8_t* p) {
  std::uint32_t v = 0;
  for (std::size_t i = colour_size(c); i-- > 0;) v = v << 8 | p[i];
  return decode_colour(c, v);
}

// 8-bit RGBA to the stored value: each channel keeps its top bits; 5551 alpha is set from 128.
inline std::uint32_t encode_colour(PspColour c, const std::uint8_t* rgba) {
  switch (c) {
    case PspColour::c5650: return rgba[0] >> 3 | (rgba[1] >> 2) << 5 | (rgba[2] >> 3) << 11;
    case PspColour::c5551: return rgba[0] >> 3 | (rgba[1] >> 3) << 5 | (rgba[2] >> 3) << 10 | (rgba[3] >= 128 ? 0x8000u : 0u);
    case PspColour::c4444: return rgba[0] >> 4 | (rgba[1] >> 4) << 4 | (rgba[2] >> 4) << 8 | (rgba[3] >> 4) << 12;
    case PspColour::c8888: return rgba[0] | rgba[1] << 8 | rgba[2] << 16 | std::uint32_t{rgba[3]} << 24;
    case PspColour::c888: break;
  }
  return rgba[0] | rgba[1] << 8 | rgba[2] << 16;
}

// Stores the colour at p (colour_size(c) bytes, little-endian).
inline void encode_colour(PspColour c, const std::uint8_t* rgba, std::uint8_t* p) {
  const std::uint32_t v = encode_colour(c, rgba);
  for (std::size_t i = 0; i < colour_size(c); ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// The colour as the format keeps it: what decoding its encoding gives.
inline Rgba representable(PspColour c, Rgba colour) { return decode_colour(c, encode_colour(c, colour.data())); }

}  // namespace psp

// Bits 3 and 4 of an 8-bit index trade places in a CSM1 CLUT (the GS stores it in 8x2 blocks).
inline std::size_t csm1_slot(std::size_t index) { return (index & ~std::size_t{0x18}) | (index & 0x08) << 1 | (index & 0x10) >> 1; }

}  // namespace remodel
