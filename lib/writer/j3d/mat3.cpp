// Writes MAT3: tables in the stored file order, offsets from where they land, fill to 4 between
// tables and to 32 at the end.
#include <string>

#include "writer/j3d/common.hpp"

namespace remodel {

namespace {

template <typename T, std::size_t N>
void put(ByteWriter& w, const std::array<T, N>& a) {
  for (T v : a) {
    if constexpr (std::is_same_v<T, float>) {
      w.f32(v);
    } else if constexpr (sizeof(T) == 2) {
      w.u16(static_cast<std::uint16_t>(v));
    } else {
      w.u8(static_cast<std::uint8_t>(v));
    }
  }
}

void write(ByteWriter& w, const J3dMaterialEntry& e, std::size_t index) {
  for (std::uint8_t v : {e.flag, e.cull, e.channel_count, e.texgen_count, e.tev_stage_count, e.zcompare_location, e.zmode, e.dither}) w.u8(v);
  put(w, e.material_colors);
  put(w, e.color_channels);
  put(w, e.ambient_colors);
  put(w, e.lights);
  put(w, e.texgens);
  put(w, e.post_texgens);
  put(w, e.tex_matrices);
  put(w, e.post_tex_matrices);
  put(w, e.textures);
  put(w, e.tev_kcolors);
  put(w, e.kcolor_selections);
  put(w, e.kalpha_selections);
  put(w, e.tev_orders);
  put(w, e.tev_colors);
  put(w, e.tev_stages);
  put(w, e.swap_modes);
  put(w, e.swap_tables);
  for (std::size_t k = 0; k < e.unknown_0x12c.size(); ++k) {
    w.stored_or(e.unknown_0x12c[k], std::uint8_t{0xFF}, [&] {
      return "MAT3.entry[" + std::to_string(index) + "].unknown_0x12c[" + std::to_string(k) + "]";
    });
  }
  for (std::uint16_t v : {e.fog, e.alpha_compare, e.blend, e.nbt_scale}) w.u16(v);
}

void write(ByteWriter& w, const J3dIndirectEntry& e) {
  w.u8(e.enable);
  w.u8(e.stage_count);
  put(w, e.unknown_0x02);
  for (const auto& o : e.orders) put(w, o);
  for (const J3dIndirectMatrix& m : e.matrices) {
    put(w, m.matrix);
    w.i8(m.exponent);
    put(w, m.unknown_0x19);
  }
  for (const auto& s : e.scales) put(w, s);
  for (const auto& s : e.stages) put(w, s);
}

void write(ByteWriter& w, std::uint32_t v) { w.u32(v); }
void write(ByteWriter& w, std::uint16_t v) { w.u16(v); }
void write(ByteWriter& w, std::uint8_t v) { w.u8(v); }
void write(ByteWriter& w, const J3dColor8& v) { put(w, v); }  // also J3dSwapTable
void write(ByteWriter& w, const J3dTevColor& v) { put(w, v); }

void write(ByteWriter& w, const J3dColorChannel& v) {
  for (std::uint8_t b : {v.enable, v.material_source, v.light_mask, v.diffuse_function, v.attenuation_function, v.ambient_source}) w.u8(b);
  put(w, v.unknown_0x06);
}

void write(ByteWriter& w, const J3dLight& v) {
  put(w, v.position);
  put(w, v.direction);
  put(w, v.color);
  put(w, v.cos_attenuation);
  put(w, v.distance_attenuation);
}

void write(ByteWriter& w, const J3dTexGen& v) {
  for (std::uint8_t b : {v.type, v.source, v.matrix, v.unknown_0x03}) w.u8(b);
}

void write(ByteWriter& w, const J3dTexMatrix& v) {
  w.u8(v.projection);
  w.u8(v.info);
  w.u16(v.unknown_0x02);
  put(w, v.center);
  put(w, v.scale);
  w.i16(v.rotation);
  w.u16(v.unknown_0x1a);
  put(w, v.translation);
  put(w, v.effect_matrix);
}

void write(ByteWriter& w, const J3dTevOrder& v) {
  for (std::uint8_t b : {v.texcoord, v.texmap, v.channel, v.unknown_0x03}) w.u8(b);
}

void write(ByteWriter& w, const J3dTevStage& v) {
  w.u8(v.unknown_0x00);
  put(w, v.color_in);
  for (std::uint8_t b : {v.color_op, v.color_bias, v.color_scale, v.color_clamp, v.color_register}) w.u8(b);
  put(w, v.alpha_in);
  for (std::uint8_t b : {v.alpha_op, v.alpha_bias, v.alpha_scale, v.alpha_clamp, v.alpha_register, v.unknown_0x13}) w.u8(b);
}

void write(ByteWriter& w, const J3dSwapMode& v) {
  w.u8(v.raster);
  w.u8(v.texture);
  put(w, v.unknown_0x02);
}

void write(ByteWriter& w, const J3dFog& v) {
  w.u8(v.type);
  w.u8(v.enable);
  w.u16(v.center);
  for (float f : {v.start_z, v.end_z, v.near_z, v.far_z}) w.f32(f);
  put(w, v.color);
  put(w, v.range_adjustment);
}

void write(ByteWriter& w, const J3dAlphaCompare& v) {
  for (std::uint8_t b : {v.compare0, v.reference0, v.operation, v.compare1, v.reference1}) w.u8(b);
  put(w, v.unknown_0x05);
}

void write(ByteWriter& w, const J3dBlend& v) {
  for (std::uint8_t b : {v.type, v.source, v.destination, v.operation}) w.u8(b);
}

void write(ByteWriter& w, const J3dZMode& v) {
  for (std::uint8_t b : {v.enable, v.function, v.update, v.unknown_0x03}) w.u8(b);
}

void write(ByteWriter& w, const J3dNbtScale& v) {
  w.u8(v.enable);
  put(w, v.unknown_0x01);
  put(w, v.scale);
}

template <typename T>
void write_all(ByteWriter& w, const std::vector<T>& items) {
  for (const T& item : items) write(w, item);
}

void write_table(ByteWriter& w, const J3dMat3& m, J3dMatTable t) {
  switch (t) {
    case J3dMatTable::entries:
      for (std::size_t i = 0; i < m.entries.size(); ++i) write(w, m.entries[i], i);
      break;
    case J3dMatTable::remap: write_all(w, m.remap); break;
    case J3dMatTable::names: write_j3d_names(w, m.names); break;
    case J3dMatTable::indirect: write_all(w, m.indirect); break;
    case J3dMatTable::cull: write_all(w, m.cull_modes); break;
    case J3dMatTable::material_color: write_all(w, m.material_colors); break;
    case J3dMatTable::channel_count: write_all(w, m.channel_counts); break;
    case J3dMatTable::color_channel: write_all(w, m.color_channels); break;
    case J3dMatTable::ambient_color: write_all(w, m.ambient_colors); break;
    case J3dMatTable::light: write_all(w, m.lights); break;
    case J3dMatTable::texgen_count: write_all(w, m.texgen_counts); break;
    case J3dMatTable::texgen: write_all(w, m.texgens); break;
    case J3dMatTable::post_texgen: write_all(w, m.post_texgens); break;
    case J3dMatTable::tex_matrix: write_all(w, m.tex_matrices); break;
    case J3dMatTable::post_tex_matrix: write_all(w, m.post_tex_matrices); break;
    case J3dMatTable::texture: write_all(w, m.textures); break;
    case J3dMatTable::tev_order: write_all(w, m.tev_orders); break;
    case J3dMatTable::tev_color: write_all(w, m.tev_colors); break;
    case J3dMatTable::tev_kcolor: write_all(w, m.tev_kcolors); break;
    case J3dMatTable::tev_stage_count: write_all(w, m.tev_stage_counts); break;
    case J3dMatTable::tev_stage: write_all(w, m.tev_stages); break;
    case J3dMatTable::swap_mode: write_all(w, m.swap_modes); break;
    case J3dMatTable::swap_table: write_all(w, m.swap_tables); break;
    case J3dMatTable::fog: write_all(w, m.fogs); break;
    case J3dMatTable::alpha_compare: write_all(w, m.alpha_compares); break;
    case J3dMatTable::blend: write_all(w, m.blends); break;
    case J3dMatTable::zmode: write_all(w, m.zmodes); break;
    case J3dMatTable::zcompare_location: write_all(w, m.zcompare_locations); break;
    case J3dMatTable::dither: write_all(w, m.dithers); break;
    case J3dMatTable::nbt_scale: write_all(w, m.nbt_scales); break;
  }
}

}  // namespace

void write_j3d_mat3(ByteWriter& w, const J3dMat3& m, std::size_t base, const std::string& filler) {
  if (m.remap.size() > 0xFFFF || m.names.names.size() != m.remap.size()) w.fail("MAT3", "needs one name per material");
  w.u16(static_cast<std::uint16_t>(m.remap.size()));
  w.u16(m.unknown_0x0a);
  const std::size_t offsets_at = w.pos();
  w.fill(4 * kJ3dMatTables, 0);
  std::uint32_t listed = 0;
  for (std::size_t i = 0; i < m.order.size(); ++i) {
    const auto t = static_cast<std::size_t>(m.order[i]);
    if (t >= kJ3dMatTables || (listed & (1u << t))) w.fail("MAT3.order", "lists a table twice or one that does not exist");
    listed |= 1u << t;
    w.patch_u32(offsets_at + 4 * t, static_cast<std::uint32_t>(w.pos() - base));
    if (m.points_at_next & (1u << t)) {
      if (j3d_mat_table_size(m, m.order[i]) != 0 || i + 1 == m.order.size()) {
        w.fail("MAT3.order", "a table that shares the next table's offset must be empty and not last");
      }
      continue;
    }
    w.mark([&] { return "MAT3.table[" + std::to_string(t) + "]"; });
    write_table(w, m, m.order[i]);
    write_j3d_gap(w, filler, i + 1 < m.order.size() ? 4 : 32, base, m.gaps[t], [t] { return "MAT3.gaps[" + std::to_string(t) + "]"; });
  }
  for (std::size_t t = 0; t < kJ3dMatTables; ++t) {
    if (!(listed & (1u << t)) && j3d_mat_table_size(m, static_cast<J3dMatTable>(t)) != 0) {
      w.fail("MAT3.order", "a table with records is missing from the layout order");
    }
  }
  if (m.order.empty()) write_j3d_gap(w, filler, 32, base, m.gaps[0], [] { return std::string("MAT3.gaps[0]"); });
}

}  // namespace remodel
