// Internal: a full-frame track as JSON, shared by the BCA, BTP and BVA dumps.
#pragma once

#include <nlohmann/json.hpp>

#include "model/j3d/anim_frames.hpp"
#include "model/json_fields.hpp"

namespace remodel {

template <typename T>
nlohmann::ordered_json j3d_frames_json(const J3dFrameTrack<T>& t) {
  nlohmann::ordered_json j;
  if constexpr (std::is_same_v<T, float>) j["values"] = json_fields::floats(t.values);
  else j["values"] = t.values;
  json_fields::optional_field(j, "stored_index", t.stored_index);
  return j;
}

}  // namespace remodel
