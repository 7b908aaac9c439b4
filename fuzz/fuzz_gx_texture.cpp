// libFuzzer target: the GX texture codec alone (every format, palette, size and mip count), fast
// enough to reach corners the J3D target meets rarely.
#include <cstddef>
#include <cstdint>

#include "gx_texture_input.hpp"
#include "model/j3d/texture.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  std::optional<J3dTex1> tex1 = fuzz::gx_texture_input(ByteSpan(data, size));
  if (!tex1) return 0;
  for (unsigned level = 0; level < 8; ++level) {
    auto image = decode_j3d_texture(*tex1, 0, level);
    if (!image.ok() && image.error().message.empty()) fuzz::die("a decode error must say why");
  }
  auto image = decode_j3d_texture(*tex1, 0);
  if (!image.ok()) return 0;
  J3dTex1 same = *tex1;
  if (!replace_j3d_texture(same, 0, *image)) fuzz::die("a decoded texture must re-encode unedited");
  if (same.blocks[0].data != tex1->blocks[0].data || same.textures[0].mip_count != tex1->textures[0].mip_count ||
      (same.blocks.size() > 1 && same.blocks[1].data != tex1->blocks[1].data)) {
    fuzz::die("re-encoding an unedited texture changed its bytes");
  }
  // A different image (the negative, shifted by a row) must encode, or be refused with a reason.
  RgbaImage other(image->width + (size % 3 == 0 ? 1 : 0), image->height);
  for (std::uint32_t y = 0; y < other.height; ++y) {
    for (std::uint32_t x = 0; x < other.width; ++x) {
      for (int c = 0; c < 4; ++c) other.at(x, y)[c] = static_cast<std::uint8_t>(255 - image->at(x % image->width, (y + 1) % image->height)[c]);
    }
  }
  J3dTex1 edited = *tex1;
  if (auto replaced = replace_j3d_texture(edited, 0, other); !replaced) {
    if (replaced.error().message.empty()) fuzz::die("a refusal must say why");
    return 0;
  }
  auto again = decode_j3d_texture(edited, 0);
  if (!again.ok()) fuzz::die("a replaced texture must decode");
  if (again->width != other.width || again->height != other.height) fuzz::die("a replaced texture must take the new size");
  return 0;
}
