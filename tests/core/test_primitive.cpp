#include <gtest/gtest.h>

#include "model/gx/colour.hpp"
#include "model/primitive.hpp"
#include "model/psp/ge.hpp"

namespace remodel {
namespace {

using Tris = std::vector<Triangle>;

TEST(Primitive, StripsAlternateSoEveryTriangleWindsLikeTheFirst) {
  const std::vector<std::uint32_t> ix = {10, 11, 12, 13, 14};
  EXPECT_EQ(triangles_from(Topology::strip, ix), (Tris{{10, 11, 12}, {12, 11, 13}, {12, 13, 14}}));
  EXPECT_EQ(triangles_from(Topology::strip, ix, true), (Tris{{11, 10, 12}, {11, 12, 13}, {13, 12, 14}}));
  EXPECT_EQ(triangles_from(Topology::fan, ix), (Tris{{10, 11, 12}, {10, 12, 13}, {10, 13, 14}}));
  EXPECT_EQ(triangles_from(Topology::list, ix), (Tris{{10, 11, 12}}));  // a partial triangle draws nothing
  const std::vector<std::uint32_t> quad = {0, 1, 2, 3, 4};
  EXPECT_EQ(triangles_from(Topology::quads, quad), (Tris{{0, 1, 2}, {0, 2, 3}}));
}

TEST(Primitive, TrianglesThatRepeatAVertexAreNotTriangles) {
  // Two strips joined by repeating 3 and 4: the four joining triangles have no area.
  const std::vector<std::uint32_t> ix = {0, 1, 2, 3, 3, 4, 4, 5, 6, 7};
  const Tris want = {{0, 1, 2}, {2, 1, 3}, {4, 5, 6}, {6, 5, 7}};
  EXPECT_EQ(triangles_from(Topology::strip, ix), want);
  EXPECT_EQ(triangle_count(Topology::strip, ix), want.size());
  EXPECT_EQ(triangles_from(Topology::list, std::vector<std::uint32_t>{0, 0, 1, 2, 3, 4}), (Tris{{2, 3, 4}}));
  EXPECT_EQ(triangles_from(Topology::fan, std::vector<std::uint32_t>{0, 1, 0, 2}), (Tris{}));
}

TEST(Primitive, UnindexedCountsEveryStep) {
  for (std::size_t n = 0; n < 12; ++n) {
    for (Topology t : {Topology::list, Topology::strip, Topology::fan, Topology::quads}) {
      std::vector<Triangle> out;
      append_triangles(t, 100, n, out);
      EXPECT_EQ(out.size(), triangle_count(t, n)) << static_cast<int>(t) << " " << n;
    }
  }
  EXPECT_EQ(triangle_count(Topology::strip, std::size_t{5}), 3u);
  EXPECT_EQ(triangle_count(Topology::fan, std::size_t{2}), 0u);
  EXPECT_EQ(triangle_count(Topology::list, std::size_t{7}), 2u);
  EXPECT_EQ(triangle_count(Topology::quads, std::size_t{9}), 4u);
  std::vector<Triangle> out;
  append_triangles(Topology::strip, 100, 4, out);
  EXPECT_EQ(out, (Tris{{100, 101, 102}, {102, 101, 103}}));
}

TEST(Primitive, GePrimitiveTypes) {
  EXPECT_EQ(psp::ge_topology(psp::ge::kPrimTriangles), Topology::list);
  EXPECT_EQ(psp::ge_topology(psp::ge::kPrimStrip), Topology::strip);
  EXPECT_EQ(psp::ge_topology(psp::ge::kPrimFan), Topology::fan);
  for (std::uint8_t p : {psp::ge::kPrimPoints, psp::ge::kPrimLines, psp::ge::kPrimLineStrip, psp::ge::kPrimSprites}) {
    EXPECT_EQ(psp::ge_topology(p), std::nullopt) << int{p};
  }
}

// GX colours, computed by hand from the bit layouts (big-endian, red in the top bits).
TEST(GxColour, TexelAndVertexColoursShareOneDecoder) {
  // RGB565 0x1B2C: red 3, green 25, blue 12 -> 24, 101, 99.
  EXPECT_EQ(gx::decode_rgb565(0x1B2C), (Rgba{24, 101, 99, 255}));
  const std::uint8_t rgb565[2] = {0x1B, 0x2C};
  EXPECT_EQ(gx::decode_vertex_colour(0, rgb565), (Rgba{24, 101, 99, 255}));
  // RGB5A3 opaque 0xE07F: 24, 3, 31; translucent 0x3A5F: alpha 3, 10, 5, 15.
  EXPECT_EQ(gx::decode_rgb5a3(0xE07F), (Rgba{198, 24, 255, 255}));
  EXPECT_EQ(gx::decode_rgb5a3(0x3A5F), (Rgba{170, 85, 255, 109}));
  EXPECT_EQ(gx::decode_ia8(0x40C0), (Rgba{0xC0, 0xC0, 0xC0, 0x40}));
  const std::uint8_t rgba4[2] = {0x1F, 0x80}, rgba6[3] = {0x0F, 0x00, 0xFF}, rgb8[3] = {1, 2, 3}, rgba8[4] = {1, 2, 3, 4};
  EXPECT_EQ(gx::decode_vertex_colour(3, rgba4), (Rgba{17, 255, 136, 0}));
  EXPECT_EQ(gx::decode_vertex_colour(4, rgba6), (Rgba{12, 195, 12, 255}));  // 3, 48, 3, 63
  EXPECT_EQ(gx::decode_vertex_colour(1, rgb8), (Rgba{1, 2, 3, 255}));
  EXPECT_EQ(gx::decode_vertex_colour(5, rgba8), (Rgba{1, 2, 3, 4}));
  for (std::uint32_t v = 0; v <= 0xFFFF; ++v) {
    const auto w = static_cast<std::uint16_t>(v);
    ASSERT_EQ(gx::encode_rgb565(gx::decode_rgb565(w).data()), w);
    // A translucent texel with alpha 7 decodes opaque (255) and so encodes as RGB555.
    if ((w & 0xF000) != 0x7000) {
      ASSERT_EQ(gx::encode_rgb5a3(gx::decode_rgb5a3(w).data()), w);
    }
  }
}

}  // namespace
}  // namespace remodel
