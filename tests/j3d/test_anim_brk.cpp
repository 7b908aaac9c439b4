// BRK (J3D1 brk1, TRK1): every sample reads and writes back identical; a file built by hand from
// docs/j3d-animations.md with a konstant colour animation (no sample has one) reads to its keys and
// back; hostile files fail with the field and offset.
#include <gtest/gtest.h>

#include "anim_samples.hpp"
#include "j3d/big_endian.hpp"
#include "model/j3d/anim.hpp"

namespace remodel {
namespace {

using test::be16;
using test::be32;

void name_table(Bytes& f, std::uint16_t hash, const char* name) {
  be16(f, 1);
  be16(f, 0xFFFF);
  be16(f, hash);
  be16(f, 8);
  test::put_text(f, name);
  f.push_back(0);
}

// Register colour 1 of "reg": R keyed (2 keys, tangent mode 0), G 128, B 0, A 255. Konstant colour 3
// of "kon": G keyed (2 keys, mode 1), R, B, A 255. Each component has its own table; the konstant
// tables follow the register ones, each table after the filler to 4.
Bytes golden_brk() {
  Bytes f;
  test::j3d_anim_header(f, "brk1", "TRK1");
  f.push_back(0);  // once
  f.push_back(0xFF);
  be16(f, 10);  // duration
  be16(f, 1);   // register animations
  be16(f, 1);   // konstant animations
  for (std::uint16_t n : {6, 1, 1, 1, 1, 8, 1, 1}) be16(f, n);  // register then konstant R, G, B, A values
  for (std::uint32_t o : {0x60u, 0x7Cu, 0xCCu, 0xD0u, 0xD4u, 0xE0u, 0x98u, 0xA4u, 0xA8u, 0xACu, 0xB0u, 0xB4u, 0xC4u, 0xC8u}) be32(f, o);
  test::pad_j3d(f, 0x20, 32);
  for (std::uint16_t v : {2, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0}) be16(f, v);  // register R, G, B, A records
  be32(f, 0x01FFFFFF);  // colour 1, three bytes 0xFF
  for (std::uint16_t v : {1, 0, 0, 2, 0, 1, 1, 0, 0, 1, 0, 0}) be16(f, v);  // konstant
  be32(f, 0x03FFFFFF);
  for (std::uint16_t v : {0, 0, 0, 10, 255, 0}) be16(f, v);
  for (std::uint16_t v : {128, 0, 255, 255}) {  // register G, B, A; konstant R
    be16(f, v);
    test::pad_j3d(f, 0x20, 4);
  }
  for (std::uint16_t v : {0, 0, 0, 0, 10, 64, 1, 2}) be16(f, v);
  for (std::uint16_t v : {255, 255, 0, 0}) {  // konstant B, A; the remaps
    be16(f, v);
    test::pad_j3d(f, 0x20, 4);
  }
  name_table(f, 0x0598, "reg");  // ('r' * 3 + 'e') * 3 + 'g'
  name_table(f, 0x057E, "kon");
  test::pad_j3d(f, 0x20, 32);
  test::patch_j3d_sizes(f, 0x20);
  return f;
}

TEST(AnimBrk, GoldenReadsToItsKeysAndWritesBack) {
  const Bytes bytes = golden_brk();
  ASSERT_EQ(bytes.size(), 0x120u);
  Result<J3dAnimFile> r = read_j3d_anim(bytes);
  ASSERT_TRUE(r) << r.error().message;
  const auto& t = std::get<J3dTrk1>(r.value().section);
  EXPECT_EQ(t.duration, 10);
  ASSERT_EQ(t.registers.anims.size(), 1u);
  ASSERT_EQ(t.konstants.anims.size(), 1u);
  EXPECT_EQ(t.registers.names.names, std::vector<std::string>{"reg"});
  EXPECT_EQ(t.konstants.names.names, std::vector<std::string>{"kon"});
  EXPECT_EQ(t.registers.anims[0].colour_id, 1);
  EXPECT_EQ(t.konstants.anims[0].colour_id, 3);
  EXPECT_EQ(t.registers.anims[0].rgba[0].values, (std::vector<std::int16_t>{0, 0, 0, 10, 255, 0}));
  EXPECT_EQ(t.registers.anims[0].rgba[1].values, std::vector<std::int16_t>{128});
  EXPECT_EQ(t.konstants.anims[0].rgba[1].tangent_mode, 1);
  EXPECT_EQ(t.konstants.anims[0].rgba[1].values, (std::vector<std::int16_t>{0, 0, 0, 0, 10, 64, 1, 2}));
  WriteReport report;
  Result<Bytes> w = write_j3d_anim(r.value(), &report);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w.value(), bytes);
  EXPECT_EQ(report.verbatim_bytes, 0u);
}

TEST(AnimBrk, HostileFilesFailWithFieldAndOffset) {
  const Bytes good = golden_brk();
  for (std::size_t n : {0u, 0x30u, 0x77u, 0x90u, 0xD0u, 0x100u, 0x11Fu}) {
    EXPECT_FALSE(read_j3d_anim(ByteSpan(good).first(n))) << n;
  }
  Bytes huge = good;
  huge[0x20 + 0x0C] = 0xFF;  // 65281 register animations
  Result<J3dAnimFile> r = read_j3d_anim(huge);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("anim_count"), std::string::npos) << r.error().field;
  Bytes past = good;
  past[0x20 + 0x60 + 3] = 0x05;  // register R reads 6 values from value 5 of 6
  r = read_j3d_anim(past);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("index"), std::string::npos) << r.error().field;
  EXPECT_EQ(r.error().offset, std::optional<std::size_t>(0x20 + 0x60 + 2));
  Bytes names = good;
  names[0x20 + 0xD5] = 2;  // the register name table says 2 names for 1 animation
  r = read_j3d_anim(names);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().offset, std::optional<std::size_t>(0x20 + 0xD4));
}

TEST(AnimBrk, EverySampleWritesBackIdentical) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim");
  EXPECT_EQ(test::expect_anims_identical(files, ".brk").files, 4u);
}

}  // namespace
}  // namespace remodel
