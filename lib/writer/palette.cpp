// Palette fitting and quantisation; libimagequant (pngquant's library) does the quantising.
#include "model/palette.hpp"

#include <libimagequant.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

namespace remodel {

namespace {

std::uint32_t key(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

struct LiqFree {
  void operator()(liq_attr* p) const { liq_attr_destroy(p); }
  void operator()(liq_image* p) const { liq_image_destroy(p); }
  void operator()(liq_result* p) const { liq_result_destroy(p); }
};

}  // namespace

std::optional<std::vector<std::uint16_t>> fit_palette(const RgbaImage& image, const std::vector<Rgba>& palette,
                                                      const std::vector<std::uint16_t>* reference) {
  std::unordered_map<std::uint32_t, std::uint16_t> first;
  for (std::size_t i = palette.size(); i-- > 0;) first[key(palette[i].data())] = static_cast<std::uint16_t>(i);
  const std::size_t count = std::size_t{image.width} * image.height;
  if (reference != nullptr && reference->size() != count) reference = nullptr;
  std::vector<std::uint16_t> indices(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint8_t* p = &image.rgba[i * 4];
    if (reference != nullptr) {
      const std::uint16_t r = (*reference)[i];
      if (r < palette.size() && key(palette[r].data()) == key(p)) {
        indices[i] = r;
        continue;
      }
    }
    const auto it = first.find(key(p));
    if (it == first.end()) return std::nullopt;
    indices[i] = it->second;
  }
  return indices;
}

Result<IndexedImage> quantize_image(const RgbaImage& image, std::size_t max_colors, int posterize_bits,
                                    const std::function<Rgba(Rgba)>& representable) {
  const auto fail = [](const char* what) { return Error{ErrorCode::bad_value, std::nullopt, "palette", std::string("libimagequant could not ") + what}; };
  if (image.width == 0 || image.height == 0) return fail("quantise an empty image");
  std::unique_ptr<liq_attr, LiqFree> attr(liq_attr_create());
  if (!attr) return fail("start");
  liq_set_max_colors(attr.get(), static_cast<int>(std::clamp<std::size_t>(max_colors, 2, 256)));
  liq_set_min_posterization(attr.get(), std::clamp(posterize_bits, 0, 4));
  std::unique_ptr<liq_image, LiqFree> input(
      liq_image_create_rgba(attr.get(), image.rgba.data(), static_cast<int>(image.width), static_cast<int>(image.height), 0));
  if (!input) return fail("take the image");
  liq_result* raw = nullptr;
  if (liq_image_quantize(input.get(), attr.get(), &raw) != LIQ_OK) return fail("quantise the image");
  std::unique_ptr<liq_result, LiqFree> result(raw);
  liq_set_dithering_level(result.get(), 1.0f);
  std::vector<std::uint8_t> remapped(std::size_t{image.width} * image.height);
  if (liq_write_remapped_image(result.get(), input.get(), remapped.data(), remapped.size()) != LIQ_OK) return fail("remap the image");
  const liq_palette* palette = liq_get_palette(result.get());
  IndexedImage out;
  for (unsigned i = 0; i < palette->count && i < max_colors; ++i) {
    const liq_color c = palette->entries[i];
    out.palette.push_back(representable(Rgba{c.r, c.g, c.b, c.a}));
  }
  out.indices.assign(remapped.begin(), remapped.end());
  for (auto& index : out.indices) index = std::min<std::uint16_t>(index, static_cast<std::uint16_t>(out.palette.size() - 1));
  return out;
}

}  // namespace remodel
