// An RGBA image, 8 bits per channel, rows top to bottom: what every texture codec decodes to.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/bytes.hpp"
#include "model/error.hpp"

namespace remodel {

struct RgbaImage {
  std::uint32_t width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width * height * 4

  RgbaImage() = default;
  RgbaImage(std::uint32_t w, std::uint32_t h) : width(w), height(h), rgba(std::size_t{w} * h * 4, 0) {}
  std::uint8_t* at(std::uint32_t x, std::uint32_t y) { return &rgba[(std::size_t{y} * width + x) * 4]; }
  const std::uint8_t* at(std::uint32_t x, std::uint32_t y) const { return &rgba[(std::size_t{y} * width + x) * 4]; }
  bool operator==(const RgbaImage&) const = default;
};

using Rgba = std::array<std::uint8_t, 4>;

// Channel widening by bit replication, so that narrowing by a shift gives the stored bits back.
inline std::uint8_t expand3(unsigned v) { return static_cast<std::uint8_t>((v << 5) | (v << 2) | (v >> 1)); }
inline std::uint8_t expand4(unsigned v) { return static_cast<std::uint8_t>(v * 0x11); }
inline std::uint8_t expand5(unsigned v) { return static_cast<std::uint8_t>((v << 3) | (v >> 2)); }
inline std::uint8_t expand6(unsigned v) { return static_cast<std::uint8_t>((v << 2) | (v >> 4)); }

// Halves an image (box filter, odd edges clamped) for the next mip level.
RgbaImage downsample_half(const RgbaImage& image);
// Resamples to a new size (stb_image_resize, sRGB-aware); only when the user asks for it.
RgbaImage resize_image(const RgbaImage& image, std::uint32_t width, std::uint32_t height);

// PNG through stb_image / stb_image_write; every PNG colour type is read as RGBA.
Result<RgbaImage> read_png(ByteSpan bytes);
// A PNG or a JPEG (baseline or progressive, as glTF allows), told apart by their signatures; the
// same decoder and size limit as read_png.
Result<RgbaImage> read_png_or_jpeg(ByteSpan bytes);
Bytes write_png(const RgbaImage& image);

}  // namespace remodel
