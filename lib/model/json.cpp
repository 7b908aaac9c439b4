#include "model/json.hpp"

#include <bit>
#include <cmath>

#include "model/json_fields.hpp"
#include "model/psp/vertex.hpp"

namespace remodel {

using Json = nlohmann::ordered_json;

namespace {

using namespace json_fields;

Json tim2_json(const Tim2& t) {
  Json j{{"version", t.version}, {"format", t.format}, {"unknown_0x08", hex(t.unknown_0x08)}};
  verbatim(j, "gap_after_header", t.gap_after_header);
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
    if (!p.extended_header.empty()) pj["extended_header"] = hex(p.extended_header);
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
  verbatim(j, "stored_padding", a.stored_padding);
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
    verbatim(jb, "stored_trailing", b.stored_trailing);
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
    Json stride{{"attributes", attrs}};
    verbatim(stride, "tail", s.tail);
    stride["vertices"] = hex(s.vertices);
    strides.push_back(std::move(stride));
  }
  Json out{{"identifier", name(b.identifier)}, {"version", b.version}, {"unknown_0x38", number(b.unknown_0x38)},
              {"pnt", floats(b.pnt)}, {"box1", floats(b.box1)}, {"box2", floats(b.box2)},
              {"center", floats(b.center)}, {"height", number(b.height)}, {"radius", number(b.radius)},
              {"unknown_0x74", b.unknown_0x74}, {"volume", number(b.volume)},
              {"unknown_0x94", hex(b.unknown_0x94)}, {"vertex_count", bwm_vertex_count(b)}, {"type", b.type},
              {"materials", materials}, {"meshes", meshes}, {"bones", bones}, {"entities", entities},
              {"unknown_points", vec3s(b.unknown_points)}, {"collision_points", vec3s(b.collision_points)},
              {"strides", strides}, {"indices", b.indices}, {"cleave_points", vec3s(b.cleave_points)}};
  optional_field(out, "stored_vertex_count", b.stored_vertex_count);
  return out;
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
      if constexpr (std::is_same_v<T, Verbatim>) {
        return Json{{"format", "unknown"}, {"bytes", hex(content.bytes())}};
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
  verbatim(j, "end_padding", pac.end_padding);
  out["pac"] = j;
}

void add_json(const Bwm& b, Json& out) {
  out["bwm"] = bwm_json(b);
}

Json to_json(const DocumentInfo& i) {
  return Json{{"format", format_name(i.format)}, {"size", i.size},         {"models", i.models},
              {"objects", i.objects},            {"sections", i.sections}, {"vertices", i.vertices},
              {"triangles", i.triangles},        {"joints", i.joints},     {"textures", i.textures},
              {"materials", i.materials},        {"entries", i.entries},
              {"animations", i.animations},      {"frames", i.frames}};
}

}  // namespace remodel
