// Writes TRK1 (brk) and PAK1 (bpk): the reader's mirror (reader/j3d/anim_colour.cpp); tables in the
// converter's order, each after the filler to 4 (32 after the header), the section closed to 32.
#include "writer/j3d/anim_key.hpp"

namespace remodel {

namespace {

// One colour set's R, G, B, A tables laid out by the rule.
std::array<J3dFrameTable, 4> lay_out_colours(ByteWriter& w, const J3dColourAnims& set) {
  static constexpr const char* kFields[] = {"r", "g", "b", "a"};
  if (set.anims.size() > 0xFFFF) w.fail("anims", "more than 65535 colour animations");
  if (set.names.names.size() != set.anims.size()) {
    w.fail("names", "holds " + std::to_string(set.names.names.size()) + " names for " + std::to_string(set.anims.size()) + " animations");
  }
  std::array<J3dFrameTable, 4> out;
  for (std::size_t k = 0; k < 4; ++k) {
    std::vector<const J3dColourTrack*> tracks;
    for (const J3dColourAnim& a : set.anims) tracks.push_back(&a.rgba[k]);
    out[k] = lay_out_j3d_table(w, tracks, set.stored_values[k], kFields[k]);
  }
  return out;
}

// Writes the tables of one kind in order: each gets the gap before it and its offset patched.
struct Tables {
  ByteWriter& w;
  std::size_t base;
  const std::string& filler;
  std::size_t header_size;
  const char* const* names;

  void put(std::size_t i, const Verbatim& gap, std::size_t offset_at, bool present, const auto& body) {
    if (!present) return;  // offset 0
    write_j3d_gap(w, filler, w.pos() - base == header_size ? 32 : 4, base, gap, [&] { return std::string(names[i]) + ".gap"; });
    w.patch_u32(offset_at, static_cast<std::uint32_t>(w.pos() - base));
    w.mark([&] { return std::string(names[i]); });
    body();
  }
  void anims(std::size_t i, const Verbatim& gap, std::size_t offset_at, const J3dColourAnims& set,
             const std::array<J3dFrameTable, 4>& l, bool with_id) {
    put(i, gap, offset_at, !set.anims.empty(), [&] {
      for (std::size_t a = 0; a < set.anims.size(); ++a) {
        for (std::size_t k = 0; k < 4; ++k) write_j3d_stored_track(w, set.anims[a].rgba[k], l[k].indices[a]);
        if (!with_id) continue;
        w.u8(set.anims[a].colour_id);
        w.bytes(set.anims[a].colour_id_padding);
      }
    });
  }
  void values(std::size_t i, const Verbatim* gaps, std::size_t counts_at, std::size_t offsets_at, const J3dColourAnims& set,
              const std::array<J3dFrameTable, 4>& l) {
    for (std::size_t k = 0; k < 4; ++k) {
      const std::size_t alignment = w.pos() - base == header_size ? 32 : 4;
      write_j3d_keyed_table(w, l[k], set.stored_values[k], 2, alignment, base, filler, gaps[k], counts_at + 2 * k, offsets_at + 4 * k,
                            names[i + k]);
    }
  }
  void remap(std::size_t i, const Verbatim& gap, std::size_t offset_at, const J3dColourAnims& set) {
    put(i, gap, offset_at, !set.anims.empty(), [&] {
      for (const J3dColourAnim& a : set.anims) w.u16(a.remap);
    });
  }
  void names_table(std::size_t i, const Verbatim& gap, std::size_t offset_at, const J3dColourAnims& set) {
    put(i, gap, offset_at, true, [&] { write_j3d_names(w, set.names); });
  }
  void end(std::size_t i, const Verbatim& gap) {
    write_j3d_gap(w, filler, 32, base, gap, [&] { return std::string(names[i]) + ".gap"; });
  }
};

}  // namespace

void write_j3d_trk1(ByteWriter& w, const J3dTrk1& t, std::size_t base, const std::string& filler) {
  using T = J3dTrk1Table;
  const auto reg = lay_out_colours(w, t.registers);
  const auto kon = lay_out_colours(w, t.konstants);
  w.u8(t.loop_mode);
  w.u8(t.unknown_0x09);
  w.u16(t.duration);
  w.u16(static_cast<std::uint16_t>(t.registers.anims.size()));
  w.u16(static_cast<std::uint16_t>(t.konstants.anims.size()));
  const std::size_t counts_at = w.pos();
  w.fill(16, 0);  // register then konstant R, G, B, A counts, patched
  const std::size_t offsets_at = w.pos();
  w.fill(56, 0);  // anims, remap, names (register then konstant), register then konstant values, patched
  const auto i = [](T table) { return static_cast<std::size_t>(table); };
  const auto& g = t.gaps;
  Tables tables{w, base, filler, 0x58, kJ3dTrk1Tables};
  tables.anims(i(T::register_anims), g[i(T::register_anims)], offsets_at, t.registers, reg, true);
  tables.anims(i(T::konstant_anims), g[i(T::konstant_anims)], offsets_at + 4, t.konstants, kon, true);
  tables.values(i(T::register_r), &g[i(T::register_r)], counts_at, offsets_at + 24, t.registers, reg);
  tables.values(i(T::konstant_r), &g[i(T::konstant_r)], counts_at + 8, offsets_at + 40, t.konstants, kon);
  tables.remap(i(T::register_remap), g[i(T::register_remap)], offsets_at + 8, t.registers);
  tables.remap(i(T::konstant_remap), g[i(T::konstant_remap)], offsets_at + 12, t.konstants);
  tables.names_table(i(T::register_names), g[i(T::register_names)], offsets_at + 16, t.registers);
  tables.names_table(i(T::konstant_names), g[i(T::konstant_names)], offsets_at + 20, t.konstants);
  tables.end(i(T::end), g[i(T::end)]);
}

void write_j3d_pak1(ByteWriter& w, const J3dPak1& p, std::size_t base, const std::string& filler) {
  using T = J3dPak1Table;
  const auto l = lay_out_colours(w, p.colours);
  w.u8(p.loop_mode);
  w.bytes(p.unknown_0x09);
  w.u16(p.duration);
  w.u16(static_cast<std::uint16_t>(p.colours.anims.size()));
  const std::size_t counts_at = w.pos();
  w.fill(8, 0);  // R, G, B, A counts, patched
  const std::size_t offsets_at = w.pos();
  w.fill(28, 0);  // anims, remap, names, R, G, B, A, patched
  const auto i = [](T table) { return static_cast<std::size_t>(table); };
  const auto& g = p.gaps;
  Tables tables{w, base, filler, 0x34, kJ3dPak1Tables};
  tables.anims(i(T::anims), g[i(T::anims)], offsets_at, p.colours, l, false);
  tables.values(i(T::r), &g[i(T::r)], counts_at, offsets_at + 12, p.colours, l);
  tables.remap(i(T::remap), g[i(T::remap)], offsets_at + 4, p.colours);
  tables.names_table(i(T::names), g[i(T::names)], offsets_at + 8, p.colours);
  tables.end(i(T::end), g[i(T::end)]);
}

}  // namespace remodel
