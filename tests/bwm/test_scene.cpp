// BWM lifted into a Scene, on the golden files (no public BWM sample exists): fuzz/corpus/bwm and
// tests/bwm_golden.hpp.
#include <gtest/gtest.h>

#include <filesystem>

#include "bwm_golden.hpp"
#include "model/document.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"
#include "scene_checks.hpp"

namespace remodel {
namespace {

using scene::Scene;

using golden::bwm_goldens;

Scene lift_ok(const Bytes& bytes) {
  Result<Document> doc = read_document(bytes);
  EXPECT_TRUE(doc.ok());
  if (!doc.ok()) return {};
  Result<Scene> s = scene::lift(*doc);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().describe());
  return s.ok() ? std::move(*s) : Scene{};
}

// document_info's count without the zero-area triangles a list may hold (the lift drops them, as
// glTF validators ask): the same definition, three different corners.
std::size_t expected_triangles(const Bwm& bwm) {
  std::size_t n = 0;
  for (const BwmMesh& m : bwm.meshes) {
    for (const BwmMaterialRef& r : m.material_refs) {
      const auto triangles = bwm_triangles(bwm, r);
      EXPECT_TRUE(triangles.ok());
      if (!triangles.ok()) continue;
      for (const auto& t : *triangles) n += t[0] != t[1] && t[1] != t[2] && t[0] != t[2];
    }
  }
  return n;
}

const scene::Node* node_named(const Scene& s, const std::string& name) {
  for (const scene::Node& n : s.nodes) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

TEST(SceneBwm, GoldenFilesLiftWellFormed) {
  for (const golden::BwmGolden& g : bwm_goldens()) {
    SCOPED_TRACE(g.name);
    const Scene s = lift_ok(g.bytes);
    test::expect_well_formed(s, g.name);
    EXPECT_LE(test::max_bind_error(s), 1e-4f);
    const Result<Document> doc = read_document(g.bytes);
    const Bwm& bwm = std::get<Bwm>(*doc);
    EXPECT_EQ(test::triangle_count(s), expected_triangles(bwm));
    EXPECT_EQ(expected_triangles(bwm), document_info(*doc).triangles);  // the goldens hold no zero-area triangle
    EXPECT_EQ(s.materials.size(), bwm.materials.size());
    EXPECT_TRUE(s.textures.empty());  // texture names only: no image files come with a BWM
    std::size_t drawn_refs = 0;
    for (const scene::Mesh& m : s.meshes) drawn_refs += m.primitives.size();
    std::size_t refs_with_triangles = 0;
    for (const BwmMesh& m : bwm.meshes) {
      for (const BwmMaterialRef& r : m.material_refs) refs_with_triangles += !bwm_triangles(bwm, r)->empty();
    }
    EXPECT_EQ(drawn_refs, refs_with_triangles);
  }
}

// The corpus files are the same goldens, written to disk by make_seeds.
TEST(SceneBwm, CorpusFilesLift) {
  const std::filesystem::path dir = std::filesystem::path(REMODEL_CORPUS) / "bwm";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no corpus in " << dir;
  std::size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const Scene s = lift_ok(test::load_file(entry.path()));
    test::expect_well_formed(s, entry.path().string());
    ++n;
  }
  EXPECT_GE(n, 3u);
}

// D3D's left-handed Y-up becomes glTF's right-handed Y-up: z negated, windings reversed, so each
// triangle still winds counter-clockwise around its (mirrored) normal.
TEST(SceneBwm, HandednessIsConverted) {
  const Scene s = lift_ok(golden::bwm_v5_model());
  ASSERT_EQ(s.meshes.size(), 1u);
  const scene::Primitive& p = s.meshes[0].primitives.at(0);
  ASSERT_EQ(p.positions.size(), 3u);
  EXPECT_EQ(p.positions[1], (scene::Vec3{1, 0, 0}));
  EXPECT_EQ(p.normals[0], (scene::Vec3{0, 0, -1}));  // stored (0, 0, 1)
  EXPECT_EQ(p.indices, (std::vector<std::uint32_t>{0, 2, 1}));  // stored 0 1 2
  const scene::Vec3 face = scene::cross(p.positions[p.indices[1]] - p.positions[p.indices[0]],
                                        p.positions[p.indices[2]] - p.positions[p.indices[0]]);
  EXPECT_GT(scene::dot(face, p.normals[0]), 0.0f);
  EXPECT_EQ(p.uvs.size(), 1u);
  EXPECT_EQ(p.uvs[0][2], (scene::Vec2{0, 1}));  // D3D's UV origin is glTF's: kept as stored
  EXPECT_EQ(s.materials[0].name, "wood.tga");
  EXPECT_EQ(s.materials[0].extras.at("type"), "BUILDING");
  EXPECT_EQ(s.extras.at("format"), "bwm");
}

TEST(SceneBwm, LodsEntitiesAndEmptyReferences) {
  const Scene s = lift_ok(golden::bwm_v6_model());
  ASSERT_EQ(s.scenes.size(), 2u);
  EXPECT_EQ(s.scenes[0].name, "lod0");
  EXPECT_EQ(s.scenes[1].name, "lod1");
  const scene::Node* lod0 = node_named(s, "lod0");
  const scene::Node* lod1 = node_named(s, "lod1");
  const scene::Node* door = node_named(s, "Door");
  ASSERT_TRUE(lod0 && lod1 && door);
  EXPECT_TRUE(lod0->visible);
  EXPECT_FALSE(lod1->visible);
  const auto in = [&](const scene::SceneRoots& r, const scene::Node* n) {
    return std::find(r.nodes.begin(), r.nodes.end(), static_cast<int>(n - s.nodes.data())) != r.nodes.end();
  };
  EXPECT_TRUE(in(s.scenes[0], lod0) && !in(s.scenes[0], lod1) && in(s.scenes[0], door));
  EXPECT_TRUE(in(s.scenes[1], lod1) && !in(s.scenes[1], lod0) && in(s.scenes[1], door));
  EXPECT_EQ(door->local.translation, (scene::Vec3{0.5f, 0, -0.5f}));  // stored (0.5, 0, 0.5)
  // lod1's third reference draws no index: no primitive, but the reference stays in the mesh's extras.
  const scene::Mesh& m1 = s.meshes[static_cast<std::size_t>(lod1->mesh)];
  EXPECT_EQ(m1.primitives.size(), 2u);
  EXPECT_EQ(m1.extras.at("material_refs").size(), 3u);
  EXPECT_EQ(m1.extras.at("lod_level"), 2);
  // Two UV sets (texture and lightmap) on every primitive.
  for (const scene::Primitive& p : m1.primitives) EXPECT_EQ(p.uvs.size(), 2u);
  EXPECT_EQ(s.extras.at("cleave_points").size(), 2u);
  EXPECT_EQ(s.extras.at("strides")[0].at("tail").get<std::string>().substr(0, 2), "cd");
}

TEST(SceneBwm, SkinBonesAndWeights) {
  const Scene s = lift_ok(golden::bwm_skin());
  ASSERT_EQ(s.skins.size(), 1u);
  ASSERT_EQ(s.skins[0].joints.size(), 2u);
  // Flat joints under one identity root (glTF wants a common root).
  ASSERT_GE(s.skins[0].skeleton, 0);
  EXPECT_EQ(s.nodes[static_cast<std::size_t>(s.skins[0].skeleton)].local, scene::Trs{});
  for (int j : s.skins[0].joints) EXPECT_EQ(s.nodes[static_cast<std::size_t>(j)].parent, s.skins[0].skeleton);
  EXPECT_EQ(s.nodes[static_cast<std::size_t>(s.skins[0].joints[1])].local.translation, (scene::Vec3{0, 1, 0}));
  const scene::Primitive& p = s.meshes.at(0).primitives.at(0);
  EXPECT_EQ(p.influences, 4u);
  EXPECT_EQ(p.indices.size(), 6u);  // a strip of 4: two triangles
  // Vertex 3 (upper right) leans 0.75 on bone 1, 0.25 on bone 0.
  EXPECT_EQ(p.joints[3 * 4 + 0], 0);
  EXPECT_EQ(p.joints[3 * 4 + 1], 1);
  EXPECT_FLOAT_EQ(p.weights[3 * 4 + 0], 0.25f);
  EXPECT_FLOAT_EQ(p.weights[3 * 4 + 1], 0.75f);
  const scene::Node* body = node_named(s, "body");
  ASSERT_TRUE(body);
  EXPECT_EQ(body->skin, 0);
}

TEST(SceneBwm, BadReferencesAreErrors) {
  Bwm bwm = std::get<Bwm>(*read_document(golden::bwm_skin()));
  Bwm bad = bwm;
  bad.meshes[0].material_refs[0].material = 9;
  Result<Scene> s = scene::lift(Document{bad});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().field, "material_refs[0].material");
  bad = bwm;
  bad.strides[2].vertices[0] = 7;  // bone index slot 1 of vertex 0 (weight 0.25) names bone 7 of 2
  s = scene::lift(Document{bad});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("bone 7"), std::string::npos) << s.error().message;
  bad = bwm;
  bad.bones[0].xaxis = {0, 0, 0};
  bad.bones[0].yaxis = {0, 0, 0};
  s = scene::lift(Document{bad});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().field, "bones[0]");
}

// References that all draw the same indices lift each one's vertices: bounded at 8 times the file's.
TEST(SceneBwm, OverlappingReferencesAreBounded) {
  Bwm bwm = std::get<Bwm>(*read_document(golden::bwm_v5_model()));
  bwm.meshes[0].material_refs.resize(14000, bwm.meshes[0].material_refs[0]);
  Result<Scene> s = scene::lift(Document{bwm});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::unsupported);
  bwm.meshes[0].material_refs.resize(1000);
  s = scene::lift(Document{bwm});
  ASSERT_TRUE(s.ok()) << s.error().describe();
  EXPECT_EQ(test::triangle_count(*s), 1000u);
}

}  // namespace
}  // namespace remodel
