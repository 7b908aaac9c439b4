// KH BBS lower over a base: every sample comes back byte for byte from its own lift, and each edit
// kind, made by code on a real sample, changes only the bytes it reaches and reads back as edited.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>

#include "model/document.hpp"
#include "model/kh_bbs_pmo.hpp"
#include "model/psp_vertex.hpp"
#include "model/textures.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"

namespace remodel::scene {
namespace {

std::optional<Document> load_sample(const std::string& subdir, const std::string& name) {
  for (const auto& path : test::sample_files(subdir)) {
    if (path.filename() != name) continue;
    auto doc = read_document(test::load_file(path));
    if (doc.ok()) return std::move(*doc);
    ADD_FAILURE() << path << ": " << doc.error().describe();
  }
  return std::nullopt;
}

#define LOAD_OR_SKIP(var, subdir, name)                                              \
  auto var = load_sample(subdir, name);                                              \
  if (!var) {                                                                        \
    if (test::samples_required()) FAIL() << name << " missing";                      \
    GTEST_SKIP() << name << " not present";                                          \
  }

// Lowers `scene` over `base` and writes it; fails the test on an error.
std::optional<Document> lower_ok(const Scene& scene, const Document& base) {
  auto out = lower(scene, base);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().describe());
  if (!out.ok()) return std::nullopt;
  auto bytes = write_document(out->document);
  EXPECT_TRUE(bytes.ok()) << (bytes.ok() ? "" : bytes.error().describe());
  if (!bytes.ok()) return std::nullopt;
  auto again = read_document(*bytes);  // the output reads back and round-trips byte-exactly
  EXPECT_TRUE(again.ok()) << (again.ok() ? "" : again.error().describe());
  if (!again.ok()) return std::nullopt;
  auto rewritten = write_document(*again);
  EXPECT_TRUE(rewritten.ok() && *rewritten == *bytes);
  return std::move(*again);
}

std::string lower_error(const Scene& scene, const Document& base) {
  auto out = lower(scene, base);
  EXPECT_FALSE(out.ok());
  return out.ok() ? std::string() : out.error().describe();
}

// Every section of every list, in the lift's primitive order.
std::vector<const PmoSection*> sections(const Pmo& pmo) {
  std::vector<const PmoSection*> out;
  for (const auto* l : {&pmo.mesh0, &pmo.mesh1}) {
    if (l->has_value()) {
      for (const PmoSection& s : (*l)->sections) out.push_back(&s);
    }
  }
  return out;
}

// The sections of `a` and `b` that differ, in the lift's order.
std::vector<std::size_t> changed_sections(const Pmo& a, const Pmo& b) {
  std::vector<std::size_t> out;
  const auto sa = sections(a), sb = sections(b);
  EXPECT_EQ(sa.size(), sb.size());
  for (std::size_t i = 0; i < sa.size() && i < sb.size(); ++i) {
    const PmoSection &x = *sa[i], &y = *sb[i];
    if (x.vertices != y.vertices || x.strip_lengths != y.strip_lengths || x.vertex_flags != y.vertex_flags || x.joints != y.joints ||
        x.diffuse != y.diffuse || x.texture != y.texture)
      out.push_back(i);
  }
  return out;
}

// The byte positions where two equally long byte strings differ.
std::vector<std::size_t> changed_bytes(const Bytes& a, const Bytes& b) {
  std::vector<std::size_t> out;
  EXPECT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) out.push_back(i);
  }
  return out;
}

TEST(LowerKhBbs, EveryPmoSampleLowersToItsOwnBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmo");
  for (const auto& path : files) {
    const Bytes original = test::load_file(path);
    auto doc = read_document(original);
    ASSERT_TRUE(doc.ok()) << path << ": " << doc.error().describe();
    auto scene = lift(*doc);
    ASSERT_TRUE(scene.ok()) << path << ": " << scene.error().describe();
    auto out = lower(*scene, *doc);
    ASSERT_TRUE(out.ok()) << path << ": " << out.error().describe();
    EXPECT_TRUE(out->warnings.empty()) << path << ": " << out->warnings[0].where << ": " << out->warnings[0].message;
    auto bytes = write_document(out->document);
    ASSERT_TRUE(bytes.ok()) << path << ": " << bytes.error().describe();
    EXPECT_TRUE(*bytes == original) << path << " does not lower to its own bytes";
  }
}

TEST(LowerKhBbs, EveryPmpSampleLowersToItsOwnBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmp");
  for (const auto& path : files) {
    const Bytes original = test::load_file(path);
    auto doc = read_document(original);
    ASSERT_TRUE(doc.ok()) << path << ": " << doc.error().describe();
    auto scene = lift(*doc);
    ASSERT_TRUE(scene.ok()) << path << ": " << scene.error().describe();
    auto out = lower(*scene, *doc);
    ASSERT_TRUE(out.ok()) << path << ": " << out.error().describe();
    EXPECT_TRUE(out->warnings.empty()) << path << ": " << out->warnings[0].where << ": " << out->warnings[0].message;
    auto bytes = write_document(out->document);
    ASSERT_TRUE(bytes.ok()) << path << ": " << bytes.error().describe();
    EXPECT_TRUE(*bytes == original) << path << " does not lower to its own bytes";
  }
}

TEST(LowerKhBbs, MovedPmpObjectChangesOnlyItsPlacement) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmp", "jb_50.pmp");
  const Pmp& base = std::get<Pmp>(*doc);
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  ASSERT_GE(base.objects.size(), 2u);
  Node& n = scene->nodes[static_cast<std::size_t>(scene->scenes[0].nodes[1])];
  n.local.translation.x += 10.0f;
  n.local.rotation = euler_to_quat({0.1f, 0.2f, 0.3f}, EulerOrder::xyz);
  n.local.scale = {2, 2, 2};
  auto out = lower_ok(*scene, *doc);
  ASSERT_TRUE(out);
  const Pmp& now = std::get<Pmp>(*out);
  for (std::size_t i = 0; i < base.objects.size(); ++i) {
    if (i == 1) continue;
    EXPECT_EQ(now.objects[i].position, base.objects[i].position);
    EXPECT_EQ(now.objects[i].rotation, base.objects[i].rotation);
    EXPECT_EQ(now.objects[i].scale, base.objects[i].scale);
  }
  EXPECT_EQ(now.objects[1].position[0], base.objects[1].position[0] + 10.0f);
  EXPECT_EQ(now.objects[1].position[1], base.objects[1].position[1]);
  EXPECT_NEAR(now.objects[1].rotation[0], 0.1f, 1e-5f);
  EXPECT_NEAR(now.objects[1].rotation[1], 0.2f, 1e-5f);
  EXPECT_NEAR(now.objects[1].rotation[2], 0.3f, 1e-5f);
  EXPECT_EQ(now.objects[1].scale, (std::array<float, 3>{2, 2, 2}));
  ASSERT_EQ(now.pmos.size(), base.pmos.size());
  for (std::size_t k = 0; k < base.pmos.size(); ++k) EXPECT_TRUE(changed_sections(base.pmos[k], now.pmos[k]).empty());
}

// Blender drops extras: matching then goes by name and order, and says so.
TEST(LowerKhBbs, WithoutExtrasMatchesByNameAndOrder) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  for (Node& n : scene->nodes) n.extras = nullptr;
  for (Mesh& m : scene->meshes) {
    for (Primitive& p : m.primitives) p.extras = {{"uv_scale", p.extras.value("uv_scale", Extras())}};
  }
  for (Texture& t : scene->textures) t.extras = nullptr;
  auto out = lower(*scene, *doc);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  EXPECT_FALSE(out->warnings.empty());
  auto bytes = write_document(out->document);
  ASSERT_TRUE(bytes.ok());
  EXPECT_TRUE(*bytes == test::load_file(test::samples_root() / "kh-bbs/pmo/p01ex00.pmo"));
}

TEST(LowerKhBbs, MovedVertexChangesOnlyItsPosition) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  const PmoFile& base = std::get<PmoFile>(*doc);
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  Primitive& p = scene->meshes[0].primitives[2];
  const std::uint32_t v = p.indices[0];
  p.positions[v].y += 0.05f;
  auto out = lower_ok(*scene, *doc);
  ASSERT_TRUE(out);
  const Pmo& pmo = std::get<PmoFile>(*out).pmo;
  ASSERT_EQ(changed_sections(base.pmo, pmo), std::vector<std::size_t>{2});
  const PmoSection& was = *sections(base.pmo)[2];
  const PmoSection& now = *sections(pmo)[2];
  const auto format = psp::VertexFormat::parse(was.vertex_flags & 0xFFFFFF);
  const std::size_t y = v * was.vertex_size() + format.layout().position + psp::element_size(format.position);
  for (std::size_t at : changed_bytes(was.vertices, now.vertices)) {
    EXPECT_TRUE(at >= y && at < y + psp::element_size(format.position)) << "byte " << at;
  }
  auto again = lift(*out);
  ASSERT_TRUE(again.ok());
  const float step = base.pmo.scale / (format.position == psp::NumFormat::i16 ? 32768.0f : 128.0f);
  EXPECT_NEAR(again->meshes[0].primitives[2].positions[v].y, p.positions[v].y, step);
  EXPECT_EQ(again->meshes[0].primitives[2].positions[v].x, p.positions[v].x);
}

TEST(LowerKhBbs, ChangedWeightsAreStoredAsU8SummingTo128) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  const PmoFile& base = std::get<PmoFile>(*doc);
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  // The first vertex that two joints share.
  std::size_t prim = 0, vertex = 0;
  bool found = false;
  for (std::size_t i = 0; i < scene->meshes[0].primitives.size() && !found; ++i) {
    const Primitive& p = scene->meshes[0].primitives[i];
    for (std::size_t v = 0; v < p.vertex_count() && !found && p.influences != 0; ++v) {
      if (p.weights[v * p.influences] > 0 && p.weights[v * p.influences + 1] > 0) {
        prim = i;
        vertex = v;
        found = true;
      }
    }
  }
  ASSERT_TRUE(found);
  Primitive& p = scene->meshes[0].primitives[prim];
  for (std::size_t k = 0; k < p.influences; ++k) p.weights[vertex * p.influences + k] = 0;
  p.weights[vertex * p.influences] = 0.75f;
  p.weights[vertex * p.influences + 1] = 0.25f;
  auto out = lower_ok(*scene, *doc);
  ASSERT_TRUE(out);
  const Pmo& pmo = std::get<PmoFile>(*out).pmo;
  ASSERT_EQ(changed_sections(base.pmo, pmo), std::vector<std::size_t>{prim});
  const PmoSection& s = *sections(pmo)[prim];
  const auto format = psp::VertexFormat::parse(s.vertex_flags & 0xFFFFFF);
  auto decoded = psp::decode_vertices(format, s.vertices, s.vertex_count());
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ((*decoded)[vertex].weights[0], 96u);
  EXPECT_EQ((*decoded)[vertex].weights[1], 32u);
  for (std::size_t k = 2; k < format.weight_count; ++k) EXPECT_EQ((*decoded)[vertex].weights[k], 0u);
  const std::size_t first = vertex * s.vertex_size() + format.layout().weights;
  for (std::size_t at : changed_bytes(sections(base.pmo)[prim]->vertices, s.vertices)) {
    EXPECT_TRUE(at >= first && at < first + format.weight_count) << "byte " << at;
  }
}

TEST(LowerKhBbs, RenamedJointAndMovedBindPoseChangeOnlyThatJoint) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  const PmoFile& base = std::get<PmoFile>(*doc);
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  const Skin& skin = scene->skins[0];
  const std::size_t j = skin.joints.size() - 1;  // a leaf: moving it moves no other joint
  Node& node = scene->nodes[static_cast<std::size_t>(skin.joints[j])];
  node.name = "renamed_joint";
  node.local.translation.x += 0.25f;
  scene->skins[0].inverse_bind_matrices[j] = inverse(world_matrices(*scene)[static_cast<std::size_t>(skin.joints[j])]);
  auto out = lower_ok(*scene, *doc);
  ASSERT_TRUE(out);
  const Bon& was = *base.pmo.skeleton;
  const Bon& now = *std::get<PmoFile>(*out).pmo.skeleton;
  for (std::size_t i = 0; i + 1 < was.joints.size(); ++i) {
    EXPECT_EQ(was.joints[i].name, now.joints[i].name);
    EXPECT_EQ(was.joints[i].local, now.joints[i].local);
    EXPECT_EQ(was.joints[i].inverse_bind, now.joints[i].inverse_bind);
  }
  EXPECT_EQ(fixed_string(now.joints[j].name), "renamed_joint");
  EXPECT_TRUE(changed_sections(base.pmo, std::get<PmoFile>(*out).pmo).empty());
  auto again = lift(*out);
  ASSERT_TRUE(again.ok());
  const std::vector<Mat4> world = world_matrices(*again);
  const Skin& s = again->skins[0];
  EXPECT_LE(max_abs_difference(world[static_cast<std::size_t>(s.joints[j])] * s.inverse_bind_matrices[j], Mat4::identity()), 1e-4f);
  EXPECT_NEAR(again->nodes[static_cast<std::size_t>(s.joints[j])].local.translation.x, node.local.translation.x, 1e-5f);
}

TEST(LowerKhBbs, ReplacedTextureIsEncodedInTheBaseTim2) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  const PmoFile& base = std::get<PmoFile>(*doc);
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  ASSERT_FALSE(scene->textures.empty());
  RgbaImage& image = scene->textures[0].image;
  for (std::uint32_t x = 0; x < image.width; ++x) image.at(x, 0)[0] = static_cast<std::uint8_t>(255 - image.at(x, 0)[0]);
  scene->textures[0].name = "newname";
  auto out = lower_ok(*scene, *doc);
  ASSERT_TRUE(out);
  // The same as replacing the picture directly.
  Document direct = *doc;
  ASSERT_FALSE(replace_texture(direct, 0, image).has_value());
  const Pmo& now = std::get<PmoFile>(*out).pmo;
  EXPECT_EQ(now.tim2s[0].pictures[0].image, std::get<PmoFile>(direct).pmo.tim2s[0].pictures[0].image);
  EXPECT_TRUE(changed_sections(base.pmo, now).empty());
  auto again = lift(*out);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->textures[0].name, "newname");
  for (std::size_t t = 1; t < again->textures.size(); ++t) EXPECT_TRUE(again->textures[t].image == scene->textures[t].image);
}

TEST(LowerKhBbs, HostileScenesAreClearErrors) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  {
    Scene s = *scene;
    s.meshes[0].primitives[0].positions[0].x = std::numeric_limits<float>::quiet_NaN();
    EXPECT_NE(lower_error(s, *doc).find("meshes[0].primitives[0].positions"), std::string::npos);
  }
  {
    Scene s = *scene;
    s.meshes[0].primitives[0].joints[0] = 999;
    EXPECT_NE(lower_error(s, *doc).find("past the skin's"), std::string::npos);
  }
  {
    Scene s = *scene;
    s.meshes[0].primitives[1].normals.pop_back();
    s.meshes[0].primitives[1].uvs[0].push_back({});
    EXPECT_NE(lower_error(s, *doc).find("meshes[0].primitives[1]"), std::string::npos);
  }
  {
    Scene s = *scene;
    s.meshes[0].primitives[1].weights.pop_back();
    EXPECT_NE(lower_error(s, *doc).find("meshes[0].primitives[1].weights"), std::string::npos);
  }
  {
    Scene s = *scene;
    s.meshes[0].primitives[0].indices.push_back(100000);
    EXPECT_NE(lower_error(s, *doc).find("indices"), std::string::npos);
  }
  {
    Scene s = *scene;
    s.skins[0].joints.pop_back();
    EXPECT_NE(lower_error(s, *doc).find("cannot be added or removed"), std::string::npos);
  }
  {
    Scene s = *scene;
    s.skins[0].joints[0] = 100000;
    EXPECT_NE(lower_error(s, *doc).find("skins[0].joints[0]"), std::string::npos);
  }
  {
    Scene s = *scene;
    s.meshes[0].primitives[0].positions[0].x = 1e9f;
    EXPECT_NE(lower_error(s, *doc).find("model scale"), std::string::npos);
  }
  {
    Scene s = *scene;
    s.nodes[static_cast<std::size_t>(s.skins[0].joints[1])].local.translation.x = std::numeric_limits<float>::infinity();
    EXPECT_NE(lower_error(s, *doc).find("non-finite"), std::string::npos);
  }
  {
    Scene s = *scene;
    s.nodes[static_cast<std::size_t>(s.skins[0].joints[0])].name = std::string(40, 'x');
    EXPECT_NE(lower_error(s, *doc).find("holds 16"), std::string::npos);
  }
}

}  // namespace
}  // namespace remodel::scene
