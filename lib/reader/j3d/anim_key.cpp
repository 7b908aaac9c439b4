// Reads what every keyed J3D animation section shares: component records and SRT records.
#include "reader/j3d/anim_key.hpp"

namespace remodel {

J3dStoredTrack read_j3d_stored_track(Cursor& c) {
  J3dStoredTrack t;
  t.at = c.pos();
  t.count = c.u16("count");
  t.index = c.u16("index");
  t.tangent_mode = c.u16("tangent_mode");
  return t;
}

bool j3d_table_absent(Cursor& c, std::size_t count, std::uint32_t offset, std::size_t offset_at, const char* offset_field) {
  if (count != 0) return false;
  if (offset != 0) c.fail_at(ErrorCode::unsupported, offset_at, offset_field, "points at a table of no entries; Nintendo's converter writes 0");
  return true;
}

std::vector<J3dStoredTrack> read_j3d_srt_records(Cursor& c, std::size_t count, const char* record_name, const char* count_field) {
  c.check_count(count, 54, count_field);
  std::vector<J3dStoredTrack> stored;
  stored.reserve(count * 9);
  for (std::size_t j = 0; j < count; ++j) {
    PathScope scope(c, record_name, static_cast<std::int64_t>(j));
    for (int k = 0; k < 9; ++k) stored.push_back(read_j3d_stored_track(c));
  }
  return stored;
}

void resolve_j3d_srt(Cursor& c, const std::vector<J3dStoredTrack>& stored, const std::vector<J3dJointAnim*>& anims,
                     const J3dSrtTables& tables, Verbatim& stored_scales, Verbatim& stored_rotations,
                     Verbatim& stored_translations) {
  // Records are x (scale, rotation, translation), then y, then z.
  std::vector<J3dStoredTrack> by_kind[3];
  std::vector<J3dFloatTrack*> scales, translations;
  std::vector<J3dAngleTrack*> rotations;
  for (std::size_t j = 0; j < anims.size(); ++j) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
      for (std::size_t kind = 0; kind < 3; ++kind) by_kind[kind].push_back(stored[j * 9 + axis * 3 + kind]);
      scales.push_back(&anims[j]->scale[axis]);
      rotations.push_back(&anims[j]->rotation[axis]);
      translations.push_back(&anims[j]->translation[axis]);
    }
  }
  resolve_j3d_tracks(c, by_kind[0], scales, tables.scales, tables.scales_at, stored_scales);
  resolve_j3d_tracks(c, by_kind[1], rotations, tables.rotations, tables.rotations_at, stored_rotations);
  resolve_j3d_tracks(c, by_kind[2], translations, tables.translations, tables.translations_at, stored_translations);
}

}  // namespace remodel
