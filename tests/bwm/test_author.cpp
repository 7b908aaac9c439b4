// Black & White 2 BWM authored from a Scene alone (issue 17): the hand-made Scenes and every shared
// glTF sample become BWMs (version 6, and 5) that read back, round-trip byte-exactly and lift to the
// input. BWM stores f32 positions, normals, UVs and weights: positions compare bit for bit (z is
// negated, which is exact), UVs exactly, weights within 1e-5 (renormalised floats). The layout is
// checked against notes-bwm.md byte by byte, by offsets computed here from the spec.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "author_checks.hpp"
#include "author_scenes.hpp"
#include "cli/cli.hpp"
#include "gltf_samples.hpp"
#include "model/bwm/bwm.hpp"
#include "model/document.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"

namespace remodel {
namespace {

using scene::Mat4;
using scene::Scene;
using test::cylinder;
using test::grid;
using test::one_mesh;
using test::triangle;

constexpr float kTurn = 0.3f;

std::uint32_t u32_at(const Bytes& b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t{b.at(at + static_cast<std::size_t>(i))} << (8 * i);
  return v;
}
float f32_at(const Bytes& b, std::size_t at) { return std::bit_cast<float>(u32_at(b, at)); }
std::uint16_t u16_at(const Bytes& b, std::size_t at) { return static_cast<std::uint16_t>(b.at(at) | b.at(at + 1) << 8); }

struct Authored {
  Bwm bwm;
  Bytes bytes;
  std::vector<Warning> warnings;
  Scene lifted;
  bool ok = false;
};

// Authors `in` as a BWM of `version`, writes it, reads it back, checks the round trip, lifts it.
Authored authored(const Scene& in, std::uint32_t version, const std::string& what) {
  Authored out;
  scene::LowerInputs inputs;
  inputs.bwm_version = version;
  auto made = scene::author(in, Format::bwm, inputs);
  EXPECT_TRUE(made.ok()) << what << ": " << (made ? "" : made.error().field + ": " + made.error().message);
  if (!made) return out;
  out.warnings = made->warnings;
  auto bytes = write_document(made->document);
  EXPECT_TRUE(bytes.ok()) << what << ": " << (bytes ? "" : bytes.error().message);
  if (!bytes) return out;
  out.bytes = *bytes;
  auto read = read_document(*bytes);
  EXPECT_TRUE(read.ok()) << what << ": " << (read ? "" : read.error().describe());
  if (!read || !std::holds_alternative<Bwm>(*read)) return out;
  auto again = write_document(*read);
  EXPECT_TRUE(again.ok() && *again == *bytes) << what << ": write(read(authored)) differs from the authored bytes";
  out.bwm = std::get<Bwm>(*read);
  EXPECT_EQ(out.bwm.version, version) << what;
  auto lifted = scene::lift_bwm(out.bwm, {});
  EXPECT_TRUE(lifted.ok()) << what << ": " << (lifted ? "" : lifted.error().message);
  if (!lifted) return out;
  out.lifted = std::move(*lifted);
  out.ok = true;
  return out;
}

// The input as a BWM holds it: skin joints named as the lift names bones ("bone<k>", k = the joint's
// place in the skin); vertex colours dropped; UV sets in the file's order (the material's set first,
// at most 3, zeros where a primitive has none but the file stores some).
Scene as_authored(Scene s, std::size_t file_uv_sets) {
  for (const scene::Skin& skin : s.skins) {
    for (std::size_t k = 0; k < skin.joints.size(); ++k) s.nodes[static_cast<std::size_t>(skin.joints[k])].name = "bone" + std::to_string(k);
  }
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) {
      p.colors.clear();
      const int set = p.material >= 0 ? s.materials[static_cast<std::size_t>(p.material)].uv_set : 0;
      if (set > 0 && static_cast<std::size_t>(set) < p.uvs.size()) std::rotate(p.uvs.begin(), p.uvs.begin() + set, p.uvs.begin() + set + 1);
      p.uvs.resize(std::min<std::size_t>(p.uvs.size(), 3));
      while (p.uvs.size() < file_uv_sets) p.uvs.emplace_back(p.vertex_count(), scene::Vec2{0, 0});
    }
  }
  for (scene::Material& m : s.materials) m.uv_set = 0;
  for (const scene::Node& n : s.nodes) {
    if (n.mesh >= 0 && n.visible && n.skin >= 0) {
      test::pose_skinned_vertices(s, n.skin);  // bones hold the nodes' pose, vertices are skinned to it
      break;
    }
  }
  return s;
}

std::size_t uv_sets_of(const Bwm& bwm) {
  std::size_t n = 0;
  for (const BwmAttribute& a : bwm.strides.at(0).attributes) n += a.id == 2;
  return n;
}

// Every skin joint's world matrix (the pose the glTF shows) is its bone's world in the lifted file.
void expect_same_bones(const Scene& in, const Scene& lifted, const std::string& what) {
  const int used = [&] {
    for (const scene::Node& n : in.nodes) {
      if (n.mesh >= 0 && n.visible && n.skin >= 0) return n.skin;
    }
    return -1;
  }();
  if (used < 0) {
    EXPECT_TRUE(lifted.skins.empty()) << what;
    return;
  }
  ASSERT_EQ(lifted.skins.size(), 1u) << what;
  const scene::Skin& a = in.skins[static_cast<std::size_t>(used)];
  const scene::Skin& b = lifted.skins[0];
  ASSERT_EQ(a.joints.size(), b.joints.size()) << what;
  const std::vector<Mat4> wi = scene::world_matrices(in), wl = scene::world_matrices(lifted);
  for (std::size_t k = 0; k < a.joints.size(); ++k) {
    const Mat4& pose = wi[static_cast<std::size_t>(a.joints[k])];
    float size = 1;
    for (float f : pose.m) size = std::max(size, std::abs(f));
    EXPECT_LE(scene::max_abs_difference(pose, wl[static_cast<std::size_t>(b.joints[k])]), 1e-5f * size) << what << ": bone " << k;
  }
}

std::size_t check(const Scene& raw, std::uint32_t version, const std::string& what, Authored* keep = nullptr, test::Tolerance tol = {0.0f, 0.0f}) {
  Authored a = authored(raw, version, what);
  if (!a.ok) return 0;
  const Scene in = as_authored(raw, uv_sets_of(a.bwm));
  const std::size_t n = test::expect_same_surface(test::drawn_surface(in, {}), test::drawn_surface(a.lifted, {}), tol, what);
  expect_same_bones(raw, a.lifted, what);
  if (keep != nullptr) *keep = std::move(a);
  return n;
}

// notes-bwm.md: metadataSize = 0x80 + 0x1C0 nMat + 0xDC nMesh + 0x20 nRef + 0x30 nBone + 0x130 nEnt
// + 0xC (nUnk + nColl) + 0x88 nStride; vertex data starts at 0x38 + metadataSize.
std::size_t metadata_size(std::size_t materials, std::size_t meshes, std::size_t refs, std::size_t bones, std::size_t entities, std::size_t strides) {
  return 0x80 + 0x1C0 * materials + 0xDC * meshes + 0x20 * refs + 0x30 * bones + 0x130 * entities + 0x88 * strides;
}

TEST(AuthorBwm, TriangleLayoutFollowsTheSpec) {
  for (std::uint32_t version : {6u, 5u}) {
    Authored a;
    EXPECT_EQ(check(triangle(), version, "triangle v" + std::to_string(version), &a), 1u);
    const Bytes& b = a.bytes;
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(std::memcmp(b.data(), "LiOnHeAdMODEL\0\0\0", 16), 0);
    EXPECT_EQ(u32_at(b, 0x28), b.size() - 0x2C) << "size = file length - 0x2C";
    EXPECT_EQ(u32_at(b, 0x2C), 0x2B00B1E5u);
    EXPECT_EQ(u32_at(b, 0x30), version);
    // One material, one mesh with one reference, no bones or entities, one stride (positions only).
    const std::size_t meta = metadata_size(1, 1, 1, 0, 0, 1);
    EXPECT_EQ(u32_at(b, 0x34), meta);
    for (std::size_t at : {0x7Cu, 0x80u}) EXPECT_EQ(u32_at(b, at), 1u) << "material and mesh counts";
    for (std::size_t at : {0x84u, 0x88u, 0x8Cu, 0x90u}) EXPECT_EQ(u32_at(b, at), 0u) << "no bones, entities or points";
    EXPECT_EQ(u32_at(b, 0xA8), 3u) << "vertex count";
    EXPECT_EQ(u32_at(b, 0xAC), 1u) << "stride count";
    EXPECT_EQ(u32_at(b, 0xB0), 2u) << "type 2: a model of triangle lists";
    EXPECT_EQ(u32_at(b, 0xB4), 3u) << "index count";
    // Header bounds: the box (0,0,0)-(1,1,0) of the triangle.
    EXPECT_EQ(f32_at(b, 0x54), 1.0f);
    EXPECT_EQ(f32_at(b, 0x58), 1.0f);
    EXPECT_EQ(f32_at(b, 0x6C), 1.0f) << "height";
    // The mesh description after the material: faces 1, indices 0+3, vertices 0+3, identity axes, LOD 1.
    const std::size_t mesh = 0xB8 + 0x1C0;
    EXPECT_EQ(u32_at(b, mesh), 1u);
    EXPECT_EQ(u32_at(b, mesh + 8), 3u);
    EXPECT_EQ(u32_at(b, mesh + 16), 3u);
    EXPECT_EQ(f32_at(b, mesh + 0x14 + 8), 1.0f) << "zaxis (0,0,1)";
    EXPECT_EQ(f32_at(b, mesh + 0x20), 1.0f) << "xaxis (1,0,0)";
    EXPECT_EQ(u32_at(b, mesh + 0x88), 1u) << "one material reference";
    EXPECT_EQ(u32_at(b, mesh + 0x90), 1u) << "lod_level 1";
    EXPECT_EQ(std::memcmp(b.data() + mesh + 0x94, "mesh\0", 5), 0);
    const std::size_t ref = mesh + 0xDC;
    const std::uint32_t expected_ref[8] = {0, 0, 3, 0, 3, 0, 1, 0};
    for (std::size_t k = 0; k < 8; ++k) EXPECT_EQ(u32_at(b, ref + 4 * k), expected_ref[k]) << "material reference field " << k;
    const std::size_t stride = ref + 0x20;
    EXPECT_EQ(u32_at(b, stride), 1u);
    EXPECT_EQ(u32_at(b, stride + 4), 0u) << "id 0: position";
    EXPECT_EQ(u32_at(b, stride + 8), 2u) << "format 2: f32x3";
    for (std::size_t at = stride + 12; at < stride + 0x88; ++at) ASSERT_EQ(b[at], 0) << "the stride's tail is zeros";
    const std::size_t vertices = 0x38 + meta;
    EXPECT_EQ(vertices, stride + 0x88);
    EXPECT_EQ(f32_at(b, vertices + 12), 1.0f) << "vertex 1 x";
    EXPECT_EQ(u32_at(b, vertices + 8), 0x80000000u) << "z negated: -0.0";
    const std::size_t indices = vertices + 3 * 12;
    EXPECT_EQ(u16_at(b, indices), 0);
    EXPECT_EQ(u16_at(b, indices + 2), 2) << "winding reversed for D3D's left-handed space";
    EXPECT_EQ(u16_at(b, indices + 4), 1);
    EXPECT_EQ(b.size(), indices + 6 + (version == 6 ? 4u : 0u)) << "version 6 ends with a cleave count (0)";
    if (version == 6) {
      EXPECT_EQ(u32_at(b, indices + 6), 0u);
    }
  }
}

TEST(AuthorBwm, SkinnedCylinderStoresNineStridesAndStrips) {
  Scene s = one_mesh({cylinder(12, 5, 2.0f, 2, true)});
  test::add_chain(s, 2, 2.0f, kTurn);
  for (std::uint32_t version : {6u, 5u}) {
    Authored a;
    EXPECT_EQ(check(s, version, "cylinder v" + std::to_string(version), &a), 12u * 4 * 2);
    const Bytes& b = a.bytes;
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(u32_at(b, 0xB0), 3u) << "type 3: a skin";
    EXPECT_EQ(u32_at(b, 0x84), 2u) << "two bones";
    EXPECT_EQ(u32_at(b, 0xAC), 9u) << "stride 0, 4 bone-index strides, 4 weight strides";
    EXPECT_EQ(u32_at(b, 0xA8), 60u) << "vertex count";
    const std::size_t bones = 0xB8 + 0x1C0 + 0xDC + 0x20;
    // Bone 1: joint1's bind pose, 2 up and turned 0.3 rad about z; D3D rows z, x, y, position.
    const std::size_t bone1 = bones + 0x30;
    EXPECT_NEAR(f32_at(b, bone1 + 12), std::cos(kTurn), 1e-6f) << "xaxis.x";
    EXPECT_NEAR(f32_at(b, bone1 + 16), std::sin(kTurn), 1e-6f) << "xaxis.y";
    EXPECT_EQ(f32_at(b, bone1 + 8), 1.0f) << "zaxis.z";
    EXPECT_NEAR(f32_at(b, bone1 + 40), 2.0f, 1e-6f) << "position.y";
    const std::size_t strides = bones + 2 * 0x30;
    const std::uint32_t stride0[5] = {2, 0, 2, 1, 2};  // position f32x3, normal f32x3
    for (std::size_t k = 0; k < 5; ++k) EXPECT_EQ(u32_at(b, strides + 4 * k), stride0[k]);
    for (std::size_t s8 = 1; s8 <= 8; ++s8) {
      const std::size_t at = strides + 0x88 * s8;
      EXPECT_EQ(u32_at(b, at), 1u);
      EXPECT_EQ(u32_at(b, at + 4), s8 <= 4 ? 6u : 7u) << "bone index, then weight";
      EXPECT_EQ(u32_at(b, at + 8), s8 <= 4 ? 4u : 0u) << "u8, then f32";
    }
    EXPECT_EQ(u32_at(b, 0x34), metadata_size(1, 1, 1, 2, 0, 9));
    // One strip: its reference's size is the strip's length - 2 (its triangles, degenerate ones too).
    const BwmMaterialRef& r = a.bwm.meshes.at(0).material_refs.at(0);
    EXPECT_EQ(r.indices_size + 2, a.bwm.indices.size());
    EXPECT_EQ(r.faces_size, r.indices_size);
    EXPECT_LT(a.bwm.indices.size(), 12u * 4 * 2 * 3) << "a strip stores fewer indices than the list";
    // Normals come back (f32, in the lift's handedness).
    const scene::Primitive& in = s.meshes[0].primitives[0];
    const scene::Primitive& out = a.lifted.meshes.at(0).primitives.at(0);
    ASSERT_EQ(out.normals.size(), in.normals.size());
    for (std::size_t v = 0; v < in.normals.size(); ++v) EXPECT_LE(scene::length(out.normals[v] - in.normals[v]), 1e-6f);
  }
}

TEST(AuthorBwm, TexturedQuadNamesItsTexture) {
  RgbaImage image(4, 4);
  Scene s = test::textured_quad(image);
  Authored a;
  EXPECT_EQ(check(s, 6, "quad", &a), 2u);
  ASSERT_EQ(a.bwm.materials.size(), 1u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(a.bwm.materials[0].diffuse.data())), "quad_tex") << "the diffuse texture the game loads";
  bool colours = false;
  for (const auto& w : a.warnings) colours = colours || w.message.find("colours are dropped") != std::string::npos;
  EXPECT_TRUE(colours) << "the quad's vertex colours are not white";
}

TEST(AuthorBwm, TwelveJointsOnOneStrip) {
  Authored a;
  EXPECT_EQ(check(test::twelve_joint_strip(kTurn), 6, "strip", &a), 22u);
  EXPECT_EQ(a.bwm.bones.size(), 12u);
  EXPECT_EQ(a.bwm.type, 3u);
}

TEST(AuthorBwm, FiveWeightsAreNarrowedToFour) {
  scene::Primitive p;
  p.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  p.indices = {0, 1, 2};
  p.influences = 8;
  for (std::uint16_t v = 0; v < 3; ++v) {
    p.joints.insert(p.joints.end(), {0, 1, 2, 3, 4, 0, 0, 0});
    p.weights.insert(p.weights.end(), {0.3f, 0.25f, 0.2f, 0.15f, 0.1f, 0, 0, 0});
  }
  Scene s = one_mesh({p});
  test::add_chain(s, 5, 0.1f, kTurn);
  Authored a = authored(s, 6, "five weights");
  ASSERT_TRUE(a.ok);
  bool warned = false;
  for (const auto& w : a.warnings) warned = warned || w.message.find("more than 4 joints") != std::string::npos;
  EXPECT_TRUE(warned);
  const scene::Primitive& out = a.lifted.meshes.at(0).primitives.at(0);
  ASSERT_EQ(out.weights.size(), 12u);
  EXPECT_NEAR(out.weights[0], 0.3f / 0.9f, 1e-6f) << "the strongest 4, renormalised";
  EXPECT_EQ(out.joints[3], 3);
}

TEST(AuthorBwm, SeventyThousandVerticesAreRefusedNamingTheLimit) {
  // Indices are absolute into the file's one vertex array (notes-bwm.md): no split can reach past 65,535.
  auto made = scene::author(grid(280, 250), Format::bwm);
  ASSERT_FALSE(made.ok());
  EXPECT_EQ(made.error().code, ErrorCode::unsupported);
  EXPECT_EQ(made.error().field, "meshes[0].primitives[0]");
  EXPECT_NE(made.error().message.find("65,535"), std::string::npos) << made.error().message;
  // Just under the limit: one reference over 65,280 vertices.
  Authored a;
  EXPECT_EQ(check(grid(255, 256), 6, "grid 255x256", &a), 254u * 255 * 2);
  EXPECT_EQ(bwm_vertex_count(a.bwm), 255u * 256);
}

TEST(AuthorBwm, NoNormalsStoreNone) {
  Scene s = one_mesh({cylinder(8, 3, 1.0f, 2, false)});
  test::add_chain(s, 2, 1.0f, kTurn);
  Authored a;
  EXPECT_GT(check(s, 6, "no normals", &a), 0u);
  ASSERT_FALSE(a.bwm.strides.empty());
  EXPECT_EQ(a.bwm.strides[0].attributes.size(), 1u) << "positions only";
  // A second primitive with normals: the first gets smooth ones, with a warning.
  scene::Primitive with = cylinder(8, 3, 1.0f, 2, true);
  for (auto& v : with.positions) v.x += 2;
  s.meshes[0].primitives.push_back(with);
  Authored b;
  EXPECT_GT(check(s, 6, "mixed normals", &b), 0u);
  ASSERT_FALSE(b.bwm.strides.empty());
  EXPECT_EQ(b.bwm.strides[0].attributes.size(), 2u);
  const scene::Primitive& smooth = b.lifted.meshes.at(0).primitives.at(0);
  ASSERT_EQ(smooth.normals.size(), smooth.positions.size());
  for (std::size_t v = 0; v < smooth.positions.size(); ++v) {
    const scene::Vec3 out{smooth.positions[v].x, 0, smooth.positions[v].z};
    EXPECT_GT(scene::dot(smooth.normals[v], scene::normalize(out)), 0.5f) << "the side's smooth normal points away from the axis";
  }
}

TEST(AuthorBwm, TwoUvSetsKeepBothTheMaterialsFirst) {
  RgbaImage image(4, 4);
  Scene s = test::textured_quad(image);
  auto& p = s.meshes[0].primitives[0];
  p.uvs.push_back({{0.5f, 0.5f}, {0.75f, 0.5f}, {0.5f, 0.25f}, {0.75f, 0.25f}});
  s.materials[0].uv_set = 1;
  Authored a;
  EXPECT_EQ(check(s, 6, "two UV sets", &a), 2u);  // as_authored puts set 1 first, as the file does
  EXPECT_EQ(uv_sets_of(a.bwm), 2u);
  const scene::Primitive& out = a.lifted.meshes.at(0).primitives.at(0);
  ASSERT_EQ(out.uvs.size(), 2u);
  EXPECT_EQ(out.uvs[0][1].x, 0.75f) << "the material's set first";
  EXPECT_EQ(out.uvs[1][1].x, 1.0f);
}

TEST(AuthorBwm, EmptyNodesBecomeEntities) {
  Scene s = grid(3, 3);
  scene::Node marker;
  marker.name = "Door";
  marker.local.translation = {1, 2, 3};
  s.add_node(marker);
  Authored a;
  EXPECT_EQ(check(s, 6, "entity", &a), 8u);
  ASSERT_EQ(a.bwm.entities.size(), 1u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(a.bwm.entities[0].name.data())), "Door");
  EXPECT_EQ(a.bwm.entities[0].transform.position, (BwmVec3{1, 2, -3})) << "z negated";
  bool found = false;
  for (const scene::Node& n : a.lifted.nodes) {
    if (n.name != "Door") continue;
    found = true;
    EXPECT_EQ(n.local.translation, (scene::Vec3{1, 2, 3}));
  }
  EXPECT_TRUE(found);
}

TEST(AuthorBwm, HostileScenesAreClearErrors) {
  test::expect_author_refuses_hostile_scenes(Format::bwm);
  scene::LowerInputs v7;
  v7.bwm_version = 7;
  test::expect_author_refuses(triangle(), Format::bwm, "bwm_version", "version 7", v7);
  Scene many = test::twelve_joint_strip(kTurn);
  for (int j = 0; j < 300; ++j) many.skins[0].joints.push_back(many.add_node(scene::Node{}, -1));
  many.skins[0].inverse_bind_matrices.resize(many.skins[0].joints.size());
  test::expect_author_refuses(many, Format::bwm, "skins[0].joints", "312 joints");
  Scene singular = test::twelve_joint_strip(kTurn);
  singular.skins[0].inverse_bind_matrices[2].m.fill(0);
  test::expect_author_refuses(singular, Format::bwm, "inverse_bind_matrices[2]", "a singular inverse bind");
  Scene mixed = test::twelve_joint_strip(kTurn);
  scene::Node rigid;
  rigid.mesh = 0;
  mixed.add_node(rigid);
  test::expect_author_refuses(mixed, Format::bwm, "skin", "a skinned and an unskinned node");
}

// Every glTF in the shared samples becomes a BWM (version 6 and 5) that reads back, round-trips and
// draws the input's surface with its joints and weights, or is refused naming the limit.
TEST(AuthorBwm, SharedGltfSamples) {
  REMODEL_SAMPLES_OR_SKIP(files, "gltf");
  std::size_t v6 = 0, v5 = 0, refused = 0, skinned = 0, bytes = 0;
  for (const auto& [what, read] : test::readable_gltf_samples(files)) {
    auto made = scene::author(read.scene, Format::bwm);
    if (!made) {
      ++refused;
      EXPECT_EQ(made.error().code, ErrorCode::unsupported) << what << ": " << made.error().field << ": " << made.error().message;
      std::printf("refused %s: %s: %s\n", what.c_str(), made.error().field.c_str(), made.error().message.c_str());
      continue;
    }
    test::Tolerance tol{0.0f, 0.0f};
    for (const auto& w : made->warnings) {
      if (w.message.find("more than 4 joints") != std::string::npos) tol.weight = 1.0f;
    }
    Authored a;
    if (check(read.scene, 6, what, &a, tol) > 0) ++v6;
    if (!a.ok) continue;
    skinned += a.bwm.type == 3;
    bytes += a.bytes.size();
    Authored b;
    if (check(read.scene, 5, what + " v5", &b, tol) > 0) ++v5;
    EXPECT_EQ(b.bytes.size() + 4 + 12 * a.bwm.cleave_points.size(), a.bytes.size()) << what << ": version 5 lacks only the cleave count";
    std::printf("%s: %zu bytes, %u vertices, %zu meshes, %zu bones, %zu entities, type %u\n", what.c_str(), a.bytes.size(), bwm_vertex_count(a.bwm),
                a.bwm.meshes.size(), a.bwm.bones.size(), a.bwm.entities.size(), a.bwm.type);
  }
  std::printf("%zu glTF samples authored as BWM v6 (%zu skins, %zu bytes in all), %zu as v5, %zu refused\n", v6, skinned, bytes, v5, refused);
  EXPECT_GT(v6, 0u);
}

// `remodel import IN.glb -o OUT.bwm` (and --bwm-version 5) authors a file `check` reads and writes back.
TEST(AuthorBwm, CliImportWithoutLikeAuthorsABwm) {
  namespace fs = std::filesystem;
  const fs::path dir = test::cli_temp_dir("author-bwm");
  const std::string glb = test::demo_glb(dir);
  ASSERT_FALSE(glb.empty());
  test::expect_cli_authors(glb, "", dir / "new.bwm", "bwm");
  const Bytes v6 = test::slurp(dir / "new.bwm");
  ASSERT_GE(v6.size(), 0xB8u);
  EXPECT_EQ(u32_at(v6, 0x30), 6u);
  test::expect_cli_authors(glb, "--format bwm --bwm-version 5", dir / "five.model", "bwm");
  const Bytes v5 = test::slurp(dir / "five.model");
  ASSERT_GE(v5.size(), 0xB8u);
  EXPECT_EQ(u32_at(v5, 0x30), 5u);
  EXPECT_EQ(v5.size() + 4, v6.size());
  EXPECT_EQ(test::run_cli("import " + glb + " --bwm-version 7 -o " + test::quoted(dir / "seven.bwm")).status, 2);
  EXPECT_EQ(test::run_cli("import " + glb + " --bwm-version 5 -o " + test::quoted(dir / "x.pac")).status, 2);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace remodel
