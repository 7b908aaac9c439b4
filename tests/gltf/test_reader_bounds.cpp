// Issue 32 F2, F3: what the glTF reader decodes follows the file's size, never the number of places
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
