#include <gtest/gtest.h>

#include <cstring>

#include "model/document.hpp"
#include "model/kh_bbs/demo.hpp"
#include "model/kh_bbs/pmo.hpp"
#include "round_trip.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

std::uint16_t le16(const Bytes& b, std::size_t o) { return static_cast<std::uint16_t>(b[o] | b[o + 1] << 8); }
std::uint32_t le32(const Bytes& b, std::size_t o) { return le16(b, o) | static_cast<std::uint32_t>(le16(b, o + 2)) << 16; }

TEST(KhBbsSamples, PmoRoundTrip) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmo");
  for (const auto& f : files) EXPECT_EQ(test::expect_round_trip(f), 0u) << f;
}

TEST(KhBbsSamples, PmpRoundTrip) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmp");
  for (const auto& f : files) EXPECT_EQ(test::expect_round_trip(f), 0u) << f;
}

TEST(KhBbsSamples, PmpKeepsOutOfOrderPmosAndSharedTextures) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmp");
  for (const auto& path : files) {
    if (path.filename() != "jb_50.pmp") continue;
    auto pmp = read_pmp(test::load_file(path));
    ASSERT_TRUE(pmp.ok());
    ASSERT_EQ(pmp->objects.size(), 4u);
    EXPECT_EQ(pmp->objects[0].pmo, 0);
    EXPECT_EQ(pmp->objects[1].pmo, 2);  // laid out third
    EXPECT_EQ(pmp->objects[2].pmo, 1);
    EXPECT_FALSE(pmp->objects[3].pmo.has_value());
    EXPECT_EQ(pmp->pmos[0].textures[1].tim2, 4);  // kiri01 in the shared list
    EXPECT_EQ(fixed_string(pmp->textures[4].name), "kiri01");
    return;
  }
  GTEST_SKIP() << "jb_50.pmp not present";
}

TEST(KhBbsSamples, SkeletonMatchesNotes) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmo");
  for (const auto& path : files) {
    if (path.filename() != "p01ex00.pmo") continue;
    auto f = read_pmo_file(test::load_file(path));
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(f->pmo.skeleton.has_value());
    EXPECT_EQ(f->pmo.skeleton->joints.size(), 53u);
    EXPECT_EQ(f->pmo.skeleton->standard_bone_count, 2);
    EXPECT_EQ(f->pmo.skeleton->joints[0].parent, 0xFFFF);
    EXPECT_EQ(f->pmo.vertex_count(), 3465u);
    EXPECT_EQ(f->pmo.triangle_count(), 1887u);
    return;
  }
  GTEST_SKIP() << "p01ex00.pmo not present";
}

// A static PMO written by hand from the spec: no textures, one triangle-list section of 3 float vertices.
Bytes golden_static_pmo() {
  Bytes b(0xE0, 0);
  std::memcpy(b.data(), "PMO\0", 4);
  b[4] = 1;   // number
  b[5] = 1;   // group
  b[6] = 3;   // version
  b[0x0B] = 0x80;  // flag 0x8000
  b[0x10] = 0xA0;  // mesh0 right after the header
  b[0x14] = 1;     // 1 triangle
  b[0x16] = 3;     // 3 vertices
  b[0x1A] = 0x80;
  b[0x1B] = 0x3F;  // scale 1.0
  const std::size_t s = 0xA0;
  b[s + 0] = 3;   // vertex count
  b[s + 1] = 0;
  b[s + 2] = 0xFF;  // no texture
  b[s + 3] = 12;    // vertex size
  b[s + 5] = 0x01;  // vtype 0x180: float positions
  b[s + 4] = 0x80;
  b[s + 7] = 0x32;  // primitive 3 (triangles), no-weight bit 25
  const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  std::memcpy(b.data() + s + 12, pos, sizeof pos);
  // 0xD0: the zeroed end header, then zeros to 0xE0.
  return b;
}

TEST(KhBbsPmo, GoldenStaticPmo) {
  const Bytes b = golden_static_pmo();
  auto f = read_pmo_file(b);
  ASSERT_TRUE(f.ok()) << f.error().describe();
  const Pmo& p = f->pmo;
  EXPECT_EQ(p.flag, 0x8000);
  EXPECT_FLOAT_EQ(p.scale, 1.0f);
  EXPECT_TRUE(p.textures.empty());
  EXPECT_FALSE(p.skeleton.has_value());
  EXPECT_FALSE(p.mesh1.has_value());
  ASSERT_TRUE(p.mesh0.has_value());
  ASSERT_EQ(p.mesh0->sections.size(), 1u);
  const PmoSection& s = p.mesh0->sections[0];
  EXPECT_EQ(s.texture, 0xFF);
  EXPECT_EQ(s.vertex_size(), 12);
  EXPECT_EQ(s.vertex_count(), 3u);
  EXPECT_EQ(s.primitive(), 3);
  EXPECT_TRUE(s.vertex_flags & PmoSection::kNoWeight);
  EXPECT_EQ(s.triangle_count(), 1u);
  EXPECT_FALSE(s.stored_vertex_size.has_value());
  EXPECT_EQ(verbatim_bytes(*f), 0u);
  auto w = write_pmo_file(*f);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, b);
}

TEST(KhBbsPmo, DemoFollowsTheSpecLayout) {
  auto w = write_pmo_file(build_demo_pmo());
  ASSERT_TRUE(w.ok()) << w.error().describe();
  const Bytes& b = *w;
  EXPECT_EQ(std::memcmp(b.data(), "PMO\0", 4), 0);
  EXPECT_EQ(b[8], 1);                  // texture count
  EXPECT_EQ(le32(b, 0x10), 0xC0u);     // mesh0 after header and one texture info
  EXPECT_EQ(le32(b, 0x1C), 0u);        // no mesh1
  EXPECT_EQ(le16(b, 0x14), 12);        // 8 list triangles + 2 strips of 2
  EXPECT_EQ(le16(b, 0x16), 32);
  // First section: 24 vertices of 12 bytes (2 u8 weights, u16 UV, s16 position), joints after the header.
  EXPECT_EQ(le16(b, 0xC0), 24);
  EXPECT_EQ(b[0xC3], 12);
  EXPECT_EQ(b[0xCC], 0);
  EXPECT_EQ(b[0xCD], 1);
  EXPECT_EQ(b[0xCE], 0xFF);
  // Second section starts at the next 4-byte boundary after 0xD4 + 24*12.
  const std::size_t second = 0xD4 + 24 * 12;
  EXPECT_EQ(le16(b, second), 8);
  EXPECT_EQ(b[second + 9], 2);  // two strips
  EXPECT_EQ(le16(b, second + 20), 4);
  // The list ends with a zeroed header; the TIM2 follows on a 16-byte boundary and the info points at it.
  const std::size_t end = second + 24 + 8 * 12;
  EXPECT_EQ(le16(b, end), 0);
  const std::size_t tim2 = (end + 12 + 15) / 16 * 16;
  EXPECT_EQ(le32(b, 0xA0), tim2);
  EXPECT_EQ(std::memcmp(b.data() + tim2, "TIM2", 4), 0);
  const std::size_t bon = le32(b, 0x0C);
  EXPECT_EQ(bon, tim2 + 0x10 + 0x30 + 32 + 64);
  EXPECT_EQ(std::memcmp(b.data() + bon, "BON\0", 4), 0);
  EXPECT_EQ(le16(b, bon + 8), 2);   // joints
  EXPECT_EQ(le16(b, bon + 12), 2);  // skinned joints
  EXPECT_EQ(b.size(), bon + 0x10 + 2 * 0xA0);

  auto back = read_pmo_file(b);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(*write_pmo_file(*back), b);
}

TEST(KhBbsPmp, BuiltPmpSharesTexturesAndKeepsPmoOrder) {
  Pmp pmp;
  Pmo pmo = build_demo_pmo().pmo;
  pmo.tim2s.clear();  // inside a PMP, textures live in the shared list
  pmp.textures = pmo.textures;
  pmp.tim2s = build_demo_pmo().pmo.tim2s;
  pmp.pmos = {pmo, pmo};
  pmp.objects.resize(3);
  pmp.objects[0].pmo = 1;
  pmp.objects[1].pmo = 0;
  auto w = write_pmp(pmp);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  const Bytes& b = *w;
  const std::size_t first = (0x20 + 3 * 0x30 + 15) / 16 * 16;
  EXPECT_EQ(le32(b, 0x20 + 0x30 + 0x24), first);  // object 1 names the PMO laid out first
  EXPECT_GT(le32(b, 0x20 + 0x24), first);
  EXPECT_EQ(le32(b, 0x20 + 0x24) % 16, 0u);
  EXPECT_EQ(le32(b, 0x20 + 0x60 + 0x24), 0u);
  EXPECT_EQ(le16(b, 0x12), 2);  // model count
  const std::uint32_t list = le32(b, 0x1C);
  const std::uint32_t tim2 = le32(b, list);
  EXPECT_EQ(tim2, list + 0x20);
  EXPECT_EQ(le32(b, first + 0xA0), tim2);  // the PMO's texture offset is absolute in the PMP
  auto back = read_pmp(b);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back->objects[0].pmo, 1);
  EXPECT_EQ(*write_pmp(*back), b);
}

TEST(KhBbsPmo, WriterRefusesInconsistentDocuments) {
  PmoFile f = build_demo_pmo();
  f.pmo.mesh0->sections[0].joints.reset();
  auto w = write_pmo_file(f);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().field, "mesh0.section[0].joints");
  f = build_demo_pmo();
  f.pmo.mesh0->sections[1].vertices.pop_back();
  EXPECT_FALSE(write_pmo_file(f).ok());
  f = build_demo_pmo();
  f.pmo.textures[0].tim2 = 5;
  EXPECT_FALSE(write_pmo_file(f).ok());
}

TEST(KhBbsPmo, CountsPastTheEndAreRejectedWithTheirField) {
  Bytes b = golden_static_pmo();
  b[8] = 200;  // 200 texture infos do not fit
  auto f = read_pmo_file(b);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().code, ErrorCode::bad_count);
  EXPECT_EQ(f.error().field, "texture_count");

  b = golden_static_pmo();
  b[0xA0] = 0xFF;
  b[0xA1] = 0xFF;  // 65535 vertices
  f = read_pmo_file(b);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().field, "mesh0.section[0].vertex_count");
  EXPECT_EQ(f.error().code, ErrorCode::bad_count);

  b = golden_static_pmo();
  b[0x10] = 0xF0;
  b[0x11] = 0xFF;  // mesh0 past the end
  f = read_pmo_file(b);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().field, "mesh0_offset");
}

}  // namespace
}  // namespace remodel
