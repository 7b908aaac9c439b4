// Reads J3D animations (J3D1): the file header, its one section, the key tables and the value tables
// the keys index into (docs/j3d-animations.md).
#include <algorithm>
#include <cstring>
#include <iterator>
#include <string>

#include "reader/j3d/anim_key.hpp"

namespace remodel {

namespace {

J3dAnk1 read_ank1(Cursor& c, J3dFiller& filler) {
  J3dAnk1 a;
  a.loop_mode = c.u8("loop_mode");
  a.angle_scale = c.u8("angle_scale");
  a.duration = c.u16("duration");
  const std::uint16_t joint_count = c.u16("joint_count");
  const std::uint16_t scale_count = c.u16("scale_count");
  const std::uint16_t rotation_count = c.u16("rotation_count");
  const std::uint16_t translation_count = c.u16("translation_count");
  const std::uint32_t joints_at = c.u32("joints_offset");
  const std::uint32_t scales_at = c.u32("scales_offset");
  const std::uint32_t rotations_at = c.u32("rotations_offset");
  const std::uint32_t translations_at = c.u32("translations_offset");
  a.gap_after_header = read_j3d_gap(c, filler, joints_at, 32, "joints_offset");
  const std::vector<J3dStoredTrack> stored = read_j3d_srt_records(c, joint_count, "joint", "joint_count");
  J3dSrtTables tables{{}, {}, {}, scales_at, rotations_at, translations_at};
  tables.scales = read_j3d_value_table(c, filler, scales_at, scale_count, 4, 32, "scales_offset", a.gap_after_joints);
  tables.rotations = read_j3d_value_table(c, filler, rotations_at, rotation_count, 2, 32, "rotations_offset", a.gap_after_scales);
  tables.translations = read_j3d_value_table(c, filler, translations_at, translation_count, 4, 32, "translations_offset", a.gap_after_rotations);
  a.gap_after_translations = read_j3d_gap(c, filler, c.size(), 32, "size");
  a.joints.resize(joint_count);
  std::vector<J3dJointAnim*> joints;
  for (J3dJointAnim& j : a.joints) joints.push_back(&j);
  resolve_j3d_srt(c, stored, joints, tables, a.stored_scales, a.stored_rotations, a.stored_translations);
  return a;
}

template <typename T, T (*Read)(Cursor&, J3dFiller&)>
J3dAnimSection read_as(Cursor& c, J3dFiller& filler) {
  return Read(c, filler);
}

struct SectionKind {
  const char* type;
  const char* magic;
  J3dAnimSection (*read)(Cursor&, J3dFiller&);
};
constexpr SectionKind kKinds[] = {
    {"bck1", "ANK1", read_as<J3dAnk1, read_ank1>},
    {"btk1", "TTK1", read_as<J3dTtk1, read_j3d_ttk1>},
    {"brk1", "TRK1", read_as<J3dTrk1, read_j3d_trk1>},
    {"bpk1", "PAK1", read_as<J3dPak1, read_j3d_pak1>},
};

}  // namespace

bool looks_like_j3d_anim(ByteSpan bytes) {
  if (bytes.size() < 8 || std::memcmp(bytes.data(), "J3D1", 4) != 0) return false;
  return std::any_of(std::begin(kKinds), std::end(kKinds), [&](const SectionKind& k) { return std::memcmp(bytes.data() + 4, k.type, 4) == 0; });
}

Result<J3dAnimFile> read_j3d_anim(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::big);
    J3dAnimFile f;
    const J3dFileHeader header = read_j3d_file_header(c, "J3D1");
    f.type = header.type;
    f.header_0x10 = header.header_0x10;
    if (header.size != bytes.size()) f.stored_size = header.size;
    if (header.section_count != 1) {
      c.fail_at(ErrorCode::unsupported, 12, "section_count", "is " + std::to_string(header.section_count) + "; an animation has one section");
    }
    const std::string type(f.type.begin(), f.type.end());
    const SectionKind* kind = nullptr;
    for (const SectionKind& k : kKinds) {
      if (type == k.type) kind = &k;
    }
    if (kind == nullptr) c.fail_at(ErrorCode::unsupported, 4, "type", "\"" + type + "\" is not a J3D animation this version reads");
    const std::size_t at = c.pos();
    if (!c.has_magic(at, kind->magic)) c.fail(ErrorCode::bad_magic, "section.magic", std::string("is not \"") + kind->magic + "\"");
    c.skip(4, "section.magic");
    const std::uint32_t section_size = c.u32("section.size");
    if (section_size < 8) c.fail_at(ErrorCode::bad_value, at + 4, "section.size", "is smaller than its own header");
    c.seek(at, "section");
    Cursor s(c.span(section_size, "section.size"), Endian::big);
    s.push(kind->magic);
    J3dFiller filler{kJ3dNintendoPadding};
    try {
      s.skip(8, "header");
      f.section = kind->read(s, filler);
    } catch (ParseFailure& failure) {
      if (failure.error.offset) *failure.error.offset += at;
      throw;
    }
    f.tail = c.tail("tail");
    return f;
  });
}

}  // namespace remodel
