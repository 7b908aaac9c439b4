// The GX codec fuzz input: an 8-byte header (format, palette format, width, height, mip count,
// palette count, flags), then the palette's bytes, then the image's. Shared by the target and make_seeds.
#pragma once

#include <optional>

#include "model/gx/texture.hpp"
#include "model/j3d/j3d.hpp"

namespace remodel::fuzz {

inline std::optional<J3dTex1> gx_texture_input(ByteSpan in) {
  if (in.size() < 8) return std::nullopt;
  J3dTexture t;
  t.format = in[0] % 16;
  t.palette_format = in[1] % 4;
  t.width = static_cast<std::uint16_t>(in[2] % 80);  // up to 79: room for partial tiles, 0 included
  t.height = static_cast<std::uint16_t>(in[3] % 80);
  t.mip_count = in[4] % 8;
  t.palette_count = in[5];
  const std::size_t palette_bytes = std::min<std::size_t>(in.size() - 8, std::size_t{t.palette_count} * 2);
  J3dTex1 tex1;
  tex1.blocks.push_back({Bytes(in.begin() + 8 + static_cast<std::ptrdiff_t>(palette_bytes), in.end()), {}});
  if (gx_is_indexed(t.format)) {
    t.palette_block = 1;
    tex1.blocks.push_back({Bytes(in.begin() + 8, in.begin() + 8 + static_cast<std::ptrdiff_t>(palette_bytes)), {}});
  }
  tex1.textures.push_back(t);
  return tex1;
}

}  // namespace remodel::fuzz
