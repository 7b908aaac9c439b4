// Primitives to triangles, and the one definition of a triangle every format counts by.
//
// A primitive (list, strip, fan or quad list) draws a triangle for each step of its topology; a
// triangle counts (and is emitted) only when its three corners are three different vertices.
// Indexed draws (MHFU command lists, BWM index runs) join strips with repeated indices, and those
// zero-area joins are not triangles. Unindexed draws (KH BBS PMO sections, J3D display lists)
// give every corner its own vertex, so every step counts: n-2 per strip or fan, n/3 per list,
// 2 per quad (as J3D tools load them: a display-list vertex is a vertex, whatever it indexes).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace remodel {

enum class Topology : std::uint8_t { list, strip, fan, quads };

// Three vertex indices. Every triangle of a primitive winds like its first one: odd strip
// triangles swap their first two corners (i+1, i, i+2), and `flip` swaps them in every triangle.
using Triangle = std::array<std::uint32_t, 3>;

// The triangles of one primitive over its corner indices.
void append_triangles(Topology topology, std::span<const std::uint32_t> indices, std::vector<Triangle>& out,
                      bool flip = false);
// The triangles of one unindexed primitive over vertices first .. first + count - 1.
void append_triangles(Topology topology, std::uint32_t first, std::size_t count, std::vector<Triangle>& out,
                      bool flip = false);
std::vector<Triangle> triangles_from(Topology topology, std::span<const std::uint32_t> indices, bool flip = false);

// How many triangles append_triangles would give, without building them.
std::size_t triangle_count(Topology topology, std::span<const std::uint32_t> indices);
std::size_t triangle_count(Topology topology, std::size_t count);  // unindexed

}  // namespace remodel
