// Every texture of a Document, listed, decoded to RGBA and replaced, whatever the container: each
// goes through its kind's codec (texture_codec.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/document.hpp"
#include "model/image.hpp"
#include "model/texture_codec.hpp"

namespace remodel {

std::vector<TextureInfo> list_textures(const Document& doc);
// Level 0 of texture `index` (in list_textures order).
Result<RgbaImage> decode_texture(const Document& doc, std::size_t index);
// Encodes `image` into texture `index`'s own format at the image's size (mip levels regenerated);
// only that texture's bytes, sizes and the offsets that follow them change.
Result<void> replace_texture(Document& doc, std::size_t index, const RgbaImage& image);
// Index of a texture by number or by name; nullopt when neither matches.
std::optional<std::size_t> find_texture(const Document& doc, const std::string& index_or_name);

}  // namespace remodel
