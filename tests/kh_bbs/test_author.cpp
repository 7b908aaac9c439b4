// KH BBS PMO authored from a Scene alone (issue 16): hand-made Scenes and every shared glTF sample
// become PMOs that read back, round-trip byte-exactly and lift to the input's surface within the
// format's quantisation (positions: the s16 stored integer, i.e. half a step of scale/32768, or the
// f32 bits; colours: the stored bytes, RGB /128 and alpha /255; UVs: 1/32768; weights: 1/128).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "author_checks.hpp"
#include "author_scenes.hpp"
#include "gltf/gltf.hpp"
#include "gltf_samples.hpp"
#include "model/document.hpp"
#include "model/kh_bbs/pmo.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"

namespace remodel {
namespace {

using scene::Scene;
using scene::Vec2;
using scene::Vec3;
using scene::Vec4;
using test::add_chain;
using test::cylinder;
using test::grid;
using test::one_mesh;
using test::triangle;
using test::twelve_joint_strip;

constexpr std::size_t kBonName = 16;  // bytes of a BON joint name

// 4x4 texels in three colours, one half-transparent.
RgbaImage three_colour_image() {
  RgbaImage img(4, 4);
  const Rgba colours[3] = {{255, 0, 0, 255}, {0, 128, 255, 255}, {20, 200, 20, 128}};
  for (std::uint32_t y = 0; y < 4; ++y) {
    for (std::uint32_t x = 0; x < 4; ++x) {
      const Rgba& c = colours[(x + y) % 3];
      std::copy(c.begin(), c.end(), img.at(x, y));
    }
  }
  return img;
}

Scene textured_quad() { return test::textured_quad(three_colour_image()); }

Scene skinned_cylinder() {
  Scene s = one_mesh({cylinder(12, 5, 2.0f, 2, true)});
  add_chain(s, 2, 2.0f);
  return s;
}

struct Authored {
  PmoFile file;
  std::vector<Warning> warnings;
  Scene lifted;
};

// Authors, writes, reads back, checks the round trip and lifts the file read back.
Authored author_checked(const Scene& in, const std::string& what) {
  Authored out;
  auto made = scene::author(in, Format::kh_bbs_pmo);
  EXPECT_TRUE(made.ok()) << what << ": " << (made ? "" : made.error().message);
  if (!made) return out;
  out.warnings = made->warnings;
  auto bytes = write_document(made->document);
  EXPECT_TRUE(bytes.ok()) << what << ": " << (bytes ? "" : bytes.error().message);
  if (!bytes) return out;
  auto read = read_document(*bytes);
  EXPECT_TRUE(read.ok()) << what << ": " << (read ? "" : read.error().message);
  if (!read) return out;
  auto again = write_document(*read);
  EXPECT_TRUE(again.ok() && *again == *bytes) << what << ": write(read(authored)) differs from the authored bytes";
  out.file = std::get<PmoFile>(*read);
  auto lifted = scene::lift_kh_bbs_pmo(out.file, {});
  EXPECT_TRUE(lifted.ok()) << what << ": " << (lifted ? "" : lifted.error().message);
  if (lifted) out.lifted = std::move(*lifted);
  return out;
}

test::PositionCode code_of(const PmoFile& f) {
  return {f.pmo.skeleton.has_value(), f.pmo.scale};
}

std::vector<const PmoSection*> sections(const Pmo& p) {
  std::vector<const PmoSection*> out;
  for (const auto* l : {&p.mesh0, &p.mesh1}) {
    if (*l) {
      for (const PmoSection& s : (*l)->sections) out.push_back(&s);
    }
  }
  return out;
}

std::size_t check(const Scene& in, const std::string& what, Authored* keep = nullptr) {
  Authored a = author_checked(in, what);
  const std::size_t n = test::expect_same_surface(test::drawn_surface(in, code_of(a.file), kBonName), test::drawn_surface(a.lifted, code_of(a.file)),
                                                  {}, what);
  if (keep != nullptr) *keep = std::move(a);
  return n;
}

TEST(AuthorKhBbs, Triangle) {
  Authored a;
  EXPECT_EQ(check(triangle(), "triangle", &a), 1u);
  EXPECT_FALSE(a.file.pmo.skeleton.has_value());
  ASSERT_EQ(sections(a.file.pmo).size(), 1u);
  const PmoSection& s = *sections(a.file.pmo)[0];
  EXPECT_TRUE(s.vertex_flags & PmoSection::kNoWeight) << "unskinned sections carry the no-weight bit, as retail maps do";
  EXPECT_EQ(psp::VertexFormat::parse(s.vertex_flags).position, psp::NumFormat::f32);
  EXPECT_EQ(a.file.pmo.scale, 1.0f);
  EXPECT_EQ(a.file.pmo.bounding_box[7], (std::array<float, 4>{1, 1, 0, 1}));
}

TEST(AuthorKhBbs, TexturedQuad) {
  Authored a;
  const Scene in = textured_quad();
  EXPECT_EQ(check(in, "textured quad", &a), 2u);
  ASSERT_EQ(a.file.pmo.tim2s.size(), 1u);
  ASSERT_EQ(a.file.pmo.tim2s[0].pictures.size(), 1u);
  EXPECT_EQ(a.file.pmo.tim2s[0].pictures[0].image_type, 4) << "3 colours: 4-bit indexed";
  ASSERT_EQ(a.lifted.textures.size(), 1u);
  EXPECT_EQ(a.lifted.textures[0].image, in.textures[0].image) << "a 4-bit CLUT of 32-bit colours holds the image exactly";
  EXPECT_EQ(a.lifted.textures[0].name, "quad_tex");
  ASSERT_EQ(sections(a.file.pmo).size(), 1u);
  EXPECT_EQ(psp::VertexFormat::parse(sections(a.file.pmo)[0]->vertex_flags).color, psp::ColorFormat::abgr8888);
}

TEST(AuthorKhBbs, TextureFormatFollowsTheColourCount) {
  Scene s = textured_quad();
  RgbaImage img(24, 12);  // non-power-of-two: UVs are stored over the GE's 32x16
  for (std::size_t i = 0; i < img.rgba.size(); i += 4) {
    img.rgba[i] = static_cast<std::uint8_t>(i / 4 % 256);  // 288 colours
    img.rgba[i + 1] = static_cast<std::uint8_t>(i / 4 / 256);
    img.rgba[i + 3] = 255;
  }
  s.textures[0].image = img;
  Authored a;
  check(s, "NPOT 288 colours", &a);
  ASSERT_EQ(a.file.pmo.tim2s.size(), 1u);
  EXPECT_EQ(a.file.pmo.tim2s[0].pictures[0].image_type, 3) << "more than 256 colours: 32-bit direct";
  EXPECT_EQ(a.lifted.textures[0].image, img);
  for (std::size_t i = 0; i < 200 * 4; i += 4) img.rgba[i] = static_cast<std::uint8_t>(i / 4 % 200);
  for (std::size_t i = 200 * 4; i < img.rgba.size(); i += 4) img.rgba[i] = 0;
  s.textures[0].image = img;
  check(s, "200 colours", &a);
  EXPECT_EQ(a.file.pmo.tim2s[0].pictures[0].image_type, 5) << "200 colours: 8-bit indexed";
  EXPECT_EQ(a.lifted.textures[0].image, img);
}

TEST(AuthorKhBbs, SkinnedCylinderWithTwoJoints) {
  Authored a;
  const Scene in = skinned_cylinder();
  EXPECT_EQ(check(in, "skinned cylinder", &a), 12u * 4 * 2);
  ASSERT_TRUE(a.file.pmo.skeleton.has_value());
  ASSERT_EQ(a.file.pmo.skeleton->joints.size(), 2u);
  EXPECT_EQ(a.file.pmo.skeleton->joints[1].parent, 0);
  EXPECT_FLOAT_EQ(a.file.pmo.skeleton->joints[1].local[13], 2.0f) << "the child's local translation, row-vector form";
  EXPECT_FLOAT_EQ(a.file.pmo.skeleton->joints[1].inverse_bind[13], -2.0f);
  EXPECT_NEAR(a.file.pmo.scale, 2.0f * 32768.0f / 32767.0f, 1e-6f) << "the largest coordinate fills the s16 range";
  for (const PmoSection* s : sections(a.file.pmo)) {
    const auto f = psp::VertexFormat::parse(s->vertex_flags);
    EXPECT_EQ(f.position, psp::NumFormat::i16);
    EXPECT_EQ(f.normal, psp::NumFormat::none) << "BBS stores no normals";
    EXPECT_EQ(f.weight, psp::NumFormat::i8);
    EXPECT_FALSE(s->vertex_flags & PmoSection::kNoWeight);
  }
  // Joints survive by name, and the bind pose holds: world(joint) * inverse bind = identity.
  ASSERT_EQ(a.lifted.skins.size(), 1u);
  const auto world = scene::world_matrices(a.lifted);
  for (std::size_t j = 0; j < 2; ++j) {
    const int node = a.lifted.skins[0].joints[j];
    EXPECT_EQ(a.lifted.nodes[static_cast<std::size_t>(node)].name, "joint" + std::to_string(j));
    EXPECT_LT(scene::max_abs_difference(world[static_cast<std::size_t>(node)] * a.lifted.skins[0].inverse_bind_matrices[j], scene::Mat4{}), 1e-5f);
  }
}

TEST(AuthorKhBbs, TwelveJointsOnOneStripSplitAtEightJoints) {
  Authored a;
  const Scene in = twelve_joint_strip();
  EXPECT_EQ(check(in, "12-joint strip", &a), 22u);
  const auto secs = sections(a.file.pmo);
  EXPECT_GE(secs.size(), 2u) << "12 joints do not fit one section's 8 slots";
  std::set<int> joints;
  for (const PmoSection* s : secs) {
    ASSERT_TRUE(s->joints.has_value());
    for (std::uint8_t j : *s->joints) {
      if (j != 0xFF) joints.insert(j);
    }
  }
  EXPECT_EQ(joints.size(), 12u);
}

TEST(AuthorKhBbs, ATriangleOnTwelveJointsIsNarrowedToEight) {
  // Each corner leans on 4 joints of its own: 12 on one triangle, past a section's 8 slots.
  scene::Primitive p;
  p.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  p.influences = 4;
  for (std::uint16_t c = 0; c < 3; ++c) {
    for (std::uint16_t k = 0; k < 4; ++k) p.joints.push_back(static_cast<std::uint16_t>(c * 4 + k));
    p.weights.insert(p.weights.end(), {0.4f, 0.3f, 0.2f, 0.1f});
  }
  Scene s = one_mesh({p});
  add_chain(s, 12, 0.25f);
  Authored a = author_checked(s, "12 joints on one triangle");
  ASSERT_EQ(sections(a.file.pmo).size(), 1u);
  std::set<int> joints;
  for (std::uint8_t j : *sections(a.file.pmo)[0]->joints) {
    if (j != 0xFF) joints.insert(j);
  }
  EXPECT_EQ(joints.size(), 8u);
  ASSERT_FALSE(a.warnings.empty());
  // Of each corner's 1.0: 0.1 lost on two corners, 0.3 on the third (see below).
  EXPECT_NE(a.warnings[0].message.find("3 vertices lost up to 0.300 (mean 0.167) of their weight"), std::string::npos) << a.warnings[0].message;
  // Four joints leave: the three 0.1s, then one 0.2 (the higher joint on a tie); what stays keeps
  // its proportions, summing to 1: 0.4 of 0.9 on two corners, 0.4 of 0.7 on the third.
  ASSERT_EQ(a.lifted.meshes.size(), 1u);
  ASSERT_EQ(a.lifted.meshes[0].primitives.size(), 1u);
  const scene::Primitive& out = a.lifted.meshes[0].primitives[0];
  std::size_t narrowed_to_two = 0;
  for (std::size_t v = 0; v < out.vertex_count(); ++v) {
    float sum = 0, strongest = 0;
    for (std::size_t k = 0; k < out.influences; ++k) {
      sum += out.weights[v * out.influences + k];
      strongest = std::max(strongest, out.weights[v * out.influences + k]);
    }
    EXPECT_NEAR(sum, 1.0f, 1e-3f);
    const bool of_09 = std::abs(strongest - 0.4f / 0.9f) <= 1.0f / 128, of_07 = std::abs(strongest - 0.4f / 0.7f) <= 1.0f / 128;
    EXPECT_TRUE(of_09 || of_07) << "vertex " << v << ": strongest weight " << strongest;
    narrowed_to_two += of_07 ? 1 : 0;
  }
  EXPECT_EQ(narrowed_to_two, 1u);
}

TEST(AuthorKhBbs, SeventyThousandVerticesSplitAtTheVertexLimit) {
  Authored a;
  const Scene in = grid(350, 200);
  ASSERT_EQ(in.meshes[0].primitives[0].vertex_count(), 70000u);
  EXPECT_EQ(check(in, "70000 vertices", &a), 349u * 199 * 2);
  const auto secs = sections(a.file.pmo);
  EXPECT_GE(secs.size(), 2u);
  for (const PmoSection* s : secs) EXPECT_LE(s->vertex_count(), 0xFFFFu);
  EXPECT_GT(a.file.pmo.vertex_count(), 0xFFFFu);
  EXPECT_EQ(a.file.pmo.stored_vertex_count, std::optional<std::uint16_t>(0xFFFF)) << "the u16 header count saturates";
  EXPECT_FALSE(a.warnings.empty());
}

TEST(AuthorKhBbs, NoNormals) {
  // Normals are never stored (no BBS section has them), so a Scene without them authors the same file.
  Scene with = skinned_cylinder(), without = with;
  for (auto& v : without.meshes[0].primitives[0].normals) v = {};
  without.meshes[0].primitives[0].normals.clear();
  Authored a, b;
  check(with, "cylinder with normals", &a);
  check(without, "cylinder without normals", &b);
  EXPECT_EQ(write_document(Document{a.file}).value(), write_document(Document{b.file}).value());
  EXPECT_TRUE(b.lifted.meshes[0].primitives[0].normals.empty());
}

TEST(AuthorKhBbs, TwoUvSetsKeepTheOneTheMaterialUses) {
  Scene s = textured_quad();
  auto& p = s.meshes[0].primitives[0];
  p.uvs.push_back({{0.5f, 0.5f}, {0.75f, 0.5f}, {0.5f, 0.25f}, {0.75f, 0.25f}});
  s.materials[0].uv_set = 1;
  Authored a;
  check(s, "two UV sets (material on set 1)", &a);  // drawn_surface compares the material's set
  ASSERT_FALSE(a.warnings.empty());
  EXPECT_NE(a.warnings[0].message.find("UV sets"), std::string::npos) << a.warnings[0].message;
  ASSERT_EQ(a.lifted.meshes[0].primitives[0].uvs.size(), 1u);
  EXPECT_EQ(a.lifted.meshes[0].primitives[0].uvs[0][1], (Vec2{0.75f, 0.5f}));
}

// Both PSP skeletons come from skin_joints_parents_first, which refuses a skin with no joints or with
// an inverse bind count that is not its joint count, naming the skin's field.
TEST(AuthorKhBbs, SkinWithoutJointsOrWithOtherInverseBindCountIsRefused) {
  for (const Format format : {Format::kh_bbs_pmo, Format::mhfu_pac}) {
    Scene none = skinned_cylinder();
    none.skins[0].joints.clear();
    none.skins[0].inverse_bind_matrices.clear();
    auto r = scene::author(none, format);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::bad_count);
    EXPECT_EQ(r.error().field, "skins[0].joints");
    Scene fewer = skinned_cylinder();
    fewer.skins[0].inverse_bind_matrices.resize(1);
    r = scene::author(fewer, format);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::inconsistent);
    EXPECT_EQ(r.error().field, "skins[0].inverse_bind_matrices");
  }
}

TEST(AuthorKhBbs, BlendMaterialsGoToTheTranslucentPass) {
  Scene s = textured_quad();
  s.meshes[0].primitives.push_back(s.meshes[0].primitives[0]);
  for (Vec3& v : s.meshes[0].primitives[1].positions) v.z = 1;
  s.materials.push_back(s.materials[0]);
  s.materials[1].alpha_mode = scene::AlphaMode::blend;
  s.meshes[0].primitives[1].material = 1;
  Authored a;
  check(s, "opaque + blend", &a);
  ASSERT_TRUE(a.file.pmo.mesh0 && a.file.pmo.mesh1);
  EXPECT_EQ(a.file.pmo.mesh0->sections.size(), 1u);
  EXPECT_EQ(a.file.pmo.mesh1->sections.size(), 1u);
  EXPECT_EQ(a.file.pmo.textures.size(), 1u) << "one texture, shared";
}

TEST(AuthorKhBbs, HostileScenesAreClearErrors) {
  test::expect_author_refuses_hostile_scenes(Format::kh_bbs_pmo);
  Scene sizes = textured_quad();
  sizes.meshes[0].primitives[0].uvs[0].pop_back();
  test::expect_author_refuses(sizes, Format::kh_bbs_pmo, "uvs", "fewer UVs than positions");
  Scene many = twelve_joint_strip();
  for (int j = 12; j < 300; ++j) many.skins[0].joints.push_back(many.skins[0].joints[0]);
  test::expect_author_refuses(many, Format::kh_bbs_pmo, "skins[0].joints", "300 joints");
  auto pam = scene::author(triangle(), Format::kh_bbs_pmp);
  EXPECT_FALSE(pam.ok());
}

// Converter-likeness: each KH BBS PMO sample lifted (as export lifts it), its extras dropped (as
// Blender drops them), authored with no base: the vertex count and file size stay within 10 % of the
// game converter's, every section keeps at most 8 joints, and the surface is the original's.
TEST(AuthorKhBbs, SamplesAuthoredWithoutExtrasAreLikeTheConvertersFiles) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmo");
  for (const auto& path : files) {
    const Document doc = test::load_document(path);
    const auto* original = std::get_if<PmoFile>(&doc);
    ASSERT_NE(original, nullptr) << path;
    auto lifted = scene::lift_kh_bbs_pmo(*original, {});
    ASSERT_TRUE(lifted.ok()) << path << ": " << lifted.error().message;
    const Scene s = test::without_extras(*lifted);
    const std::string what = path.filename().string();
    Authored a = author_checked(s, what);
    const std::size_t size = test::load_file(path).size(), authored = write_document(Document{a.file}).value().size();
    EXPECT_LE(std::abs(static_cast<double>(authored) - static_cast<double>(size)), 0.1 * static_cast<double>(size)) << what;
    const double vertices = static_cast<double>(original->pmo.vertex_count());
    EXPECT_LE(std::abs(static_cast<double>(a.file.pmo.vertex_count()) - vertices), 0.1 * vertices) << what;
    test::expect_same_surface(test::drawn_surface(s, code_of(a.file), kBonName), test::drawn_surface(a.lifted, code_of(a.file), kBonName), {}, what);
    std::printf("%s: %zu -> %zu bytes, %zu -> %zu vertices, %zu -> %zu sections\n", what.c_str(), size, authored,
                original->pmo.vertex_count(), a.file.pmo.vertex_count(), sections(original->pmo).size(), sections(a.file.pmo).size());
  }
}

// Every glTF in the shared samples authors a PMO that reads back, round-trips and draws the input's
// surface, or is refused with an error naming the limit (ErrorCode::unsupported).
TEST(AuthorKhBbs, SharedGltfSamples) {
  REMODEL_SAMPLES_OR_SKIP(files, "gltf");
  std::size_t authored = 0, refused = 0;
  for (const auto& [what, read] : test::readable_gltf_samples(files)) {
    auto made = scene::author(read.scene, Format::kh_bbs_pmo);
    if (!made) {
      ++refused;
      EXPECT_EQ(made.error().code, ErrorCode::unsupported) << what << ": " << made.error().field << ": " << made.error().message;
      std::printf("refused %s: %s: %s\n", what.c_str(), made.error().field.c_str(), made.error().message.c_str());
      continue;
    }
    ++authored;
    Authored a = author_checked(read.scene, what);
    // Images scaled to 512 or quantised to 256 colours change only textures, never the surface;
    // triangles narrowed to 8 joints (said in a warning) keep positions and UVs, not weights.
    test::Tolerance tol;
    for (const auto& w : a.warnings) {
      if (w.message.find("of their weight") != std::string::npos) tol.weight = 1.0f;
    }
    test::expect_same_surface(test::drawn_surface(read.scene, code_of(a.file), kBonName), test::drawn_surface(a.lifted, code_of(a.file)), tol, what);
  }
  std::printf("%zu glTF samples authored, %zu refused\n", authored, refused);
  EXPECT_GT(authored, 0u);
}

}  // namespace
}  // namespace remodel
