// The running matrix palette of a skinned draw: the GE's 8 bone matrices (MHFU groups) and the
// GX's 10 position matrices (J3D packets) are the same idea. Each group or packet loads some
// slots; the others keep what an earlier one loaded, and a slot no load has reached holds none.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace remodel {

template <std::size_t N>
struct MatrixPalette {
  static constexpr std::size_t kSlots = N;
  // What each slot's matrix comes from: a bone (MHFU) or a DRW1 draw matrix (J3D).
  std::array<std::optional<std::uint16_t>, N> slots{};

  const std::optional<std::uint16_t>& operator[](std::size_t slot) const { return slots[slot]; }
  void load(std::size_t slot, std::uint16_t source) { slots[slot] = source; }
  bool operator==(const MatrixPalette&) const = default;
};

using GeBonePalette = MatrixPalette<8>;     // PSP GE: BONE matrices 0-7
using GxMatrixPalette = MatrixPalette<10>;  // GX: position matrix slots 0-9 (PNMTXIDX / 3)

}  // namespace remodel
