// J3D BMD/BDL as JSON, for `remodel dump`: every section with its fields, gaps and raw bytes.
#include "model/j3d/j3d.hpp"
#include "model/json_fields.hpp"

namespace remodel {

using namespace json_fields;

namespace {

Json j3d_nodes(const std::vector<J3dNode>& nodes) {
  Json a = Json::array();
  for (const J3dNode& n : nodes) {
    static const char* const kinds[3] = {"joint", "material", "shape"};
    Json j{{"type", n.type >= 0x10 && n.type <= 0x12 ? Json(kinds[n.type - 0x10]) : Json(n.type)}, {"index", n.index}};
    if (!n.children.empty()) j["children"] = j3d_nodes(n.children);
    a.push_back(j);
  }
  return a;
}

// Bytes kept where they are not the fill, as stored: the fill where none is kept.
template <std::size_t N>
Json unfilled(const std::array<std::optional<std::uint8_t>, N>& a) {
  Bytes b;
  for (const std::optional<std::uint8_t>& v : a) b.push_back(v.value_or(0xFF));
  return hex(b);
}

template <std::size_t N>
Json u16s(const std::array<std::uint16_t, N>& a) {
  return Json(std::vector<std::uint16_t>(a.begin(), a.end()));
}

Json mat_entry_json(const J3dMaterialEntry& e) {
  return Json{{"flag", e.flag}, {"cull", e.cull}, {"channel_count", e.channel_count}, {"texgen_count", e.texgen_count},
              {"tev_stage_count", e.tev_stage_count}, {"zcompare_location", e.zcompare_location}, {"zmode", e.zmode},
              {"dither", e.dither}, {"material_colors", u16s(e.material_colors)},
              {"color_channels", u16s(e.color_channels)}, {"ambient_colors", u16s(e.ambient_colors)},
              {"lights", u16s(e.lights)}, {"texgens", u16s(e.texgens)}, {"post_texgens", u16s(e.post_texgens)},
              {"tex_matrices", u16s(e.tex_matrices)}, {"post_tex_matrices", u16s(e.post_tex_matrices)},
              {"textures", u16s(e.textures)}, {"tev_kcolors", u16s(e.tev_kcolors)},
              {"kcolor_selections", hex(e.kcolor_selections)}, {"kalpha_selections", hex(e.kalpha_selections)},
              {"tev_orders", u16s(e.tev_orders)}, {"tev_colors", u16s(e.tev_colors)},
              {"tev_stages", u16s(e.tev_stages)}, {"swap_modes", u16s(e.swap_modes)},
              {"swap_tables", u16s(e.swap_tables)}, {"unknown_0x12c", unfilled(e.unknown_0x12c)}, {"fog", e.fog},
              {"alpha_compare", e.alpha_compare}, {"blend", e.blend}, {"nbt_scale", e.nbt_scale}};
}

Json tex_matrix_json(const J3dTexMatrix& m) {
  return Json{{"projection", m.projection}, {"info", m.info}, {"unknown_0x02", m.unknown_0x02},
              {"center", floats(m.center)}, {"scale", floats(m.scale)}, {"rotation", m.rotation},
              {"unknown_0x1a", m.unknown_0x1a}, {"translation", floats(m.translation)},
              {"effect_matrix", floats(m.effect_matrix)}};
}

Json mat3_json(const J3dMat3& m) {
  Json j = Json::object();
  Json entries = Json::array();
  for (const J3dMaterialEntry& e : m.entries) entries.push_back(mat_entry_json(e));
  j["materials"] = texts(m.names.names);
  j["remap"] = m.remap;
  j["entries"] = entries;
  Json indirect = Json::array();
  for (const J3dIndirectEntry& e : m.indirect) {
    Json mats = Json::array();
    for (const J3dIndirectMatrix& im : e.matrices) mats.push_back(Json{{"matrix", floats(im.matrix)}, {"exponent", im.exponent}});
    Json stages = Json::array();
    for (const auto& st : e.stages) stages.push_back(hex(st));
    Json orders = Json::array();
    for (const auto& o : e.orders) orders.push_back(hex(o));
    Json scales = Json::array();
    for (const auto& sc : e.scales) scales.push_back(hex(sc));
    indirect.push_back(Json{{"enable", e.enable}, {"stage_count", e.stage_count}, {"orders", orders},
                            {"matrices", mats}, {"scales", scales}, {"stages", stages}});
  }
  j["indirect"] = indirect;
  j["cull_modes"] = m.cull_modes;
  j["material_colors"] = m.material_colors;
  j["channel_counts"] = m.channel_counts;
  Json channels = Json::array();
  for (const J3dColorChannel& c : m.color_channels) {
    channels.push_back(Json{{"enable", c.enable}, {"material_source", c.material_source}, {"light_mask", c.light_mask},
                            {"diffuse_function", c.diffuse_function}, {"attenuation_function", c.attenuation_function},
                            {"ambient_source", c.ambient_source}});
  }
  j["color_channels"] = channels;
  j["ambient_colors"] = m.ambient_colors;
  Json lights = Json::array();
  for (const J3dLight& l : m.lights) {
    lights.push_back(Json{{"position", floats(l.position)}, {"direction", floats(l.direction)}, {"color", l.color},
                          {"cos_attenuation", floats(l.cos_attenuation)}, {"distance_attenuation", floats(l.distance_attenuation)}});
  }
  j["lights"] = lights;
  j["texgen_counts"] = m.texgen_counts;
  const auto texgens = [](const std::vector<J3dTexGen>& v) {
    Json a = Json::array();
    for (const J3dTexGen& g : v) a.push_back(Json{{"type", g.type}, {"source", g.source}, {"matrix", g.matrix}});
    return a;
  };
  j["texgens"] = texgens(m.texgens);
  j["post_texgens"] = texgens(m.post_texgens);
  Json tm = Json::array();
  for (const J3dTexMatrix& t : m.tex_matrices) tm.push_back(tex_matrix_json(t));
  j["tex_matrices"] = tm;
  Json ptm = Json::array();
  for (const J3dTexMatrix& t : m.post_tex_matrices) ptm.push_back(tex_matrix_json(t));
  j["post_tex_matrices"] = ptm;
  j["textures"] = m.textures;
  Json orders = Json::array();
  for (const J3dTevOrder& o : m.tev_orders) orders.push_back(Json{{"texcoord", o.texcoord}, {"texmap", o.texmap}, {"channel", o.channel}});
  j["tev_orders"] = orders;
  j["tev_colors"] = m.tev_colors;
  j["tev_kcolors"] = m.tev_kcolors;
  j["tev_stage_counts"] = m.tev_stage_counts;
  Json stages = Json::array();
  for (const J3dTevStage& t : m.tev_stages) {
    stages.push_back(Json{{"unknown_0x00", t.unknown_0x00}, {"color_in", t.color_in}, {"color_op", t.color_op},
                          {"color_bias", t.color_bias}, {"color_scale", t.color_scale}, {"color_clamp", t.color_clamp},
                          {"color_register", t.color_register}, {"alpha_in", t.alpha_in}, {"alpha_op", t.alpha_op},
                          {"alpha_bias", t.alpha_bias}, {"alpha_scale", t.alpha_scale}, {"alpha_clamp", t.alpha_clamp},
                          {"alpha_register", t.alpha_register}, {"unknown_0x13", t.unknown_0x13}});
  }
  j["tev_stages"] = stages;
  Json swaps = Json::array();
  for (const J3dSwapMode& sm : m.swap_modes) swaps.push_back(Json{{"raster", sm.raster}, {"texture", sm.texture}});
  j["swap_modes"] = swaps;
  j["swap_tables"] = m.swap_tables;
  Json fogs = Json::array();
  for (const J3dFog& f : m.fogs) {
    fogs.push_back(Json{{"type", f.type}, {"enable", f.enable}, {"center", f.center}, {"start_z", number(f.start_z)},
                        {"end_z", number(f.end_z)}, {"near_z", number(f.near_z)}, {"far_z", number(f.far_z)},
                        {"color", f.color}, {"range_adjustment", f.range_adjustment}});
  }
  j["fogs"] = fogs;
  Json alphas = Json::array();
  for (const J3dAlphaCompare& a : m.alpha_compares) {
    alphas.push_back(Json{{"compare0", a.compare0}, {"reference0", a.reference0}, {"operation", a.operation},
                          {"compare1", a.compare1}, {"reference1", a.reference1}});
  }
  j["alpha_compares"] = alphas;
  Json blends = Json::array();
  for (const J3dBlend& b : m.blends) blends.push_back(Json{{"type", b.type}, {"source", b.source}, {"destination", b.destination}, {"operation", b.operation}});
  j["blends"] = blends;
  Json zmodes = Json::array();
  for (const J3dZMode& z : m.zmodes) zmodes.push_back(Json{{"enable", z.enable}, {"function", z.function}, {"update", z.update}});
  j["zmodes"] = zmodes;
  j["zcompare_locations"] = m.zcompare_locations;
  j["dithers"] = m.dithers;
  Json nbts = Json::array();
  for (const J3dNbtScale& n : m.nbt_scales) nbts.push_back(Json{{"enable", n.enable}, {"scale", floats(n.scale)}});
  j["nbt_scales"] = nbts;
  Json order = Json::array();
  for (J3dMatTable t : m.order) order.push_back(static_cast<int>(t));
  j["order"] = order;
  j["points_at_next"] = m.points_at_next;
  Json gaps = Json::object();
  for (std::size_t t = 0; t < kJ3dMatTables; ++t) {
    if (m.gaps[t].stored()) gaps[std::to_string(t)] = hex(m.gaps[t].bytes());
  }
  if (!gaps.empty()) j["gaps"] = gaps;
  return j;
}

Json j3d_section_json(const J3dSection& s) {
  Json j{{"magic", json_text(j3d_section_magic(s))}};
  if (const auto* inf = std::get_if<J3dInf1>(&s)) {
    j["flags"] = inf->flags;
    j["unknown_0x0a"] = inf->unknown_0x0a;
    optional_field(j, "stored_packet_count", inf->stored_packet_count);
    optional_field(j, "stored_vertex_count", inf->stored_vertex_count);
    j["hierarchy"] = j3d_nodes(inf->roots);
    verbatim(j, "gap_after_hierarchy", inf->gap_after_hierarchy);
  } else if (const auto* vtx = std::get_if<J3dVtx1>(&s)) {
    Json formats = Json::array();
    for (const J3dVertexFormat& f : vtx->formats) {
      formats.push_back(Json{{"attribute", f.attribute}, {"components", f.components}, {"type", f.type},
                             {"frac", f.frac}, {"unknown_0x0d", hex(f.unknown_0x0d)}});
    }
    Json arrays = Json::array();
    for (const J3dVertexArray& a : vtx->arrays) {
      Json ja{{"slot", a.slot}, {"data", hex(a.data)}};
      verbatim(ja, "gap_after", a.gap_after);
      arrays.push_back(ja);
    }
    j["formats"] = formats;
    j["arrays"] = arrays;
    verbatim(j, "gap_after_formats", vtx->gap_after_formats);
  } else if (const auto* evp = std::get_if<J3dEvp1>(&s)) {
    Json envelopes = Json::array();
    for (const J3dEnvelope& e : evp->envelopes) envelopes.push_back(Json{{"joints", e.joints}, {"weights", floats(e.weights)}});
    Json matrices = Json::array();
    for (const auto& m : evp->inverse_binds) matrices.push_back(floats(m));
    j["unknown_0x0a"] = evp->unknown_0x0a;
    j["envelopes"] = envelopes;
    j["inverse_binds"] = matrices;
    verbatim(j, "gap_after_indices", evp->gap_after_indices);
    verbatim(j, "gap_after_matrices", evp->gap_after_matrices);
  } else if (const auto* drw = std::get_if<J3dDrw1>(&s)) {
    j["unknown_0x0a"] = drw->unknown_0x0a;
    j["weighted"] = drw->weighted;
    j["indices"] = drw->indices;
    verbatim(j, "gap_after_flags", drw->gap_after_flags);
    verbatim(j, "gap_after_indices", drw->gap_after_indices);
  } else if (const auto* jnt = std::get_if<J3dJnt1>(&s)) {
    Json joints = Json::array();
    for (std::size_t i = 0; i < jnt->joints.size(); ++i) {
      const J3dJoint& jt = jnt->joints[i];
      joints.push_back(Json{{"name", json_text(i < jnt->names.names.size() ? jnt->names.names[i] : "")},
                            {"flags", jt.flags}, {"inherit_scale", jt.inherit_scale},
                            {"unknown_0x03", jt.unknown_0x03}, {"scale", floats(jt.scale)},
                            {"rotation", jt.rotation}, {"unknown_0x16", jt.unknown_0x16},
                            {"translation", floats(jt.translation)}, {"radius", number(jt.radius)},
                            {"min", floats(jt.min)}, {"max", floats(jt.max)}});
    }
    j["unknown_0x0a"] = jnt->unknown_0x0a;
    j["joints"] = joints;
    j["remap"] = jnt->remap;
    verbatim(j, "gap_after_remap", jnt->gap_after_remap);
    verbatim(j, "gap_after_names", jnt->gap_after_names);
  } else if (const auto* shp = std::get_if<J3dShp1>(&s)) {
    Json shapes = Json::array();
    for (const J3dShape& sh : shp->shapes) {
      shapes.push_back(Json{{"matrix_type", sh.matrix_type}, {"unknown_0x01", sh.unknown_0x01},
                            {"packet_count", sh.packet_count}, {"descriptors", sh.descriptors},
                            {"first_matrix_group", sh.first_matrix_group}, {"first_packet", sh.first_packet},
                            {"unknown_0x0a", sh.unknown_0x0a}, {"radius", number(sh.radius)},
                            {"min", floats(sh.min)}, {"max", floats(sh.max)}});
    }
    Json lists = Json::array();
    for (const auto& list : shp->descriptor_lists) {
      Json l = Json::array();
      for (const J3dVertexDescriptor& d : list) l.push_back(Json::array({d.attribute, d.type}));
      lists.push_back(l);
    }
    Json groups = Json::array();
    for (const J3dMatrixGroup& g : shp->matrix_groups) groups.push_back(Json{{"use_matrix", g.use_matrix}, {"count", g.count}, {"first", g.first}});
    Json packets = Json::array();
    for (const J3dPacket& p : shp->packets) {
      Json jp = Json::object();
      if (p.raw.stored()) {
        verbatim(jp, "raw", p.raw);
      } else {
        Json prims = Json::array();
        for (const J3dPrimitive& prim : p.primitives) prims.push_back(Json{{"opcode", prim.opcode}, {"values", prim.values}});
        jp["primitives"] = prims;
      }
      if (p.stored_size) jp["stored_size"] = *p.stored_size;
      packets.push_back(jp);
    }
    j["unknown_0x0a"] = shp->unknown_0x0a;
    j["shapes"] = shapes;
    j["remap"] = shp->remap;
    j["descriptor_lists"] = lists;
    if (!shp->terminator_types.empty()) {
      Json types = Json::object();
      for (const auto& [list, type] : shp->terminator_types) types[std::to_string(list)] = type;
      j["terminator_types"] = types;
    }
    j["matrix_table"] = shp->matrix_table;
    j["matrix_groups"] = groups;
    j["packets"] = packets;
    j["remap_filled_to_4"] = shp->remap_filled_to_4;
    verbatim(j, "gap_after_remap", shp->gap_after_remap);
    verbatim(j, "gap_after_matrix_table", shp->gap_after_matrix_table);
    verbatim(j, "gap_after_display_lists", shp->gap_after_display_lists);
    verbatim(j, "gap_after_tables", shp->gap_after_tables);
  } else if (const auto* mdl = std::get_if<J3dMdl3>(&s)) {
    Json packets = Json::array();
    for (const J3dMdlPacket& p : mdl->packets) {
      Json jp = Json::object();
      if (p.raw.stored()) {
        verbatim(jp, "raw", p.raw);
      } else {
        Json cmds = Json::array();
        for (const J3dGxCommand& cmd : p.commands) cmds.push_back(Json::array({cmd.opcode, hex(cmd.args)}));
        jp["commands"] = cmds;
      }
      if (p.stored_size) jp["stored_size"] = *p.stored_size;
      packets.push_back(jp);
    }
    Json subpackets = Json::array();
    for (const J3dMdlSubpacket& sp : mdl->subpackets) subpackets.push_back(Json{{"offsets", sp.offsets}, {"unknown_0x0c", sp.unknown_0x0c}});
    j["unknown_0x0a"] = mdl->unknown_0x0a;
    j["names"] = texts(mdl->names.names);
    j["packets"] = packets;
    j["subpackets"] = subpackets;
    j["matrix_info"] = mdl->matrix_info;
    j["pe_modes"] = mdl->pe_modes;
    j["indices"] = mdl->indices;
    verbatim(j, "gap_after_header", mdl->gap_after_header);
    verbatim(j, "gap_after_packet_table", mdl->gap_after_packet_table);
    verbatim(j, "gap_after_pe_modes", mdl->gap_after_pe_modes);
    verbatim(j, "gap_after_indices", mdl->gap_after_indices);
    verbatim(j, "gap_after_names", mdl->gap_after_names);
  } else if (const auto* tex = std::get_if<J3dTex1>(&s)) {
    Json textures = Json::array();
    for (std::size_t i = 0; i < tex->textures.size(); ++i) {
      const J3dTexture& t = tex->textures[i];
      textures.push_back(Json{{"name", json_text(i < tex->names.names.size() ? tex->names.names[i] : "")},
                              {"format", t.format}, {"alpha", t.alpha}, {"width", t.width}, {"height", t.height},
                              {"wrap_s", t.wrap_s}, {"wrap_t", t.wrap_t}, {"palette_enable", t.palette_enable},
                              {"palette_format", t.palette_format}, {"palette_count", t.palette_count},
                              {"palette_block", t.palette_block ? Json(*t.palette_block) : Json()},
                              {"mip_enable", t.mip_enable}, {"edge_lod", t.edge_lod}, {"bias_clamp", t.bias_clamp},
                              {"max_aniso", t.max_aniso}, {"min_filter", t.min_filter}, {"mag_filter", t.mag_filter},
                              {"min_lod", t.min_lod}, {"max_lod", t.max_lod}, {"mip_count", t.mip_count},
                              {"unknown_0x19", t.unknown_0x19.value_or(0)}, {"lod_bias", t.lod_bias}, {"image_block", t.image_block}});
    }
    Json blocks = Json::array();
    for (const J3dTexBlock& b : tex->blocks) {
      Json jb{{"data", hex(b.data)}};
      verbatim(jb, "gap_after", b.gap_after);
      blocks.push_back(jb);
    }
    j["unknown_0x0a"] = tex->unknown_0x0a;
    j["textures"] = textures;
    j["blocks"] = blocks;
    verbatim(j, "gap_after_header", tex->gap_after_header);
    verbatim(j, "gap_after_names", tex->gap_after_names);
  } else if (const auto* mat = std::get_if<J3dMat3>(&s)) {
    j.update(mat3_json(*mat));
  } else if (const auto* raw = std::get_if<J3dRawSection>(&s)) {
    j["body"] = hex(ByteSpan(raw->stored.bytes()).subspan(std::min<std::size_t>(raw->stored.size(), 8)));
  }
  return j;
}

Json j3d_json(const J3dFile& f) {
  Json sections = Json::array();
  for (const J3dSection& s : f.sections) sections.push_back(j3d_section_json(s));
  return Json{{"type", json_text(fixed_string(f.type))}, {"header_0x10", hex(f.header_0x10)}, {"padding", json_text(f.padding)},
              {"sections", sections}};
}

}  // namespace

void add_json(const J3dFile& f, Json& out) {
  out["j3d"] = j3d_json(f);
}

}  // namespace remodel
