// MHFU PAC / PMO authored from a Scene alone (issue 16): hand-made Scenes, every MHFU sample's export
// with its extras dropped and every shared glTF sample become PACs that read back, round-trip
// byte-exactly and lift to the input within the format's quantisation (positions: the s16 stored
// integer over the header's per-axis scale; UVs: 1/32768; weights: 1/128; joint world matrices:
// 1e-4 relative, the f32 Euler angles; texture pixels: exact for images of at most 256 colours that
// RGBA5551 or RGBA8888 holds).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "author_checks.hpp"
#include "author_scenes.hpp"
#include "cli/cli.hpp"
#include "gltf/gltf.hpp"
#include "gltf_samples.hpp"
#include "model/document.hpp"
#include "model/mhfu/pac.hpp"
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
using test::used_skin;

constexpr float kTurn = 0.3f;  // the chain's second joint turns about Z, so Euler angles are tested

// 8x8 texels in three colours; the third's alpha is 128 (RGBA8888 palette) or 0 (RGBA5551 holds it).
Scene textured_quad(bool translucent_texel) { return test::three_colour_quad(translucent_texel ? 128 : 0); }


// The input as the format holds it: the skin's joints renamed "bone<k>" in the order authoring
// numbers bones (parents first, else skin order) as the lift names them, so weights compare by name;
// skinned positions moved from the bind pose to the rest pose (world * inverse bind) where MHFU
// stores them; all-white vertex colours dropped (authoring stores colours only when they tint).
Scene as_authored(Scene s) {
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) {
      if (std::all_of(p.colors.begin(), p.colors.end(), [](const scene::Vec4& c) { return c == scene::Vec4{1, 1, 1, 1}; })) p.colors.clear();
    }
  }
  const int used = used_skin(s);
  if (used < 0) return s;
  const scene::Skin& skin = s.skins[static_cast<std::size_t>(used)];
  const std::size_t n = skin.joints.size();
  std::vector<int> parent(n, -1), bone(n, -1);
  for (std::size_t j = 0; j < n; ++j) {
    for (int p = s.nodes[static_cast<std::size_t>(skin.joints[j])].parent; p >= 0 && parent[j] < 0; p = s.nodes[static_cast<std::size_t>(p)].parent) {
      const auto it = std::find(skin.joints.begin(), skin.joints.end(), p);
      if (it != skin.joints.end()) parent[j] = static_cast<int>(it - skin.joints.begin());
    }
  }
  for (int next = 0; next < static_cast<int>(n);) {
    for (std::size_t j = 0; j < n; ++j) {
      if (bone[j] < 0 && (parent[j] < 0 || bone[static_cast<std::size_t>(parent[j])] >= 0)) bone[j] = next++;
    }
  }
  for (std::size_t j = 0; j < n; ++j) s.nodes[static_cast<std::size_t>(skin.joints[j])].name = "bone" + std::to_string(bone[j]);
  test::pose_skinned_vertices(s, used);
  return s;
}

// The lifted file as the input had it: an unskinned input's root bone is not a skin to compare.
Scene as_input(Scene lifted, const Scene& in) {
  if (used_skin(in) < 0) {
    for (scene::Node& n : lifted.nodes) n.skin = -1;
  }
  return lifted;
}

struct Authored {
  Pac pac;
  const MhfuPmo* pmo = nullptr;
  const MhfuSkeleton* skeleton = nullptr;
  const Tmh* tmh = nullptr;
  std::vector<Warning> warnings;
  Scene lifted;
  std::size_t size = 0;
};

// Writes an authored PAC, reads it back, checks the round trip and lifts the file read back.
Authored written_back(const scene::Lowered& made, const std::string& what) {
  Authored out;
  out.warnings = made.warnings;
  auto bytes = write_document(made.document);
  EXPECT_TRUE(bytes.ok()) << what << ": " << (bytes ? "" : bytes.error().message);
  if (!bytes) return out;
  out.size = bytes->size();
  EXPECT_EQ(bytes->size() % 0x800, 0u) << what << ": a PAC ends on a 0x800 boundary";
  auto read = read_document(*bytes);
  EXPECT_TRUE(read.ok()) << what << ": " << (read ? "" : read.error().message);
  if (!read || !std::holds_alternative<Pac>(*read)) return out;
  auto again = write_document(*read);
  EXPECT_TRUE(again.ok() && *again == *bytes) << what << ": write(read(authored)) differs from the authored bytes";
  out.pac = std::get<Pac>(*read);
  for (const PacEntry& e : out.pac.entries) {
    if (const auto* p = std::get_if<MhfuPmoFile>(&e.content)) out.pmo = &p->pmo;
    if (const auto* k = std::get_if<MhfuSkeletonFile>(&e.content)) out.skeleton = &k->skeleton;
    if (const auto* t = std::get_if<TmhFile>(&e.content)) out.tmh = &t->tmh;
  }
  EXPECT_TRUE(out.pmo && out.skeleton && out.tmh) << what << ": the PAC holds a PMO, a skeleton and a TMH";
  auto lifted = scene::lift_mhfu_pac(out.pac, {});
  EXPECT_TRUE(lifted.ok()) << what << ": " << (lifted ? "" : lifted.error().message);
  if (lifted) out.lifted = std::move(*lifted);
  return out;
}

Authored author_checked(const Scene& in, const std::string& what) {
  auto made = scene::author(in, Format::mhfu_pac);
  EXPECT_TRUE(made.ok()) << what << ": " << (made ? "" : made.error().field + ": " + made.error().message);
  if (!made) return {};
  return written_back(*made, what);
}

test::PositionCode code_of(const MhfuPmo& pmo) { return {true, 1.0f, pmo.scale}; }

// Every skin joint's world matrix equals its bone's in the lifted file (1e-4 relative).
void expect_same_joints(const Scene& in, const Scene& lifted, const std::string& what) {
  const int used = used_skin(in);
  if (used < 0 || lifted.skins.empty()) return;
  const std::vector<Mat4> wi = scene::world_matrices(in), wl = scene::world_matrices(lifted);
  const scene::Skin& li = lifted.skins[0];
  for (int joint : in.skins[static_cast<std::size_t>(used)].joints) {
    const std::string& name = in.nodes[static_cast<std::size_t>(joint)].name;
    const auto it = std::find_if(li.joints.begin(), li.joints.end(), [&](int j) { return lifted.nodes[static_cast<std::size_t>(j)].name == name; });
    ASSERT_NE(it, li.joints.end()) << what << ": joint " << name << " is not in the authored skeleton";
    const Mat4& a = wi[static_cast<std::size_t>(joint)];
    const Mat4& b = wl[static_cast<std::size_t>(*it)];
    float size = 1;
    for (float f : a.m) size = std::max(size, std::abs(f));
    EXPECT_LE(scene::max_abs_difference(a, b), 1e-4f * size) << what << ": joint " << name << "'s world matrix";
  }
}

// Each textured material's image comes back texel for texel.
void expect_same_textures(const Scene& in, const Scene& lifted, const std::string& what) {
  for (const scene::Material& m : in.materials) {
    if (m.texture < 0) continue;
    const auto it = std::find_if(lifted.materials.begin(), lifted.materials.end(), [&](const scene::Material& l) { return l.texture >= 0; });
    ASSERT_NE(it, lifted.materials.end()) << what;
    const RgbaImage& a = in.textures[static_cast<std::size_t>(m.texture)].image;
    bool found = false;
    for (const scene::Texture& t : lifted.textures) found = found || (t.image.width == a.width && t.image.height == a.height && t.image.rgba == a.rgba);
    EXPECT_TRUE(found) << what << ": texture " << m.texture << " does not come back texel for texel";
  }
}

std::size_t check(const Scene& raw, const std::string& what, Authored* keep = nullptr) {
  Authored a = author_checked(raw, what);
  if (!a.pmo) return 0;
  const Scene in = as_authored(raw);
  const std::size_t n = test::expect_same_surface(test::drawn_surface(in, code_of(*a.pmo)), test::drawn_surface(as_input(a.lifted, in), code_of(*a.pmo)), {}, what);
  expect_same_joints(in, a.lifted, what);
  if (keep != nullptr) *keep = std::move(a);
  return n;
}

std::size_t max_slots(const MhfuPmo& pmo) {
  std::size_t out = 0;
  for (const MhfuBlock& b : pmo.blocks) {
    auto draw = decode_mhfu_block(b);
    EXPECT_TRUE(draw.ok());
    if (draw) out = std::max<std::size_t>(out, draw->format.weight_count);
  }
  return out;
}

TEST(AuthorMhfu, Triangle) {
  Authored a;
  EXPECT_EQ(check(triangle(), "triangle", &a), 1u);
  ASSERT_NE(a.skeleton, nullptr);
  EXPECT_EQ(a.skeleton->bones.size(), 1u) << "an unskinned model is rigid to one root bone";
  ASSERT_NE(a.pmo, nullptr);
  EXPECT_EQ(a.pmo->meshes.size(), 1u);
  EXPECT_EQ(a.pmo->meshes[0].lighting_flags, 0x80000003u);
}

TEST(AuthorMhfu, TexturedQuadKeepsItsTexelsAndColours) {
  for (bool translucent : {false, true}) {
    const Scene s = textured_quad(translucent);
    Authored a;
    EXPECT_EQ(check(s, "quad", &a), 2u);
    ASSERT_NE(a.tmh, nullptr);
    ASSERT_EQ(a.tmh->images.size(), 1u);
    const TmhImage& img = a.tmh->images[0];
    EXPECT_EQ(img.mode, 4u) << "3 colours: CLUT4";
    ASSERT_TRUE(img.clut.has_value());
    // Alpha 0 and 255 fit RGBA5551 (the samples' palette format); alpha 128 needs RGBA8888.
    EXPECT_EQ(img.clut->mode, translucent ? 3u : 1u);
    expect_same_textures(s, a.lifted, "quad");
    auto draw = decode_mhfu_block(a.pmo->blocks.at(0));
    ASSERT_TRUE(draw.ok());
    EXPECT_EQ(draw->format.color, psp::ColorFormat::abgr8888) << "vertex colours that are not all white are stored";
  }
}

TEST(AuthorMhfu, SkinnedCylinderWithTwoJoints) {
  Scene s = one_mesh({cylinder(12, 5, 2.0f, 2, true)});
  test::add_chain(s, 2, 2.0f, kTurn);
  Authored a;
  EXPECT_EQ(check(s, "cylinder", &a), 12u * 4 * 2);
  ASSERT_NE(a.skeleton, nullptr);
  ASSERT_EQ(a.skeleton->bones.size(), 2u);
  EXPECT_EQ(a.skeleton->bones[0].child, 1);
  EXPECT_EQ(a.skeleton->bones[1].parent, 0);
  EXPECT_NEAR(a.skeleton->bones[1].rotation[2], 0.3f, 1e-6f) << "Euler Z of the joint's 0.3 rad turn";
  EXPECT_EQ(max_slots(*a.pmo), 2u);
}

// Every real skeleton in the MHFU samples stores w = 1 in each bone's scale, rotation and position
// (measured on mhfu/*.skel and the PACs holding them); MHFU ModKit refuses "bone 0: w is not 1".
constexpr float kRealBoneW = 1.0f;

void expect_real_w(const MhfuSkeleton& skeleton, const std::string& what) {
  for (std::size_t b = 0; b < skeleton.bones.size(); ++b) {
    const MhfuBone& bone = skeleton.bones[b];
    EXPECT_EQ(bone.scale[3], kRealBoneW) << what << ": bone " << b << " scale w";
    EXPECT_EQ(bone.rotation[3], kRealBoneW) << what << ": bone " << b << " rotation w";
    EXPECT_EQ(bone.position[3], kRealBoneW) << what << ": bone " << b << " position w";
  }
}

// The skeletons authored from Scenes, read back from the written PAC, store the real files' w: the
// unskinned model's one root bone as well as a skin's joints.
TEST(AuthorMhfu, BonesStoreTheRealSkeletonsW) {
  Scene chain = one_mesh({cylinder(12, 5, 2.0f, 2, true)});
  test::add_chain(chain, 2, 2.0f, kTurn);
  const std::pair<const char*, Scene> scenes[] = {{"triangle", triangle()}, {"quad", textured_quad(false)}, {"cylinder", chain}};
  for (const auto& [what, s] : scenes) {
    const Authored a = author_checked(s, what);
    ASSERT_NE(a.skeleton, nullptr) << what;
    ASSERT_FALSE(a.skeleton->bones.empty()) << what;
    expect_real_w(*a.skeleton, what);
  }
  for (const auto& path : test::sample_files("mhfu")) {
    if (path.extension() != ".skel") continue;
    const Document d = test::load_document(path);
    if (const auto* k = std::get_if<MhfuSkeletonFile>(&d)) expect_real_w(k->skeleton, path.filename().string() + " (a real file)");
  }
}

TEST(AuthorMhfu, TwelveJointsOnOneStripSplitAtEightBones) {
  Authored a;
  EXPECT_EQ(check(test::twelve_joint_strip(kTurn), "strip", &a), 22u);
  ASSERT_NE(a.pmo, nullptr);
  EXPECT_GE(a.pmo->groups.size(), 2u);
  EXPECT_LE(max_slots(*a.pmo), 8u);
  auto palettes = mhfu_group_palettes(*a.pmo);
  ASSERT_TRUE(palettes.ok());
  EXPECT_LT(a.pmo->bone_palette.size(), 12u + 8u) << "a continuing group loads only the slots that change";
}

TEST(AuthorMhfu, ATriangleOnTwelveBonesIsNarrowedToEight) {
  scene::Primitive p;
  p.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  p.indices = {0, 1, 2};
  p.influences = 4;
  for (std::uint16_t v = 0; v < 3; ++v) {
    p.joints.insert(p.joints.end(), {static_cast<std::uint16_t>(4 * v), static_cast<std::uint16_t>(4 * v + 1), static_cast<std::uint16_t>(4 * v + 2),
                                     static_cast<std::uint16_t>(4 * v + 3)});
    p.weights.insert(p.weights.end(), {0.4f, 0.3f, 0.2f, 0.1f});
  }
  Scene s = one_mesh({p});
  test::add_chain(s, 12, 0.1f, kTurn);
  auto made = scene::author(s, Format::mhfu_pac);
  ASSERT_TRUE(made.ok()) << made.error().message;
  bool warned = false;
  for (const auto& w : made->warnings) warned = warned || w.message.find("more than 8 joints") != std::string::npos;
  EXPECT_TRUE(warned);
  const auto& pmo = std::get<MhfuPmoFile>(std::get<Pac>(made->document).entries[0].content).pmo;
  EXPECT_EQ(max_slots(pmo), 8u);
}

TEST(AuthorMhfu, SeventyThousandVerticesSplitAtTheIndexLimit) {
  Authored a;
  EXPECT_EQ(check(grid(280, 250), "grid", &a), 279u * 249 * 2);
  ASSERT_NE(a.pmo, nullptr);
  EXPECT_GE(a.pmo->groups.size(), 2u);
  for (const MhfuBlock& b : a.pmo->blocks) {
    auto draw = decode_mhfu_block(b);
    ASSERT_TRUE(draw.ok());
    EXPECT_LE(draw->vertex_count, 65536u);
    EXPECT_EQ(draw->format.index, psp::NumFormat::i16);
  }
}

TEST(AuthorMhfu, NoNormalsGetSmoothOnes) {
  Scene s = one_mesh({cylinder(8, 3, 1.0f, 2, false)});
  test::add_chain(s, 2, 1.0f, kTurn);
  Authored a;
  EXPECT_GT(check(s, "no normals", &a), 0u);
  ASSERT_FALSE(a.lifted.meshes.empty());
  for (const auto& p : a.lifted.meshes[0].primitives) {
    ASSERT_EQ(p.normals.size(), p.positions.size());
    for (std::size_t v = 0; v < p.positions.size(); ++v) {
      // The cylinder's side: the smooth normal points away from the axis.
      const scene::Vec3 out{p.positions[v].x, 0, p.positions[v].z};
      if (scene::length(out) > 0.1f) {
        EXPECT_GT(scene::dot(p.normals[v], scene::normalize(out)), 0.5f);
      }
    }
  }
}

TEST(AuthorMhfu, TwoUvSetsKeepTheOneTheMaterialUses) {
  Scene s = textured_quad(false);
  auto& p = s.meshes[0].primitives[0];
  p.uvs.push_back({{0.5f, 0.5f}, {0.75f, 0.5f}, {0.5f, 0.25f}, {0.75f, 0.25f}});
  s.materials[0].uv_set = 1;
  Authored a;
  EXPECT_EQ(check(s, "two UV sets (material on set 1)", &a), 2u);  // drawn_surface compares the material's set
  ASSERT_FALSE(a.warnings.empty());
  EXPECT_NE(a.warnings[0].message.find("UV sets"), std::string::npos) << a.warnings[0].message;
  ASSERT_FALSE(a.lifted.meshes.empty());
  ASSERT_FALSE(a.lifted.meshes[0].primitives.empty());
  EXPECT_EQ(a.lifted.meshes[0].primitives[0].uvs.size(), 1u);
}

TEST(AuthorMhfu, BarePmo) {
  auto made = scene::author(textured_quad(false), Format::mhfu_pmo);
  ASSERT_TRUE(made.ok()) << made.error().message;
  auto bytes = write_document(made->document);
  ASSERT_TRUE(bytes.ok());
  auto read = read_document(*bytes);
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_TRUE(std::holds_alternative<MhfuPmoFile>(*read));
  EXPECT_EQ(write_document(*read).value(), *bytes);
  EXPECT_FALSE(made->warnings.empty()) << "a bare PMO says its textures are not in it";
}

TEST(AuthorMhfu, HostileScenesAreClearErrors) {
  test::expect_author_refuses_hostile_scenes(Format::mhfu_pac);
  Scene many = test::twelve_joint_strip(kTurn);
  for (int j = 0; j < 300; ++j) many.skins[0].joints.push_back(many.add_node(scene::Node{}, -1));
  many.skins[0].inverse_bind_matrices.resize(many.skins[0].joints.size());
  test::expect_author_refuses(many, Format::mhfu_pac, "skins[0].joints", "312 joints");
  Scene twice = test::twelve_joint_strip(kTurn);
  twice.skins[0].joints[3] = twice.skins[0].joints[2];
  test::expect_author_refuses(twice, Format::mhfu_pac, "skins[0].joints[3]", "a joint twice in the skin");
  Scene flat = test::twelve_joint_strip(kTurn);
  flat.nodes[2].local.scale = {0, 0, 0};
  test::expect_author_refuses(flat, Format::mhfu_pac, "nodes[2].scale", "a joint scaled to zero");
  Scene bad_texture = textured_quad(false);
  bad_texture.textures[0].image.rgba.resize(5);
  test::expect_author_refuses(bad_texture, Format::mhfu_pac, "textures[0].image", "an image shorter than its size");
  Scene two_skins = test::twelve_joint_strip(kTurn);
  two_skins.skins.push_back(two_skins.skins[0]);
  scene::Node other;
  other.mesh = 0;
  other.skin = 1;
  two_skins.add_node(other);
  test::expect_author_refuses(two_skins, Format::mhfu_pac, "skin", "a mesh drawn by two skins");
}

struct BlockStats {
  std::size_t vertices = 0, indices = 0, prims = 0, strips = 0, bytes = 0;
  std::set<std::uint32_t> vtypes;
};

BlockStats stats(const MhfuPmo& pmo) {
  BlockStats s;
  for (const MhfuBlock& b : pmo.blocks) {
    auto draw = decode_mhfu_block(b);
    if (!draw) continue;
    s.vertices += draw->vertex_count;
    s.vtypes.insert(draw->format.vtype());
    for (const MhfuPrimitive& p : draw->primitives) {
      ++s.prims;
      s.strips += p.type == psp::ge::kPrimStrip;
      s.indices += p.indices.size();
    }
    s.bytes += b.vertices.size() + b.indices.size() + 4 * b.commands.size();
  }
  return s;
}

std::string vtypes(const std::set<std::uint32_t>& v) {
  std::string out;
  char buf[16];
  for (std::uint32_t t : v) std::snprintf(buf, sizeof buf, "%s0x%X", out.empty() ? "" : "/", t), out += buf;
  return out;
}

// Each MHFU sample's export with its extras dropped (as Blender drops them), authored with no base:
// reads back, round-trips, draws the original's surface with its weights, joints and texels, and is
// laid out like the converter's file (the per-section table is printed for the notes).
TEST(AuthorMhfu, SamplesAuthoredWithoutExtrasAreLikeTheConvertersFiles) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  std::size_t pacs = 0;
  for (const auto& path : files) {
    if (path.extension() != ".pac") continue;
    ++pacs;
    const Document doc = test::load_document(path);
    const auto* original = std::get_if<Pac>(&doc);
    ASSERT_NE(original, nullptr) << path;
    auto lifted = scene::lift_mhfu_pac(*original, {});
    ASSERT_TRUE(lifted.ok()) << path << ": " << lifted.error().message;
    // The export as a modder has it: the .glb read back, its extras dropped (as Blender drops them).
    auto glb = gltf::write_glb(*lifted);
    ASSERT_TRUE(glb.ok()) << path << ": " << glb.error().message;
    auto read = gltf::read_gltf(*glb);
    ASSERT_TRUE(read.ok()) << path << ": " << read.error().message;
    const Scene s = test::without_extras(read->scene);
    const std::string what = path.filename().string();
    Authored a;
    EXPECT_GT(check(s, what, &a), 0u) << what;
    if (!a.pmo) continue;
    expect_same_textures(s, a.lifted, what);
    const MhfuPmo* opmo = nullptr;
    const MhfuSkeleton* oskel = nullptr;
    const Tmh* otmh = nullptr;
    std::vector<std::size_t> osizes, asizes;
    for (const PacEntry& e : original->entries) {
      if (const auto* p = std::get_if<MhfuPmoFile>(&e.content)) opmo = &p->pmo, osizes.push_back(write_mhfu_pmo_file(*p).value().size());
      if (const auto* k = std::get_if<MhfuSkeletonFile>(&e.content)) oskel = &k->skeleton, osizes.push_back(write_mhfu_skeleton_file(*k).value().size());
      if (const auto* t = std::get_if<TmhFile>(&e.content)) otmh = &t->tmh, osizes.push_back(write_tmh_file(*t).value().size());
    }
    for (const PacEntry& e : a.pac.entries) {
      if (const auto* p = std::get_if<MhfuPmoFile>(&e.content)) asizes.push_back(write_mhfu_pmo_file(*p).value().size());
      if (const auto* k = std::get_if<MhfuSkeletonFile>(&e.content)) asizes.push_back(write_mhfu_skeleton_file(*k).value().size());
      if (const auto* t = std::get_if<TmhFile>(&e.content)) asizes.push_back(write_tmh_file(*t).value().size());
    }
    ASSERT_TRUE(opmo && oskel && otmh) << what;
    ASSERT_EQ(osizes.size(), 3u);
    ASSERT_EQ(asizes.size(), 3u);
    const BlockStats o = stats(*opmo), n = stats(*a.pmo);
    // Same skeleton and texture bank sizes; the PMO within 10 % and the vertex count within 10 %.
    EXPECT_EQ(asizes[1], osizes[1]) << what << ": skeleton";
    EXPECT_EQ(asizes[2], osizes[2]) << what << ": TMH";
    EXPECT_LE(std::abs(static_cast<double>(asizes[0]) - static_cast<double>(osizes[0])), 0.1 * static_cast<double>(osizes[0])) << what << ": PMO";
    EXPECT_LE(std::abs(static_cast<double>(n.vertices) - static_cast<double>(o.vertices)), 0.1 * static_cast<double>(o.vertices)) << what;
    EXPECT_EQ(a.pmo->meshes.size(), opmo->meshes.size()) << what;
    EXPECT_EQ(a.pmo->materials.size(), opmo->materials.size()) << what;
    for (std::size_t m = 0; m < a.pmo->meshes.size() && m < opmo->meshes.size(); ++m) {
      EXPECT_EQ(a.pmo->meshes[m].lighting_flags, opmo->meshes[m].lighting_flags) << what;
      EXPECT_EQ(a.pmo->meshes[m].blend, opmo->meshes[m].blend) << what;
    }
    // The running palette as the converter loads it: the same entries per group.
    ASSERT_EQ(a.pmo->groups.size(), opmo->groups.size()) << what;
    for (std::size_t g = 0; g < opmo->groups.size(); ++g) EXPECT_EQ(a.pmo->groups[g].bone_count, opmo->groups[g].bone_count) << what << " group " << g;
    ASSERT_EQ(a.pmo->bone_palette.size(), opmo->bone_palette.size()) << what;
    for (std::size_t i = 0; i < opmo->bone_palette.size(); ++i) {
      EXPECT_EQ(a.pmo->bone_palette[i].slot, opmo->bone_palette[i].slot) << what << " palette entry " << i;
      EXPECT_EQ(a.pmo->bone_palette[i].bone, opmo->bone_palette[i].bone) << what << " palette entry " << i;
    }
    EXPECT_EQ(a.tmh->images.at(0).mode, otmh->images.at(0).mode) << what;
    EXPECT_EQ(a.tmh->images.at(0).clut->mode, otmh->images.at(0).clut->mode) << what;
    std::printf("| %s | original | authored |\n|---|---|---|\n", what.c_str());
    std::printf("| PAC bytes | %zu | %zu |\n", test::load_file(path).size(), a.size);
    std::printf("| PMO / skeleton / TMH bytes | %zu / %zu / %zu | %zu / %zu / %zu |\n", osizes[0], osizes[1], osizes[2], asizes[0], asizes[1], asizes[2]);
    std::printf("| meshes / materials / groups / palette entries | %zu / %zu / %zu / %zu | %zu / %zu / %zu / %zu |\n", opmo->meshes.size(),
                opmo->materials.size(), opmo->groups.size(), opmo->bone_palette.size(), a.pmo->meshes.size(), a.pmo->materials.size(),
                a.pmo->groups.size(), a.pmo->bone_palette.size());
    std::printf("| vertices / indices | %zu / %zu | %zu / %zu |\n", o.vertices, o.indices, n.vertices, n.indices);
    std::printf("| PRIMs (strips) | %zu (%zu) | %zu (%zu) |\n", o.prims, o.strips, n.prims, n.strips);
    std::printf("| block bytes (commands + vertices + indices) | %zu | %zu |\n", o.bytes, n.bytes);
    std::printf("| VTYPEs | %s | %s |\n", vtypes(o.vtypes).c_str(), vtypes(n.vtypes).c_str());
    std::printf("| TMH image | mode %u, CLUT mode %u | mode %u, CLUT mode %u |\n", otmh->images[0].mode, otmh->images[0].clut->mode,
                a.tmh->images[0].mode, a.tmh->images[0].clut->mode);
  }
  if (pacs == 0 && test::samples_required()) FAIL() << "no MHFU PAC sample";
}

// Each bare PMO sample, exported with its skeleton and texture bank and authored as a bare PMO
// (--format mhfu-pmo): reads back, round-trips and, lifted with the same skeleton (authoring numbers
// bones parents first, which the samples' skeletons already are), draws the original's surface.
TEST(AuthorMhfu, BarePmoSamples) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  std::size_t pmos = 0;
  for (const auto& path : files) {
    if (path.extension() != ".pmo") continue;
    const std::string stem = path.stem().stem().string();  // f_hair000_original.0.pmo -> f_hair000_original
    const auto skel_path = path.parent_path() / (stem + ".1.skel");
    if (!std::filesystem::exists(skel_path)) continue;
    ++pmos;
    const Document doc = test::load_document(path), skel = test::load_document(skel_path);
    const auto* original = std::get_if<MhfuPmoFile>(&doc);
    const auto* skeleton = std::get_if<MhfuSkeletonFile>(&skel);
    ASSERT_TRUE(original && skeleton) << path;
    scene::LiftInputs inputs;
    inputs.skeleton = skeleton;
    auto lifted = scene::lift_mhfu_pmo(*original, inputs);
    ASSERT_TRUE(lifted.ok()) << path << ": " << lifted.error().message;
    const Scene in = test::without_extras(*lifted);
    const std::string what = path.filename().string();
    auto made = scene::author(in, Format::mhfu_pmo);
    ASSERT_TRUE(made.ok()) << what << ": " << made.error().message;
    auto bytes = write_document(made->document);
    ASSERT_TRUE(bytes.ok()) << what;
    auto read = read_document(*bytes);
    ASSERT_TRUE(read.ok()) << what << ": " << read.error().message;
    ASSERT_TRUE(std::holds_alternative<MhfuPmoFile>(*read)) << what;
    EXPECT_EQ(write_document(*read).value(), *bytes) << what;
    const auto& pmo = std::get<MhfuPmoFile>(*read);
    auto back = scene::lift_mhfu_pmo(pmo, inputs);
    ASSERT_TRUE(back.ok()) << what << ": " << back.error().message;
    EXPECT_GT(test::expect_same_surface(test::drawn_surface(as_authored(in), code_of(pmo.pmo)), test::drawn_surface(*back, code_of(pmo.pmo)), {}, what), 0u);
    EXPECT_LE(std::abs(static_cast<double>(bytes->size()) - static_cast<double>(test::load_file(path).size())), 0.1 * static_cast<double>(test::load_file(path).size())) << what;
  }
  if (pmos == 0 && test::samples_required()) FAIL() << "no bare MHFU PMO sample with its skeleton";
}

// Every glTF in the shared samples authors a PAC that reads back, round-trips and draws the input's
// surface, or is refused with an error naming the limit (ErrorCode::unsupported).
TEST(AuthorMhfu, SharedGltfSamples) {
  REMODEL_SAMPLES_OR_SKIP(files, "gltf");
  std::size_t authored = 0, refused = 0;
  for (const auto& [what, read] : test::readable_gltf_samples(files)) {
    auto made = scene::author(read.scene, Format::mhfu_pac);
    if (!made) {
      ++refused;
      EXPECT_EQ(made.error().code, ErrorCode::unsupported) << what << ": " << made.error().field << ": " << made.error().message;
      std::printf("refused %s: %s: %s\n", what.c_str(), made.error().field.c_str(), made.error().message.c_str());
      continue;
    }
    ++authored;
    Authored a = written_back(*made, what);
    if (!a.pmo) continue;
    test::Tolerance tol;
    for (const auto& w : a.warnings) {
      if (w.message.find("more than 8 joints") != std::string::npos) tol.weight = 1.0f;
    }
    const Scene in = as_authored(read.scene);
    test::expect_same_surface(test::drawn_surface(in, code_of(*a.pmo)), test::drawn_surface(as_input(a.lifted, in), code_of(*a.pmo)), tol, what);
    expect_same_joints(in, a.lifted, what);
  }
  std::printf("%zu glTF samples authored as MHFU PACs, %zu refused\n", authored, refused);
  EXPECT_GT(authored, 0u);
}

// The command: `remodel import IN.glb -o OUT.pac` (and --format mhfu-pmo) authors a file `check` reads
// and writes back identically.
TEST(AuthorMhfu, CliImportWithoutLikeAuthorsAPac) {
  namespace fs = std::filesystem;
  const fs::path dir = test::cli_temp_dir("author-mhfu");
  const std::string glb = test::demo_glb(dir);
  ASSERT_FALSE(glb.empty());
  test::expect_cli_authors(glb, "", dir / "new.pac", "mhfu-pac");
  test::expect_cli_authors(glb, "--format mhfu-pmo", dir / "bare.pmo", "mhfu-pmo");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace remodel
