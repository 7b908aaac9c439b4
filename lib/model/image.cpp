// PNG I/O and resampling for RgbaImage: stb_image, stb_image_write and stb_image_resize from libstb.
#include "model/image.hpp"

#include <stb/stb_image.h>
#include <stb/stb_image_resize.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cstring>

namespace remodel {

RgbaImage downsample_half(const RgbaImage& image) {
  RgbaImage out(std::max<std::uint32_t>(1, image.width / 2), std::max<std::uint32_t>(1, image.height / 2));
  for (std::uint32_t y = 0; y < out.height; ++y) {
    for (std::uint32_t x = 0; x < out.width; ++x) {
      const std::uint32_t x0 = std::min(x * 2, image.width - 1), x1 = std::min(x * 2 + 1, image.width - 1);
      const std::uint32_t y0 = std::min(y * 2, image.height - 1), y1 = std::min(y * 2 + 1, image.height - 1);
      for (int c = 0; c < 4; ++c) {
        const unsigned sum = image.at(x0, y0)[c] + image.at(x1, y0)[c] + image.at(x0, y1)[c] + image.at(x1, y1)[c];
        out.at(x, y)[c] = static_cast<std::uint8_t>((sum + 2) / 4);
      }
    }
  }
  return out;
}

RgbaImage resize_image(const RgbaImage& image, std::uint32_t width, std::uint32_t height) {
  RgbaImage out(width, height);
  if (image.width == 0 || image.height == 0 || width == 0 || height == 0) return out;
  stbir_resize_uint8_srgb(image.rgba.data(), static_cast<int>(image.width), static_cast<int>(image.height), 0, out.rgba.data(),
                          static_cast<int>(width), static_cast<int>(height), 0, 4, 3, 0);
  return out;
}

namespace {

constexpr std::uint8_t kPngSignature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

bool is_png(ByteSpan bytes) { return bytes.size() >= 8 && std::equal(kPngSignature, kPngSignature + 8, bytes.begin()); }

std::uint32_t be32(ByteSpan b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) | (std::uint32_t{b[at + 2]} << 8) | b[at + 3];
}

Error too_large(std::uint64_t w, std::uint64_t h) {
  return Error{ErrorCode::unsupported, std::nullopt, "png",
               "image is " + std::to_string(w) + "x" + std::to_string(h) + "; at most 4096 a side is read (textures are at most 1024)"};
}

// stb_image's reasons are a word or two ("IDAT", "outofdata") and, after its last format guess, often
// "unknown image type": the sentence says what failed in the user's words and keeps the word.
Error undecodable(const char* stage) {
  return Error{ErrorCode::bad_value, std::nullopt, "png",
               std::string(stage) + " (truncated or corrupt; the decoder stopped at: " + stbi_failure_reason() + ")"};
}

}  // namespace

Result<RgbaImage> read_png(ByteSpan bytes) {
  if (bytes.size() > 0x7FFFFFFF) return Error{ErrorCode::unsupported, std::nullopt, "png", "a PNG over 2 GiB is not supported"};
  // A PNG's size is in its IHDR: checked first, since stb_image refuses a huge one as an unknown type.
  if (is_png(bytes) && bytes.size() >= 24 && std::equal(bytes.begin() + 12, bytes.begin() + 16, "IHDR")) {
    const std::uint32_t w = be32(bytes, 16), h = be32(bytes, 20);
    if (w == 0 || h == 0 || w > 4096 || h > 4096) return too_large(w, h);
  }
  int w = 0, h = 0, channels = 0;
  if (!stbi_info_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w, &h, &channels)) {
    return undecodable("is not a readable PNG or JPEG: its header cannot be read");
  }
  // Textures stop at 1024 texels a side; a PNG over 4096 (64 MiB of RGBA) is refused before decoding.
  if (w <= 0 || h <= 0 || w > 4096 || h > 4096) return too_large(static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h));
  stbi_uc* pixels = stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w, &h, &channels, 4);
  if (pixels == nullptr) return undecodable(("holds a " + std::to_string(w) + "x" + std::to_string(h) + " image whose pixels cannot be decoded").c_str());
  RgbaImage image(static_cast<std::uint32_t>(w), static_cast<std::uint32_t>(h));
  std::memcpy(image.rgba.data(), pixels, image.rgba.size());
  stbi_image_free(pixels);
  return image;
}

Result<RgbaImage> read_png_or_jpeg(ByteSpan bytes) {
  static constexpr std::uint8_t jpeg[3] = {0xFF, 0xD8, 0xFF};
  const bool is_jpeg = bytes.size() >= 3 && std::equal(jpeg, jpeg + 3, bytes.begin());
  if (!is_png(bytes) && !is_jpeg) return Error{ErrorCode::unsupported, std::nullopt, "image", "is neither a PNG nor a JPEG"};
  return read_png(bytes);  // stb_image reads both
}

Bytes write_png(const RgbaImage& image) {
  Bytes out;
  const auto sink = [](void* context, void* data, int size) {
    auto* o = static_cast<Bytes*>(context);
    const auto* p = static_cast<const std::uint8_t*>(data);
    o->insert(o->end(), p, p + size);
  };
  stbi_write_png_to_func(sink, &out, static_cast<int>(image.width), static_cast<int>(image.height), 4, image.rgba.data(),
                         static_cast<int>(image.width * 4));
  return out;
}

}  // namespace remodel
