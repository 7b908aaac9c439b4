// BWM lowered over its base, on the golden files (no public BWM sample exists; tests/bwm_golden.hpp):
// unedited Scenes give the original bytes; each edit changes only what it reaches; hostile Scenes fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "bwm_golden.hpp"
#include "error_checks.hpp"
#include "model/diff.hpp"
#include "model/document.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene_compare.hpp"

namespace remodel {
namespace {

using scene::Scene;

using golden::bwm_goldens;

Document read_ok(const Bytes& bytes) {
  Result<Document> doc = read_document(bytes);
  EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.error().describe());
  return doc.ok() ? std::move(*doc) : Document{};
}

Scene lift_ok(const Document& doc) {
  Result<Scene> s = scene::lift(doc);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().describe());
  return s.ok() ? std::move(*s) : Scene{};
}

Result<Bytes> lower_write(const Scene& s, const Document& base, std::vector<scene::LowerWarning>* warnings = nullptr) {
  Result<scene::Lowered> low = scene::lower(s, base);
  if (!low) return low.error();
  if (warnings) *warnings = low->warnings;
  return write_document(low->document);
}

std::vector<std::size_t> differing(const Bytes& a, const Bytes& b) {
  std::vector<std::size_t> out;
  EXPECT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) out.push_back(i);
  }
  return out;
}

// The output reads back, writes back to itself, and lifts.
Scene reread(const Bytes& out) {
  const Document back = read_ok(out);
  Result<Bytes> again = write_document(back);
  EXPECT_TRUE(again.ok() && *again == out);
  return lift_ok(back);
}

TEST(LowerBwm, EveryGoldenUnchangedGivesItsBytes) {
  for (const golden::BwmGolden& g : bwm_goldens()) {
    SCOPED_TRACE(g.name);
    const Document doc = read_ok(g.bytes);
    Scene s = lift_ok(doc);
    std::vector<scene::LowerWarning> warnings;
    Result<Bytes> out = lower_write(s, doc, &warnings);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    EXPECT_TRUE(*out == g.bytes);
    EXPECT_TRUE(warnings.empty());
    // As exported (degenerates dropped) and without extras (Blender's default): the same bytes.
    for (scene::Mesh& m : s.meshes) {
      for (scene::Primitive& p : m.primitives) {
        p.indices = scene::drawn_triangles(p);
        p.topology = scene::Topology::triangles;
        p.extras = nullptr;
      }
      m.extras = nullptr;
    }
    for (scene::Node& n : s.nodes) n.extras = nullptr;
    for (scene::Material& m : s.materials) m.extras = nullptr;
    out = lower_write(s, doc);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    EXPECT_TRUE(*out == g.bytes);
  }
}

TEST(LowerBwm, MovedVertexChangesOnlyItsFloats) {
  for (const golden::BwmGolden& g : bwm_goldens()) {
    SCOPED_TRACE(g.name);
    const Document doc = read_ok(g.bytes);
    Scene s = lift_ok(doc);
    scene::Primitive& p = s.meshes[0].primitives[0];
    const std::uint32_t v = scene::drawn_triangles(p).at(0);
    p.positions[v].z += 0.5f;  // glTF +z is the file's -z
    if (!p.uvs.empty()) p.uvs[0][v].y = 0.625f;
    Result<Bytes> out = lower_write(s, doc);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    const std::vector<std::size_t> diff = differing(*out, g.bytes);
    ASSERT_FALSE(diff.empty());
    EXPECT_LE(diff.size(), 8u);  // the z float and the v float
    const Scene back = reread(*out);
    const std::size_t first = p.extras["vertex_first"].get<std::size_t>();
    const Document written = read_ok(*out);
  const Bwm& bwm = std::get<Bwm>(written);
    EXPECT_FLOAT_EQ(decode_bwm_vertices(bwm)->positions[first + v][2], -p.positions[v].z);
    EXPECT_EQ(back.meshes[0].primitives[0].positions[v], p.positions[v]);
    if (!p.uvs.empty()) {
      EXPECT_EQ(back.meshes[0].primitives[0].uvs[0][v].y, 0.625f);
    }
  }
}

TEST(LowerBwm, RenamedMaterialMeshAndEntity) {
  const Bytes bytes = golden::bwm_v6_model();
  const Document doc = read_ok(bytes);
  Scene s = lift_ok(doc);
  ASSERT_GE(s.materials.size(), 2u);
  s.materials[1].name = "renamed.tga";
  s.meshes[0].name = "hull";
  for (scene::Node& n : s.nodes) {
    if (n.extras.is_object() && n.extras.contains("entity")) n.name = "torch";
  }
  Result<Bytes> out = lower_write(s, doc);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  const Scene back = reread(*out);
  EXPECT_EQ(back.materials[1].name, "renamed.tga");
  EXPECT_EQ(back.materials[0].name, s.materials[0].name);
  EXPECT_EQ(back.meshes[0].name, "hull");
  bool entity = false;
  for (const scene::Node& n : back.nodes) entity = entity || n.name == "torch";
  EXPECT_TRUE(entity);
  // Without extras, a renamed material is still matched (by order) and said so.
  for (scene::Material& m : s.materials) m.extras = nullptr;
  std::vector<scene::LowerWarning> warnings;
  out = lower_write(s, doc, &warnings);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  EXPECT_FALSE(warnings.empty());
  // A reference that draws another material.
  s = lift_ok(doc);
  s.meshes[0].primitives[0].material = s.meshes[0].primitives[0].material == 0 ? 1 : 0;
  out = lower_write(s, doc);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  EXPECT_EQ(reread(*out).meshes[0].primitives[0].material, s.meshes[0].primitives[0].material);
  EXPECT_LE(differing(*out, bytes).size(), 4u);
}

TEST(LowerBwm, SkinWeightsAndBindPose) {
  const Bytes bytes = golden::bwm_skin();
  const Document doc = read_ok(bytes);
  Scene s = lift_ok(doc);
  scene::Primitive& p = s.meshes[0].primitives[0];
  ASSERT_EQ(p.influences, 4u);
  // Vertex 0 now leans fully on bone 1.
  for (std::size_t k = 0; k < 4; ++k) p.weights[k] = 0, p.joints[k] = 0;
  p.joints[0] = 1;
  p.weights[0] = 1;
  // Bone 1 moves up.
  scene::Node* bone1 = nullptr;
  for (scene::Node& n : s.nodes) bone1 = n.name == "bone1" ? &n : bone1;
  ASSERT_NE(bone1, nullptr);
  bone1->local.translation.y += 0.5f;
  Result<Bytes> out = lower_write(s, doc);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  const Document written = read_ok(*out);
  const Bwm& bwm = std::get<Bwm>(written);
  const BwmVertices v = *decode_bwm_vertices(bwm);
  EXPECT_EQ(v.joints[0][0], 1);
  EXPECT_EQ(v.weights[0][0], 1.0f);
  EXPECT_EQ(v.weights[0][1], 0.0f);
  EXPECT_FLOAT_EQ(bwm.bones[1].position[1], 1.5f);
  EXPECT_EQ(bwm.bones[0].position, std::get<Bwm>(doc).bones[0].position);
  const Scene back = reread(*out);
  EXPECT_EQ(back.meshes[0].primitives[0].weights[0], 1.0f);
  // Vertex 1 untouched: its bytes in every stride are as stored.
  const BwmVertices before = *decode_bwm_vertices(std::get<Bwm>(doc));
  EXPECT_EQ(v.joints[1], before.joints[1]);
  EXPECT_EQ(v.weights[1], before.weights[1]);
}

TEST(LowerBwm, MoreThanFourWeightsKeepTheStrongestWithAWarning) {
  const Bytes bytes = golden::bwm_skin();
  const Document doc = read_ok(bytes);
  Scene s = lift_ok(doc);
  scene::Primitive& p = s.meshes[0].primitives[0];
  // Eight influences per vertex: vertex 0 spreads over five (bones 0 and 1 repeat: the strongest sum).
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
  for (std::size_t v = 0; v < p.vertex_count(); ++v) {
    for (std::size_t k = 0; k < 8; ++k) {
      joints.push_back(k < 4 ? p.joints[v * 4 + k] : 0);
      weights.push_back(k < 4 ? p.weights[v * 4 + k] : 0.0f);
    }
  }
  const float w0[8] = {0.4f, 0.2f, 0.1f, 0.1f, 0.05f, 0.05f, 0.05f, 0.05f};
  const std::uint16_t j0[8] = {0, 1, 0, 1, 0, 1, 0, 1};
  for (std::size_t k = 0; k < 8; ++k) weights[k] = w0[k], joints[k] = j0[k];
  p.influences = 8;
  p.joints = joints;
  p.weights = weights;
  std::vector<scene::LowerWarning> warnings;
  Result<Bytes> out = lower_write(s, doc, &warnings);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  EXPECT_TRUE(warnings.empty()) << "two bones only: nothing dropped";
  const BwmVertices v = *decode_bwm_vertices(std::get<Bwm>(read_ok(*out)));
  EXPECT_EQ(v.joints[0][0], 0);
  EXPECT_NEAR(v.weights[0][0], 0.6f, 1e-6f);
  EXPECT_NEAR(v.weights[0][1], 0.4f, 1e-6f);
}

// Two triangles added to the first primitive over a new vertex (as exported: drawn triangles), its
// last base triangle removed: the reference's indices are rebuilt (a list for a model, a strip for a
// skin), the new vertex goes after the file's others, and nothing else changes: every base vertex keeps
// its bytes, every other primitive lifts as before, and the diff names only the reference, its mesh's
// counts, the vertex count, the strides' vertices and the indices.
TEST(LowerBwm, ChangedTopologyRebuildsTheReference) {
  for (const golden::BwmGolden& g : bwm_goldens()) {
    SCOPED_TRACE(g.name);
    const Document doc = read_ok(g.bytes);
    const Bwm& base = std::get<Bwm>(doc);
    const Scene lifted = lift_ok(doc);
    Scene s = lifted;
    scene::Primitive& p = s.meshes[0].primitives[0];
    p.indices = scene::drawn_triangles(p);
    p.topology = scene::Topology::triangles;
    const std::uint32_t a = p.indices[0], b = p.indices[1], c = p.indices[2];
    const auto n = static_cast<std::uint32_t>(p.vertex_count());
    p.positions.push_back({2.0f, 3.0f, -0.5f});
    if (!p.normals.empty()) p.normals.push_back({0, 0, 1});
    for (auto& set : p.uvs) set.push_back({0.25f, 0.75f});
    for (std::size_t k = 0; k < p.influences; ++k) {
      p.joints.push_back(k == 0 ? 1 : 0);
      p.weights.push_back(k == 0 ? 1.0f : 0.0f);
    }
    if (p.indices.size() > 3) p.indices.resize(p.indices.size() - 3);
    p.indices.insert(p.indices.end(), {a, n, b, b, n, c});
    std::vector<scene::LowerWarning> warnings;
    Result<Bytes> out = lower_write(s, doc, &warnings);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    EXPECT_TRUE(warnings.empty());
    const Scene back = reread(*out);
    const Document written = read_ok(*out);
    const Bwm& bwm = std::get<Bwm>(written);
    // The edit shows: the primitive draws the incoming triangles; the new vertex has its values.
    EXPECT_EQ(test::primitive_surface(back.meshes[0].primitives[0]), test::primitive_surface(p));
    EXPECT_EQ(bwm.vertex_count, base.vertex_count + 1);
    const BwmVertices v = *decode_bwm_vertices(bwm);
    EXPECT_EQ(v.positions.back(), (BwmVec3{2.0f, 3.0f, 0.5f}));
    if (!v.joints.empty()) {
      EXPECT_EQ(v.joints.back()[0], 1);
      EXPECT_EQ(v.weights.back()[0], 1.0f);
    }
    // Nothing else: base vertices keep their bytes, other primitives lift as before.
    for (std::size_t k = 0; k < base.strides.size(); ++k) {
      EXPECT_TRUE(std::equal(base.strides[k].vertices.begin(), base.strides[k].vertices.end(), bwm.strides[k].vertices.begin())) << "stride " << k;
    }
    for (std::size_t m = 0; m < lifted.meshes.size(); ++m) {
      for (std::size_t q = m == 0 ? 1 : 0; q < lifted.meshes[m].primitives.size(); ++q) {
        EXPECT_EQ(test::primitive_surface(back.meshes[m].primitives[q]), test::primitive_surface(lifted.meshes[m].primitives[q])) << "mesh " << m << " primitive " << q;
      }
    }
    std::vector<FieldDifference> fields;
    diff_documents(doc, written, fields);
    EXPECT_FALSE(fields.empty());
    for (const FieldDifference& f : fields) {
      const bool ok = f.field.find("meshes[0].") != std::string::npos || f.field.find("indices") != std::string::npos ||
                      f.field.find("vertex_count") != std::string::npos || f.field.find(".vertices") != std::string::npos ||
                      f.field.find("_offset") != std::string::npos;
      EXPECT_TRUE(ok) << f.field << " changed";
    }
  }
}

TEST(LowerBwm, HostileScenesAreClearErrors) {
  const Bytes bytes = golden::bwm_skin();
  const Document doc = read_ok(bytes);
  const Scene base = lift_ok(doc);
  const auto expect_error = [&](const Scene& s, ErrorCode code, const char* field_part) {
    Result<scene::Lowered> low = scene::lower(s, doc);
    ASSERT_FALSE(low.ok());
    EXPECT_EQ(low.error().code, code);
    EXPECT_NE(low.error().field.find(field_part), std::string::npos) << low.error().describe();
    test::expect_no_file_position(low.error());
  };
  Scene s = base;
  s.meshes[0].primitives[0].positions[0].x = std::numeric_limits<float>::quiet_NaN();
  expect_error(s, ErrorCode::bad_value, "positions");
  s = base;
  s.meshes[0].primitives[0].joints[0] = 7;
  expect_error(s, ErrorCode::bad_value, "joints");
  s = base;
  s.meshes[0].primitives[0].normals.pop_back();
  expect_error(s, ErrorCode::bad_value, "normals");
  s = base;
  s.meshes[0].primitives[0].indices = {0, 0, 1};  // draws nothing: removing a reference is refused
  expect_error(s, ErrorCode::unsupported, "primitives[0]");
  s = base;
  s.meshes[0].primitives[0].indices.push_back(99);
  expect_error(s, ErrorCode::bad_value, "indices");
  s = base;
  s.meshes[0].primitives.clear();
  expect_error(s, ErrorCode::unsupported, "meshes[0]");
  s = base;
  s.meshes[0].primitives[0].weights[1] = -1.0f;
  expect_error(s, ErrorCode::bad_value, "weights");
  s = base;
  s.materials[0].name = std::string(80, 'x');
  expect_error(s, ErrorCode::unsupported, "name");
}

}  // namespace
}  // namespace remodel
