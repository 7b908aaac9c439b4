// KH BBS PMO/PMP/PAM lifted into the Scene: bind pose, weights, triangles, textures and animation
// values against the file's own bytes, on every sample and on the code-built demo.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <numbers>
#include <optional>

#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "model/kh_bbs/demo.hpp"
#include "model/kh_bbs/pam.hpp"
#include "model/kh_bbs/pmo.hpp"
#include "model/psp/vertex.hpp"
#include "model/textures.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"

namespace remodel::scene {
namespace {

constexpr float kPi4 = std::numbers::pi_v<float> / 4;

struct Figures {
  std::size_t triangles = 0;
  float bind_error = 0;  // max |world * inverse_bind - I| over every skin joint
};

// The checks every lifted KH BBS scene passes (SCENE_BRIEF.md), with the figures the report quotes.
void check_scene(const Scene& scene, const Document& doc, const std::string& what, Figures& fig) {
  const std::vector<Mat4> world = world_matrices(scene);
  for (const Skin& skin : scene.skins) {
    EXPECT_EQ(skin.joints.size(), skin.inverse_bind_matrices.size()) << what;
    for (std::size_t j = 0; j < skin.joints.size() && j < skin.inverse_bind_matrices.size(); ++j) {
      const float e = max_abs_difference(world[static_cast<std::size_t>(skin.joints[j])] * skin.inverse_bind_matrices[j], Mat4::identity());
      fig.bind_error = std::max(fig.bind_error, e);
      for (float f : skin.inverse_bind_matrices[j].m) EXPECT_TRUE(std::isfinite(f)) << what;
    }
  }
  EXPECT_LE(fig.bind_error, 1e-4f) << what;
  for (const Node& n : scene.nodes) {
    EXPECT_TRUE(finite(n.local.translation) && finite(n.local.scale)) << what << " node " << n.name;
    EXPECT_TRUE(std::isfinite(n.local.rotation.x + n.local.rotation.y + n.local.rotation.z + n.local.rotation.w)) << what;
    if (n.mesh >= 0) {
      EXPECT_LT(static_cast<std::size_t>(n.mesh), scene.meshes.size()) << what;
    }
  }
  for (const Mesh& m : scene.meshes) {
    for (std::size_t pi = 0; pi < m.primitives.size(); ++pi) {
      const Primitive& p = m.primitives[pi];
      const std::string where = what + " " + m.name + " primitive " + std::to_string(pi);
      EXPECT_EQ(p.topology, Topology::triangles) << where;
      EXPECT_EQ(p.indices.size() % 3, 0u) << where;
      fig.triangles += p.indices.size() / 3;
      for (std::uint32_t i : p.indices) ASSERT_LT(i, p.vertex_count()) << where;
      for (std::size_t t = 0; t + 2 < p.indices.size(); t += 3) {
        ASSERT_TRUE(p.indices[t] != p.indices[t + 1] && p.indices[t + 1] != p.indices[t + 2] && p.indices[t] != p.indices[t + 2]) << where;
      }
      for (const Vec3& v : p.positions) ASSERT_TRUE(finite(v)) << where;
      for (const auto& set : p.uvs) {
        ASSERT_EQ(set.size(), p.vertex_count()) << where;
        for (const Vec2& uv : set) ASSERT_TRUE(std::isfinite(uv.x) && std::isfinite(uv.y)) << where;
      }
      if (!p.colors.empty()) {
        ASSERT_EQ(p.colors.size(), p.vertex_count()) << where;
      }
      for (const Vec4& c : p.colors) ASSERT_TRUE(c.x >= 0 && c.x <= 1 && c.y >= 0 && c.y <= 1 && c.z >= 0 && c.z <= 1 && c.w >= 0 && c.w <= 1) << where;
      if (p.influences != 0) {
        ASSERT_EQ(p.influences % 4, 0u) << where;
        ASSERT_EQ(p.weights.size(), p.vertex_count() * p.influences) << where;
        ASSERT_EQ(p.joints.size(), p.weights.size()) << where;
        for (std::size_t v = 0; v < p.vertex_count(); ++v) {
          float sum = 0;
          for (std::size_t k = 0; k < p.influences; ++k) {
            sum += p.weights[v * p.influences + k];
            ASSERT_GE(p.weights[v * p.influences + k], 0.0f) << where;
          }
          ASSERT_NEAR(sum, 1.0f, 1e-3f) << where << " vertex " << v;
        }
      }
      ASSERT_GE(p.material, 0) << where;
      ASSERT_LT(static_cast<std::size_t>(p.material), scene.materials.size()) << where;
    }
  }
  for (const Node& n : scene.nodes) {
    if (n.skin < 0) continue;
    const Skin& skin = scene.skins[static_cast<std::size_t>(n.skin)];
    for (const Primitive& p : scene.meshes[static_cast<std::size_t>(n.mesh)].primitives) {
      for (std::uint16_t j : p.joints) ASSERT_LT(j, skin.joints.size()) << what;
    }
  }
  // Triangles: each PMO's mesh once, as document_info counts them.
  EXPECT_EQ(fig.triangles, document_info(doc).triangles) << what;
  // Textures: what `textures extract` writes, in its order and with its names.
  const std::vector<TextureInfo> listed = list_textures(doc);
  EXPECT_EQ(scene.textures.size(), listed.size()) << what;
  for (std::size_t i = 0; i < listed.size() && i < scene.textures.size(); ++i) {
    auto image = decode_texture(doc, i);
    ASSERT_TRUE(image.ok()) << what;
    EXPECT_EQ(scene.textures[i].image, *image) << what << " texture " << i;
    EXPECT_EQ(scene.textures[i].name, listed[i].name) << what;
  }
  for (const Material& m : scene.materials) {
    if (m.texture >= 0) {
      EXPECT_LT(static_cast<std::size_t>(m.texture), scene.textures.size()) << what;
    }
  }
}

std::string figures_line(const Scene& s, const Figures& f) {
  return "nodes " + std::to_string(s.nodes.size()) + ", meshes " + std::to_string(s.meshes.size()) + ", primitives " +
         [&] {
           std::size_t n = 0;
           for (const Mesh& m : s.meshes) n += m.primitives.size();
           return std::to_string(n);
         }() +
         ", triangles " + std::to_string(f.triangles) + ", max |world*IBM - I| " + [&] {
           char b[32];
           std::snprintf(b, sizeof b, "%.2g", static_cast<double>(f.bind_error));
           return std::string(b);
         }();
}

const Node* find_node(const Scene& s, const std::string& name) {
  for (const Node& n : s.nodes) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

// ---- samples ----

TEST(SceneKhBbs, EveryPmoSampleLifts) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmo");
  for (const auto& path : files) {
    auto doc = read_document(test::load_file(path));
    ASSERT_TRUE(doc.ok()) << path;
    auto scene = lift(*doc);
    ASSERT_TRUE(scene.ok()) << path << ": " << scene.error().describe();
    Figures f;
    check_scene(*scene, *doc, path.filename().string(), f);
    if (HasFatalFailure()) return;
    std::cout << "[figures] " << path.filename().string() << ": " << figures_line(*scene, f) << "\n";
    const PmoFile& pmo = std::get<PmoFile>(*doc);
    ASSERT_EQ(scene->meshes.size(), 1u);
    std::size_t sections = 0;
    for (const auto* l : {&pmo.pmo.mesh0, &pmo.pmo.mesh1}) sections += l->has_value() ? (*l)->sections.size() : 0;
    EXPECT_EQ(scene->meshes[0].primitives.size(), sections) << path;
    if (pmo.pmo.skeleton) {
      ASSERT_EQ(scene->skins.size(), 1u) << path;
      EXPECT_EQ(scene->skins[0].joints.size(), pmo.pmo.skeleton->joints.size()) << path;
      EXPECT_EQ(scene->nodes.size(), pmo.pmo.skeleton->joints.size() + 1) << path;
    } else {
      EXPECT_TRUE(scene->skins.empty()) << path;
      EXPECT_EQ(scene->nodes.size(), 1u) << path;  // a plain mesh node
    }
    // Mesh1 is the translucent pass.
    for (const Primitive& p : scene->meshes[0].primitives) {
      if (p.extras["list"] == 1) {
        EXPECT_EQ(scene->materials[static_cast<std::size_t>(p.material)].alpha_mode, AlphaMode::blend) << path;
      }
    }
  }
}

TEST(SceneKhBbs, P01ex00SkeletonStandsYUpAndScalesPositions) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmo");
  for (const auto& path : files) {
    if (path.filename() != "p01ex00.pmo") continue;
    auto doc = read_document(test::load_file(path));
    ASSERT_TRUE(doc.ok());
    auto scene = lift(*doc);
    ASSERT_TRUE(scene.ok()) << scene.error().describe();
    const PmoFile& pmo = std::get<PmoFile>(*doc);
    // The first vertex of the first section, by hand from its bytes: s16 / 32768 * the header scale.
    const PmoSection& s = pmo.pmo.mesh0->sections[0];
    const auto layout = psp::VertexFormat::parse(s.vertex_flags & 0xFFFFFF).layout();
    std::int16_t raw[3];
    std::memcpy(raw, s.vertices.data() + layout.position, sizeof raw);
    const Vec3 p0 = scene->meshes[0].primitives[0].positions[0];
    EXPECT_FLOAT_EQ(p0.x, raw[0] / 32768.0f * pmo.pmo.scale);
    EXPECT_FLOAT_EQ(p0.y, raw[1] / 32768.0f * pmo.pmo.scale);
    EXPECT_FLOAT_EQ(p0.z, raw[2] / 32768.0f * pmo.pmo.scale);
    // Y up: the head is above the centre, which is above the root at the origin.
    const std::vector<Mat4> world = world_matrices(*scene);
    float top = 0, bottom = 1e9f;
    for (int j : scene->skins[0].joints) {
      top = std::max(top, world[static_cast<std::size_t>(j)].at(1, 3));
      bottom = std::min(bottom, world[static_cast<std::size_t>(j)].at(1, 3));
    }
    EXPECT_GT(top, 1.4f);
    EXPECT_NEAR(bottom, 0.0f, 1e-4f);
    ASSERT_NE(find_node(*scene, "center"), nullptr);
    // The 80x40 eye texture is drawn as 128x64 on the GE: its UVs stay inside the image once scaled.
    for (const Primitive& p : scene->meshes[0].primitives) {
      if (p.extras["texture"] != 1) continue;
      EXPECT_EQ(p.extras["uv_scale"], Extras::array({128.0f / 80.0f, 64.0f / 40.0f}));
      for (const Vec2& uv : p.uvs[0]) {
        EXPECT_LE(uv.x, 1.0f);
        EXPECT_LE(uv.y, 1.0f);
      }
    }
    return;
  }
  GTEST_SKIP() << "p01ex00.pmo not present";
}

TEST(SceneKhBbs, EveryPmpSampleLifts) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmp");
  for (const auto& path : files) {
    auto doc = read_document(test::load_file(path));
    ASSERT_TRUE(doc.ok()) << path;
    auto scene = lift(*doc);
    ASSERT_TRUE(scene.ok()) << path << ": " << scene.error().describe();
    Figures f;
    check_scene(*scene, *doc, path.filename().string(), f);
    if (HasFatalFailure()) return;
    std::cout << "[figures] " << path.filename().string() << ": " << figures_line(*scene, f) << "\n";
    const Pmp& pmp = std::get<Pmp>(*doc);
    ASSERT_GE(scene->nodes.size(), pmp.objects.size());
    for (std::size_t i = 0; i < pmp.objects.size(); ++i) {
      const Node* n = find_node(*scene, "object" + std::to_string(i));
      ASSERT_NE(n, nullptr) << path;
      EXPECT_EQ(n->parent, -1);
      EXPECT_EQ(n->local.translation, (Vec3{pmp.objects[i].position[0], pmp.objects[i].position[1], pmp.objects[i].position[2]}));
      EXPECT_EQ(n->local.scale, (Vec3{pmp.objects[i].scale[0], pmp.objects[i].scale[1], pmp.objects[i].scale[2]}));
      if (!pmp.objects[i].pmo) {
        EXPECT_TRUE(n->children.empty()) << "a null object is an empty node";
        continue;
      }
      ASSERT_EQ(n->children.size(), 1u);  // the unskinned map PMOs: one mesh node
      const Node& child = scene->nodes[static_cast<std::size_t>(n->children[0])];
      EXPECT_EQ(scene->meshes[static_cast<std::size_t>(child.mesh)].name, "pmo" + std::to_string(*pmp.objects[i].pmo));
    }
    EXPECT_EQ(scene->extras["texture_infos"].size(), pmp.textures.size());
  }
}

// ---- the code-built demo ----

TEST(SceneKhBbs, DemoPmoByHand) {
  const Document doc = build_demo_pmo();
  auto scene = lift(doc);
  ASSERT_TRUE(scene.ok()) << scene.error().describe();
  Figures f;
  check_scene(*scene, doc, "demo", f);
  if (HasFatalFailure()) return;
  EXPECT_EQ(f.triangles, 12u);  // 8 from the list, 2 + 2 from the two 4-vertex strips
  ASSERT_EQ(scene->nodes.size(), 3u);
  EXPECT_EQ(scene->nodes[0].name, "root");
  EXPECT_EQ(scene->nodes[1].name, "top");
  EXPECT_EQ(scene->nodes[1].parent, 0);
  EXPECT_EQ(scene->nodes[1].local.translation, (Vec3{0, 1, 0}));
  const Mesh& mesh = scene->meshes[0];
  ASSERT_EQ(mesh.primitives.size(), 2u);
  const Primitive& list = mesh.primitives[0];
  // Corner (-1,-1,-1) stored as -16384 / 32768 * scale 2.
  EXPECT_EQ(list.positions[0], (Vec3{-1, -1, -1}));
  EXPECT_EQ(list.uvs[0][0], (Vec2{0, 1}));
  EXPECT_EQ(list.influences, 4u);
  EXPECT_EQ(list.weights[0], 1.0f);  // y = -1: all on the root
  EXPECT_EQ(list.weights[1], 0.0f);
  // A y = +1 vertex is all on the top joint (joint 1).
  EXPECT_EQ(list.positions[2].y, 1.0f);
  EXPECT_EQ(list.joints[2 * 4 + 1], 1);
  EXPECT_EQ(list.weights[2 * 4 + 1], 1.0f);
  const Primitive& strip = mesh.primitives[1];
  EXPECT_EQ(strip.indices, (std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3, 4, 5, 6, 6, 5, 7}));
  EXPECT_EQ(strip.extras["strip_lengths"], Extras::array({4, 4}));
  EXPECT_EQ(strip.extras["primitive"], 4);
  const Material& m = scene->materials[static_cast<std::size_t>(list.material)];
  EXPECT_EQ(m.name, "demo_cube");
  EXPECT_EQ(m.texture, 0);
  EXPECT_EQ(m.alpha_mode, AlphaMode::opaque);  // the demo's two colours are opaque (CLUT alpha 0xFF)
}

TEST(SceneKhBbs, BadSectionsAreErrorsNamingTheirField) {
  {
    PmoFile f = build_demo_pmo();
    (*f.pmo.mesh0->sections[0].joints)[1] = 0xFF;  // a weighted slot with no joint
    auto s = lift_kh_bbs_pmo(f, {});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().field, "pmo.mesh0.sections[0].joints[1]");
  }
  {
    PmoFile f = build_demo_pmo();
    f.pmo.mesh0->sections[1].strip_lengths = {4, 5};  // one vertex more than stored
    auto s = lift_kh_bbs_pmo(f, {});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().field, "pmo.mesh0.sections[1].strip_lengths");
    EXPECT_NE(s.error().message.find("9 vertices"), std::string::npos) << s.error().message;
  }
  {
    PmoFile f = build_demo_pmo();
    f.pmo.mesh0->sections[0].texture = 3;
    auto s = lift_kh_bbs_pmo(f, {});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().field, "pmo.mesh0.sections[0].texture");
  }
  {
    PmoFile f = build_demo_pmo();
    f.pmo.skeleton->joints[0].parent = 1;  // a parent after its child: a cycle here
    auto s = lift_kh_bbs_pmo(f, {});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().field, "pmo.skeleton.joints[0].parent");
  }
}

TEST(SceneKhBbs, UnweightedSectionsFollowTheirFirstJoint) {
  PmoFile f = build_demo_pmo();
  PmoSection& s = f.pmo.mesh0->sections[1];
  psp::VertexFormat format = psp::VertexFormat::parse(s.vertex_flags & 0xFFFFFF);
  auto vertices = psp::decode_vertices(format, s.vertices, s.vertex_count());
  ASSERT_TRUE(vertices.ok());
  format.weight = psp::NumFormat::none;
  format.weight_count = 0;
  s.vertices = psp::encode_vertices(format, *vertices);
  s.vertex_flags = format.vtype() | (4u << 28);
  (*s.joints) = {1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  auto scene = lift_kh_bbs_pmo(f, {});
  ASSERT_TRUE(scene.ok()) << scene.error().describe();
  const Primitive& p = scene->meshes[0].primitives[1];
  ASSERT_EQ(p.influences, 4u);
  for (std::size_t v = 0; v < p.vertex_count(); ++v) {
    EXPECT_EQ(p.joints[v * 4], 1);
    EXPECT_EQ(p.weights[v * 4], 1.0f);
  }
}

// ---- PAM ----

float f32_at(const Bytes& b, std::size_t o) {
  float f;
  std::memcpy(&f, b.data() + o, 4);
  return f;
}
std::uint16_t u16_at(const Bytes& b, std::size_t o) { return static_cast<std::uint16_t>(b[o] | b[o + 1] << 8); }

// The first translation channel with keys in the first PAM record, walked by hand from the bytes
// (kh-bbs-pam.md): its bone, axis, and the frame and value of its middle key.
struct HandKey {
  std::size_t bone = 0;
  int axis = 0;
  std::uint16_t frame = 0;
  float value = 0;
  bool found = false;
};

HandKey first_translation_key(const Bytes& b) {
  HandKey out;
  const std::size_t record = b[16] | b[17] << 8 | b[18] << 16 | static_cast<std::size_t>(b[19]) << 24;  // entry 0's offset
  const std::size_t bones = b[record + 6];
  const std::uint16_t frames = u16_at(b, record + 8);
  const bool wide = frames > 255;
  std::size_t o = record + 12 + 2 * bones;
  for (std::size_t bone = 0; bone < bones; ++bone) {
    const std::uint16_t flags = u16_at(b, record + 12 + 2 * bone);
    for (int kind = 0; kind < 9; ++kind) {
      if ((flags >> kind & 1) == 0) continue;
      const float max = f32_at(b, o), min = f32_at(b, o + 4);
      const std::size_t count = wide ? u16_at(b, o + 8) : b[o + 8];
      o += wide ? 10 : 9;
      const std::size_t key = count / 2;
      if (count == 1) continue;  // a constant
      const bool sparse = count != frames;
      const std::size_t entry = sparse ? (wide ? 4 : 3) : 2;
      if (kind < 3 && !out.found) {
        const std::size_t k = o + key * entry;
        out = {bone, kind, sparse ? static_cast<std::uint16_t>(wide ? u16_at(b, k) : b[k]) : static_cast<std::uint16_t>(key),
               min + (max - min) * (static_cast<float>(u16_at(b, k + entry - 2)) / 65535.0f), true};
      }
      o += count * entry;
    }
  }
  return out;
}

TEST(SceneKhBbs, TestPamOnP01ex00MatchesItsBytes) {
  auto model = test::load_named_sample("kh-bbs/pmo", "p01ex00.pmo");
  auto anim = test::load_named_sample("kh-bbs/pam", "test.pam");
  if (!model || !anim) {
    if (test::samples_required()) FAIL() << "p01ex00.pmo or test.pam missing";
    GTEST_SKIP() << "p01ex00.pmo and test.pam not present";
  }
  LiftInputs inputs;
  inputs.animations = {&*anim};
  auto scene = lift(*model, inputs);
  ASSERT_TRUE(scene.ok()) << scene.error().describe();
  ASSERT_EQ(scene->animations.size(), 1u);
  const Animation& a = scene->animations[0];
  EXPECT_EQ(a.name, "OpenKHAnim");
  EXPECT_EQ(a.extras["loop_from"], 89);
  EXPECT_EQ(a.extras["loop_to"], 0);
  EXPECT_EQ(a.extras["fps"], 30);
  // Only channels that exist: bone 0 has no flags, so no channel drives the root joint.
  const Skin& skin = scene->skins[0];
  for (const Channel& c : a.channels) {
    EXPECT_NE(c.node, skin.joints[0]);
    EXPECT_EQ(c.values.size(), c.times.size() * (c.path == Path::rotation ? 4u : 3u));
    for (std::size_t i = 1; i < c.times.size(); ++i) ASSERT_LT(c.times[i - 1], c.times[i]);
    ASSERT_LE(c.times.back(), 89.0f / 30.0f + 1e-6f);
  }
  const HandKey key = first_translation_key(test::load_file(test::samples_root() / "kh-bbs/pam/test.pam"));
  ASSERT_TRUE(key.found);
  bool checked = false;
  for (const Channel& c : a.channels) {
    if (c.node != skin.joints[key.bone] || c.path != Path::translation) continue;
    for (std::size_t i = 0; i < c.times.size(); ++i) {
      if (c.times[i] != static_cast<float>(key.frame) / 30.0f) continue;
      EXPECT_FLOAT_EQ(c.values[i * 3 + static_cast<std::size_t>(key.axis)], key.value)
          << "bone " << key.bone << " axis " << key.axis << " frame " << key.frame;
      checked = true;
    }
  }
  EXPECT_TRUE(checked) << "no translation key at frame " << key.frame << " for bone " << key.bone;
  // Constants that equal the bind pose (notes-kh-bbs.md): bone 1's translation.
  for (const Channel& c : a.channels) {
    if (c.node != skin.joints[1] || c.path != Path::translation) continue;
    const Vec3 bind = scene->nodes[static_cast<std::size_t>(skin.joints[1])].local.translation;
    EXPECT_NEAR(c.values[1], bind.y, 1e-6f);
  }
}

TEST(SceneKhBbs, PamWithTheWrongBoneCountSaysBothCounts) {
  auto model = test::load_named_sample("kh-bbs/pmo", "p01ex00.pmo");
  auto anim = test::load_named_sample("kh-bbs/pam", "p03ex00021e.anim");
  if (!model || !anim) {
    if (test::samples_required()) FAIL() << "p01ex00.pmo or p03ex00021e.anim missing";
    GTEST_SKIP() << "p01ex00.pmo and p03ex00021e.anim not present";
  }
  LiftInputs inputs;
  inputs.animations = {&*anim};
  auto scene = lift(*model, inputs);
  ASSERT_FALSE(scene.ok());
  EXPECT_EQ(scene.error().code, ErrorCode::bad_count);
  EXPECT_NE(scene.error().message.find("51 bones"), std::string::npos) << scene.error().message;
  EXPECT_NE(scene.error().message.find("53 joints"), std::string::npos) << scene.error().message;
}

TEST(SceneKhBbs, DemoPamByHand) {
  const Document model = build_demo_pmo();
  const Document pam = build_demo_pam();
  LiftInputs inputs;
  inputs.animations = {&pam};
  auto scene = lift(model, inputs);
  ASSERT_TRUE(scene.ok()) << scene.error().describe();
  ASSERT_EQ(scene->animations.size(), 2u);  // the empty slot makes none
  const Animation& sway = scene->animations[0];
  EXPECT_EQ(sway.name, "sway");
  EXPECT_EQ(sway.extras["interpolation_frames"], 0);  // as both real PAMs
  EXPECT_EQ(sway.extras["loop_from"], 29);
  EXPECT_EQ(scene->animations[1].name, "long");
  const Channel* scale = nullptr;
  const Channel* rotation = nullptr;
  for (const Channel& c : sway.channels) {
    if (c.node == 1 && c.path == Path::scale) scale = &c;
    if (c.node == 1 && c.path == Path::rotation) rotation = &c;
    EXPECT_EQ(c.interpolation, Interpolation::linear);
  }
  // Scale Y: sparse keys 0, 15 and 29 at 1.0, 1.25, 1.0 (min + (max - min) * q / 65535); X and Z from the bind pose.
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(scale->times, (std::vector<float>{0.0f, 15.0f / 30.0f, 29.0f / 30.0f}));
  EXPECT_EQ(scale->values, (std::vector<float>{1, 1, 1, 1, 1.25f, 1, 1, 1, 1}));
  // Rotation Y on every frame: key 0 is q = round(0.5 * 65535) between -pi/4 and pi/4, about Y.
  ASSERT_NE(rotation, nullptr);
  ASSERT_EQ(rotation->times.size(), 30u);
  const float angle = -kPi4 + (2 * kPi4) * (32768.0f / 65535.0f);
  EXPECT_NEAR(rotation->values[1], std::sin(angle / 2), 1e-6f);
  EXPECT_NEAR(rotation->values[3], std::cos(angle / 2), 1e-6f);
  EXPECT_NEAR(rotation->values[0], 0.0f, 1e-7f);
  // The root's constant zero translation is one key at time 0.
  for (const Channel& c : sway.channels) {
    if (c.node == 0) {
      EXPECT_EQ(c.path, Path::translation);
      EXPECT_EQ(c.times, std::vector<float>{0.0f});
    }
  }
}

TEST(SceneKhBbs, AnimationsNeedASkeleton) {
  const Document pam = build_demo_pam();
  PmoFile f = build_demo_pmo();
  f.pmo.skeleton.reset();
  for (PmoSection& s : f.pmo.mesh0->sections) s.joints.reset();
  LiftInputs inputs;
  inputs.animations = {&pam};
  auto scene = lift_kh_bbs_pmo(f, inputs);
  ASSERT_FALSE(scene.ok());
  EXPECT_NE(scene.error().message.find("no skeleton"), std::string::npos);
}

// ---- hostile input: whatever reads must lift or fail with a message, never crash ----

void expect_lift_or_error(const Bytes& bytes, const Document* animation, const std::string& what) {
  auto doc = read_document(bytes);
  if (!doc.ok()) return;
  LiftInputs inputs;
  if (animation != nullptr) inputs.animations = {animation};
  auto scene = lift(*doc, inputs);
  if (!scene.ok()) {
    ASSERT_FALSE(scene.error().message.empty()) << what;
    return;
  }
  // What lifts must export, or be refused by the writer with a message (e.g. a non-finite scale).
  auto glb = gltf::write_glb(*scene);
  if (!glb.ok()) {
    ASSERT_FALSE(glb.error().message.empty()) << what;
  }
}

TEST(SceneKhBbs, PatchedDemoFilesLiftOrFailCleanly) {
  auto pmo = write_pmo_file(build_demo_pmo());
  auto pam = write_pam(build_demo_pam());
  ASSERT_TRUE(pmo.ok() && pam.ok());
  const Document demo_pam = build_demo_pam();
  for (std::size_t o = 0; o < pmo->size(); ++o) {
    for (std::uint8_t v : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {  // each lift exports too (PNG encoding): two values
      Bytes b = *pmo;
      b[o] = v;
      expect_lift_or_error(b, &demo_pam, "PMO byte " + std::to_string(o) + " = " + std::to_string(v));
      if (HasFatalFailure()) return;
    }
  }
  const Document model = build_demo_pmo();
  for (std::size_t o = 0; o < pam->size(); ++o) {
    for (std::uint8_t v : {std::uint8_t{0x00}, std::uint8_t{0x7F}, std::uint8_t{0xFF}}) {
      Bytes b = *pam;
      b[o] = v;
      auto anim = read_document(b);
      if (!anim.ok()) continue;
      LiftInputs inputs;
      inputs.animations = {&*anim};
      auto scene = lift(model, inputs);
      if (!scene.ok()) {
        ASSERT_FALSE(scene.error().message.empty()) << "PAM byte " << o;
      }
    }
  }
}

}  // namespace
}  // namespace remodel::scene
