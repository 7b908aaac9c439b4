// BCA (J3D1 bca1, ANF1): every sample and every BCA of the Pikmin 2 archive reads and writes back
// identical; hostile files fail with the field and offset; files built by hand from
// docs/j3d-animations.md read to their frames and back.
#include <gtest/gtest.h>

#include <bit>

#include "j3d/anim_samples.hpp"
#include "j3d/big_endian.hpp"
#include "model/archive/members.hpp"

namespace remodel {
namespace {

using test::be16;
using test::be32;

// One joint over 2 frames: scale x (1, 2), rotation z (0x4000, 0x2000), translation x 5, every other
// component the identity. Each table starts with the identity, then the runs joint by joint, x to z:
// scales 1 | 1 2 (the run is not inside [1]), rotations 0 | 0x4000 0x2000, translations 0 | 5.
// Unlike Nintendo's BCAs, the file holds its closing filler.
Bytes golden_bca() {
  Bytes f;
  test::put_text(f, "J3D1bca1");
  be32(f, 0);  // size, patched
  be32(f, 1);
  f.insert(f.end(), 16, 0xFF);
  const std::size_t base = f.size();
  test::put_text(f, "ANF1");
  be32(f, 0);      // section size, patched
  f.push_back(2);  // repeat
  f.push_back(0xFF);
  be16(f, 2);  // duration
  be16(f, 1);  // joints
  be16(f, 3);  // scales
  be16(f, 3);  // rotations
  be16(f, 2);  // translations
  be32(f, 0x40);
  be32(f, 0x80);
  be32(f, 0xA0);
  be32(f, 0xC0);
  test::pad_j3d(f, base);
  // (count, first index) for x scale, rotation, translation, then y, then z.
  const std::uint16_t records[9][2] = {{2, 1}, {1, 0}, {1, 1}, {1, 0}, {1, 0}, {1, 0}, {1, 0}, {2, 1}, {1, 0}};
  for (const auto& r : records) {
    be16(f, r[0]);
    be16(f, r[1]);
  }
  test::pad_j3d(f, base);
  for (float v : {1.0f, 1.0f, 2.0f}) be32(f, std::bit_cast<std::uint32_t>(v));
  test::pad_j3d(f, base);
  for (std::uint16_t v : {0x0000, 0x4000, 0x2000}) be16(f, v);
  test::pad_j3d(f, base);
  be32(f, 0);
  be32(f, std::bit_cast<std::uint32_t>(5.0f));
  test::pad_j3d(f, base);
  test::patch_j3d_sizes(f, base);
  return f;
}

TEST(AnimBca, GoldenReadsToItsFramesAndWritesBack) {
  const Bytes bytes = golden_bca();
  Result<J3dAnimFile> r = read_j3d_anim(bytes);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_FALSE(r.value().closing_filler_cut);
  const auto& a = std::get<J3dAnf1>(r.value().section);
  EXPECT_EQ(a.loop_mode, 2);
  EXPECT_EQ(a.duration, 2);
  ASSERT_EQ(a.joints.size(), 1u);
  EXPECT_EQ(a.joints[0].scale[0].values, (std::vector<float>{1, 2}));
  EXPECT_EQ(a.joints[0].scale[1].values, std::vector<float>{1});
  EXPECT_EQ(a.joints[0].rotation[2].values, (std::vector<std::int16_t>{0x4000, 0x2000}));
  EXPECT_EQ(a.joints[0].translation[0].values, std::vector<float>{5});
  EXPECT_EQ(a.joints[0].translation[2].values, std::vector<float>{0});
  EXPECT_FALSE(a.joints[0].scale[0].stored_index);
  WriteReport report;
  Result<Bytes> w = write_j3d_anim(r.value(), &report);
  ASSERT_TRUE(w) << w.error().describe();
  EXPECT_EQ(w.value(), bytes);
  EXPECT_EQ(report.verbatim_bytes, 0u);
}

TEST(AnimBca, AFileCutBeforeItsClosingFillerKeepsItsRoundedSizes) {
  const Bytes whole = golden_bca();
  const Bytes cut(whole.begin(), whole.begin() + 0x20 + 0xC8);  // as Nintendo's BCAs: sizes count the filler
  Result<J3dAnimFile> r = read_j3d_anim(cut);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_TRUE(r.value().closing_filler_cut);
  EXPECT_FALSE(r.value().stored_size);
  WriteReport report;
  EXPECT_EQ(write_j3d_anim(r.value(), &report).value(), cut);
  EXPECT_EQ(report.verbatim_bytes, 0u);
}

TEST(AnimBca, AnEditedFrameIsWrittenIntoTheTableByTheRule) {
  J3dAnimFile f = read_j3d_anim(golden_bca()).value();
  std::get<J3dAnf1>(f.section).joints[0].translation[0].values = {0.0f};  // the identity: the table loses its 5
  const Bytes out = write_j3d_anim(f).value();
  EXPECT_EQ(std::get<J3dAnf1>(read_j3d_anim(out).value().section).joints[0].translation[0].values, std::vector<float>{0});
  EXPECT_EQ(out[0x20 + 0x12], 0);
  EXPECT_EQ(out[0x20 + 0x13], 1);  // one translation
}

TEST(AnimBca, ATableNotStartingWithTheIdentityIsKeptAsStored) {
  Bytes bytes = golden_bca();
  const std::uint32_t three = std::bit_cast<std::uint32_t>(3.0f);
  for (int k = 0; k < 4; ++k) bytes[0x20 + 0x80 + k] = static_cast<std::uint8_t>(three >> (24 - 8 * k));
  Result<J3dAnimFile> r = read_j3d_anim(bytes);
  ASSERT_TRUE(r) << r.error().describe();
  EXPECT_EQ(std::get<J3dAnf1>(r.value().section).joints[0].scale[1].values, std::vector<float>{3});
  WriteReport report;
  EXPECT_EQ(write_j3d_anim(r.value(), &report).value(), bytes);
  EXPECT_EQ(report.verbatim_bytes, 12u + 3 * 2);  // the table and the three scale indices
}

TEST(AnimBca, HostileFilesFailWithFieldAndOffset) {
  const Bytes good = golden_bca();
  for (std::size_t n : {0u, 4u, 0x1Fu, 0x30u, 0x70u, 0xB0u, 0xE0u}) EXPECT_FALSE(read_j3d_anim(ByteSpan(good).first(n))) << n;
  Bytes huge = good;
  huge[0x20 + 0x0C] = 0xFF;  // 65535 joints in a 0x100-byte file
  huge[0x20 + 0x0D] = 0xFF;
  Result<J3dAnimFile> r = read_j3d_anim(huge);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("joint_count"), std::string::npos) << r.error().field;
  Bytes past = good;
  past[0x20 + 0x40 + 3] = 0x09;  // scale x reads 2 values from value 9 of 3
  r = read_j3d_anim(past);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("index"), std::string::npos) << r.error().field;
  EXPECT_EQ(r.error().offset, std::optional<std::size_t>(0x20 + 0x40 + 2));
}

TEST(AnimBca, EverySampleWritesBackIdentical) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim");
  const test::AnimSamples n = test::expect_anims_identical(files, ".bca");
  EXPECT_EQ(n.files, 11u);
  std::printf("BCA samples: %zu, verbatim bytes %zu\n", n.files, n.verbatim);
}

TEST(AnimBca, EveryBcaOfThePikmin2ArchiveWritesBackIdentical) {
  const auto path = test::samples_root() / "archives" / "meltytool_goldens" / "yaz0" / "pikis" / "input" / "pikis.yaz0";
  if (!std::filesystem::exists(path)) {
    if (test::samples_required()) FAIL() << "REMODEL_REQUIRE_SAMPLES=1 but " << path << " is absent";
    GTEST_SKIP() << path << " is absent";
  }
  Result<Archive> archive = open_archive(test::load_file(path));
  ASSERT_TRUE(archive) << archive.error().describe();
  std::size_t files = 0, verbatim = 0;
  for (const RarcPath& p : rarc_paths(archive->rarc)) {
    if (p.directory || !p.path.ends_with(".bca")) continue;
    const Bytes& bytes = find_member(archive->rarc, p.path)->data;
    Result<J3dAnimFile> r = read_j3d_anim(bytes);
    ASSERT_TRUE(r) << p.path << ": " << r.error().describe();
    WriteReport report;
    Result<Bytes> w = write_j3d_anim(r.value(), &report);
    ASSERT_TRUE(w) << p.path << ": " << w.error().describe();
    EXPECT_TRUE(w.value() == bytes) << p.path;
    verbatim += report.verbatim_bytes;
    ++files;
  }
  EXPECT_EQ(files, 68u);
  std::printf("Pikmin 2 BCAs: %zu, verbatim bytes %zu\n", files, verbatim);
}

}  // namespace
}  // namespace remodel
