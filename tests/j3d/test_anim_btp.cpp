// BTP (J3D1 btp1, TPT1): every sample reads and writes back identical; hostile files fail with the
// field and offset; a file built by hand from docs/j3d-animations.md reads to its patterns and back.
#include <gtest/gtest.h>

#include "j3d/anim_samples.hpp"
#include "j3d/big_endian.hpp"

namespace remodel {
namespace {

using test::be16;
using test::be32;

// Two materials: "m0" shows textures 2 2 3 through texture slot 0, "m1" shows 2 2 through slot 1. The
// texture table takes each material's run at its end, never shared (m1's 2 2 is in m0's, yet stored
// again): 5 indices, so the material index table after them needs 2 filler bytes to its 4-byte boundary.
Bytes golden_btp() {
  Bytes f;
  test::put_text(f, "J3D1btp1");
  be32(f, 0);  // size, patched
  be32(f, 1);
  f.insert(f.end(), 16, 0xFF);
  const std::size_t base = f.size();
  test::put_text(f, "TPT1");
  be32(f, 0);  // section size, patched
  f.push_back(0);  // once
  f.push_back(0xFF);
  be16(f, 2);  // duration
  be16(f, 2);  // materials
  be16(f, 5);  // texture indices
  be32(f, 0x20);
  be32(f, 0x30);
  be32(f, 0x3C);
  be32(f, 0x40);
  for (std::uint16_t r : {0, 1}) {
    be16(f, r == 0 ? 3 : 2);  // count
    be16(f, r == 0 ? 0 : 3);  // first index
    f.push_back(static_cast<std::uint8_t>(r));  // texture slot
    f.push_back(0xFF);
    be16(f, 0xFFFF);
  }
  for (std::uint16_t v : {2, 2, 3, 2, 2}) be16(f, v);
  test::pad_j3d(f, base, 4);
  be16(f, 3);  // m0 is the model's material 3
  be16(f, 7);
  be16(f, 2);  // the name table: count, 0xFFFF, (hash, offset) each, the strings
  be16(f, 0xFFFF);
  be16(f, 'm' * 3 + '0');  // hash = hash * 3 + character
  be16(f, 12);
  be16(f, 'm' * 3 + '1');
  be16(f, 15);
  test::put_text(f, std::string_view("m0\0m1\0", 6));
  test::pad_j3d(f, base);
  test::patch_j3d_sizes(f, base);
  return f;
}

TEST(AnimBtp, GoldenReadsToItsPatternsAndWritesBack) {
  const Bytes bytes = golden_btp();
  ASSERT_EQ(bytes.size(), 0x80u);
  Result<J3dAnimFile> r = read_j3d_anim(bytes);
  ASSERT_TRUE(r) << r.error().describe();
  const auto& a = std::get<J3dTpt1>(r.value().section);
  EXPECT_EQ(a.duration, 2);
  ASSERT_EQ(a.patterns.size(), 2u);
  EXPECT_EQ(a.patterns[0].textures.values, (std::vector<std::uint16_t>{2, 2, 3}));
  EXPECT_EQ(a.patterns[1].textures.values, (std::vector<std::uint16_t>{2, 2}));
  EXPECT_FALSE(a.patterns[1].textures.stored_index);
  EXPECT_EQ(a.patterns[1].texture_map, 1);
  EXPECT_EQ(a.patterns[0].material_index, 3);
  EXPECT_EQ(a.material_names.names, (std::vector<std::string>{"m0", "m1"}));
  WriteReport report;
  Result<Bytes> w = write_j3d_anim(r.value(), &report);
  ASSERT_TRUE(w) << w.error().describe();
  EXPECT_EQ(w.value(), bytes);
  EXPECT_EQ(report.verbatim_bytes, 0u);
}

TEST(AnimBtp, AnEditedPatternMovesTheTablesAfterIt) {
  J3dAnimFile f = read_j3d_anim(golden_btp()).value();
  std::get<J3dTpt1>(f.section).patterns[0].textures.values = {5};  // 3 indices in all: the material indices at the next 4-byte boundary
  const Bytes out = write_j3d_anim(f).value();
  const J3dAnimFile back = read_j3d_anim(out).value();
  const auto& b = std::get<J3dTpt1>(back.section);
  EXPECT_EQ(b.patterns[0].textures.values, std::vector<std::uint16_t>{5});
  EXPECT_EQ(b.patterns[1].textures.values, (std::vector<std::uint16_t>{2, 2}));
  EXPECT_EQ(out[0x20 + 0x0F], 3);     // three texture indices
  EXPECT_EQ(out[0x20 + 0x1B], 0x38);  // 0x30 + 6, then 2 filler bytes
}

TEST(AnimBtp, HostileFilesFailWithFieldAndOffset) {
  const Bytes good = golden_btp();
  for (std::size_t n : {0u, 8u, 0x28u, 0x44u, 0x5Au, 0x60u}) EXPECT_FALSE(read_j3d_anim(ByteSpan(good).first(n))) << n;
  Bytes huge = good;
  huge[0x20 + 0x0C] = 0xFF;  // 65535 materials
  huge[0x20 + 0x0D] = 0xFF;
  Result<J3dAnimFile> r = read_j3d_anim(huge);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("material_count"), std::string::npos) << r.error().field;
  Bytes past = good;
  past[0x20 + 0x28 + 3] = 0x04;  // m1 reads 2 indices from 4 of 5
  r = read_j3d_anim(past);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("index"), std::string::npos) << r.error().field;
  EXPECT_EQ(r.error().offset, std::optional<std::size_t>(0x20 + 0x28 + 2));
}

TEST(AnimBtp, EverySampleWritesBackIdentical) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim");
  const test::AnimSamples n = test::expect_anims_identical(files, ".btp");
  EXPECT_EQ(n.files, 9u);
  std::printf("BTP samples: %zu, verbatim bytes %zu\n", n.files, n.verbatim);
}

}  // namespace
}  // namespace remodel
