// The glTF reader: every export read back gives the lifted Scene (as the writer carries it), every
// real glTF in ../shared/samples/gltf reads, every file in gltf/invalid is an error naming its
// location, and hand-broken files (escaping URIs, cycles, counts past the bytes) are clear errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>

#include "export_samples.hpp"
#include "error_checks.hpp"
#include "gltf/gltf.hpp"
#include "samples.hpp"
#include "families.hpp"
#include "scene/demo.hpp"
#include "scene_compare.hpp"

namespace remodel {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

// A loader over the resources write_gltf made, as a directory would serve them.
gltf::ResourceLoader memory(const std::vector<gltf::Resource>& resources) {
  return [&resources](const std::string& uri) -> Result<Bytes> {
    for (const gltf::Resource& r : resources) {
      if (r.uri == uri) return r.data;
    }
    return Error{ErrorCode::io, 0, uri, "no such file"};
  };
}

void expect_round_trip(const scene::Scene& lifted, const std::string& what) {
  const scene::Scene expected = test::as_exported(lifted);
  auto glb = gltf::write_glb(lifted);
  ASSERT_TRUE(glb.ok()) << what << ": " << glb.error().describe();
  auto read = gltf::read_gltf(*glb);
  ASSERT_TRUE(read.ok()) << what << " .glb: " << read.error().describe();
  EXPECT_TRUE(test::same_scene(expected, read->scene)) << what << " .glb";
  EXPECT_TRUE(read->warnings.empty()) << what << ": " << read->warnings[0].where << " " << read->warnings[0].message;
  auto files = gltf::write_gltf(lifted, "model");
  ASSERT_TRUE(files.ok()) << what << ": " << files.error().describe();
  auto from_gltf = gltf::read_gltf(files->gltf, memory(files->resources));
  ASSERT_TRUE(from_gltf.ok()) << what << " .gltf: " << from_gltf.error().describe();
  EXPECT_TRUE(test::same_scene(expected, from_gltf->scene)) << what << " .gltf";
}

TEST(GltfReader, DemoGridReadsBackAsLifted) {
  expect_round_trip(scene::demo_grid(4, 3), "demo_grid");
}

TEST(GltfReader, SceneComparisonSeesEveryKindOfChange) {
  const scene::Scene s = test::as_exported(scene::demo_grid(2, 2));
  EXPECT_TRUE(test::same_scene(s, s));
  scene::Scene moved = s;
  moved.meshes[0].primitives[0].positions[3].y = std::nextafter(moved.meshes[0].primitives[0].positions[3].y, 2.0f);
  EXPECT_FALSE(test::same_scene(s, moved));
  scene::Scene renamed = s;
  renamed.nodes[1].name += "x";
  EXPECT_FALSE(test::same_scene(s, renamed));
  scene::Scene extras = s;
  extras.materials[0].extras = {{"a", 1}};
  EXPECT_FALSE(test::same_scene(s, extras));
}

// One test per family, lift -> write -> read, from .glb and from .gltf.
class GltfReaderSamples : public ::testing::TestWithParam<const char*> {};

TEST_P(GltfReaderSamples, ExportReadsBackAsLifted) {
  const std::string family = std::string(GetParam()) + "/";
  std::size_t tested = 0;
  for (const test::ExportSample& s : test::kExportSamples) {
    if (std::string(s.file).rfind(family, 0) != 0) continue;
    if (!fs::exists(test::sample_path(s))) {
      if (s.corpus || test::samples_required()) ADD_FAILURE() << test::sample_path(s) << " is missing";
      continue;
    }
    auto lifted = test::lift_sample(s);
    ASSERT_TRUE(lifted->scene.ok()) << s.file << ": " << lifted->scene.error().describe();
    expect_round_trip(*lifted->scene, std::string(s.file) + (s.anims.empty() ? "" : " + " + std::string(s.anims[0])));
    ++tested;
  }
  if (tested == 0) GTEST_SKIP() << "no " << family << " samples in " << test::samples_root();
}

INSTANTIATE_TEST_SUITE_P(Families, GltfReaderSamples, ::testing::ValuesIn(test::family_names()),
                         [](const auto& info) { return test::identifier(info.param); });

bool is_gltf(const fs::path& p) { return p.extension() == ".glb" || p.extension() == ".gltf"; }

TEST(GltfReader, EveryRealGltfSampleReads) {
  REMODEL_SAMPLES_OR_SKIP(files, "gltf");
  std::size_t read = 0;
  for (const fs::path& f : files) {
    if (!is_gltf(f) || f.parent_path().filename() == "invalid") continue;
    auto r = gltf::read_gltf_file(f);
    ASSERT_TRUE(r.ok()) << f << ": " << r.error().describe();
    EXPECT_FALSE(r->scene.nodes.empty()) << f;
    ++read;
    // What the reader read, the writer writes and the reader reads again unchanged.
    auto glb = gltf::write_glb(r->scene);
    ASSERT_TRUE(glb.ok()) << f << ": " << glb.error().describe();
    auto again = gltf::read_gltf(*glb);
    ASSERT_TRUE(again.ok()) << f << ": " << again.error().describe();
    EXPECT_TRUE(test::same_scene(test::as_exported(r->scene), again->scene)) << f;
  }
  EXPECT_GE(read, 30u);
}

TEST(GltfReader, SamplesReadWhatTheyExercise) {
  REMODEL_SAMPLES_OR_SKIP(files, "gltf");
  const fs::path root = test::samples_root() / "gltf";
  auto modes = gltf::read_gltf_file(root / "MeshPrimitiveModes/MeshPrimitiveModes.gltf");
  ASSERT_TRUE(modes.ok()) << modes.error().describe();
  std::vector<scene::Topology> topologies;
  for (const scene::Mesh& m : modes->scene.meshes) topologies.push_back(m.primitives[0].topology);
  EXPECT_EQ(std::count(topologies.begin(), topologies.end(), scene::Topology::lines), 3);
  EXPECT_EQ(std::count(topologies.begin(), topologies.end(), scene::Topology::triangle_fan), 1);
  EXPECT_EQ(std::count(topologies.begin(), topologies.end(), scene::Topology::points), 1);

  auto quad = gltf::read_gltf_file(root / "quad_skin_assimp.glb");
  ASSERT_TRUE(quad.ok()) << quad.error().describe();
  EXPECT_EQ(quad->scene.meshes[0].primitives[0].influences, 12u);

  auto cs = gltf::read_gltf_file(root / "blender_01_cs_rotate/01_cs_rotate.gltf");
  ASSERT_TRUE(cs.ok()) << cs.error().describe();
  ASSERT_FALSE(cs->scene.animations.empty());
  const scene::Channel& c = cs->scene.animations[0].channels[0];
  EXPECT_EQ(c.interpolation, scene::Interpolation::cubic_spline);
  EXPECT_EQ(c.values.size(), c.times.size() * 3 * (c.path == scene::Path::rotation ? 4 : 3));

  auto cesium = gltf::read_gltf_file(root / "CesiumMan.glb");  // an embedded JPEG
  ASSERT_TRUE(cesium.ok()) << cesium.error().describe();
  ASSERT_EQ(cesium->scene.textures.size(), 1u);
  EXPECT_GT(cesium->scene.textures[0].image.width, 0u);

  auto sparse = gltf::read_gltf_file(root / "SimpleSparseAccessor/SimpleSparseAccessor.gltf");
  ASSERT_TRUE(sparse.ok()) << sparse.error().describe();
  const auto& positions = sparse->scene.meshes[0].primitives[0].positions;
  EXPECT_TRUE(std::any_of(positions.begin(), positions.end(), [](const scene::Vec3& v) { return v.y > 3.0f; }));  // substituted

  auto morph = gltf::read_gltf_file(root / "AnimatedMorphCube.glb");
  ASSERT_TRUE(morph.ok()) << morph.error().describe();
  EXPECT_FALSE(morph->warnings.empty());  // morph targets and weights channels are left out, said so
}

TEST(GltfReader, EveryInvalidSampleIsAClearError) {
  REMODEL_SAMPLES_OR_SKIP(files, "gltf/invalid");
  // The field each error names (a prefix), where one location is the cause.
  const std::map<std::string, std::string> expected = {
      {"accessor__invalid_sparse_count_and_stride.gltf", "buffers[0]"},  // its buffer has no data at all
      {"accessor__unresolved_bufferviews.gltf", "accessors[0].bufferView"},
      {"accessor_data__out_of_range_elements_uint16.gltf", "accessors[0].m"},
      {"animation__sampler_output_count_invalid.gltf", "animations[0].samplers[0].output"},
      {"animation__unresolved_channel_target.gltf", "animations[0].channels[0].target.node"},
      {"asset__1_0_version.gltf", "asset.version"},
      {"buffer__not_found.gltf", "buffers[0].uri"},
      {"buffer__wrong_bytelength.glb", "buffers[0].byteLength"},
      {"buffer_view__invalid_length.gltf", "bufferViews[0].byteLength"},
      {"glb__invalid_magic.glb", "json"},
      {"glb__truncated_chunk_data.glb", "glb.length"},
      {"image__not_found.gltf", "images[0].uri"},
      {"json__invalid_syntax.gltf", "json"},
      {"mesh__accessor_unequal_count.gltf", "meshes[0].primitives[0].attributes.COLOR_0"},
      {"mesh__unresolved_indices.gltf", "meshes[0].primitives[0].indices"},
      {"mesh_data__index_buffer_oob.gltf", "meshes[0].primitives[0].indices"},
      {"mesh_data__joints_weights_complex.gltf", "meshes[0].primitives[0].attributes.WEIGHTS_1"},
      {"node__node_loop.gltf", "nodes[0].children"},
      {"skin__ibm_invalid_count.gltf", "skins[0].inverseBindMatrices"},
      {"skin__unresolved_joint.gltf", "skins[0].joints[0]"},
  };
  std::size_t checked = 0;
  for (const fs::path& f : files) {
    if (!is_gltf(f)) continue;
    auto r = gltf::read_gltf_file(f);
    ASSERT_FALSE(r.ok()) << f << " read without an error";
    const Error& e = r.error();
    EXPECT_FALSE(e.message.empty()) << f;
    const auto want = expected.find(f.filename().string());
    ASSERT_NE(want, expected.end()) << f << " is not in the table; its error: " << e.describe();
    EXPECT_EQ(e.field.rfind(want->second, 0), 0u) << f << ": " << e.describe();
    ++checked;
  }
  EXPECT_EQ(checked, expected.size());
}

// The demo exported as .gltf, its JSON edited by `edit`, read with its resources: the error field.
std::string error_after(const std::function<void(json&)>& edit) {
  auto files = gltf::write_gltf(scene::demo_grid(3, 3), "demo");
  EXPECT_TRUE(files.ok());
  json doc = json::parse(files->gltf.begin(), files->gltf.end());
  edit(doc);
  const std::string text = doc.dump();
  auto r = gltf::read_gltf(ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), memory(files->resources));
  if (r.ok()) return "(read without error)";
  EXPECT_FALSE(r.error().message.empty());
  test::expect_no_file_position(r.error());
  return r.error().field;
}

TEST(GltfReader, HostileDocumentsAreErrorsNamingTheLocation) {
  EXPECT_EQ(error_after([](json&) {}), "(read without error)");
  EXPECT_EQ(error_after([](json& d) { d["buffers"][0]["uri"] = "../demo.bin"; }), "buffers[0].uri");
  EXPECT_EQ(error_after([](json& d) { d["buffers"][0]["uri"] = "/etc/passwd"; }), "buffers[0].uri");
  EXPECT_EQ(error_after([](json& d) { d["buffers"][0]["uri"] = "sub/%2e%2e/%2e%2e/demo.bin"; }), "buffers[0].uri");
  EXPECT_EQ(error_after([](json& d) { d["buffers"][0]["uri"] = "file:///etc/passwd"; }), "buffers[0].uri");
  EXPECT_EQ(error_after([](json& d) { d["images"][0]["uri"] = "C:\\x.png"; }), "images[0].uri");
  EXPECT_EQ(error_after([](json& d) { d["accessors"][0]["count"] = 1u << 30; }), "accessors[0].count");
  EXPECT_EQ(error_after([](json& d) { d["accessors"][0].erase("bufferView"); d["accessors"][0].erase("min"); d["accessors"][0].erase("max");
                                      d["accessors"][0]["count"] = 4000000000u; }), "accessors[0].count");
  EXPECT_EQ(error_after([](json& d) { d["bufferViews"][0]["byteOffset"] = std::uint64_t{1} << 62; }), "bufferViews[0].byteLength");
  EXPECT_EQ(error_after([](json& d) { d["nodes"][0]["children"].push_back(0); }), "nodes[0].children");
  EXPECT_EQ(error_after([](json& d) { d["nodes"][1]["children"] = {0}; }), "nodes[0].children");
  EXPECT_EQ(error_after([](json& d) { d["skins"][0]["joints"][0] = 99; }), "skins[0].joints[0]");
  EXPECT_EQ(error_after([](json& d) { d["skins"][0]["joints"].push_back(d["skins"][0]["joints"][0]); }), "skins[0].joints[2]");
  EXPECT_EQ(error_after([](json& d) { d["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] = 77; }),
            "meshes[0].primitives[0].attributes.JOINTS_0");
  EXPECT_EQ(error_after([](json& d) { d["meshes"][0]["primitives"][0]["attributes"].erase("WEIGHTS_0"); }),
            "meshes[0].primitives[0].attributes.WEIGHTS_0");
  EXPECT_EQ(error_after([](json& d) { d["nodes"][0]["translation"] = {1, "x", 2}; }), "nodes[0].translation");
  EXPECT_EQ(error_after([](json& d) { d["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"] = 5; }),
            "materials[0].pbrMetallicRoughness.baseColorTexture.index");
  EXPECT_EQ(error_after([](json& d) { d["extensionsRequired"] = {"KHR_draco_mesh_compression"}; }), "extensionsRequired");
  EXPECT_EQ(error_after([](json& d) { d["animations"][0]["samplers"][0]["interpolation"] = "BEZIER"; }), "animations[0].samplers[0].interpolation");
  EXPECT_EQ(error_after([](json& d) { d["scenes"][0]["nodes"].push_back(1); }), "scenes[0].nodes");
  EXPECT_EQ(error_after([](json& d) { d["accessors"][0]["normalized"] = "yes"; }), "accessors[0].normalized");
}

TEST(GltfReader, NonFiniteAndOutOfRangeDataAreErrors) {
  scene::Scene s = scene::demo_grid(2, 2);
  auto glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok());
  // A NaN written over the first position (buffer 0 starts right after the JSON chunk).
  Bytes bad = *glb;
  const std::uint32_t json_length = bad[12] | (bad[13] << 8) | (bad[14] << 16) | (std::uint32_t{bad[15]} << 24);
  const std::size_t bin = 20 + json_length + 8;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(&bad[bin], &nan, 4);
  auto r = gltf::read_gltf(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "accessors[0]");
  // An index past the vertices, written over the first index.
  const json doc = json::parse(glb->begin() + 20, glb->begin() + 20 + json_length);
  const int indices = doc["meshes"][0]["primitives"][0]["indices"].get<int>();
  const json& view = doc["bufferViews"][doc["accessors"][indices]["bufferView"].get<std::size_t>()];
  Bytes past = *glb;
  const std::size_t at = bin + view.value("byteOffset", std::size_t{0});
  past[at] = 0xFE, past[at + 1] = 0xFF;
  auto p = gltf::read_gltf(past);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().field, "meshes[0].primitives[0].indices");
}

TEST(GltfReader, DeepJsonAndHugeJsonAreRefused) {
  std::string deep = "{\"asset\":{\"version\":\"2.0\"},\"extras\":";
  for (int i = 0; i < 100000; ++i) deep += "[";
  auto r = gltf::read_gltf(ByteSpan(reinterpret_cast<const std::uint8_t*>(deep.data()), deep.size()));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "json");
  Bytes glb = {'g', 'l', 'T', 'F', 2, 0, 0, 0, 40, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F, 'J', 'S', 'O', 'N'};
  glb.resize(40, ' ');
  auto g = gltf::read_gltf(glb);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error().field, "glb.chunk.length");
}

TEST(GltfReader, GlbWithoutResourcesRefusesExternalFiles) {
  auto files = gltf::write_gltf(scene::demo_grid(2, 2), "demo");
  ASSERT_TRUE(files.ok());
  auto r = gltf::read_gltf(files->gltf);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "buffers[0].uri");
}

}  // namespace
}  // namespace remodel
