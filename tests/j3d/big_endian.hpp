// Big-endian values appended to golden J3D bytes written by hand in the tests.
#pragma once

#include <cstdint>

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

}  // namespace remodel::test
