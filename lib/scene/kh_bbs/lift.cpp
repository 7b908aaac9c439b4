// KH BBS PMO and PMP -> Scene. The game is Y-up (BON joints stand on y = 0 and rise to the head)
// and draws counter-clockwise fronts with the GE's alternating strip winding, as glTF does, so no axis
// or winding changes.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "model/primitive.hpp"
#include "model/psp/ge.hpp"
#include "model/psp/texture.hpp"
#include "model/psp/vertex.hpp"
#include "scene/lift.hpp"

namespace remodel::scene {

namespace {

constexpr std::uint8_t kNoTexture = 0xFF;
constexpr std::uint8_t kUnusedJoint = 0xFF;
constexpr std::uint16_t kNoParent = 0xFFFF;
constexpr std::uint16_t kBlendMask = 0xE0;  // 0x20 semi-transparent, 0x40 additive, 0x60 subtractive

// Scene textures of one TIM2 list (a PMO's own, or a PMP's shared one): every picture in
// list_textures order, named like `textures extract` names them.
struct TextureTable {
  std::vector<int> first;         // per TIM2: its picture 0's Scene texture, -1 when it has none
  std::vector<bool> transparent;  // per Scene texture: some texel has alpha < 255
  std::vector<Vec2> uv_scale;     // per TIM2: GE texture size (next power of two) over image size
};

std::string texture_name(const std::vector<PmoTextureInfo>& infos, std::size_t tim2) {
  for (const PmoTextureInfo& info : infos) {
    if (info.tim2 && *info.tim2 == tim2) return fixed_string(info.name);
  }
  return "tim2_" + std::to_string(tim2);
}

// The GE samples power-of-two textures only: a non-power-of-two TIM2 (80x40) is drawn as the next
// power of two (128x64), so its UVs reach only 80/128 of the way across.
float ge_extent_ratio(std::uint32_t size) {
  return size == 0 ? 1.0f : static_cast<float>(std::bit_ceil(size)) / static_cast<float>(size);
}

Result<TextureTable> add_textures(Scene& scene, const std::vector<Tim2>& tim2s, const std::vector<PmoTextureInfo>& infos,
                                  const std::string& where) {
  TextureTable table;
  for (std::size_t k = 0; k < tim2s.size(); ++k) {
    const std::string name = texture_name(infos, k);
    table.first.push_back(tim2s[k].pictures.empty() ? -1 : static_cast<int>(scene.textures.size()));
    table.uv_scale.push_back({1, 1});
    for (std::size_t p = 0; p < tim2s[k].pictures.size(); ++p) {
      const Tim2Picture& picture = tim2s[k].pictures[p];
      auto image = decode_tim2_picture(picture);
      const std::string field = where + ".tim2s[" + std::to_string(k) + "].pictures[" + std::to_string(p) + "]";
      if (!image) {
        Error e = image.error();
        e.field = e.field.empty() ? field : field + "." + e.field;
        return e;
      }
      if (p == 0) table.uv_scale.back() = {ge_extent_ratio(picture.width), ge_extent_ratio(picture.height)};
      Texture t;
      t.name = tim2s[k].pictures.size() == 1 ? name : name + "_" + std::to_string(p);
      t.encoding = "TIM2 " + tim2_format_name(picture);
      t.image = std::move(*image);
      t.sampler = Sampler{Wrap::repeat, Wrap::repeat, Filter::linear, Filter::linear};  // one level: no mipmaps
      t.extras = {{"tim2", k}, {"picture", p}, {"width", picture.width}, {"height", picture.height}};
      bool transparent = false;
      for (std::size_t i = 3; i < t.image.rgba.size() && !transparent; i += 4) transparent = t.image.rgba[i] != 255;
      table.transparent.push_back(transparent);
      scene.textures.push_back(std::move(t));
    }
  }
  return table;
}

// One section's triangles as indices into its own vertices, by the one primitive module (strips
// alternate winding). Unindexed draws repeat no index, so no triangle is degenerate and the count
// equals PmoSection::triangle_count().
Result<std::vector<std::uint32_t>> section_indices(const PmoSection& s, const std::string& field) {
  if (!psp::ge_topology(s.primitive())) {
    return at(field + ".vertex_flags", "GE primitive " + std::to_string(s.primitive()) +
                                           " draws no triangles (3 = triangles, 4 = strips, 5 = fans)",
              ErrorCode::unsupported);
  }
  const std::size_t vc = s.vertex_count();
  std::size_t needed = 0;
  for (std::uint16_t len : s.strip_lengths) needed += len;
  if (needed > vc) {
    return at(field + ".strip_lengths", "the strips need " + std::to_string(needed) + " vertices but the section has " +
                                            std::to_string(vc));
  }
  std::vector<std::uint32_t> out;
  for (const Triangle& t : s.triangles()) out.insert(out.end(), t.begin(), t.end());
  return out;
}

struct PmoContext {
  const Pmo& pmo;
  const TextureTable& textures;
  std::string where;  // "pmo" or "pmp.pmos[k]"
};

// One material per pass, texture info, attribute and vertex-colour use, shared by the sections that match.
struct MaterialKey {
  int list;
  std::uint8_t texture;
  std::uint16_t attribute;
  bool colours;
  bool operator==(const MaterialKey&) const = default;
};

int material_for(Scene& scene, std::vector<std::pair<MaterialKey, int>>& made, const PmoContext& c, const MaterialKey& key) {
  for (const auto& [k, index] : made) {
    if (k == key) return index;
  }
  Material m;
  const PmoTextureInfo* info = key.texture < c.pmo.textures.size() ? &c.pmo.textures[key.texture] : nullptr;
  m.name = info != nullptr ? fixed_string(info->name) : "untextured";
  if (key.list == 1) m.name += "_translucent";
  if (key.attribute != 0) m.name += "_attr" + std::to_string(key.attribute);
  bool transparent = false;
  if (info != nullptr && info->tim2 && *info->tim2 < c.textures.first.size() && c.textures.first[*info->tim2] >= 0) {
    m.texture = c.textures.first[*info->tim2];
    transparent = c.textures.transparent[static_cast<std::size_t>(m.texture)];
  }
  m.vertex_colors = key.colours;
  // Mesh1 is the translucent pass, and the attribute's blend bits blend in either pass; opaque-pass
  // textures with transparent texels are alpha-tested.
  if (key.list == 1 || (key.attribute & kBlendMask) != 0) m.alpha_mode = AlphaMode::blend;
  else if (transparent) m.alpha_mode = AlphaMode::mask;
  // A PMO stores no cull mode (attribute 0x4 "back" is undocumented): both sides, so no face vanishes.
  m.double_sided = true;
  m.extras = {{"list", key.list == 0 ? "mesh0" : "mesh1"}, {"attribute", key.attribute}};
  if (info != nullptr) {
    m.extras["texture_info"] = key.texture;
    m.extras["scroll_u"] = info->scroll_u;
    m.extras["scroll_v"] = info->scroll_v;
  }
  if ((key.attribute & kBlendMask) == 0x40) m.extras["blend"] = "add";
  if ((key.attribute & kBlendMask) == 0x60) m.extras["blend"] = "subtract";
  const int index = static_cast<int>(scene.materials.size());
  scene.materials.push_back(std::move(m));
  made.emplace_back(key, index);
  return index;
}

// RGB 0x80 is full intensity (the game doubles vertex colours), so RGB is /128 clamped to 1; alpha /255.
Vec4 vertex_colour(std::array<std::uint8_t, 4> c, std::size_t& clamped) {
  if (c[0] > 0x80 || c[1] > 0x80 || c[2] > 0x80) ++clamped;
  auto rgb = [](std::uint8_t v) { return std::min(1.0f, static_cast<float>(v) / 128.0f); };
  return {rgb(c[0]), rgb(c[1]), rgb(c[2]), static_cast<float>(c[3]) / 255.0f};
}

Result<Primitive> lift_section(Scene& scene, std::vector<std::pair<MaterialKey, int>>& materials, const PmoContext& c,
                               int list, std::size_t index, const PmoSection& s) {
  const std::string field = c.where + ".mesh" + std::to_string(list) + ".sections[" + std::to_string(index) + "]";
  auto format = psp::VertexFormat::from_vtype(s.vertex_flags & 0xFFFFFF);
  if (!format) return at(field + ".vertex_flags", format.error().message, format.error().code);
  if (format->position == psp::NumFormat::none) return at(field + ".vertex_flags", "the section's vertices have no position");
  const std::size_t vc = s.vertex_count();
  auto vertices = psp::decode_vertices(*format, s.vertices, vc);
  if (!vertices) return at(field + ".vertices", vertices.error().message, vertices.error().code);
  auto indices = section_indices(s, field);
  if (!indices) return indices.error();

  Primitive p;
  p.indices = std::move(*indices);
  p.extras = {{"list", list}, {"section", index}, {"vertex_flags", s.vertex_flags}, {"primitive", s.primitive()},
              {"group", s.group}, {"attribute", s.attribute}, {"texture", s.texture}};
  if (s.primitive() != 3) p.extras["strip_lengths"] = s.strip_lengths;
  if (s.joints) p.extras["joints"] = *s.joints;
  if (s.diffuse) p.extras["diffuse"] = *s.diffuse;
  if (s.stored_vertex_size) p.extras["vertex_size"] = *s.stored_vertex_size;

  p.positions.reserve(vc);
  for (const psp::Vertex& v : *vertices) {
    p.positions.push_back({psp::signed_value(format->position, v.position[0]) * c.pmo.scale,
                           psp::signed_value(format->position, v.position[1]) * c.pmo.scale,
                           psp::signed_value(format->position, v.position[2]) * c.pmo.scale});
  }
  if (format->normal != psp::NumFormat::none) {
    for (const psp::Vertex& v : *vertices) {
      p.normals.push_back(normalize(Vec3{psp::signed_value(format->normal, v.normal[0]),
                                         psp::signed_value(format->normal, v.normal[1]),
                                         psp::signed_value(format->normal, v.normal[2])}));
    }
  }

  const PmoTextureInfo* info = s.texture < c.pmo.textures.size() ? &c.pmo.textures[s.texture] : nullptr;
  if (s.texture != kNoTexture && info == nullptr) {
    return at(field + ".texture", "texture " + std::to_string(s.texture) + " does not exist; the PMO has " +
                                      std::to_string(c.pmo.textures.size()) + " texture infos");
  }
  if (format->texcoord != psp::NumFormat::none) {
    Vec2 scale{1, 1};
    if (info != nullptr && info->tim2 && *info->tim2 < c.textures.uv_scale.size()) scale = c.textures.uv_scale[*info->tim2];
    if (scale != Vec2{1, 1}) p.extras["uv_scale"] = {scale.x, scale.y};
    std::vector<Vec2> uv;
    uv.reserve(vc);
    for (const psp::Vertex& v : *vertices) {
      uv.push_back({psp::unsigned_value(format->texcoord, v.texcoord[0]) * scale.x,
                    psp::unsigned_value(format->texcoord, v.texcoord[1]) * scale.y});
    }
    p.uvs.push_back(std::move(uv));
  }
  std::size_t clamped = 0;
  if (format->color != psp::ColorFormat::none) {
    for (const psp::Vertex& v : *vertices) p.colors.push_back(vertex_colour(psp::decode_colour(*psp::colour_format(format->color), v.color), clamped));
  } else if (s.diffuse) {
    const Vec4 colour = vertex_colour(psp::decode_colour(PspColour::c8888, *s.diffuse), clamped);
    p.colors.assign(vc, colour);
    clamped = clamped != 0 ? vc : 0;
  }
  if (clamped != 0) p.extras["clamped_colours"] = clamped;

  if (c.pmo.skeleton) {
    const std::size_t joint_count = c.pmo.skeleton->joints.size();
    if (!s.joints) return at(field + ".joints", "a section of a PMO with a skeleton has no joint list");
    const std::array<std::uint8_t, 8>& slots = *s.joints;
    auto joint_of = [&](std::size_t slot) -> Result<std::uint16_t> {
      if (slots[slot] == kUnusedJoint || slots[slot] >= joint_count) {
        return at(field + ".joints[" + std::to_string(slot) + "]",
                  "weight slot " + std::to_string(slot) + " names joint " + std::to_string(slots[slot]) + " but the BON has " +
                      std::to_string(joint_count) + " joints");
      }
      return std::uint16_t{slots[slot]};
    };
    const std::size_t count = format->weight == psp::NumFormat::none ? 0 : format->weight_count;
    p.influences = count > 4 ? 8 : 4;
    p.joints.assign(vc * p.influences, 0);
    p.weights.assign(vc * p.influences, 0.0f);
    if (count == 0) {
      // Unweighted sections follow their first joint alone.
      auto j = joint_of(0);
      if (!j) return j.error();
      for (std::size_t v = 0; v < vc; ++v) {
        p.joints[v * p.influences] = *j;
        p.weights[v * p.influences] = 1.0f;
      }
    } else {
      std::size_t unweighted = 0;
      for (std::size_t v = 0; v < vc; ++v) {
        float sum = 0;
        for (std::size_t k = 0; k < count; ++k) sum += psp::unsigned_value(format->weight, (*vertices)[v].weights[k]);
        if (!(sum > 0.0f) || !std::isfinite(sum)) {
          // A vertex no joint moves: the game would collapse it; keep it on the section's first joint.
          auto j = joint_of(0);
          if (!j) return j.error();
          p.joints[v * p.influences] = *j;
          p.weights[v * p.influences] = 1.0f;
          ++unweighted;
          continue;
        }
        for (std::size_t k = 0; k < count; ++k) {
          const float w = psp::unsigned_value(format->weight, (*vertices)[v].weights[k]);
          if (w == 0.0f) continue;
          auto j = joint_of(k);
          if (!j) return j.error();
          p.joints[v * p.influences + k] = *j;
          p.weights[v * p.influences + k] = w / sum;
        }
      }
      if (unweighted != 0) p.extras["vertices_without_weight"] = unweighted;
    }
  }
  const bool colours = !p.colors.empty();
  p.material = material_for(scene, materials, c, MaterialKey{list, s.texture, s.attribute, colours});
  return p;
}

// Texture info records as stored (a PMO's, or a PMP's shared list), for import to rebuild them.
Extras texture_infos(const std::vector<PmoTextureInfo>& infos) {
  Extras list = Extras::array();
  for (const PmoTextureInfo& info : infos) {
    Extras e = {{"name", fixed_string(info.name)}, {"tim2", info.tim2 ? Extras(*info.tim2) : Extras()},
                {"scroll_u", info.scroll_u}, {"scroll_v", info.scroll_v}};
    if (info.unknown_0x18 != std::array<std::uint8_t, 8>{}) e["unknown_0x18"] = info.unknown_0x18;
    list.push_back(std::move(e));
  }
  return list;
}

Extras pmo_extras(const Pmo& pmo) {
  Extras e = {{"number", pmo.number}, {"group", pmo.group}, {"version", pmo.version}, {"flag", pmo.flag}, {"scale", pmo.scale}};
  if (pmo.unknown_0x07 != 0) e["unknown_0x07"] = pmo.unknown_0x07;
  if (pmo.unknown_0x09 != 0) e["unknown_0x09"] = pmo.unknown_0x09;
  e["bounding_box"] = pmo.bounding_box;
  e["texture_infos"] = texture_infos(pmo.textures);
  return e;
}

Result<int> lift_pmo_mesh(Scene& scene, const PmoContext& c, const std::string& name) {
  Mesh mesh;
  mesh.name = name;
  mesh.extras = pmo_extras(c.pmo);
  std::vector<std::pair<MaterialKey, int>> materials;
  int list = 0;
  for (const auto* l : {&c.pmo.mesh0, &c.pmo.mesh1}) {
    if (l->has_value()) {
      for (std::size_t i = 0; i < (*l)->sections.size(); ++i) {
        auto p = lift_section(scene, materials, c, list, i, (*l)->sections[i]);
        if (!p) return p.error();
        mesh.primitives.push_back(std::move(*p));
      }
    }
    ++list;
  }
  const int index = static_cast<int>(scene.meshes.size());
  scene.meshes.push_back(std::move(mesh));
  return index;
}

// BON joints as nodes under `parent` (in BON order, so joint i is nodes[result[i]]) and a skin over
// all of them. The stored inverse binds are what the game skins with; the lift keeps them and the
// tests check them against the locals' world matrices.
Result<std::vector<int>> lift_bon(Scene& scene, const Bon& bon, int parent, const std::string& where, int& skin_index) {
  std::vector<int> nodes;
  nodes.reserve(bon.joints.size());
  Skin skin;
  skin.name = "BON";
  skin.extras = {{"standard_bone_count", bon.standard_bone_count}};
  if (bon.unknown_0x04 != 0) skin.extras["unknown_0x04"] = bon.unknown_0x04;
  if (bon.unknown_0x0a != 0) skin.extras["unknown_0x0a"] = bon.unknown_0x0a;
  std::vector<int> roots;
  for (std::size_t i = 0; i < bon.joints.size(); ++i) {
    const BonJoint& j = bon.joints[i];
    // The game builds world matrices in joint order, so a parent always comes first.
    if (j.parent != kNoParent && j.parent >= i) {
      return at(where + ".joints[" + std::to_string(i) + "].parent",
                "joint " + std::to_string(i) + " names parent " + std::to_string(j.parent) + ", which does not come before it");
    }
    Node n;
    n.name = fixed_string(j.name);
    const Mat4 local = Mat4::from_row_vector(j.local);
    n.local = decompose(local);
    n.extras = {{"index", j.index}, {"skin_index", j.skin_index == 0xFFFF ? Extras() : Extras(j.skin_index)}};
    if (max_abs_difference(trs_matrix(n.local), local) > 1e-4f) n.extras["local_matrix"] = j.local;  // shear TRS cannot hold
    if (j.unknown_0x02 != 0) n.extras["unknown_0x02"] = j.unknown_0x02;
    if (j.unknown_0x06 != 0) n.extras["unknown_0x06"] = j.unknown_0x06;
    if (j.unknown_0x0a != 0) n.extras["unknown_0x0a"] = j.unknown_0x0a;
    if (j.unknown_0x0c != 0) n.extras["unknown_0x0c"] = j.unknown_0x0c;
    const int p = j.parent == kNoParent ? parent : nodes[j.parent];
    nodes.push_back(scene.add_node(std::move(n), p));
    if (j.parent == kNoParent) roots.push_back(nodes.back());
    skin.joints.push_back(nodes.back());
    skin.inverse_bind_matrices.push_back(Mat4::from_row_vector(j.inverse_bind));
  }
  if (roots.size() == 1) skin.skeleton = roots[0];
  skin_index = static_cast<int>(scene.skins.size());
  scene.skins.push_back(std::move(skin));
  return nodes;
}

// A PMO's mesh node (and its skeleton) under `parent`; returns the BON joints' nodes.
Result<std::vector<int>> add_pmo(Scene& scene, const PmoContext& c, int parent, const std::string& name, int mesh) {
  std::vector<int> joints;
  int skin = -1;
  if (c.pmo.skeleton) {
    auto j = lift_bon(scene, *c.pmo.skeleton, parent, c.where + ".skeleton", skin);
    if (!j) return j.error();
    joints = std::move(*j);
  }
  Node n;
  n.name = name;
  n.mesh = mesh;
  n.skin = skin;
  scene.add_node(std::move(n), parent);
  return joints;
}

}  // namespace

Result<Scene> lift_kh_bbs_pmo(const PmoFile& file, const LiftInputs& inputs) {
  Scene scene;
  scene.scenes.push_back(SceneRoots{"PMO", {}});
  scene.extras = {{"format", format_name(Format::kh_bbs_pmo)}};
  if (file.tail.size() != 0) scene.extras["tail_bytes"] = file.tail.size();
  auto textures = add_textures(scene, file.pmo.tim2s, file.pmo.textures, "pmo");
  if (!textures) return textures.error();
  const PmoContext c{file.pmo, *textures, "pmo"};
  auto mesh = lift_pmo_mesh(scene, c, "PMO");
  if (!mesh) return mesh.error();
  auto joints = add_pmo(scene, c, -1, "PMO", *mesh);
  if (!joints) return joints.error();
  if (!inputs.animations.empty()) {
    if (!file.pmo.skeleton) {
      return at("animations", "the animations drive bones but this PMO has no skeleton (0 joints)", ErrorCode::bad_count);
    }
    if (auto e = lift_kh_bbs_animations(inputs, *joints, scene); !e) return e.error();
  }
  return scene;
}

// Each object is a node placed by its position, rotation and scale, its PMO's mesh under it. The
// rotation order is not documented and every sample's rotations are zero; X then Y then Z, as PAM
// rotations are applied by the same engine.
Result<Scene> lift_kh_bbs_pmp(const Pmp& pmp, const LiftInputs& inputs) {
  if (!inputs.animations.empty()) {
    return at("animations", "a PMP's objects take no PAM animations: export the animated PMO itself", ErrorCode::unsupported);
  }
  Scene scene;
  scene.scenes.push_back(SceneRoots{"PMP", {}});
  scene.extras = {{"format", format_name(Format::kh_bbs_pmp)}, {"version", pmp.version}, {"flag", pmp.flag},
                  {"unknown_0x06", pmp.unknown_0x06}, {"unknown_0x14", pmp.unknown_0x14}};
  auto textures = add_textures(scene, pmp.tim2s, pmp.textures, "pmp");
  if (!textures) return textures.error();
  // The shared list for import; each PMO's own infos (in its mesh's extras) make its materials.
  scene.extras["texture_infos"] = texture_infos(pmp.textures);

  std::vector<int> meshes(pmp.pmos.size(), -1);
  for (std::size_t i = 0; i < pmp.objects.size(); ++i) {
    const PmpObject& o = pmp.objects[i];
    Node n;
    n.name = "object" + std::to_string(i);
    n.local.translation = {o.position[0], o.position[1], o.position[2]};
    n.local.rotation = euler_to_quat({o.rotation[0], o.rotation[1], o.rotation[2]}, EulerOrder::xyz);
    n.local.scale = {o.scale[0], o.scale[1], o.scale[2]};
    n.extras = {{"flags", o.flags}, {"id", o.id}, {"pmo", o.pmo ? Extras(*o.pmo) : Extras()}};
    if (o.unknown_0x28 != 0) n.extras["unknown_0x28"] = o.unknown_0x28;
    const int node = scene.add_node(std::move(n));
    if (!o.pmo) continue;  // a null object: an empty node
    const std::size_t k = *o.pmo;
    if (k >= pmp.pmos.size()) {
      return at("pmp.objects[" + std::to_string(i) + "].pmo",
                "object " + std::to_string(i) + " names PMO " + std::to_string(k) + " but the PMP has " + std::to_string(pmp.pmos.size()));
    }
    const PmoContext c{pmp.pmos[k], *textures, "pmp.pmos[" + std::to_string(k) + "]"};
    if (meshes[k] < 0) {
      auto mesh = lift_pmo_mesh(scene, c, "pmo" + std::to_string(k));
      if (!mesh) return mesh.error();
      meshes[k] = *mesh;
    }
    auto joints = add_pmo(scene, c, node, "object" + std::to_string(i) + "_pmo" + std::to_string(k), meshes[k]);
    if (!joints) return joints.error();
  }
  return scene;
}

}  // namespace remodel::scene
