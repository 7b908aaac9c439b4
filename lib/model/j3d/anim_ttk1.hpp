// TTK1 (btk): keyed texture-matrix scale, rotation and translation per material, as stored.
// Layout and measured quirks: docs/j3d-animations.md.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/j3d/anim_key.hpp"
#include "model/j3d/j3d.hpp"
#include "model/verbatim.hpp"

namespace remodel {

struct J3dTexMtxAnim {
  std::uint16_t remap = 0;         // the material's update ID (its entry's index on every sample)
  std::uint8_t tex_mtx_index = 0;  // which of the material's texture matrices it drives
  std::array<float, 3> centre{};   // S, T, Q: the centre the scale and rotation act about
  J3dJointAnim keys;               // scale, rotation, translation on S, T, Q
};

// The tables after the header, in the order Nintendo's converter writes them.
enum class J3dTtk1Table { anims, remap, names, tex_mtx_index, centres, scales, rotations, translations, count };
inline constexpr const char* kJ3dTtk1Tables[] = {"anims", "remap", "names", "tex_mtx_index", "centres", "scales", "rotations", "translations"};

struct J3dTtk1 {
  std::uint8_t loop_mode = 0;    // as ANK1's
  std::uint8_t angle_scale = 0;  // rotations are in units of 180 degrees * 2^angle_scale / 0x8000
  std::uint16_t duration = 0;
  std::vector<J3dTexMtxAnim> anims;
  J3dNameTable names;                   // the animated materials, one per anim
  std::uint32_t tex_mtx_calc_type = 0;  // 0x5C: 1 Maya; a stray pointer on watergun_water.btk
  // When the table rule cannot place the runs as stored: the table as stored (verbatim), indices all stored.
  Verbatim stored_scales, stored_rotations, stored_translations;
  // The gap before each table (J3dTtk1Table order) where it is not the filler to 4 (32 after the header).
  std::array<Verbatim, static_cast<std::size_t>(J3dTtk1Table::count)> gaps;
  // The section's last bytes where they are not an empty name table (00 00 FF FF, no offset points at it).
  Verbatim end;
};

}  // namespace remodel
