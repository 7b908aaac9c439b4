#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "model/document.hpp"
#include "model/mhfu/pac.hpp"
#include "round_trip.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

// ---- a golden PMO, laid out by hand from notes-mhfu.md (every offset below is a literal) ----

struct Golden {
  Bytes b;
  void u8(std::uint8_t v) { b.push_back(v); }
  void u16(std::uint16_t v) { u8(static_cast<std::uint8_t>(v)); u8(static_cast<std::uint8_t>(v >> 8)); }
  void u32(std::uint32_t v) { u16(static_cast<std::uint16_t>(v)); u16(static_cast<std::uint16_t>(v >> 16)); }
  void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
  void zeros(std::size_t n) { b.insert(b.end(), n, 0); }
  void at(std::size_t offset) { ASSERT_EQ(b.size(), offset) << "golden layout"; }
};

// Two meshes, four groups, three blocks; groups 1 and 2 share block 1.
// Block 0: VTYPE 0x4D83 (two u16 weights, f32 UV, f32 position, u8 indices), a triangle list.
// Block 1: VTYPE 0x0300 (one u8 weight, s16 position), an unindexed strip.
// Block 2: VTYPE 0x1080 (s8 position, u16 indices), an indexed strip with FFACE 1.
Bytes golden_pmo() {
  Golden g;
  g.u32(0x006F6D70);  // "pmo\0"
  g.u32(0x00302E31);  // "1.0\0"
  g.u32(0x210);       // size
  g.f32(2.0f);        // clip distance
  g.f32(2.0f); g.f32(1.0f); g.f32(1.0f);
  g.u16(2); g.u16(2);  // meshes, materials
  for (std::uint32_t o : {0x40u, 0x70u, 0xB0u, 0xC0u, 0xD0u, 0xF0u}) g.u32(o);
  g.zeros(8);
  g.at(0x40);  // meshes
  g.f32(1.0f); g.f32(1.0f); g.u32(0x80000003); g.u32(0); g.u8(1); g.u8(0); g.u16(0); g.u16(1); g.u16(0);
  g.f32(0.5f); g.f32(0.5f); g.u32(0x80000005); g.u32(0xDF000032); g.u8(1); g.u8(0); g.u16(1); g.u16(3); g.u16(1);
  g.at(0x70);  // groups: material offset, bone count, bone start, list, vertex, index
  g.u8(0); g.u8(2); g.u16(0); g.u32(0x00); g.u32(0x30); g.u32(0x80);
  g.u8(0); g.u8(1); g.u16(2); g.u32(0x90); g.u32(0xB0); g.u32(0);
  g.u8(0); g.u8(0); g.u16(3); g.u32(0x90); g.u32(0xB0); g.u32(0);
  g.u8(0); g.u8(0); g.u16(3); g.u32(0xD0); g.u32(0x100); g.u32(0x110);
  g.at(0xB0);  // remap
  g.u8(0); g.u8(1); g.zeros(14);
  g.at(0xC0);  // bone palette: (slot, bone)
  g.u8(0); g.u8(5); g.u8(1); g.u8(6); g.u8(0); g.u8(7); g.zeros(10);
  g.at(0xD0);  // materials
  g.u32(0xFFFFFFFF); g.u32(0x007F7F7F); g.u8(0); g.zeros(3); g.u32(0);
  g.u32(0x80FF8040); g.u32(0); g.u8(0xFF); g.zeros(3); g.u32(0x12345678);
  g.at(0xF0);  // block 0
  for (std::uint32_t w : {0x14000000u, 0x10000000u, 0x02000080u, 0x01000030u, 0x12004D83u, 0x9B000000u,
                          0x04030003u, 0x13000000u, 0x0B000000u}) g.u32(w);
  g.zeros(12);
  g.at(0x120);
  g.u16(0x8000); g.u16(0x0000); g.f32(0.0f); g.f32(0.0f); g.f32(0.0f); g.f32(0.0f); g.f32(0.0f);
  g.u16(0x4000); g.u16(0x4000); g.f32(1.0f); g.f32(0.0f); g.f32(1.0f); g.f32(0.0f); g.f32(0.0f);
  g.u16(0x0000); g.u16(0x8000); g.f32(0.0f); g.f32(1.0f); g.f32(0.0f); g.f32(1.0f); g.f32(0.0f);
  g.zeros(8);
  g.at(0x170);
  g.u8(0); g.u8(1); g.u8(2); g.zeros(13);
  g.at(0x180);  // block 1
  for (std::uint32_t w : {0x14000000u, 0x10000000u, 0x01000020u, 0x12000300u, 0x9B000000u, 0x04040004u,
                          0x13000000u, 0x0B000000u}) g.u32(w);
  g.at(0x1A0);
  g.u8(0x80); g.u8(0); g.u16(0x0000); g.u16(0x0000); g.u16(0);
  g.u8(0x80); g.u8(0); g.u16(0x4000); g.u16(0x0000); g.u16(0);
  g.u8(0x80); g.u8(0); g.u16(0x0000); g.u16(0x4000); g.u16(0);
  g.u8(0x80); g.u8(0); g.u16(0x4000); g.u16(0x4000); g.u16(0);
  g.at(0x1C0);  // block 2
  for (std::uint32_t w : {0x14000000u, 0x10000000u, 0x02000040u, 0x01000030u, 0x12001080u, 0x9B000001u,
                          0x04040004u, 0x13000000u, 0x0B000000u}) g.u32(w);
  g.zeros(12);
  g.at(0x1F0);
  for (std::uint8_t v : {0, 0, 0, 0x40, 0, 0, 0, 0x40, 0, 0x40, 0x40, 0}) g.u8(v);
  g.zeros(4);
  g.at(0x200);
  g.u16(0); g.u16(1); g.u16(2); g.u16(3); g.zeros(8);
  g.at(0x210);
  return g.b;
}

TEST(MhfuGolden, FieldsReadAsWritten) {
  const Bytes b = golden_pmo();
  ASSERT_EQ(detect_format(b), Format::mhfu_pmo);
  auto r = read_mhfu_pmo_file(b);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const MhfuPmo& p = r->pmo;
  EXPECT_EQ(p.scale[0], 2.0f);
  ASSERT_EQ(p.meshes.size(), 2u);
  EXPECT_EQ(p.meshes[1].blend, 0xDF000032u);
  EXPECT_EQ(p.meshes[1].group_count, 3);
  ASSERT_EQ(p.groups.size(), 4u);
  ASSERT_EQ(p.blocks.size(), 3u);
  EXPECT_EQ(p.groups[0].block, 0u);
  EXPECT_EQ(p.groups[1].block, 1u);
  EXPECT_EQ(p.groups[2].block, 1u);  // shared
  EXPECT_EQ(p.groups[3].block, 2u);
  EXPECT_EQ(p.remap, (Bytes{0, 1}));
  ASSERT_EQ(p.bone_palette.size(), 3u);
  EXPECT_EQ(p.bone_palette[2].bone, 7);
  ASSERT_EQ(p.materials.size(), 2u);
  EXPECT_EQ(p.materials[1].texture, 0xFF);
  EXPECT_EQ(p.materials[1].reserved, 0x12345678u);
  EXPECT_EQ(p.blocks[0].vertices.size(), 72u);
  EXPECT_EQ(p.blocks[0].indices, (Bytes{0, 1, 2}));
  EXPECT_EQ(p.blocks[1].vertices.size(), 32u);
  EXPECT_TRUE(p.blocks[1].indices.empty());
  EXPECT_EQ(p.blocks[2].vertices.size(), 12u);
  EXPECT_EQ(p.blocks[2].indices.size(), 8u);
  EXPECT_EQ(verbatim_bytes(*r), 0u);
}

TEST(MhfuGolden, WritesBackByteForByte) {
  const Bytes b = golden_pmo();
  auto r = read_mhfu_pmo_file(b);
  ASSERT_TRUE(r.ok());
  auto w = write_mhfu_pmo_file(*r);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  EXPECT_EQ(*w, b);
}

TEST(MhfuGolden, DecodesEveryBlock) {
  auto r = read_mhfu_pmo_file(golden_pmo());
  ASSERT_TRUE(r.ok());
  const MhfuPmo& p = r->pmo;

  auto d0 = decode_mhfu_block(p.blocks[0]);
  ASSERT_TRUE(d0.ok()) << d0.error().describe();
  EXPECT_EQ(d0->stride, 24u);
  EXPECT_EQ(d0->vertex_count, 3u);
  EXPECT_EQ(d0->format.weight, psp::NumFormat::i16);
  EXPECT_EQ(d0->format.weight_count, 2);
  EXPECT_EQ(d0->format.texcoord, psp::NumFormat::f32);
  EXPECT_EQ(mhfu_triangles(*d0), (std::vector<Triangle>{{0, 1, 2}}));
  auto v0 = psp::decode_vertices(d0->format, p.blocks[0].vertices, 3);
  ASSERT_TRUE(v0.ok());
  EXPECT_FLOAT_EQ(psp::unsigned_value(psp::NumFormat::i16, (*v0)[1].weights[0]), 0.5f);
  EXPECT_FLOAT_EQ(psp::unsigned_value(psp::NumFormat::f32, (*v0)[1].texcoord[0]), 1.0f);
  EXPECT_FLOAT_EQ(mhfu_position(p, d0->format, (*v0)[1])[0], 2.0f);  // 1.0 times scale x 2

  auto d1 = decode_mhfu_block(p.blocks[1]);
  ASSERT_TRUE(d1.ok()) << d1.error().describe();
  EXPECT_EQ(d1->stride, 8u);
  EXPECT_EQ(d1->vertex_count, 4u);  // unindexed: the PRIM count
  EXPECT_EQ(mhfu_triangles(*d1), (std::vector<Triangle>{{0, 1, 2}, {2, 1, 3}}));  // odd strip triangles swap their first two
  auto v1 = psp::decode_vertices(d1->format, p.blocks[1].vertices, 4);
  ASSERT_TRUE(v1.ok());
  EXPECT_FLOAT_EQ(psp::unsigned_value(psp::NumFormat::i8, (*v1)[3].weights[0]), 1.0f);
  const auto pos = mhfu_position(p, d1->format, (*v1)[3]);
  EXPECT_FLOAT_EQ(pos[0], 1.0f);  // 0x4000 / 32768 * 2
  EXPECT_FLOAT_EQ(pos[1], 0.5f);  // 0x4000 / 32768 * 1

  auto d2 = decode_mhfu_block(p.blocks[2]);
  ASSERT_TRUE(d2.ok()) << d2.error().describe();
  EXPECT_EQ(d2->stride, 3u);
  EXPECT_TRUE(d2->flip);
  EXPECT_EQ(d2->format.index, psp::NumFormat::i16);
  EXPECT_EQ(mhfu_triangles(*d2), (std::vector<Triangle>{{1, 0, 2}, {1, 2, 3}}));  // FFACE flips both

  auto palettes = mhfu_group_palettes(p);
  ASSERT_TRUE(palettes.ok());
  EXPECT_EQ((*palettes)[0][0], 5);
  EXPECT_EQ((*palettes)[0][1], 6);
  EXPECT_EQ((*palettes)[0][2], std::nullopt);  // no group loaded it
  EXPECT_EQ((*palettes)[1][0], 7);  // slot 0 replaced, slot 1 kept
  EXPECT_EQ((*palettes)[1][1], 6);
  EXPECT_EQ((*palettes)[3], (*palettes)[1]);  // no entries: inherits
}

TEST(MhfuDecode, BonePaletteWorkedExample) {
  // mhfu-pmo.md: groups with 3, 2, 0, 1 entries over (0,2) (1,3) (2,0) (1,1) (2,4) (1,3).
  MhfuPmo p;
  const std::uint8_t counts[] = {3, 2, 0, 1};
  std::uint16_t start = 0;
  for (std::uint8_t n : counts) {
    p.groups.push_back(MhfuGroup{0, n, start, 0});
    start = static_cast<std::uint16_t>(start + n);
  }
  p.bone_palette = {{0, 2}, {1, 3}, {2, 0}, {1, 1}, {2, 4}, {1, 3}};
  auto r = mhfu_group_palettes(p);
  ASSERT_TRUE(r.ok());
  const auto first3 = [](const GeBonePalette& a) { return std::array<int, 3>{a[0].value_or(-1), a[1].value_or(-1), a[2].value_or(-1)}; };
  EXPECT_EQ(first3((*r)[0]), (std::array<int, 3>{2, 3, 0}));
  EXPECT_EQ(first3((*r)[1]), (std::array<int, 3>{2, 1, 4}));
  EXPECT_EQ(first3((*r)[2]), (std::array<int, 3>{2, 1, 4}));
  EXPECT_EQ(first3((*r)[3]), (std::array<int, 3>{2, 3, 4}));
  EXPECT_EQ((*r)[3][3], std::nullopt);
}

// ---- bad input ----

Bytes patch32(Bytes b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
  return b;
}

TEST(MhfuBadInput, CommandListWithoutRet) {
  Bytes b = golden_pmo();
  b.resize(0x1E0);  // block 2's list cut before its RET
  b = patch32(b, 8, 0x1E0);
  auto r = read_mhfu_pmo_file(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::truncated);
  EXPECT_EQ(r.error().field, "block[2].command");
  // A list whose RET became a NOP runs on into its own padding and vertices and fails there.
  auto nop = read_mhfu_pmo_file(patch32(golden_pmo(), 0x1E0, 0));
  EXPECT_FALSE(nop.ok());
}

TEST(MhfuBadInput, PrimCountPastTheBuffer) {
  auto r = read_mhfu_pmo_file(patch32(golden_pmo(), 0x1D8, 0x04040400));  // 1024 u16 indices
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::bad_count);
  EXPECT_EQ(r.error().field, "block[2].prim.count");
}

TEST(MhfuBadInput, IndexLargerThanTheVertexBuffer) {
  Bytes b = golden_pmo();
  b[0x172] = 5;  // 6 vertices of 24 bytes do not fit in the 80 bytes before IADDR
  auto r = read_mhfu_pmo_file(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "block[0].indices");
  EXPECT_EQ(r.error().offset, 0x170u);
}

TEST(MhfuBadInput, PaletteSlotPastEight) {
  Bytes b = golden_pmo();
  b[0xC2] = 8;
  auto r = read_mhfu_pmo_file(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::bad_value);
  EXPECT_EQ(r.error().field, "bone_palette[1].slot");
  EXPECT_EQ(r.error().offset, 0xC2u);
}

TEST(MhfuBadInput, VtypeWithMorphTargets) {
  auto r = read_mhfu_pmo_file(patch32(golden_pmo(), 0x18C, 0x12040300));  // morph count 2
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::unsupported);
  EXPECT_EQ(r.error().field, "block[1].command[3]");
  EXPECT_EQ(r.error().offset, 0x18Cu);
}

TEST(MhfuBadInput, GroupOffsetsThatDisagreeWithTheList) {
  auto r = read_mhfu_pmo_file(patch32(golden_pmo(), 0x78, 0x40));  // group 0's vertex offset
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "group.vertex_offset");
  EXPECT_EQ(r.error().offset, 0x78u);
}

TEST(MhfuWriter, PlacesBuffersAndPatchesAddresses) {
  auto r = read_mhfu_pmo_file(golden_pmo());
  ASSERT_TRUE(r.ok());
  MhfuPmoFile f = *r;
  // Two more commands in block 0's list push its buffers down by 16 bytes; the writer must follow.
  auto& cmds = f.pmo.blocks[0].commands;
  cmds.insert(cmds.begin() + 2, {psp::GeCommand::make(0x17, 1), psp::GeCommand::make(0x1D, 2), psp::GeCommand::make(0, 0),
                                 psp::GeCommand::make(0, 0)});
  auto w = write_mhfu_pmo_file(f);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  EXPECT_EQ(w->size(), 0x220u);
  auto back = read_mhfu_pmo_file(*w);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back->pmo.blocks[0].vertices, r->pmo.blocks[0].vertices);
  EXPECT_EQ(back->pmo.blocks[0].commands.size(), 13u);
  EXPECT_EQ(back->pmo.blocks[0].commands[7].arg(), 0x40u);  // VADDR: 52-byte list padded to 64
  EXPECT_EQ(verbatim_bytes(*back), 0u);
}

TEST(MhfuWriter, RefusesInconsistentTables) {
  auto r = read_mhfu_pmo_file(golden_pmo());
  ASSERT_TRUE(r.ok());
  MhfuPmoFile f = *r;
  f.pmo.remap.push_back(3);
  EXPECT_FALSE(write_mhfu_pmo_file(f).ok());
  f = *r;
  f.pmo.groups[0].block = 7;
  EXPECT_FALSE(write_mhfu_pmo_file(f).ok());
  f = *r;
  f.pmo.blocks[2].indices.pop_back();
  EXPECT_FALSE(write_mhfu_pmo_file(f).ok());
}

// ---- PAC, skeleton, TMH ----

TEST(MhfuPac, BuiltFromGoldenEntriesRoundTrips) {
  Pac pac;
  pac.entries.push_back(PacEntry{read_mhfu_pmo_file(golden_pmo()).value(), {}});
  MhfuSkeletonFile skel;
  skel.skeleton.parameters = {0};
  skel.skeleton.bones.resize(2);
  skel.skeleton.bones[1].index = 1;
  skel.skeleton.bones[1].parent = 0;
  pac.entries.push_back(PacEntry{skel, {}});
  TmhFile tmh;
  tmh.tmh.images.push_back(TmhImage{0, 1, 1, 4, 32, 8, Bytes(128, 0x11), TmhClut{2, 1, 16, Bytes(32, 0x22)}});
  pac.entries.push_back(PacEntry{tmh, {}});
  pac.entries.push_back(PacEntry{Verbatim(Bytes{1, 2, 3}), {}});
  auto w = write_pac(pac);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  EXPECT_EQ(w->size(), 0x800u);
  ASSERT_EQ(detect_format(*w), Format::mhfu_pac);
  const Bytes& b = *w;
  EXPECT_EQ(b[0], 4);
  EXPECT_EQ(b[4], 0x30);           // first entry right after the 36-byte table, at 16
  EXPECT_EQ(b[0x30 + 0x210], 0x00);  // skeleton at 0x240: magic 0xC0000000
  EXPECT_EQ(b[0x240 + 3], 0xC0);
  EXPECT_EQ(b[0x240 + 8], 0x34);   // size 12 + 16 + 2 * 0x10C = 0x234
  EXPECT_EQ(b[0x240 + 9], 0x02);
  auto back = read_pac(b);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  ASSERT_EQ(back->entries.size(), 4u);
  EXPECT_TRUE(std::holds_alternative<TmhFile>(back->entries[2].content));
  EXPECT_EQ(verbatim_bytes(*back), 3u);  // the unknown entry
  auto again = write_pac(*back);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, b);
}

// A PAC built from the spec counts what it holds verbatim, each run by name where it lands: nothing
// when every run is none; a 4-byte gap after the 12-byte table (in place of the pad to 16) and a
// bone's 184 trailing bytes inside the skeleton entry (at 16 + 28 + 84) when they are stored.
TEST(MhfuPac, CountsEachVerbatimRunByName) {
  Pac pac;
  MhfuSkeletonFile skel;
  skel.skeleton.parameters = {0};
  skel.skeleton.bones.resize(1);
  pac.entries.push_back(PacEntry{skel, {}});
  WriteReport none;
  none.marks = true;
  ASSERT_TRUE(write_pac(pac, &none).ok());
  EXPECT_EQ(none.verbatim_bytes, 0u);
  EXPECT_TRUE(none.verbatim_runs.empty());
  EXPECT_EQ(verbatim_bytes(pac), 0u);

  pac.gap_after_table = Verbatim(Bytes(4, 0xAB));
  std::get<MhfuSkeletonFile>(pac.entries[0].content).skeleton.bones[0].stored_trailing = Verbatim(Bytes(184, 0x5A));
  WriteReport report;
  report.marks = true;
  auto out = write_pac(pac, &report);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  EXPECT_EQ(report.verbatim_bytes, 188u);
  ASSERT_EQ(report.verbatim_runs.size(), 2u);
  EXPECT_EQ(report.verbatim_runs[0].field, "gap_after_table");
  EXPECT_EQ(report.verbatim_runs[0].offset, 12u);
  EXPECT_EQ(report.verbatim_runs[0].size, 4u);
  EXPECT_EQ(report.verbatim_runs[1].field, "entry[0].bone[0].stored_trailing");
  EXPECT_EQ(report.verbatim_runs[1].offset, 128u);
  EXPECT_EQ(report.verbatim_runs[1].size, 184u);
  EXPECT_EQ((*out)[12], 0xAB);
  EXPECT_EQ((*out)[128], 0x5A);
  EXPECT_EQ((*out)[128 + 183], 0x5A);
  EXPECT_EQ(verbatim_bytes(pac), 188u);
  auto back = read_pac(*out);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(verbatim_bytes(*back), 188u);  // the reader keeps both runs
}

TEST(MhfuPac, BadTablesAreRejected) {
  Bytes b(0x40, 0);
  b[0] = 0xFF;  // 255 entries in 64 bytes
  b[1] = 0xFF;
  auto r = read_pac(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::bad_count);
  EXPECT_FALSE(looks_like_pac(b));
}

TEST(MhfuSamples, RoundTripWithOnlyLeftoverMemoryVerbatim) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const auto& path : files) {
    if (!detect_format(test::load_file(path))) continue;
    const auto verbatim = test::expect_round_trip(path);
    ASSERT_TRUE(verbatim.has_value()) << path;
    if (path.extension() != ".pac") {
      EXPECT_EQ(*verbatim, 0u) << path;
      continue;
    }
    auto pac = read_pac(test::load_file(path));
    ASSERT_TRUE(pac.ok());
    ASSERT_TRUE(pac->end_padding.stored()) << path;
    EXPECT_EQ(*verbatim, pac->end_padding.size()) << path;
  }
}

TEST(MhfuSamples, PacEntriesEqualTheSplitFiles) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  std::size_t checked = 0;
  for (const auto& path : files) {
    if (path.extension() != ".pac") continue;
    auto pac = read_pac(test::load_file(path));
    ASSERT_TRUE(pac.ok()) << pac.error().describe();
    ASSERT_EQ(pac->entries.size(), 3u);
    const std::string stem = path.stem().string();
    const auto split = [&](const char* suffix) { return test::load_file(path.parent_path() / (stem + suffix)); };
    EXPECT_EQ(write_mhfu_pmo_file(std::get<MhfuPmoFile>(pac->entries[0].content)).value(), split(".0.pmo"));
    EXPECT_EQ(write_mhfu_skeleton_file(std::get<MhfuSkeletonFile>(pac->entries[1].content)).value(), split(".1.skel"));
    EXPECT_EQ(write_tmh_file(std::get<TmhFile>(pac->entries[2].content)).value(), split(".2.tmh"));
    const auto& skel = std::get<MhfuSkeletonFile>(pac->entries[1].content).skeleton;
    EXPECT_EQ(skel.bones.size(), 4u);
    const auto& tmh = std::get<TmhFile>(pac->entries[2].content).tmh;
    ASSERT_EQ(tmh.images.size(), 1u);
    EXPECT_EQ(tmh.images[0].mode, 5u);
    EXPECT_EQ(tmh.images[0].width, 64);
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

TEST(MhfuSamples, EveryBlockDecodes) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const auto& path : files) {
    if (path.extension() != ".pmo") continue;
    auto f = read_mhfu_pmo_file(test::load_file(path));
    ASSERT_TRUE(f.ok());
    for (const MhfuBlock& b : f->pmo.blocks) {
      auto d = decode_mhfu_block(b);
      ASSERT_TRUE(d.ok()) << path << ": " << d.error().describe();
      auto v = psp::decode_vertices(d->format, b.vertices, d->vertex_count);
      ASSERT_TRUE(v.ok());
      for (const psp::Vertex& vertex : *v) {  // rigid or weighted, the weights sum to 1 (128)
        std::uint32_t sum = 0;
        for (std::size_t k = 0; k < d->format.weight_count; ++k) sum += vertex.weights[k];
        EXPECT_NEAR(sum, 128u, 2u) << path;
      }
    }
    auto palettes = mhfu_group_palettes(f->pmo);
    ASSERT_TRUE(palettes.ok());
    EXPECT_EQ((*palettes)[0][0], 3) << path;  // the hair hangs from bone 3
  }
}

}  // namespace
}  // namespace remodel
