#include <gtest/gtest.h>

#include <bit>
#include <filesystem>

#include "model/document.hpp"
#include "model/kh_bbs/demo.hpp"
#include "model/kh_bbs/tim2.hpp"
#include "round_trip.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

// A 4x2 4-bit TIM2 with a 16-entry 32-bit CLUT, written by hand from the TIM2 layout.
Bytes golden_tim2(std::uint32_t total_size, std::uint32_t clut_size) {
  Bytes b = {'T', 'I', 'M', '2', 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  auto u16 = [&](std::uint16_t v) { b.push_back(v & 0xFF); b.push_back(v >> 8); };
  auto u32 = [&](std::uint32_t v) { u16(v & 0xFFFF); u16(v >> 16); };
  u32(total_size);
  u32(clut_size);
  u32(4);        // image size: 4x2 pixels at 4 bits
  u16(0x30);     // header size
  u16(16);       // clut colours
  b.push_back(0);  // pict format
  b.push_back(1);  // mipmaps
  b.push_back(3);  // clut type: 32-bit
  b.push_back(4);  // image type: 4-bit indexed
  u16(4);
  u16(2);
  for (int i = 0; i < 24; ++i) b.push_back(static_cast<std::uint8_t>(i == 0 ? 0x11 : 0));  // GS registers
  for (std::uint8_t p : {0x10, 0x32, 0x54, 0x76}) b.push_back(p);
  for (int i = 0; i < 64; ++i) b.push_back(static_cast<std::uint8_t>(i));
  return b;
}

TEST(Tim2, GoldenReadsFieldByFieldAndWritesBack) {
  const Bytes b = golden_tim2(0x30 + 4 + 64, 64);
  auto f = read_tim2_file(b);
  ASSERT_TRUE(f.ok()) << f.error().describe();
  ASSERT_EQ(f->tim2.pictures.size(), 1u);
  const Tim2Picture& p = f->tim2.pictures[0];
  EXPECT_EQ(p.width, 4);
  EXPECT_EQ(p.height, 2);
  EXPECT_EQ(p.image_type, 4);
  EXPECT_EQ(p.clut_colors, 16);
  EXPECT_EQ(p.gs_tex0, 0x11u);
  EXPECT_EQ(p.image, (Bytes{0x10, 0x32, 0x54, 0x76}));
  EXPECT_EQ(p.clut.size(), 64u);
  EXPECT_FALSE(p.stored_total_size || p.stored_clut_size);
  EXPECT_FALSE(f->tail.stored());
  EXPECT_EQ(verbatim_bytes(*f), 0u);
  auto w = write_tim2_file(*f);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, b);
}

// Format 1 (128-byte alignment): the 16-byte file header is padded with zeros to 128, then the
// pictures follow as in format 0. Zeros are the canonical pad; other bytes there are kept and counted.
TEST(Tim2, Format1HeaderPaddedTo128ReadsAndWritesBack) {
  Bytes b = golden_tim2(0x30 + 4 + 64, 64);
  b[5] = 1;
  b.insert(b.begin() + 16, 112, 0);
  auto f = read_tim2_file(b);
  ASSERT_TRUE(f.ok()) << f.error().describe();
  EXPECT_EQ(f->tim2.format, 1);
  EXPECT_FALSE(f->tim2.gap_after_header.stored());
  ASSERT_EQ(f->tim2.pictures.size(), 1u);
  EXPECT_EQ(f->tim2.pictures[0].image, (Bytes{0x10, 0x32, 0x54, 0x76}));
  EXPECT_EQ(verbatim_bytes(*f), 0u);
  auto w = write_tim2_file(*f);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  EXPECT_EQ(*w, b);
  EXPECT_EQ(tim2_size(f->tim2), b.size());

  b[16 + 7] = 0xAB;  // a tool's byte in the pad
  auto kept = read_tim2_file(b);
  ASSERT_TRUE(kept.ok()) << kept.error().describe();
  EXPECT_EQ(kept->tim2.gap_after_header.size(), 112u);
  EXPECT_EQ(verbatim_bytes(*kept), 112u);
  auto again = write_tim2_file(*kept);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, b);

  b[5] = 2;  // TIM2 defines formats 0 and 1 only
  auto other = read_tim2_file(b);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().field, "format");
  EXPECT_EQ(other.error().offset, 5u);
}

TEST(Tim2, ClutSizeQuirkIsKeptAndCounted) {
  // KH2's radar: ClutSize 0 and a meaningless total size; the palette is as long as its colours say.
  const Bytes b = golden_tim2(0xFFFFFFFD, 0);
  auto f = read_tim2_file(b);
  ASSERT_TRUE(f.ok()) << f.error().describe();
  const Tim2Picture& p = f->tim2.pictures[0];
  EXPECT_EQ(p.clut.size(), 64u);
  EXPECT_EQ(p.stored_clut_size, 0u);
  EXPECT_EQ(p.stored_total_size, 0xFFFFFFFDu);
  EXPECT_EQ(verbatim_bytes(*f), 8u);
  EXPECT_EQ(*write_tim2_file(*f), b);
}

TEST(Tim2, RejectsShortHeaderAndHugeCounts) {
  Bytes b = golden_tim2(0x30 + 4 + 64, 64);
  b[0x1C] = 0x10;  // header size below 0x30
  auto f = read_tim2_file(b);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().field, "picture[0].header_size");
  Bytes c = golden_tim2(0x30 + 4 + 64, 64);
  c[6] = 0xFF;
  c[7] = 0xFF;  // 65535 pictures
  f = read_tim2_file(c);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().code, ErrorCode::bad_count);
}

TEST(Tim2, SamplesRoundTrip) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/tm2");
  for (const auto& path : files) test::expect_round_trip(path);
}

// The picture's GS TEX0 decoded by the GS bit layout (PSM bits 20-25, TW 26-29, TH 30-33) against
// what the picture stores: empty when they agree, else what differs.
std::string tex0_mismatch(const Tim2Picture& p) {
  constexpr std::uint64_t kPsm[6] = {0, 2, 1, 0, 20, 19};  // PSMCT16, PSMCT24, PSMCT32, PSMT4, PSMT8 by image type
  const auto log2_up = [](unsigned v) { return v <= 1 ? 0u : static_cast<unsigned>(std::bit_width(v - 1)); };
  const std::uint64_t psm = p.gs_tex0 >> 20 & 0x3F, tw = p.gs_tex0 >> 26 & 0xF, th = p.gs_tex0 >> 30 & 0xF;
  std::string out;
  if (p.image_type < 1 || p.image_type > 5 || psm != kPsm[p.image_type]) out += " PSM " + std::to_string(psm) + " for image type " + std::to_string(p.image_type);
  if (tw != log2_up(p.width)) out += " TW " + std::to_string(tw) + " for width " + std::to_string(p.width);
  if (th != log2_up(p.height)) out += " TH " + std::to_string(th) + " for height " + std::to_string(p.height);
  return out;
}

void expect_registers_agree(const Document& doc, const std::string& what) {
  const std::vector<Tim2>* tim2s = nullptr;
  std::vector<Tim2> one;
  if (const auto* pmo = std::get_if<PmoFile>(&doc)) tim2s = &pmo->pmo.tim2s;
  if (const auto* pmp = std::get_if<Pmp>(&doc)) tim2s = &pmp->tim2s;
  if (const auto* tim2 = std::get_if<Tim2File>(&doc)) tim2s = &(one = {tim2->tim2});
  if (tim2s == nullptr) return;
  for (std::size_t t = 0; t < tim2s->size(); ++t) {
    for (const Tim2Picture& p : (*tim2s)[t].pictures) EXPECT_EQ(tex0_mismatch(p), "") << what << " TIM2 " << t;
  }
}

// Every TIM2 the project writes states in GsTex0 the pixel type and size it stores, as every KH BBS
// sample does (issue 31: the demo PMO's typed 0x0000000500003340 said PSMCT32, TW 0, TH 4), and
// GsTex1 0x260 as every KH BBS model's TIM2.
TEST(Tim2, RegistersDecodeToWhatThePictureStores) {
  const PmoFile demo = build_demo_pmo();
  expect_registers_agree(Document{demo}, "the demo PMO");
  EXPECT_EQ(demo.pmo.tim2s.at(0).pictures.at(0).gs_tex1, 0x260u);
  std::size_t seeds = 0;
  for (const char* target : {"kh_bbs_pmo", "kh_bbs_pmp", "tim2"}) {
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(REMODEL_CORPUS) / target)) {
      auto doc = read_document(test::load_file(e.path()));
      ASSERT_TRUE(doc) << e.path();
      expect_registers_agree(*doc, e.path().string());
      ++seeds;
    }
  }
  EXPECT_GE(seeds, 9u);
  // The samples agree, so the check reads the registers as the games do; KH2's radar (tt02.radar.tm2)
  // is the one TIM2 whose registers say otherwise, with its ClutSize of 0.
  for (const char* folder : {"kh-bbs/pmo", "kh-bbs/pmp", "kh-bbs/tm2"}) {
    for (const auto& path : test::sample_files(folder)) {
      if (path.filename() != "tt02.radar.tm2") expect_registers_agree(test::load_document(path), path.string());
    }
  }
}

}  // namespace
}  // namespace remodel
