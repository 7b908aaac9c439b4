// Writes J3D animations (J3D1): the reader's mirror. The value tables are laid out by the table rule
// (J3dTableBuilder) from the tracks' runs; the offsets and counts follow from them.
#include <string>

#include "model/j3d/anim.hpp"
#include "writer/j3d/anim_frames.hpp"
#include "writer/j3d/anim_key.hpp"
#include "writer/j3d/common.hpp"

namespace remodel {

namespace {

void write_ank1(ByteWriter& w, const J3dAnk1& a, std::size_t base, const std::string& filler) {
  if (a.joints.size() > 0xFFFF) w.fail("joint_count", "more than 65535 joints");
  std::vector<const J3dJointAnim*> joints;
  for (const J3dJointAnim& j : a.joints) joints.push_back(&j);
  const J3dSrtLaidOut l = lay_out_j3d_srt(w, joints, a.stored_scales, a.stored_rotations, a.stored_translations);

  const J3dJointAnimHeaderAt at = write_j3d_joint_anim_header(w, a.loop_mode, a.angle_scale, a.duration, a.joints.size(), base, filler, a.gap_after_header);
  write_j3d_srt_records(w, joints, l, "joint");
  write_j3d_joint_anim_tables(w, a, l.scales, l.rotations, l.translations, base, filler, at);
}

// Each kind's section writer.
void write_section(ByteWriter& w, const J3dAnimSection& section, std::size_t base, const std::string& filler) {
  std::visit([&](const auto& s) {
    using S = std::decay_t<decltype(s)>;
    if constexpr (std::is_same_v<S, J3dAnk1>) write_ank1(w, s, base, filler);
    else if constexpr (std::is_same_v<S, J3dAnf1>) write_j3d_anf1(w, s, base, filler);
    else if constexpr (std::is_same_v<S, J3dTpt1>) write_j3d_tpt1(w, s, base, filler);
    else if constexpr (std::is_same_v<S, J3dVaf1>) write_j3d_vaf1(w, s, base, filler);
    else if constexpr (std::is_same_v<S, J3dTtk1>) write_j3d_ttk1(w, s, base, filler);
    else if constexpr (std::is_same_v<S, J3dTrk1>) write_j3d_trk1(w, s, base, filler);
    else write_j3d_pak1(w, s, base, filler);
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
