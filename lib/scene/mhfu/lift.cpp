// MHFU PMO / PAC -> Scene: the skeleton's joints, one skinned mesh per PMO mesh record (a primitive per
// group), materials with their TMH textures.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "model/textures.hpp"
#include "scene/lift.hpp"
#include "scene/mhfu/records.hpp"

namespace remodel::scene {

// The skeleton's Euler angles are applied X, then Y, then Z (R = Rz * Ry * Rx, the PSP's
// sceGumRotateXYZ). The data cannot tell the orders apart: every rotation in the samples is below
// 2.2e-7 rad, and world matrices built under the six orders differ by under 1e-12 (measured by
// tests/mhfu/test_scene.cpp, EulerOrderIsUndeterminedBySamples; vertices are stored at bind pose in
// model space, so skinning at rest does not depend on the order either).
const EulerOrder kMhfuEulerOrder = EulerOrder::xyz;

namespace {

std::string prim_type_name(std::uint8_t type) {
  switch (type) {
    case psp::ge::kPrimTriangles: return "triangles";
    case psp::ge::kPrimStrip: return "triangle_strip";
    case psp::ge::kPrimFan: return "triangle_fan";
    default: return "type" + std::to_string(type);
  }
}

// Each PMO material becomes one scene material; textures are TMH images by index (the material's
// texture byte is the image's place in the bank, not the order in which materials first use it).
struct TextureBank {
  const Document* document = nullptr;  // a TMH or a PAC, decoded through textures.hpp
  std::size_t first = 0;               // the bank's first image in list_textures order
  std::size_t count = 0;
};

Result<int> lift_skeleton(Scene& scene, const MhfuSkeleton& skeleton) {
  const std::size_t n = skeleton.bones.size();
  const int base = static_cast<int>(scene.nodes.size());
  const auto link_ok = [&](std::int32_t link) { return link == -1 || (link >= 0 && static_cast<std::size_t>(link) < n); };
  for (std::size_t i = 0; i < n; ++i) {
    const MhfuBone& b = skeleton.bones[i];
    const std::string field = "skeleton.bones[" + std::to_string(i) + "]";
    if (!link_ok(b.parent) || !link_ok(b.child) || !link_ok(b.sibling)) {
      return Error{ErrorCode::bad_value, std::nullopt, field,
                   "a parent, child or sibling link points past the skeleton's " + std::to_string(n) + " bones"};
    }
  }
  // A parent chain that comes back to a bone being walked is a cycle (each bone walked once).
  std::vector<std::uint8_t> state(n, 0);  // 0 not seen, 1 on the current walk, 2 reaches a root
  std::vector<std::size_t> walk;
  for (std::size_t i = 0; i < n; ++i) {
    walk.clear();
    std::int32_t p = static_cast<std::int32_t>(i);
    while (p != -1 && state[static_cast<std::size_t>(p)] == 0) {
      state[static_cast<std::size_t>(p)] = 1;
      walk.push_back(static_cast<std::size_t>(p));
      p = skeleton.bones[static_cast<std::size_t>(p)].parent;
    }
    if (p != -1 && state[static_cast<std::size_t>(p)] == 1) {
      return Error{ErrorCode::bad_value, std::nullopt, "skeleton.bones[" + std::to_string(i) + "].parent", "the parent links form a cycle"};
    }
    for (std::size_t w : walk) state[w] = 2;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const MhfuBone& b = skeleton.bones[i];
    Node node;
    node.name = "bone" + std::to_string(i);
    node.local.translation = {b.position[0], b.position[1], b.position[2]};
    node.local.rotation = euler_to_quat({b.rotation[0], b.rotation[1], b.rotation[2]}, kMhfuEulerOrder);
    node.local.scale = {b.scale[0], b.scale[1], b.scale[2]};
    node.parent = b.parent < 0 ? -1 : base + b.parent;
    node.extras = {{"index", b.index},
                   {"kind", b.tag & 0xFF},
                   {"tag", b.tag},
                   {"unknown_0x04", b.unknown_0x04},
                   {"parent", b.parent},
                   {"child", b.child},
                   {"sibling", b.sibling},
                   {"scale_w", b.scale[3]},
                   {"rotation_w", b.rotation[3]},
                   {"position_w", b.position[3]},
                   {"link", b.link},
                   {"chain_id", b.chain_id}};
    scene.nodes.push_back(std::move(node));
  }
  // Children in the file's order: the parent's child link, then each sibling link; where those links
  // disagree with the parent links, in bone order.
  std::vector<std::vector<int>> by_parent(n);
  for (std::size_t j = 0; j < n; ++j) {
    if (skeleton.bones[j].parent >= 0) by_parent[static_cast<std::size_t>(skeleton.bones[j].parent)].push_back(base + static_cast<int>(j));
  }
  for (std::size_t i = 0; i < n; ++i) {
    Node& node = scene.nodes[static_cast<std::size_t>(base) + i];
    if (node.parent < 0) {
      if (scene.scenes.empty()) scene.scenes.push_back(SceneRoots{});
      scene.scenes[0].nodes.push_back(base + static_cast<int>(i));
    }
    std::vector<int> order;
    for (std::int32_t c = skeleton.bones[i].child; c != -1 && order.size() <= by_parent[i].size();
         c = skeleton.bones[static_cast<std::size_t>(c)].sibling) {
      order.push_back(base + c);
    }
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    node.children = sorted == by_parent[i] ? order : by_parent[i];
  }
  Skin skin;
  skin.name = "skeleton";
  const std::vector<Mat4> world = world_matrices(scene);
  for (std::size_t i = 0; i < n; ++i) {
    const int node = base + static_cast<int>(i);
    skin.joints.push_back(node);
    bool ok = true;
    skin.inverse_bind_matrices.push_back(inverse(world[static_cast<std::size_t>(node)], &ok));
    if (!ok) {
      return Error{ErrorCode::bad_value, std::nullopt, "skeleton.bones[" + std::to_string(i) + "].scale",
                   "the bone's world matrix is singular (a zero scale), so it has no inverse bind matrix"};
    }
  }
  std::vector<int> roots;
  for (std::size_t i = 0; i < n; ++i) {
    if (skeleton.bones[i].parent < 0) roots.push_back(base + static_cast<int>(i));
  }
  if (roots.size() == 1) skin.skeleton = roots[0];
  skin.extras = {{"parameter_tag", skeleton.parameter_tag}, {"parameters", skeleton.parameters}};
  scene.skins.push_back(std::move(skin));
  return static_cast<int>(scene.skins.size()) - 1;
}

Result<std::vector<int>> lift_materials(Scene& scene, const MhfuPmo& pmo, const TextureBank& textures,
                                        std::vector<int>& texture_nodes) {
  std::vector<int> out;
  for (std::size_t i = 0; i < pmo.materials.size(); ++i) {
    const MhfuMaterial& m = pmo.materials[i];
    Material mat;
    mat.name = "material" + std::to_string(i);
    const auto channel = [&](int shift) { return static_cast<float>((m.color >> shift) & 0xFF) / 255.0f; };
    mat.base_color = {channel(0), channel(8), channel(16), channel(24)};
    if (m.texture != 0xFF && textures.document) {
      if (m.texture >= textures.count) {
        return Error{ErrorCode::bad_value, std::nullopt, "materials[" + std::to_string(i) + "].texture",
                     "texture " + std::to_string(m.texture) + " is past the TMH's " + std::to_string(textures.count) +
                         " images"};
      }
      int& t = texture_nodes[m.texture];
      if (t < 0) {
        const std::size_t k = textures.first + m.texture;
        Result<RgbaImage> image = decode_texture(*textures.document, k);
        if (!image) return image.error();
        const TextureInfo info = list_textures(*textures.document)[k];
        Texture tex;
        tex.name = info.name;
        tex.image = std::move(*image);
        tex.encoding = "TMH " + info.format;
        tex.extras = {{"tmh_image", m.texture}};
        scene.textures.push_back(std::move(tex));
        t = static_cast<int>(scene.textures.size()) - 1;
      }
      mat.texture = t;
      // The GE's alpha test state is not in the PMO: a texture with cut-out texels is drawn masked.
      const auto& px = scene.textures[static_cast<std::size_t>(t)].image.rgba;
      bool cut = false;
      for (std::size_t p = 3; p < px.size() && !cut; p += 4) cut = px[p] < 255;
      if (cut) mat.alpha_mode = AlphaMode::mask;
    }
    if (mat.base_color.w < 1.0f) mat.alpha_mode = AlphaMode::blend;
    mat.extras = {{"color", m.color},
                  {"shadow", m.shadow},
                  {"texture", m.texture},
                  {"unknown_0x09", std::vector<int>(m.unknown_0x09.begin(), m.unknown_0x09.end())},
                  {"reserved", m.reserved}};
    scene.materials.push_back(std::move(mat));
    out.push_back(static_cast<int>(scene.materials.size()) - 1);
  }
  return out;
}

// One group's draw as a primitive: block vertices in stored order, triangles through mhfu_triangles.
Result<Primitive> lift_group(const MhfuPmo& pmo, const MhfuMesh& mesh, std::size_t g, const GeBonePalette& palette,
                             std::size_t joint_count) {
  const MhfuGroup& group = pmo.groups[g];
  const std::string field = "groups[" + std::to_string(g) + "]";
  if (group.block >= pmo.blocks.size()) {
    return Error{ErrorCode::bad_value, std::nullopt, field + ".block", "the group draws a block past the " +
                                                                std::to_string(pmo.blocks.size()) + " blocks"};
  }
  const MhfuBlock& block = pmo.blocks[group.block];
  Result<MhfuDrawList> draw = decode_mhfu_block(block);
  if (!draw) return Error{draw.error().code, draw.error().offset, "blocks[" + std::to_string(group.block) + "]." + draw.error().field,
                          draw.error().message};
  const psp::VertexFormat& f = draw->format;
  Result<std::vector<psp::Vertex>> vertices = psp::decode_vertices(f, block.vertices, draw->vertex_count);
  if (!vertices) return vertices.error();

  Primitive prim;
  const std::size_t n = vertices->size();
  prim.positions.reserve(n);
  const std::size_t stored_weights = f.weight == psp::NumFormat::none ? 0 : f.weight_count;
  const std::size_t slots = std::max<std::size_t>(stored_weights, 1);
  if (joint_count > 0) prim.influences = static_cast<std::uint32_t>((slots + 3) / 4 * 4);
  for (std::size_t v = 0; v < n; ++v) {
    const psp::Vertex& vx = (*vertices)[v];
    const auto p = mhfu_position(pmo, f, vx);
    prim.positions.push_back({p[0], p[1], p[2]});
    if (f.normal != psp::NumFormat::none) {
      prim.normals.push_back(normalize(Vec3{psp::signed_value(f.normal, vx.normal[0]), psp::signed_value(f.normal, vx.normal[1]),
                                            psp::signed_value(f.normal, vx.normal[2])}));
    }
    if (f.texcoord != psp::NumFormat::none) {
      if (prim.uvs.empty()) prim.uvs.resize(1);
      // The GE's (0,0) is the texture's first stored row, glTF's top-left: no flip, only the mesh's scale.
      prim.uvs[0].push_back({psp::unsigned_value(f.texcoord, vx.texcoord[0]) * mesh.uv_scale[0],
                             psp::unsigned_value(f.texcoord, vx.texcoord[1]) * mesh.uv_scale[1]});
    }
    if (f.color != psp::ColorFormat::none) {
      const Rgba c = psp::decode_colour(*psp::colour_format(f.color), vx.color);
      prim.colors.push_back({c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, c[3] / 255.0f});
    }
    if (prim.influences == 0) continue;
    // Weights as stored (u8/128 ...), renormalised; no weights or all zero: rigid to palette slot 0.
    std::array<float, 8> w{};
    float sum = 0;
    for (std::size_t k = 0; k < stored_weights; ++k) sum += w[k] = psp::unsigned_value(f.weight, vx.weights[k]);
    if (sum <= 0) {
      w.fill(0);
      w[0] = sum = 1;
    }
    for (std::size_t k = 0; k < prim.influences; ++k) {
      std::uint16_t joint = 0;
      float weight = 0;
      if (k < slots && w[k] > 0) {
        if (!palette[k] || *palette[k] >= joint_count) {
          return Error{ErrorCode::bad_value, std::nullopt, field + ".bone_start",
                       "vertex " + std::to_string(v) + " weighs palette slot " + std::to_string(k) + ", which holds " +
                           (!palette[k] ? std::string("no bone") : "bone " + std::to_string(*palette[k])) +
                           " (the skeleton has " + std::to_string(joint_count) + ")"};
        }
        joint = *palette[k];
        weight = w[k] / sum;
      }
      prim.joints.push_back(joint);
      prim.weights.push_back(weight);
    }
  }
  for (const auto& t : mhfu_triangles(*draw)) prim.indices.insert(prim.indices.end(), t.begin(), t.end());

  Extras prims = Extras::array();
  Extras stored = Extras::array();
  for (const MhfuPrimitive& p : draw->primitives) {
    prims.push_back({{"type", prim_type_name(p.type)}, {"count", p.indices.size()}});
    for (std::uint32_t i : p.indices) stored.push_back(i);
  }
  Extras commands = Extras::array();
  for (const auto& c : block.commands) commands.push_back(c.word);
  Extras slots_json = Extras::array();
  for (const auto& b : palette.slots) slots_json.push_back(b ? int{*b} : -1);  // -1: no bone loaded yet
  prim.extras = {{"group", g},
                 {"block", group.block},
                 {"vtype", f.vtype()},
                 {"fface", draw->flip ? 1 : 0},
                 {"primitives", std::move(prims)},
                 {"stored_indices", std::move(stored)},
                 {"palette", std::move(slots_json)},
                 {"bone_count", group.bone_count},
                 {"bone_start", group.bone_start},
                 {"commands", std::move(commands)}};
  return prim;
}

Result<void> lift_pmo_into(Scene& scene, const MhfuPmo& pmo, const std::string& name, int skin,
                                   const TextureBank& textures) {
  const std::size_t joint_count = skin >= 0 ? scene.skins[static_cast<std::size_t>(skin)].joints.size() : 0;
  std::vector<int> texture_nodes(textures.count, -1);
  Result<std::vector<int>> materials = lift_materials(scene, pmo, textures, texture_nodes);
  if (!materials) return materials.error();
  Result<std::vector<GeBonePalette>> palettes = mhfu_group_palettes(pmo);
  if (!palettes) return palettes.error();
  // Each group lifts its block's vertices: groups sharing blocks must not multiply them without bound.
  std::uint64_t stored = 0, drawn = 0;
  for (const MhfuBlock& b : pmo.blocks) stored += b.vertices.size() + b.indices.size();
  for (const MhfuGroup& g : pmo.groups) drawn += g.block < pmo.blocks.size() ? pmo.blocks[g.block].vertices.size() + pmo.blocks[g.block].indices.size() : 0;
  if (drawn > 8 * stored + (1u << 20)) {
    return Error{ErrorCode::unsupported, std::nullopt, "groups",
                 "the groups draw " + std::to_string(drawn) + " bytes of vertices and indices from " + std::to_string(stored) +
                     " stored: more than 8 draws of each block are not lifted"};
  }

  for (std::size_t m = 0; m < pmo.meshes.size(); ++m) {
    const MhfuMesh& record = pmo.meshes[m];
    Mesh mesh;
    mesh.name = name + "_mesh" + std::to_string(m);
    int current = -1;  // the remap's 0xFF keeps the material of the previous group
    for (std::size_t k = 0; k < record.group_count; ++k) {
      const std::size_t g = std::size_t{record.group_start} + k;
      const std::string field = "meshes[" + std::to_string(m) + "]";
      if (g >= pmo.groups.size()) {
        return Error{ErrorCode::bad_value, std::nullopt, field + ".group_start", "the mesh's groups run past the " +
                                                                          std::to_string(pmo.groups.size()) + " groups"};
      }
      Result<Primitive> prim = lift_group(pmo, record, g, (*palettes)[g], joint_count);
      if (!prim) return prim.error();
      const std::size_t r = std::size_t{record.material_start} + pmo.groups[g].material_offset;
      if (r >= pmo.remap.size()) {
        return Error{ErrorCode::bad_value, std::nullopt, "groups[" + std::to_string(g) + "].material_offset",
                     "the group's material runs past the remap table's " + std::to_string(pmo.remap.size()) + " entries"};
      }
      if (pmo.remap[r] != 0xFF) {
        if (pmo.remap[r] >= materials->size()) {
          return Error{ErrorCode::bad_value, std::nullopt, "remap[" + std::to_string(r) + "]",
                       "material " + std::to_string(pmo.remap[r]) + " is past the " +
                           std::to_string(materials->size()) + " materials"};
        }
        current = (*materials)[pmo.remap[r]];
      }
      prim->material = current;
      if (current >= 0) {
        Material& mat = scene.materials[static_cast<std::size_t>(current)];
        if (!prim->colors.empty()) mat.vertex_colors = true;
        if (record.lighting_flags & 4) mat.alpha_mode = AlphaMode::blend;  // the mesh's alpha-blend bit
      }
      prim->extras["remap"] = r;
      mesh.primitives.push_back(std::move(*prim));
    }
    mesh.extras = {{"uv_scale", record.uv_scale},
                   {"lighting_flags", record.lighting_flags},
                   {"blend", record.blend},
                   {"material_count", record.material_count},
                   {"unknown_0x11", record.unknown_0x11},
                   {"material_start", record.material_start}};
    scene.meshes.push_back(std::move(mesh));
    Node node;
    node.name = name + "_mesh" + std::to_string(m);
    node.mesh = static_cast<int>(scene.meshes.size()) - 1;
    node.skin = skin;
    scene.add_node(std::move(node));
  }
  return {};
}

Extras pmo_extras(const MhfuPmo& pmo) {
  return {{"scale", pmo.scale},
          {"clip_distance", pmo.clip_distance},
          {"version", std::string(pmo.version.begin(), std::find(pmo.version.begin(), pmo.version.end(), '\0'))},
          {"unknown_0x38", std::vector<int>(pmo.unknown_0x38.begin(), pmo.unknown_0x38.end())}};
}

Result<Scene> lift_parts(const std::vector<const MhfuPmoFile*>& pmos, const MhfuSkeletonFile* skeleton,
                         const TextureBank& textures, const char* format) {
  Scene scene;
  scene.scenes.push_back(SceneRoots{"scene", {}});
  int skin = -1;
  if (skeleton) {
    Result<int> s = lift_skeleton(scene, skeleton->skeleton);
    if (!s) return s.error();
    skin = *s;
  }
  Extras models = Extras::array();
  for (std::size_t i = 0; i < pmos.size(); ++i) {
    const std::string name = pmos.size() == 1 ? "pmo" : "pmo" + std::to_string(i);
    if (auto e = lift_pmo_into(scene, pmos[i]->pmo, name, skin, textures); !e) return e.error();
    models.push_back(pmo_extras(pmos[i]->pmo));
  }
  scene.extras = {{"format", format}, {"euler_order", "xyz"}, {"pmo", std::move(models)}};
  return scene;
}

}  // namespace

Result<Scene> lift_mhfu_pmo(const MhfuPmoFile& file, const LiftInputs& inputs) {
  std::optional<Document> bank;
  TextureBank textures;
  if (inputs.textures) {
    bank = Document{*inputs.textures};
    textures = {&*bank, 0, inputs.textures->tmh.images.size()};
  }
  return lift_parts({&file}, inputs.skeleton, textures, "mhfu-pmo");
}

Result<Scene> mhfu::lift_skeleton_alone(const MhfuSkeletonFile& file) { return lift_parts({}, &file, {}, "mhfu-pac"); }

Result<Scene> lift_mhfu_pac(const Pac& pac, const LiftInputs& inputs) {
  static_cast<void>(inputs);  // a PAC carries its own skeleton and textures
  std::vector<const MhfuPmoFile*> pmos;
  const MhfuSkeletonFile* skeleton = nullptr;
  const Document document{pac};
  TextureBank textures;
  std::size_t images = 0;  // list_textures order counts the images of every TMH entry
  for (const PacEntry& e : pac.entries) {
    if (const auto* p = std::get_if<MhfuPmoFile>(&e.content)) pmos.push_back(p);
    if (const auto* s = std::get_if<MhfuSkeletonFile>(&e.content); s && !skeleton) skeleton = s;
    if (const auto* t = std::get_if<TmhFile>(&e.content)) {
      if (!textures.document) textures = {&document, images, t->tmh.images.size()};
      images += t->tmh.images.size();
    }
  }
  if (pmos.empty()) return Error{ErrorCode::unsupported, std::nullopt, "entries", "the PAC holds no PMO model to export"};
  return lift_parts(pmos, skeleton, textures, "mhfu-pac");
}

}  // namespace remodel::scene
