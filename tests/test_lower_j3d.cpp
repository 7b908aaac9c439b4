// The J3D lower over its base: every BMD/BDL sample gives its own bytes back from its own lift, each
// edit kind of issue 15 on a real sample shows in the output and nowhere else, hostile Scenes are
// clear errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "model/document.hpp"
#include "model/j3d.hpp"
#include "model/j3d_decode.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"

namespace remodel {
namespace {

struct Base {
  Bytes bytes;
  Document doc;
  scene::Scene scene;
};

// One sample read and lifted; nullopt (with a skip or failure) when absent.
std::optional<Base> load(const std::string& name) {
  for (const auto& path : test::sample_files("j3d")) {
    if (path.filename() != name) continue;
    Base b{test::load_file(path), {}, {}};
    auto doc = read_document(b.bytes);
    if (!doc) {
      ADD_FAILURE() << name << ": " << doc.error().describe();
      return std::nullopt;
    }
    b.doc = std::move(*doc);
    auto s = scene::lift(b.doc);
    if (!s) {
      ADD_FAILURE() << name << ": " << s.error().describe();
      return std::nullopt;
    }
    b.scene = std::move(*s);
    return b;
  }
  return std::nullopt;
}

#define LOAD_OR_SKIP(var, name)                                                                         \
  auto var##_loaded = load(name);                                                                       \
  if (!var##_loaded) {                                                                                  \
    if (test::samples_required()) FAIL() << "REMODEL_REQUIRE_SAMPLES=1 but " << name << " is missing"; \
    GTEST_SKIP() << name << " is not in the samples";                                                   \
  }                                                                                                     \
  Base& var = *var##_loaded

// The lowered file written, read back (it must round-trip byte-exactly itself) and lifted again.
struct Output {
  Bytes bytes;
  J3dFile file;
  scene::Scene scene;
  std::vector<scene::LowerWarning> warnings;
};

Output lower_and_reread(const scene::Scene& s, const Base& base) {
  Output o;
  auto lowered = scene::lower(s, base.doc);
  EXPECT_TRUE(lowered.ok()) << (lowered.ok() ? "" : lowered.error().describe());
  if (!lowered) return o;
  o.warnings = lowered->warnings;
  auto bytes = write_document(lowered->document);
  EXPECT_TRUE(bytes.ok()) << (bytes.ok() ? "" : bytes.error().describe());
  if (!bytes) return o;
  o.bytes = *bytes;
  auto doc = read_document(o.bytes);
  EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().describe());
  if (!doc) return o;
  auto again = write_document(*doc);
  EXPECT_TRUE(again.ok() && *again == o.bytes) << "the output does not round-trip through read/write";
  auto checked = j3d_check_indices(std::get<J3dFile>(*doc));
  EXPECT_TRUE(checked.ok()) << (checked.ok() ? "" : checked.error().describe());
  auto lifted = scene::lift(*doc);
  EXPECT_TRUE(lifted.ok()) << (lifted.ok() ? "" : lifted.error().describe());
  if (lifted) o.scene = std::move(*lifted);
  o.file = std::get<J3dFile>(*doc);
  return o;
}

template <typename T>
const T& section(const J3dFile& f) {
  for (const J3dSection& s : f.sections) {
    if (const auto* p = std::get_if<T>(&s)) return *p;
  }
  throw std::runtime_error("section missing");
}

// The sections other than those named, equal between two files.
void expect_other_sections_equal(const J3dFile& a, const J3dFile& b, const std::vector<std::string>& edited) {
  ASSERT_EQ(a.sections.size(), b.sections.size());
  for (std::size_t i = 0; i < a.sections.size(); ++i) {
    const std::string magic = j3d_section_magic(a.sections[i]);
    if (std::find(edited.begin(), edited.end(), magic) != edited.end()) continue;
    J3dFile x, y;
    x.sections = {a.sections[i]};
    y.sections = {b.sections[i]};
    x.type = y.type = a.type;
    x.padding = y.padding = a.padding;
    auto bx = write_j3d(x), by = write_j3d(y);
    ASSERT_TRUE(bx.ok() && by.ok());
    EXPECT_EQ(*bx, *by) << magic << " changed but the edit does not touch it";
  }
}

TEST(LowerJ3d, EverySampleGivesItsOwnBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const auto& path : files) {
    const Bytes bytes = test::load_file(path);
    auto doc = read_document(bytes);
    ASSERT_TRUE(doc.ok()) << path;
    auto s = scene::lift(*doc);
    ASSERT_TRUE(s.ok()) << path << ": " << s.error().describe();
    auto lowered = scene::lower(*s, *doc);
    ASSERT_TRUE(lowered.ok()) << path << ": " << lowered.error().describe();
    EXPECT_TRUE(lowered->warnings.empty()) << path << ": " << lowered->warnings.front().where << " " << lowered->warnings.front().message;
    auto out = write_document(lowered->document);
    ASSERT_TRUE(out.ok()) << path;
    EXPECT_TRUE(*out == bytes) << path << ": the unedited lower is not the original";
  }
}

// Blender drops extras and keeps names: the same bytes must come back from names alone.
TEST(LowerJ3d, WithoutExtrasByName) {
  LOAD_OR_SKIP(b, "ww_ka.bdl");
  scene::Scene s = b.scene;
  for (auto& n : s.nodes) n.extras = nullptr;
  for (auto& m : s.meshes) {
    for (auto& p : m.primitives) p.extras = nullptr;
  }
  for (auto& m : s.materials) m.extras = nullptr;
  for (auto& t : s.textures) t.extras = nullptr;
  std::reverse(s.materials.begin(), s.materials.end());  // order must not matter when names match
  for (auto& m : s.meshes) {
    for (auto& p : m.primitives) p.material = p.material < 0 ? -1 : static_cast<int>(s.materials.size()) - 1 - p.material;
  }
  auto lowered = scene::lower(s, b.doc);
  ASSERT_TRUE(lowered.ok()) << lowered.error().describe();
  auto out = write_document(lowered->document);
  ASSERT_TRUE(out.ok());
  EXPECT_TRUE(*out == b.bytes);
}

float distance(scene::Vec3 a, scene::Vec3 b) { return scene::length(a - b); }

// Moved positions, normals, UVs and a colour on one shape of a small model with s16 positions
// (6 fractional bits), s16 normals and UVs and RGBA8 colours: the re-lifted shape shows the edit
// within the format's quantisation; every other shape and every section but VTX1, SHP1 and INF1's
// counts are untouched.
TEST(LowerJ3d, MovedVertices) {
  LOAD_OR_SKIP(b, "smg_poltaformationrock.bdl");
  scene::Scene s = b.scene;
  scene::Primitive& p = s.meshes[0].primitives[0];
  ASSERT_GE(p.vertex_count(), 4u);
  ASSERT_FALSE(p.normals.empty());
  ASSERT_FALSE(p.colors.empty());
  ASSERT_FALSE(p.uvs.empty());
  // Every copy of the edited vertices (split by the lift for other attributes) moves together.
  const scene::Vec3 moved_from = p.positions[0];
  for (auto& v : p.positions) {
    if (v == moved_from) v = v + scene::Vec3{1.5f, -2.0f, 0.25f};
  }
  p.normals[1] = scene::normalize(scene::Vec3{0.3f, 0.9f, -0.1f});
  p.uvs[0][2] = {p.uvs[0][2].x + 0.125f, p.uvs[0][2].y - 0.5f};
  p.colors[3] = {0.2f, 0.4f, 0.6f, 1.0f};
  const Output o = lower_and_reread(s, b);
  ASSERT_FALSE(o.bytes.empty());
  EXPECT_TRUE(o.warnings.empty());
  const scene::Primitive& q = o.scene.meshes[0].primitives[0];
  ASSERT_EQ(q.vertex_count(), p.vertex_count());
  ASSERT_EQ(q.indices, p.indices);
  for (std::size_t v = 0; v < p.vertex_count(); ++v) {
    EXPECT_LE(distance(q.positions[v], p.positions[v]), 1.0f / 32) << v;  // 1/64 per stored component
    EXPECT_LE(distance(q.normals[v], p.normals[v]), 1e-3f) << v;
    EXPECT_LE(std::fabs(q.uvs[0][v].x - p.uvs[0][v].x) + std::fabs(q.uvs[0][v].y - p.uvs[0][v].y), 1e-3f) << v;
    EXPECT_LE(std::fabs(q.colors[v].x - p.colors[v].x) + std::fabs(q.colors[v].y - p.colors[v].y) + std::fabs(q.colors[v].z - p.colors[v].z), 2.0f / 255) << v;
  }
  EXPECT_NE(q.positions[0], b.scene.meshes[0].primitives[0].positions[0]);
  for (std::size_t m = 1; m < s.meshes.size(); ++m) {
    const scene::Primitive& was = b.scene.meshes[m].primitives[0];
    const scene::Primitive& now = o.scene.meshes[m].primitives[0];
    EXPECT_EQ(was.positions, now.positions) << m;
    EXPECT_EQ(was.indices, now.indices) << m;
  }
  expect_other_sections_equal(std::get<J3dFile>(b.doc), o.file, {"VTX1", "SHP1", "INF1"});
  // Unchanged values keep their stored elements: only the edited ones were appended.
  const J3dVtx1& was = section<J3dVtx1>(std::get<J3dFile>(b.doc));
  const J3dVtx1& now = section<J3dVtx1>(o.file);
  for (std::size_t a = 0; a < was.arrays.size(); ++a) {
    ASSERT_GE(now.arrays[a].data.size(), was.arrays[a].data.size());
    EXPECT_TRUE(std::equal(was.arrays[a].data.begin(), was.arrays[a].data.end(), now.arrays[a].data.begin())) << "array " << a;
  }
  EXPECT_EQ(section<J3dInf1>(o.file).vertex_count, j3d_decode_array(now, 0)->count());
}

}  // namespace
}  // namespace remodel
