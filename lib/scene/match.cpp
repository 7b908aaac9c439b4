#include "scene/match.hpp"

#include <numeric>

namespace remodel::scene {

std::vector<std::uint32_t> drawn_triangles(const Primitive& p) {
  std::vector<std::uint32_t> ix = p.indices;
  if (ix.empty()) {
    ix.resize(p.vertex_count());
    std::iota(ix.begin(), ix.end(), 0u);
  }
  std::vector<std::uint32_t> out;
  out.reserve(ix.size() + 2);
  const auto add = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    if (a != b && b != c && a != c) out.insert(out.end(), {a, b, c});
  };
  switch (p.topology) {
    case Topology::triangles:
      for (std::size_t i = 0; i + 2 < ix.size(); i += 3) add(ix[i], ix[i + 1], ix[i + 2]);
      break;
    case Topology::triangle_strip:
      for (std::size_t i = 0; i + 2 < ix.size(); ++i) {
        if (i % 2 == 0) add(ix[i], ix[i + 1], ix[i + 2]);
        else add(ix[i + 1], ix[i], ix[i + 2]);
      }
      break;
    case Topology::triangle_fan:
      for (std::size_t i = 1; i + 1 < ix.size(); ++i) add(ix[0], ix[i], ix[i + 1]);
      break;
    case Topology::points:
    case Topology::lines:
      break;
  }
  return out;
}

namespace {

template <typename T>
bool same_in(const std::vector<T>& a, std::size_t ia, const std::vector<T>& b, std::size_t ib) {
  if (a.empty() || b.empty()) return true;
  return !(a[ia] != b[ib]);
}

}  // namespace

bool same_vertex(const Primitive& a, std::uint32_t va, const Primitive& b, std::uint32_t vb) {
  if (!same_in(a.positions, va, b.positions, vb) || !same_in(a.normals, va, b.normals, vb) ||
      !same_in(a.colors, va, b.colors, vb))
    return false;
  for (std::size_t s = 0; s < a.uvs.size() && s < b.uvs.size(); ++s)
    if (!same_in(a.uvs[s], va, b.uvs[s], vb)) return false;
  if (a.influences == b.influences && a.influences != 0) {
    for (std::uint32_t k = 0; k < a.influences; ++k) {
      if (a.joints[std::size_t{va} * a.influences + k] != b.joints[std::size_t{vb} * b.influences + k] ||
          a.weights[std::size_t{va} * a.influences + k] != b.weights[std::size_t{vb} * b.influences + k])
        return false;
    }
  }
  return true;
}

std::optional<std::vector<std::uint32_t>> match_vertices(const Primitive& base, const Primitive& incoming) {
  const std::vector<std::uint32_t> bt = drawn_triangles(base);
  const std::vector<std::uint32_t> it = drawn_triangles(incoming);
  if (bt.size() != it.size()) return std::nullopt;
  std::vector<std::uint32_t> match(base.vertex_count(), kUnmatched);
  for (std::size_t t = 0; t < bt.size(); t += 3) {
    // glTF writers may start a triangle at another corner: take the consistent rotation whose corners
    // agree most with matches already made, then with the base's values (rotation 0 on a tie).
    int rotation = -1, best = -1;
    for (int r = 0; r < 3; ++r) {
      int score = 0;
      bool fits = true;
      for (int k = 0; k < 3 && fits; ++k) {
        const std::uint32_t b = bt[t + k], i = it[t + (k + r) % 3];
        if (b >= base.vertex_count() || i >= incoming.vertex_count()) return std::nullopt;
        fits = match[b] == kUnmatched || match[b] == i || same_vertex(incoming, match[b], incoming, i);
        score += match[b] == i ? 4 : same_vertex(base, b, incoming, i) ? 1 : 0;
      }
      if (fits && score > best) {
        rotation = r;
        best = score;
      }
    }
    if (rotation < 0) return std::nullopt;
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t b = bt[t + k];
      if (match[b] == kUnmatched) match[b] = it[t + (k + rotation) % 3];
    }
  }
  return match;
}

}  // namespace remodel::scene
