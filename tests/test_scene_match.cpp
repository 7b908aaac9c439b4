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

}  // namespace
}  // namespace remodel::scene
