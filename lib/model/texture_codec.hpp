// One codec per kind of texture (a TIM2 picture, a TMH image, a J3D TEX1 entry): what listing,
// decoding and replacing do with the texture a TextureRef points to. Each kind defines its codec once,
// in its family's folder, and its formats' add_textures name it in every ref they make.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/format.hpp"
#include "model/image.hpp"

namespace remodel {

struct TextureInfo {
  std::string name;    // the file's own name for it, or "<container><index>" when it has none
  std::string format;  // e.g. "CMPR", "C8/RGB5A3", "CLUT8/RGBA8888"
  std::uint32_t width = 0, height = 0;
  unsigned levels = 1;  // mip levels stored
  std::string where;    // the field path of the texture in the Document
  std::string sampling;  // GX: wrap S/T and min/mag filters, e.g. "repeat/clamp linear/linear"; else empty
};

// A kind's operations on a ref's handle (`texture`, `index`), erased to one signature per operation.
struct TextureCodec {
  // Fills the format, size, levels and sampling; the ref gives the name and where.
  void (*info)(const void* texture, std::size_t index, TextureInfo& info);
  // Level 0.
  Result<RgbaImage> (*decode)(const void* texture, std::size_t index);
  // Encodes the image into the texture's own format at the image's size, mip levels regenerated.
  Result<void> (*replace)(void* texture, std::size_t index, const RgbaImage& image);
};

// A kind's codec from its typed functions; T is what its refs' handle points to.
template <typename T, void (*Info)(const T&, std::size_t, TextureInfo&), Result<RgbaImage> (*Decode)(const T&, std::size_t),
          Result<void> (*Replace)(T&, std::size_t, const RgbaImage&)>
constexpr TextureCodec texture_codec() {
  return {[](const void* t, std::size_t index, TextureInfo& info) { Info(*static_cast<const T*>(t), index, info); },
          [](const void* t, std::size_t index) { return Decode(*static_cast<const T*>(t), index); },
          [](void* t, std::size_t index, const RgbaImage& image) { return Replace(*static_cast<T*>(t), index, image); }};
}

// One ref per item of a container's own list: named "<name><i>", found at "<where>[<i>]".
template <typename T>
void add_texture_refs(std::vector<T>& items, const char* name, const char* where, const TextureCodec& codec, TextureRefs& out) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string index = std::to_string(i);
    out.push_back(TextureRef{std::string(name) + index, std::string(where) + "[" + index + "]", &codec, &items[i], 0});
  }
}

// The error every kind gives for an index past its textures.
Error no_texture(std::size_t index, std::size_t count);

}  // namespace remodel
