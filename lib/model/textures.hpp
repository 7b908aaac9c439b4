// Every texture of a Document, listed, decoded to RGBA and replaced, whatever the container.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/document.hpp"
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

std::vector<TextureInfo> list_textures(const Document& doc);
// Level 0 of texture `index` (in list_textures order).
Result<RgbaImage> decode_texture(const Document& doc, std::size_t index);
// Encodes `image` into texture `index`'s own format at the image's size (mip levels regenerated);
// only that texture's bytes, sizes and the offsets that follow them change.
[[nodiscard]] std::optional<Error> replace_texture(Document& doc, std::size_t index, const RgbaImage& image);
// Index of a texture by number or by name; nullopt when neither matches.
std::optional<std::size_t> find_texture(const Document& doc, const std::string& index_or_name);

// J3D TEX1 textures, exposed for tests and benchmarks.
Result<RgbaImage> decode_j3d_texture(const J3dTex1& tex1, std::size_t index, unsigned level = 0);
[[nodiscard]] std::optional<Error> replace_j3d_texture(J3dTex1& tex1, std::size_t index, const RgbaImage& image);

}  // namespace remodel
