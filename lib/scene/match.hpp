// Which incoming vertex stands for each base vertex, when a primitive comes back from glTF (ours or
// Blender's, which reorders and splits vertices) drawing the same triangles as its base.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "scene/scene.hpp"

namespace remodel::scene {

// The triangles a primitive draws as a list of corner indices, in draw order with each triangle's
// winding; triangles that repeat a vertex draw nothing and are left out (as glTF export leaves them).
std::vector<std::uint32_t> drawn_triangles(const Primitive& p);

inline constexpr std::uint32_t kUnmatched = 0xFFFFFFFF;

// Matches triangle by triangle, corner by corner (a rotated triangle is still the same one): entry v
// is the incoming vertex for base vertex v, kUnmatched when no drawn triangle uses v. nullopt when
// the triangle counts differ, or a base vertex meets two incoming vertices whose values differ (the
// topology changed, so the primitive must be rebuilt rather than edited in place).
std::optional<std::vector<std::uint32_t>> match_vertices(const Primitive& base, const Primitive& incoming);

// Whether two vertices of two primitives hold the same values in every array both have.
bool same_vertex(const Primitive& a, std::uint32_t va, const Primitive& b, std::uint32_t vb);

}  // namespace remodel::scene
