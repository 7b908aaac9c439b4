// Which incoming vertex stands for each base vertex, when a primitive comes back from glTF (ours or
// Blender's, which reorders and splits vertices) drawing the same triangles as its base.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "scene/scene.hpp"

namespace remodel::scene {

// The triangles a primitive draws as a list of corner indices, in draw order with each triangle's
// winding; triangles that repeat a vertex draw nothing and are left out (as glTF export leaves them).
std::vector<std::uint32_t> drawn_triangles(const Primitive& p);

// Smooth normals for a mesh that has none (the formats whose meshes are lit): at each vertex the
// sum of its triangles' area-weighted face normals, normalised (zero for a vertex no triangle uses).
std::vector<Vec3> smooth_normals(const std::vector<Vec3>& positions, const std::vector<std::uint32_t>& triangles);

inline constexpr std::uint32_t kUnmatched = 0xFFFFFFFF;

// Matches triangle by triangle, corner by corner (a rotated triangle is still the same one): entry v
// is the incoming vertex for base vertex v, kUnmatched when no drawn triangle uses v. nullopt when
// the triangle counts differ, or a base vertex meets two incoming vertices whose values differ (the
// topology changed, so the primitive must be rebuilt rather than edited in place).
std::optional<std::vector<std::uint32_t>> match_vertices(const Primitive& base, const Primitive& incoming);

// Whether two vertices of two primitives hold the same values in every array both have.
bool same_vertex(const Primitive& a, std::uint32_t va, const Primitive& b, std::uint32_t vb);

// Copies of one base vertex that differ in their normal alone (Blender keeps custom normals per face
// corner, each with its own float noise, so it splits a vertex; moving a vertex turns the corners
// around it apart), matched over the other values of `matched` (`incoming`, or it as the base would
// store it): `out` is `incoming` with every copy's normal their normalised mean, as one stored vertex
// holds one normal (normals Blender dropped take no part; with no other copy the base's stands); `split` counts the base vertices with a copy whose normal differs from the first
// copy's and lies further than `noise` from their mean (distance between unit normals). nullopt: the
// triangles or other values differ.
std::optional<std::vector<std::uint32_t>> match_one_normal(const Primitive& base, const Primitive& matched, const Primitive& incoming, Primitive& out,
                                                           std::size_t& split, float noise);

// Blender's float noise on the vertex values it gives back unedited, measured with Blender 3.4
// (tools/blender_roundtrip.sh) on every J3D sample: positions off by up to 52 float steps of the
// vector's size (riistudio_Mario), UVs by half a step of 1, normals turned by up to 1.3e-2
// (sms_ma_mdl1: custom normals kept at 16 bits in each corner's own frame), most below 7e-4. About
// twice that is no edit: an incoming value within it of the base's is the base's.
inline constexpr float kPositionNoiseSteps = 128;  // float steps (epsilon) of max(|largest component|, 1)
inline constexpr float kNormalNoise = 2.5e-2f;      // distance between the unit normals (1.4 degrees)
// Blender keeps an imported COLOR_0 as sRGB bytes: linear -> sRGB byte -> linear moves 73 of the 256
// byte values by one step (0xC9 comes back 0xCA), none by more.
inline constexpr float kColourNoise = 1.5f / 255.0f;

bool position_within_noise(const Vec3& base, const Vec3& incoming);
bool colour_within_noise(const Vec4& base, const Vec4& incoming);
bool normal_within_noise(const Vec3& base, const Vec3& incoming);
bool uv_within_noise(const Vec2& base, const Vec2& incoming);

// Vertices by position, in cubes as wide as Blender's widest position noise over them: those within
// noise of a point (position_within_noise) lie in the 27 cubes around it. At most kVisits are looked
// at per point, so vertices all at one place (hostile input) cost linear time, not quadratic.
class NoiseCells {
 public:
  explicit NoiseCells(const std::vector<Vec3>& positions);

  // Calls f(v) for each vertex v within noise of `at` until it returns false.
  template <typename Visit>
  void visit(const Vec3& at, Visit&& f) const {
    if (cells_.empty()) return;
    const std::array<std::int64_t, 3> c = cell_of(at);
    std::size_t seen = 0;
    for (std::int64_t dx = -1; dx <= 1; ++dx) {
      for (std::int64_t dy = -1; dy <= 1; ++dy) {
        for (std::int64_t dz = -1; dz <= 1; ++dz) {
          const auto it = cells_.find(key({c[0] + dx, c[1] + dy, c[2] + dz}));
          for (std::size_t k = 0; it != cells_.end() && k < it->second.size(); ++k) {
            if (seen++ == kVisits) return;
            const std::uint32_t v = it->second[k];
            if (position_within_noise(positions_[v], at) && !f(v)) return;
          }
        }
      }
    }
  }

 private:
  static constexpr std::size_t kVisits = 256;
  std::array<std::int64_t, 3> cell_of(const Vec3& v) const;
  static std::uint64_t key(const std::array<std::int64_t, 3>& c);

  std::vector<Vec3> positions_;
  float cell_ = 1;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> cells_;
};

// Blender cannot keep a normal on the corners of a triangle with no area (two corners at one place,
// sms_coin.bmd's rim): it gives them +Z, glTF's +Y. Per vertex of `p`: whether its normal is exactly
// that and every drawn triangle using it has no area, so the normal says nothing.
std::vector<bool> normals_blender_dropped(const Primitive& p);

// The triangles of one incoming primitive that merges several base primitives (Blender joins a mesh's
// primitives and splits them again by material, reordering, splitting and re-valuing vertices within
// float noise), found base primitive by base primitive. Incoming vertices are bucketed by position in
// cubes of `cell` (an incoming corner is found when it lies within half a cell of the base corner on
// every axis), so finding is linear in the triangles; a bound on the total work (a multiple of the
// input's size) makes hostile input (every vertex in one cube) fail to match instead of taking
// quadratic time.
class TriangleFinder {
 public:
  // Whether incoming vertex `incoming` stands for base vertex `base` (in the base's own encoding).
  using Same = std::function<bool(std::uint32_t base, std::uint32_t incoming)>;

  TriangleFinder(const Primitive& incoming, float cell);

  // Claims, for each drawn triangle of `base` (drawn_triangles order), an unclaimed incoming triangle
  // with the same winding (any starting corner) whose corners stand for its corners. Returns the
  // claimed triangles' numbers (triangle u is triangles()[3u .. 3u + 2]), or nullopt, claiming
  // nothing, when some base triangle has none or the work bound is spent.
  std::optional<std::vector<std::uint32_t>> claim(const Primitive& base, const Same& same);
  // The incoming drawn triangles (corner indices) that no claim took, in draw order.
  std::vector<std::uint32_t> unclaimed() const;
  const std::vector<std::uint32_t>& triangles() const { return tris_; }
  // Whether the work bound was spent (every later claim fails).
  bool exhausted() const { return budget_ == 0; }

 private:
  std::uint64_t cell_key(std::int64_t x, std::int64_t y, std::int64_t z) const;
  std::int64_t cell_of(float v) const;
  bool spend();

  float cell_;
  std::vector<std::uint32_t> tris_;                             // drawn triangles, 3 corners each
  std::vector<bool> claimed_;                                   // per triangle
  std::vector<std::pair<std::uint64_t, std::uint32_t>> cells_;  // (cube key, vertex), sorted
  std::vector<std::uint32_t> first_, tri_of_;                   // vertex -> its triangles (CSR)
  std::size_t budget_;
};

}  // namespace remodel::scene
