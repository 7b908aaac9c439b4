#include "scene/match.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
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

std::optional<std::vector<std::uint32_t>> match_one_normal(const Primitive& base, const Primitive& matched, const Primitive& incoming, Primitive& out,
                                                           std::size_t& split, float noise) {
  Primitive bare = matched;
  bare.normals.clear();  // same_vertex compares the arrays both primitives have
  std::optional<std::vector<std::uint32_t>> match = match_vertices(base, bare);
  if (!match || incoming.normals.size() != incoming.vertex_count() || bare.vertex_count() != incoming.vertex_count()) return std::nullopt;
  const std::vector<std::uint32_t> bt = drawn_triangles(base), it = drawn_triangles(bare);
  const std::vector<bool> dropped = normals_blender_dropped(incoming);
  std::vector<std::uint32_t> copy_of(incoming.vertex_count(), kUnmatched), first(base.vertex_count(), kUnmatched);
  std::vector<Vec3> sum(base.vertex_count(), Vec3{0, 0, 0});
  std::vector<std::int8_t> differs(base.vertex_count(), 0);
  for (std::size_t t = 0; t < bt.size(); t += 3) {
    // The corners as match_vertices paired them: the first rotation whose corners stand for the base's.
    std::size_t rotation = 0;
    const auto fits = [&](std::size_t r) {
      for (std::size_t k = 0; k < 3; ++k) {
        if (!same_vertex(bare, (*match)[bt[t + k]], bare, it[t + (k + r) % 3])) return false;
      }
      return true;
    };
    while (rotation < 3 && !fits(rotation)) ++rotation;
    for (std::size_t k = 0; k < 3 && rotation < 3; ++k) {
      const std::uint32_t b = bt[t + k], i = it[t + (k + rotation) % 3];
      if (copy_of[i] != kUnmatched) continue;
      copy_of[i] = b;
      if (dropped[i]) continue;  // says nothing: the other copies' mean, else the base's normal
      if (first[b] == kUnmatched) first[b] = i;
      sum[b] = sum[b] + normalize(incoming.normals[i]);
    }
  }
  out = incoming;
  for (std::size_t i = 0; i < copy_of.size(); ++i) {
    if (copy_of[i] == kUnmatched) continue;
    const std::uint32_t b = copy_of[i];
    if (first[b] == kUnmatched) {
      if (b < base.normals.size()) out.normals[i] = base.normals[b];
      continue;
    }
    out.normals[i] = normalize(sum[b]);
    // Split: a copy unlike the first that lies further than the noise from their mean.
    const Vec3 n = normalize(incoming.normals[i]);
    if (!dropped[i] && !(n == normalize(incoming.normals[first[b]])) && !(length(n - out.normals[i]) <= noise)) differs[b] = 1;
  }
  split = static_cast<std::size_t>(std::count(differs.begin(), differs.end(), 1));
  return match;
}

namespace {

// Within `steps` float steps of the larger of the value's magnitude and 1 (noise is relative to the
// vector's size: one component near zero moves with the others' rounding).
bool near_floats(const float* base, const float* incoming, std::size_t n, float steps) {
  float size = 1.0f;
  for (std::size_t c = 0; c < n; ++c) size = std::max(size, std::fabs(base[c]));
  const float bound = steps * size * std::numeric_limits<float>::epsilon();
  for (std::size_t c = 0; c < n; ++c) {
    if (!(std::fabs(base[c] - incoming[c]) <= bound)) return false;
  }
  return true;
}

}  // namespace

bool position_within_noise(const Vec3& base, const Vec3& incoming) {
  const float a[3] = {base.x, base.y, base.z}, b[3] = {incoming.x, incoming.y, incoming.z};
  return near_floats(a, b, 3, kPositionNoiseSteps);
}

bool uv_within_noise(const Vec2& base, const Vec2& incoming) {
  const float a[2] = {base.x, base.y}, b[2] = {incoming.x, incoming.y};
  return near_floats(a, b, 2, kPositionNoiseSteps);
}

bool colour_within_noise(const Vec4& base, const Vec4& incoming) {
  return std::fabs(base.x - incoming.x) <= kColourNoise && std::fabs(base.y - incoming.y) <= kColourNoise && std::fabs(base.z - incoming.z) <= kColourNoise &&
         std::fabs(base.w - incoming.w) <= kColourNoise;
}

bool normal_within_noise(const Vec3& base, const Vec3& incoming) {
  return length(normalize(base) - normalize(incoming)) <= kNormalNoise;
}

NoiseCells::NoiseCells(const std::vector<Vec3>& positions) : positions_(positions) {
  float size = 1;
  for (const Vec3& v : positions) size = std::max({size, std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  cell_ = kPositionNoiseSteps * size * std::numeric_limits<float>::epsilon();
  for (std::uint32_t v = 0; v < positions.size(); ++v) cells_[key(cell_of(positions[v]))].push_back(v);
}

std::array<std::int64_t, 3> NoiseCells::cell_of(const Vec3& v) const {
  const auto one = [&](float x) {
    const float q = std::floor(x / cell_);
    return std::fabs(q) < 1e12f ? static_cast<std::int64_t>(q) : std::int64_t{1} << 40;  // far or not finite: one cell
  };
  return {one(v.x), one(v.y), one(v.z)};
}

std::uint64_t NoiseCells::key(const std::array<std::int64_t, 3>& c) {
  return (static_cast<std::uint64_t>(c[0]) * 0x9E3779B97F4A7C15ull) ^ (static_cast<std::uint64_t>(c[1]) * 0xC2B2AE3D27D4EB4Full) ^ static_cast<std::uint64_t>(c[2]);
}

std::vector<bool> normals_blender_dropped(const Primitive& p) {
  std::vector<bool> out(p.vertex_count(), false);
  if (p.normals.size() != p.vertex_count()) return out;
  std::vector<std::int8_t> seen(p.vertex_count(), 0);  // 1: only triangles with no area so far, -1: one with area
  const std::vector<std::uint32_t> t = drawn_triangles(p);
  for (std::size_t i = 0; i + 2 < t.size(); i += 3) {
    if (std::max({t[i], t[i + 1], t[i + 2]}) >= p.vertex_count()) return out;
    const Vec3 n = cross(p.positions[t[i + 1]] - p.positions[t[i]], p.positions[t[i + 2]] - p.positions[t[i]]);
    const bool flat = n.x == 0 && n.y == 0 && n.z == 0;
    for (std::size_t k = 0; k < 3; ++k) {
      std::int8_t& s = seen[t[i + k]];
      s = !flat ? -1 : s == 0 ? 1 : s;
    }
  }
  for (std::size_t v = 0; v < out.size(); ++v) out[v] = seen[v] == 1 && p.normals[v] == Vec3{0, 1, 0};
  return out;
}

std::vector<Vec3> smooth_normals(const std::vector<Vec3>& positions, const std::vector<std::uint32_t>& triangles) {
  std::vector<Vec3> out(positions.size(), Vec3{});
  for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
    const Vec3 a = positions[triangles[t]], b = positions[triangles[t + 1]], c = positions[triangles[t + 2]];
    const Vec3 n = cross(b - a, c - a);  // its length is twice the area: larger triangles weigh more
    for (std::size_t k = 0; k < 3; ++k) out[triangles[t + k]] = out[triangles[t + k]] + n;
  }
  for (Vec3& n : out) n = normalize(n);
  return out;
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

TriangleFinder::TriangleFinder(const Primitive& incoming, float cell)
    : cell_(std::isfinite(cell) && cell > 0.0f ? cell : 1.0f), tris_(drawn_triangles(incoming)) {
  const std::size_t vc = incoming.vertex_count();
  // drawn_triangles of a primitive whose indices point past its vertices: nothing can be found.
  if (std::any_of(tris_.begin(), tris_.end(), [&](std::uint32_t v) { return v >= vc; })) tris_.clear();
  claimed_.assign(tris_.size() / 3, false);
  budget_ = 32 * (vc + tris_.size()) + (std::size_t{1} << 16);
  cells_.reserve(vc);
  for (std::uint32_t v = 0; v < vc; ++v) {
    const Vec3& p = incoming.positions[v];
    cells_.emplace_back(cell_key(cell_of(p.x), cell_of(p.y), cell_of(p.z)), v);
  }
  std::sort(cells_.begin(), cells_.end());
  first_.assign(vc + 1, 0);
  for (std::uint32_t v : tris_) ++first_[v + 1];
  for (std::size_t v = 0; v < vc; ++v) first_[v + 1] += first_[v];
  tri_of_.resize(tris_.size());
  std::vector<std::uint32_t> next(first_.begin(), first_.end() - 1);
  for (std::size_t c = 0; c < tris_.size(); ++c) tri_of_[next[tris_[c]]++] = static_cast<std::uint32_t>(c / 3);
}

std::int64_t TriangleFinder::cell_of(float v) const {
  // Far-out or non-finite coordinates share the outermost cells: they are compared, not hashed, anyway.
  const double c = std::floor(static_cast<double>(v) / cell_);
  if (!(c > -1e15)) return -(std::int64_t{1} << 50);
  if (!(c < 1e15)) return std::int64_t{1} << 50;
  return static_cast<std::int64_t>(c);
}

std::uint64_t TriangleFinder::cell_key(std::int64_t x, std::int64_t y, std::int64_t z) const {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::int64_t c : {x, y, z}) h = (h ^ static_cast<std::uint64_t>(c)) * 0x100000001b3ull + (h >> 29);
  return h;
}

bool TriangleFinder::spend() {
  if (budget_ == 0) return false;
  --budget_;
  return true;
}

std::optional<std::vector<std::uint32_t>> TriangleFinder::claim(const Primitive& base, const Same& same) {
  const std::vector<std::uint32_t> bt = drawn_triangles(base);
  std::vector<std::uint32_t> out;
  out.reserve(bt.size() / 3);
  auto give_back = [&]() {
    for (std::uint32_t t : out) claimed_[t] = false;
    return std::nullopt;
  };
  for (std::size_t t = 0; t < bt.size(); t += 3) {
    const std::uint32_t a = bt[t], b = bt[t + 1], c = bt[t + 2];
    if (std::max({a, b, c}) >= base.vertex_count()) return give_back();
    const Vec3& q = base.positions[a];
    // The cubes within half a cell of the corner on every axis: its own and the nearer neighbour.
    std::int64_t lo[3], hi[3];
    const float qs[3] = {q.x, q.y, q.z};
    for (int k = 0; k < 3; ++k) {
      const std::int64_t own = cell_of(qs[k]);
      const double frac = static_cast<double>(qs[k]) / cell_ - std::floor(static_cast<double>(qs[k]) / cell_);
      lo[k] = frac < 0.5 ? own - 1 : own;
      hi[k] = lo[k] + 1;
    }
    std::optional<std::uint32_t> found;
    for (int i = 0; i < 8 && !found; ++i) {
      const std::uint64_t key = cell_key(i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]);
      auto it = std::lower_bound(cells_.begin(), cells_.end(), std::pair<std::uint64_t, std::uint32_t>{key, 0});
      for (; it != cells_.end() && it->first == key && !found; ++it) {
        if (!spend()) return give_back();
        const std::uint32_t v = it->second;
        if (!same(a, v)) continue;
        for (std::uint32_t k = first_[v]; k < first_[v + 1] && !found; ++k) {
          const std::uint32_t u = tri_of_[k];
          if (claimed_[u]) continue;
          if (!spend()) return give_back();
          const std::uint32_t* corners = &tris_[std::size_t{u} * 3];
          const int r = corners[0] == v ? 0 : corners[1] == v ? 1 : 2;
          if (same(b, corners[(r + 1) % 3]) && same(c, corners[(r + 2) % 3])) found = u;
        }
      }
    }
    if (!found) return give_back();
    claimed_[*found] = true;
    out.push_back(*found);
  }
  return out;
}

std::vector<std::uint32_t> TriangleFinder::unclaimed() const {
  std::vector<std::uint32_t> out;
  for (std::size_t u = 0; u < claimed_.size(); ++u) {
    if (!claimed_[u]) out.insert(out.end(), tris_.begin() + static_cast<std::ptrdiff_t>(3 * u), tris_.begin() + static_cast<std::ptrdiff_t>(3 * u + 3));
  }
  return out;
}

}  // namespace remodel::scene
