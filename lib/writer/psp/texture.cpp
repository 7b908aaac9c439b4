// Encodes RGBA into TIM2 pictures and TMH images in their own formats: indexed images keep their
// palette when every colour is in it, and are quantised into a new one when not.
#include <algorithm>
#include <bit>

#include "model/palette.hpp"
#include "model/psp/texture.hpp"

namespace remodel {

namespace {

Error too_big(const char* container, const RgbaImage& image, unsigned limit) {
  return Error{ErrorCode::bad_value, std::nullopt, "width",
               std::string(container) + " images are 1 to " + std::to_string(limit) + " texels a side; this one is " + std::to_string(image.width) +
                   "x" + std::to_string(image.height)};
}

int posterize_bits(PspColour c) { return c == PspColour::c4444 ? 4 : c == PspColour::c5551 || c == PspColour::c5650 ? 3 : 0; }

// Writes the image into `pixels` (stored layout) and, for indexed layouts, `clut`. `same_size`:
// the buffers still hold the picture being replaced, whose indices are kept where colours match.
Result<void> encode_psp(const PspLayout& l, const RgbaImage& image, bool same_size, Bytes& pixels, Bytes& clut) {
  const auto width = static_cast<std::uint16_t>(image.width), height = static_cast<std::uint16_t>(image.height);
  std::vector<std::uint8_t> row(l.stride);  // stored row, read first so padding bytes survive
  if (!l.indexed) {
    const std::size_t size = l.bits / 8;
    for (std::size_t y = 0; y < height; ++y) {
      psp_read_row(l, pixels.data(), y, row.data());
      const std::uint8_t* in = image.at(0, static_cast<std::uint32_t>(y));
      for (std::size_t x = 0; x < width; ++x, in += 4) psp::encode_colour(l.colour, in, &row[x * size]);
      psp_write_row(l, row.data(), y, pixels.data());
    }
    return {};
  }
  auto palette = decode_psp_clut(l, clut);
  if (!palette) return palette.error();
  std::vector<std::uint16_t> reference;
  if (same_size) {
    auto before = decode_psp_indices(l, width, height, pixels);
    if (before) reference = std::move(before.value());
  }
  const std::size_t capacity = std::min<std::size_t>(l.clut_entries, std::size_t{1} << l.bits);
  if (capacity == 0) return Error{ErrorCode::bad_value, std::nullopt, "clut", "the palette has no entries to encode into"};
  palette->resize(capacity);
  auto indices = fit_palette(image, *palette, reference.empty() ? nullptr : &reference);
  if (!indices) {
    auto quantized = quantize_image(image, capacity, posterize_bits(l.clut_colour), [&](Rgba c) { return psp::representable(l.clut_colour, c); });
    if (!quantized) return quantized.error();
    const std::size_t entry = psp::colour_size(l.clut_colour);
    std::fill(clut.begin(), clut.begin() + static_cast<std::ptrdiff_t>(l.clut_entries * entry), 0);
    for (std::size_t i = 0; i < quantized->palette.size(); ++i) {
      psp::encode_colour(l.clut_colour, quantized->palette[i].data(), &clut[l.clut_slot(i) * entry]);
    }
    indices = std::move(quantized->indices);
  }
  for (std::size_t y = 0; y < height; ++y) {
    psp_read_row(l, pixels.data(), y, row.data());
    for (std::size_t x = 0; x < width; ++x) {
      const std::uint16_t index = (*indices)[y * width + x];
      std::uint8_t& b = row[x * l.bits / 8];
      if (l.bits == 8) {
        b = static_cast<std::uint8_t>(index);
      } else {
        b = static_cast<std::uint8_t>(x % 2 == 0 ? (b & 0xF0) | index : (b & 0x0F) | index << 4);
      }
    }
    psp_write_row(l, row.data(), y, pixels.data());
  }
  return {};
}

unsigned ceil_log2(unsigned v) { return v <= 1 ? 0 : static_cast<unsigned>(std::bit_width(v - 1)); }

// GS TEX0 holds the buffer width (TBW, 64-texel units) and log2 sizes (TW, TH); each is updated only
// where it followed that rule for the old size, so a file's own conventions survive.
std::uint64_t resized_tex0(std::uint64_t tex0, unsigned old_w, unsigned old_h, unsigned w, unsigned h) {
  const auto field = [&](unsigned shift, unsigned bits, unsigned old_value, unsigned new_value) {
    const std::uint64_t mask = ((std::uint64_t{1} << bits) - 1) << shift;
    if (((tex0 & mask) >> shift) == old_value) tex0 = (tex0 & ~mask) | (std::uint64_t{new_value} << shift & mask);
  };
  field(14, 6, (old_w + 63) / 64, (w + 63) / 64);
  field(26, 4, ceil_log2(old_w), ceil_log2(w));
  field(30, 4, ceil_log2(old_h), ceil_log2(h));
  return tex0;
}

}  // namespace

Result<void> encode_tim2_picture(Tim2Picture& p, const RgbaImage& image) {
  const bool same_size = image.width == p.width && image.height == p.height;
  // The limits bind a new size; a picture already in the file re-encodes at its own.
  if (!same_size && (image.width == 0 || image.height == 0 || image.width > 1024 || image.height > 1024)) return too_big("TIM2", image, 1024);
  if (p.mipmap_count > 1) {
    auto before = decode_tim2_picture(p);
    if (same_size && before.ok() && before.value() == image) return {};  // unedited: nothing to do
    return Error{ErrorCode::unsupported, std::nullopt, "mipmap_count", "replacing a mipmapped TIM2 picture is not supported"};
  }
  auto layout = tim2_layout(p, static_cast<std::uint16_t>(image.width), static_cast<std::uint16_t>(image.height));
  if (!layout) return layout.error();
  Tim2Picture out = p;
  if (!same_size) {
    out.width = static_cast<std::uint16_t>(image.width);
    out.height = static_cast<std::uint16_t>(image.height);
    out.gs_tex0 = resized_tex0(p.gs_tex0, p.width, p.height, out.width, out.height);
    out.image.assign((layout->pixel_bytes() + 15) / 16 * 16, 0);  // format 0 keeps sections 16-aligned
  } else if (out.image.size() < layout->pixel_bytes()) {
    return Error{ErrorCode::truncated, std::nullopt, "image", "the picture holds fewer bytes than its size needs"};
  }
  if (auto encoded = encode_psp(*layout, image, same_size, out.image, out.clut); !encoded) return encoded.error();
  p = std::move(out);
  return {};
}

Result<Tim2Picture> new_tim2_picture(const RgbaImage& image) {
  if (image.width == 0 || image.height == 0 || image.width > 1024 || image.height > 1024) return too_big("TIM2", image, 1024);
  if (image.rgba.size() != std::size_t{image.width} * image.height * 4) {
    return Error{ErrorCode::inconsistent, std::nullopt, "image", "the image's pixels do not fill its size"};
  }
  std::vector<Rgba> colours;
  for (std::size_t i = 0; i < image.rgba.size() && colours.size() <= 256; i += 4) {
    const Rgba c{image.rgba[i], image.rgba[i + 1], image.rgba[i + 2], image.rgba[i + 3]};
    if (std::find(colours.begin(), colours.end(), c) == colours.end()) colours.push_back(c);
  }
  Tim2Picture p;
  p.mipmap_count = 1;
  p.gs_tex1 = kTim2GsTex1;
  if (colours.size() <= 16) {
    p.image_type = 4;
    p.clut_type = 3;
    p.clut_colors = 16;
  } else if (colours.size() <= 256) {
    p.image_type = 5;
    p.clut_type = 3;
    p.clut_colors = 256;
  } else {
    p.image_type = 3;
  }
  p.clut.assign(std::size_t{p.clut_colors} * 4, 0);
  if (auto encoded = encode_tim2_picture(p, image); !encoded) return encoded.error();
  p.gs_tex0 = tim2_gs_tex0(p);
  return p;
}

std::uint64_t tim2_gs_tex0(const Tim2Picture& p) {
  // GS pixel storage modes by TIM2 image type 1-5: PSMCT16, PSMCT24, PSMCT32, PSMT4, PSMT8.
  constexpr std::uint64_t kPsm[6] = {0, 2, 1, 0, 20, 19};
  const bool indexed = p.image_type == 4 || p.image_type == 5;
  // Buffer width in 64-texel units, even for the indexed modes (the GS rule), as the samples store it.
  std::uint64_t tbw = (p.width + 63u) / 64u;
  if (indexed) tbw = std::max<std::uint64_t>(2, (tbw + 1) / 2 * 2);
  const std::uint64_t psm = p.image_type < 6 ? kPsm[p.image_type] : 0;
  return tbw << 14 | psm << 20 | std::uint64_t{ceil_log2(p.width)} << 26 | std::uint64_t{ceil_log2(p.height)} << 30;
}

Result<void> encode_tmh_image(TmhImage& t, const RgbaImage& image) {
  const bool same_size = image.width == t.width && image.height == t.height;
  if (!same_size && (image.width == 0 || image.height == 0 || image.width > 512 || image.height > 512)) return too_big("TMH", image, 512);
  auto layout = tmh_layout(t, static_cast<std::uint16_t>(image.width), static_cast<std::uint16_t>(image.height));
  if (!layout) return layout.error();
  TmhImage out = t;
  if (!same_size) {
    out.width = static_cast<std::uint16_t>(image.width);
    out.height = static_cast<std::uint16_t>(image.height);
    out.pixels.assign(layout->pixel_bytes(), 0);
  } else if (out.pixels.size() < layout->pixel_bytes()) {
    return Error{ErrorCode::truncated, std::nullopt, "pixels", "the image holds fewer bytes than its size needs"};
  }
  Bytes clut = out.clut ? out.clut->data : Bytes{};
  if (auto encoded = encode_psp(*layout, image, same_size, out.pixels, clut); !encoded) return encoded.error();
  if (out.clut) out.clut->data = std::move(clut);
  t = std::move(out);
  return {};
}

// A TMH image laid out as the samples' are: CLUT4 (16 entries) at most 16 colours, else CLUT8 (256,
// quantised past 256 colours); the palette RGBA5551 when every colour survives it, else RGBA8888.
Result<TmhImage> new_tmh_image(const RgbaImage& image) {
  if (image.width == 0 || image.height == 0 || image.width > 512 || image.height > 512) return too_big("TMH", image, 512);
  if (image.rgba.size() != std::size_t{image.width} * image.height * 4) {
    return Error{ErrorCode::inconsistent, std::nullopt, "image", "the image's pixels do not fill its size"};
  }
  std::vector<Rgba> colours;
  for (std::size_t i = 0; i + 3 < image.rgba.size() && colours.size() <= 256; i += 4) {
    const Rgba c{image.rgba[i], image.rgba[i + 1], image.rgba[i + 2], image.rgba[i + 3]};
    if (std::find(colours.begin(), colours.end(), c) == colours.end()) colours.push_back(c);
  }
  const bool c5551 = std::all_of(colours.begin(), colours.end(), [](const Rgba& c) { return psp::representable(PspColour::c5551, c) == c; });
  TmhImage t;
  t.mode = colours.size() <= 16 ? 4 : 5;
  t.width = static_cast<std::uint16_t>(image.width);
  t.height = static_cast<std::uint16_t>(image.height);
  TmhClut clut;
  clut.mode = c5551 ? 1 : 3;
  clut.entry_count = t.mode == 4 ? 16 : 256;
  const PspColour cc = c5551 ? PspColour::c5551 : PspColour::c8888;
  clut.data.assign(clut.entry_count * psp::colour_size(cc), 0);
  // Every colour in the palette up front, so the encoder finds each exactly (no quantising).
  for (std::size_t i = 0; i < colours.size() && i < clut.entry_count; ++i) {
    psp::encode_colour(cc, colours[i].data(), &clut.data[i * psp::colour_size(cc)]);
  }
  t.clut = std::move(clut);
  auto layout = tmh_layout(t, t.width, t.height);
  if (!layout) return layout.error();
  t.pixels.assign(layout->pixel_bytes(), 0);
  if (auto encoded = encode_tmh_image(t, image); !encoded) return encoded.error();
  return t;
}

}  // namespace remodel
