// TRK1 (brk, TEV register and konstant colours) and PAK1 (bpk, material colours): keyed R, G, B, A
// per material, as stored. Layout and measured quirks: docs/j3d-animations.md.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/j3d/anim_key.hpp"
#include "model/j3d/j3d.hpp"
#include "model/verbatim.hpp"

namespace remodel {

using J3dColourTrack = J3dAnimTrack<std::int16_t>;  // 0xFF = full intensity

struct J3dColourAnim {
  std::array<J3dColourTrack, 4> rgba;
  std::uint16_t remap = 0;  // the material's update ID (its entry's index on every sample)
  // TRK1 only: the colour it drives (register C0.. or konstant K0..) and the three bytes after it.
  std::uint8_t colour_id = 0;
  std::array<std::uint8_t, 3> colour_id_padding{0xFF, 0xFF, 0xFF};
};

// One set of colour animations: its anims, their materials (a name table), its R, G, B, A tables.
struct J3dColourAnims {
  std::vector<J3dColourAnim> anims;
  J3dNameTable names;
  // When the table rule cannot place the runs as stored: the table as stored (verbatim), indices all stored.
  std::array<Verbatim, 4> stored_values;
};

// The tables after the header, in the order Nintendo's converter writes them.
enum class J3dTrk1Table {
  register_anims, konstant_anims, register_r, register_g, register_b, register_a, konstant_r, konstant_g,
  konstant_b, konstant_a, register_remap, konstant_remap, register_names, konstant_names, end, count
};
inline constexpr const char* kJ3dTrk1Tables[] = {
    "register_anims", "konstant_anims", "register_r", "register_g", "register_b", "register_a", "konstant_r", "konstant_g",
    "konstant_b", "konstant_a", "register_remap", "konstant_remap", "register_names", "konstant_names", "end"};
enum class J3dPak1Table { anims, r, g, b, a, remap, names, end, count };
inline constexpr const char* kJ3dPak1Tables[] = {"anims", "r", "g", "b", "a", "remap", "names", "end"};

struct J3dTrk1 {
  std::uint8_t loop_mode = 0;  // as ANK1's
  std::uint8_t unknown_0x09 = 0xFF;
  std::uint16_t duration = 0;
  J3dColourAnims registers, konstants;
  // The gap before each table (J3dTrk1Table order, `end` closing the section) where it is not the
  // filler to 4 (32 after the header and at the end).
  std::array<Verbatim, static_cast<std::size_t>(J3dTrk1Table::count)> gaps;
};

struct J3dPak1 {
  std::uint8_t loop_mode = 0;
  std::array<std::uint8_t, 3> unknown_0x09{0xFF, 0xFF, 0xFF};
  std::uint16_t duration = 0;  // at 0x0C, not ANK1's 0x0A
  J3dColourAnims colours;
  std::array<Verbatim, static_cast<std::size_t>(J3dPak1Table::count)> gaps;  // as J3dTrk1's
};

}  // namespace remodel
