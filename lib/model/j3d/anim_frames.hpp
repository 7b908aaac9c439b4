// J3D full-frame animations (BCA, BTP, BVA): a track is one value per frame, or one value for all;
// each track reads its run from a value table laid out by its kind's rule (docs/j3d-animations.md).
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

namespace remodel {

template <typename T>
struct J3dFrameTrack {
  std::vector<T> values;  // the count the file stores is their number
  // The index the file stores where it is not the one its table rule gives (verbatim).
  std::optional<std::uint16_t> stored_index;
};

// How a kind's converter lays out a value table: a run goes where the table built so far already
// holds it (share) or always at the end; the table may start with a value before any run (the seed).
struct J3dFrameTableRule {
  bool share = true;
  std::optional<std::uint32_t> seed;
};

// A table value as its bits, and back: floats bit for bit, integers as their unsigned bytes.
template <typename T>
std::uint32_t j3d_value_bits(T v) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<std::uint32_t>(v);
  else return static_cast<std::make_unsigned_t<T>>(v);
}
template <typename T>
T j3d_value_from_bits(std::uint32_t bits) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(bits);
  else return static_cast<T>(static_cast<std::make_unsigned_t<T>>(bits));
}

}  // namespace remodel
