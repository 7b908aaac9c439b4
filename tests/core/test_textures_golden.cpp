// Texture codecs against pixel values computed by hand from the format descriptions, and bad input.
#include <gtest/gtest.h>

#include "model/gx/texture.hpp"
#include "model/j3d/texture.hpp"
#include "model/palette.hpp"
#include "model/psp/texture.hpp"

namespace remodel {
namespace {

Rgba px(const RgbaImage& image, std::uint32_t x, std::uint32_t y) {
  const std::uint8_t* p = image.at(x, y);
  return {p[0], p[1], p[2], p[3]};
}

// Decodes `data`, checks the listed pixels, then checks a fresh encode gives `data` back.
void expect_gx(std::uint8_t format, std::uint16_t w, std::uint16_t h, const Bytes& data, std::initializer_list<std::pair<std::pair<int, int>, Rgba>> want) {
  SCOPED_TRACE(gx_format_name(format));
  auto image = decode_gx_image(format, w, h, data);
  ASSERT_TRUE(image.ok()) << image.error().describe();
  for (const auto& [at, colour] : want) EXPECT_EQ(px(*image, at.first, at.second), colour) << at.first << "," << at.second;
  EXPECT_EQ(encode_gx_image(format, *image), data);
}

TEST(GxGolden, I4HighNibbleFirstInEightByEightTiles) {
  Bytes d(32, 0);
  d[0] = 0x1F;  // texels (0,0)=1 and (1,0)=15
  d[4] = 0x80;  // row 1 starts at byte 4: (0,1)=8
  expect_gx(gx_i4, 8, 8, d, {{{0, 0}, {0x11, 0x11, 0x11, 0x11}}, {{1, 0}, {255, 255, 255, 255}}, {{0, 1}, {0x88, 0x88, 0x88, 0x88}}});
}

TEST(GxGolden, I8TilesAreEightByFourAndRunLeftToRight) {
  Bytes d(64, 0);
  d[0] = 0x80;
  d[32] = 0x40;  // second tile: texel (8,0)
  d[8] = 0x01;   // row 1 of the first tile
  expect_gx(gx_i8, 16, 4, d, {{{0, 0}, {128, 128, 128, 128}}, {{8, 0}, {64, 64, 64, 64}}, {{0, 1}, {1, 1, 1, 1}}});
}

TEST(GxGolden, Ia4IsAlphaHighIntensityLow) {
  Bytes d(32, 0);
  d[0] = 0x3C;
  expect_gx(gx_ia4, 8, 4, d, {{{0, 0}, {0xCC, 0xCC, 0xCC, 0x33}}});
}

TEST(GxGolden, Ia8IsAlphaByteThenIntensityByte) {
  Bytes d(32, 0);
  d[0] = 0x40, d[1] = 0xC0;
  d[8] = 0xFF, d[9] = 0x10;  // (0,1)
  expect_gx(gx_ia8, 4, 4, d, {{{0, 0}, {0xC0, 0xC0, 0xC0, 0x40}}, {{0, 1}, {0x10, 0x10, 0x10, 0xFF}}});
}

TEST(GxGolden, Rgb565BigEndianWithBitReplication) {
  Bytes d(32, 0);
  d[0] = 0xF8, d[1] = 0x00;  // red
  d[2] = 0x07, d[3] = 0xE0;  // green
  d[4] = 0x00, d[5] = 0x1F;  // blue
  d[6] = 0x84, d[7] = 0x10;  // r=16 -> 132, g=32 -> 130, b=16 -> 132
  expect_gx(gx_rgb565, 4, 4, d,
            {{{0, 0}, {255, 0, 0, 255}}, {{1, 0}, {0, 255, 0, 255}}, {{2, 0}, {0, 0, 255, 255}}, {{3, 0}, {132, 130, 132, 255}}});
}

TEST(GxGolden, Rgb5a3TopBitChoosesOpaque555OrTranslucent4443) {
  Bytes d(32, 0);
  d[0] = 0xFC, d[1] = 0x00;  // 1 11111 00000 00000: opaque red
  d[2] = 0x3F, d[3] = 0x00;  // 0 011 1111 0000 0000: alpha 3 -> 0x6D, red 15 -> 255
  d[4] = 0x80, d[5] = 0x21;  // opaque, r=0, g=1 -> 8, b=1 -> 8
  expect_gx(gx_rgb5a3, 4, 4, d, {{{0, 0}, {255, 0, 0, 255}}, {{1, 0}, {255, 0, 0, 0x6D}}, {{2, 0}, {0, 8, 8, 255}}});
}

// Alpha 7 in the 4443 mode is also opaque (expand3(7) = 255): Nintendo's sky textures store opaque
// 4-bit colours that way, and a fresh encode must keep them there, not round them into RGB555.
TEST(GxGolden, Rgb5a3KeepsOpaqueFourBitColoursIn4443) {
  Bytes d(32, 0);
  d[0] = 0x7B, d[1] = 0xCF;  // 0 111 1011 1100 1111: alpha 255, (0xBB, 0xCC, 0xFF)
  d[2] = 0x80, d[3] = 0x21;  // opaque 555 still wins where it is exact: (0, 8, 8)
  d[4] = 0xFF, d[5] = 0xFF;  // white: 555 (both modes hold it; 555 is the one the top bit names opaque)
  expect_gx(gx_rgb5a3, 4, 4, d, {{{0, 0}, {0xBB, 0xCC, 0xFF, 255}}, {{1, 0}, {0, 8, 8, 255}}, {{2, 0}, {255, 255, 255, 255}}});
  EXPECT_EQ(gx_palette_representable({0xBB, 0xCC, 0xFF, 255}, gx_palette_rgb5a3), (Rgba{0xBB, 0xCC, 0xFF, 255}));
}

TEST(GxGolden, Rgba8IsArPairsThenGbPairs) {
  Bytes d(64, 0);
  d[0] = 0x11, d[1] = 0x22, d[32] = 0x33, d[33] = 0x44;  // texel 0: A R ... G B
  d[2] = 0x55, d[3] = 0x66, d[34] = 0x77, d[35] = 0x88;  // texel 1
  expect_gx(gx_rgba8, 4, 4, d, {{{0, 0}, {0x22, 0x33, 0x44, 0x11}}, {{1, 0}, {0x66, 0x77, 0x88, 0x55}}});
}

TEST(GxGolden, IndexedFormatsLookUpTheirPalette) {
  // IA8 palette: entry 1 = alpha 0x80, intensity 0x20.
  const Bytes ia8_palette = {0x00, 0x00, 0x80, 0x20};
  auto palette = decode_gx_palette(ia8_palette, gx_palette_ia8, 2);
  ASSERT_TRUE(palette.ok());
  Bytes c4(32, 0);
  c4[0] = 0x01;  // (0,0)=0, (1,0)=1
  auto image = decode_gx_image(gx_c4, 8, 8, c4, *palette);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(px(*image, 0, 0), (Rgba{0, 0, 0, 0}));
  EXPECT_EQ(px(*image, 1, 0), (Rgba{0x20, 0x20, 0x20, 0x80}));
  EXPECT_EQ(encode_gx_palette(*palette, gx_palette_ia8), ia8_palette);

  // C8 with an RGB565 palette, C14X2 with RGB5A3: the top two bits of a C14X2 texel are not index.
  auto rgb565 = decode_gx_palette(Bytes{0x00, 0x00, 0xF8, 0x00}, gx_palette_rgb565, 2);
  ASSERT_TRUE(rgb565.ok());
  Bytes c8(32, 0);
  c8[1] = 1;
  image = decode_gx_image(gx_c8, 8, 4, c8, *rgb565);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(px(*image, 1, 0), (Rgba{255, 0, 0, 255}));
  auto rgb5a3 = decode_gx_palette(Bytes{0x00, 0x00, 0x80, 0x1F}, gx_palette_rgb5a3, 2);
  ASSERT_TRUE(rgb5a3.ok());
  Bytes c14(32, 0);
  c14[0] = 0xC0, c14[1] = 0x01;
  auto indices = decode_gx_indices(gx_c14x2, 4, 4, c14);
  ASSERT_TRUE(indices.ok());
  EXPECT_EQ((*indices)[0], 1);
  image = decode_gx_image(gx_c14x2, 4, 4, c14, *rgb5a3);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(px(*image, 0, 0), (Rgba{0, 0, 255, 255}));
  // Unchanged tiles keep their bytes, the unused index bits included.
  EXPECT_EQ(encode_gx_indices(gx_c14x2, 4, 4, *indices, c14), c14);
  Bytes plain = c14;
  plain[0] = 0x00;
  EXPECT_EQ(encode_gx_indices(gx_c14x2, 4, 4, *indices), plain);
}

TEST(GxGolden, CmprBlendsFiveEighthsAndHasAPunchThroughMode) {
  Bytes d(32, 0);
  // Sub-block 0: c0 red > c1 blue, four colours; row 0 uses indices 0, 1, 2, 3 (first texel in the top bits).
  d[0] = 0xF8, d[1] = 0x00, d[2] = 0x00, d[3] = 0x1F, d[4] = 0x1B;
  // Sub-block 1 (texels 4-7 of rows 0-3): c0 blue <= c1 red, three colours and transparent.
  d[8] = 0x00, d[9] = 0x1F, d[10] = 0xF8, d[11] = 0x00, d[12] = 0x1B;
  auto image = decode_gx_image(gx_cmpr, 8, 8, d);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(px(*image, 0, 0), (Rgba{255, 0, 0, 255}));
  EXPECT_EQ(px(*image, 1, 0), (Rgba{0, 0, 255, 255}));
  EXPECT_EQ(px(*image, 2, 0), (Rgba{159, 0, 95, 255}));  // (5*255 + 3*0) / 8, (5*0 + 3*255) / 8
  EXPECT_EQ(px(*image, 3, 0), (Rgba{95, 0, 159, 255}));
  EXPECT_EQ(px(*image, 0, 1), (Rgba{255, 0, 0, 255}));  // row 1 byte is 0: colour 0
  EXPECT_EQ(px(*image, 6, 0), (Rgba{127, 0, 127, 255}));  // the average
  EXPECT_EQ(px(*image, 7, 0), (Rgba{127, 0, 127, 0}));    // transparent
  // libsquish picks its own end points, so only the decoded pixels are compared; every tile kept.
  EXPECT_EQ(encode_gx_image(gx_cmpr, *image, d), d);
  auto again = decode_gx_image(gx_cmpr, 8, 8, encode_gx_image(gx_cmpr, *image));
  ASSERT_TRUE(again.ok());
  for (int x : {0, 1, 4, 5}) EXPECT_EQ(px(*again, x, 0), px(*image, x, 0)) << x;
  EXPECT_EQ(px(*again, 7, 0)[3], 0);
}

TEST(GxGolden, MipLevelsFollowEachOtherInWholeTiles) {
  EXPECT_EQ(gx_image_size(gx_cmpr, 16, 16, 3), 128u + 32u + 32u);  // 16x16, 8x8, 4x4 (one padded tile)
  EXPECT_EQ(gx_level_offset(gx_cmpr, 16, 16, 2), 160u);
  EXPECT_EQ(gx_level_extent(16, 5), 1);
  EXPECT_EQ(gx_level_extent(16, 200), 1);
}

TEST(GxBadInput, ShortDataAndSmallPalettesAreErrors) {
  auto short_image = decode_gx_image(gx_rgb565, 8, 8, Bytes(100, 0));
  ASSERT_FALSE(short_image.ok());
  EXPECT_EQ(short_image.error().code, ErrorCode::truncated);
  EXPECT_NE(short_image.error().message.find("128 bytes"), std::string::npos) << short_image.error().message;
  Bytes c8(32, 0);
  c8[5] = 7;
  auto small_palette = decode_gx_image(gx_c8, 8, 4, c8, std::vector<Rgba>(4));
  ASSERT_FALSE(small_palette.ok());
  EXPECT_EQ(small_palette.error().field, "palette");
  EXPECT_NE(small_palette.error().message.find("palette entry 7"), std::string::npos);
  EXPECT_FALSE(decode_gx_image(7, 8, 8, Bytes(256, 0)).ok());
  EXPECT_FALSE(decode_gx_palette(Bytes(4, 0), 3, 2).ok());
  EXPECT_FALSE(decode_gx_palette(Bytes(3, 0), gx_palette_rgb565, 2).ok());
}

TEST(GxBadInput, ReplacingWithAnImageTooLargeForGxIsRefused) {
  J3dTex1 tex1;
  tex1.textures.resize(1);
  tex1.textures[0].format = gx_i8;
  tex1.textures[0].width = 8, tex1.textures[0].height = 4;
  tex1.blocks.resize(1);
  tex1.blocks[0].data.assign(32, 0);
  auto error = replace_j3d_texture(tex1, 0, RgbaImage(1025, 4));
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.error().field, "width");
  EXPECT_FALSE(replace_j3d_texture(tex1, 0, RgbaImage(0, 4)).ok());
  // A new size is taken, the block resized to whole tiles.
  ASSERT_TRUE(replace_j3d_texture(tex1, 0, RgbaImage(9, 5)).ok());
  EXPECT_EQ(tex1.textures[0].width, 9);
  EXPECT_EQ(tex1.blocks[0].data.size(), 4u * 32u);
}

// Found by fuzz_j3d: a stored mip count of 0 (meaning 1) and a width of 0.
TEST(GxBadInput, MipCountZeroIsKeptAndZeroWidthDoesNotDecode) {
  J3dTex1 tex1;
  tex1.textures.resize(1);
  J3dTexture& t = tex1.textures[0];
  t.format = gx_i4;
  t.width = 8, t.height = 8;
  t.mip_count = 0;
  tex1.blocks.resize(1);
  tex1.blocks[0].data.assign(32, 0x0F);
  auto image = decode_j3d_texture(tex1, 0);
  ASSERT_TRUE(image.ok());
  ASSERT_TRUE(replace_j3d_texture(tex1, 0, *image).ok());
  EXPECT_EQ(t.mip_count, 0);
  EXPECT_EQ(tex1.blocks[0].data, Bytes(32, 0x0F));
  // More levels than the size allows (fuzz_j3d): kept at the same size, cut to 1x1 on a new size.
  t.mip_count = 9;
  tex1.blocks[0].data.assign(gx_image_size(gx_i4, 8, 8, 9), 0x0F);
  ASSERT_TRUE(replace_j3d_texture(tex1, 0, *image).ok());
  EXPECT_EQ(t.mip_count, 9);
  ASSERT_TRUE(replace_j3d_texture(tex1, 0, RgbaImage(16, 8)).ok());
  EXPECT_EQ(t.mip_count, 5);  // 16x8, 8x4, 4x2, 2x1, 1x1
  EXPECT_EQ(tex1.blocks[0].data.size(), gx_image_size(gx_i4, 16, 8, 5));
  t.width = 0;
  auto zero = decode_j3d_texture(tex1, 0);
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error().field, "width");
}

// ---- TIM2 ----

Tim2Picture tim2_picture(std::uint8_t image_type, std::uint8_t clut_type, std::uint16_t w, std::uint16_t h) {
  Tim2Picture p;
  p.image_type = image_type;
  p.clut_type = clut_type;
  p.width = w, p.height = h;
  const unsigned bits = image_type == 1 ? 16 : image_type == 2 ? 24 : image_type == 3 ? 32 : image_type == 4 ? 4 : 8;
  p.image.assign((w * bits + 7) / 8 * h, 0);
  if (image_type >= 4) {
    p.clut_colors = image_type == 4 ? 16 : 256;
    p.clut.assign(p.clut_colors * tim2_clut_entry_size(clut_type), 0);
  }
  return p;
}

TEST(Tim2Golden, FourBitIsLowNibbleFirst) {
  Tim2Picture p = tim2_picture(4, 3, 4, 1);
  p.image = {0x21, 0x03};  // texels 1, 2, 3, 0
  for (int i = 0; i < 4; ++i) p.clut[4 + i] = static_cast<std::uint8_t>(0x10 + i);  // entry 1 = 10 11 12 13
  p.clut[8] = 0xAA, p.clut[11] = 0xFF;                                              // entry 2
  auto image = decode_tim2_picture(p);
  ASSERT_TRUE(image.ok()) << image.error().describe();
  EXPECT_EQ(px(*image, 0, 0), (Rgba{0x10, 0x11, 0x12, 0x13}));
  EXPECT_EQ(px(*image, 1, 0), (Rgba{0xAA, 0, 0, 0xFF}));
  Tim2Picture copy = p;
  ASSERT_TRUE(encode_tim2_picture(copy, *image).ok());
  EXPECT_EQ(copy.image, p.image);
  EXPECT_EQ(copy.clut, p.clut);
}

TEST(Tim2Golden, EightBitClutIsInCsm1OrderUnlessCsm2) {
  Tim2Picture p = tim2_picture(5, 3, 2, 1);
  p.image = {8, 16};
  p.clut[16 * 4] = 0x80;  // index 8 lives in slot 16
  p.clut[8 * 4 + 1] = 0x40;  // index 16 lives in slot 8
  auto image = decode_tim2_picture(p);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(px(*image, 0, 0), (Rgba{0x80, 0, 0, 0}));
  EXPECT_EQ(px(*image, 1, 0), (Rgba{0, 0x40, 0, 0}));
  p.clut_type = 0x83;  // CSM2: linear
  image = decode_tim2_picture(p);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(px(*image, 0, 0), (Rgba{0, 0x40, 0, 0}));
}

TEST(Tim2Golden, DirectColourIs5551Or888Or8888LittleEndian) {
  Tim2Picture p = tim2_picture(1, 0, 2, 1);
  p.image = {0x1F, 0x80, 0x00, 0x7C};  // 0x801F: red, opaque; 0x7C00: blue, alpha bit clear
  auto image = decode_tim2_picture(p);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(px(*image, 0, 0), (Rgba{255, 0, 0, 255}));
  EXPECT_EQ(px(*image, 1, 0), (Rgba{0, 0, 255, 0}));
  Tim2Picture copy = p;
  ASSERT_TRUE(encode_tim2_picture(copy, *image).ok());
  EXPECT_EQ(copy.image, p.image);
  p = tim2_picture(2, 0, 1, 1);
  p.image = {1, 2, 3};
  EXPECT_EQ(px(*decode_tim2_picture(p), 0, 0), (Rgba{1, 2, 3, 255}));
}

TEST(Tim2Golden, ANewSizeUpdatesTheHeaderAndGsTex0) {
  Tim2Picture p = tim2_picture(3, 0, 64, 16);
  // TBW = 1 (64 texels), TW = 6, TH = 4, as a GS would be set up for 64x16.
  p.gs_tex0 = (std::uint64_t{1} << 14) | (std::uint64_t{6} << 26) | (std::uint64_t{4} << 30);
  ASSERT_TRUE(encode_tim2_picture(p, RgbaImage(80, 40)).ok());
  EXPECT_EQ(p.width, 80);
  EXPECT_EQ(p.height, 40);
  EXPECT_EQ(p.image.size(), 80u * 40u * 4u);
  EXPECT_EQ(p.gs_tex0, (std::uint64_t{2} << 14) | (std::uint64_t{7} << 26) | (std::uint64_t{6} << 30));
}

TEST(Tim2BadInput, ShortDataSmallClutsAndLimits) {
  Tim2Picture p = tim2_picture(5, 3, 4, 4);
  p.image.resize(15);
  auto short_image = decode_tim2_picture(p);
  ASSERT_FALSE(short_image.ok());
  EXPECT_EQ(short_image.error().code, ErrorCode::truncated);
  p = tim2_picture(5, 3, 4, 1);
  p.clut_colors = 4;
  p.image = {0, 1, 2, 9};
  auto small = decode_tim2_picture(p);
  ASSERT_FALSE(small.ok());
  EXPECT_NE(small.error().message.find("palette entry 9"), std::string::npos) << small.error().message;
  p.clut.resize(8);
  EXPECT_EQ(decode_tim2_picture(p).error().code, ErrorCode::truncated);
  p = tim2_picture(7, 0, 4, 4);
  EXPECT_EQ(decode_tim2_picture(p).error().code, ErrorCode::unsupported);
  p = tim2_picture(3, 0, 4, 4);
  auto big = encode_tim2_picture(p, RgbaImage(2048, 4));
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.error().field, "width");
}

TEST(Tim2BadInput, AMipmappedPictureReencodesUneditedButRefusesNewPixels) {
  Tim2Picture p = tim2_picture(3, 0, 4, 4);
  p.mipmap_count = 2;
  p.image.resize(p.image.size() + 16, 0xAB);  // level 1 behind level 0
  auto image = decode_tim2_picture(p);
  ASSERT_TRUE(image.ok());
  const Bytes before = p.image;
  EXPECT_TRUE(encode_tim2_picture(p, *image).ok());
  EXPECT_EQ(p.image, before);
  image->rgba[0] = 1;
  auto error = encode_tim2_picture(p, *image);
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.error().code, ErrorCode::unsupported);
}

// ---- TMH ----

TEST(TmhGolden, PixelsAreSwizzledInSixteenByteByEightRowBlocks) {
  TmhImage t;
  t.mode = 5;  // CLUT8
  t.width = 32, t.height = 8;
  t.pixels.assign(256, 0);
  t.pixels[16] = 1;   // block 0, row 1: texel (0,1)
  t.pixels[128] = 2;  // block 1, row 0: texel (16,0)
  t.clut = TmhClut{2, 1, 256, Bytes(512, 0)};  // 5551
  t.clut->data[2] = 0x1F, t.clut->data[3] = 0x80;  // entry 1: opaque red
  t.clut->data[4] = 0xE0, t.clut->data[5] = 0x03;  // entry 2: green, transparent
  auto image = decode_tmh_image(t);
  ASSERT_TRUE(image.ok()) << image.error().describe();
  EXPECT_EQ(px(*image, 0, 1), (Rgba{255, 0, 0, 255}));
  EXPECT_EQ(px(*image, 16, 0), (Rgba{0, 255, 0, 0}));
  EXPECT_EQ(px(*image, 1, 0), (Rgba{0, 0, 0, 0}));
  TmhImage copy = t;
  ASSERT_TRUE(encode_tmh_image(copy, *image).ok());
  EXPECT_EQ(copy.pixels, t.pixels);
}

TEST(TmhGolden, Clut4And8888AndDirect4444) {
  TmhImage t;
  t.mode = 4;
  t.width = 32, t.height = 8;  // 16 bytes a row: one block wide
  t.pixels.assign(128, 0);
  t.pixels[0] = 0x10;  // low nibble first: (0,0)=0, (1,0)=1
  t.clut = TmhClut{2, 3, 16, Bytes(64, 0)};
  t.clut->data[4] = 1, t.clut->data[5] = 2, t.clut->data[6] = 3, t.clut->data[7] = 4;
  auto image = decode_tmh_image(t);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(px(*image, 1, 0), (Rgba{1, 2, 3, 4}));
  TmhImage direct;
  direct.mode = 2;  // 4444
  direct.width = 8, direct.height = 8;
  direct.pixels.assign(128, 0);
  direct.pixels[0] = 0x21, direct.pixels[1] = 0x43;  // r=1 g=2 b=3 a=4
  image = decode_tmh_image(direct);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(px(*image, 0, 0), (Rgba{0x11, 0x22, 0x33, 0x44}));
}

// Found by fuzz_tmh: an odd CLUT4 width needs its last half byte; 33 texels are 17 bytes, so 32 a row.
TEST(TmhGolden, OddClut4WidthsRoundTheRowUp) {
  TmhImage t;
  t.mode = 4;
  t.width = 33, t.height = 1;
  t.pixels.assign(32 * 8, 0);
  t.pixels[128] = 0x05;  // second 16-byte block of row 0: byte 16 holds texel 32 in its low nibble
  t.clut = TmhClut{2, 3, 16, Bytes(64, 0)};
  t.clut->data[5 * 4] = 0xEE;
  auto image = decode_tmh_image(t);
  ASSERT_TRUE(image.ok()) << image.error().describe();
  EXPECT_EQ(px(*image, 32, 0)[0], 0xEE);
  t.pixels.resize(128);
  EXPECT_EQ(decode_tmh_image(t).error().code, ErrorCode::truncated);
}

TEST(TmhBadInput, MissingPaletteShortPixelsAndUnknownModes) {
  TmhImage t;
  t.mode = 5;
  t.width = 16, t.height = 8;
  t.pixels.assign(128, 0);
  EXPECT_EQ(decode_tmh_image(t).error().field, "clut");
  t.clut = TmhClut{2, 1, 4, Bytes(8, 0)};
  t.pixels[3] = 200;
  EXPECT_NE(decode_tmh_image(t).error().message.find("palette entry 200"), std::string::npos);
  t.pixels.resize(100);
  EXPECT_EQ(decode_tmh_image(t).error().code, ErrorCode::truncated);
  t.mode = 9;
  EXPECT_EQ(decode_tmh_image(t).error().code, ErrorCode::unsupported);
  t.mode = 5;
  t.pixels.assign(128, 0);
  EXPECT_EQ(encode_tmh_image(t, RgbaImage(600, 8)).error().field, "width");
}

// ---- palettes and PNG ----

TEST(Palette, NewColoursAreQuantisedIntoTheFormatsPalette) {
  RgbaImage image(16, 16);
  for (std::uint32_t y = 0; y < 16; ++y) {
    for (std::uint32_t x = 0; x < 16; ++x) {
      std::uint8_t* p = image.at(x, y);
      p[0] = static_cast<std::uint8_t>(x * 17), p[1] = static_cast<std::uint8_t>(y * 17), p[2] = 0, p[3] = 255;
    }
  }
  auto q = quantize_image(image, 16, 3, [](Rgba c) { return psp::representable(PspColour::c5551, c); });
  ASSERT_TRUE(q.ok()) << q.error().describe();
  EXPECT_LE(q->palette.size(), 16u);
  EXPECT_EQ(q->indices.size(), 256u);
  for (const Rgba& c : q->palette) EXPECT_EQ(c, psp::representable(PspColour::c5551, c));
  // Fitting prefers the reference index among equal colours.
  const std::vector<Rgba> palette = {{1, 1, 1, 1}, {1, 1, 1, 1}};
  RgbaImage one(1, 1);
  std::fill(one.rgba.begin(), one.rgba.end(), 1);
  const std::vector<std::uint16_t> reference = {1};
  EXPECT_EQ(fit_palette(one, palette)->at(0), 0);
  EXPECT_EQ(fit_palette(one, palette, &reference)->at(0), 1);
  one.rgba[0] = 2;
  EXPECT_FALSE(fit_palette(one, palette).has_value());
}

TEST(Png, WritesAndReadsBackEveryPixel) {
  RgbaImage image(3, 2);
  for (std::size_t i = 0; i < image.rgba.size(); ++i) image.rgba[i] = static_cast<std::uint8_t>(i * 11);
  const Bytes png = write_png(image);
  ASSERT_GT(png.size(), 8u);
  EXPECT_EQ(png[1], 'P');
  auto back = read_png(png);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_TRUE(back.value() == image);
  Bytes broken = png;
  broken.resize(20);
  EXPECT_FALSE(read_png(broken).ok());
  EXPECT_FALSE(read_png(Bytes{1, 2, 3}).ok());
}

}  // namespace
}  // namespace remodel
