// Reads TRK1 (brk, TEV register and konstant colours) and PAK1 (bpk, material colours): keyed R, G,
// B, A per material (docs/j3d-animations.md).
#include "reader/j3d/anim_key.hpp"

namespace remodel {

namespace {

// Where one colour set's tables are, as its header states them.
struct ColourSetAt {
  std::uint16_t count = 0;
  std::array<std::uint16_t, 4> value_counts{};
  std::uint32_t anims = 0, remap = 0, names = 0;
  std::array<std::uint32_t, 4> values{};
  std::size_t anims_field = 0, remap_field = 0, values_field = 0;  // where the offsets are in the header
};

// The set's anim records: R, G, B, A component records, then (TRK1) the colour id and three bytes.
std::vector<J3dStoredTrack> read_records(Cursor& c, J3dColourAnims& set, std::size_t count, bool with_id) {
  c.check_count(count, with_id ? 28 : 24, "anim_count");
  set.anims.resize(count);
  std::vector<J3dStoredTrack> stored;
  stored.reserve(count * 4);
  for (std::size_t i = 0; i < count; ++i) {
    PathScope scope(c, "anim", static_cast<std::int64_t>(i));
    for (int k = 0; k < 4; ++k) stored.push_back(read_j3d_stored_track(c));
    if (!with_id) continue;
    set.anims[i].colour_id = c.u8("colour_id");
    set.anims[i].colour_id_padding = c.array<3>("colour_id_padding");
  }
  return stored;
}

// The four value tables after the gaps before them; absent ones (no values, offset 0) are empty.
std::array<std::vector<std::uint32_t>, 4> read_values(Cursor& c, J3dFiller& filler, const ColourSetAt& at, Verbatim* gaps) {
  static constexpr const char* kFields[] = {"r_offset", "g_offset", "b_offset", "a_offset"};
  std::array<std::vector<std::uint32_t>, 4> out;
  for (std::size_t k = 0; k < 4; ++k) {
    if (j3d_table_absent(c, at.value_counts[k], at.values[k], at.values_field + 4 * k, kFields[k])) continue;
    out[k] = read_j3d_value_table(c, filler, at.values[k], at.value_counts[k], 2, 4, kFields[k], gaps[k]);
  }
  return out;
}

void read_remap(Cursor& c, J3dFiller& filler, const ColourSetAt& at, J3dColourAnims& set, Verbatim& gap) {
  if (j3d_table_absent(c, set.anims.size(), at.remap, at.remap_field, "remap_offset")) return;
  gap = read_j3d_gap(c, filler, at.remap, 4, "remap_offset");
  for (J3dColourAnim& a : set.anims) a.remap = c.u16("remap");
}

void read_names(Cursor& c, J3dFiller& filler, const ColourSetAt& at, J3dColourAnims& set, Verbatim& gap) {
  gap = read_j3d_gap(c, filler, at.names, 4, "names_offset");
  set.names = read_j3d_names(c, set.anims.size());
}

void resolve(Cursor& c, const std::vector<J3dStoredTrack>& stored, J3dColourAnims& set,
             const std::array<std::vector<std::uint32_t>, 4>& tables, const ColourSetAt& at) {
  for (std::size_t k = 0; k < 4; ++k) {
    std::vector<J3dStoredTrack> records;
    std::vector<J3dColourTrack*> tracks;
    for (std::size_t i = 0; i < set.anims.size(); ++i) {
      records.push_back(stored[i * 4 + k]);
      tracks.push_back(&set.anims[i].rgba[k]);
    }
    resolve_j3d_tracks(c, records, tracks, tables[k], at.values[k], set.stored_values[k]);
  }
}

std::vector<J3dStoredTrack> read_anims(Cursor& c, J3dFiller& filler, const ColourSetAt& at, J3dColourAnims& set,
                                       bool with_id, Verbatim& gap, std::size_t header_size) {
  if (j3d_table_absent(c, at.count, at.anims, at.anims_field, "anims_offset")) return {};
  gap = read_j3d_gap(c, filler, at.anims, c.pos() == header_size ? 32 : 4, "anims_offset");
  return read_records(c, set, at.count, with_id);
}

}  // namespace

J3dTrk1 read_j3d_trk1(Cursor& c, J3dFiller& filler) {
  using T = J3dTrk1Table;
  J3dTrk1 t;
  t.loop_mode = c.u8("loop_mode");
  t.unknown_0x09 = c.u8("unknown_0x09");
  t.duration = c.u16("duration");
  ColourSetAt reg, kon;
  reg.count = c.u16("register_count");
  kon.count = c.u16("konstant_count");
  for (std::uint16_t& n : reg.value_counts) n = c.u16("register_value_count");
  for (std::uint16_t& n : kon.value_counts) n = c.u16("konstant_value_count");
  reg.anims = c.u32("register_anims_offset");
  kon.anims = c.u32("konstant_anims_offset");
  reg.remap = c.u32("register_remap_offset");
  kon.remap = c.u32("konstant_remap_offset");
  reg.names = c.u32("register_names_offset");
  kon.names = c.u32("konstant_names_offset");
  for (std::uint32_t& o : reg.values) o = c.u32("register_values_offset");
  for (std::uint32_t& o : kon.values) o = c.u32("konstant_values_offset");
  reg.anims_field = 0x20, kon.anims_field = 0x24, reg.remap_field = 0x28, kon.remap_field = 0x2C;
  reg.values_field = 0x38, kon.values_field = 0x48;

  auto gap = [&](T table) -> Verbatim& { return t.gaps[static_cast<std::size_t>(table)]; };
  std::vector<J3dStoredTrack> reg_stored, kon_stored;
  {
    PathScope scope(c, "register");
    reg_stored = read_anims(c, filler, reg, t.registers, true, gap(T::register_anims), 0x58);
  }
  {
    PathScope scope(c, "konstant");
    kon_stored = read_anims(c, filler, kon, t.konstants, true, gap(T::konstant_anims), 0x58);
  }
  const auto reg_values = read_values(c, filler, reg, &gap(T::register_r));
  const auto kon_values = read_values(c, filler, kon, &gap(T::konstant_r));
  read_remap(c, filler, reg, t.registers, gap(T::register_remap));
  read_remap(c, filler, kon, t.konstants, gap(T::konstant_remap));
  read_names(c, filler, reg, t.registers, gap(T::register_names));
  read_names(c, filler, kon, t.konstants, gap(T::konstant_names));
  gap(T::end) = read_j3d_gap(c, filler, c.size(), 32, "size");
  resolve(c, reg_stored, t.registers, reg_values, reg);
  resolve(c, kon_stored, t.konstants, kon_values, kon);
  return t;
}

J3dPak1 read_j3d_pak1(Cursor& c, J3dFiller& filler) {
  using T = J3dPak1Table;
  J3dPak1 p;
  p.loop_mode = c.u8("loop_mode");
  p.unknown_0x09 = c.array<3>("unknown_0x09");
  p.duration = c.u16("duration");
  ColourSetAt at;
  at.count = c.u16("anim_count");
  for (std::uint16_t& n : at.value_counts) n = c.u16("value_count");
  at.anims = c.u32("anims_offset");
  at.remap = c.u32("remap_offset");
  at.names = c.u32("names_offset");
  for (std::uint32_t& o : at.values) o = c.u32("values_offset");
  at.anims_field = 0x18, at.remap_field = 0x1C, at.values_field = 0x24;

  auto gap = [&](T table) -> Verbatim& { return p.gaps[static_cast<std::size_t>(table)]; };
  const std::vector<J3dStoredTrack> stored = read_anims(c, filler, at, p.colours, false, gap(T::anims), 0x34);
  const auto values = read_values(c, filler, at, &gap(T::r));
  read_remap(c, filler, at, p.colours, gap(T::remap));
  read_names(c, filler, at, p.colours, gap(T::names));
  gap(T::end) = read_j3d_gap(c, filler, c.size(), 32, "size");
  resolve(c, stored, p.colours, values, at);
  return p;
}

}  // namespace remodel
