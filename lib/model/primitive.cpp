#include "model/primitive.hpp"

#include <utility>

namespace remodel {

namespace {

// Calls emit(a, b, c) for each step of the topology over corners at(0) .. at(n - 1), wound alike,
// skipping triangles that repeat a vertex.
template <typename At, typename Emit>
void for_each_triangle(Topology topology, std::size_t n, bool flip, At at, Emit emit) {
  const auto put = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c, bool swap) {
    if (a == b || b == c || a == c) return;  // no area: a join between strips
    if (swap != flip) std::swap(a, b);
    emit(a, b, c);
  };
  switch (topology) {
    case Topology::list:
      for (std::size_t i = 0; i + 2 < n; i += 3) put(at(i), at(i + 1), at(i + 2), false);
      break;
    case Topology::strip:
      for (std::size_t i = 0; i + 2 < n; ++i) put(at(i), at(i + 1), at(i + 2), i % 2 == 1);
      break;
    case Topology::fan:
      for (std::size_t i = 1; i + 1 < n; ++i) put(at(0), at(i), at(i + 1), false);
      break;
    case Topology::quads:
      for (std::size_t i = 0; i + 3 < n; i += 4) {
        put(at(i), at(i + 1), at(i + 2), false);
        put(at(i), at(i + 2), at(i + 3), false);
      }
      break;
  }
}

}  // namespace

void append_triangles(Topology topology, std::span<const std::uint32_t> indices, std::vector<Triangle>& out, bool flip) {
  for_each_triangle(topology, indices.size(), flip, [&](std::size_t i) { return indices[i]; },
                    [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) { out.push_back({a, b, c}); });
}

void append_triangles(Topology topology, std::uint32_t first, std::size_t count, std::vector<Triangle>& out, bool flip) {
  for_each_triangle(topology, count, flip, [&](std::size_t i) { return static_cast<std::uint32_t>(first + i); },
                    [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) { out.push_back({a, b, c}); });
}

std::vector<Triangle> triangles_from(Topology topology, std::span<const std::uint32_t> indices, bool flip) {
  std::vector<Triangle> out;
  append_triangles(topology, indices, out, flip);
  return out;
}

std::size_t triangle_count(Topology topology, std::span<const std::uint32_t> indices) {
  std::size_t n = 0;
  for_each_triangle(topology, indices.size(), false, [&](std::size_t i) { return indices[i]; },
                    [&](std::uint32_t, std::uint32_t, std::uint32_t) { ++n; });
  return n;
}

std::size_t triangle_count(Topology topology, std::size_t count) {
  switch (topology) {
    case Topology::list: return count / 3;
    case Topology::strip:
    case Topology::fan: return count > 2 ? count - 2 : 0;
    case Topology::quads: return count / 4 * 2;
  }
  return 0;
}

}  // namespace remodel
