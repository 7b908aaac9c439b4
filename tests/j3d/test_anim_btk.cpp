// BTK (J3D1 btk1, TTK1): every sample reads and writes back identical; a file built by hand from
// docs/j3d-animations.md (tangent mode 1 keys, tables aligned to 4) reads to its keys and back;
// hostile files fail with the field and offset.
#include <gtest/gtest.h>

#include <bit>

#include "anim_samples.hpp"
#include "j3d/big_endian.hpp"
#include "model/j3d/anim.hpp"

namespace remodel {
namespace {

using test::be16;
using test::be32;

void f32s(Bytes& b, std::initializer_list<float> values) {
  for (float v : values) be32(b, std::bit_cast<std::uint32_t>(v));
}

// One texture matrix on material "mat": S scale keyed (2 keys, tangent mode 1: time, value, in, out),
// S rotation keyed (2 keys, mode 0: time, value, tangent), every other track one value. By the table
// rule T's and Q's scale 1.0 sit inside S's run at 1, the rotations' 0 at 0, Q's translation 0.5 at 0.
Bytes golden_btk() {
  Bytes f;
  test::j3d_anim_header(f, "btk1", "TTK1");
  f.push_back(2);  // repeat
  f.push_back(1);  // angle scale
  be16(f, 20);     // duration
  be16(f, 3);      // components: S, T, Q of one matrix
  be16(f, 8);      // scales
  be16(f, 6);      // rotations
  be16(f, 2);      // translations
  for (std::uint32_t offset : {0x60u, 0x98u, 0x9Cu, 0xA8u, 0xACu, 0xB8u, 0xD8u, 0xE4u}) be32(f, offset);
  f.insert(f.end(), 40, 0);  // no post-matrix tables
  be32(f, 1);                // texture matrices calculated the Maya way
  // (count, index, tangent mode) for S scale, rotation, translation, then T, then Q.
  const std::uint16_t records[9][3] = {{2, 0, 1}, {2, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 0}, {1, 0, 0}, {1, 0, 0}};
  for (const auto& r : records) {
    for (std::uint16_t v : r) be16(f, v);
  }
  test::pad_j3d(f, 0x20, 4);  // 0x96 -> 0x98: "Th"
  be16(f, 0);                // remap
  test::pad_j3d(f, 0x20, 4);
  be16(f, 1);  // name table: one name
  be16(f, 0xFFFF);
  be16(f, 0x056C);  // hash of "mat": ('m' * 3 + 'a') * 3 + 't'
  be16(f, 8);
  test::put_text(f, "mat");
  f.push_back(0);
  f.push_back(0);  // texture matrix 0
  test::pad_j3d(f, 0x20, 4);  // "Thi"
  f32s(f, {0.5f, 0.5f, 0.5f});  // centre
  f32s(f, {0, 1, 0, 0, 20, 2, 0.5f, 0.25f});
  for (std::uint16_t v : {0, 0, 0, 20, 0x4000, 0}) be16(f, v);
  f32s(f, {0.5f, 0});
  be16(f, 0);  // the empty name table that closes the section
  be16(f, 0xFFFF);
  test::patch_j3d_sizes(f, 0x20);
  return f;
}

TEST(AnimBtk, GoldenReadsToItsKeysAndWritesBack) {
  const Bytes bytes = golden_btk();
  ASSERT_EQ(bytes.size(), 0x110u);
  Result<J3dAnimFile> r = read_j3d_anim(bytes);
  ASSERT_TRUE(r) << r.error().message;
  const auto& t = std::get<J3dTtk1>(r.value().section);
  EXPECT_EQ(t.loop_mode, 2);
  EXPECT_EQ(t.angle_scale, 1);
  EXPECT_EQ(t.duration, 20);
  EXPECT_EQ(t.tex_mtx_calc_type, 1u);
  ASSERT_EQ(t.anims.size(), 1u);
  EXPECT_EQ(t.names.names, std::vector<std::string>{"mat"});
  const J3dTexMtxAnim& a = t.anims[0];
  EXPECT_EQ(a.centre, (std::array<float, 3>{0.5f, 0.5f, 0.5f}));
  EXPECT_EQ(a.keys.scale[0].tangent_mode, 1);
  EXPECT_EQ(a.keys.scale[0].values, (std::vector<float>{0, 1, 0, 0, 20, 2, 0.5f, 0.25f}));
  EXPECT_EQ(a.keys.scale[2].values, std::vector<float>{1});
  EXPECT_EQ(a.keys.rotation[0].values, (std::vector<std::int16_t>{0, 0, 0, 20, 0x4000, 0}));
  EXPECT_EQ(a.keys.translation[1].values, std::vector<float>{0});
  EXPECT_EQ(a.keys.translation[2].values, std::vector<float>{0.5f});
  WriteReport report;
  Result<Bytes> w = write_j3d_anim(r.value(), &report);
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w.value(), bytes);
  EXPECT_EQ(report.verbatim_bytes, 0u);
}

TEST(AnimBtk, AnEditedKeyIsWrittenIntoTheTableByTheRule) {
  J3dAnimFile f = read_j3d_anim(golden_btk()).value();
  auto& t = std::get<J3dTtk1>(f.section);
  t.anims[0].keys.translation[1].values = {0.5f};  // now equal to S's: the table loses its 0
  const Bytes out = write_j3d_anim(f).value();
  const J3dAnimFile back = read_j3d_anim(out).value();
  EXPECT_EQ(std::get<J3dTtk1>(back.section).anims[0].keys.translation[1].values, std::vector<float>{0.5f});
  EXPECT_EQ(out[0x20 + 0x13], 1);  // one translation
}

TEST(AnimBtk, HostileFilesFailWithFieldAndOffset) {
  const Bytes good = golden_btk();
  for (std::size_t n : {0u, 0x1Fu, 0x30u, 0x7Fu, 0xA0u, 0xC0u, 0x10Eu}) {
    EXPECT_FALSE(read_j3d_anim(ByteSpan(good).first(n))) << n;
  }
  Bytes odd = good;
  odd[0x20 + 0x0D] = 4;  // 4 components: not 3 per matrix
  Result<J3dAnimFile> r = read_j3d_anim(odd);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("component_count"), std::string::npos) << r.error().field;
  EXPECT_EQ(r.error().offset, std::optional<std::size_t>(0x20 + 0x0C));
  Bytes huge = good;
  huge[0x20 + 0x0C] = 0xFF;  // 21845 matrices in a 0x110-byte file
  huge[0x20 + 0x0D] = 0xFF;
  r = read_j3d_anim(huge);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("component_count"), std::string::npos) << r.error().field;
  Bytes past = good;
  past[0x20 + 0x60 + 3] = 0x09;  // S scale reads 8 values from value 9 of 8
  r = read_j3d_anim(past);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().field.find("index"), std::string::npos) << r.error().field;
  EXPECT_EQ(r.error().offset, std::optional<std::size_t>(0x20 + 0x60 + 2));
  Bytes post = good;
  post[0x20 + 0x35] = 1;  // one post-matrix animation
  r = read_j3d_anim(post);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::unsupported);
  EXPECT_EQ(r.error().offset, std::optional<std::size_t>(0x20 + 0x34));
}

TEST(AnimBtk, EverySampleWritesBackIdentical) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d-anim");
  EXPECT_EQ(test::expect_anims_identical(files, ".btk").files, 4u);
}

}  // namespace
}  // namespace remodel
