// Issue 32 F2, F3 (and F4, F6: a number past a double's range, a texture through a missing UV set,
// PNGs that are cut short or claim a huge size): what the glTF reader decodes follows the file's size, never the number of places
// that name one accessor, image or buffer (a budget of 256 MiB plus 8 times the input), and authoring
// does not write one mesh out again for every node that draws it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gltf/gltf.hpp"
#include "model/image.hpp"
#include "scene/demo.hpp"
#include "scene/lower.hpp"

namespace remodel {
namespace {

using json = nlohmann::ordered_json;

struct Served {
  std::vector<gltf::Resource> resources;
  std::size_t loads = 0;
  gltf::ResourceLoader loader() {
    return [this](const std::string& uri) -> Result<Bytes> {
      ++loads;
      for (const gltf::Resource& r : resources) {
        if (r.uri == uri) return r.data;
      }
      return Error{ErrorCode::io, 0, uri, "no such file"};
    };
  }
};

// `scene` written as .gltf, its JSON edited, read back with its files.
Result<gltf::ReadScene> read_edited(const scene::Scene& s, Served& served, const std::function<void(json&)>& edit) {
  auto files = gltf::write_gltf(s, "demo");
  EXPECT_TRUE(files.ok());
  served.resources = files->resources;
  json doc = json::parse(files->gltf.begin(), files->gltf.end());
  edit(doc);
  const std::string text = doc.dump();
  return gltf::read_gltf(ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), served.loader());
}

TEST(GltfReaderBounds, AnImageNamedManyTimesIsDecodedOnceAndCopiesAreBounded) {
  scene::Scene s = scene::demo_grid(2, 2);
  s.textures[0].image = RgbaImage(2048, 2048);  // one colour: a PNG of a few KB that decodes to 16 MiB
  Served served;
  // 64 images naming one PNG, one texture: read, with the PNG decoded once.
  auto once = read_edited(s, served, [](json& d) {
    for (int i = 0; i < 63; ++i) d["images"].push_back(d["images"][0]);
  });
  ASSERT_TRUE(once.ok()) << once.error().describe();
  EXPECT_EQ(served.loads, 2u);  // the .bin and the PNG
  // 64 textures each holding a copy: refused once the copies pass the budget, not after 1 GiB.
  auto copies = read_edited(s, served, [](json& d) {
    for (int i = 0; i < 63; ++i) d["textures"].push_back(d["textures"][0]);
  });
  ASSERT_FALSE(copies.ok());
  EXPECT_EQ(copies.error().field.rfind("textures[", 0), 0u) << copies.error().field;
  EXPECT_EQ(copies.error().field.substr(copies.error().field.find(']')), "].source");
  EXPECT_NE(copies.error().message.find("named from too many places"), std::string::npos) << copies.error().message;
}

TEST(GltfReaderBounds, PrimitivesNamingOneAccessorAreBounded) {
  Served served;
  auto r = read_edited(scene::demo_grid(200, 200), served, [](json& d) {
    for (int i = 0; i < 999; ++i) d["meshes"][0]["primitives"].push_back(d["meshes"][0]["primitives"][0]);
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field.rfind("meshes[0].primitives[", 0), 0u) << r.error().field;
  EXPECT_EQ(r.error().code, ErrorCode::bad_count);
}

TEST(GltfReaderBounds, BuffersNamingOneFileReadItOnce) {
  Served served;
  auto r = read_edited(scene::demo_grid(3, 3), served, [](json& d) {
    for (int i = 0; i < 29; ++i) d["buffers"].push_back(d["buffers"][0]);
  });
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(served.loads, 2u);  // the .bin once, and the PNG
}

// issue 32: 1e400, even in a key nothing reads, was an error with no byte offset.
TEST(GltfReaderBounds, ANumberPastADoublesRangeIsPlaced) {
  const std::string text = R"({"asset":{"version":"2.0"},"extras":{"unused":1e400}})";
  auto r = gltf::read_gltf(ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  ASSERT_FALSE(r.ok());
  ASSERT_TRUE(r.error().offset.has_value()) << r.error().describe();
  EXPECT_EQ(*r.error().offset, text.find("1e400")) << r.error().describe();
  EXPECT_NE(r.error().message.find("1e400"), std::string::npos) << r.error().message;
}

// issue 32: an object's keys were each looked up among all the keys before them, so a 1 MB object of
// 80,000 keys took 10 s (200,000 keys: minutes). A repeated key keeps its first place and its last
// value, in a small object and a large one, as nlohmann's own parser gives.
TEST(GltfReaderBounds, AnObjectOfManyKeysReadsAndARepeatedKeyKeepsItsPlace) {
  for (const std::size_t keys : {std::size_t{3}, std::size_t{200000}}) {
    std::string text = R"({"asset":{"version":"2.0"},"extras":{"remodel":{)";
    for (std::size_t k = 0; k < keys; ++k) text += "\"k" + std::to_string(k) + "\":" + std::to_string(k) + ",";
    text += R"("k1":"again"}}})";
    auto r = gltf::read_gltf(ByteSpan(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const scene::Extras& extras = r->scene.extras;
    ASSERT_TRUE(extras.is_object());
    ASSERT_EQ(extras.size(), keys) << keys;
    auto second = std::next(extras.begin());
    EXPECT_EQ(second.key(), "k1") << keys;
    EXPECT_EQ(second.value(), "again") << keys;
    EXPECT_EQ(std::prev(extras.end()).key(), "k" + std::to_string(keys - 1)) << keys;
  }
}

// issue 32: a material reading TEXCOORD_1 on a primitive with one UV set was accepted, and the J3D
// author wrote a texgen reading a texcoord the shape never sends.
TEST(GltfReaderBounds, ATextureThroughAUvSetThePrimitiveLacksIsRefused) {
  Served served;
  auto r = read_edited(scene::demo_grid(2, 2), served, [](json& d) {
    d["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["texCoord"] = 1;
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "meshes[0].primitives[0].attributes");
  EXPECT_NE(r.error().message.find("TEXCOORD_1"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("materials[0]"), std::string::npos) << r.error().message;
}

// issue 32: a truncated PNG said "not a readable image: IDA..." and a PNG claiming 65535x65535
// "unknown image type".
TEST(PngMessages, ACutPngAndAHugeOneSayWhatIsWrong) {
  RgbaImage image(16, 16);
  for (std::size_t i = 0; i < image.rgba.size(); ++i) image.rgba[i] = static_cast<std::uint8_t>(i * 7);
  const Bytes png = write_png(image);
  const Bytes cut(png.begin(), png.begin() + static_cast<std::ptrdiff_t>(png.size() / 2));
  auto r = read_png(cut);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("truncated or corrupt"), std::string::npos) << r.error().message;
  Bytes huge = png;
  for (std::size_t at : {16u, 20u}) huge[at] = 0, huge[at + 1] = 0, huge[at + 2] = 0xFF, huge[at + 3] = 0xFF;  // IHDR width, height
  r = read_png(huge);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("65535x65535"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("at most 4096"), std::string::npos) << r.error().message;
}

TEST(AuthorBounds, AMeshDrawnByManyNodesIsNotWrittenOutForEach) {
  scene::Scene s = scene::demo_grid(100, 100);
  s.skins.clear();
  s.animations.clear();
  for (scene::Node& n : s.nodes) n.skin = -1;
  for (scene::Primitive& p : s.meshes[0].primitives) p.influences = 0, p.joints.clear(), p.weights.clear();
  for (int i = 0; i < 200; ++i) s.add_node(scene::Node{"copy", -1, {}, {}, 0, -1, true, nullptr});
  for (const Format f : {Format::j3d, Format::kh_bbs_pmo, Format::mhfu_pac, Format::bwm}) {
    auto made = scene::author(s, f);
    ASSERT_FALSE(made.ok()) << format_name(f);
    EXPECT_EQ(made.error().code, ErrorCode::unsupported) << format_name(f);
    EXPECT_EQ(made.error().field.substr(made.error().field.size() - 5), ".mesh") << made.error().field;
  }
}

}  // namespace
}  // namespace remodel
