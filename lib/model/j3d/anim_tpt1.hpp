// TPT1 (btp): texture patterns, one texture index per frame (or one for all) per animated material.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/j3d/anim_frames.hpp"
#include "model/j3d/j3d.hpp"
#include "model/verbatim.hpp"

namespace remodel {

struct J3dTexturePattern {
  J3dFrameTrack<std::uint16_t> textures;  // indices into the model's TEX1
  std::uint8_t texture_map = 0;           // which of the material's texture slots it changes
  std::uint8_t unknown_0x05 = 0xFF;
  std::uint16_t unknown_0x06 = 0xFFFF;
  std::uint16_t material_index = 0;  // the model's material (MAT3 index), from the material index table
};

struct J3dTpt1 {
  std::uint8_t loop_mode = 0;
  std::uint8_t unknown_0x09 = 0xFF;
  std::uint16_t duration = 0;
  std::vector<J3dTexturePattern> patterns;
  J3dNameTable material_names;  // one per pattern
  Verbatim stored_textures;  // the index table as stored when its rule cannot place the runs
  Verbatim gap_after_header, gap_after_patterns, gap_after_textures, gap_after_material_indices, gap_after_names;
};

// Each material's run at the end of the table, in material order: no sharing.
J3dFrameTableRule j3d_tpt1_texture_rule();

nlohmann::ordered_json j3d_anim_json(const J3dTpt1& a);

}  // namespace remodel
