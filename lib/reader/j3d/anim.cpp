// Reads J3D animations (J3D1): the file header, its one section, the key tables and the value tables
// the keys index into (docs/j3d-animations.md).
#include <bit>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "model/j3d/anim.hpp"
#include "reader/j3d/anim_frames.hpp"
#include "reader/j3d/common.hpp"

namespace remodel {

namespace {

// A component record as stored: key count, first value, tangent mode.
struct StoredTrack {
  std::uint16_t count = 0, index = 0, tangent_mode = 0;
  std::size_t at = 0;  // the record's offset in the section
};

StoredTrack read_stored_track(Cursor& c) {
  StoredTrack t;
  t.at = c.pos();
  t.count = c.u16("count");
  t.index = c.u16("index");
  t.tangent_mode = c.u16("tangent_mode");
  return t;
}

// The tracks' runs out of a table, and the indices the table rule does not give kept as stored;
// when no stored index can explain the table, the table itself is kept (verbatim) and every index.
template <typename T>
void resolve_tracks(Cursor& c, const std::vector<StoredTrack>& stored, const std::vector<J3dAnimTrack<T>*>& tracks,
                    const std::vector<std::uint32_t>& table, std::size_t table_offset, Verbatim& stored_table) {
  J3dTableBuilder builder;
  for (std::size_t i = 0; i < stored.size(); ++i) {
    const StoredTrack& s = stored[i];
    J3dAnimTrack<T>& t = *tracks[i];
    t.count = s.count;
    t.tangent_mode = s.tangent_mode;
    if (s.tangent_mode > 1) c.fail_at(ErrorCode::bad_value, s.at + 4, "tangent_mode", "is " + std::to_string(s.tangent_mode) + ", not 0 or 1");
    const std::size_t length = j3d_track_length(s.count, s.tangent_mode);
    if (std::size_t{s.index} + length > table.size()) {
      c.fail_at(ErrorCode::bad_offset, s.at + 2, "index",
                "reads " + std::to_string(length) + " values from " + std::to_string(s.index) + " of a table of " + std::to_string(table.size()));
    }
    const std::vector<std::uint32_t> run(table.begin() + s.index, table.begin() + s.index + static_cast<std::ptrdiff_t>(length));
    t.values.clear();
    for (std::uint32_t v : run) {
      if constexpr (std::is_same_v<T, float>) t.values.push_back(std::bit_cast<float>(v));
      else t.values.push_back(static_cast<T>(static_cast<std::uint16_t>(v)));
    }
    if (builder.find(run) != s.index) t.stored_index = s.index;
    builder.place(run, s.index);
  }
  if (builder.finish() == table) return;
  const std::size_t size = sizeof(T);
  stored_table = Verbatim(c.data().subspan(table_offset, table.size() * size));
  for (std::size_t i = 0; i < stored.size(); ++i) tracks[i]->stored_index = stored[i].index;
}

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
  c.check_count(joint_count, 54, "joint_count");
  std::vector<StoredTrack> stored;
  stored.reserve(std::size_t{joint_count} * 9);
  for (std::size_t j = 0; j < joint_count; ++j) {
    PathScope scope(c, "joint", static_cast<std::int64_t>(j));
    for (int k = 0; k < 9; ++k) stored.push_back(read_stored_track(c));
  }
  const auto scales = read_j3d_value_table(c, filler, scales_at, scale_count, 4, 32, "scales_offset", a.gap_after_joints);
  const auto rotations = read_j3d_value_table(c, filler, rotations_at, rotation_count, 2, 32, "rotations_offset", a.gap_after_scales);
  const auto translations = read_j3d_value_table(c, filler, translations_at, translation_count, 4, 32, "translations_offset", a.gap_after_rotations);
  a.gap_after_translations = read_j3d_gap(c, filler, c.size(), 32, "size");

  // Records are x (scale, rotation, translation), then y, then z; each table is laid out joint by
  // joint, x to z.
  a.joints.resize(joint_count);
  std::vector<StoredTrack> by_kind[3];
  std::vector<J3dFloatTrack*> scale_tracks, translation_tracks;
  std::vector<J3dAngleTrack*> rotation_tracks;
  for (std::size_t j = 0; j < joint_count; ++j) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
      for (std::size_t kind = 0; kind < 3; ++kind) by_kind[kind].push_back(stored[j * 9 + axis * 3 + kind]);
      scale_tracks.push_back(&a.joints[j].scale[axis]);
      rotation_tracks.push_back(&a.joints[j].rotation[axis]);
      translation_tracks.push_back(&a.joints[j].translation[axis]);
    }
  }
  resolve_tracks(c, by_kind[0], scale_tracks, scales, scales_at, a.stored_scales);
  resolve_tracks(c, by_kind[1], rotation_tracks, rotations, rotations_at, a.stored_rotations);
  resolve_tracks(c, by_kind[2], translation_tracks, translations, translations_at, a.stored_translations);
  return a;
}

// Each kind's section reader, in the order of J3dAnimSection (kJ3dAnimKinds).
template <auto Read>
J3dAnimSection read_section(Cursor& c, J3dFiller& filler) {
  return Read(c, filler);
}
constexpr J3dAnimSection (*kReaders[])(Cursor&, J3dFiller&) = {read_section<read_ank1>, read_section<read_j3d_anf1>,
                                                                read_section<read_j3d_tpt1>, read_section<read_j3d_vaf1>};
static_assert(std::size(kReaders) == std::size(kJ3dAnimKinds), "one reader per kind");

// The kind a file's type names, or none.
std::optional<std::size_t> kind_of(std::string_view type) {
  for (std::size_t k = 0; k < std::size(kJ3dAnimKinds); ++k) {
    if (type == kJ3dAnimKinds[k].type) return k;
  }
  return std::nullopt;
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
    } catch (ParseFailure& failure) {
      if (failure.error.offset) *failure.error.offset += at;
      throw;
    }
    f.tail = c.tail("tail");
    return f;
  });
}

}  // namespace remodel
