// Big-endian values, the J3D filler and headers appended to golden J3D bytes written by hand in the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model/bytes.hpp"

namespace remodel::test {

inline void be16(Bytes& b, std::uint16_t v) {
  b.push_back(static_cast<std::uint8_t>(v >> 8));
  b.push_back(static_cast<std::uint8_t>(v));
}
inline void be32(Bytes& b, std::uint32_t v) {
  be16(b, static_cast<std::uint16_t>(v >> 16));
  be16(b, static_cast<std::uint16_t>(v));
}
// The big-endian u32 at `at` (bounds-checked).
inline std::uint32_t be32_at(const Bytes& b, std::size_t at) {
  return std::uint32_t{b.at(at)} << 24 | std::uint32_t{b.at(at + 1)} << 16 | std::uint32_t{b.at(at + 2)} << 8 | b.at(at + 3);
}
inline void put_text(Bytes& b, std::string_view s) {
  b.insert(b.end(), s.begin(), s.end());
}
// Nintendo's filler, restarted at the gap, up to `alignment` from `base`.
inline void pad_j3d(Bytes& b, std::size_t base, std::size_t alignment = 32) {
  constexpr std::string_view filler = "This is padding data to alignment.";
  for (std::size_t i = 0; (b.size() - base) % alignment != 0; ++i) b.push_back(static_cast<std::uint8_t>(filler[i]));
}
// The file size at 0x08 and the section size at base + 4, from what was written.
inline void patch_j3d_sizes(Bytes& b, std::size_t base) {
  const std::size_t section = b.size() - base;
  for (int k = 0; k < 4; ++k) {
    b[8 + k] = static_cast<std::uint8_t>(b.size() >> (24 - 8 * k));
    b[base + 4 + k] = static_cast<std::uint8_t>(section >> (24 - 8 * k));
  }
}

inline void text(Bytes& b, const char* s) {
  for (; *s != 0; ++s) b.push_back(static_cast<std::uint8_t>(*s));
}
// Nintendo's gap: "This is padding data to alignment." from its start, up to `alignment` past `base`.
inline void pad_to(Bytes& b, std::size_t base, std::size_t alignment) {
  const char* filler = "This is padding data to alignment.";
  for (std::size_t i = 0; (b.size() - base) % alignment != 0; ++i) b.push_back(static_cast<std::uint8_t>(filler[i]));
}
// Patches the file size at 8 and the section size (the section starts at 0x20).
inline void patch_j3d_anim_sizes(Bytes& b) {
  const std::size_t section = b.size() - 0x20;
  for (int k = 0; k < 4; ++k) {
    b[8 + k] = static_cast<std::uint8_t>(b.size() >> (24 - 8 * k));
    b[0x24 + k] = static_cast<std::uint8_t>(section >> (24 - 8 * k));
  }
}
// The J3D1 file header of one section and the section's magic; sizes patched by patch_j3d_anim_sizes.
inline void j3d_anim_header(Bytes& b, const char* type, const char* magic) {
  text(b, "J3D1");
  text(b, type);
  be32(b, 0);
  be32(b, 1);
  text(b, "SVR1");
  b.insert(b.end(), 12, 0xFF);
  text(b, magic);
  be32(b, 0);
}

}  // namespace remodel::test
