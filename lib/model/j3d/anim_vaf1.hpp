// VAF1 (bva): shape visibility, one show byte (1 shown, 0 hidden) per frame (or one for all) per shape.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/j3d/anim_frames.hpp"
#include "model/verbatim.hpp"

namespace remodel {

struct J3dVaf1 {
  std::uint8_t loop_mode = 0;
  std::uint8_t unknown_0x09 = 0xFF;
  std::uint16_t duration = 0;
  std::vector<J3dFrameTrack<std::uint8_t>> shapes;  // in the model's shape order
  Verbatim stored_shows;  // the show table as stored when its rule cannot place the runs
  Verbatim gap_after_header, gap_after_shapes, gap_after_shows;
};

// Runs shared where the table already holds them, as ANK1's.
J3dFrameTableRule j3d_vaf1_show_rule();

nlohmann::ordered_json j3d_anim_json(const J3dVaf1& a);

}  // namespace remodel
