// Decodes TIM2 pictures and TMH images to RGBA through their PspLayout.
#include <algorithm>
#include <cstring>

#include "model/psp/texture.hpp"

namespace remodel {

namespace {

Error short_data(const char* field, std::size_t have, std::size_t need) {
  return Error{ErrorCode::truncated, have, field, std::string(field) + " needs " + std::to_string(need) + " bytes but " + std::to_string(have) + " are stored"};
}

}  // namespace

Result<std::vector<Rgba>> decode_psp_clut(const PspLayout& l, ByteSpan clut) {
  const std::size_t entry = psp::colour_size(l.clut_colour);
  if (clut.size() / entry < l.clut_entries) return short_data("clut", clut.size(), l.clut_entries * entry);
  std::vector<Rgba> out(l.clut_entries);
  for (std::size_t i = 0; i < l.clut_entries; ++i) out[i] = psp::decode_colour(l.clut_colour, &clut[l.clut_slot(i) * entry]);
  return out;
}

Result<std::vector<std::uint16_t>> decode_psp_indices(const PspLayout& l, std::uint16_t width, std::uint16_t height, ByteSpan pixels) {
  if (pixels.size() < l.pixel_bytes()) return short_data("image", pixels.size(), l.pixel_bytes());
  std::vector<std::uint16_t> out(std::size_t{width} * height);
  std::vector<std::uint8_t> row(l.stride);
  for (std::size_t y = 0; y < height; ++y) {
    psp_read_row(l, pixels.data(), y, row.data());
    std::uint16_t* o = &out[y * width];
    if (l.bits == 8) {
      std::copy_n(row.begin(), width, o);
    } else {
      for (std::size_t x = 0; x < width; ++x) o[x] = (row[x / 2] >> (x % 2 == 0 ? 0 : 4)) & 0xF;  // low nibble first
    }
  }
  return out;
}

Result<RgbaImage> decode_psp_pixels(const PspLayout& l, std::uint16_t width, std::uint16_t height, ByteSpan pixels, ByteSpan clut) {
  if (width == 0 || height == 0) return Error{ErrorCode::bad_value, std::nullopt, "width", "a texture of 0 texels cannot be decoded"};
  if (pixels.size() < l.pixel_bytes()) return short_data("image", pixels.size(), l.pixel_bytes());
  RgbaImage image(width, height);
  if (!l.indexed) {
    const std::size_t size = l.bits / 8;
    std::vector<std::uint8_t> row(l.stride);
    for (std::size_t y = 0; y < height; ++y) {
      psp_read_row(l, pixels.data(), y, row.data());
      std::uint8_t* out = image.at(0, static_cast<std::uint32_t>(y));
      for (std::size_t x = 0; x < width; ++x, out += 4) {
        const Rgba c = psp::decode_colour(l.colour, &row[x * size]);
        std::memcpy(out, c.data(), 4);
      }
    }
    return image;
  }
  auto palette = decode_psp_clut(l, clut);
  if (!palette) return palette.error();
  auto indices = decode_psp_indices(l, width, height, pixels);
  if (!indices) return indices.error();
  for (std::size_t i = 0; i < indices->size(); ++i) {
    const std::uint16_t index = (*indices)[i];
    if (index >= palette->size()) {
      return Error{ErrorCode::bad_value, std::nullopt, "clut",
                   "texel " + std::to_string(i) + " uses palette entry " + std::to_string(index) + " but the palette has " + std::to_string(palette->size())};
    }
    std::memcpy(&image.rgba[i * 4], (*palette)[index].data(), 4);
  }
  return image;
}

Result<RgbaImage> decode_tim2_picture(const Tim2Picture& p) {
  auto layout = tim2_layout(p, p.width, p.height);
  if (!layout) return layout.error();
  return decode_psp_pixels(*layout, p.width, p.height, p.image, p.clut);
}

Result<RgbaImage> decode_tmh_image(const TmhImage& t) {
  auto layout = tmh_layout(t, t.width, t.height);
  if (!layout) return layout.error();
  return decode_psp_pixels(*layout, t.width, t.height, t.pixels, t.clut ? ByteSpan(t.clut->data) : ByteSpan());
}

}  // namespace remodel
