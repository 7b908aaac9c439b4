// BVA into glTF: each shape whose show byte changes drives its node's KHR_node_visibility `visible` by
// a KHR_animation_pointer STEP channel of unsigned bytes; the shows stay in the extras at every frame.
// Checked on Galaxy's Polta BVAs against the show bytes read straight from the file, and on a
// hand-built VAF1 with a shape hidden at frame 0 against keys written from the spec.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim_gltf.hpp"
#include "model/j3d/anim.hpp"
#include "samples.hpp"
#include "scene/anim_channels.hpp"

namespace remodel {
namespace {

using json = nlohmann::json;

std::uint32_t be(const Bytes& b, std::size_t at, std::size_t size) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < size; ++i) v = v << 8 | b.at(at + i);
  return v;
}

// The VAF1 show byte of `shape` at `frame`, from the file's shape record (u16 count, u16 first index)
// and show table (docs/j3d-animations.md), the last value held past the record's end.
std::uint8_t show_in_file(const Bytes& bva, std::size_t shape, std::size_t frame) {
  constexpr std::size_t kSection = 0x20;
  const std::size_t record = kSection + be(bva, kSection + 0x10, 4) + 4 * shape;
  const std::size_t count = be(bva, record, 2), first = be(bva, record + 2, 2);
  return bva.at(kSection + be(bva, kSection + 0x14, 4) + first + std::min(frame, count - 1));
}

std::size_t json_length(const Bytes& glb) { return glb.at(12) | glb.at(13) << 8 | glb.at(14) << 16 | glb.at(15) << 24; }

// The GLB's JSON chunk.
json glb_json(const Bytes& glb) {
  return json::parse(glb.begin() + 20, glb.begin() + 20 + static_cast<std::ptrdiff_t>(json_length(glb)));
}

// The GLB with its JSON chunk replaced by `doc` (the BIN chunk kept).
Bytes with_json(const Bytes& glb, const json& doc) {
  std::string text = doc.dump();
  text.resize((text.size() + 3) & ~std::size_t{3}, ' ');
  const auto bin = glb.begin() + 20 + static_cast<std::ptrdiff_t>(json_length(glb));
  Bytes out(glb.begin(), glb.begin() + 12);
  const auto u32 = [&](std::size_t v) { for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i))); };
  u32(text.size());
  out.insert(out.end(), {'J', 'S', 'O', 'N'});
  out.insert(out.end(), text.begin(), text.end());
  out.insert(out.end(), bin, glb.end());
  for (int i = 0; i < 4; ++i) out[8 + i] = static_cast<std::uint8_t>(out.size() >> (8 * i));
  return out;
}

// The channel driving `pointer`, or null.
const scene::Channel* driving(const scene::Animation& a, const std::string& pointer) {
  for (const scene::Channel& c : a.channels) {
    if (c.pointer == pointer) return &c;
  }
  return nullptr;
}

TEST(BvaGltf, PoltaShowsDriveTheirShapeNodesVisibility) {
  const auto rock = test::load_named_sample("j3d", "smg_poltaformationrock.bdl");
  if (!rock) GTEST_SKIP() << "j3d/smg_poltaformationrock.bdl absent";
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim/smg_poltaformationrock");
  std::size_t checked = 0;
  for (const std::filesystem::path& path : files) {
    if (path.extension() != ".bva") continue;
    const Bytes bytes = test::load_file(path);
    const Document bva = test::load_document(path);
    const std::string name = path.stem().string();
    const scene::Scene s = test::lifted_with(*rock, bva, name);
    ASSERT_EQ(s.animations.size(), 1u) << name;  // every Polta BVA hides or shows a shape
    const scene::Animation& a = s.animations[0];
    const std::size_t shapes = be(bytes, 0x20 + 0x0C, 2), duration = be(bytes, 0x20 + 0x0A, 2);
    ASSERT_EQ(a.extras["shapes"].size(), shapes) << name;
    std::size_t channels = 0, keys = 0;
    for (std::size_t shape = 0; shape < shapes; ++shape) {
      int node = -1;
      for (std::size_t n = 0; n < s.nodes.size(); ++n) {
        if (s.nodes[n].extras.is_object() && s.nodes[n].extras.value("shape", -1) == static_cast<int>(shape)) node = static_cast<int>(n);
      }
      ASSERT_GE(node, 0) << name << " shape " << shape;
      bool changes = false;
      for (std::size_t f = 0; f <= duration; ++f) {
        EXPECT_EQ(a.extras["shapes"][shape][f], show_in_file(bytes, shape, f)) << name << " shape " << shape << " frame " << f;
        changes = changes || (show_in_file(bytes, shape, f) != 0) != (show_in_file(bytes, shape, 0) != 0);
      }
      const scene::Channel* c = driving(a, scene::node_visibility_pointer(static_cast<std::size_t>(node)));
      ASSERT_EQ(c != nullptr, changes) << name << " shape " << shape;  // a shape that never changes needs no channel
      if (c == nullptr) continue;
      EXPECT_TRUE(c->boolean);
      EXPECT_EQ(c->interpolation, scene::Interpolation::step);
      EXPECT_LT(c->times.size(), duration + 1);  // keyed where it changes, not at every frame
      for (std::size_t f = 0; f <= duration; ++f) {
        EXPECT_EQ(scene::sample_channel(*c, 1, static_cast<float>(f) / 30.0f)[0], show_in_file(bytes, shape, f) != 0 ? 1.0f : 0.0f)
            << name << " shape " << shape << " frame " << f;
      }
      EXPECT_FLOAT_EQ(c->times.back(), static_cast<float>(duration) / 30.0f);  // the animation lasts the BVA's duration
      ++channels;
      keys += c->times.size();
    }
    std::printf("%s: %zu shapes, %zu frames, %zu visibility channels, %zu keys\n", name.c_str(), shapes, duration + 1, channels, keys);
    // Exported: each driven node states KHR_node_visibility, shown at rest; the channels read back as lifted.
    auto glb = gltf::write_glb(s);
    ASSERT_TRUE(glb) << glb.error().describe();
    const json doc = glb_json(*glb);
    EXPECT_NE(std::find(doc["extensionsUsed"].begin(), doc["extensionsUsed"].end(), "KHR_node_visibility"), doc["extensionsUsed"].end());
    for (const json& ch : doc["animations"][0]["channels"]) {
      const std::string pointer = ch["target"]["extensions"]["KHR_animation_pointer"]["pointer"];
      const std::size_t node = *scene::visibility_pointer_node(pointer);
      EXPECT_EQ(doc["nodes"][node]["extensions"]["KHR_node_visibility"]["visible"], true) << name << " " << pointer;
      const json& sampler = doc["animations"][0]["samplers"][ch["sampler"].get<std::size_t>()];
      EXPECT_EQ(sampler["interpolation"], "STEP");
      EXPECT_EQ(doc["accessors"][sampler["output"].get<std::size_t>()]["componentType"], 5121);  // unsigned byte
    }
    auto read = gltf::read_gltf(*glb);
    ASSERT_TRUE(read) << read.error().describe();
    ASSERT_EQ(read->scene.animations.size(), 1u);
    const scene::Animation& back = read->scene.animations[0];
    ASSERT_EQ(back.channels.size(), a.channels.size());
    for (std::size_t i = 0; i < a.channels.size(); ++i) {
      EXPECT_EQ(back.channels[i].pointer, a.channels[i].pointer);
      EXPECT_TRUE(back.channels[i].boolean);
      EXPECT_EQ(back.channels[i].interpolation, scene::Interpolation::step);
      EXPECT_EQ(back.channels[i].times, a.channels[i].times);
      EXPECT_EQ(back.channels[i].values, a.channels[i].values);
    }
    EXPECT_EQ(back.extras, a.extras);
    ++checked;
  }
  EXPECT_EQ(checked, 6u);
}

// Four nodes: a joint, then shapes 0 to 2 (node = shape + 1, so a node index is not its shape's).
scene::Scene three_shapes() {
  scene::Scene s;
  scene::Node joint;
  joint.name = "joint";
  s.add_node(std::move(joint));
  for (int shape = 0; shape < 3; ++shape) {
    scene::Node n;
    n.name = "shape" + std::to_string(shape);
    n.extras = {{"shape", shape}};
    s.add_node(std::move(n), 0);
  }
  return s;
}

// Duration 3 (frames 0-3): shape 0 stores 0 0 1 (hidden at frame 0, shown from 2, held to 3), shape 1
// 1 1 1 1 (never changes), shape 2 1 0 (hidden from frame 1).
J3dAnimFile golden_bva() {
  J3dVaf1 v;
  v.loop_mode = 2;
  v.duration = 3;
  v.shapes = {{{0, 0, 1}, {}}, {{1, 1, 1, 1}, {}}, {{1, 0}, {}}};
  J3dAnimFile f;
  f.type = {'b', 'v', 'a', '1'};
  f.section = std::move(v);
  return f;
}

TEST(BvaGltf, GoldenShapeHiddenAtFrameZero) {
  scene::Scene s = three_shapes();
  auto taken = scene::lift_j3d_material_animation(golden_bva(), "golden", s);
  ASSERT_TRUE(taken && *taken);
  ASSERT_EQ(s.animations.size(), 1u);
  const scene::Animation& a = s.animations[0];
  // From the spec: keys at frame 0, at each change and at the last frame; shape 1 has none.
  ASSERT_EQ(a.channels.size(), 2u);
  EXPECT_EQ(a.channels[0].pointer, "/nodes/1/extensions/KHR_node_visibility/visible");
  EXPECT_EQ(a.channels[0].times, (std::vector<float>{0, 2 / 30.0f, 3 / 30.0f}));
  EXPECT_EQ(a.channels[0].values, (std::vector<float>{0, 1, 1}));
  EXPECT_EQ(a.channels[1].pointer, "/nodes/3/extensions/KHR_node_visibility/visible");
  EXPECT_EQ(a.channels[1].times, (std::vector<float>{0, 1 / 30.0f, 3 / 30.0f}));
  EXPECT_EQ(a.channels[1].values, (std::vector<float>{1, 0, 0}));
  EXPECT_EQ(a.extras.dump(), R"({"format":"bva","loop_mode":2,"duration":3,"shapes":[[0,0,1,1],[1,1,1,1],[1,0,0,0]]})");
  auto glb = gltf::write_glb(s);
  ASSERT_TRUE(glb) << glb.error().describe();
  const json doc = glb_json(*glb);
  EXPECT_EQ(doc["nodes"][1]["extensions"].dump(), R"({"KHR_node_visibility":{"visible":true}})");  // at rest; the channel hides it at frame 0
  EXPECT_FALSE(doc["nodes"][2].contains("extensions"));
  EXPECT_EQ(doc["nodes"][3]["extensions"].dump(), R"({"KHR_node_visibility":{"visible":true}})");
  EXPECT_EQ(doc["extensionsUsed"].dump(), R"(["KHR_animation_pointer","KHR_node_visibility"])");
  const json& output = doc["accessors"][doc["animations"][0]["samplers"][0]["output"].get<std::size_t>()];
  EXPECT_EQ(output.dump(), R"({"bufferView":1,"componentType":5121,"count":3,"type":"SCALAR"})");
  const std::size_t bin = 20 + json_length(*glb) + 8;  // the BIN chunk's data
  const std::size_t at = bin + doc["bufferViews"][1]["byteOffset"].get<std::size_t>();
  EXPECT_EQ(Bytes(glb->begin() + static_cast<std::ptrdiff_t>(at), glb->begin() + static_cast<std::ptrdiff_t>(at) + 3), (Bytes{0, 1, 1}));
  Bytes seven = *glb;
  seven[at + 1] = 7;  // KHR_animation_pointer: any value but 0 is true
  auto read_seven = gltf::read_gltf(seven);
  ASSERT_TRUE(read_seven) << read_seven.error().describe();
  EXPECT_EQ(read_seven->scene.animations[0].channels[0].values, (std::vector<float>{0, 1, 1}));
  auto read = gltf::read_gltf(*glb);
  ASSERT_TRUE(read) << read.error().describe();
  ASSERT_EQ(read->scene.animations.size(), 1u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_TRUE(read->scene.animations[0].channels[i].boolean);
    EXPECT_EQ(read->scene.animations[0].channels[i].values, a.channels[i].values);
    EXPECT_EQ(read->scene.animations[0].channels[i].times, a.channels[i].times);
  }
}

// Where writing the golden Scene with `edit` made to its first channel fails.
std::string write_error(const std::function<void(scene::Channel&)>& edit) {
  scene::Scene s = three_shapes();
  EXPECT_TRUE(scene::lift_j3d_material_animation(golden_bva(), "golden", s));
  edit(s.animations.at(0).channels.at(0));
  auto glb = gltf::write_glb(s);
  return glb ? "(written without error)" : glb.error().field;
}

// Where reading the golden export with `edit` made to its JSON fails.
std::string read_error(const std::function<void(json&)>& edit) {
  scene::Scene s = three_shapes();
  EXPECT_TRUE(scene::lift_j3d_material_animation(golden_bva(), "golden", s));
  auto glb = gltf::write_glb(s);
  EXPECT_TRUE(glb);
  json doc = glb_json(*glb);
  edit(doc);
  auto read = gltf::read_gltf(with_json(*glb, doc));
  return read ? "(read without error)" : read.error().field;
}

TEST(BvaGltf, ABoolChannelOfAnotherShapeIsRefusedWithItsLocation) {
  EXPECT_EQ(write_error([](scene::Channel&) {}), "(written without error)");
  EXPECT_EQ(write_error([](scene::Channel& c) { c.values[1] = 0.5f; }), "animations[0].channels[0].values");
  EXPECT_EQ(write_error([](scene::Channel& c) { c.interpolation = scene::Interpolation::linear; }), "animations[0].channels[0].interpolation");
  EXPECT_EQ(write_error([](scene::Channel& c) { c.pointer = scene::node_visibility_pointer(9); }), "animations[0].channels[0].pointer");
  EXPECT_EQ(write_error([](scene::Channel& c) { c.pointer = "/nodes/01/extensions/KHR_node_visibility/visible"; }), "animations[0].channels[0].pointer");
  EXPECT_EQ(write_error([](scene::Channel& c) { c.boolean = false; }), "animations[0].channels[0].boolean");
  const auto output = [](json& d) -> json& { return d["accessors"][d["animations"][0]["samplers"][0]["output"].get<std::size_t>()]; };
  EXPECT_EQ(read_error([](json&) {}), "(read without error)");
  EXPECT_EQ(read_error([](json& d) { d["animations"][0]["samplers"][0]["interpolation"] = "LINEAR"; }), "animations[0].samplers[0].interpolation");
  EXPECT_EQ(read_error([&](json& d) { output(d)["componentType"] = 5120; }), "animations[0].samplers[0].output");
  EXPECT_EQ(read_error([&](json& d) { output(d)["normalized"] = true; }), "animations[0].samplers[0].output");
  EXPECT_EQ(read_error([](json& d) { d["animations"][0]["channels"][0]["target"]["extensions"]["KHR_animation_pointer"]["pointer"] = scene::node_visibility_pointer(9); }),
            "animations[0].channels[0].target.extensions.KHR_animation_pointer.pointer");
}

}  // namespace
}  // namespace remodel
