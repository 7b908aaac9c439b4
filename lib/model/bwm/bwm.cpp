#include "model/bwm/bwm.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace remodel {

std::size_t bwm_format_size(BwmFormat f) {
  switch (f) {
    case BwmFormat::f32: return 4;
    case BwmFormat::f32x2: return 8;
    case BwmFormat::f32x3: return 12;
    case BwmFormat::i32: return 4;
    case BwmFormat::u8: return 1;
  }
  return 0;
}

std::size_t BwmStride::size() const {
  std::size_t n = 0;
  for (const BwmAttribute& a : attributes) n += bwm_format_size(a.format);
  return n;
}

std::uint32_t bwm_vertex_count(const Bwm& bwm) {
  if (bwm.stored_vertex_count) return *bwm.stored_vertex_count;
  for (const BwmStride& s : bwm.strides) {
    if (const std::size_t size = s.size(); size != 0) return static_cast<std::uint32_t>(std::min<std::size_t>(s.vertices.size() / size, 0xFFFFFFFF));
  }
  return 0;
}

bool looks_like_bwm(ByteSpan b) {
  static const std::uint8_t magic[4] = {0xE5, 0xB1, 0x00, 0x2B};
  return b.size() >= 0x30 && std::memcmp(b.data(), "LiOnHeAdMODEL", 13) == 0 && std::memcmp(b.data() + 0x2C, magic, 4) == 0;
}

namespace {

float f32_at(const Bytes& b, std::size_t at) {
  float f;
  std::memcpy(&f, b.data() + at, 4);  // BWM is little-endian, as is every host remodel builds on
  return f;
}

}  // namespace

Result<BwmVertices> decode_bwm_vertices(const Bwm& bwm) {
  BwmVertices out;
  const std::size_t n = bwm_vertex_count(bwm);
  std::size_t joint_slot = 0, weight_slot = 0;
  for (std::size_t s = 0; s < bwm.strides.size(); ++s) {
    const BwmStride& stride = bwm.strides[s];
    const std::size_t size = stride.size();
    if (stride.vertices.size() != n * size) {
      return Error{ErrorCode::inconsistent, std::nullopt, "stride[" + std::to_string(s) + "].vertices",
                   "holds " + std::to_string(stride.vertices.size()) + " bytes, not " + std::to_string(n) + " x " +
                       std::to_string(size)};
    }
    std::size_t offset = 0;
    for (const BwmAttribute& a : stride.attributes) {
      const auto field = [&](std::size_t v, std::size_t k) { return f32_at(stride.vertices, v * size + offset + 4 * k); };
      if (a.id == 0 && a.format == BwmFormat::f32x3) {
        out.positions.resize(n);
        for (std::size_t v = 0; v < n; ++v) out.positions[v] = {field(v, 0), field(v, 1), field(v, 2)};
      } else if (a.id == 1 && a.format == BwmFormat::f32x3) {
        out.normals.resize(n);
        for (std::size_t v = 0; v < n; ++v) out.normals[v] = {field(v, 0), field(v, 1), field(v, 2)};
      } else if (a.id == 2 && a.format == BwmFormat::f32x2) {
        auto& set = out.uv_sets.emplace_back(n);
        for (std::size_t v = 0; v < n; ++v) set[v] = {field(v, 0), field(v, 1)};
      } else if (a.id == 6 && a.format == BwmFormat::u8 && joint_slot < 4) {
        out.joints.resize(n);
        for (std::size_t v = 0; v < n; ++v) out.joints[v][joint_slot] = stride.vertices[v * size + offset];
        ++joint_slot;
      } else if (a.id == 7 && a.format == BwmFormat::f32 && weight_slot < 4) {
        out.weights.resize(n);
        for (std::size_t v = 0; v < n; ++v) out.weights[v][weight_slot] = field(v, 0);
        ++weight_slot;
      }
      offset += bwm_format_size(a.format);
    }
  }
  return out;
}

Result<std::vector<Triangle>> bwm_triangles(const Bwm& bwm, const BwmMaterialRef& ref) {
  const bool strip = bwm.type == 3;
  const std::uint64_t count = std::uint64_t{ref.indices_size} + (strip && ref.indices_size > 0 ? 2 : 0);
  if (std::uint64_t{ref.indices_offset} + count > bwm.indices.size()) {
    return Error{ErrorCode::bad_value, std::nullopt, "material_ref.indices_size",
                 "the range " + std::to_string(ref.indices_offset) + "+" + std::to_string(count) +
                     " runs past the " + std::to_string(bwm.indices.size()) + " indices"};
  }
  const auto first = bwm.indices.begin() + static_cast<std::ptrdiff_t>(ref.indices_offset);
  const std::vector<std::uint32_t> ix(first, first + static_cast<std::ptrdiff_t>(count));
  return triangles_from(strip ? Topology::strip : Topology::list, ix);
}

void add_info(const Bwm& bwm, DocumentInfo& info) {
  info.models += 1;
  info.sections += bwm.meshes.size();
  info.vertices += bwm_vertex_count(bwm);
  for (const BwmMesh& m : bwm.meshes) {
    for (const BwmMaterialRef& r : m.material_refs) {
      if (auto t = bwm_triangles(bwm, r)) info.triangles += t->size();
    }
  }
  info.joints += bwm.bones.size();
  info.materials += bwm.materials.size();
}

}  // namespace remodel
