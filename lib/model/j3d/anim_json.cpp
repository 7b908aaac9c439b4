// J3D animations as JSON, for `remodel dump`: the header, every track with its values, gaps and
// stored layouts (the full-frame kinds in their own files).
#include "model/j3d/anim.hpp"
#include "model/json_fields.hpp"

namespace remodel {

using namespace json_fields;

namespace {

template <typename T>
Json track_json(const J3dAnimTrack<T>& t) {
  Json j{{"count", t.count}, {"tangent_mode", t.tangent_mode}};
  if constexpr (std::is_same_v<T, float>) j["values"] = floats(t.values);
  else j["values"] = t.values;
  optional_field(j, "stored_index", t.stored_index);
  return j;
}

template <typename T, std::size_t N>
Json tracks_json(const std::array<J3dAnimTrack<T>, N>& tracks) {
  Json a = Json::array();
  for (const J3dAnimTrack<T>& t : tracks) a.push_back(track_json(t));
  return a;
}

Json j3d_anim_json(const J3dAnk1& a) {
  Json j{{"magic", "ANK1"}, {"loop_mode", a.loop_mode}, {"angle_scale", a.angle_scale}, {"duration", a.duration}};
  Json joints = Json::array();
  for (const J3dJointAnim& k : a.joints) {
    joints.push_back(Json{{"scale", tracks_json(k.scale)}, {"rotation", tracks_json(k.rotation)}, {"translation", tracks_json(k.translation)}});
  }
  j["joints"] = joints;
  verbatim(j, "stored_scales", a.stored_scales);
  verbatim(j, "stored_rotations", a.stored_rotations);
  verbatim(j, "stored_translations", a.stored_translations);
  verbatim(j, "gap_after_header", a.gap_after_header);
  verbatim(j, "gap_after_joints", a.gap_after_joints);
  verbatim(j, "gap_after_scales", a.gap_after_scales);
  verbatim(j, "gap_after_rotations", a.gap_after_rotations);
  verbatim(j, "gap_after_translations", a.gap_after_translations);
  return j;
}

}  // namespace

void add_json(const J3dAnimFile& f, Json& out) {
  Json j{{"type", std::string(f.type.begin(), f.type.end())}, {"header_0x10", hex(Bytes(f.header_0x10.begin(), f.header_0x10.end()))}};
  optional_field(j, "stored_size", f.stored_size);
  if (f.closing_filler_cut) j["closing_filler_cut"] = true;
  j["section"] = std::visit([](const auto& s) { return j3d_anim_json(s); }, f.section);
  verbatim(j, "tail", f.tail);
  out["j3d_anim"] = j;
}

}  // namespace remodel
