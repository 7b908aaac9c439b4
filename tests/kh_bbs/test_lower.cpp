// KH BBS lower over a base: every sample comes back byte for byte from its own lift, and each edit
// kind, made by code on a real sample, changes only the bytes it reaches and reads back as edited.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "blender_like.hpp"
#include "model/diff.hpp"
#include "model/document.hpp"
#include "model/kh_bbs/pmo.hpp"
#include "model/psp/vertex.hpp"
#include "model/textures.hpp"
#include "samples.hpp"
#include "error_checks.hpp"
#include "scene/kh_bbs/lower.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene/math.hpp"

namespace remodel::scene {
namespace {

#define LOAD_OR_SKIP(var, subdir, name)                                \
  auto var = test::load_named_sample(subdir, name);                    \
  if (!var) {                                                          \
    if (test::samples_required()) FAIL() << name << " missing";        \
    GTEST_SKIP() << name << " not present";                            \
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
  if (!out.ok()) test::expect_no_file_position(out.error());
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

// `remodel diff` between base and output reports only fields whose path contains one of `allowed`.
void expect_diff_only(const Document& base, const Document& out, const std::vector<std::string>& allowed) {
  std::vector<FieldDifference> diffs;
  const std::size_t n = diff_documents(base, out, diffs, 100000);
  EXPECT_GT(n, 0u) << "the edit changed nothing";
  for (const FieldDifference& d : diffs) {
    const bool ok = std::any_of(allowed.begin(), allowed.end(), [&](const std::string& a) { return d.field.find(a) != std::string::npos; });
    EXPECT_TRUE(ok) << "changed outside the edit: " << d.field;
  }
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
  expect_diff_only(*doc, *out, {"objects[1]"});
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
  expect_diff_only(*doc, *out, {"sections[2].vertices"});
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
  expect_diff_only(*doc, *out, {"joints[" + std::to_string(j) + "]"});
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
  ASSERT_TRUE(replace_texture(direct, 0, image).ok());
  const Pmo& now = std::get<PmoFile>(*out).pmo;
  EXPECT_EQ(now.tim2s[0].pictures[0].image, std::get<PmoFile>(direct).pmo.tim2s[0].pictures[0].image);
  EXPECT_TRUE(changed_sections(base.pmo, now).empty());
  auto again = lift(*out);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->textures[0].name, "newname");
  for (std::size_t t = 1; t < again->textures.size(); ++t) EXPECT_TRUE(again->textures[t].image == scene->textures[t].image);
}

// Every drawn triangle of a mesh as its corners' positions (to 1e-3) and BON joints, winding kept,
// starting at its smallest corner: what a rebuild must keep whatever the strips and sections.
using Corner = std::array<long, 4>;
std::vector<std::array<Corner, 3>> drawn(const Mesh& mesh) {
  std::vector<std::array<Corner, 3>> out;
  for (const Primitive& p : mesh.primitives) {
    const std::vector<std::uint32_t> t = drawn_triangles(p);
    for (std::size_t i = 0; i < t.size(); i += 3) {
      std::array<Corner, 3> tri;
      for (std::size_t c = 0; c < 3; ++c) {
        const Vec3& q = p.positions[t[i + c]];
        long joint = -1;
        float best = 0;
        for (std::size_t k = 0; k < p.influences; ++k) {
          const float w = p.weights[t[i + c] * p.influences + k];
          const long j = p.joints[t[i + c] * p.influences + k];
          if (w > best || (w == best && w > 0 && j < joint)) {  // the strongest joint, the lower on a tie
            best = w;
            joint = j;
          }
        }
        tri[c] = {std::lround(q.x * 1000), std::lround(q.y * 1000), std::lround(q.z * 1000), joint};
      }
      std::rotate(tri.begin(), std::min_element(tri.begin(), tri.end()), tri.end());
      out.push_back(tri);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(LowerKhBbs, ChangedTopologyIsRestripped) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  const PmoFile& base = std::get<PmoFile>(*doc);
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  Primitive& p = scene->meshes[0].primitives[3];
  p.indices.resize(p.indices.size() - 3);  // one triangle fewer
  auto out = lower_ok(*scene, *doc);
  ASSERT_TRUE(out);
  const Pmo& now = std::get<PmoFile>(*out).pmo;
  EXPECT_EQ(now.triangle_count(), base.pmo.triangle_count() - 1);
  auto again = lift(*out);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(drawn(again->meshes[0]), drawn(scene->meshes[0]));
  // The sections before it are untouched.
  const auto before = sections(base.pmo), after = sections(now);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(before[i]->vertices, after[i]->vertices);
  EXPECT_EQ(after[3]->primitive(), 4);
}

TEST(LowerKhBbs, JointsOutsideASectionRepartitionIt) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  const PmoFile& base = std::get<PmoFile>(*doc);
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  // Every vertex of primitive 0 follows a joint of its own (joint v % joint count): far more than 8.
  Primitive& p = scene->meshes[0].primitives[0];
  const std::size_t joints = base.pmo.skeleton->joints.size();
  for (std::size_t v = 0; v < p.vertex_count(); ++v) {
    for (std::size_t k = 0; k < p.influences; ++k) {
      p.joints[v * p.influences + k] = 0;
      p.weights[v * p.influences + k] = 0;
    }
    p.joints[v * p.influences] = static_cast<std::uint16_t>(v % joints);
    p.weights[v * p.influences] = 1;
  }
  auto out = lower_ok(*scene, *doc);
  ASSERT_TRUE(out);
  const Pmo& now = std::get<PmoFile>(*out).pmo;
  EXPECT_GT(sections(now).size(), sections(base.pmo).size());
  for (const PmoSection* s : sections(now)) {
    ASSERT_TRUE(s->joints.has_value());
  }
  auto again = lift(*out);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(drawn(again->meshes[0]), drawn(scene->meshes[0]));
}

TEST(LowerKhBbs, MoreThanEightWeightsKeepTheStrongestWithAWarningOfTheWeightLost) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  Primitive& p = scene->meshes[0].primitives[0];
  const std::uint32_t v = p.indices[0];
  std::vector<std::uint16_t> joints(p.vertex_count() * 12, 0);
  std::vector<float> weights(p.vertex_count() * 12, 0.0f);
  for (std::size_t i = 0; i < p.vertex_count(); ++i) {
    for (std::size_t k = 0; k < p.influences; ++k) {
      joints[i * 12 + k] = p.joints[i * p.influences + k];
      weights[i * 12 + k] = p.weights[i * p.influences + k];
    }
  }
  // Its triangle's other corners follow joint 0 alone, so the triangle needs the 8 joints kept.
  for (std::size_t c = 1; c < 3; ++c) {
    for (std::size_t k = 0; k < 12; ++k) weights[p.indices[c] * 12 + k] = 0;
    joints[p.indices[c] * 12] = 0;
    weights[p.indices[c] * 12] = 1;
  }
  for (std::size_t k = 0; k < 12; ++k) {
    joints[v * 12 + k] = static_cast<std::uint16_t>(k);
    weights[v * 12 + k] = k < 9 ? (k == 8 ? 0.02f : 0.1225f) : 0.0f;  // 9 joints, the 9th weakest
  }
  p.influences = 12;
  p.joints = std::move(joints);
  p.weights = std::move(weights);
  auto out = lower(*scene, *doc);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  ASSERT_FALSE(out->warnings.empty());
  EXPECT_NE(out->warnings[0].message.find("1 vertices lost up to 0.020 (mean 0.020) of their weight"), std::string::npos) << out->warnings[0].message;
  ASSERT_TRUE(write_document(out->document).ok());
}

TEST(LowerKhBbs, PrimitivesRemovedAndAdded) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  const PmoFile& base = std::get<PmoFile>(*doc);
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  Mesh& mesh = scene->meshes[0];
  Primitive added = mesh.primitives[1];
  added.extras = nullptr;  // stands for no section
  for (Vec3& q : added.positions) q.x += 0.5f;
  mesh.primitives.erase(mesh.primitives.begin() + 2);
  mesh.primitives.push_back(added);
  auto out = lower_ok(*scene, *doc);
  ASSERT_TRUE(out);
  const Pmo& now = std::get<PmoFile>(*out).pmo;
  EXPECT_EQ(now.triangle_count(), base.pmo.triangle_count() - sections(base.pmo)[2]->triangle_count() +
                                      sections(base.pmo)[1]->triangle_count());
  auto again = lift(*out);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(drawn(again->meshes[0]), drawn(mesh));
}


// What Blender's glTF import and export (3.4, unchanged) do to a KH BBS export, made by code: every
// extras dropped; a mesh's primitives joined and split again by material (one primitive per material,
// triangles in another order, each starting at another corner, corners with equal values shared and
// the rest each its own vertex); face normals added and colours white where there were none; 4
// influences per vertex; float noise far below the s16 step on positions, UVs and weights; colours
// through the sRGB bytes Blender keeps them in (one /128 step off for some: g59dc00.pmo);
// repeated material names suffixed ".001"; and every bone frame turned about its origin (inverse
// binds turned with it), as Blender points bones along their children.
Scene blender_like(const Scene& lifted, std::uint32_t seed, std::size_t* limited = nullptr) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> noise(-1.0f, 1.0f);
  Scene s = lifted;
  for (Node& n : s.nodes) n.extras = nullptr;
  for (Texture& t : s.textures) t.extras = nullptr, t.name.clear();
  for (Skin& k : s.skins) k.extras = nullptr;
  std::map<std::string, int> seen;
  for (Material& m : s.materials) {
    m.extras = nullptr;
    const int n = seen[m.name]++;
    if (n > 0) m.name += n < 10 ? ".00" + std::to_string(n) : ".0" + std::to_string(n);
  }
  for (Mesh& mesh : s.meshes) {
    mesh.extras = nullptr;
    std::map<int, Primitive> by_material;
    for (const Primitive& p : mesh.primitives) {
      Primitive& out = by_material[p.material];
      out.material = p.material;
      out.influences = p.influences == 0 ? 0 : 4;  // no skin: no JOINTS_0 / WEIGHTS_0
      if (out.uvs.empty()) out.uvs.resize(1);
      const std::vector<std::uint32_t> tris = drawn_triangles(p);
      for (std::size_t t = 0; t + 2 < tris.size(); t += 3) {
        const Vec3 face = normalize(cross(p.positions[tris[t + 1]] - p.positions[tris[t]], p.positions[tris[t + 2]] - p.positions[tris[t]]));
        for (std::size_t c = 0; c < 3; ++c) {
          const std::uint32_t v = tris[t + c];
          out.positions.push_back(p.positions[v]);
          out.normals.push_back(face);
          out.uvs[0].push_back(p.uvs.empty() ? Vec2{0, 0} : p.uvs[0][v]);
          out.colors.push_back(p.colors.empty() ? Vec4{1, 1, 1, 1} : p.colors[v]);
          std::vector<std::pair<float, std::uint16_t>> w;
          for (std::size_t k = 0; k < p.influences; ++k) {
            if (p.weights[v * p.influences + k] > 0) w.emplace_back(p.weights[v * p.influences + k], p.joints[v * p.influences + k]);
          }
          // Blender keeps the strongest 4 (its default), renormalised below.
          std::stable_sort(w.begin(), w.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
          if (w.size() > 4 && limited != nullptr) ++*limited;
          w.resize(out.influences);
          for (const auto& [weight, joint] : w) {
            out.weights.push_back(weight);
            out.joints.push_back(joint);
          }
        }
      }
    }
    mesh.primitives.clear();
    for (auto& [material, p] : by_material) {
      // Triangles shuffled and rotated, then corners with equal values shared.
      const std::size_t n = p.positions.size() / 3;
      std::vector<std::uint32_t> order(n);
      for (std::uint32_t t = 0; t < n; ++t) order[t] = t;
      std::shuffle(order.begin(), order.end(), rng);
      std::vector<std::uint32_t> corners;
      for (std::uint32_t t : order) {
        const std::uint32_t r = rng() % 3;
        for (std::uint32_t c = 0; c < 3; ++c) corners.push_back(3 * t + (c + r) % 3);
      }
      Primitive q;
      q.material = material;
      q.influences = p.influences;
      q.uvs.resize(1);
      std::map<std::vector<float>, std::uint32_t> shared;
      for (std::uint32_t v : corners) {
        std::vector<float> key = {p.positions[v].x, p.positions[v].y, p.positions[v].z, p.normals[v].x, p.normals[v].y, p.normals[v].z,
                                  p.uvs[0][v].x, p.uvs[0][v].y, p.colors[v].x, p.colors[v].y, p.colors[v].z, p.colors[v].w};
        for (std::size_t k = 0; k < p.influences; ++k) key.insert(key.end(), {p.weights[v * 4 + k], static_cast<float>(p.joints[v * 4 + k])});
        const auto [it, added] = shared.emplace(key, static_cast<std::uint32_t>(q.positions.size()));
        q.indices.push_back(it->second);
        if (!added) continue;
        const float step = 1e-6f;  // the s16 step of p01ex00 is 1.69 / 32768 = 5e-5
        q.positions.push_back(p.positions[v] + Vec3{noise(rng), noise(rng), noise(rng)} * step);
        q.normals.push_back(p.normals[v]);
        q.uvs[0].push_back({p.uvs[0][v].x + noise(rng) * 1e-6f, p.uvs[0][v].y + noise(rng) * 1e-6f});
        q.colors.push_back({test::srgb_byte_round_trip(p.colors[v].x), test::srgb_byte_round_trip(p.colors[v].y),
                            test::srgb_byte_round_trip(p.colors[v].z), p.colors[v].w});
        float sum = 0;
        for (std::size_t k = 0; k < p.influences; ++k) sum += p.weights[v * 4 + k] * (1.0f + (p.weights[v * 4 + k] > 0 ? noise(rng) * 1e-6f : 0.0f));
        for (std::size_t k = 0; k < p.influences; ++k) {
          q.weights.push_back(p.weights[v * 4 + k] / sum);
          q.joints.push_back(p.joints[v * 4 + k]);
        }
      }
      mesh.primitives.push_back(std::move(q));
    }
  }
  // Bone frames turned about their origins: world' = world * R, inverse bind' = R^-1 * inverse bind.
  for (Skin& k : s.skins) {
    std::vector<Mat4> world(s.nodes.size()), turned(s.nodes.size());
    auto world_of = [&](int n) {
      Mat4 w = Mat4::identity();
      for (; n >= 0; n = s.nodes[static_cast<std::size_t>(n)].parent) w = trs_matrix(s.nodes[static_cast<std::size_t>(n)].local) * w;
      return w;
    };
    for (std::size_t j = 0; j < k.joints.size(); ++j) {
      const std::size_t n = static_cast<std::size_t>(k.joints[j]);
      const Mat4 r = rotation_matrix(axis_angle(normalize(Vec3{noise(rng), noise(rng), 1.0f}), noise(rng)));
      world[n] = world_of(static_cast<int>(n));
      turned[n] = world[n] * r;
      bool ok = true;
      k.inverse_bind_matrices[j] = inverse(r, &ok) * k.inverse_bind_matrices[j];
    }
    for (std::size_t j = 0; j < k.joints.size(); ++j) {
      Node& n = s.nodes[static_cast<std::size_t>(k.joints[j])];
      const Mat4 parent = n.parent < 0 ? Mat4::identity() : turned[static_cast<std::size_t>(n.parent)];
      n.local = decompose(inverse(parent) * turned[static_cast<std::size_t>(k.joints[j])]);
    }
  }
  return s;
}

// Every PMO sample (s8/s16 and f32 positions, skinned and not) whose vertices lean on at most 4
// joints comes back byte for byte; one with more comes back, rebuilt where Blender dropped weights.
TEST(LowerKhBbs, BlenderLikeRoundTripGivesTheOriginalBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmo");
  std::size_t identical = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const Bytes original = test::load_file(path);
    auto doc = read_document(original);
    ASSERT_TRUE(doc.ok()) << doc.error().describe();
    auto scene = lift(*doc);
    ASSERT_TRUE(scene.ok());
    std::size_t limited = 0;
    const Scene blender = blender_like(*scene, 15, &limited);
    ASSERT_EQ(blender.meshes.size(), 1u);
    ASSERT_LE(blender.meshes[0].primitives.size(), blender.materials.size());  // merged by material
    auto out = lower(blender, *doc);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    auto bytes = write_document(out->document);
    ASSERT_TRUE(bytes.ok());
    ASSERT_TRUE(read_document(*bytes).ok());
    if (limited != 0) continue;
    EXPECT_TRUE(*bytes == original);
    identical += *bytes == original;
    const std::string all = std::to_string(sections(std::get<PmoFile>(*doc).pmo).size());
    bool said = false;
    for (const Warning& w : out->warnings) {
      EXPECT_EQ(w.message.find("re-partitioned"), std::string::npos) << w.where << ": " << w.message;
      said = said || w.message.find(all + " of " + all + " PMO sections found unchanged") != std::string::npos;
    }
    EXPECT_TRUE(said) << "the warnings say how the sections were found";
  }
  EXPECT_GE(identical, 1u);
}

// g59dc00.pmo's colours through Blender's sRGB bytes: 977 vertices of 111 sections come back a /128
// step off their stored byte, within Blender's noise, so every section is found and keeps its bytes.
TEST(LowerKhBbs, BlenderLikeColoursOffByAStepKeepTheirSections) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "g59dc00.pmo");
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  const Scene blender = blender_like(*scene, 18);
  std::size_t stepped = 0;  // incoming colours whose stored byte differs from every base colour's at that position
  std::map<std::array<float, 3>, std::set<Rgba>> base_bytes;
  for (const Primitive& p : scene->meshes[0].primitives) {
    for (std::size_t v = 0; v < p.colors.size(); ++v) base_bytes[{p.positions[v].x, p.positions[v].y, p.positions[v].z}].insert(kh_bbs::colour_bytes(p.colors[v]));
  }
  for (const Primitive& p : blender.meshes[0].primitives) {
    for (std::size_t v = 0; v < p.colors.size(); ++v) {
      const auto found = base_bytes.find({p.positions[v].x, p.positions[v].y, p.positions[v].z});
      stepped += found != base_bytes.end() && !found->second.contains(kh_bbs::colour_bytes(p.colors[v]));
    }
  }
  EXPECT_GT(stepped, 0u) << "the noise moves some colours across a stored step";
  auto out = lower(blender, *doc);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  auto bytes = write_document(out->document);
  ASSERT_TRUE(bytes.ok());
  EXPECT_TRUE(*bytes == test::load_file(test::samples_root() / "kh-bbs/pmo/g59dc00.pmo"));
  for (const Warning& w : out->warnings) EXPECT_EQ(w.message.find("re-partitioned"), std::string::npos) << w.where << ": " << w.message;
}

// Triangles drawn by a mesh as sets of rounded corner positions, so any draw order and vertex split compares equal.
std::multiset<std::array<long, 9>> triangle_set(const Mesh& m, float step) {
  std::multiset<std::array<long, 9>> out;
  for (const Primitive& p : m.primitives) {
    const std::vector<std::uint32_t> t = drawn_triangles(p);
    for (std::size_t i = 0; i + 2 < t.size(); i += 3) {
      std::array<std::array<long, 3>, 3> c;
      for (std::size_t k = 0; k < 3; ++k) {
        const Vec3& q = p.positions[t[i + k]];
        c[k] = {std::lround(q.x / step), std::lround(q.y / step), std::lround(q.z / step)};
      }
      std::rotate(c.begin(), std::min_element(c.begin(), c.end()), c.end());
      out.insert({c[0][0], c[0][1], c[0][2], c[1][0], c[1][1], c[1][2], c[2][0], c[2][1], c[2][2]});
    }
  }
  return out;
}

// Vertices moved in Blender: only the sections drawing them are rebuilt (with a warning), every other
// section keeps its bytes and its place, and the output draws the moved triangles.
TEST(LowerKhBbs, BlenderLikeMovedVerticesRebuildOnlyTheirSections) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  const PmoFile& base = std::get<PmoFile>(*doc);
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  Scene blender = blender_like(*scene, 16);
  // Move every corner at one position of base section 2 (material 2's first section).
  const Primitive& lifted2 = scene->meshes[0].primitives[2];
  ASSERT_FALSE(lifted2.indices.empty());
  const Vec3 at = lifted2.positions[lifted2.indices[0]];
  const int material = lifted2.material;
  std::size_t moved = 0;
  for (Primitive& p : blender.meshes[0].primitives) {
    if (p.material != material) continue;
    for (Vec3& q : p.positions) {
      if (length(q - at) < 1e-4f) q.y += 0.05f, ++moved;
    }
  }
  ASSERT_GT(moved, 0u);
  auto out = lower(blender, *doc);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  bool said = false;
  for (const Warning& w : out->warnings) said = said || w.message.find("re-partitioned") != std::string::npos;
  EXPECT_TRUE(said) << "the rebuild is said in a warning";
  auto bytes = write_document(out->document);
  ASSERT_TRUE(bytes.ok());
  auto again = read_document(*bytes);
  ASSERT_TRUE(again.ok()) << again.error().describe();
  const Pmo& now = std::get<PmoFile>(*again).pmo;
  // Every section of another material is unchanged and in the same order; of this material, all but
  // the ones drawing the moved corners.
  auto other = [&](const Pmo& pmo, const Scene& lifted, bool same_material) {
    std::vector<const PmoSection*> out;
    const auto all = sections(pmo);
    for (std::size_t i = 0; i < all.size() && i < lifted.meshes[0].primitives.size(); ++i) {
      if ((lifted.meshes[0].primitives[i].material == material) == same_material) out.push_back(all[i]);
    }
    return out;
  };
  auto relifted = lift(*again);
  ASSERT_TRUE(relifted.ok());
  const auto before = other(base.pmo, *scene, false), after = other(now, *relifted, false);
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(before[i]->vertices, after[i]->vertices) << "section " << i << " of another material";
    EXPECT_EQ(before[i]->strip_lengths, after[i]->strip_lengths);
  }
  const auto mine_before = other(base.pmo, *scene, true), mine_after = other(now, *relifted, true);
  std::size_t kept = 0;
  for (const PmoSection* s : mine_before) {
    kept += static_cast<std::size_t>(std::count_if(mine_after.begin(), mine_after.end(), [&](const PmoSection* t) {
      return t->vertices == s->vertices && t->strip_lengths == s->strip_lengths && t->joints == s->joints;
    }));
  }
  EXPECT_GE(kept + 3, mine_before.size()) << "only the sections drawing the moved corners change";
  EXPECT_LT(kept, mine_before.size());
  // The output draws what Blender's file draws (positions to the s16 step).
  const float step = base.pmo.scale / 32768.0f;
  EXPECT_EQ(triangle_set(relifted->meshes[0], step), triangle_set(blender.meshes[0], step));
}

// Odd merged primitives (as a glTF file may hold them): an empty UV set, every vertex at one place,
// a material no section has. Each lowers to a file that reads back, or a clear error; never a crash.
TEST(LowerKhBbs, BlenderLikeOddPrimitivesAreRebuiltOrRefused) {
  LOAD_OR_SKIP(doc, "kh-bbs/pmo", "p01ex00.pmo");
  auto scene = lift(*doc);
  ASSERT_TRUE(scene.ok());
  const Scene blender = blender_like(*scene, 17);
  ASSERT_GE(blender.meshes[0].primitives.size(), 2u);
  std::vector<Scene> odd(3, blender);
  odd[0].meshes[0].primitives[0].uvs[0].clear();
  for (Vec3& q : odd[1].meshes[0].primitives[1].positions) q = {0, 0, 0};
  odd[2].meshes[0].primitives[0].material = 999;
  for (const Scene& s : odd) {
    auto out = lower(s, *doc);
    if (!out.ok()) {
      test::expect_no_file_position(out.error());
      continue;
    }
    auto bytes = write_document(out->document);
    ASSERT_TRUE(bytes.ok());
    EXPECT_TRUE(read_document(*bytes).ok());
    EXPECT_FALSE(out->warnings.empty());
  }
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
    // One more UV than positions (p01ex00 has no normals to drop; popping an empty vector is UB).
    ASSERT_FALSE(s.meshes[0].primitives[1].uvs.empty());
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
