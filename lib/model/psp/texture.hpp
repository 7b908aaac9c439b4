// PSP textures: TIM2 pictures (KH BBS, KH2) and TMH images (MHFU) to and from RGBA.
#pragma once

#include <cstring>
#include <string>

#include "model/error.hpp"
#include "model/image.hpp"
#include "model/kh_bbs/tim2.hpp"
#include "model/mhfu/tmh.hpp"

#include "model/psp/colour.hpp"

namespace remodel {

// Where a PSP image's texels are: the colour (direct) or CLUT colour (indexed), bits per texel,
// bytes per stored row and stored rows (TMH pads to its 16-byte x 8-row swizzle blocks).
struct PspLayout {
  PspColour colour = PspColour::c8888;
  PspColour clut_colour = PspColour::c8888;
  unsigned bits = 32;
  bool indexed = false;
  bool swizzled = false;  // TMH's 16-byte x 8-row blocks
  bool csm1 = false;      // TIM2 8-bit CLUT in CSM1 order
  std::size_t stride = 0, rows = 0, clut_entries = 0;
  std::size_t pixel_bytes() const { return stride * rows; }
  // Where CLUT entry i is stored: CSM1 reorders whole 32-entry groups, a partial group stays in order.
  std::size_t clut_slot(std::size_t i) const { return csm1 && i < clut_entries / 32 * 32 ? csm1_slot(i) : i; }
};
Result<PspLayout> tim2_layout(const Tim2Picture& picture, std::uint16_t width, std::uint16_t height);
Result<PspLayout> tmh_layout(const TmhImage& image, std::uint16_t width, std::uint16_t height);
// Byte address of row y, byte x in a stored image.
inline std::size_t psp_texel_address(const PspLayout& l, std::size_t y, std::size_t x) {
  if (!l.swizzled) return y * l.stride + x;
  return ((y / 8) * (l.stride / 16) + x / 16) * 128 + (y % 8) * 16 + x % 16;
}

// Copies stored row y (stride bytes) out of or into the stored pixels, undoing or redoing TMH's swizzle.
inline void psp_read_row(const PspLayout& l, const std::uint8_t* pixels, std::size_t y, std::uint8_t* row) {
  if (!l.swizzled) {
    std::memcpy(row, pixels + y * l.stride, l.stride);
    return;
  }
  for (std::size_t x = 0; x < l.stride; x += 16) std::memcpy(row + x, pixels + psp_texel_address(l, y, x), 16);
}
inline void psp_write_row(const PspLayout& l, const std::uint8_t* row, std::size_t y, std::uint8_t* pixels) {
  if (!l.swizzled) {
    std::memcpy(pixels + y * l.stride, row, l.stride);
    return;
  }
  for (std::size_t x = 0; x < l.stride; x += 16) std::memcpy(pixels + psp_texel_address(l, y, x), row + x, 16);
}

// The layout-level codec under both containers.
Result<std::vector<Rgba>> decode_psp_clut(const PspLayout& layout, ByteSpan clut);  // in index order
Result<std::vector<std::uint16_t>> decode_psp_indices(const PspLayout& layout, std::uint16_t width, std::uint16_t height, ByteSpan pixels);
Result<RgbaImage> decode_psp_pixels(const PspLayout& layout, std::uint16_t width, std::uint16_t height, ByteSpan pixels, ByteSpan clut);

// TIM2: 16/24/32-bit direct colour, 4- and 8-bit indexed with 16/24/32-bit CLUTs (CSM1 order for
// 8-bit unless the CLUT type says CSM2). Level 0 of a mipmapped picture. Alpha is as stored.
Result<RgbaImage> decode_tim2_picture(const Tim2Picture& picture);
// Re-encodes in the picture's own format; a new size updates the header and GS TEX0's TW/TH/TBW.
Result<void> encode_tim2_picture(Tim2Picture& picture, const RgbaImage& image);
std::string tim2_format_name(const Tim2Picture& picture);
// A new picture laid out as KH BBS's TIM2s are: 4-bit indexed when the image has at most 16 colours,
// 8-bit at most 256 (32-bit CSM1 CLUT), else 32-bit direct colour; GS TEX0 as the game's files set it.
Result<Tim2Picture> new_tim2_picture(const RgbaImage& image);
// GS TEX0 as the game's files set it for the picture's type and size: TBW, PSM, TW and TH.
std::uint64_t tim2_gs_tex0(const Tim2Picture& picture);
// GS TEX1 as every KH BBS sample stores it.
inline constexpr std::uint64_t kTim2GsTex1 = 0x260;

// TMH: GE pixel modes 0-3 (5650, 5551, 4444, 8888), 4 (CLUT4) and 5 (CLUT8), swizzled in 16-byte x
// 8-row blocks; CLUTs in modes 0-3.
Result<RgbaImage> decode_tmh_image(const TmhImage& image);
Result<void> encode_tmh_image(TmhImage& image, const RgbaImage& rgba);
std::string tmh_format_name(const TmhImage& image);
// A new image laid out as MHFU's TMH images are: CLUT4 (16 entries) when the image has at most 16
// colours, else CLUT8 (256; quantised past 256 colours); the palette RGBA5551 when every colour
// survives it, else RGBA8888. 1 to 512 texels a side.
Result<TmhImage> new_tmh_image(const RgbaImage& image);

}  // namespace remodel
