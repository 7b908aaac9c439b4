// VAF1 (bva): the show table's rule and the section as JSON.
#include "model/j3d/anim_vaf1.hpp"

#include "model/j3d/anim_frames_json.hpp"

namespace remodel {

using namespace json_fields;

J3dFrameTableRule j3d_vaf1_show_rule() {
  return {true, std::nullopt};
}

Json j3d_anim_json(const J3dVaf1& a) {
  Json j{{"magic", "VAF1"}, {"loop_mode", a.loop_mode}, {"unknown_0x09", a.unknown_0x09}, {"duration", a.duration}};
  Json shapes = Json::array();
  for (const J3dFrameTrack<std::uint8_t>& t : a.shapes) shapes.push_back(j3d_frames_json(t));
  j["shapes"] = shapes;
  verbatim(j, "stored_shows", a.stored_shows);
  verbatim(j, "gap_after_header", a.gap_after_header);
  verbatim(j, "gap_after_shapes", a.gap_after_shapes);
  verbatim(j, "gap_after_shows", a.gap_after_shows);
  return j;
}

}  // namespace remodel
