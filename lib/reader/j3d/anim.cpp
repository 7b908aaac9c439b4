// Reads J3D animations (J3D1): the file header, its one section, the key tables and the value tables
// the keys index into (docs/j3d-animations.md).
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "model/j3d/anim.hpp"
#include "reader/j3d/anim_frames.hpp"
#include "reader/j3d/anim_key.hpp"
#include "reader/j3d/common.hpp"

namespace remodel {

namespace {

J3dAnk1 read_ank1(Cursor& c, J3dFiller& filler) {
  J3dAnk1 a;
  const J3dJointAnimHeader h = read_j3d_joint_anim_header(c, "angle_scale");
  a.loop_mode = h.loop_mode;
  a.angle_scale = h.byte_0x09;
  a.duration = h.duration;
  a.gap_after_header = read_j3d_gap(c, filler, h.joints_at, 32, "joints_offset");
  const std::vector<J3dStoredTrack> stored = read_j3d_srt_records(c, h.joint_count, "joint", "joint_count");
  J3dSrtTables tables{{}, {}, {}, h.scales_at, h.rotations_at, h.translations_at};
  tables.scales = read_j3d_value_table(c, filler, h.scales_at, h.scale_count, 4, 32, "scales_offset", a.gap_after_joints);
  tables.rotations = read_j3d_value_table(c, filler, h.rotations_at, h.rotation_count, 2, 32, "rotations_offset", a.gap_after_scales);
  tables.translations = read_j3d_value_table(c, filler, h.translations_at, h.translation_count, 4, 32, "translations_offset", a.gap_after_rotations);
  a.gap_after_translations = read_j3d_gap(c, filler, c.size(), 32, "size");
  a.joints.resize(h.joint_count);
  std::vector<J3dJointAnim*> joints;
  for (J3dJointAnim& j : a.joints) joints.push_back(&j);
  resolve_j3d_srt(c, stored, joints, tables, a.stored_scales, a.stored_rotations, a.stored_translations);
  return a;
}

// Each kind's section reader, in the order of J3dAnimSection (kJ3dAnimKinds).
template <auto Read>
J3dAnimSection read_section(Cursor& c, J3dFiller& filler) {
  return Read(c, filler);
}
constexpr J3dAnimSection (*kReaders[])(Cursor&, J3dFiller&) = {read_section<read_ank1>, read_section<read_j3d_anf1>,
                                                                read_section<read_j3d_tpt1>, read_section<read_j3d_vaf1>,
                                                                read_section<read_j3d_ttk1>, read_section<read_j3d_trk1>,
                                                                read_section<read_j3d_pak1>};
static_assert(std::size(kReaders) == std::size(kJ3dAnimKinds), "one reader per kind");

// The kind a file's type names, or none.
std::optional<std::size_t> kind_of(std::string_view type) {
  for (std::size_t k = 0; k < std::size(kJ3dAnimKinds); ++k) {
    if (type == kJ3dAnimKinds[k].type) return k;
  }
  return std::nullopt;
}

// The bytes closing each kind's section: a file cut before its closing filler stops right after them.
std::size_t closing_bytes(const J3dAnimSection& section) {
  struct Closing {
    std::size_t operator()(const J3dAnk1& a) const { return a.gap_after_translations.size(); }
    std::size_t operator()(const J3dAnf1& a) const { return a.gap_after_translations.size(); }
    std::size_t operator()(const J3dTpt1& a) const { return a.gap_after_names.size(); }
    std::size_t operator()(const J3dVaf1& a) const { return a.gap_after_shows.size(); }
    std::size_t operator()(const J3dTtk1& t) const { return t.end.size(); }
    std::size_t operator()(const J3dTrk1& t) const { return t.gaps[static_cast<std::size_t>(J3dTrk1Table::end)].size(); }
    std::size_t operator()(const J3dPak1& p) const { return p.gaps[static_cast<std::size_t>(J3dPak1Table::end)].size(); }
  };
  return std::visit(Closing{}, section);
}

}  // namespace

bool looks_like_j3d_anim(ByteSpan b) {
  return b.size() >= 8 && std::memcmp(b.data(), "J3D1", 4) == 0 && kind_of(std::string_view(reinterpret_cast<const char*>(b.data()) + 4, 4));
}

Result<J3dAnimFile> read_j3d_anim(ByteSpan bytes) {
  return guarded([&] {
    Cursor c(bytes, Endian::big);
    J3dAnimFile f;
    const J3dFileHeader header = read_j3d_file_header(c, "J3D1");
    f.type = header.type;
    f.header_0x10 = header.header_0x10;
    if (header.section_count != 1) {
      c.fail_at(ErrorCode::unsupported, 12, "section_count", "is " + std::to_string(header.section_count) + "; an animation has one section");
    }
    const std::string type(f.type.begin(), f.type.end());
    const std::optional<std::size_t> kind = kind_of(type);
    if (!kind) c.fail_at(ErrorCode::unsupported, 4, "type", "\"" + type + "\" is not a J3D animation this version reads");
    const char* magic = kJ3dAnimKinds[*kind].magic;
    const std::size_t at = c.pos();
    if (!c.has_magic(at, magic)) c.fail(ErrorCode::bad_magic, "section.magic", std::string("is not \"") + magic + "\"");
    c.skip(4, "section.magic");
    const std::uint32_t section_size = c.u32("section.size");
    if (section_size < 8) c.fail_at(ErrorCode::bad_value, at + 4, "section.size", "is smaller than its own header");
    // A size rounded up to 32 over a file that stops before its closing filler (Nintendo's BCAs).
    const std::size_t present = bytes.size() - at;
    f.closing_filler_cut = section_size > present && section_size % 32 == 0 && section_size - present < 32;
    const std::size_t stated_end = at + section_size;
    if (header.size != (f.closing_filler_cut ? stated_end : bytes.size())) f.stored_size = header.size;
    c.seek(at, "section");
    Cursor s(c.span(f.closing_filler_cut ? present : section_size, "section.size"), Endian::big);
    s.push(magic);
    J3dFiller filler{kJ3dNintendoPadding};
    try {
      s.skip(8, "header");
      f.section = kReaders[*kind](s, filler);
      if (f.closing_filler_cut && closing_bytes(f.section) != 0) {
        s.fail_at(ErrorCode::truncated, present, "size", "the file stops inside its closing filler, " +
                  std::to_string(section_size - present) + " bytes short of the section's stated " + std::to_string(section_size));
      }
    } catch (ParseFailure& failure) {
      if (failure.error.offset) *failure.error.offset += at;
      throw;
    }
    f.tail = c.tail("tail");
    return f;
  });
}

}  // namespace remodel
