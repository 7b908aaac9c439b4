// PSP GE command words: the opcodes and primitive types geometry lists use (MHFU command lists,
// and the primitive code KH BBS PMO sections store in their vertex flags).
#pragma once

#include <cstdint>
#include <optional>

#include "model/primitive.hpp"

namespace remodel::psp {

// GE command opcodes (the top byte of each 32-bit word).
namespace ge {
inline constexpr std::uint8_t kNop = 0x00, kVaddr = 0x01, kIaddr = 0x02, kPrim = 0x04, kRet = 0x0B,
                              kBase = 0x10, kVtype = 0x12, kOffset = 0x13, kOrigin = 0x14, kFface = 0x9B;
// PRIM's type field (argument bits 16-18).
inline constexpr std::uint8_t kPrimPoints = 0, kPrimLines = 1, kPrimLineStrip = 2, kPrimTriangles = 3, kPrimStrip = 4,
                              kPrimFan = 5, kPrimSprites = 6;
}  // namespace ge

// The triangle topology of a GE primitive type; none for points, lines and sprites.
inline std::optional<Topology> ge_topology(std::uint8_t prim) {
  switch (prim) {
    case ge::kPrimTriangles: return Topology::list;
    case ge::kPrimStrip: return Topology::strip;
    case ge::kPrimFan: return Topology::fan;
    default: return std::nullopt;
  }
}

struct GeCommand {
  std::uint32_t word = 0;
  std::uint8_t op() const { return static_cast<std::uint8_t>(word >> 24); }
  std::uint32_t arg() const { return word & 0xFFFFFF; }
  static GeCommand make(std::uint8_t op, std::uint32_t arg) { return {std::uint32_t{op} << 24 | (arg & 0xFFFFFF)}; }
};

}  // namespace remodel::psp
