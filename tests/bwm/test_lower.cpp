// BWM lowered over its base, on the golden files (no public BWM sample exists; tests/bwm_golden.hpp):
// unedited Scenes give the original bytes; each edit changes only what it reaches; hostile Scenes fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "bwm_golden.hpp"
#include "bwm/lower_checks.hpp"
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
using namespace bwm_lower_test;

TEST(LowerBwm, EveryGoldenUnchangedGivesItsBytes) {
  for (const golden::BwmGolden& g : bwm_goldens()) {
    SCOPED_TRACE(g.name);
    const Document doc = read_ok(g.bytes);
    Scene s = lift_ok(doc);
    std::vector<Warning> warnings;
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
    const Scene back = reread(*out);
    const std::size_t first = p.extras["vertex_first"].get<std::size_t>();
    const Document written = read_ok(*out);
    const Bwm& bwm = std::get<Bwm>(written);
    // The z float and the v float in the strides; the extents of the meshes drawing the vertex.
    std::size_t bytes = 0;
    for (std::size_t k = 0; k < bwm.strides.size(); ++k) bytes += differing(bwm.strides[k].vertices, std::get<Bwm>(doc).strides[k].vertices).size();
    EXPECT_GE(bytes, 1u);
    EXPECT_LE(bytes, 8u);
    expect_diff_within(doc, written, with_extents({"strides["}, {"", "meshes[0].", "meshes[1]."}));
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
  // Without extras a renamed material stands for no base material (never one picked by order): it is
  // added under its name and said so; roof.tga stays, named by a reference that draws no triangle.
  for (scene::Material& m : s.materials) m.extras = nullptr;
  std::vector<Warning> warnings;
  out = lower_write(s, doc, &warnings);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  const Document renamed_doc = read_ok(*out);
  const Bwm& renamed = std::get<Bwm>(renamed_doc);
  ASSERT_EQ(renamed.materials.size(), std::get<Bwm>(doc).materials.size() + 1);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(renamed.materials.back().diffuse.data())), "renamed.tga");
  std::string said;
  for (const Warning& w : warnings) said += w.where + ": " + w.message + "\n";
  EXPECT_NE(said.find("added as material"), std::string::npos) << said;
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
  std::vector<Warning> warnings;
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
// skin), the new vertex goes after its mesh's (the file's last here), and nothing else changes: every
// base vertex keeps its bytes, every other primitive lifts as before, and the diff names only the
// reference, its mesh's counts, the vertex count, the strides' vertices, the indices and extents.
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
    const std::optional<Output> out = lower_clean(s, doc);
    ASSERT_TRUE(out);
    const auto& [out_bytes, written, back] = *out;
    const Bwm& bwm = std::get<Bwm>(written);
    // The edit shows: the primitive draws the incoming triangles; the new vertex has its values.
    EXPECT_EQ(test::primitive_surface(back.meshes[0].primitives[0]), test::primitive_surface(p));
    EXPECT_EQ(bwm_vertex_count(bwm), bwm_vertex_count(base) + 1);
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
    for (std::size_t m = 0; m < lifted.meshes.size(); ++m) expect_drawn_as_before(back, lifted, m, m == 0 ? 0 : SIZE_MAX);
    expect_diff_within(doc, written, with_extents({"meshes[0].", "indices", "vertex_count", "strides["}, {""}));
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
  s.meshes[0].primitives[0].indices = {0, 0, 1};  // draws nothing: the only mesh would go
  expect_error(s, ErrorCode::unsupported, "meshes");
  s = base;
  s.meshes[0].primitives[0].topology = scene::Topology::lines;
  expect_error(s, ErrorCode::unsupported, "mode");
  s = base;
  s.meshes[0].primitives[0].indices.push_back(99);
  expect_error(s, ErrorCode::bad_value, "indices");
  s = base;
  s.meshes[0].primitives.clear();
  expect_error(s, ErrorCode::unsupported, "meshes");
  s = base;
  s.meshes[0].primitives[0].weights[1] = -1.0f;
  expect_error(s, ErrorCode::bad_value, "weights");
  s = base;
  s.materials[0].name = std::string(80, 'x');
  expect_error(s, ErrorCode::unsupported, "name");
}

// A vertex moved past its mesh's box: the mesh's and the model's box, centre, radius, height and volume
// are those authoring computes over the drawn vertices (the golden's stored ones are not).
TEST(LowerBwm, MovedVertexRefitsTheExtents) {
  const Bytes bytes = golden::bwm_v5_model();  // vertices (0,0,0), (1,0,0), (0,1,0)
  const Document doc = read_ok(bytes);
  Scene s = lift_ok(doc);
  scene::Primitive& p = s.meshes[0].primitives[0];
  for (scene::Vec3& q : p.positions) q.x = q.x == 1.0f ? 3.0f : q.x;
  Result<Bytes> out = lower_write(s, doc);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  reread(*out);
  const Document written = read_ok(*out);
  const Bwm& bwm = std::get<Bwm>(written);
  const auto expect_extent = [](const BwmVec3& box1, const BwmVec3& box2, const BwmVec3& center, float radius, float height, float volume) {
    EXPECT_EQ(box1, (BwmVec3{0, 0, 0}));
    EXPECT_EQ(box2, (BwmVec3{3, 1, 0}));
    EXPECT_EQ(center, (BwmVec3{1.5f, 0.5f, 0}));
    EXPECT_FLOAT_EQ(radius, std::sqrt(2.5f));
    EXPECT_EQ(height, 1.0f);
    EXPECT_EQ(volume, 0.0f);
  };
  const BwmMesh& m = bwm.meshes[0];
  expect_extent(m.box1, m.box2, m.center, m.radius, m.height, m.volume);
  expect_extent(bwm.box1, bwm.box2, bwm.center, bwm.radius, bwm.height, bwm.volume);
  expect_diff_within(doc, written, with_extents({"strides["}, {"", "meshes[0]."}));
}

// The v6 golden's LOD-0 mesh without its roof reference (ref 1, indices 6-11, which no other reference
// draws): the indices leave the array, the mesh's counts follow, nothing else changes; the same
// output without extras (Blender's default), the reference told by its material, with a warning.
TEST(LowerBwm, RemovedReferenceLeavesTheIndexRun) {
  const Document doc = read_ok(golden::bwm_v6_model());
  const Scene lifted = lift_ok(doc);
  ASSERT_EQ(lifted.meshes[0].primitives.size(), 2u);
  Scene s = lifted;
  s.meshes[0].primitives.erase(s.meshes[0].primitives.begin() + 1);
  const std::optional<Output> out = lower_clean(s, doc);
  ASSERT_TRUE(out);
  const auto& [out_bytes, written, back] = *out;
  const Bwm& bwm = std::get<Bwm>(written);
  ASSERT_EQ(bwm.meshes[0].material_refs.size(), 1u);
  EXPECT_EQ(bwm.meshes[0].faces_count, 2u);
  EXPECT_EQ(bwm.meshes[0].indices_size, 6u);
  EXPECT_EQ(bwm.indices.size(), 6u);
  ASSERT_EQ(back.meshes.size(), lifted.meshes.size());
  ASSERT_EQ(back.meshes[0].primitives.size(), 1u);
  EXPECT_EQ(test::primitive_surface(back.meshes[0].primitives[0]), test::primitive_surface(lifted.meshes[0].primitives[0]));
  expect_drawn_as_before(back, lifted, 1);
  expect_diff_within(doc, written, {"meshes[0].faces_count", "meshes[0].indices_size", "meshes[0].material_refs[1]", "indices["});
  // Without extras: one primitive fewer, told by its material (roof.tga is gone).
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) p.extras = nullptr;
  }
  std::vector<Warning> warnings;
  Result<Bytes> bare = lower_write(s, doc, &warnings);
  ASSERT_TRUE(bare.ok()) << bare.error().describe();
  EXPECT_TRUE(*bare == out->bytes);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("roof.tga"), std::string::npos) << warnings[0].message;
}

// An empty reference (it draws nothing) whose offset lies inside a removed run stays inside the
// array: the LOD-1 mesh's empty third reference moved to index 9, inside the roof's 6-11.
TEST(LowerBwm, EmptyReferenceInsideARemovedRunStaysInTheArray) {
  Bwm b = std::get<Bwm>(read_ok(golden::bwm_v6_model()));
  ASSERT_EQ(b.meshes[1].material_refs[2].indices_size, 0u);
  b.meshes[1].material_refs[2].indices_offset = 9;
  Result<Bytes> bytes = write_document(Document{b});
  ASSERT_TRUE(bytes.ok());
  const Document doc = read_ok(*bytes);
  Scene s = lift_ok(doc);
  s.meshes[0].primitives.erase(s.meshes[0].primitives.begin() + 1);
  const std::optional<Output> out = lower_clean(s, doc);
  ASSERT_TRUE(out);
  const Bwm& bwm = std::get<Bwm>(out->written);
  EXPECT_EQ(bwm.indices.size(), 6u);
  EXPECT_EQ(bwm.meshes[1].material_refs[2].indices_offset, 6u);
  EXPECT_EQ(bwm.meshes[1].material_refs.size(), 3u);
}

// A primitive left with no triangle removes its reference. The v6 golden's first reference (indices
// 0-5) is drawn again by the LOD-1 mesh: its indices stay, the mesh's run now begins at the roof's.
TEST(LowerBwm, PrimitiveWithNoTriangleRemovesItsReference) {
  const Document doc = read_ok(golden::bwm_v6_model());
  const Scene lifted = lift_ok(doc);
  Scene s = lifted;
  s.meshes[0].primitives[0].indices = {0, 0, 1};
  const std::optional<Output> out = lower_clean(s, doc);
  ASSERT_TRUE(out);
  const auto& [out_bytes, written, back] = *out;
  const Bwm& bwm = std::get<Bwm>(written);
  ASSERT_EQ(bwm.meshes[0].material_refs.size(), 1u);
  EXPECT_EQ(bwm.meshes[0].indices_offset, 6u);
  EXPECT_EQ(bwm.indices, std::get<Bwm>(doc).indices);
  ASSERT_EQ(back.meshes[0].primitives.size(), 1u);
  EXPECT_EQ(test::primitive_surface(back.meshes[0].primitives[0]), test::primitive_surface(lifted.meshes[0].primitives[1]));
  EXPECT_EQ(back.meshes[0].primitives[0].material, 1);
  expect_drawn_as_before(back, lifted, 1);
  expect_diff_within(doc, written, {"meshes[0].faces_count", "meshes[0].indices_size", "meshes[0].indices_offset", "meshes[0].material_refs["});
}

// A triangle over three new vertices, added to the first mesh of every golden as a primitive naming no
// reference: a new reference of its material after the mesh's others (a strip on the skin), its
// vertices after its mesh's (the file's last here); every other primitive and base vertex as before.
TEST(LowerBwm, AddedPrimitiveBecomesAReference) {
  for (const golden::BwmGolden& g : bwm_goldens()) {
    SCOPED_TRACE(g.name);
    const Document doc = read_ok(g.bytes);
    const Bwm& base = std::get<Bwm>(doc);
    const Scene lifted = lift_ok(doc);
    scene::Primitive added = lifted.meshes[0].primitives[0];
    added.extras = nullptr;
    added.positions = {{3, 0, 0}, {4, 0, 0}, {3, 1, 0}};
    if (!added.normals.empty()) added.normals.assign(3, {0, 0, 1});
    for (auto& set : added.uvs) set.assign(3, {0.5f, 0.5f});
    added.joints.assign(3 * added.influences, 0);
    added.weights.assign(3 * added.influences, 0.0f);
    for (std::size_t v = 0; v < 3 && added.influences > 0; ++v) added.joints[v * added.influences] = 1, added.weights[v * added.influences] = 1.0f;
    added.indices = {0, 1, 2};
    added.topology = scene::Topology::triangles;
    Scene s = lifted;
    s.meshes[0].primitives.push_back(added);
    const std::optional<Output> out = lower_clean(s, doc);
    ASSERT_TRUE(out);
    const auto& [out_bytes, written, back] = *out;
    const Bwm& bwm = std::get<Bwm>(written);
    ASSERT_EQ(bwm.meshes[0].material_refs.size(), base.meshes[0].material_refs.size() + 1);
    EXPECT_EQ(bwm.meshes[0].material_refs.back().material, static_cast<std::uint32_t>(added.material));
    EXPECT_EQ(bwm_vertex_count(bwm), bwm_vertex_count(base) + 3);
    ASSERT_EQ(back.meshes[0].primitives.size(), lifted.meshes[0].primitives.size() + 1);
    EXPECT_EQ(test::primitive_surface(back.meshes[0].primitives.back()), test::primitive_surface(added));
    for (std::size_t m = 0; m < lifted.meshes.size(); ++m) expect_drawn_as_before(back, lifted, m);
    for (std::size_t k = 0; k < base.strides.size(); ++k) {
      EXPECT_TRUE(std::equal(base.strides[k].vertices.begin(), base.strides[k].vertices.end(), bwm.strides[k].vertices.begin())) << "stride " << k;
    }
    if (!base.bones.empty()) {
      EXPECT_EQ(decode_bwm_vertices(bwm)->joints.back()[0], 1);
    }
    expect_diff_within(doc, written, with_extents({"meshes[0].faces_count", "meshes[0].indices_size", "meshes[0].vertex_size", "meshes[0].material_refs[",
                                                   "indices[", "vertex_count", "strides["}, {"", "meshes[0]."}));
  }
}

// Without extras, primitives past the base's references are added (with a warning); a primitive whose
// material is none of the base's is an error naming it; fewer primitives than references with two of
// one material, none naming its reference, cannot tell which went.
TEST(LowerBwm, AddedAndRemovedWithoutExtras) {
  const Document doc = read_ok(golden::bwm_v6_model());
  const Scene lifted = lift_ok(doc);
  Scene s = lifted;
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) p.extras = nullptr;
  }
  s.meshes[0].primitives.push_back(s.meshes[0].primitives[0]);
  for (scene::Vec3& p : s.meshes[0].primitives.back().positions) p.y += 2.0f;
  std::vector<Warning> warnings;
  Result<Bytes> out = lower_write(s, doc, &warnings);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("added"), std::string::npos) << warnings[0].message;
  const Document twice = read_ok(*out);
  Scene three = reread(*out);
  ASSERT_EQ(three.meshes[0].primitives.size(), 3u);
  EXPECT_EQ(test::primitive_surface(three.meshes[0].primitives[2]), test::primitive_surface(s.meshes[0].primitives[2]));
  // Over that output, one of the two stone.tga references gone, nothing naming the others: refused.
  for (scene::Primitive& p : three.meshes[0].primitives) p.extras = nullptr;
  three.meshes[0].primitives.erase(three.meshes[0].primitives.begin());
  Result<scene::Lowered> low = scene::lower(three, twice);
  ASSERT_FALSE(low.ok());
  EXPECT_EQ(low.error().code, ErrorCode::unsupported);
  EXPECT_NE(low.error().field.find("meshes[0]"), std::string::npos);
  EXPECT_NE(low.error().message.find("cannot be told"), std::string::npos) << low.error().describe();
  test::expect_no_file_position(low.error());
  // A new primitive without a material: none of the base's.
  s = lifted;
  s.meshes[0].primitives.push_back(s.meshes[0].primitives[0]);
  s.meshes[0].primitives.back().extras = nullptr;
  s.meshes[0].primitives.back().material = -1;
  low = scene::lower(s, doc);
  ASSERT_FALSE(low.ok());
  EXPECT_EQ(low.error().code, ErrorCode::unsupported);
  EXPECT_NE(low.error().field.find("primitives[2].material"), std::string::npos) << low.error().describe();
}

// A new vertex of the first mesh goes right after that mesh's vertices, not after the file's: the
// later mesh's vertices, its indices and vertex ranges move on by one, and it draws as before.
TEST(LowerBwm, NewVertexStaysInItsMeshsRange) {
  const Document doc = meshes_apart();
  const Bwm& base = std::get<Bwm>(doc);
  const Scene lifted = lift_ok(doc);
  Scene s = lifted;
  scene::Primitive& p = s.meshes[0].primitives[0];
  const auto n = static_cast<std::uint32_t>(p.vertex_count());
  p.positions.push_back({2.0f, 3.0f, -0.5f});
  p.normals.push_back({0, 0, 1});
  for (auto& set : p.uvs) set.push_back({0.25f, 0.75f});
  p.indices.insert(p.indices.end(), {p.indices[0], n, p.indices[1]});
  Result<Bytes> out = lower_write(s, doc);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  const Scene back = reread(*out);
  const Document written = read_ok(*out);
  const Bwm& bwm = std::get<Bwm>(written);
  EXPECT_EQ(bwm_vertex_count(bwm), 9u);
  EXPECT_EQ(decode_bwm_vertices(bwm)->positions[4], (BwmVec3{2.0f, 3.0f, 0.5f}));
  EXPECT_EQ(bwm.meshes[0].vertex_offset, 0u);
  EXPECT_EQ(bwm.meshes[0].vertex_size, 5u);
  EXPECT_EQ(bwm.meshes[1].vertex_offset, 5u);
  EXPECT_EQ(bwm.meshes[1].vertex_size, 4u);
  for (const BwmMaterialRef& r : bwm.meshes[1].material_refs) EXPECT_EQ(r.vertex_offset, 5u);
  EXPECT_EQ(test::primitive_surface(back.meshes[0].primitives[0]), test::primitive_surface(p));
  for (std::size_t q = 0; q < lifted.meshes[1].primitives.size(); ++q) {
    EXPECT_EQ(test::primitive_surface(back.meshes[1].primitives[q]), test::primitive_surface(lifted.meshes[1].primitives[q]));
  }
  EXPECT_EQ(test::primitive_surface(back.meshes[0].primitives[1]), test::primitive_surface(lifted.meshes[0].primitives[1]));
  // Every base vertex's bytes, moved or not.
  const BwmStride& before = base.strides[0];
  const BwmStride& after = bwm.strides[0];
  const std::size_t size = before.size();
  EXPECT_TRUE(std::equal(before.vertices.begin(), before.vertices.begin() + 4 * size, after.vertices.begin()));
  EXPECT_TRUE(std::equal(before.vertices.begin() + 4 * size, before.vertices.end(), after.vertices.begin() + 5 * size));
  expect_diff_within(doc, written, with_extents({"meshes[0].", "meshes[1].vertex_offset", "meshes[1].indices_offset", "meshes[1].material_refs[", "indices[",
                                                 "vertex_count", "strides["}, {""}));
}

}  // namespace
}  // namespace remodel
