// BWM meshes added and removed through the lower over a base, on the golden files (tests/bwm_golden.hpp):
// a removed mesh takes its record, references, index runs and the vertices only it drew; an added one
// becomes a record after the base's, over new vertices in the base's strides; nothing else changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bwm_golden.hpp"
#include "bwm/lower_checks.hpp"
#include "error_checks.hpp"

namespace remodel {
namespace {

using namespace bwm_lower_test;

// The node drawing mesh `m` of `s`.
scene::Node& node_drawing(Scene& s, int m) {
  const auto it = std::find_if(s.nodes.begin(), s.nodes.end(), [&](const scene::Node& n) { return n.mesh == m; });
  EXPECT_NE(it, s.nodes.end());
  return *it;
}

// `s` with mesh 0 drawn again by a new node as mesh "annex", moved 2 along x (a new mesh: no extras).
Scene with_annex(const Scene& lifted) {
  Scene s = lifted;
  scene::Mesh annex = s.meshes[0];
  annex.name = "annex";
  annex.extras = nullptr;
  for (scene::Primitive& p : annex.primitives) {
    p.extras = nullptr;
    for (scene::Vec3& q : p.positions) q.x += 2.0f;
  }
  s.meshes.push_back(annex);
  scene::Node node;
  node.name = "annex";
  node.mesh = static_cast<int>(s.meshes.size()) - 1;
  node.skin = s.skins.empty() ? -1 : 0;
  s.add_node(std::move(node));
  return s;
}

// Every golden with a mesh added: a record after the base's, named and drawing as given, over new
// vertices after the base's (whose bytes stay) in the base's strides; every base mesh draws as before;
// the diff names only the new record, its references, the indices, the vertices and the header's
// extent; and lowering the golden's own Scene over the output removes it again, giving the golden back.
TEST(LowerBwmMeshes, AddedMeshBecomesARecordAfterTheBase) {
  for (const golden::BwmGolden& g : golden::bwm_goldens()) {
    SCOPED_TRACE(g.name);
    const Document doc = read_ok(g.bytes);
    const Bwm& base = std::get<Bwm>(doc);
    const Scene lifted = lift_ok(doc);
    const Scene s = with_annex(lifted);
    const std::optional<Output> out = lower_clean(s, doc);
    ASSERT_TRUE(out);
    const auto& [out_bytes, written, back] = *out;
    const Bwm& bwm = std::get<Bwm>(written);
    ASSERT_EQ(bwm.meshes.size(), base.meshes.size() + 1);
    const BwmMesh& annex = bwm.meshes.back();
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(annex.name.data())), "annex");
    EXPECT_EQ(annex.vertex_offset, bwm_vertex_count(base));
    EXPECT_EQ(annex.vertex_offset + annex.vertex_size, bwm_vertex_count(bwm));
    ASSERT_EQ(annex.material_refs.size(), s.meshes.back().primitives.size());
    std::size_t vertices = 0;
    for (std::size_t r = 0; r < annex.material_refs.size(); ++r) {
      EXPECT_EQ(annex.material_refs[r].material, static_cast<std::uint32_t>(s.meshes.back().primitives[r].material));
      vertices += annex.material_refs[r].vertex_size;
    }
    EXPECT_EQ(bwm_vertex_count(bwm), bwm_vertex_count(base) + vertices);
    EXPECT_EQ(annex.lod_level, 1u);
    // The new mesh shows with its vertices, triangles and materials; the base's as before.
    const auto found = std::find_if(back.meshes.begin(), back.meshes.end(), [](const scene::Mesh& m) { return m.name == "annex"; });
    ASSERT_NE(found, back.meshes.end());
    ASSERT_EQ(found->primitives.size(), s.meshes.back().primitives.size());
    for (std::size_t p = 0; p < found->primitives.size(); ++p) {
      EXPECT_EQ(test::primitive_surface(found->primitives[p]), test::primitive_surface(s.meshes.back().primitives[p]));
      EXPECT_EQ(found->primitives[p].material, s.meshes.back().primitives[p].material);
      EXPECT_EQ(found->primitives[p].influences, s.meshes.back().primitives[p].influences);
    }
    for (std::size_t m = 0; m < lifted.meshes.size(); ++m) expect_drawn_as_before(back, lifted, m);
    for (std::size_t k = 0; k < base.strides.size(); ++k) {
      EXPECT_TRUE(std::equal(base.strides[k].vertices.begin(), base.strides[k].vertices.end(), bwm.strides[k].vertices.begin())) << "stride " << k;
    }
    EXPECT_TRUE(std::equal(base.indices.begin(), base.indices.end(), bwm.indices.begin()));
    const std::string added = "meshes[" + std::to_string(base.meshes.size()) + "]";
    expect_diff_within(doc, written, with_extents({added, "indices[", "vertex_count", "strides["}, {""}));
    // The golden's own Scene over the output: the annex goes again, and the golden's bytes are back.
    // But v5's: its mesh's stored range claims 4 vertices of the 3, so the annex's first lies in that
    // range, and a vertex a range left spans stays.
    Result<Bytes> again = lower_write(lifted, written);
    ASSERT_TRUE(again.ok()) << again.error().describe();
    EXPECT_EQ(*again == g.bytes, std::string(g.name) != "v5-model");
    EXPECT_EQ(bwm_vertex_count(std::get<Bwm>(read_ok(*again))), bwm_vertex_count(base) + (std::string(g.name) == "v5-model" ? 1 : 0));
  }
}

// The v6 golden without its LOD-0 mesh (its node draws nothing now): the record and its references
// go; the roof's indices (6-11), which only it drew, leave the array; the first run (0-5) stays for
// the LOD-1 mesh, which draws it, as do the four vertices; the LOD-1 mesh draws as before.
TEST(LowerBwmMeshes, RemovedMeshTakesWhatOnlyItDrew) {
  const Document doc = read_ok(golden::bwm_v6_model());
  const Bwm& base = std::get<Bwm>(doc);
  const Scene lifted = lift_ok(doc);
  Scene s = lifted;
  node_drawing(s, 0).mesh = -1;
  const std::optional<Output> out = lower_clean(s, doc);
  ASSERT_TRUE(out);
  const auto& [out_bytes, written, back] = *out;
  const Bwm& bwm = std::get<Bwm>(written);
  ASSERT_EQ(bwm.meshes.size(), 1u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bwm.meshes[0].name.data())), "lod1");
  EXPECT_EQ(bwm.indices, std::vector<std::uint16_t>(base.indices.begin(), base.indices.begin() + 6));
  EXPECT_EQ(bwm_vertex_count(bwm), bwm_vertex_count(base));
  EXPECT_EQ(bwm.strides[0].vertices, base.strides[0].vertices);
  ASSERT_EQ(back.meshes.size(), 1u);
  for (std::size_t q = 0; q < lifted.meshes[1].primitives.size(); ++q) {
    EXPECT_EQ(test::primitive_surface(back.meshes[0].primitives[q]), test::primitive_surface(lifted.meshes[1].primitives[q]));
  }
  expect_diff_within(doc, written, with_extents({"meshes", "indices"}, {""}));
}

// A mesh with vertices and indices of its own (meshes_apart: LOD 1 draws vertices 4-7 through indices
// 12-17) removed by dropping its mesh from the Scene: its vertices and indices leave, and the output
// is, byte for byte, the v6 golden without that mesh (its extents did not move).
TEST(LowerBwmMeshes, RemovedMeshTakesItsOwnVertices) {
  const Document doc = meshes_apart();
  Scene s = lift_ok(doc);
  node_drawing(s, 1).mesh = -1;
  const std::optional<Output> out = lower_clean(s, doc);
  ASSERT_TRUE(out);
  Bwm expected = std::get<Bwm>(read_ok(golden::bwm_v6_model()));
  expected.meshes.pop_back();
  Result<Bytes> expected_bytes = write_document(Document{expected});
  ASSERT_TRUE(expected_bytes.ok());
  EXPECT_TRUE(out->bytes == *expected_bytes);
  EXPECT_EQ(bwm_vertex_count(std::get<Bwm>(out->written)), 4u);
}

// A removed mesh's node, left in the Scene without its mesh and without extras, is not taken for an
// entity: with the entity renamed (so matched by order) the one entity still meets the one base entity.
TEST(LowerBwmMeshes, RemovedMeshsNodeIsNotAnEntity) {
  const Document doc = read_ok(golden::bwm_v6_model());
  Scene s = lift_ok(doc);
  node_drawing(s, 1).mesh = -1;
  for (scene::Node& n : s.nodes) {
    if (n.extras.is_object() && n.extras.contains("entity")) n.name = "torch";
    n.extras = nullptr;
  }
  std::vector<Warning> warnings;
  Result<Bytes> out = lower_write(s, doc, &warnings);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  const Document written = read_ok(*out);
  const Bwm& bwm = std::get<Bwm>(written);
  EXPECT_EQ(bwm.meshes.size(), 1u);
  ASSERT_EQ(bwm.entities.size(), 1u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bwm.entities[0].name.data())), "torch");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].where, "nodes");
}

// Refused, naming why: the only mesh removed; a new mesh drawing a material none of the base's stands
// for; the counts differing with no base mesh's name left; a node drawing a mesh that does not exist.
TEST(LowerBwmMeshes, WhatCannotBeAddedOrRemovedIsAClearError) {
  const auto expect_error = [](const Scene& s, const Document& doc, const std::string& field, const std::string& words) {
    Result<scene::Lowered> low = scene::lower(s, doc);
    ASSERT_FALSE(low.ok());
    EXPECT_EQ(low.error().field, field) << low.error().describe();
    EXPECT_NE(low.error().message.find(words), std::string::npos) << low.error().describe();
    test::expect_no_file_position(low.error());
  };
  const Document skin = read_ok(golden::bwm_skin());
  Scene s = lift_ok(skin);
  node_drawing(s, 0).mesh = -1;
  expect_error(s, skin, "meshes", "a BWM needs at least one");
  const Document v6 = read_ok(golden::bwm_v6_model());
  const Scene six = lift_ok(v6);
  s = with_annex(six);
  s.meshes.back().primitives[0].material = -1;
  expect_error(s, v6, "meshes[2].primitives[0].material", "has no material");
  s = with_annex(six);
  for (scene::Mesh& m : s.meshes) m.name += "!";
  expect_error(s, v6, "meshes", "cannot be told");
  s = six;
  node_drawing(s, 0).mesh = 7;
  expect_error(s, v6, "nodes[" + std::to_string(&node_drawing(s, 7) - s.nodes.data()) + "].mesh", "does not exist");
}

}  // namespace
}  // namespace remodel
