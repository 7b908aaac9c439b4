// The glTF writer on Scenes built in code: the GLB container, accessors, skins, materials,
// animations, extras and names, read back by an independent reader (tinygltf as Debian ships it).
#include <gtest/gtest.h>

#include <tiny_gltf.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "gltf/gltf.hpp"
#include "gltf/names.hpp"
#include "scene/demo.hpp"

namespace remodel {
namespace {

using json = nlohmann::ordered_json;
using scene::Scene;

std::uint32_t u32(const Bytes& b, std::size_t at) {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (std::uint32_t{b[at + 3]} << 24);
}

json glb_json(const Bytes& glb) {
  const std::uint32_t length = u32(glb, 12);
  return json::parse(glb.begin() + 20, glb.begin() + 20 + length);
}

tinygltf::Model load_glb(const Bytes& glb) {
  tinygltf::TinyGLTF loader;
  tinygltf::Model model;
  std::string err, warn;
  EXPECT_TRUE(loader.LoadBinaryFromMemory(&model, &err, &warn, glb.data(), static_cast<unsigned>(glb.size()), ""))
      << err;
  EXPECT_EQ(err, "");
  return model;
}

// The floats an accessor holds, through tinygltf's model (tightly packed views: no byteStride).
template <typename T>
std::vector<T> read_accessor(const tinygltf::Model& m, int index) {
  const tinygltf::Accessor& a = m.accessors[static_cast<std::size_t>(index)];
  const tinygltf::BufferView& v = m.bufferViews[static_cast<std::size_t>(a.bufferView)];
  const std::size_t n = a.count * static_cast<std::size_t>(tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(a.type)));
  std::vector<T> out(n);
  std::memcpy(out.data(), m.buffers[0].data.data() + v.byteOffset + a.byteOffset, n * sizeof(T));
  return out;
}

TEST(GltfWriter, GlbContainerIsWellFormed) {
  const Result<Bytes> glb = gltf::write_glb(scene::demo_grid(4, 3));
  ASSERT_TRUE(glb.ok()) << glb.error().describe();
  const Bytes& b = *glb;
  ASSERT_GE(b.size(), 28u);
  EXPECT_EQ(u32(b, 0), 0x46546C67u);  // "glTF"
  EXPECT_EQ(u32(b, 4), 2u);
  EXPECT_EQ(u32(b, 8), b.size());
  const std::uint32_t json_length = u32(b, 12);
  EXPECT_EQ(u32(b, 16), 0x4E4F534Au);
  EXPECT_EQ(json_length % 4, 0u);
  const std::size_t bin_at = 20 + json_length;
  EXPECT_EQ(u32(b, bin_at + 4), 0x004E4942u);
  EXPECT_EQ(bin_at + 8 + u32(b, bin_at), b.size());
  EXPECT_EQ(u32(b, bin_at) % 4, 0u);
  const json doc = glb_json(b);
  ASSERT_EQ(doc["buffers"].size(), 1u);
  EXPECT_EQ(doc["buffers"][0]["byteLength"], u32(b, bin_at));
  EXPECT_FALSE(doc["buffers"][0].contains("uri"));
  for (const json& view : doc["bufferViews"]) {
    EXPECT_EQ(view["buffer"], 0);
    EXPECT_EQ(view["byteOffset"].get<std::size_t>() % 4, 0u);
    EXPECT_LE(view["byteOffset"].get<std::size_t>() + view["byteLength"].get<std::size_t>(), u32(b, bin_at));
  }
}

TEST(GltfWriter, DemoGridReadsBackThroughTinygltf) {
  const Scene s = scene::demo_grid(5, 4);
  const Result<Bytes> glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok()) << glb.error().describe();
  const tinygltf::Model m = load_glb(*glb);
  ASSERT_EQ(m.meshes.size(), 1u);
  ASSERT_EQ(m.nodes.size(), 4u);
  ASSERT_EQ(m.skins.size(), 1u);
  EXPECT_EQ(m.skins[0].joints, (std::vector<int>{1, 2}));
  EXPECT_EQ(m.skins[0].skeleton, 0);
  EXPECT_EQ(m.nodes[3].skin, 0);
  EXPECT_EQ(m.nodes[3].mesh, 0);
  EXPECT_EQ(m.nodes[2].translation, (std::vector<double>{0, 0.5, 0}));
  ASSERT_EQ(m.images.size(), 1u);
  EXPECT_EQ(m.images[0].width, 8);
  EXPECT_EQ(m.images[0].image, s.textures[0].image.rgba);  // the PNG decodes to the Scene's pixels
  ASSERT_EQ(m.samplers.size(), 1u);
  EXPECT_EQ(m.samplers[0].wrapS, 10497);
  EXPECT_EQ(m.samplers[0].wrapT, 33648);
  EXPECT_EQ(m.samplers[0].magFilter, 9728);
  EXPECT_EQ(m.samplers[0].minFilter, 9728);

  const tinygltf::Primitive& p = m.meshes[0].primitives[0];
  EXPECT_EQ(p.mode, 4);
  const tinygltf::Accessor& pos = m.accessors[static_cast<std::size_t>(p.attributes.at("POSITION"))];
  EXPECT_EQ(pos.count, 20u);
  EXPECT_EQ(pos.minValues, (std::vector<double>{-0.5, 0, 0}));
  EXPECT_EQ(pos.maxValues, (std::vector<double>{0.5, 1, 0}));
  const auto positions = read_accessor<float>(m, p.attributes.at("POSITION"));
  for (std::size_t v = 0; v < 20; ++v) {
    EXPECT_EQ(positions[v * 3], s.meshes[0].primitives[0].positions[v].x);
    EXPECT_EQ(positions[v * 3 + 1], s.meshes[0].primitives[0].positions[v].y);
  }
  const tinygltf::Accessor& joints = m.accessors[static_cast<std::size_t>(p.attributes.at("JOINTS_0"))];
  EXPECT_EQ(joints.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE);  // two joints fit a byte
  EXPECT_EQ(m.accessors[static_cast<std::size_t>(p.attributes.at("WEIGHTS_0"))].componentType, TINYGLTF_COMPONENT_TYPE_FLOAT);
  EXPECT_TRUE(p.attributes.count("COLOR_0"));  // the material uses vertex colours
  const tinygltf::Accessor& ix = m.accessors[static_cast<std::size_t>(p.indices)];
  EXPECT_EQ(ix.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
  EXPECT_EQ(ix.count, 4u * 3u * 6u);
  const auto weights = read_accessor<float>(m, p.attributes.at("WEIGHTS_0"));
  for (std::size_t v = 0; v < 20; ++v) {
    EXPECT_NEAR(weights[v * 4] + weights[v * 4 + 1] + weights[v * 4 + 2] + weights[v * 4 + 3], 1.0f, 1e-6f);
  }
  // Inverse bind matrices as written: world(joint) * inverse_bind is the identity at bind pose.
  const auto ibm = read_accessor<float>(m, m.skins[0].inverseBindMatrices);
  ASSERT_EQ(ibm.size(), 32u);
  EXPECT_EQ(ibm[13], 0.0f);     // the lower joint is at the origin
  EXPECT_EQ(ibm[29], -0.5f);  // the upper joint sits 0.5 up

  ASSERT_EQ(m.animations.size(), 1u);
  const tinygltf::AnimationSampler& as = m.animations[0].samplers[0];
  EXPECT_EQ(as.interpolation, "LINEAR");
  EXPECT_EQ(m.accessors[static_cast<std::size_t>(as.input)].minValues, (std::vector<double>{0}));
  EXPECT_EQ(m.accessors[static_cast<std::size_t>(as.input)].maxValues, (std::vector<double>{1}));
  EXPECT_EQ(m.animations[0].channels[0].target_path, "rotation");
  EXPECT_EQ(m.animations[0].channels[0].target_node, 2);
}

TEST(GltfWriter, MaterialsSamplersAndExtras) {
  Scene s = scene::demo_grid(2, 2);
  s.materials[0].unlit = true;
  s.materials[0].alpha_mode = scene::AlphaMode::mask;
  s.materials[0].alpha_cutoff = 0.25f;
  s.materials[0].base_color = {1, 0.5f, 0.25f, 1};
  scene::Material glass;
  glass.name = "glass";
  glass.alpha_mode = scene::AlphaMode::blend;
  s.materials.push_back(glass);
  s.meshes[0].primitives[0].extras = {{"strip_lengths", {3, 4}}};
  s.nodes[1].extras = {{"bone_index", 0}};
  const Result<Bytes> glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok()) << glb.error().describe();
  const json doc = glb_json(*glb);
  EXPECT_EQ(doc["extensionsUsed"], json::array({"KHR_materials_unlit"}));
  const json& m0 = doc["materials"][0];
  EXPECT_TRUE(m0["extensions"].contains("KHR_materials_unlit"));
  EXPECT_EQ(m0["alphaMode"], "MASK");
  EXPECT_EQ(m0["alphaCutoff"], 0.25);
  EXPECT_TRUE(m0["doubleSided"]);
  EXPECT_EQ(m0["pbrMetallicRoughness"]["baseColorFactor"], json::array({1.0, 0.5, 0.25, 1.0}));
  EXPECT_EQ(m0["pbrMetallicRoughness"]["baseColorTexture"]["index"], 0);
  EXPECT_EQ(doc["materials"][1]["alphaMode"], "BLEND");
  EXPECT_FALSE(doc["materials"][1].contains("alphaCutoff"));
  EXPECT_FALSE(doc["materials"][1].contains("doubleSided"));
  EXPECT_EQ(doc["extras"]["remodel"], (json{{"extras_version", gltf::kExtrasVersion}, {"format", "demo"}}));
  EXPECT_EQ(doc["meshes"][0]["primitives"][0]["extras"]["remodel"]["strip_lengths"], json::array({3, 4}));
  EXPECT_EQ(doc["nodes"][1]["extras"]["remodel"]["bone_index"], 0);
  EXPECT_EQ(doc["textures"][0]["extras"]["remodel"]["encoding"], "RGBA8");
  EXPECT_FALSE(doc["nodes"][0].contains("extras"));
}

// JSON has no NaN or infinity (a plain dump writes null): a lift's non-finite number in extras (riistudio_Mario's
// EVP1 inverse binds of a joint scaled to 0 hold NaN) is written as a string saying which, at any depth.
TEST(GltfWriter, NonFiniteExtrasAreNamedStrings) {
  Scene s = scene::demo_grid(2, 2);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  s.skins[0].extras = {{"rows", {{nan, 1.5, -inf}, {inf, 0.0}}}};
  s.nodes[1].extras = {{"w", nan}};
  s.extras = {{"format", "demo"}, {"scale", inf}};
  const Result<Bytes> glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok()) << glb.error().describe();
  const json doc = glb_json(*glb);
  EXPECT_EQ(doc["skins"][0]["extras"]["remodel"]["rows"], (json{{"NaN", 1.5, "-Infinity"}, {"Infinity", 0.0}}));
  EXPECT_EQ(doc["nodes"][1]["extras"]["remodel"]["w"], "NaN");
  EXPECT_EQ(doc["extras"]["remodel"]["scale"], "Infinity");
  const Result<gltf::ReadScene> back = gltf::read_gltf(*glb);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back->scene.skins[0].extras, gltf::json_extras(s.skins[0].extras));
}

TEST(GltfWriter, DegenerateTrianglesAreDropped) {
  Scene s = scene::demo_grid(2, 2);  // two triangles
  auto& ix = s.meshes[0].primitives[0].indices;
  ix.insert(ix.end(), {0, 0, 1, 2, 3, 2});
  Result<Bytes> glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok()) << glb.error().describe();
  const tinygltf::Model m = load_glb(*glb);
  EXPECT_EQ(m.accessors[static_cast<std::size_t>(m.meshes[0].primitives[0].indices)].count, 6u);

  // A strip with a degenerate joint between two runs becomes a list of its real triangles.
  auto& p = s.meshes[0].primitives[0];
  p.topology = scene::Topology::triangle_strip;
  p.indices = {0, 1, 2, 2, 3, 1, 3};  // triangles 012, 212, 223, 321 (odd: swapped), 313
  glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok()) << glb.error().describe();
  const tinygltf::Model strip = load_glb(*glb);
  const auto& sp = strip.meshes[0].primitives[0];
  EXPECT_EQ(sp.mode, 4);
  const auto list = read_accessor<std::uint16_t>(strip, sp.indices);
  EXPECT_EQ(list, (std::vector<std::uint16_t>{0, 1, 2, 3, 2, 1}));  // both counter-clockwise from +Z
}

TEST(GltfWriter, JointsAndWeightsAreTidied) {
  Scene s = scene::demo_grid(2, 2);
  auto& p = s.meshes[0].primitives[0];
  // Vertex 0: joint 1 twice and a zero weight on joint 1; weights sum to 2.
  p.joints[0] = 1, p.joints[1] = 1, p.joints[2] = 1, p.joints[3] = 0;
  p.weights[0] = 0.5f, p.weights[1] = 1.0f, p.weights[2] = 0, p.weights[3] = 0.5f;
  const Result<Bytes> glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok()) << glb.error().describe();
  const tinygltf::Model m = load_glb(*glb);
  const auto& prim = m.meshes[0].primitives[0];
  const auto joints = read_accessor<std::uint8_t>(m, prim.attributes.at("JOINTS_0"));
  const auto weights = read_accessor<float>(m, prim.attributes.at("WEIGHTS_0"));
  EXPECT_EQ((std::vector<std::uint8_t>(joints.begin(), joints.begin() + 4)), (std::vector<std::uint8_t>{1, 0, 0, 0}));
  EXPECT_EQ((std::vector<float>(weights.begin(), weights.begin() + 4)), (std::vector<float>{0.75f, 0, 0, 0.25f}));
}

TEST(GltfWriter, UnitNormalsAndRotationsAreKeptAsGiven) {
  // 1/sqrt(3) in float is unit within float rounding; dividing by its float length moves y and z a step.
  const float third = 0.57735026f;
  const scene::Vec3 unit{third, third, -third};
  EXPECT_EQ(gltf::unit_normal(unit), unit);
  EXPECT_EQ(gltf::unit_normal({0, 3, 4}), (scene::Vec3{0, 0.6f, 0.8f}));
  EXPECT_EQ(gltf::unit_normal({0, 0, 0}), (scene::Vec3{0, 1, 0}));
  EXPECT_EQ(gltf::unit_normal({std::nanf(""), 0, 0}), (scene::Vec3{0, 1, 0}));
  const scene::Quat q{0.5f, -0.5f, 0.5f, 0.49999997f};
  EXPECT_EQ(gltf::unit_rotation(q), q);
  EXPECT_EQ(gltf::unit_rotation({0, 0, 2, 0}), (scene::Quat{0, 0, 1, 0}));

  Scene s = scene::demo_grid(2, 2);
  auto& p = s.meshes[0].primitives[0];
  p.normals.assign(p.positions.size(), unit);
  p.normals[1] = {0, 0, -2};
  s.nodes[1].local.rotation = q;
  const Result<Bytes> glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok()) << glb.error().describe();
  const tinygltf::Model m = load_glb(*glb);
  const auto normals = read_accessor<float>(m, m.meshes[0].primitives[0].attributes.at("NORMAL"));
  ASSERT_EQ(normals.size(), p.positions.size() * 3);
  EXPECT_EQ((std::vector<float>(normals.begin(), normals.begin() + 6)), (std::vector<float>{third, third, -third, 0, 0, -1}));
  EXPECT_EQ(m.nodes[1].rotation, (std::vector<double>{0.5, -0.5, 0.5, 0.49999997f}));
}

TEST(GltfWriter, SixteenBitJointsAndIndicesWhenNeeded) {
  Scene s = scene::demo_grid(300, 300);  // 90,000 vertices: 32-bit indices
  auto& skin = s.skins[0];
  while (skin.joints.size() < 300) {  // joint 299 needs 16 bits
    skin.joints.push_back(s.add_node(scene::Node{}, 0));
    skin.inverse_bind_matrices.push_back(scene::Mat4::identity());
  }
  s.meshes[0].primitives[0].joints[2] = 299;
  s.meshes[0].primitives[0].weights[2] = 0.5f;
  const Result<Bytes> glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok()) << glb.error().describe();
  const json doc = glb_json(*glb);
  const json& prim = doc["meshes"][0]["primitives"][0];
  EXPECT_EQ(doc["accessors"][prim["attributes"]["JOINTS_0"].get<int>()]["componentType"], 5123);
  EXPECT_EQ(doc["accessors"][prim["indices"].get<int>()]["componentType"], 5125);
}

TEST(GltfWriter, CubicSplineStepAndScenes) {
  Scene s = scene::demo_grid(2, 2);
  scene::Channel step, cubic;
  step.node = cubic.node = 1;
  step.path = scene::Path::translation;
  step.interpolation = scene::Interpolation::step;
  step.times = cubic.times = {0, 1};
  step.values = {0, 0, 0, 1, 2, 3};
  cubic.path = scene::Path::scale;
  cubic.interpolation = scene::Interpolation::cubic_spline;
  cubic.values = std::vector<float>(18, 1.0f);
  scene::Animation moving;
  moving.name = "move";
  moving.channels = {step, cubic};
  s.animations.push_back(moving);
  scene::Node lod_node;
  lod_node.name = "lod1";
  lod_node.visible = false;
  const int lod = s.add_node(lod_node);
  s.scenes[0].nodes.pop_back();
  s.scenes.push_back(scene::SceneRoots{"lod1", {lod}});
  const Result<Bytes> glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok()) << glb.error().describe();
  const json doc = glb_json(*glb);
  const json& move = doc["animations"][1];
  EXPECT_EQ(move["samplers"][0]["interpolation"], "STEP");
  EXPECT_EQ(move["samplers"][1]["interpolation"], "CUBICSPLINE");
  EXPECT_EQ(move["samplers"][0]["input"], move["samplers"][1]["input"]);  // equal times share one accessor
  EXPECT_EQ(doc["accessors"][move["samplers"][1]["output"].get<int>()]["count"], 6);
  EXPECT_EQ(doc["scenes"].size(), 2u);
  EXPECT_EQ(doc["scenes"][1]["nodes"], json::array({lod}));
  EXPECT_EQ(doc["scene"], 0);
}

TEST(GltfWriter, NamesBecomeValidUtf8AndKeepTheirBytes) {
  EXPECT_EQ(gltf::utf8_name("body"), "body");
  EXPECT_EQ(gltf::utf8_name("\xe9\xaa\xa8"), "\xe9\xaa\xa8");        // UTF-8 as is
  EXPECT_EQ(gltf::utf8_name("\x8d\x9c"), "\xe9\xaa\xa8");        // Shift-JIS for the same kanji
  EXPECT_EQ(gltf::utf8_name("a\xff\xfe"), "a\\xFF\\xFE");         // neither: escaped
  Scene s = scene::demo_grid(2, 2);
  s.nodes[1].name = "\x8d\x9c";
  const Result<Bytes> glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok());
  const json doc = glb_json(*glb);
  EXPECT_EQ(doc["nodes"][1]["name"], "\xe9\xaa\xa8");
  EXPECT_EQ(doc["nodes"][1]["extras"]["remodel"]["name_bytes"], "8d9c");
  EXPECT_EQ(doc["nodes"][1]["extras"]["remodel"]["name_encoding"], "shift_jis");
}

TEST(GltfWriter, SafeFileNames) {
  EXPECT_EQ(gltf::safe_file_name("p01ex00"), "p01ex00");
  EXPECT_EQ(gltf::safe_file_name("a b/c:d.e"), "a_b_c_d_e");
  EXPECT_EQ(gltf::safe_file_name(""), "model");
  EXPECT_EQ(gltf::safe_file_name("con"), "_con");
  EXPECT_EQ(gltf::safe_file_name("LPT1"), "_LPT1");
  EXPECT_EQ(gltf::safe_file_name("COM10"), "COM10");
  EXPECT_EQ(gltf::safe_file_name(std::string(100, 'x')).size(), 64u);
}

TEST(GltfWriter, GltfFilesReadBackFromDisk) {
  const Scene s = scene::demo_grid(3, 3);
  const Result<gltf::GltfFiles> files = gltf::write_gltf(s, "my model");
  ASSERT_TRUE(files.ok()) << files.error().describe();
  ASSERT_EQ(files->resources.size(), 2u);
  EXPECT_EQ(files->resources[0].uri, "my_model.bin");
  EXPECT_EQ(files->resources[1].uri, "my_model_0_checker.png");
  const auto dir = std::filesystem::temp_directory_path() / ("remodel_gltf_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "my model.gltf", std::ios::binary).write(reinterpret_cast<const char*>(files->gltf.data()), static_cast<std::streamsize>(files->gltf.size()));
  for (const auto& r : files->resources) {
    std::ofstream(dir / r.uri, std::ios::binary).write(reinterpret_cast<const char*>(r.data.data()), static_cast<std::streamsize>(r.data.size()));
  }
  tinygltf::TinyGLTF loader;
  tinygltf::Model m;
  std::string err, warn;
  EXPECT_TRUE(loader.LoadASCIIFromFile(&m, &err, &warn, (dir / "my model.gltf").string())) << err;
  EXPECT_EQ(m.images.size(), 1u);
  EXPECT_EQ(m.images[0].image, s.textures[0].image.rgba);
  EXPECT_EQ(m.buffers[0].data, files->resources[0].data);
  std::filesystem::remove_all(dir);
}

TEST(GltfWriter, InconsistentScenesAreErrorsNamingTheField) {
  const auto error_of = [](const Scene& s) { return gltf::write_glb(s).error().field; };
  Scene s = scene::demo_grid(2, 2);
  s.meshes[0].primitives[0].indices[1] = 9;
  EXPECT_EQ(error_of(s), "meshes[0].primitives[0].indices[1]");
  s = scene::demo_grid(2, 2);
  s.nodes[3].skin = -1;  // joints and weights without a skin
  EXPECT_EQ(error_of(s), "nodes[3].skin");
  s = scene::demo_grid(2, 2);
  s.meshes[0].primitives[0].influences = 0;
  s.meshes[0].primitives[0].joints.clear();
  s.meshes[0].primitives[0].weights.clear();  // a skin on a mesh without joints
  EXPECT_EQ(error_of(s), "nodes[3].skin");
  s = scene::demo_grid(2, 2);
  s.skins[0].joints.pop_back();  // joint 1 used but the skin has one joint
  s.skins[0].inverse_bind_matrices.pop_back();
  EXPECT_EQ(error_of(s), "nodes[3].skin");
  s = scene::demo_grid(2, 2);
  s.animations[0].channels[0].times = {0, 1, 1};
  EXPECT_EQ(error_of(s), "animations[0].channels[0].times[2]");
  s = scene::demo_grid(2, 2);
  s.meshes[0].primitives[0].positions[1].x = std::nanf("");
  EXPECT_EQ(error_of(s), "meshes[0].primitives[0].positions[1]");
  s = scene::demo_grid(2, 2);
  s.skins[0].skeleton = 3;  // the mesh node is no ancestor of the joints
  EXPECT_EQ(error_of(s), "skins[0].skeleton");
  s = scene::demo_grid(2, 2);
  s.meshes[0].primitives[0].uvs.clear();  // the material's texture needs UV set 0
  EXPECT_EQ(error_of(s), "meshes[0].primitives[0].uvs");
}

// Weights summing to a denormal have no finite reciprocal: renormalising them would write infinite
// and NaN weights (a fuzz finding, fuzz/regressions/gltf/denormal-weight-sum.glb); likewise a sum
// past the float range. Both are refused like a vertex without weight.
TEST(GltfWriter, WeightsTooSmallOrLargeToRenormaliseAreErrors) {
  Scene s = scene::demo_grid(2, 2);
  auto& p = s.meshes[0].primitives[0];
  ASSERT_EQ(p.influences, 4u);
  ASSERT_GE(p.weights.size(), 8u);
  const float tiny = std::numeric_limits<float>::min() / 4;  // denormal
  std::fill(p.weights.begin() + 4, p.weights.begin() + 8, 0.0f);
  p.weights[4] = tiny;
  Result<Bytes> glb = gltf::write_glb(s);
  ASSERT_FALSE(glb.ok());
  EXPECT_EQ(glb.error().field, "meshes[0].primitives[0].weights");
  EXPECT_NE(glb.error().message.find("vertex 1's weights sum to"), std::string::npos) << glb.error().message;
  p.weights[4] = std::numeric_limits<float>::max(), p.weights[5] = std::numeric_limits<float>::max();
  glb = gltf::write_glb(s);
  ASSERT_FALSE(glb.ok());
  EXPECT_EQ(glb.error().field, "meshes[0].primitives[0].weights");
  p.weights[4] = tiny * 8, p.weights[5] = 0;  // normal, if small: renormalised to 1
  glb = gltf::write_glb(s);
  ASSERT_TRUE(glb.ok()) << glb.error().describe();
  const tinygltf::Model m = load_glb(*glb);
  const auto weights = read_accessor<float>(m, m.meshes[0].primitives[0].attributes.at("WEIGHTS_0"));
  ASSERT_GE(weights.size(), 8u);
  EXPECT_EQ((std::vector<float>(weights.begin() + 4, weights.begin() + 8)), (std::vector<float>{1, 0, 0, 0}));
}

}  // namespace
}  // namespace remodel
