// Vertex matching between a base primitive and one that came back from glTF, on hand-made draws.
#include <gtest/gtest.h>

#include "scene/match.hpp"

namespace remodel::scene {
namespace {

// A quad as a 4-vertex strip: triangles (0,1,2) and (2,1,3).
Primitive quad_strip() {
  Primitive p;
  p.topology = Topology::triangle_strip;
  p.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  p.uvs = {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}};
  return p;
}

TEST(SceneMatch, DrawnTrianglesDropDegeneratesAndKeepWinding) {
  Primitive p = quad_strip();
  p.indices = {0, 1, 2, 3, 3, 4, 4, 5, 6};  // two strips joined by degenerate triangles
  p.positions.resize(7);
  EXPECT_EQ(drawn_triangles(p), (std::vector<std::uint32_t>{0, 1, 2, 2, 1, 3, 4, 5, 6}));
  Primitive fan;
  fan.topology = Topology::triangle_fan;
  fan.positions.resize(4);
  EXPECT_EQ(drawn_triangles(fan), (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3}));
}

TEST(SceneMatch, ReorderedAndRotatedListMatchesEveryVertex) {
  const Primitive base = quad_strip();
  // What a glTF writer may give back: a list, vertices in first-use order reversed, corners rotated.
  Primitive in;
  in.topology = Topology::triangles;
  in.positions = {base.positions[3], base.positions[2], base.positions[1], base.positions[0]};
  in.uvs = {{base.uvs[0][3], base.uvs[0][2], base.uvs[0][1], base.uvs[0][0]}};
  in.indices = {2, 1, 3, /* rotated: */ 2, 0, 1};
  const auto m = match_vertices(base, in);
  ASSERT_TRUE(m);
  EXPECT_EQ(*m, (std::vector<std::uint32_t>{3, 2, 1, 0}));
}

TEST(SceneMatch, SplitVertexWithSameValuesStillMatches) {
  const Primitive base = quad_strip();
  Primitive in = base;
  in.topology = Topology::triangles;
  in.positions.push_back(base.positions[1]);  // vertex 1 duplicated for the second triangle
  in.uvs[0].push_back(base.uvs[0][1]);
  in.indices = {0, 1, 2, 2, 4, 3};
  const auto m = match_vertices(base, in);
  ASSERT_TRUE(m);
  EXPECT_EQ((*m)[1], 1u);
}

TEST(SceneMatch, ChangedTopologyDoesNotMatch) {
  const Primitive base = quad_strip();
  Primitive fewer = base;
  fewer.topology = Topology::triangles;
  fewer.indices = {0, 1, 2};
  EXPECT_FALSE(match_vertices(base, fewer));
  // Same count, but the second triangle joins vertex 1's place to a vertex with another UV.
  Primitive split = base;
  split.topology = Topology::triangles;
  split.positions.push_back(base.positions[1]);
  split.uvs[0].push_back({0.5f, 0.5f});
  split.indices = {0, 1, 2, 2, 4, 3};
  EXPECT_FALSE(match_vertices(base, split));
  Primitive out_of_range = base;
  out_of_range.topology = Topology::triangles;
  out_of_range.indices = {0, 1, 2, 2, 1, 9};
  EXPECT_FALSE(match_vertices(base, out_of_range));
}

TEST(SceneMatch, UnusedBaseVertexStaysUnmatched) {
  Primitive base = quad_strip();
  base.positions.push_back({5, 5, 5});
  base.uvs[0].push_back({0, 0});
  base.topology = Topology::triangles;
  base.indices = {0, 1, 2};
  Primitive in = base;
  const auto m = match_vertices(base, in);
  ASSERT_TRUE(m);
  EXPECT_EQ((*m)[4], kUnmatched);
  EXPECT_EQ((*m)[3], kUnmatched);
}


// Two base quads merged into one incoming list (as Blender merges a material's primitives): each is
// found, corners rotated and every corner its own vertex, within a noise below half a cell.
TEST(SceneMatch, TriangleFinderFindsEachBasePrimitiveInAMergedOne) {
  Primitive a = quad_strip(), b = quad_strip();
  for (Vec3& p : b.positions) p.x += 5;
  Primitive in;
  for (const Primitive* base : {&b, &a}) {
    const std::vector<std::uint32_t> t = drawn_triangles(*base);
    for (std::size_t i = 0; i < t.size(); i += 3) {
      for (std::size_t c : {1, 2, 0}) {  // rotated
        in.positions.push_back(base->positions[t[i + c]] + Vec3{1e-4f, -1e-4f, 0});
        in.indices.push_back(static_cast<std::uint32_t>(in.indices.size()));
      }
    }
  }
  TriangleFinder finder(in, 0.01f);
  auto near = [&](const Primitive& base) {
    return [&](std::uint32_t bv, std::uint32_t iv) { return length(base.positions[bv] - in.positions[iv]) < 1e-3f; };
  };
  const auto fa = finder.claim(a, near(a));
  ASSERT_TRUE(fa);
  EXPECT_EQ(*fa, (std::vector<std::uint32_t>{2, 3}));
  EXPECT_FALSE(finder.claim(a, near(a)));  // its triangles are taken
  const auto fb = finder.claim(b, near(b));
  ASSERT_TRUE(fb);
  EXPECT_EQ(*fb, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_TRUE(finder.unclaimed().empty());
  // Winding matters: a mirrored triangle stands for nothing.
  Primitive flipped = a;
  flipped.topology = Topology::triangles;
  flipped.indices = {0, 2, 1};
  TriangleFinder again(in, 0.01f);
  EXPECT_FALSE(again.claim(flipped, near(flipped)));
  EXPECT_EQ(again.unclaimed().size(), in.indices.size());
}

// Hostile input: every vertex in one cell, each base triangle's match late in it. The work is bounded
// by the input's size, so the search gives up (nothing claimed) instead of taking quadratic time.
TEST(SceneMatch, TriangleFinderWorkIsBoundedOnOneCrowdedCell) {
  Primitive in;
  in.positions.assign(30000, Vec3{0, 0, 0});
  Primitive base = in;
  base.topology = Topology::triangles;
  TriangleFinder finder(in, 1.0f);
  std::size_t calls = 0;
  // Vertex v stands only for vertex v: base triangle t is found after scanning 3t vertices.
  EXPECT_FALSE(finder.claim(base, [&](std::uint32_t b, std::uint32_t i) { return ++calls, b == i; }));
  EXPECT_TRUE(finder.exhausted());
  // Each unit of work compares at most 3 corners; the quadratic search would take 150 million.
  EXPECT_LE(calls, 3u * (32u * (30000 + 30000) + 65536));
  EXPECT_EQ(finder.unclaimed().size(), 30000u);  // nothing stays claimed
}

}  // namespace
}  // namespace remodel::scene
