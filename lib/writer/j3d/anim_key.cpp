// Writes what every keyed J3D animation section shares: value tables by the table rule, SRT records.
#include "writer/j3d/anim_key.hpp"

namespace remodel {

namespace {

template <typename T>
J3dFrameTable lay_out(ByteWriter& w, const std::vector<const J3dAnimTrack<T>*>& tracks, const Verbatim& stored_table, const char* field) {
  J3dTableBuilder builder;
  J3dFrameTable out;
  for (const J3dAnimTrack<T>* t : tracks) {
    if (t->values.size() != j3d_track_length(t->count, t->tangent_mode)) {
      w.fail(field, "a track of " + std::to_string(t->count) + " keys holds " + std::to_string(t->values.size()) + " values");
    }
    std::vector<std::uint32_t> run;
    run.reserve(t->values.size());
    for (T v : t->values) run.push_back(j3d_value_bits(v));
    const std::size_t at = builder.place(run, t->stored_index ? *t->stored_index : builder.find(run));
    if (at > 0xFFFF) w.fail(field, "a track starts past the 65535th value");
    out.indices.push_back(static_cast<std::uint16_t>(at));
  }
  if (!stored_table.stored()) out.table = finish_j3d_frame_table(w, builder, field);  // else written as stored
  return out;
}

}  // namespace

J3dFrameTable lay_out_j3d_table(ByteWriter& w, const std::vector<const J3dFloatTrack*>& tracks, const Verbatim& stored_table, const char* field) {
  return lay_out(w, tracks, stored_table, field);
}

J3dFrameTable lay_out_j3d_table(ByteWriter& w, const std::vector<const J3dAngleTrack*>& tracks, const Verbatim& stored_table, const char* field) {
  return lay_out(w, tracks, stored_table, field);
}

void write_j3d_keyed_table(ByteWriter& w, const J3dFrameTable& t, const Verbatim& stored_table, std::size_t size, std::size_t alignment,
                           std::size_t base, const std::string& filler, const Verbatim& gap_before, std::size_t count_at,
                           std::size_t offset_at, const char* field) {
  if (t.table.empty() && !stored_table.stored()) {
    w.patch_u16(count_at, 0);
    return;
  }
  write_j3d_value_table(w, t, stored_table, size, alignment, base, filler, gap_before, count_at, offset_at, field);
}

J3dSrtLaidOut lay_out_j3d_srt(ByteWriter& w, const std::vector<const J3dJointAnim*>& anims, const Verbatim& stored_scales,
                              const Verbatim& stored_rotations, const Verbatim& stored_translations) {
  std::vector<const J3dFloatTrack*> scales, translations;
  std::vector<const J3dAngleTrack*> rotations;
  for (const J3dJointAnim* j : anims) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
      scales.push_back(&j->scale[axis]);
      rotations.push_back(&j->rotation[axis]);
      translations.push_back(&j->translation[axis]);
    }
  }
  return {lay_out(w, scales, stored_scales, "scales"), lay_out(w, rotations, stored_rotations, "rotations"),
          lay_out(w, translations, stored_translations, "translations")};
}

void write_j3d_srt_records(ByteWriter& w, const std::vector<const J3dJointAnim*>& anims, const J3dSrtLaidOut& l, const char* record_name) {
  for (std::size_t j = 0; j < anims.size(); ++j) {
    w.mark([&] { return std::string(record_name) + "[" + std::to_string(j) + "]"; });
    for (std::size_t axis = 0; axis < 3; ++axis) {
      const std::size_t i = j * 3 + axis;
      write_j3d_stored_track(w, anims[j]->scale[axis], l.scales.indices[i]);
      write_j3d_stored_track(w, anims[j]->rotation[axis], l.rotations.indices[i]);
      write_j3d_stored_track(w, anims[j]->translation[axis], l.translations.indices[i]);
    }
  }
}

}  // namespace remodel
