// BPK (J3D1 bpk1, PAK1): every sample reads and writes back identical; a file built by hand from
// docs/j3d-animations.md (two materials sharing runs, tangent mode 0 keys, duration at 0x0C) reads
// to its keys and back; hostile files fail with the field and offset.
#include <gtest/gtest.h>

#include "anim_samples.hpp"
#include "j3d/big_endian.hpp"
#include "model/j3d/anim.hpp"

namespace remodel {
namespace {

using test::be16;
using test::be32;

// "a": R keyed (2 keys, tangent mode 0), G 0, B 0, A 255. "b": R 255, found in a's run at 4; G 0 and
// A 255 shared at 0; B 255 appended at 1.
Bytes golden_bpk() {
  Bytes f;
  test::j3d_anim_header(f, "bpk1", "PAK1");
  f.push_back(0);  // once
  f.insert(f.end(), 3, 0xFF);
  be16(f, 5);  // duration
  be16(f, 2);  // animations
  for (std::uint16_t n : {6, 1, 2, 1}) be16(f, n);
  for (std::uint32_t o : {0x40u, 0x88u, 0x8Cu, 0x70u, 0x7Cu, 0x80u, 0x84u}) be32(f, o);
  test::pad_j3d(f, 0x20, 32);
  for (std::uint16_t v : {2, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0}) be16(f, v);  // a: R, G, B, A records
  for (std::uint16_t v : {1, 4, 0, 1, 0, 0, 1, 1, 0, 1, 0, 0}) be16(f, v);  // b
  for (std::uint16_t v : {0, 0, 0, 5, 255, 0, 0}) be16(f, v);                // R; G
  test::pad_j3d(f, 0x20, 4);
  for (std::uint16_t v : {0, 255, 255}) be16(f, v);  // B; A
  test::pad_j3d(f, 0x20, 4);
  be16(f, 0);  // remap
  be16(f, 1);
  be16(f, 2);  // names
  be16(f, 0xFFFF);
  for (std::uint16_t v : {std::uint16_t{'a'}, std::uint16_t{12}, std::uint16_t{'b'}, std::uint16_t{14}}) be16(f, v);  // a one-letter name's hash is the letter
  test::put_text(f, "a");
  f.push_back(0);
  test::put_text(f, "b");
  f.push_back(0);
  test::pad_j3d(f, 0x20, 32);
  test::patch_j3d_sizes(f, 0x20);
  return f;
}

TEST(AnimBpk, GoldenReadsToItsKeysAndWritesBack) {
  const Bytes bytes = golden_bpk();
  ASSERT_EQ(bytes.size(), 0xC0u);
  Result<J3dAnimFile> r = read_j3d_anim(bytes);
  ASSERT_TRUE(r) << r.error().message;
  const auto& p = std::get<J3dPak1>(r.value().section);
  EXPECT_EQ(p.duration, 5);
  ASSERT_EQ(p.colours.anims.size(), 2u);
  EXPECT_EQ(p.colours.names.names, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(p.colours.anims[0].rgba[0].values, (std::vector<std::int16_t>{0, 0, 0, 5, 255, 0}));
  EXPECT_EQ(p.colours.anims[1].rgba[0].values, std::vector<std::int16_t>{255});
  EXPECT_EQ(p.colours.anims[1].rgba[2].values, std::vector<std::int16_t>{255});
  EXPECT_EQ(p.colours.anims[1].remap, 1);
  WriteReport report;
  Result<Bytes> w = write_j3d_anim(r.value(), &report);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w.value(), bytes);
  EXPECT_EQ(report.verbatim_bytes, 0u);
}

TEST(AnimBpk, HostileFilesFailWithFieldAndOffset) {
  const Bytes good = golden_bpk();
  for (std::size_t n : {0u, 0x30u, 0x53u, 0x70u, 0xA0u, 0xBFu}) {
    EXPECT_FALSE(read_j3d_anim(ByteSpan(good).first(n))) << n;
  }
  Bytes huge = good;
  huge[0x20 + 0x0E] = 0xFF;  // 65282 animations
  Result<J3dAnimFile> r = read_j3d_anim(huge);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("anim_count"), std::string::npos) << r.error().field;
  Bytes mode = good;
  mode[0x20 + 0x40 + 5] = 2;  // a's R tangent mode 2
  r = read_j3d_anim(mode);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("tangent_mode"), std::string::npos) << r.error().field;
  EXPECT_EQ(r.error().offset, std::optional<std::size_t>(0x20 + 0x40 + 4));
  Bytes back = good;
  back[0x20 + 0x27] = 0x60;  // R at 0x60, inside the animations
  r = read_j3d_anim(back);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("r_offset"), std::string::npos) << r.error().field;
}

TEST(AnimBpk, EverySampleWritesBackIdentical) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim");
  EXPECT_EQ(test::expect_anims_identical(files, ".bpk").files, 4u);
}

}  // namespace
}  // namespace remodel
