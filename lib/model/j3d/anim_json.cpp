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

Json srt_json(const J3dJointAnim& k) {
  return Json{{"scale", tracks_json(k.scale)}, {"rotation", tracks_json(k.rotation)}, {"translation", tracks_json(k.translation)}};
}

// The gaps kept verbatim, each under the name of the table it precedes.
template <std::size_t N>
void gaps_json(Json& j, const std::array<Verbatim, N>& gaps, const char* const (&tables)[N]) {
  for (std::size_t i = 0; i < N; ++i) verbatim(j, (std::string("gap_before_") + tables[i]).c_str(), gaps[i]);
}

Json names_json(const J3dNameTable& t) {
  return Json{{"unknown_0x02", t.unknown_0x02}, {"names", t.names}};
}

Json colours_json(const J3dColourAnims& set, bool with_id) {
  Json anims = Json::array();
  for (const J3dColourAnim& a : set.anims) {
    Json e{{"remap", a.remap}, {"rgba", tracks_json(a.rgba)}};
    if (with_id) {
      e["colour_id"] = a.colour_id;
      e["colour_id_padding"] = hex(Bytes(a.colour_id_padding.begin(), a.colour_id_padding.end()));
    }
    anims.push_back(e);
  }
  Json j{{"anims", anims}, {"names", names_json(set.names)}};
  static constexpr const char* kStored[] = {"stored_r", "stored_g", "stored_b", "stored_a"};
  for (std::size_t k = 0; k < 4; ++k) verbatim(j, kStored[k], set.stored_values[k]);
  return j;
}

Json j3d_anim_json(const J3dTtk1& t) {
  Json j{{"magic", "TTK1"}, {"loop_mode", t.loop_mode}, {"angle_scale", t.angle_scale}, {"duration", t.duration},
         {"tex_mtx_calc_type", t.tex_mtx_calc_type}, {"names", names_json(t.names)}};
  Json anims = Json::array();
  for (const J3dTexMtxAnim& a : t.anims) {
    Json e{{"remap", a.remap}, {"tex_mtx_index", a.tex_mtx_index}, {"centre", floats(std::vector<float>(a.centre.begin(), a.centre.end()))}};
    e["keys"] = srt_json(a.keys);
    anims.push_back(e);
  }
  j["anims"] = anims;
  verbatim(j, "stored_scales", t.stored_scales);
  verbatim(j, "stored_rotations", t.stored_rotations);
  verbatim(j, "stored_translations", t.stored_translations);
  gaps_json(j, t.gaps, kJ3dTtk1Tables);
  verbatim(j, "end", t.end);
  return j;
}

Json j3d_anim_json(const J3dTrk1& t) {
  Json j{{"magic", "TRK1"}, {"loop_mode", t.loop_mode}, {"unknown_0x09", t.unknown_0x09}, {"duration", t.duration},
         {"registers", colours_json(t.registers, true)}, {"konstants", colours_json(t.konstants, true)}};
  gaps_json(j, t.gaps, kJ3dTrk1Tables);
  return j;
}

Json j3d_anim_json(const J3dPak1& p) {
  Json j{{"magic", "PAK1"}, {"loop_mode", p.loop_mode}, {"unknown_0x09", hex(Bytes(p.unknown_0x09.begin(), p.unknown_0x09.end()))},
         {"duration", p.duration}, {"colours", colours_json(p.colours, false)}};
  gaps_json(j, p.gaps, kJ3dPak1Tables);
  return j;
}

Json j3d_anim_json(const J3dAnk1& a) {
  Json j{{"magic", "ANK1"}, {"loop_mode", a.loop_mode}, {"angle_scale", a.angle_scale}, {"duration", a.duration}};
  Json joints = Json::array();
  for (const J3dJointAnim& k : a.joints) joints.push_back(srt_json(k));
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
