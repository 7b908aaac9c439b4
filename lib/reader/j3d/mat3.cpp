// Reads MAT3: the 30 table offsets, the tables in file order, each as typed records. Table lengths
// are not stored: each runs to the next table, less the filler after it.
#include <algorithm>
#include <string>

#include "reader/j3d/common.hpp"

namespace remodel {

namespace {

constexpr std::size_t kEntrySize = 0x14C;
constexpr std::size_t kIndirectSize = 0x138;

template <std::size_t N>
void read_u16s(Cursor& c, std::array<std::uint16_t, N>& a, const char* field) {
  for (std::uint16_t& v : a) v = c.u16(field);
}

template <std::size_t N>
void read_floats(Cursor& c, std::array<float, N>& a, const char* field) {
  for (float& v : a) v = c.f32(field);
}

void read(Cursor& c, J3dMaterialEntry& e) {
  e.flag = c.u8("flag");
  e.cull = c.u8("cull");
  e.channel_count = c.u8("channel_count");
  e.texgen_count = c.u8("texgen_count");
  e.tev_stage_count = c.u8("tev_stage_count");
  e.zcompare_location = c.u8("zcompare_location");
  e.zmode = c.u8("zmode");
  e.dither = c.u8("dither");
  read_u16s(c, e.material_colors, "material_colors");
  read_u16s(c, e.color_channels, "color_channels");
  read_u16s(c, e.ambient_colors, "ambient_colors");
  read_u16s(c, e.lights, "lights");
  read_u16s(c, e.texgens, "texgens");
  read_u16s(c, e.post_texgens, "post_texgens");
  read_u16s(c, e.tex_matrices, "tex_matrices");
  read_u16s(c, e.post_tex_matrices, "post_tex_matrices");
  read_u16s(c, e.textures, "textures");
  read_u16s(c, e.tev_kcolors, "tev_kcolors");
  e.kcolor_selections = c.array<16>("kcolor_selections");
  e.kalpha_selections = c.array<16>("kalpha_selections");
  read_u16s(c, e.tev_orders, "tev_orders");
  read_u16s(c, e.tev_colors, "tev_colors");
  read_u16s(c, e.tev_stages, "tev_stages");
  read_u16s(c, e.swap_modes, "swap_modes");
  read_u16s(c, e.swap_tables, "swap_tables");
  for (std::optional<std::uint8_t>& b : e.unknown_0x12c) {
    if (const std::uint8_t v = c.u8("unknown_0x12c"); v != 0xFF) b = v;  // the 0xFF fill is canonical
  }
  e.fog = c.u16("fog");
  e.alpha_compare = c.u16("alpha_compare");
  e.blend = c.u16("blend");
  e.nbt_scale = c.u16("nbt_scale");
}

void read(Cursor& c, J3dIndirectEntry& e) {
  e.enable = c.u8("enable");
  e.stage_count = c.u8("stage_count");
  e.unknown_0x02 = c.array<2>("unknown_0x02");
  for (auto& o : e.orders) o = c.array<4>("order");
  for (J3dIndirectMatrix& m : e.matrices) {
    read_floats(c, m.matrix, "matrix");
    m.exponent = c.i8("exponent");
    m.unknown_0x19 = c.array<3>("unknown_0x19");
  }
  for (auto& s : e.scales) s = c.array<4>("scale");
  for (auto& s : e.stages) s = c.array<12>("stage");
}

void read(Cursor& c, std::uint32_t& v) { v = c.u32("value"); }
void read(Cursor& c, std::uint16_t& v) { v = c.u16("value"); }
void read(Cursor& c, std::uint8_t& v) { v = c.u8("value"); }
void read(Cursor& c, J3dColor8& v) { v = c.array<4>("color"); }  // also J3dSwapTable: the same type
void read(Cursor& c, J3dTevColor& v) {
  for (std::int16_t& x : v) x = c.i16("color");
}

void read(Cursor& c, J3dColorChannel& v) {
  v.enable = c.u8("enable");
  v.material_source = c.u8("material_source");
  v.light_mask = c.u8("light_mask");
  v.diffuse_function = c.u8("diffuse_function");
  v.attenuation_function = c.u8("attenuation_function");
  v.ambient_source = c.u8("ambient_source");
  v.unknown_0x06 = c.array<2>("unknown_0x06");
}

void read(Cursor& c, J3dLight& v) {
  read_floats(c, v.position, "position");
  read_floats(c, v.direction, "direction");
  v.color = c.array<4>("color");
  read_floats(c, v.cos_attenuation, "cos_attenuation");
  read_floats(c, v.distance_attenuation, "distance_attenuation");
}

void read(Cursor& c, J3dTexGen& v) {
  v.type = c.u8("type");
  v.source = c.u8("source");
  v.matrix = c.u8("matrix");
  v.unknown_0x03 = c.u8("unknown_0x03");
}

void read(Cursor& c, J3dTexMatrix& v) {
  v.projection = c.u8("projection");
  v.info = c.u8("info");
  v.unknown_0x02 = c.u16("unknown_0x02");
  read_floats(c, v.center, "center");
  read_floats(c, v.scale, "scale");
  v.rotation = c.i16("rotation");
  v.unknown_0x1a = c.u16("unknown_0x1a");
  read_floats(c, v.translation, "translation");
  read_floats(c, v.effect_matrix, "effect_matrix");
}

void read(Cursor& c, J3dTevOrder& v) {
  v.texcoord = c.u8("texcoord");
  v.texmap = c.u8("texmap");
  v.channel = c.u8("channel");
  v.unknown_0x03 = c.u8("unknown_0x03");
}

void read(Cursor& c, J3dTevStage& v) {
  v.unknown_0x00 = c.u8("unknown_0x00");
  v.color_in = c.array<4>("color_in");
  v.color_op = c.u8("color_op");
  v.color_bias = c.u8("color_bias");
  v.color_scale = c.u8("color_scale");
  v.color_clamp = c.u8("color_clamp");
  v.color_register = c.u8("color_register");
  v.alpha_in = c.array<4>("alpha_in");
  v.alpha_op = c.u8("alpha_op");
  v.alpha_bias = c.u8("alpha_bias");
  v.alpha_scale = c.u8("alpha_scale");
  v.alpha_clamp = c.u8("alpha_clamp");
  v.alpha_register = c.u8("alpha_register");
  v.unknown_0x13 = c.u8("unknown_0x13");
}

void read(Cursor& c, J3dSwapMode& v) {
  v.raster = c.u8("raster");
  v.texture = c.u8("texture");
  v.unknown_0x02 = c.array<2>("unknown_0x02");
}

void read(Cursor& c, J3dFog& v) {
  v.type = c.u8("type");
  v.enable = c.u8("enable");
  v.center = c.u16("center");
  v.start_z = c.f32("start_z");
  v.end_z = c.f32("end_z");
  v.near_z = c.f32("near_z");
  v.far_z = c.f32("far_z");
  v.color = c.array<4>("color");
  read_u16s(c, v.range_adjustment, "range_adjustment");
}

void read(Cursor& c, J3dAlphaCompare& v) {
  v.compare0 = c.u8("compare0");
  v.reference0 = c.u8("reference0");
  v.operation = c.u8("operation");
  v.compare1 = c.u8("compare1");
  v.reference1 = c.u8("reference1");
  v.unknown_0x05 = c.array<3>("unknown_0x05");
}

void read(Cursor& c, J3dBlend& v) {
  v.type = c.u8("type");
  v.source = c.u8("source");
  v.destination = c.u8("destination");
  v.operation = c.u8("operation");
}

void read(Cursor& c, J3dZMode& v) {
  v.enable = c.u8("enable");
  v.function = c.u8("function");
  v.update = c.u8("update");
  v.unknown_0x03 = c.u8("unknown_0x03");
}

void read(Cursor& c, J3dNbtScale& v) {
  v.enable = c.u8("enable");
  v.unknown_0x01 = c.array<3>("unknown_0x01");
  read_floats(c, v.scale, "scale");
}

// A pool of `size`-byte records running to `end`, less the filler after it.
template <typename T>
void read_pool(Cursor& c, std::vector<T>& out, std::size_t size, std::size_t end, J3dFiller& filler) {
  const std::size_t length = j3d_data_length(c.data().subspan(c.pos(), end - c.pos()), size, filler.text);
  out.resize(length / size);
  for (std::size_t i = 0; i < out.size(); ++i) {
    PathScope scope(c, "item", static_cast<std::int64_t>(i));
    read(c, out[i]);
  }
}

const char* table_name(J3dMatTable t) {
  static const char* const names[kJ3dMatTables] = {
      "entries", "remap", "names", "indirect", "cull", "material_color", "channel_count", "color_channel",
      "ambient_color", "light", "texgen_count", "texgen", "post_texgen", "tex_matrix", "post_tex_matrix", "texture",
      "tev_order", "tev_color", "tev_kcolor", "tev_stage_count", "tev_stage", "swap_mode", "swap_table", "fog",
      "alpha_compare", "blend", "zmode", "zcompare_location", "dither", "nbt_scale"};
  return names[static_cast<std::size_t>(t)];
}

void read_table(Cursor& c, J3dMat3& m, J3dMatTable t, std::size_t end, std::size_t material_count, J3dFiller& filler) {
  switch (t) {
    case J3dMatTable::entries: read_pool(c, m.entries, kEntrySize, end, filler); break;
    case J3dMatTable::remap:
      c.check_count(material_count, 2, "count");
      m.remap.resize(material_count);
      for (std::uint16_t& r : m.remap) r = c.u16("remap");
      break;
    case J3dMatTable::names: m.names = read_j3d_names(c, material_count); break;
    case J3dMatTable::indirect: read_pool(c, m.indirect, kIndirectSize, end, filler); break;
    case J3dMatTable::cull: read_pool(c, m.cull_modes, 4, end, filler); break;
    case J3dMatTable::material_color: read_pool(c, m.material_colors, 4, end, filler); break;
    case J3dMatTable::channel_count: read_pool(c, m.channel_counts, 1, end, filler); break;
    case J3dMatTable::color_channel: read_pool(c, m.color_channels, 8, end, filler); break;
    case J3dMatTable::ambient_color: read_pool(c, m.ambient_colors, 4, end, filler); break;
    case J3dMatTable::light: read_pool(c, m.lights, 0x34, end, filler); break;
    case J3dMatTable::texgen_count: read_pool(c, m.texgen_counts, 1, end, filler); break;
    case J3dMatTable::texgen: read_pool(c, m.texgens, 4, end, filler); break;
    case J3dMatTable::post_texgen: read_pool(c, m.post_texgens, 4, end, filler); break;
    case J3dMatTable::tex_matrix: read_pool(c, m.tex_matrices, 0x64, end, filler); break;
    case J3dMatTable::post_tex_matrix: read_pool(c, m.post_tex_matrices, 0x64, end, filler); break;
    case J3dMatTable::texture: read_pool(c, m.textures, 2, end, filler); break;
    case J3dMatTable::tev_order: read_pool(c, m.tev_orders, 4, end, filler); break;
    case J3dMatTable::tev_color: read_pool(c, m.tev_colors, 8, end, filler); break;
    case J3dMatTable::tev_kcolor: read_pool(c, m.tev_kcolors, 4, end, filler); break;
    case J3dMatTable::tev_stage_count: read_pool(c, m.tev_stage_counts, 1, end, filler); break;
    case J3dMatTable::tev_stage: read_pool(c, m.tev_stages, 20, end, filler); break;
    case J3dMatTable::swap_mode: read_pool(c, m.swap_modes, 4, end, filler); break;
    case J3dMatTable::swap_table: read_pool(c, m.swap_tables, 4, end, filler); break;
    case J3dMatTable::fog: read_pool(c, m.fogs, 0x2C, end, filler); break;
    case J3dMatTable::alpha_compare: read_pool(c, m.alpha_compares, 8, end, filler); break;
    case J3dMatTable::blend: read_pool(c, m.blends, 4, end, filler); break;
    case J3dMatTable::zmode: read_pool(c, m.zmodes, 4, end, filler); break;
    case J3dMatTable::zcompare_location: read_pool(c, m.zcompare_locations, 1, end, filler); break;
    case J3dMatTable::dither: read_pool(c, m.dithers, 1, end, filler); break;
    case J3dMatTable::nbt_scale: read_pool(c, m.nbt_scales, 0x10, end, filler); break;
  }
}

}  // namespace

J3dMat3 read_j3d_mat3(Cursor& c, J3dFiller& filler) {
  J3dMat3 m;
  const std::uint16_t count = c.u16("count");
  m.unknown_0x0a = c.u16("unknown_0x0a");
  std::array<std::uint32_t, kJ3dMatTables> offsets;
  for (std::uint32_t& o : offsets) o = c.u32("offset");
  // File order: by offset; tables sharing an offset are empty but the last, and a name table is
  // never the empty one.
  std::vector<std::pair<std::uint32_t, std::size_t>> sorted;
  for (std::size_t t = 0; t < kJ3dMatTables; ++t) {
    if (offsets[t] != 0) {
      const bool names = t == static_cast<std::size_t>(J3dMatTable::names);
      sorted.push_back({offsets[t], names ? kJ3dMatTables : t});
    }
  }
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    const std::size_t t = sorted[i].second == kJ3dMatTables ? static_cast<std::size_t>(J3dMatTable::names) : sorted[i].second;
    const auto table = static_cast<J3dMatTable>(t);
    m.order.push_back(table);
    PathScope scope(c, table_name(table));
    if (sorted[i].first != c.pos()) {
      c.fail(ErrorCode::unsupported, "offset",
             "points to " + std::to_string(sorted[i].first) + " but the table before it ends at " + std::to_string(c.pos()));
    }
    if (i + 1 < sorted.size() && sorted[i + 1].first == sorted[i].first) {
      m.points_at_next |= 1u << t;
      continue;
    }
    const std::size_t end = i + 1 < sorted.size() ? sorted[i + 1].first : c.size();
    if (end > c.size()) c.fail(ErrorCode::bad_offset, "offset", "points past the end of the section");
    read_table(c, m, table, end, count, filler);
    m.gaps[t] = read_j3d_gap(c, filler, end, i + 1 < sorted.size() ? 4 : 32, "padding");
  }
  if (m.order.empty()) m.gaps[0] = read_j3d_gap(c, filler, c.size(), 32, "size");
  if (m.remap.size() != count || m.names.names.size() != count) {
    c.fail_at(ErrorCode::bad_value, 0x10, "remap_offset", "a MAT3 with " + std::to_string(count) +
                                                             " materials needs its remap and name tables");
  }
  return m;
}

}  // namespace remodel
