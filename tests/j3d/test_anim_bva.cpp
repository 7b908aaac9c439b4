// BVA (J3D1 bva1, VAF1): every sample reads and writes back identical; hostile files fail with the
// field and offset; a file built by hand from docs/j3d-animations.md reads to its shows and back.
#include <gtest/gtest.h>

#include "j3d/anim_samples.hpp"
#include "j3d/big_endian.hpp"

namespace remodel {
namespace {

using test::be16;
using test::be32;

// Three shapes over 3 frames: shown, shown, hidden; then 1 0; then always shown. The show table shares
// runs as ANK1's: 1 1 0 holds the second at 1 and the third at 0; it follows the shape records at
// their 4-byte boundary (0x2C), the header's gap goes to 32, and the closing gap is two fills: the
// show table's to 4, then the section's to 32, the filler restarted.
Bytes golden_bva() {
  Bytes f;
  test::put_text(f, "J3D1bva1");
  be32(f, 0);  // size, patched
  be32(f, 1);
  f.insert(f.end(), 16, 0xFF);
  const std::size_t base = f.size();
  test::put_text(f, "VAF1");
  be32(f, 0);  // section size, patched
  f.push_back(2);  // repeat
  f.push_back(0xFF);
  be16(f, 2);  // duration
  be16(f, 3);  // shapes
  be16(f, 3);  // shows
  be32(f, 0x20);
  be32(f, 0x2C);
  test::pad_j3d(f, base);
  for (std::uint16_t v : {3, 0, 2, 1, 1, 0}) be16(f, v);  // (count, first index) a shape
  for (std::uint8_t v : {1, 1, 0}) f.push_back(v);
  test::pad_j3d(f, base, 4);
  test::pad_j3d(f, base);
  test::patch_j3d_sizes(f, base);
  return f;
}

TEST(AnimBva, GoldenReadsToItsShowsAndWritesBack) {
  const Bytes bytes = golden_bva();
  ASSERT_EQ(bytes.size(), 0x60u);
  Result<J3dAnimFile> r = read_j3d_anim(bytes);
  ASSERT_TRUE(r) << r.error().describe();
  const auto& a = std::get<J3dVaf1>(r.value().section);
  EXPECT_EQ(a.loop_mode, 2);
  EXPECT_EQ(a.duration, 2);
  ASSERT_EQ(a.shapes.size(), 3u);
  EXPECT_EQ(a.shapes[0].values, (std::vector<std::uint8_t>{1, 1, 0}));
  EXPECT_EQ(a.shapes[1].values, (std::vector<std::uint8_t>{1, 0}));
  EXPECT_EQ(a.shapes[2].values, std::vector<std::uint8_t>{1});
  EXPECT_FALSE(a.shapes[1].stored_index);
  WriteReport report;
  Result<Bytes> w = write_j3d_anim(r.value(), &report);
  ASSERT_TRUE(w) << w.error().describe();
  EXPECT_EQ(w.value(), bytes);
  EXPECT_EQ(report.verbatim_bytes, 0u);
}

TEST(AnimBva, HostileFilesFailWithFieldAndOffset) {
  const Bytes good = golden_bva();
  for (std::size_t n : {0u, 0x10u, 0x2Au, 0x3Eu, 0x40u}) EXPECT_FALSE(read_j3d_anim(ByteSpan(good).first(n))) << n;
  Bytes huge = good;
  huge[0x20 + 0x0C] = 0xFF;  // 65535 shapes
  huge[0x20 + 0x0D] = 0xFF;
  Result<J3dAnimFile> r = read_j3d_anim(huge);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("shape_count"), std::string::npos) << r.error().field;
  Bytes past = good;
  past[0x20 + 0x20 + 1] = 0x04;  // shape 0 reads 4 shows from 0 of 3
  r = read_j3d_anim(past);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("index"), std::string::npos) << r.error().field;
  EXPECT_EQ(r.error().offset, std::optional<std::size_t>(0x20 + 0x20 + 2));
}

TEST(AnimBva, EverySampleWritesBackIdentical) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim");
  const test::AnimSamples n = test::expect_anims_identical(files, ".bva");
  EXPECT_EQ(n.files, 6u);
  std::printf("BVA samples: %zu, verbatim bytes %zu\n", n.files, n.verbatim);
}

}  // namespace
}  // namespace remodel
