// J3D TEX1 textures (BTI headers over GX image and palette blocks) to and from RGBA; the J3D texture
// codec that list_textures, decode_texture and replace_texture reach through add_textures.
#pragma once

#include <cstddef>

#include "model/error.hpp"
#include "model/image.hpp"
#include "model/j3d/j3d.hpp"

namespace remodel {

// Level `level` of texture `index`.
Result<RgbaImage> decode_j3d_texture(const J3dTex1& tex1, std::size_t index, unsigned level = 0);
// Encodes `image` into texture `index`'s own GX format at the image's size (mip levels regenerated;
// an indexed texture keeps its palette when every colour is in it, else is quantised into it).
Result<void> replace_j3d_texture(J3dTex1& tex1, std::size_t index, const RgbaImage& image);

}  // namespace remodel
