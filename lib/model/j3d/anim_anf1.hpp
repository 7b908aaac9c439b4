// ANF1 (bca): joint transforms as full frames, one value per frame (or one for all) per component.
#pragma once

#include <array>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/j3d/anim_frames.hpp"
#include "model/verbatim.hpp"

namespace remodel {

struct J3dFullFrameJoint {
  std::array<J3dFrameTrack<float>, 3> scale;  // x, y, z
  std::array<J3dFrameTrack<std::int16_t>, 3> rotation;  // 0x8000 = 180 degrees
  std::array<J3dFrameTrack<float>, 3> translation;
};

struct J3dAnf1 {
  std::uint8_t loop_mode = 0;  // as ANK1's
  std::uint8_t unknown_0x09 = 0xFF;
  std::uint16_t duration = 0;
  std::vector<J3dFullFrameJoint> joints;
  // When the table rule cannot place the runs as stored: the table as stored (verbatim), indices all stored.
  Verbatim stored_scales, stored_rotations, stored_translations;
  Verbatim gap_after_header, gap_after_joints, gap_after_scales, gap_after_rotations, gap_after_translations;
};

// Each table starts with the identity (scale 1, rotation 0, translation 0), then the runs are shared.
J3dFrameTableRule j3d_anf1_scale_rule();
J3dFrameTableRule j3d_anf1_rotation_rule();
J3dFrameTableRule j3d_anf1_translation_rule();

nlohmann::ordered_json j3d_anim_json(const J3dAnf1& a);

}  // namespace remodel
