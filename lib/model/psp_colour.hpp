// PSP GE colour formats (little-endian), shared by TIM2 and TMH pixels and palettes.
#pragma once

#include <cstdint>

#include "model/image.hpp"

namespace remodel {

// GE's modes 0-3, plus TIM2's 24-bit RGB.
enum class PspColour : std::uint8_t { c5650 = 0, c5551 = 1, c4444 = 2, c8888 = 3, c888 = 4 };

inline std::size_t psp_colour_size(PspColour c) { return c == PspColour::c8888 ? 4 : c == PspColour::c888 ? 3 : 2; }

inline Rgba decode_psp_colour(PspColour c, const std::uint8_t* p) {
  const unsigned v = p[0] | p[1] << 8;
  switch (c) {
    case PspColour::c5650: return {expand5(v & 0x1F), expand6(v >> 5 & 0x3F), expand5(v >> 11), 255};
    case PspColour::c5551: return {expand5(v & 0x1F), expand5(v >> 5 & 0x1F), expand5(v >> 10 & 0x1F), static_cast<std::uint8_t>(v & 0x8000 ? 255 : 0)};
    case PspColour::c4444: return {expand4(v & 0xF), expand4(v >> 4 & 0xF), expand4(v >> 8 & 0xF), expand4(v >> 12)};
    case PspColour::c8888: return {p[0], p[1], p[2], p[3]};
    default: return {p[0], p[1], p[2], 255};
  }
}

inline void encode_psp_colour(PspColour c, const std::uint8_t* rgba, std::uint8_t* p) {
  unsigned v = 0;
  switch (c) {
    case PspColour::c5650: v = rgba[0] >> 3 | (rgba[1] >> 2) << 5 | (rgba[2] >> 3) << 11; break;
    case PspColour::c5551: v = rgba[0] >> 3 | (rgba[1] >> 3) << 5 | (rgba[2] >> 3) << 10 | (rgba[3] >= 128 ? 0x8000 : 0); break;
    case PspColour::c4444: v = rgba[0] >> 4 | (rgba[1] >> 4) << 4 | (rgba[2] >> 4) << 8 | (rgba[3] >> 4) << 12; break;
    case PspColour::c8888: p[0] = rgba[0], p[1] = rgba[1], p[2] = rgba[2], p[3] = rgba[3]; return;
    default: p[0] = rgba[0], p[1] = rgba[1], p[2] = rgba[2]; return;
  }
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
}

inline Rgba psp_representable(PspColour c, Rgba colour) {
  std::uint8_t stored[4] = {};
  encode_psp_colour(c, colour.data(), stored);
  return decode_psp_colour(c, stored);
}

// Bits 3 and 4 of an 8-bit index trade places in a CSM1 CLUT (the GS stores it in 8x2 blocks).
inline std::size_t csm1_slot(std::size_t index) { return (index & ~std::size_t{0x18}) | (index & 0x08) << 1 | (index & 0x10) >> 1; }

}  // namespace remodel
