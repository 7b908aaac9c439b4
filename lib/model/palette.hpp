// Indexed images: fitting pixels to an existing palette, and quantising to a new one (libimagequant).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "model/error.hpp"
#include "model/image.hpp"

namespace remodel {

struct IndexedImage {
  std::vector<Rgba> palette;
  std::vector<std::uint16_t> indices;  // width * height, row-major
};

// Maps every pixel to a palette entry of exactly its colour, keeping `reference`'s index where that
// entry still matches (palettes repeat colours, so this is what makes an unedited image re-encode to
// its own bytes). nullopt when a colour is not in the palette.
std::optional<std::vector<std::uint16_t>> fit_palette(const RgbaImage& image, const std::vector<Rgba>& palette,
                                                      const std::vector<std::uint16_t>* reference = nullptr);

// Quantises to at most `max_colors` entries. `representable` rounds a colour to what the palette's
// stored format can hold, so the indices are chosen against the colours the file will really have.
Result<IndexedImage> quantize_image(const RgbaImage& image, std::size_t max_colors, int posterize_bits,
                                    const std::function<Rgba(Rgba)>& representable);

}  // namespace remodel
