// One VTX1 attribute array in its GX format, as the J3D lower and authoring write into it:
// values encoded as stored, elements found or appended.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/error.hpp"
#include "model/j3d/j3d.hpp"
#include "scene/math.hpp"

namespace remodel::scene {

struct J3dArrayCodec {
  J3dVertexArray* array = nullptr;
  const J3dVertexFormat* format = nullptr;
  std::size_t element = 0;
  const char* what = "";
  std::unordered_map<std::string, std::uint32_t> first_of;  // element bytes -> first index holding them
  bool indexed = false;
  bool appended = false;

  std::size_t count() const { return array == nullptr || element == 0 ? 0 : array->data.size() / element; }
  bool same(std::uint32_t index, const Bytes& e) const;
  // The first element equal to `e`, appended when there is none.
  std::uint32_t find_or_append(const Bytes& e);
  // Numbers (positions, normals, UVs) in the format's component type with its fractional bits.
  // `saturate`: a value past the type's range by rounding is stored at its end instead of refused.
  Result<void> encode(const float* v, std::size_t given, Bytes& out, const std::string& where, bool saturate = false) const;
  // Element `index` as numbers (the inverse of encode), for what glTF does not carry (a normal's length).
  std::vector<double> decode(std::uint32_t index) const;
  Result<void> encode_colour(const Vec4& c, Bytes& out, const std::string& where) const;
};

}  // namespace remodel::scene
