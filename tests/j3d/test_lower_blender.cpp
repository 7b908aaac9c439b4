// The J3D lower under Blender's round trip, made in code (tests/blender_like.hpp): every BMD/BDL
// sample gives its own bytes back, with and without Blender's vertex noise, and edits made after
// Blender's changes reach only what they touch.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <vector>

#include "blender_like.hpp"
#include "j3d/lower_fixture.hpp"
#include "model/j3d/j3d.hpp"
#include "model/j3d/texture.hpp"
#include "scene/match.hpp"

namespace remodel {
namespace {

using namespace j3d_lower_test;

void expect_every_sample_back(void (*blender)(scene::Scene&)) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    const Bytes bytes = test::load_file(path);
    auto doc = read_document(bytes);
    ASSERT_TRUE(doc.ok());
    auto s = scene::lift(*doc);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    blender(*s);
    auto lowered = scene::lower(*s, *doc);
    ASSERT_TRUE(lowered.ok()) << lowered.error().describe();
    for (const auto& w : lowered->warnings) ADD_FAILURE() << w.where << ": " << w.message;
    auto out = write_document(lowered->document);
    ASSERT_TRUE(out.ok());
    EXPECT_TRUE(*out == bytes) << "the Blender-like round trip is not the original";
  }
}

// Blender's round trip made in code (tests/blender_like.hpp): extras gone, `_COLOR_0` gone, flat
// normals split per corner where there were none, materials reordered, only the textures materials
// show (one per material, unnamed), bones turned with Blender's noise. Every sample gives its own
// bytes: textures match through the materials, the turns and noise are no edit, base vertices keep
// their colours, normals the shape does not draw take no part in matching.
void blender_like(scene::Scene& s) {
  test::strip_extras_like_blender(s);
  test::drop_unshown_colours_like_blender(s);
  test::flat_normals_like_blender(s);
  test::prune_textures_like_blender(s);
  test::turn_bones_like_blender(s);
}

TEST(LowerJ3d, BlenderLikeRoundTripGivesTheSameBytes) { expect_every_sample_back(blender_like); }

// And with Blender's vertex noise: every corner its own vertex, positions up to 32 float steps off,
// each corner's normal turned by 1e-2 its own way, UVs through the V flip. Within the noise bounds
// (scene/match.hpp) every value keeps its stored element and every shape its display lists.
void blender_like_with_noise(scene::Scene& s) {
  blender_like(s);
  test::merge_primitives_like_blender(s);
  test::vertex_noise_like_blender(s);
}

TEST(LowerJ3d, BlenderLikeVertexNoiseGivesTheSameBytes) { expect_every_sample_back(blender_like_with_noise); }

// A vertex moved past the noise is an edit under Blender's noise too: the same bytes as the move
// alone, which appends one position element and points only that vertex's copies at it.
TEST(LowerJ3d, BlenderLikeVertexNoiseKeepsAMovedVertex) {
  for (const char* name : {"ww_cl.bdl", "sms_coin.bmd"}) {
    SCOPED_TRACE(name);
    LOAD_OR_SKIP(b, name);
    scene::Scene moved = b.scene;
    scene::Primitive& p = moved.meshes[0].primitives[0];
    ASSERT_GT(p.vertex_count(), 0u);
    const scene::Vec3 from = p.positions[0];
    const scene::Vec3 to = from + scene::Vec3{0.25f, -0.125f, 0.0625f} * std::max(1.0f, scene::length(from) / 8);
    ASSERT_FALSE(scene::position_within_noise(from, to));
    std::size_t copies = 0;
    for (auto& v : p.positions) {
      if (v == from) {
        v = to;
        ++copies;
      }
    }
    const Output alone = lower_and_reread(moved, b);
    ASSERT_FALSE(alone.bytes.empty());
    EXPECT_FALSE(alone.bytes == b.bytes) << "the move changed nothing";
    // Only the moved vertex changed: one position appended, every other value where it was.
    const J3dVtx1& was = section<J3dVtx1>(std::get<J3dFile>(b.doc));
    const J3dVtx1& now = section<J3dVtx1>(alone.file);
    for (std::size_t a = 0; a < was.arrays.size(); ++a) {
      const std::size_t grown = now.arrays[a].data.size() - was.arrays[a].data.size();
      EXPECT_EQ(grown, a == 0 ? j3d_vertex_element_size(now, was.arrays[a].slot) : 0u) << "array " << a;
      EXPECT_TRUE(std::equal(was.arrays[a].data.begin(), was.arrays[a].data.end(), now.arrays[a].data.begin())) << "array " << a;
    }
    const scene::Primitive& q = alone.scene.meshes[0].primitives[0];
    ASSERT_EQ(q.vertex_count(), p.vertex_count());
    std::size_t changed = 0;
    for (std::size_t v = 0; v < q.vertex_count(); ++v) {
      if (!(q.positions[v] == b.scene.meshes[0].primitives[0].positions[v])) ++changed;
    }
    EXPECT_EQ(changed, copies);
    expect_diff_only(b.doc, alone.bytes, {at(alone.file, "VTX1") + ".arrays", at(alone.file, "SHP1") + ".packets"});

    // Under Blender's noise: the same file but for the moved position, which carries the noise too.
    scene::Scene noisy = moved;
    blender_like_with_noise(noisy);
    const Output o = lower_and_reread(noisy, b);
    ASSERT_FALSE(o.bytes.empty());
    EXPECT_TRUE(o.warnings.empty());
    ASSERT_EQ(o.bytes.size(), alone.bytes.size());
    expect_other_sections_equal(alone.file, o.file, {"VTX1"});
    const J3dVtx1& got = section<J3dVtx1>(o.file);
    for (std::size_t a = 0; a < now.arrays.size(); ++a) {
      const std::size_t kept = a == 0 ? was.arrays[a].data.size() : now.arrays[a].data.size();
      EXPECT_TRUE(std::equal(now.arrays[a].data.begin(), now.arrays[a].data.begin() + static_cast<std::ptrdiff_t>(kept), got.arrays[a].data.begin())) << "array " << a;
    }
    const scene::Primitive& r = o.scene.meshes[0].primitives[0];
    ASSERT_EQ(r.positions.size(), q.positions.size());
    for (std::size_t v = 0; v < r.vertex_count(); ++v) EXPECT_TRUE(scene::position_within_noise(q.positions[v], r.positions[v])) << v;
  }
}

// One triangle's corners painted under Blender's noise (every corner its own vertex, colours through
// sRGB bytes): the shape is rebuilt, and each other corner keeps the colour element of the base
// vertex within noise of it, so CLR0 grows by the paint alone and only the painted corners change.
TEST(LowerJ3d, BlenderLikePaintedCornersLeaveTheirNeighboursColours) {
  LOAD_OR_SKIP(b, "mkdd_mariotree1.bmd");
  scene::Scene s = b.scene;
  blender_like(s);
  test::merge_primitives_like_blender(s);
  scene::Primitive* painted = nullptr;
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) {
      if (painted == nullptr && !p.colors.empty()) painted = &p;
    }
  }
  ASSERT_NE(painted, nullptr) << "a primitive draws vertex colours";
  const std::vector<std::uint32_t> corners = scene::drawn_triangles(*painted);
  ASSERT_GE(corners.size(), 3u);
  const scene::Vec4 red{1, 0, 0, 1};
  for (std::size_t k = 0; k < 3; ++k) {
    ASSERT_FALSE(scene::colour_within_noise(painted->colors[corners[k]], red));
    painted->colors[corners[k]] = red;
  }
  test::vertex_noise_like_blender(s);
  const Output o = lower_and_reread(s, b);
  ASSERT_FALSE(o.bytes.empty());

  const J3dVtx1& was = section<J3dVtx1>(std::get<J3dFile>(b.doc));
  const J3dVtx1& now = section<J3dVtx1>(o.file);
  ASSERT_EQ(was.arrays.size(), now.arrays.size());
  for (std::size_t a = 0; a < was.arrays.size(); ++a) {
    const std::size_t grown = now.arrays[a].data.size() - was.arrays[a].data.size();
    EXPECT_EQ(grown, was.arrays[a].slot == 3 ? j3d_vertex_element_size(now, 3) : 0u) << "array " << a;
    EXPECT_TRUE(std::equal(was.arrays[a].data.begin(), was.arrays[a].data.end(), now.arrays[a].data.begin())) << "array " << a;
  }
  // Every drawn corner holds a colour the base holds at its place, but the three painted ones: red.
  std::map<std::array<float, 3>, std::vector<scene::Vec4>> base_colours;
  for (const scene::Mesh& m : b.scene.meshes) {
    for (const scene::Primitive& p : m.primitives) {
      for (std::size_t v = 0; v < p.colors.size(); ++v) base_colours[{p.positions[v].x, p.positions[v].y, p.positions[v].z}].push_back(p.colors[v]);
    }
  }
  std::size_t red_corners = 0, other = 0;
  for (const scene::Mesh& m : o.scene.meshes) {
    for (const scene::Primitive& p : m.primitives) {
      if (p.colors.empty()) continue;
      for (std::uint32_t v : scene::drawn_triangles(p)) {
        const auto& at = base_colours[{p.positions[v].x, p.positions[v].y, p.positions[v].z}];
        if (std::find(at.begin(), at.end(), p.colors[v]) != at.end()) continue;
        (p.colors[v] == red ? red_corners : other) += 1;
      }
    }
  }
  EXPECT_EQ(red_corners, 3u);
  EXPECT_EQ(other, 0u);
}

// Edits after Blender's changes reach only what they touch: a replaced image of one material's
// texture (ww_cl's hitomi, TEX1 39, mirrored) and a moved joint.
TEST(LowerJ3d, BlenderLikeEditsChangeOnlyWhatTheyTouch) {
  LOAD_OR_SKIP(b, "ww_cl.bdl");
  const J3dFile& base = std::get<J3dFile>(b.doc);
  {
    scene::Scene s = b.scene;
    const std::size_t tex = 39;
    ASSERT_GT(s.textures.size(), tex);
    ASSERT_EQ(s.textures[tex].name, "hitomi");
    RgbaImage image = s.textures[tex].image;
    // Mirrored: the C8 palette's own colours, so the edit needs no new palette (TEX1 0 shares it).
    for (std::size_t y = 0; y < image.height; ++y) {
      for (std::size_t x = 0; x < image.width / 2; ++x) {
        for (std::size_t c = 0; c < 4; ++c) std::swap(image.rgba[(y * image.width + x) * 4 + c], image.rgba[(y * image.width + image.width - 1 - x) * 4 + c]);
      }
    }
    ASSERT_FALSE(image == s.textures[tex].image);
    test::strip_extras_like_blender(s);
    test::prune_textures_like_blender(s);
    test::turn_bones_like_blender(s);
    bool replaced = false;
    for (const scene::Material& m : s.materials) {
      if (m.name == "eyeL") {
        ASSERT_GE(m.texture, 0);
        s.textures[static_cast<std::size_t>(m.texture)].image = image;
        replaced = true;
      }
    }
    ASSERT_TRUE(replaced);
    const Output o = lower_and_reread(s, b);
    ASSERT_FALSE(o.bytes.empty());
    J3dTex1 want = section<J3dTex1>(base);
    ASSERT_TRUE(replace_j3d_texture(want, tex, image).ok());
    const J3dTex1& got = section<J3dTex1>(o.file);
    ASSERT_EQ(got.blocks.size(), want.blocks.size());
    for (std::size_t k = 0; k < got.blocks.size(); ++k) EXPECT_TRUE(got.blocks[k].data == want.blocks[k].data) << k;
    EXPECT_TRUE(got.names.names == section<J3dTex1>(base).names.names);  // unnamed textures rename nothing
    expect_other_sections_equal(base, o.file, {"TEX1"});
  }
  {
    scene::Scene s = b.scene;
    const std::size_t joint = 5;
    ASSERT_GT(s.skins.at(0).joints.size(), joint);
    scene::Node& n = s.nodes[static_cast<std::size_t>(s.skins[0].joints[joint])];
    const scene::Vec3 want = n.local.translation + scene::Vec3{2.0f, -1.0f, 0.5f};
    n.local.translation = want;
    test::strip_extras_like_blender(s);
    test::turn_bones_like_blender(s);
    const Output o = lower_and_reread(s, b);
    ASSERT_FALSE(o.bytes.empty());
    const auto& was = section<J3dJnt1>(base).joints;
    const auto& now = section<J3dJnt1>(o.file).joints;
    ASSERT_EQ(was.size(), now.size());
    for (std::size_t j = 0; j < was.size(); ++j) {
      if (j == joint) continue;
      EXPECT_TRUE(was[j].translation == now[j].translation && was[j].rotation == now[j].rotation && was[j].scale == now[j].scale) << j;
    }
    EXPECT_TRUE(was[joint].rotation == now[joint].rotation && was[joint].scale == now[joint].scale);
    const scene::Vec3 got{now[joint].translation[0], now[joint].translation[1], now[joint].translation[2]};
    EXPECT_LE(distance(got, want), 0.01f);  // within the noise added
    expect_other_sections_equal(base, o.file, {"JNT1", "EVP1", "VTX1", "SHP1", "INF1"});
  }
}

}  // namespace
}  // namespace remodel
