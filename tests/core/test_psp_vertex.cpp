#include <gtest/gtest.h>

#include <bit>
#include <limits>
#include <utility>

#include "model/document.hpp"
#include "model/psp/vertex.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

using psp::ColorFormat;
using psp::NumFormat;
using psp::VertexFormat;

VertexFormat format_of(std::uint32_t vtype) {
  auto f = VertexFormat::from_vtype(vtype);
  EXPECT_TRUE(f.ok()) << (f.ok() ? "" : f.error().describe());
  return f.ok() ? *f : VertexFormat{};
}

TEST(PspVertex, LayoutOfRetailFormats) {
  // h03ex00 section 0: 8 u8 weights, u16 UV, 8888 colour, s16 position -> 24 bytes.
  auto l = format_of(0x01c31e).layout();
  EXPECT_EQ(l.weights, 0);
  EXPECT_EQ(l.texcoord, 8);
  EXPECT_EQ(l.color, 12);
  EXPECT_EQ(l.position, 16);
  EXPECT_EQ(l.size, 24);
  // p01ex00 section 0: 8 u8 weights, u16 UV, s16 position -> 18 bytes (2-byte alignment).
  l = format_of(0x01c302).layout();
  EXPECT_EQ(l.position, 12);
  EXPECT_EQ(l.size, 18);
  // bbs-dummy: u16 UV, float position -> 16 bytes.
  l = format_of(0x000182).layout();
  EXPECT_EQ(l.position, 4);
  EXPECT_EQ(l.size, 16);
}

TEST(PspVertex, VtypeRoundTripsAndRejectsInvalid) {
  EXPECT_EQ(format_of(0x01c31e).vtype(), 0x01c31eu);
  EXPECT_FALSE(VertexFormat::from_vtype(1 << 2).ok());        // colour code 1
  EXPECT_FALSE(VertexFormat::from_vtype(3 << 11).ok());       // index format 3
  EXPECT_FALSE(VertexFormat::from_vtype(1 << 18 | 0x180).ok());  // two morph targets
}

// Written by hand from the GE rules: 3 u16 weights, f32 UV, 5650 colour, s8 normal, f32 position.
// weights 0-5, pad 6-7, UV 8-15, colour 16-17, normal 18-20, pad 21-23, position 24-35.
const Bytes kGolden = {
    0x00, 0x10, 0x00, 0x20, 0x00, 0x00, 0xAB, 0xAB,  //
    0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x80, 0x3F,  //
    0x00, 0xF8, 0x7F, 0x81, 0x00, 0xAB, 0xAB, 0xAB,  //
    0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0x80, 0x3E};

TEST(PspVertex, GoldenFormatNoSampleHas) {
  VertexFormat f;
  f.weight = NumFormat::i16;
  f.weight_count = 3;
  f.texcoord = NumFormat::f32;
  f.color = ColorFormat::bgr5650;
  f.normal = NumFormat::i8;
  f.position = NumFormat::f32;
  const auto l = f.layout();
  EXPECT_EQ(l.size, 36);
  EXPECT_EQ(l.normal, 18);
  EXPECT_EQ(l.position, 24);
  ASSERT_EQ(format_of(f.vtype()).layout().size, 36);

  auto v = psp::decode_vertices(f, kGolden, 1);
  ASSERT_TRUE(v.ok());
  const psp::Vertex& x = (*v)[0];
  EXPECT_FLOAT_EQ(psp::unsigned_value(f.weight, x.weights[0]), 0.125f);
  EXPECT_FLOAT_EQ(psp::unsigned_value(f.weight, x.weights[1]), 0.25f);
  EXPECT_FLOAT_EQ(psp::unsigned_value(f.texcoord, x.texcoord[0]), 0.5f);
  EXPECT_FLOAT_EQ(psp::unsigned_value(f.texcoord, x.texcoord[1]), 1.0f);
  EXPECT_EQ(psp::decode_colour(*psp::colour_format(f.color), x.color), (Rgba{0, 0, 255, 255}));
  EXPECT_FLOAT_EQ(psp::signed_value(f.normal, x.normal[0]), 127.0f / 128.0f);
  EXPECT_FLOAT_EQ(psp::signed_value(f.normal, x.normal[1]), -127.0f / 128.0f);
  EXPECT_FLOAT_EQ(psp::signed_value(f.position, x.position[1]), -2.0f);
  EXPECT_FLOAT_EQ(psp::signed_value(f.position, x.position[2]), 0.25f);
  EXPECT_EQ(psp::encode_vertices(f, *v), kGolden);
}

TEST(PspVertex, ColourFormats) {
  const auto colour = [](ColorFormat f, std::uint32_t v) { return psp::decode_colour(*psp::colour_format(f), v); };
  EXPECT_EQ(psp::colour_format(ColorFormat::none), std::nullopt);
  EXPECT_EQ(colour(ColorFormat::abgr5551, 0x801F), (Rgba{255, 0, 0, 255}));
  EXPECT_EQ(colour(ColorFormat::abgr5551, 0x03E0), (Rgba{0, 255, 0, 0}));
  EXPECT_EQ(colour(ColorFormat::abgr4444, 0xF80F), (Rgba{255, 0, 136, 255}));
  EXPECT_EQ(colour(ColorFormat::abgr8888, 0x80402010u), (Rgba{0x10, 0x20, 0x40, 0x80}));
  EXPECT_EQ(colour(ColorFormat::bgr5650, 0x07E0), (Rgba{0, 255, 0, 255}));
}

// The values where a rounding decoder (c * 255 / max, rounded) and the GE's bit replication give
// different bytes: a vertex colour and a CLUT entry of the same stored value must agree.
TEST(PspColour, BitReplicationWhereRoundingDisagrees) {
  const std::pair<unsigned, std::uint8_t> five[] = {{3, 24}, {7, 57}, {24, 198}, {28, 231}};
  for (const auto& [c, want] : five) {
    const std::uint32_t v = c | c << 5 | c << 10 | 0x8000;  // 5551: the same 5 bits in red, green and blue
    const std::uint8_t bytes[2] = {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8)};
    EXPECT_EQ(psp::decode_colour(*psp::colour_format(ColorFormat::abgr5551), v), (Rgba{want, want, want, 255})) << c;
    EXPECT_EQ(psp::decode_colour(PspColour::c5551, bytes), (Rgba{want, want, want, 255})) << c;
  }
  const std::pair<unsigned, std::uint8_t> six[] = {{11, 44}, {12, 48}, {13, 52}, {14, 56}, {15, 60},
                                                   {48, 195}, {49, 199}, {50, 203}, {51, 207}, {52, 211}};
  for (const auto& [c, want] : six) {
    const std::uint32_t v = c << 5;  // 5650: green is the 6-bit channel
    const std::uint8_t bytes[2] = {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8)};
    EXPECT_EQ(psp::decode_colour(*psp::colour_format(ColorFormat::bgr5650), v), (Rgba{0, want, 0, 255})) << c;
    EXPECT_EQ(psp::decode_colour(PspColour::c5650, bytes), (Rgba{0, want, 0, 255})) << c;
  }
}

TEST(PspColour, EveryStoredSixteenBitValueEncodesBack) {
  for (PspColour c : {PspColour::c5650, PspColour::c5551, PspColour::c4444}) {
    for (std::uint32_t v = 0; v <= 0xFFFF; ++v) {
      ASSERT_EQ(psp::encode_colour(c, psp::decode_colour(c, v).data()), v) << static_cast<int>(c) << " " << v;
    }
  }
  const std::uint8_t rgba[4] = {1, 2, 3, 4};
  EXPECT_EQ(psp::encode_colour(PspColour::c8888, rgba), 0x04030201u);
  EXPECT_EQ(psp::decode_colour(PspColour::c888, 0x030201u), (Rgba{1, 2, 3, 255}));
}

TEST(PspVertex, GoldenFourHundredFortyFourAndS8Positions) {
  // 4444 colour then s8 position: colour 0-1, position 2-4, size rounded to 2 -> 6, pad 0xAB at 5.
  VertexFormat f;
  f.color = ColorFormat::abgr4444;
  f.position = NumFormat::i8;
  const Bytes golden = {0x0F, 0xF0, 0x80, 0x7F, 0x00, 0xAB, 0xFF, 0xFF, 0x40, 0xC0, 0x01, 0xAB};
  ASSERT_EQ(f.layout().size, 6);
  auto v = psp::decode_vertices(f, golden, 2);
  ASSERT_TRUE(v.ok());
  EXPECT_FLOAT_EQ(psp::signed_value(f.position, (*v)[0].position[0]), -1.0f);
  EXPECT_FLOAT_EQ(psp::signed_value(f.position, (*v)[1].position[1]), -0.5f);
  EXPECT_EQ(psp::encode_vertices(f, *v), golden);
  EXPECT_FALSE(psp::decode_vertices(f, ByteSpan(golden).first(11), 2).ok());
}

// Every section of every sample decodes and encodes back to its stored bytes, padding included,
// and the u8 weights of every vertex sum to 128 (so the decoder reads them from the right place).
void check_sections(const Pmo& pmo, const std::string& file, std::size_t& sections) {
  for (const auto* list : {&pmo.mesh0, &pmo.mesh1}) {
    if (!list->has_value()) continue;
    for (const PmoSection& s : (*list)->sections) {
      auto f = VertexFormat::from_vtype(s.vertex_flags & 0xFFFFFF);
      ASSERT_TRUE(f.ok()) << file;
      auto v = psp::decode_vertices(*f, s.vertices, s.vertex_count());
      ASSERT_TRUE(v.ok()) << file;
      EXPECT_EQ(psp::encode_vertices(*f, *v), s.vertices) << file << " section " << sections;
      if (f->weight == NumFormat::i8) {
        for (const psp::Vertex& x : *v) {
          unsigned sum = 0;
          for (std::size_t k = 0; k < f->weight_count; ++k) sum += x.weights[k];
          ASSERT_EQ(sum, 128u) << file;
        }
      }
      ++sections;
    }
  }
}

TEST(PspVertex, EverySampleSectionRoundTrips) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs");
  std::size_t sections = 0;
  for (const auto& path : files) {
    const Bytes b = test::load_file(path);
    auto doc = read_document(b);
    if (!doc.ok()) continue;
    if (auto* pmo = std::get_if<PmoFile>(&*doc)) check_sections(pmo->pmo, path.string(), sections);
    if (auto* pmp = std::get_if<Pmp>(&*doc)) {
      for (const Pmo& m : pmp->pmos) check_sections(m, path.string(), sections);
    }
  }
  EXPECT_GT(sections, 500u);
}

TEST(PspVertex, StoredIsTheInverseOfTheValueWithinRange) {
  using psp::NumFormat;
  for (std::uint32_t v = 0; v < 0x10000; v += 7) {
    EXPECT_EQ(psp::signed_stored(NumFormat::i16, psp::signed_value(NumFormat::i16, v)), v);
    EXPECT_EQ(psp::unsigned_stored(NumFormat::i16, psp::unsigned_value(NumFormat::i16, v)), v);
  }
  for (std::uint32_t v = 0; v < 0x100; ++v) {
    EXPECT_EQ(psp::signed_stored(NumFormat::i8, psp::signed_value(NumFormat::i8, v)), v);
    EXPECT_EQ(psp::unsigned_stored(NumFormat::i8, psp::unsigned_value(NumFormat::i8, v)), v);
  }
  EXPECT_EQ(psp::signed_stored(NumFormat::i8, 1.0f), std::nullopt);  // 128/128 is past s8
  EXPECT_EQ(psp::unsigned_stored(NumFormat::i8, -0.01f), std::nullopt);
  EXPECT_EQ(psp::signed_stored(NumFormat::i16, std::numeric_limits<float>::quiet_NaN()), std::nullopt);
  EXPECT_EQ(psp::signed_stored(NumFormat::f32, 0.3f), std::bit_cast<std::uint32_t>(0.3f));
}

TEST(PspVertex, StoredWeightsSumExactlyToOne) {
  using psp::NumFormat;
  const std::array<std::uint32_t, 8> thirds = psp::stored_weights(NumFormat::i8, 3, {1, 1, 1});
  EXPECT_EQ(thirds, (std::array<std::uint32_t, 8>{43, 43, 42}));  // 42.67 each: the two first slots take the rest
  const std::array<std::uint32_t, 8> q = psp::stored_weights(NumFormat::i16, 2, {0.75f, 0.25f});
  EXPECT_EQ(q[0] + q[1], 32768u);
  EXPECT_EQ(q[0], 24576u);
  EXPECT_EQ(psp::stored_weights(NumFormat::i8, 2, {0, 0}), (std::array<std::uint32_t, 8>{}));
}

}  // namespace
}  // namespace remodel
