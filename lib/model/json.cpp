#include "model/json.hpp"

#include <bit>
#include <cmath>

#include "model/psp_vertex.hpp"

namespace remodel {

using Json = nlohmann::ordered_json;

namespace {

// NaN and infinities are not JSON numbers: they are written as their bits.
Json number(float f) {
  if (std::isfinite(f)) return f;
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", std::bit_cast<std::uint32_t>(f));
  return buf;
}

template <typename Range>
Json floats(const Range& r) {
  Json a = Json::array();
  for (float f : r) a.push_back(number(f));
  return a;
}

template <std::size_t N>
Json name(const std::array<std::uint8_t, N>& n) {
  const std::string s = fixed_string(n);
  Json j = json_text(s);
  // Bytes after the terminator are shown too when they are not zeros, so nothing is hidden.
  for (std::size_t i = s.size(); i < N; ++i) {
    if (n[i] != 0) {
      if (!j.is_object()) j = Json{{"text", j}};
      j["bytes"] = hex(n);
      return j;
    }
  }
  return j;
}

Json texts(const std::vector<std::string>& names) {
  Json a = Json::array();
  for (const std::string& n : names) a.push_back(json_text(n));
  return a;
}

template <typename T>
void optional_field(Json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

void verbatim(Json& j, const char* key, const Bytes& b) {
  if (!b.empty()) j[key] = hex(b);
}

void verbatim_list(Json& j, const char* key, const std::vector<Bytes>& runs) {
  if (runs.empty()) return;
  Json a = Json::array();
  for (const Bytes& b : runs) a.push_back(hex(b));
  j[key] = a;
}

Json tim2_json(const Tim2& t) {
  Json j{{"version", t.version}, {"format", t.format}, {"unknown_0x08", hex(t.unknown_0x08)}};
  Json pics = Json::array();
  for (const Tim2Picture& p : t.pictures) {
    Json pj{{"width", p.width},
            {"height", p.height},
            {"image_type", p.image_type},
            {"clut_type", p.clut_type},
            {"clut_colors", p.clut_colors},
            {"pict_format", p.pict_format},
            {"mipmap_count", p.mipmap_count},
            {"gs_tex0", p.gs_tex0},
            {"gs_tex1", p.gs_tex1},
            {"gs_texa_fba_pabe", p.gs_texa_fba_pabe},
            {"gs_tex_clut", p.gs_tex_clut},
            {"image_bytes", p.image.size()},
            {"clut", hex(p.clut)}};
    verbatim(pj, "extended_header", p.extended_header);
    optional_field(pj, "stored_total_size", p.stored_total_size);
    optional_field(pj, "stored_clut_size", p.stored_clut_size);
    pics.push_back(pj);
  }
  j["pictures"] = pics;
  return j;
}

Json texture_info_json(const PmoTextureInfo& t) {
  Json j{{"tim2", t.tim2 ? Json(*t.tim2) : Json()},
         {"name", name(t.name)},
         {"scroll_u", number(t.scroll_u)},
         {"scroll_v", number(t.scroll_v)},
         {"unknown_0x18", hex(t.unknown_0x18)}};
  return j;
}

Json vertex_format_json(std::uint32_t flags) {
  const psp::VertexFormat f = psp::VertexFormat::parse(flags & 0xFFFFFF);
  static const char* num[] = {"none", "8-bit", "16-bit", "float"};
  static const char* col[] = {"none", "invalid1", "invalid2", "invalid3", "5650", "5551", "4444", "8888"};
  return Json{{"texcoord", num[static_cast<int>(f.texcoord)]},
              {"color", col[static_cast<int>(f.color)]},
              {"normal", num[static_cast<int>(f.normal)]},
              {"position", num[static_cast<int>(f.position)]},
              {"weight", num[static_cast<int>(f.weight)]},
              {"weight_count", f.weight_count},
              {"primitive", flags >> 28}};
}

Json section_json(const PmoSection& s) {
  Json j{{"texture", s.texture},
         {"vertex_flags", s.vertex_flags},
         {"vertex_format", vertex_format_json(s.vertex_flags)},
         {"group", s.group},
         {"attribute", s.attribute},
         {"vertex_count", s.vertex_count()},
         {"vertex_size", s.vertex_size()}};
  if (s.joints) j["joints"] = *s.joints;
  optional_field(j, "diffuse", s.diffuse);
  j["strip_lengths"] = s.strip_lengths;
  j["vertices"] = hex(s.vertices);
  optional_field(j, "stored_vertex_size", s.stored_vertex_size);
  verbatim(j, "end_padding", s.end_padding);
  return j;
}

Json bon_json(const Bon& b) {
  Json joints = Json::array();
  for (const BonJoint& jt : b.joints) {
    joints.push_back(Json{{"index", jt.index},
                          {"unknown_0x02", jt.unknown_0x02},
                          {"parent", jt.parent},
                          {"unknown_0x06", jt.unknown_0x06},
                          {"skin_index", jt.skin_index},
                          {"unknown_0x0a", jt.unknown_0x0a},
                          {"unknown_0x0c", jt.unknown_0x0c},
                          {"name", name(jt.name)},
                          {"local", floats(jt.local)},
                          {"inverse_bind", floats(jt.inverse_bind)}});
  }
  Json j{{"unknown_0x04", b.unknown_0x04},
         {"unknown_0x0a", b.unknown_0x0a},
         {"standard_bone_count", b.standard_bone_count},
         {"joints", joints}};
  optional_field(j, "stored_skinned_count", b.stored_skinned_count);
  return j;
}

Json pmo_json(const Pmo& p) {
  Json bbox = Json::array();
  for (const auto& c : p.bounding_box) bbox.push_back(floats(c));
  Json j{{"number", p.number},   {"group", p.group},
         {"version", p.version}, {"unknown_0x07", p.unknown_0x07},
         {"unknown_0x09", p.unknown_0x09}, {"flag", p.flag},
         {"scale", number(p.scale)}, {"triangle_count", p.triangle_count()},
         {"vertex_count", p.vertex_count()}, {"bounding_box", bbox}};
  Json textures = Json::array();
  for (const PmoTextureInfo& t : p.textures) textures.push_back(texture_info_json(t));
  j["textures"] = textures;
  const char* keys[] = {"mesh0", "mesh1"};
  int k = 0;
  for (const auto* list : {&p.mesh0, &p.mesh1}) {
    const char* key = keys[k++];
    if (!list->has_value()) {
      j[key] = nullptr;
      continue;
    }
    Json sections = Json::array();
    for (const PmoSection& s : (*list)->sections) sections.push_back(section_json(s));
    Json lj{{"sections", sections}};
    verbatim(lj, "end_verbatim", (*list)->end_verbatim);
    j[key] = lj;
  }
  Json tims = Json::array();
  for (const Tim2& t : p.tim2s) tims.push_back(tim2_json(t));
  j["tim2s"] = tims;
  j["skeleton"] = p.skeleton ? bon_json(*p.skeleton) : Json();
  optional_field(j, "stored_triangle_count", p.stored_triangle_count);
  optional_field(j, "stored_vertex_count", p.stored_vertex_count);
  verbatim(j, "gap_before_mesh0", p.gap_before_mesh0);
  verbatim(j, "gap_before_mesh1", p.gap_before_mesh1);
  verbatim(j, "gap_before_skeleton", p.gap_before_skeleton);
  verbatim_list(j, "gaps_before_tim2", p.gaps_before_tim2);
  return j;
}

Json pmp_json(const Pmp& p) {
  Json objects = Json::array();
  for (const PmpObject& o : p.objects) {
    objects.push_back(Json{{"position", floats(o.position)},
                           {"rotation", floats(o.rotation)},
                           {"scale", floats(o.scale)},
                           {"pmo", o.pmo ? Json(*o.pmo) : Json()},
                           {"unknown_0x28", o.unknown_0x28},
                           {"flags", o.flags},
                           {"id", o.id}});
  }
  Json pmos = Json::array();
  for (const Pmo& m : p.pmos) pmos.push_back(pmo_json(m));
  Json textures = Json::array();
  for (const PmoTextureInfo& t : p.textures) textures.push_back(texture_info_json(t));
  Json tims = Json::array();
  for (const Tim2& t : p.tim2s) tims.push_back(tim2_json(t));
  Json j{{"version", p.version}, {"unknown_0x06", hex(p.unknown_0x06)}, {"flag", p.flag},
         {"unknown_0x14", hex(p.unknown_0x14)}, {"objects", objects}, {"pmos", pmos},
         {"textures", textures}, {"tim2s", tims}};
  optional_field(j, "stored_model_count", p.stored_model_count);
  verbatim_list(j, "gaps_before_pmo", p.gaps_before_pmo);
  verbatim(j, "gap_before_texture_list", p.gap_before_texture_list);
  verbatim_list(j, "gaps_before_tim2", p.gaps_before_tim2);
  verbatim(j, "tail", p.tail);
  return j;
}

Json pam_animation_json(const PamAnimation& a) {
  Json bones = Json::array();
  for (const PamBone& b : a.bones) {
    Json channels = Json::object();
    for (std::size_t k = 0; k < kPamChannelKinds; ++k) {
      const auto& c = b.channels[k];
      if (!c) continue;
      Json ch{{"max", number(c->max)}, {"min", number(c->min)}};
      if (c->constant) {
        ch["constant"] = true;
      } else {
        Json keys = Json::array();
        for (const PamKey& key : c->keys) keys.push_back(Json::array({key.frame, key.value}));
        ch["keys"] = keys;  // [frame, quantised value]
      }
      channels[pam_channel_name(static_cast<PamChannelKind>(k))] = ch;
    }
    bones.push_back(Json{{"flags", b.flags()}, {"channels", channels}});
  }
  Json j{{"flag", a.flag},           {"fps", a.fps},
         {"interpolation_frames", a.interpolation_frames},
         {"loop_from", a.loop_from}, {"unknown_0x07", a.unknown_0x07},
         {"frame_count", a.frame_count}, {"loop_to", a.loop_to},
         {"bones", bones}};
  if (a.stored_padding) j["stored_padding"] = hex(*a.stored_padding);
  return j;
}

Json pam_json(const Pam& p) {
  Json entries = Json::array();
  for (const PamEntry& e : p.entries) {
    entries.push_back(Json{{"name", name(e.name)}, {"animation", e.animation ? Json(*e.animation) : Json()}});
  }
  Json animations = Json::array();
  for (const PamAnimation& a : p.animations) animations.push_back(pam_animation_json(a));
  Json j{{"unknown_0x08", hex(p.unknown_0x08)}, {"version", p.version}, {"entries", entries},
         {"animations", animations}};
  verbatim(j, "gap_before_first", p.gap_before_first);
  return j;
}

const char* ge_name(std::uint8_t op) {
  switch (op) {
    case psp::ge::kNop: return "NOP";
    case psp::ge::kVaddr: return "VADDR";
    case psp::ge::kIaddr: return "IADDR";
    case psp::ge::kPrim: return "PRIM";
    case psp::ge::kRet: return "RET";
    case psp::ge::kBase: return "BASE";
    case psp::ge::kVtype: return "VTYPE";
    case psp::ge::kOffset: return "OFFSET";
    case psp::ge::kOrigin: return "ORIGIN";
    case psp::ge::kFface: return "FFACE";
    default: return nullptr;
  }
}

Json mhfu_pmo_json(const MhfuPmo& p) {
  Json meshes = Json::array();
  for (const MhfuMesh& m : p.meshes) {
    meshes.push_back(Json{{"uv_scale", floats(m.uv_scale)}, {"lighting_flags", m.lighting_flags},
                          {"blend", m.blend}, {"material_count", m.material_count},
                          {"unknown_0x11", m.unknown_0x11}, {"material_start", m.material_start},
                          {"group_count", m.group_count}, {"group_start", m.group_start}});
  }
  Json groups = Json::array();
  for (const MhfuGroup& g : p.groups) {
    groups.push_back(Json{{"material_offset", g.material_offset}, {"bone_count", g.bone_count},
                          {"bone_start", g.bone_start}, {"block", g.block}});
  }
  Json palette = Json::array();
  for (const MhfuPaletteEntry& e : p.bone_palette) palette.push_back(Json::array({e.slot, e.bone}));
  Json materials = Json::array();
  for (const MhfuMaterial& m : p.materials) {
    materials.push_back(Json{{"color", m.color}, {"shadow", m.shadow}, {"texture", m.texture},
                             {"unknown_0x09", hex(m.unknown_0x09)}, {"reserved", m.reserved}});
  }
  Json blocks = Json::array();
  for (const MhfuBlock& b : p.blocks) {
    Json commands = Json::array();
    for (const psp::GeCommand& c : b.commands) {
      const char* n = ge_name(c.op());
      char op[8];
      std::snprintf(op, sizeof op, "0x%02x", c.op());
      commands.push_back(Json::array({n != nullptr ? n : op, c.arg()}));
    }
    Json jb{{"commands", commands}, {"vertices", hex(b.vertices)}, {"indices", hex(b.indices)}};
    verbatim(jb, "gap_after_list", b.gap_after_list);
    verbatim(jb, "gap_after_vertices", b.gap_after_vertices);
    verbatim(jb, "gap_after_block", b.gap_after_block);
    blocks.push_back(jb);
  }
  Json j{{"version", json_text(fixed_string(p.version))}, {"clip_distance", number(p.clip_distance)},
         {"scale", floats(p.scale)}, {"unknown_0x38", hex(p.unknown_0x38)}, {"meshes", meshes},
         {"groups", groups}, {"remap", hex(p.remap)}, {"bone_palette", palette},
         {"materials", materials}, {"blocks", blocks}};
  verbatim(j, "gap_after_header", p.gap_after_header);
  verbatim(j, "gap_after_meshes", p.gap_after_meshes);
  verbatim(j, "gap_after_groups", p.gap_after_groups);
  verbatim(j, "gap_after_remap", p.gap_after_remap);
  verbatim(j, "gap_after_palette", p.gap_after_palette);
  verbatim(j, "gap_after_materials", p.gap_after_materials);
  verbatim(j, "gap_before_blocks", p.gap_before_blocks);
  return j;
}

Json mhfu_skeleton_json(const MhfuSkeleton& s) {
  Json bones = Json::array();
  for (const MhfuBone& b : s.bones) {
    Json jb{{"tag", b.tag},          {"unknown_0x04", b.unknown_0x04}, {"index", b.index},
            {"parent", b.parent},    {"child", b.child},               {"sibling", b.sibling},
            {"scale", floats(b.scale)}, {"rotation", floats(b.rotation)}, {"position", floats(b.position)},
            {"link", b.link},        {"chain_id", b.chain_id}};
    if (b.stored_trailing) jb["stored_trailing"] = hex(*b.stored_trailing);
    bones.push_back(jb);
  }
  return Json{{"parameter_tag", s.parameter_tag}, {"parameters", s.parameters}, {"bones", bones}};
}

Json tmh_json(const Tmh& t) {
  Json images = Json::array();
  for (const TmhImage& img : t.images) {
    Json j{{"unknown_0x04", img.unknown_0x04}, {"unknown_0x08", img.unknown_0x08},
           {"pixel_kind", img.pixel_kind},     {"mode", img.mode},
           {"width", img.width},               {"height", img.height},
           {"pixels", hex(img.pixels)}};
    if (img.clut) {
      j["clut"] = Json{{"kind", img.clut->kind}, {"mode", img.clut->mode},
                       {"entry_count", img.clut->entry_count}, {"data", hex(img.clut->data)}};
    }
    images.push_back(j);
  }
  return Json{{"unknown_0x0c", t.unknown_0x0c}, {"images", images}};
}

Json vec3s(const std::vector<BwmVec3>& v) {
  Json a = Json::array();
  for (const BwmVec3& p : v) a.push_back(floats(p));
  return a;
}

Json bwm_transform_json(const BwmBone& b) {
  return Json{{"zaxis", floats(b.zaxis)}, {"xaxis", floats(b.xaxis)}, {"yaxis", floats(b.yaxis)},
              {"position", floats(b.position)}};
}

Json bwm_json(const Bwm& b) {
  Json materials = Json::array();
  for (const BwmMaterial& m : b.materials) {
    materials.push_back(Json{{"diffuse", name(m.diffuse)}, {"light", name(m.light)}, {"growth", name(m.growth)},
                             {"specular", name(m.specular)}, {"animated", name(m.animated)},
                             {"normal", name(m.normal)}, {"type", name(m.type)}});
  }
  Json meshes = Json::array();
  for (const BwmMesh& m : b.meshes) {
    Json refs = Json::array();
    for (const BwmMaterialRef& r : m.material_refs) {
      refs.push_back(Json{{"material", r.material}, {"indices_offset", r.indices_offset},
                          {"indices_size", r.indices_size}, {"vertex_offset", r.vertex_offset},
                          {"vertex_size", r.vertex_size}, {"faces_offset", r.faces_offset},
                          {"faces_size", r.faces_size}, {"unknown_0x1c", r.unknown_0x1c}});
    }
    meshes.push_back(Json{{"name", name(m.name)}, {"faces_count", m.faces_count},
                          {"indices_offset", m.indices_offset}, {"indices_size", m.indices_size},
                          {"vertex_offset", m.vertex_offset}, {"vertex_size", m.vertex_size},
                          {"zaxis", floats(m.zaxis)}, {"xaxis", floats(m.xaxis)}, {"yaxis", floats(m.yaxis)},
                          {"position", floats(m.position)}, {"center", floats(m.center)},
                          {"radius", number(m.radius)}, {"box1", floats(m.box1)}, {"box2", floats(m.box2)},
                          {"unknown_0x6c", floats(m.unknown_0x6c)}, {"height", number(m.height)},
                          {"unknown_0x7c", number(m.unknown_0x7c)}, {"unknown_0x80", m.unknown_0x80},
                          {"volume", number(m.volume)}, {"unknown_0x8c", m.unknown_0x8c},
                          {"lod_level", m.lod_level}, {"unknown_0xd4", m.unknown_0xd4}, {"material_refs", refs}});
  }
  Json bones = Json::array();
  for (const BwmBone& bone : b.bones) bones.push_back(bwm_transform_json(bone));
  Json entities = Json::array();
  for (const BwmEntity& e : b.entities) {
    Json j = bwm_transform_json(e.transform);
    j["name"] = name(e.name);
    entities.push_back(j);
  }
  Json strides = Json::array();
  for (const BwmStride& s : b.strides) {
    Json attrs = Json::array();
    for (const BwmAttribute& a : s.attributes) attrs.push_back(Json::array({a.id, static_cast<std::uint32_t>(a.format)}));
    strides.push_back(Json{{"attributes", attrs}, {"tail", hex(s.tail)}, {"vertices", hex(s.vertices)}});
  }
  return Json{{"identifier", name(b.identifier)}, {"version", b.version}, {"unknown_0x38", number(b.unknown_0x38)},
              {"pnt", floats(b.pnt)}, {"box1", floats(b.box1)}, {"box2", floats(b.box2)},
              {"center", floats(b.center)}, {"height", number(b.height)}, {"radius", number(b.radius)},
              {"unknown_0x74", b.unknown_0x74}, {"volume", number(b.volume)},
              {"unknown_0x94", hex(b.unknown_0x94)}, {"vertex_count", b.vertex_count}, {"type", b.type},
              {"materials", materials}, {"meshes", meshes}, {"bones", bones}, {"entities", entities},
              {"unknown_points", vec3s(b.unknown_points)}, {"collision_points", vec3s(b.collision_points)},
              {"strides", strides}, {"indices", b.indices}, {"cleave_points", vec3s(b.cleave_points)}};
}

void j3d_gap(Json& j, const char* key, const J3dGap& g) {
  if (g) j[key] = hex(*g);
}

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
              {"swap_tables", u16s(e.swap_tables)}, {"unknown_0x12c", u16s(e.unknown_0x12c)}, {"fog", e.fog},
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
    if (m.gaps[t]) gaps[std::to_string(t)] = hex(*m.gaps[t]);
  }
  if (!gaps.empty()) j["gaps"] = gaps;
  return j;
}

Json j3d_section_json(const J3dSection& s) {
  Json j{{"magic", json_text(j3d_section_magic(s))}};
  if (const auto* inf = std::get_if<J3dInf1>(&s)) {
    j["flags"] = inf->flags;
    j["unknown_0x0a"] = inf->unknown_0x0a;
    j["packet_count"] = inf->packet_count;
    j["vertex_count"] = inf->vertex_count;
    j["hierarchy"] = j3d_nodes(inf->roots);
    j3d_gap(j, "gap_after_hierarchy", inf->gap_after_hierarchy);
  } else if (const auto* vtx = std::get_if<J3dVtx1>(&s)) {
    Json formats = Json::array();
    for (const J3dVertexFormat& f : vtx->formats) {
      formats.push_back(Json{{"attribute", f.attribute}, {"components", f.components}, {"type", f.type},
                             {"frac", f.frac}, {"unknown_0x0d", hex(f.unknown_0x0d)}});
    }
    Json arrays = Json::array();
    for (const J3dVertexArray& a : vtx->arrays) {
      Json ja{{"slot", a.slot}, {"data", hex(a.data)}};
      j3d_gap(ja, "gap_after", a.gap_after);
      arrays.push_back(ja);
    }
    j["formats"] = formats;
    j["arrays"] = arrays;
    j3d_gap(j, "gap_after_formats", vtx->gap_after_formats);
  } else if (const auto* evp = std::get_if<J3dEvp1>(&s)) {
    Json envelopes = Json::array();
    for (const J3dEnvelope& e : evp->envelopes) envelopes.push_back(Json{{"joints", e.joints}, {"weights", floats(e.weights)}});
    Json matrices = Json::array();
    for (const auto& m : evp->inverse_binds) matrices.push_back(floats(m));
    j["unknown_0x0a"] = evp->unknown_0x0a;
    j["envelopes"] = envelopes;
    j["inverse_binds"] = matrices;
    j3d_gap(j, "gap_after_indices", evp->gap_after_indices);
    j3d_gap(j, "gap_after_matrices", evp->gap_after_matrices);
  } else if (const auto* drw = std::get_if<J3dDrw1>(&s)) {
    j["unknown_0x0a"] = drw->unknown_0x0a;
    j["weighted"] = drw->weighted;
    j["indices"] = drw->indices;
    j3d_gap(j, "gap_after_flags", drw->gap_after_flags);
    j3d_gap(j, "gap_after_indices", drw->gap_after_indices);
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
    j3d_gap(j, "gap_after_remap", jnt->gap_after_remap);
    j3d_gap(j, "gap_after_names", jnt->gap_after_names);
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
      if (p.raw) {
        jp["raw"] = hex(*p.raw);
      } else {
        Json prims = Json::array();
        for (const J3dPrimitive& prim : p.primitives) {
          prims.push_back(Json{{"opcode", prim.opcode}, {"vertex_count", prim.vertex_count}, {"values", prim.values}});
        }
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
    j3d_gap(j, "gap_after_remap", shp->gap_after_remap);
    j3d_gap(j, "gap_after_matrix_table", shp->gap_after_matrix_table);
    j3d_gap(j, "gap_after_tables", shp->gap_after_tables);
  } else if (const auto* mdl = std::get_if<J3dMdl3>(&s)) {
    Json packets = Json::array();
    for (const J3dMdlPacket& p : mdl->packets) {
      Json jp = Json::object();
      if (p.raw) {
        jp["raw"] = hex(*p.raw);
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
    j3d_gap(j, "gap_after_header", mdl->gap_after_header);
    j3d_gap(j, "gap_after_packet_table", mdl->gap_after_packet_table);
    j3d_gap(j, "gap_after_pe_modes", mdl->gap_after_pe_modes);
    j3d_gap(j, "gap_after_indices", mdl->gap_after_indices);
    j3d_gap(j, "gap_after_names", mdl->gap_after_names);
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
                              {"unknown_0x19", t.unknown_0x19}, {"lod_bias", t.lod_bias}, {"image_block", t.image_block}});
    }
    Json blocks = Json::array();
    for (const J3dTexBlock& b : tex->blocks) {
      Json jb{{"data", hex(b.data)}};
      j3d_gap(jb, "gap_after", b.gap_after);
      blocks.push_back(jb);
    }
    j["unknown_0x0a"] = tex->unknown_0x0a;
    j["textures"] = textures;
    j["blocks"] = blocks;
    j3d_gap(j, "gap_after_header", tex->gap_after_header);
    j3d_gap(j, "gap_after_names", tex->gap_after_names);
  } else if (const auto* mat = std::get_if<J3dMat3>(&s)) {
    j.update(mat3_json(*mat));
  } else if (const auto* raw = std::get_if<J3dRawSection>(&s)) {
    j["body"] = hex(raw->body);
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

Json to_json(const Document& d) {
  Json j{{"format", format_name(format_of(d))}};
  std::visit([&](const auto& doc) { format_entry(format_of(d)).json(&doc, j); }, d);
  j["verbatim_bytes"] = verbatim_bytes(d);
  return j;
}

void add_json(const PmoFile& f, Json& out) {
  out["pmo"] = pmo_json(f.pmo);
  verbatim(out, "tail", f.tail);
}

void add_json(const Pmp& p, Json& out) {
  out["pmp"] = pmp_json(p);
}

void add_json(const Tim2File& f, Json& out) {
  out["tim2"] = tim2_json(f.tim2);
  verbatim(out, "tail", f.tail);
}

void add_json(const Pam& p, Json& out) {
  out["pam"] = pam_json(p);
}

void add_json(const PamAnimFile& f, Json& out) {
  out["animation"] = pam_animation_json(f.animation);
}

void add_json(const MhfuPmoFile& f, Json& out) {
  out["pmo"] = mhfu_pmo_json(f.pmo);
  verbatim(out, "tail", f.tail);
}

void add_json(const MhfuSkeletonFile& f, Json& out) {
  out["skeleton"] = mhfu_skeleton_json(f.skeleton);
  verbatim(out, "tail", f.tail);
}

void add_json(const TmhFile& f, Json& out) {
  out["tmh"] = tmh_json(f.tmh);
  verbatim(out, "tail", f.tail);
}

// Each entry as its own format writes itself, under the format's name.
void add_json(const Pac& pac, Json& out) {
  Json entries = Json::array();
  for (const PacEntry& e : pac.entries) {
    Json j = std::visit([](const auto& content) {
      using T = std::decay_t<decltype(content)>;
      if constexpr (std::is_same_v<T, Bytes>) {
        return Json{{"format", "unknown"}, {"bytes", hex(content)}};
      } else {
        const FormatEntry& format = format_entry(format_of_type<T>());
        Json part{{"format", format.name}};
        format.json(&content, part);
        return part;
      }
    }, e.content);
    verbatim(j, "gap_after", e.gap_after);
    entries.push_back(j);
  }
  Json j{{"entries", entries}};
  verbatim(j, "gap_after_table", pac.gap_after_table);
  if (pac.end_padding) j["end_padding"] = hex(*pac.end_padding);
  out["pac"] = j;
}

void add_json(const Bwm& b, Json& out) {
  out["bwm"] = bwm_json(b);
}

void add_json(const J3dFile& f, Json& out) {
  out["j3d"] = j3d_json(f);
}

Json to_json(const DocumentInfo& i) {
  return Json{{"format", format_name(i.format)}, {"size", i.size},         {"models", i.models},
              {"objects", i.objects},            {"sections", i.sections}, {"vertices", i.vertices},
              {"triangles", i.triangles},        {"joints", i.joints},     {"textures", i.textures},
              {"materials", i.materials},        {"entries", i.entries},
              {"animations", i.animations},      {"frames", i.frames}};
}

}  // namespace remodel
