// Writes J3D animations (J3D1): the reader's mirror. The value tables are laid out by the table rule
// (J3dTableBuilder) from the tracks' runs; the offsets and counts follow from them.
#include <bit>
#include <string>

#include "model/j3d/anim.hpp"
#include "writer/j3d/anim_frames.hpp"
#include "writer/j3d/common.hpp"

namespace remodel {

namespace {

template <typename T>
std::vector<std::uint32_t> run_bits(const J3dAnimTrack<T>& t) {
  std::vector<std::uint32_t> out;
  out.reserve(t.values.size());
  for (T v : t.values) {
    if constexpr (std::is_same_v<T, float>) out.push_back(std::bit_cast<std::uint32_t>(v));
    else out.push_back(static_cast<std::uint16_t>(v));
  }
  return out;
}

template <typename T>
J3dFrameTable lay_out(ByteWriter& w, const std::vector<const J3dAnimTrack<T>*>& tracks, const Verbatim& stored_table, const char* field) {
  J3dTableBuilder builder;
  J3dFrameTable out;
  for (const J3dAnimTrack<T>* t : tracks) {
    if (t->values.size() != j3d_track_length(t->count, t->tangent_mode)) {
      w.fail(field, "a track of " + std::to_string(t->count) + " keys holds " + std::to_string(t->values.size()) + " values");
    }
    const std::vector<std::uint32_t> run = run_bits(*t);
    const std::size_t at = builder.place(run, t->stored_index ? *t->stored_index : builder.find(run));
    if (at > 0xFFFF) w.fail(field, "a track starts past the 65535th value");
    out.indices.push_back(static_cast<std::uint16_t>(at));
  }
  if (!stored_table.stored()) out.table = finish_j3d_frame_table(w, builder, field);  // else written as stored
  return out;
}

template <typename T>
void write_tracks_index(ByteWriter& w, const J3dAnimTrack<T>& t, std::uint16_t index) {
  w.u16(t.count);
  w.stored_or(t.stored_index, index, [] { return std::string("index"); });
  w.u16(t.tangent_mode);
}

void write_ank1(ByteWriter& w, const J3dAnk1& a, std::size_t base, const std::string& filler) {
  if (a.joints.size() > 0xFFFF) w.fail("joint_count", "more than 65535 joints");
  std::vector<const J3dFloatTrack*> scales, translations;
  std::vector<const J3dAngleTrack*> rotations;
  for (const J3dJointAnim& j : a.joints) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
      scales.push_back(&j.scale[axis]);
      rotations.push_back(&j.rotation[axis]);
      translations.push_back(&j.translation[axis]);
    }
  }
  const J3dFrameTable s = lay_out(w, scales, a.stored_scales, "scales");
  const J3dFrameTable r = lay_out(w, rotations, a.stored_rotations, "rotations");
  const J3dFrameTable t = lay_out(w, translations, a.stored_translations, "translations");

  w.u8(a.loop_mode);
  w.u8(a.angle_scale);
  w.u16(a.duration);
  w.u16(static_cast<std::uint16_t>(a.joints.size()));
  const std::size_t counts_at = w.pos();
  w.fill(6, 0);  // scale, rotation and translation counts, patched
  const std::size_t offsets_at = w.pos();
  w.fill(16, 0);  // joint, scale, rotation and translation offsets, patched
  write_j3d_gap(w, filler, 32, base, a.gap_after_header, [] { return std::string("header.gap"); });
  w.patch_u32(offsets_at, static_cast<std::uint32_t>(w.pos() - base));
  for (std::size_t j = 0; j < a.joints.size(); ++j) {
    w.mark([&] { return "joint[" + std::to_string(j) + "]"; });
    for (std::size_t axis = 0; axis < 3; ++axis) {
      const std::size_t i = j * 3 + axis;
      write_tracks_index(w, *scales[i], s.indices[i]);
      write_tracks_index(w, *rotations[i], r.indices[i]);
      write_tracks_index(w, *translations[i], t.indices[i]);
    }
  }
  write_j3d_value_table(w, s, a.stored_scales, 4, 32, base, filler, a.gap_after_joints, counts_at, offsets_at + 4, "scales");
  write_j3d_value_table(w, r, a.stored_rotations, 2, 32, base, filler, a.gap_after_scales, counts_at + 2, offsets_at + 8, "rotations");
  write_j3d_value_table(w, t, a.stored_translations, 4, 32, base, filler, a.gap_after_rotations, counts_at + 4, offsets_at + 12, "translations");
  write_j3d_gap(w, filler, 32, base, a.gap_after_translations, [] { return std::string("translations.gap"); });
}

// Each kind's section writer.
void write_section(ByteWriter& w, const J3dAnimSection& section, std::size_t base, const std::string& filler) {
  std::visit([&](const auto& s) {
    using S = std::decay_t<decltype(s)>;
    if constexpr (std::is_same_v<S, J3dAnk1>) write_ank1(w, s, base, filler);
    else if constexpr (std::is_same_v<S, J3dAnf1>) write_j3d_anf1(w, s, base, filler);
    else if constexpr (std::is_same_v<S, J3dTpt1>) write_j3d_tpt1(w, s, base, filler);
    else write_j3d_vaf1(w, s, base, filler);
  }, section);
}

}  // namespace

Result<Bytes> write_j3d_anim(const J3dAnimFile& f, WriteReport* report) {
  return guarded_write([&] {
    ByteWriter w(Endian::big, 0x1000, report);
    w.mark([] { return std::string("header"); });
    const std::size_t size_at = write_j3d_file_header(w, "J3D1", f.type, 1, f.header_0x10, f.stored_size);
    const std::size_t base = w.pos();
    const char* magic = kJ3dAnimKinds[f.section.index()].magic;
    w.mark([&] { return std::string(magic); });
    w.bytes(ByteSpan(reinterpret_cast<const std::uint8_t*>(magic), 4));
    w.u32(0);  // size, patched
    write_section(w, f.section, base, kJ3dNintendoPadding);
    // The stated end: the section's, or where its closing filler would end when the file leaves it out.
    const std::size_t end = f.closing_filler_cut ? base + (w.pos() - base + 31) / 32 * 32 : w.pos();
    if (end + f.tail.size() > 0xFFFFFFFFu) w.fail("size", "the file is larger than 4 GiB");
    w.patch_u32(base + 4, static_cast<std::uint32_t>(end - base));
    w.tail(f.tail);
    if (!f.stored_size) w.patch_u32(size_at, static_cast<std::uint32_t>(end + f.tail.size()));
    return w.take();
  });
}

}  // namespace remodel
