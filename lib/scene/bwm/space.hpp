// Scene -> BWM space and fields, shared by the BWM lower (over a base) and authoring: the inverses of
// lift.cpp's to_gltf and frame_matrix, names as a BWM's fixed NUL-padded fields hold them, and a
// material reference's index run.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "model/bwm/bwm.hpp"
#include "scene/math.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

constexpr std::size_t kBwmMaxVertices = 65535;  // u16 indices, absolute into the file's one vertex array

// The inverse of lift.cpp's to_gltf (z negated): negation is exact, so it inverts bit for bit.
inline BwmVec3 to_bwm(const Vec3& v) { return {v.x, v.y, -v.z}; }

// The inverse of lift.cpp's frame_matrix: the columns of a right-handed matrix back to D3D rows.
inline BwmBone frame_of(const Mat4& m) {
  const auto column = [&](int c) { return Vec3{m.at(0, c), m.at(1, c), m.at(2, c)}; };
  return {to_bwm(column(2) * -1.0f), to_bwm(column(0)), to_bwm(column(1)), to_bwm(column(3))};
}

// A mesh whose vertices are stored in model space (as authoring stores them): its frame is the identity.
inline void bwm_model_space(BwmMesh& mesh) {
  const BwmBone identity = frame_of(Mat4::identity());
  mesh.zaxis = identity.zaxis, mesh.xaxis = identity.xaxis, mesh.yaxis = identity.yaxis, mesh.position = identity.position;
}

// `name` in an N-byte field that ends in a NUL: its first N - 1 bytes, up to any NUL it holds;
// `cut` says whether anything was left out.
template <std::size_t N>
std::array<std::uint8_t, N> bwm_name(const std::string& name, bool& cut) {
  const std::size_t end = std::min({name.size(), N - 1, name.find('\0')});
  cut = end != name.size();
  std::array<std::uint8_t, N> out{};
  std::copy(name.begin(), name.begin() + static_cast<std::ptrdiff_t>(end), out.begin());
  return out;
}

// The diffuse texture name a material is stored under: the image it shows (the texture's name, else
// its image's name or URI stem when the glTF names only the image, as Blender's do), else the
// material's own name.
inline const std::string& bwm_diffuse_name(const Scene& scene, const Material& m) {
  if (m.texture < 0 || static_cast<std::size_t>(m.texture) >= scene.textures.size()) return m.name;
  const Texture& t = scene.textures[static_cast<std::size_t>(m.texture)];
  return !t.name.empty() ? t.name : !t.image_name.empty() ? t.image_name : m.name;
}

// The share of vertex v's weight that `kept` (strongest_joints' (weight, joint) pairs) leaves out.
inline float bwm_dropped_weight(const Primitive& p, std::size_t v, const std::vector<std::pair<float, int>>& kept) {
  float total = 0, held = 0;
  for (std::size_t k = 0; k < p.influences; ++k) {
    const float w = p.weights[v * p.influences + k];
    if (!(w > 0)) continue;
    total += w;
    const auto joint = static_cast<int>(p.joints[v * p.influences + k]);
    if (std::any_of(kept.begin(), kept.end(), [&](const auto& s) { return s.second == joint; })) held += w;
  }
  return total > 0 ? 1.0f - held / total : 0.0f;
}

// The one warning for a primitive whose `vertices` were narrowed to a skin's 4 bones, `most` the largest
// share of its weight one of them lost.
inline std::string bwm_narrowed_message(std::size_t vertices, float most) {
  char share[16];
  std::snprintf(share, sizeof share, "%.3f", static_cast<double>(most));
  return std::to_string(vertices) + " vertices lean on more than 4 joints: the strongest 4 are kept and renormalised (a BWM skin stores 4), "
                                    "each losing up to " + share + " of its weight";
}

// A material reference's indices from triangles over its own vertices (glTF winding): windings
// reversed (z is mirrored), a list for a model, one strip for a skin (its pieces joined by degenerate
// triangles); indices_size and faces_size as the reference stores them (a strip's count its length - 2,
// as bwm-blender writes and our reader reads). Defined in author.cpp.
struct BwmIndexRun {
  std::vector<std::uint32_t> indices;  // over the reference's vertices
  std::uint32_t indices_size = 0, faces_size = 0;
};
BwmIndexRun bwm_index_run(const std::vector<std::uint32_t>& triangles, std::size_t vertex_count, bool strip);

// The box of some vertices (BWM space), its centre, the radius of the sphere about that centre holding
// them all, the height (y extent) and the box's volume: what a mesh description and the header store.
// Defined in author.cpp.
struct BwmExtent {
  BwmVec3 box1{}, box2{}, center{};
  float radius = 0, height = 0, volume = 0;
};
BwmExtent bwm_extent(std::span<const BwmVec3> positions);

// An extent into the fields of a mesh description or the header (the same names in both).
template <class Record>
void bwm_store_extent(Record& into, const BwmExtent& e) {
  into.box1 = e.box1, into.box2 = e.box2, into.center = e.center, into.radius = e.radius, into.height = e.height, into.volume = e.volume;
}

}  // namespace remodel::scene
