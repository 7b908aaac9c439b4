// Issue 30 over the original, materials, textures and skeleton side: a modder's replacement (the
// game's meshes deleted, a new mesh weighted to the game's joints, a new material showing a new RGB
// checker, COLOR_0), made in code as Blender exports it, lowered over ww_cl.bdl, ww_jb.bdl,
// sms_mom_model.bmd and sms_ma_mdl1.bmd.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "blender_like.hpp"
#include "j3d/lower_fixture.hpp"
#include "model/gx/texture.hpp"
#include "model/j3d/j3d.hpp"
#include "model/j3d/mdl3.hpp"
#include "model/j3d/texture.hpp"
#include "posing.hpp"

namespace remodel {
namespace {

using namespace j3d_lower_test;

const char* const kSamples[] = {"ww_cl.bdl", "ww_jb.bdl", "sms_mom_model.bmd", "sms_ma_mdl1.bmd"};

// A 64x64 checker of 8x8 red and blue squares (exact in RGB565, so any colour format keeps it).
RgbaImage checker() {
  RgbaImage image;
  image.width = image.height = 64;
  image.rgba.resize(64 * 64 * 4);
  for (std::size_t y = 0; y < 64; ++y) {
    for (std::size_t x = 0; x < 64; ++x) {
      const bool red = ((x / 8) + (y / 8)) % 2 == 0;
      std::uint8_t* p = &image.rgba[(y * 64 + x) * 4];
      p[0] = red ? 255 : 0;
      p[2] = red ? 0 : 255;
      p[3] = 255;
    }
  }
  return image;
}

// The game's meshes deleted with the nodes drawing them, as Blender deletes mesh objects.
void delete_meshes(scene::Scene& s) {
  std::vector<int> new_of(s.nodes.size(), -1);
  std::vector<scene::Node> kept;
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    if (s.nodes[i].mesh >= 0) continue;
    new_of[i] = static_cast<int>(kept.size());
    kept.push_back(s.nodes[i]);
  }
  const auto remap = [&](std::vector<int>& v) {
    std::vector<int> out;
    for (int n : v) {
      if (n >= 0 && new_of[static_cast<std::size_t>(n)] >= 0) out.push_back(new_of[static_cast<std::size_t>(n)]);
    }
    v = out;
  };
  for (scene::Node& n : kept) {
    n.parent = n.parent >= 0 ? new_of[static_cast<std::size_t>(n.parent)] : -1;
    remap(n.children);
  }
  for (scene::Skin& k : s.skins) {
    remap(k.joints);
    k.skeleton = k.skeleton >= 0 ? new_of[static_cast<std::size_t>(k.skeleton)] : -1;
  }
  for (scene::SceneRoots& r : s.scenes) remap(r.nodes);
  s.nodes = std::move(kept);
  s.meshes.clear();
}

// The replacement: a box at each joint, its lower corners on the joint, its upper ones shared with
// the parent joint (envelopes), coloured per joint; one new material showing the checker and COLOR_0.
scene::Scene replacement(const scene::Scene& game) {
  scene::Scene s = game;
  test::strip_extras_like_blender(s);
  test::turn_bones_like_blender(s);
  delete_meshes(s);
  const scene::Skin& skin = s.skins.at(0);
  const std::vector<scene::Mat4> world = scene::world_matrices(s);
  float extent = 1;
  for (int n : skin.joints) extent = std::max(extent, scene::length(scene::transform_point(world[static_cast<std::size_t>(n)], {0, 0, 0})));
  const float r = extent * 0.03f;
  std::vector<int> joint_of(s.nodes.size(), -1);
  for (std::size_t j = 0; j < skin.joints.size(); ++j) joint_of[static_cast<std::size_t>(skin.joints[j])] = static_cast<int>(j);
  scene::Primitive p;
  p.influences = 4;
  p.uvs.resize(1);
  for (std::size_t j = 0; j < skin.joints.size(); ++j) {
    const int node = skin.joints[j];
    const scene::Vec3 c = scene::transform_point(world[static_cast<std::size_t>(node)], {0, 0, 0});
    const int parent = s.nodes[static_cast<std::size_t>(node)].parent;
    const int pj = parent >= 0 ? joint_of[static_cast<std::size_t>(parent)] : -1;
    const auto first = static_cast<std::uint32_t>(p.positions.size());
    for (int k = 0; k < 8; ++k) {
      const scene::Vec3 corner{k & 1 ? 1.0f : -1.0f, k & 2 ? 1.0f : -1.0f, k & 4 ? 1.0f : -1.0f};
      p.positions.push_back(c + corner * (r * (1 + 0.05f * static_cast<float>(j))));  // joints at one place: boxes apart
      p.normals.push_back(scene::normalize(corner));
      p.colors.push_back({static_cast<float>(j % 3 == 0), static_cast<float>(j % 3 == 1), static_cast<float>(j % 3 == 2), 1});
      p.uvs[0].push_back({k & 1 ? 1.0f : 0.0f, k & 2 ? 1.0f : 0.0f});
      const bool upper = (k & 2) != 0 && pj >= 0;
      p.joints.insert(p.joints.end(), {static_cast<std::uint16_t>(j), static_cast<std::uint16_t>(upper ? pj : 0), 0, 0});
      p.weights.insert(p.weights.end(), {upper ? 0.5f : 1.0f, upper ? 0.5f : 0.0f, 0, 0});
    }
    static const std::uint32_t faces[12][3] = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                               {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
    for (const auto& f : faces) {
      for (std::uint32_t v : f) p.indices.push_back(first + v);
    }
  }
  p.material = 0;
  scene::Mesh mesh;
  mesh.name = "Replacement";
  mesh.primitives.push_back(std::move(p));
  s.meshes.push_back(std::move(mesh));
  scene::Texture t;
  t.image = checker();  // Blender writes it unnamed
  s.textures = {t};
  scene::Material m;
  m.name = "Checker";
  m.texture = 0;
  m.vertex_colors = true;
  s.materials = {m};
  scene::Node drawn;
  drawn.name = "Replacement";
  drawn.mesh = 0;
  drawn.skin = 0;
  s.add_node(drawn);
  return s;
}

// The game's own meshes through Blender, every primitive now showing the modder's new material (a
// checker; no vertex colours, which shapes that draw none could not keep): the material rules
// without a new shape.
scene::Scene repainted(const scene::Scene& game) {
  scene::Scene s = game;
  test::strip_extras_like_blender(s);
  test::turn_bones_like_blender(s);
  scene::Texture t;
  t.image = checker();
  s.textures = {t};
  scene::Material m;
  m.name = "Checker";
  m.texture = 0;
  s.materials = {m};
  for (scene::Mesh& mesh : s.meshes) {
    for (scene::Primitive& p : mesh.primitives) p.material = 0;
  }
  return s;
}

Bytes section_bytes(const J3dFile& f, const J3dSection& s) {
  J3dFile one;
  one.type = f.type;
  one.padding = f.padding;
  one.sections = {s};
  auto b = write_j3d(one);
  EXPECT_TRUE(b.ok());
  return b.ok() ? *b : Bytes{};
}

// What INF1 says, walked once: each joint's parent joint and the material node each shape stands under.
struct Inf1View {
  std::vector<int> parent_of_joint, material_of_shape;
};

Inf1View inf1_view(const J3dFile& f) {
  Inf1View v{std::vector<int>(section<J3dJnt1>(f).joints.size(), -2), std::vector<int>(section<J3dShp1>(f).shapes.size(), -1)};
  struct At {
    const std::vector<J3dNode>* nodes;
    int joint, material;
  };
  std::vector<At> stack{{&section<J3dInf1>(f).roots, -1, -1}};
  while (!stack.empty()) {
    const At at = stack.back();
    stack.pop_back();
    for (const J3dNode& n : *at.nodes) {
      if (n.type == 0x10 && n.index < v.parent_of_joint.size()) v.parent_of_joint[n.index] = at.joint;
      if (n.type == 0x12 && n.index < v.material_of_shape.size()) v.material_of_shape[n.index] = at.material;
      stack.push_back({&n.children, n.type == 0x10 ? n.index : at.joint, n.type == 0x11 ? n.index : at.material});
    }
  }
  return v;
}

// The material rules on one output: `added` is the new material's MAT3 index.
void expect_new_material(const Base& b, const Output& o, bool vertex_colours) {
  const J3dFile& base = std::get<J3dFile>(b.doc);
  const J3dMat3& mat_in = section<J3dMat3>(base);
  const J3dMat3& mat = section<J3dMat3>(o.file);
  const std::size_t added = mat_in.remap.size();
  ASSERT_EQ(mat.remap.size(), added + 1) << "one material added, the base's kept";
  EXPECT_EQ(mat.names.names.back(), "Checker");
  for (const Warning& w : o.warnings) EXPECT_NE(w.where, "materials") << w.message;  // no match by order
  EXPECT_TRUE(std::any_of(o.warnings.begin(), o.warnings.end(), [](const Warning& w) { return w.message.find("added as MAT3 material") != std::string::npos; }));
  // Every shape that draws stands under the new material.
  const std::vector<int> material = inf1_view(o.file).material_of_shape;
  const J3dShp1& shp = section<J3dShp1>(o.file);
  std::size_t drawing = 0;
  for (std::size_t k = 0; k < shp.shapes.size(); ++k) {
    if (shp.shapes[k].packet_count == 0) continue;
    ++drawing;
    EXPECT_EQ(material[k], static_cast<int>(added)) << "shape " << k;
  }
  EXPECT_GT(drawing, 0u);
  // Its texture: a new TEX1 entry in a colour format holding the checker's texels.
  const J3dTex1& tex_in = section<J3dTex1>(base);
  const J3dTex1& tex = section<J3dTex1>(o.file);
  ASSERT_EQ(tex.textures.size(), tex_in.textures.size() + 1);
  const std::uint8_t format = tex.textures.back().format;
  EXPECT_TRUE(format != gx_i4 && format != gx_i8 && format != gx_ia4 && format != gx_ia8) << "format " << int{format};
  auto image = decode_j3d_texture(tex, tex.textures.size() - 1);
  ASSERT_TRUE(image.ok());
  EXPECT_TRUE(*image == checker());
  const J3dMaterialEntry& e = mat.entries[mat.remap[added]];
  ASSERT_NE(e.textures[0], 0xFFFF);
  EXPECT_EQ(mat.textures[e.textures[0]], tex.textures.size() - 1);
  for (std::size_t k = 0; k < tex_in.textures.size(); ++k) {
    auto was = decode_j3d_texture(tex_in, k), now = decode_j3d_texture(tex, k);
    ASSERT_TRUE(was.ok() && now.ok());
    EXPECT_TRUE(*was == *now) << "TEX1 " << k << " changed";
  }
  // The lift shows it: the new material with the checker (and the vertex colours).
  ASSERT_EQ(o.scene.materials.size(), added + 1);
  const scene::Material& lifted = o.scene.materials.back();
  EXPECT_EQ(lifted.vertex_colors, vertex_colours);
  ASSERT_GE(lifted.texture, 0);
  EXPECT_TRUE(o.scene.textures[static_cast<std::size_t>(lifted.texture)].image == checker());
  if (const J3dMdl3* mdl = j3d_section<J3dMdl3>(o.file)) {  // a BDL: the material's packet, as authoring makes it
    ASSERT_EQ(mdl->packets.size(), mat.remap.size());
    EXPECT_EQ(mdl->names.names.back(), "Checker");
    J3dMat3 alone = mat;
    alone.remap = {mat.remap[added]};
    alone.names.names = {"Checker"};
    alone.indirect = {mat.indirect.back()};
    bool wind_waker = false;  // Wind Waker's blend mask in the base's first packet
    for (const J3dGxCommand& c : mdl->packets[0].commands) wind_waker = wind_waker || c.args == Bytes{0xFE, 0x00, 0x1F, 0xE7};
    auto made = j3d_mdl3_from_mat3(alone, tex, wind_waker ? J3dMdlFlavour::wind_waker : J3dMdlFlavour::galaxy);
    ASSERT_TRUE(made.ok());
    ASSERT_EQ(made->packets[0].commands.size(), mdl->packets.back().commands.size());
    for (std::size_t c = 0; c < made->packets[0].commands.size(); ++c) EXPECT_EQ(made->packets[0].commands[c].args, mdl->packets.back().commands[c].args) << "command " << c;
  }
}

// The skeleton rule: JNT1's bytes, EVP1's inverse binds and INF1's joint hierarchy are the base's.
void expect_skeleton_kept(const Base& b, const Output& o) {
  const J3dFile& base = std::get<J3dFile>(b.doc);
  EXPECT_EQ(section_bytes(base, J3dSection{section<J3dJnt1>(base)}), section_bytes(o.file, J3dSection{section<J3dJnt1>(o.file)}));
  const auto& binds = section<J3dEvp1>(base).inverse_binds;
  const auto& out_binds = section<J3dEvp1>(o.file).inverse_binds;
  ASSERT_EQ(binds.size(), out_binds.size());
  for (std::size_t j = 0; j < binds.size(); ++j) {
    EXPECT_EQ(0, std::memcmp(binds[j].data(), out_binds[j].data(), sizeof(binds[j]))) << "EVP1 inverse bind " << j;
  }
  EXPECT_EQ(inf1_view(base).parent_of_joint, inf1_view(o.file).parent_of_joint);
}

// Rule: an incoming material no base material stands for becomes a new MAT3 entry (its texture a
// new TEX1 entry in a colour format), never a base material by order; the base's materials stay,
// unused; the base's TEX1 entries keep their texels; a BDL's MDL3 gains the material's packet; the
// shapes that show it stand under it in INF1. The skeleton Blender turned keeps its bytes.
TEST(ReplaceJ3d, ANewMaterialOnTheGamesMeshesIsAdded) {
  for (const char* name : kSamples) {
    SCOPED_TRACE(name);
    LOAD_OR_SKIP(b, name);
    const Output o = lower_and_reread(repainted(b.scene), b);
    ASSERT_FALSE(o.bytes.empty());
    expect_new_material(b, o, false);
    expect_skeleton_kept(b, o);
  }
}

// The same with the replacement: the game's meshes deleted, a new mesh weighted to the
// game's joints, COLOR_0.
TEST(ReplaceJ3d, TheReplacementsMaterialIsAddedAndTheSkeletonKept) {
  for (const char* name : kSamples) {
    SCOPED_TRACE(name);
    LOAD_OR_SKIP(b, name);
    const Output o = lower_and_reread(replacement(b.scene), b);
    ASSERT_FALSE(o.bytes.empty());
    expect_new_material(b, o, true);
    expect_skeleton_kept(b, o);
  }
}

// Rule: as a new file with --skeleton GAMEFILE, the authored file's JNT1 is the game's byte for byte
// (names, order, transforms, bounds, flags), its EVP1 inverse binds the game's, INF1's joints under
// the game's parents, though Blender turned every bone (before: 30 of ww_cl's 42 and 18 of sms_mom's
// 20 joints came out turned); and the written file poses as the glTF does.
TEST(ReplaceJ3d, ANewFileOnTheGamesSkeletonStoresItsJointsByteForByte) {
  for (const char* name : kSamples) {
    SCOPED_TRACE(name);
    LOAD_OR_SKIP(b, name);
    const J3dFile& base = std::get<J3dFile>(b.doc);
    const scene::Scene incoming = replacement(b.scene);
    scene::LowerInputs inputs;
    inputs.skeleton = &b.doc;
    inputs.j3d_bdl = base.type[0] == 'b' && base.type[1] == 'd';
    auto made = scene::author(incoming, Format::j3d, inputs);
    ASSERT_TRUE(made.ok()) << made.error().describe();
    auto bytes = write_document(made->document);
    ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
    auto doc = read_document(*bytes);
    ASSERT_TRUE(doc.ok());
    const J3dFile& out = std::get<J3dFile>(*doc);
    EXPECT_EQ(section_bytes(base, J3dSection{section<J3dJnt1>(base)}), section_bytes(out, J3dSection{section<J3dJnt1>(out)}));
    const auto& binds = section<J3dEvp1>(base).inverse_binds;
    const auto& out_binds = section<J3dEvp1>(out).inverse_binds;
    ASSERT_EQ(binds.size(), out_binds.size());
    for (std::size_t j = 0; j < binds.size(); ++j) EXPECT_EQ(0, std::memcmp(binds[j].data(), out_binds[j].data(), sizeof(binds[j]))) << "EVP1 inverse bind " << j;
    EXPECT_EQ(inf1_view(base).parent_of_joint, inf1_view(out).parent_of_joint);
    auto lifted = scene::lift(*doc);
    ASSERT_TRUE(lifted.ok()) << lifted.error().describe();
    float size = 1;
    for (const scene::Vec3& v : incoming.meshes[0].primitives[0].positions) size = std::max(size, scene::length(v));
    const test::PosedDrift d = test::posed_drift(incoming, *lifted, b.scene, test::bend_every_joint(b.scene, 0.6f), 2e-3f * size);
    EXPECT_EQ(d.beyond, 0u) << "posed " << d.max_posed << " apart (model size " << size << ")";
  }
}

// Rule: a changed texture whose image another TEX1 entry shares gets its own image when its size
// changes (it was refused: "resizing one of them is not supported"); the other keeps its texels.
TEST(ReplaceJ3d, AResizedTextureSharingItsImageGetsItsOwn) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  std::size_t shared = 0;
  for (const auto& path : files) {
    auto doc = read_document(test::load_file(path));
    ASSERT_TRUE(doc.ok());
    const J3dTex1* tex_in = j3d_section<J3dTex1>(std::get<J3dFile>(*doc));
    if (tex_in == nullptr) continue;
    for (std::size_t k = 0; k < tex_in->textures.size(); ++k) {
      std::vector<std::size_t> sharing;
      for (std::size_t j = 0; j < tex_in->textures.size(); ++j) {
        if (j != k && tex_in->textures[j].image_block == tex_in->textures[k].image_block) sharing.push_back(j);
      }
      // At its own size a shared image changes for every entry showing it: only a resize splits it.
      if (sharing.empty() || (tex_in->textures[k].width == 64 && tex_in->textures[k].height == 64)) continue;
      SCOPED_TRACE(path.filename().string() + " TEX1 " + std::to_string(k));
      ++shared;
      J3dTex1 tex = *tex_in;
      ASSERT_TRUE(replace_j3d_texture(tex, k, checker()).ok());
      EXPECT_NE(tex.textures[k].image_block, tex_in->textures[k].image_block);
      auto now = decode_j3d_texture(tex, k);
      ASSERT_TRUE(now.ok());
      EXPECT_EQ(now->width, 64u);
      EXPECT_EQ(now->height, 64u);
      for (std::size_t j : sharing) {
        auto was = decode_j3d_texture(*tex_in, j), other = decode_j3d_texture(tex, j);
        ASSERT_TRUE(was.ok() && other.ok());
        EXPECT_TRUE(*was == *other) << "TEX1 " << j << " changed with it";
        EXPECT_EQ(tex.textures[j].width, tex_in->textures[j].width);
      }
      break;  // one per file
    }
  }
  if (shared == 0) GTEST_SKIP() << "no sample shares a TEX1 image";
}

}  // namespace
}  // namespace remodel
