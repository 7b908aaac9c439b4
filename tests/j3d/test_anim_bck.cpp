// BCK (J3D1 bck1, ANK1): every sample reads and writes back identical; hostile files fail with the
// field and offset; a file built by hand from docs/j3d-animations.md reads to its keys and back.
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <filesystem>

#include "model/document.hpp"
#include "model/j3d/anim.hpp"
#include "samples.hpp"
#include "j3d/big_endian.hpp"

namespace remodel {
namespace {

using test::be16;
using test::be32;
void pad32(Bytes& b, std::size_t base) {
  test::pad_j3d(b, base);
}

// One joint: scale x keyed (2 keys, tangent In: time, value, tangent), every other track one value.
// The table rule takes the tracks joint by joint, x to z: the keyed run first, then y's and z's 1.0
// found inside it at 1; the rotations share one 0; the translations 0 then y's 5.
Bytes golden_bck() {
  Bytes f;
  test::j3d_anim_header(f, "bck1", "ANK1");
  const std::size_t base = 0x20;
  f.push_back(2);  // repeat
  f.push_back(1);  // angle scale
  be16(f, 30);     // duration
  be16(f, 1);      // joints
  be16(f, 6);      // scales: (0, 1, 0) and (30, 2, 0.5)
  be16(f, 1);      // rotations: 0
  be16(f, 2);      // translations: 0, 5
  be32(f, 0x40);
  be32(f, 0x80);
  be32(f, 0xA0);
  be32(f, 0xC0);
  pad32(f, base);
  // (count, index, tangent mode) for x scale, rotation, translation, then y, then z.
  const std::uint16_t records[9][3] = {{2, 0, 0}, {1, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 0}, {1, 0, 0}, {1, 0, 0}};
  for (const auto& r : records) {
    for (std::uint16_t v : r) be16(f, v);
  }
  pad32(f, base);
  for (float v : {0.0f, 1.0f, 0.0f, 30.0f, 2.0f, 0.5f}) be32(f, std::bit_cast<std::uint32_t>(v));
  pad32(f, base);
  be16(f, 0);
  pad32(f, base);
  be32(f, 0);
  be32(f, std::bit_cast<std::uint32_t>(5.0f));
  pad32(f, base);
  test::patch_j3d_sizes(f, base);
  return f;
}

TEST(AnimBck, GoldenReadsToItsKeysAndWritesBack) {
  const Bytes bytes = golden_bck();
  Result<J3dAnimFile> r = read_j3d_anim(bytes);
  ASSERT_TRUE(r) << r.error().message;
  const auto& a = std::get<J3dAnk1>(r.value().section);
  EXPECT_EQ(a.loop_mode, 2);
  EXPECT_EQ(a.angle_scale, 1);
  EXPECT_EQ(a.duration, 30);
  ASSERT_EQ(a.joints.size(), 1u);
  EXPECT_EQ(a.joints[0].scale[0].count, 2);
  EXPECT_EQ(a.joints[0].scale[0].values, (std::vector<float>{0, 1, 0, 30, 2, 0.5f}));
  EXPECT_EQ(a.joints[0].translation[1].values, std::vector<float>{5});
  EXPECT_FALSE(a.joints[0].scale[0].stored_index);
  WriteReport report;
  Result<Bytes> w = write_j3d_anim(r.value(), &report);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w.value(), bytes);
  EXPECT_EQ(report.verbatim_bytes, 0u);
}

TEST(AnimBck, AnEditedKeyIsWrittenIntoTheTableByTheRule) {
  J3dAnimFile f = read_j3d_anim(golden_bck()).value();
  auto& a = std::get<J3dAnk1>(f.section);
  a.joints[0].translation[1].values = {0.0f};  // now equal to the shared 0: the table loses its 5
  const Bytes out = write_j3d_anim(f).value();
  const J3dAnimFile back = read_j3d_anim(out).value();
  const auto& b = std::get<J3dAnk1>(back.section);
  EXPECT_EQ(b.joints[0].translation[1].values, std::vector<float>{0.0f});
  EXPECT_EQ(out[0x20 + 0x12], 0);
  EXPECT_EQ(out[0x20 + 0x13], 1);  // one translation
}

TEST(AnimBck, HostileFilesFailWithFieldAndOffset) {
  const Bytes good = golden_bck();
  for (std::size_t n : {0u, 4u, 0x1Fu, 0x30u, 0x70u, 0xB0u}) {
    Result<J3dAnimFile> r = read_j3d_anim(ByteSpan(good).first(n));
    EXPECT_FALSE(r) << n;
  }
  Bytes huge = good;
  huge[0x20 + 0x0C] = 0xFF;  // 65535 joints in a 0x100-byte file
  huge[0x20 + 0x0D] = 0xFF;
  Result<J3dAnimFile> r = read_j3d_anim(huge);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("joint_count"), std::string::npos) << r.error().field;
  Bytes past = good;
  past[0x20 + 0x40 + 3] = 0x09;  // scale x reads 6 values from value 9 of 6
  r = read_j3d_anim(past);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("index"), std::string::npos) << r.error().field;
  EXPECT_EQ(r.error().offset, std::optional<std::size_t>(0x20 + 0x40 + 2));
}

TEST(AnimBck, EverySampleWritesBackIdentical) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim");
  std::size_t read = 0, verbatim = 0;
  for (const auto& path : files) {
    if (path.extension() != ".bck") continue;
    const Bytes bytes = test::load_file(path);
    Result<J3dAnimFile> r = read_j3d_anim(bytes);
    ASSERT_TRUE(r) << path << ": " << r.error().message;
    WriteReport report;
    Result<Bytes> w = write_j3d_anim(r.value(), &report);
    ASSERT_TRUE(w) << path << ": " << w.error().message;
    EXPECT_TRUE(w.value() == bytes) << path;
    verbatim += report.verbatim_bytes;
    ++read;
  }
  EXPECT_EQ(read, 27u);
  std::printf("BCK samples: %zu, verbatim bytes %zu\n", read, verbatim);
}

}  // namespace
}  // namespace remodel
