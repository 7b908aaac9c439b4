// TPT1 (btp): the texture table's rule and the section as JSON.
#include "model/j3d/anim_tpt1.hpp"

#include "model/j3d/anim_frames_json.hpp"

namespace remodel {

using namespace json_fields;

J3dFrameTableRule j3d_tpt1_texture_rule() {
  return {false, std::nullopt};
}

Json j3d_anim_json(const J3dTpt1& a) {
  Json j{{"magic", "TPT1"}, {"loop_mode", a.loop_mode}, {"unknown_0x09", a.unknown_0x09}, {"duration", a.duration}};
  Json patterns = Json::array();
  for (std::size_t i = 0; i < a.patterns.size(); ++i) {
    const J3dTexturePattern& p = a.patterns[i];
    Json e{{"material", i < a.material_names.names.size() ? Json(a.material_names.names[i]) : Json()},
           {"material_index", p.material_index},
           {"texture_map", p.texture_map},
           {"unknown_0x05", p.unknown_0x05},
           {"unknown_0x06", p.unknown_0x06}};
    e["textures"] = j3d_frames_json(p.textures);
    patterns.push_back(e);
  }
  j["patterns"] = patterns;
  j["names_unknown_0x02"] = a.material_names.unknown_0x02;
  verbatim(j, "stored_textures", a.stored_textures);
  verbatim(j, "gap_after_header", a.gap_after_header);
  verbatim(j, "gap_after_patterns", a.gap_after_patterns);
  verbatim(j, "gap_after_textures", a.gap_after_textures);
  verbatim(j, "gap_after_material_indices", a.gap_after_material_indices);
  verbatim(j, "gap_after_names", a.gap_after_names);
  return j;
}

}  // namespace remodel
