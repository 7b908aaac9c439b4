// J3D decoders for export: a file's sections by type, attribute arrays to numbers, packet matrix
// slots, skinning weights and joint world matrices.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <variant>
#include <vector>

#include "model/error.hpp"
#include "model/j3d/j3d.hpp"
#include "model/matrix_palette.hpp"

namespace remodel {

// The file's section of type T (each appears at most once), or nullptr.
template <typename T>
const T* j3d_section(const J3dFile& f) {
  for (const J3dSection& s : f.sections) {
    if (const auto* p = std::get_if<T>(&s)) return p;
  }
  return nullptr;
}
template <typename T>
T* j3d_section(J3dFile& f) {
  return const_cast<T*>(j3d_section<T>(std::as_const(f)));
}

struct J3dDecodedArray {
  std::size_t components = 0;  // per element: 2-3 positions, 3 normals, 4 colours (0-1), 1-2 UVs
  std::vector<float> values;   // element-major
  std::size_t count() const { return components == 0 ? 0 : values.size() / components; }
};

// The array in `slot` (0 position, 1 normal, 3-4 colour, 5-12 UV) with its fixed-point shift applied.
Result<J3dDecodedArray> j3d_decode_array(const J3dVtx1& vtx, std::uint8_t slot);

// The ten matrix slots (DRW1 indices) each packet of a shape draws with: a table entry of 0xFFFF
// keeps the slot the previous packet loaded.
Result<std::vector<GxMatrixPalette>> j3d_packet_matrices(const J3dShp1& shp, std::size_t shape);

struct J3dInfluence {
  std::uint16_t joint = 0;
  float weight = 1.0f;
};
// The joints and weights behind one DRW1 entry: one joint for a rigid entry, an EVP1 envelope otherwise.
Result<std::vector<J3dInfluence>> j3d_draw_influences(const J3dDrw1& drw, const J3dEvp1& evp, std::size_t index);

// Each joint's world matrix (4x4, column-major) through the INF1 hierarchy: local = T * Rz * Ry * Rx * S.
Result<std::vector<std::array<float, 16>>> j3d_joint_world_matrices(const J3dFile& file);

// Every material entry index is unused or inside its MAT3 table, and every display-list index is
// inside the array or table it indexes (positions, normals, colours,
// UVs by VTX1 counts; position matrix rows below 30, texture matrix rows up to 60): the first one
// that is not, as an error.
Result<std::size_t> j3d_check_indices(const J3dFile& file);  // the number of indices checked

}  // namespace remodel
