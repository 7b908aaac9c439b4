#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "bwm_golden.hpp"
#include "model/bwm/bwm.hpp"
#include "model/document.hpp"
#include "model/kh_bbs/pmo.hpp"

namespace remodel {
namespace {

Bwm read_bwm_ok(const Bytes& b) {
  auto r = read_bwm(b);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
  return r.ok() ? *r : Bwm{};
}

void expect_writes_back(const Bytes& b) {
  auto r = read_bwm(b);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  auto w = write_bwm(*r);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  EXPECT_EQ(*w, b);
}

TEST(BwmGolden, Version5ModelFields) {
  const Bytes b = golden::bwm_v5_model();
  ASSERT_EQ(detect_format(b), Format::bwm);
  const Bwm m = read_bwm_ok(b);
  EXPECT_EQ(fixed_string(m.identifier), "LiOnHeAdMODEL");
  EXPECT_EQ(m.version, 5u);
  EXPECT_EQ(m.unknown_0x38, 0.25f);
  EXPECT_EQ(m.pnt, (BwmVec3{1, 2, 3}));
  EXPECT_EQ(m.radius, 1.5f);
  EXPECT_EQ(m.unknown_0x74, 1u);
  EXPECT_EQ(m.unknown_0x94[19], 0xB3);
  EXPECT_EQ(m.type, 2u);
  EXPECT_EQ(bwm_vertex_count(m), 3u);
  EXPECT_FALSE(m.stored_vertex_count);  // the strides hold the three
  ASSERT_EQ(m.materials.size(), 1u);
  EXPECT_EQ(fixed_string(m.materials[0].diffuse), "wood.tga");
  EXPECT_EQ(fixed_string(m.materials[0].type), "BUILDING");
  ASSERT_EQ(m.meshes.size(), 1u);
  EXPECT_EQ(fixed_string(m.meshes[0].name), "hut");
  EXPECT_EQ(m.meshes[0].unknown_0x80, 7u);
  EXPECT_EQ(m.meshes[0].volume, 3.0f);
  ASSERT_EQ(m.meshes[0].material_refs.size(), 1u);
  EXPECT_EQ(m.meshes[0].material_refs[0].indices_size, 3u);
  ASSERT_EQ(m.strides.size(), 1u);
  EXPECT_EQ(m.strides[0].size(), 32u);
  EXPECT_EQ(m.strides[0].tail.size(), 0x84u - 24);
  EXPECT_EQ(m.indices, (std::vector<std::uint16_t>{0, 1, 2}));
  EXPECT_TRUE(m.cleave_points.empty());
  EXPECT_EQ(verbatim_bytes(m), 0x84u - 24);  // the stride tail is the only unexplained run
  expect_writes_back(b);
}

TEST(BwmGolden, CountsEachStrideTailByName) {
  const Bytes b = golden::bwm_skin();
  const Bwm m = read_bwm_ok(b);
  WriteReport report;
  report.marks = true;
  ASSERT_TRUE(write_bwm(m, &report).ok());
  // Nine stride records of 0x88 bytes end the metadata (0x38 + metadata_size); each tail follows its
  // count and pairs, 0xCD in the golden.
  const std::size_t metadata_end = 0x38 + (b[0x34] | b[0x35] << 8);
  const std::size_t first = metadata_end - 9 * 0x88;
  ASSERT_EQ(report.verbatim_runs.size(), 9u);
  std::size_t total = 0;
  for (std::size_t s = 0; s < 9; ++s) {
    const VerbatimRun& run = report.verbatim_runs[s];
    const std::size_t pairs = s == 0 ? 3 : 1;
    EXPECT_EQ(run.field, "stride[" + std::to_string(s) + "].tail");
    EXPECT_EQ(run.offset, first + 0x88 * s + 4 + 8 * pairs);
    EXPECT_EQ(run.size, 0x84 - 8 * pairs);
    EXPECT_EQ(b[run.offset], 0xCD);
    EXPECT_EQ(b[run.offset - 1], 0x00);  // the last pair's format, not the tail
    total += run.size;
  }
  EXPECT_EQ(report.verbatim_bytes, total);
  EXPECT_EQ(total, 0x84u - 24 + 8 * (0x84 - 8));
}

TEST(BwmGolden, VertexCountFollowsTheStridesUnlessTheFileHasNone) {
  // Agreeing: the v5 model's strides hold its three vertices; a fourth appended is written as 4.
  Bwm m = read_bwm_ok(golden::bwm_v5_model());
  EXPECT_FALSE(m.stored_vertex_count);
  m.strides[0].vertices.resize(m.strides[0].vertices.size() + m.strides[0].size(), 0);
  WriteReport report;
  auto grown = write_bwm(m, &report);
  ASSERT_TRUE(grown.ok()) << grown.error().describe();
  EXPECT_EQ((*grown)[0xA8], 4u);  // vertex_count at 0xA8, after the 20 bytes at 0x94
  EXPECT_EQ(report.verbatim_bytes, 0x84u - 24);  // the stride tail only

  // A file with no stride states 5 vertices: nothing derives them, so the count is kept and counted.
  golden::BwmBytes g;
  golden::bwm_header(g, {5, 0, 0, 0, 0, 0, 0, 0, 5, 0, 2, 0, 0, 0});
  const Bwm bare = read_bwm_ok(g.b);
  EXPECT_EQ(bare.stored_vertex_count, 5u);
  EXPECT_EQ(bwm_vertex_count(bare), 5u);
  WriteReport kept;
  kept.marks = true;
  auto written = write_bwm(bare, &kept);
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(*written, g.b);
  ASSERT_EQ(kept.verbatim_runs.size(), 1u);
  EXPECT_EQ(kept.verbatim_runs[0].field, "vertex_count");
  EXPECT_EQ(kept.verbatim_runs[0].offset, 0xA8u);
  EXPECT_EQ(kept.verbatim_bytes, 4u);
  DocumentInfo info;
  add_document_info(bare, info);
  EXPECT_EQ(info.vertices, 5u);
  Bwm derived = bare;
  derived.stored_vertex_count.reset();
  auto zero = write_bwm(derived);
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ((*zero)[0xA8], 0u);
}

TEST(BwmGolden, ZeroStrideTailsAreCanonicalNotVerbatim) {
  // Exporters that clear the record write the 0x84 - 8n tail as zeros: the canonical fill, not verbatim.
  Bytes b = golden::bwm_v5_model();
  const Bytes garbage(0x84 - 24, 0xCD);
  const auto tail = std::search(b.begin(), b.end(), garbage.begin(), garbage.end());
  ASSERT_NE(tail, b.end());
  std::fill(tail, tail + static_cast<std::ptrdiff_t>(garbage.size()), std::uint8_t{0});
  const Bwm zeros = read_bwm_ok(b);
  ASSERT_EQ(zeros.strides.size(), 1u);
  EXPECT_FALSE(zeros.strides[0].tail.stored());
  EXPECT_EQ(verbatim_bytes(zeros), 0u);
  expect_writes_back(b);
  // One byte that is not zero makes the whole tail a fact about the file again.
  *(tail + 40) = 0x01;
  EXPECT_EQ(verbatim_bytes(read_bwm_ok(b)), 0x84u - 24);
  expect_writes_back(b);
}

TEST(BwmGolden, Version6ModelWithCleavePointsMeshesAndEntities) {
  const Bytes b = golden::bwm_v6_model();
  const Bwm m = read_bwm_ok(b);
  EXPECT_EQ(m.version, 6u);
  ASSERT_EQ(m.meshes.size(), 2u);
  EXPECT_EQ(m.meshes[0].material_refs.size(), 2u);
  ASSERT_EQ(m.meshes[1].material_refs.size(), 3u);
  EXPECT_EQ(m.meshes[1].material_refs[1].indices_offset, 3u);
  EXPECT_EQ(m.meshes[1].lod_level, 2u);
  ASSERT_EQ(m.entities.size(), 1u);
  EXPECT_EQ(fixed_string(m.entities[0].name), "Door");
  EXPECT_EQ(m.entities[0].transform.position, (BwmVec3{0.5f, 0, 0.5f}));
  EXPECT_EQ(m.unknown_points, (std::vector<BwmVec3>{{9, 9, 9}}));
  EXPECT_EQ(m.collision_points.size(), 2u);
  ASSERT_EQ(m.cleave_points.size(), 2u);
  EXPECT_EQ(m.cleave_points[1], (BwmVec3{0, 2, 0}));
  expect_writes_back(b);

  auto v = decode_bwm_vertices(m);
  ASSERT_TRUE(v.ok());
  ASSERT_EQ(v->positions.size(), 4u);
  EXPECT_EQ(v->positions[2], (BwmVec3{1, 1, 0}));
  ASSERT_EQ(v->uv_sets.size(), 2u);
  EXPECT_EQ(v->uv_sets[1][2], (std::array<float, 2>{0.5f, 0.5f}));
  auto t = bwm_triangles(m, m.meshes[0].material_refs[1]);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t, (std::vector<std::array<std::uint32_t, 3>>{{2, 1, 0}, {3, 2, 0}}));
  auto empty = bwm_triangles(m, m.meshes[1].material_refs[2]);
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(BwmGolden, SkinWithNineStrides) {
  const Bytes b = golden::bwm_skin();
  const Bwm m = read_bwm_ok(b);
  EXPECT_EQ(m.type, 3u);
  ASSERT_EQ(m.strides.size(), 9u);
  EXPECT_EQ(m.strides[1].attributes[0].id, 6u);
  EXPECT_EQ(m.strides[1].attributes[0].format, BwmFormat::u8);
  EXPECT_EQ(m.strides[8].attributes[0].format, BwmFormat::f32);
  ASSERT_EQ(m.bones.size(), 2u);
  EXPECT_EQ(m.bones[1].position, (BwmVec3{0, 1, 0}));
  expect_writes_back(b);

  auto v = decode_bwm_vertices(m);
  ASSERT_TRUE(v.ok());
  ASSERT_EQ(v->joints.size(), 4u);
  EXPECT_EQ(v->joints[3], (std::array<std::uint8_t, 4>{0, 1, 0, 0}));
  ASSERT_EQ(v->weights.size(), 4u);
  EXPECT_EQ(v->weights[0], (std::array<float, 4>{0.75f, 0.25f, 0, 0}));
  EXPECT_EQ(v->weights[3], (std::array<float, 4>{0.25f, 0.75f, 0, 0}));
  // One strip of 4 indices, stored as indices_size 2: triangles 0-1-2 and (odd, swapped) 2-1-3.
  auto t = bwm_triangles(m, m.meshes[0].material_refs[0]);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(*t, (std::vector<std::array<std::uint32_t, 3>>{{0, 1, 2}, {2, 1, 3}}));
}

TEST(BwmGolden, EditedModelWritesConsistentSizes) {
  Bwm m = read_bwm_ok(golden::bwm_v6_model());
  m.collision_points.push_back({5, 5, 5});
  m.cleave_points.clear();
  auto w = write_bwm(m);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->size(), golden::bwm_v6_model().size() + 12 - 24);
  const Bwm back = read_bwm_ok(*w);
  EXPECT_EQ(back.collision_points.size(), 3u);
  EXPECT_TRUE(back.cleave_points.empty());
}

// ---- bad input ----

Bytes patch32(Bytes b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
  return b;
}

TEST(BwmBadInput, CountsPastTheFile) {
  auto r = read_bwm(patch32(golden::bwm_v5_model(), 0x84, 1000));  // bones
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::bad_count);
  EXPECT_EQ(r.error().field, "bone");
}

TEST(BwmBadInput, StrideCountOverTheTable) {
  const std::size_t stride = 0xB8 + 0x1C0 + 0xDC + 0x20;  // v5 model's stride record
  auto r = read_bwm(patch32(golden::bwm_v5_model(), stride, 17));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::bad_count);
  EXPECT_EQ(r.error().field, "stride[0].count");
  EXPECT_EQ(r.error().offset, stride);
}

TEST(BwmBadInput, StrideFormatOutsideTheTable) {
  const std::size_t format = 0xB8 + 0x1C0 + 0xDC + 0x20 + 8;
  auto r = read_bwm(patch32(golden::bwm_v5_model(), format, 5));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "stride[0].format");
  EXPECT_EQ(r.error().offset, format);
}

TEST(BwmBadInput, SizeAndMetadataSizeThatDisagree) {
  const Bytes b = golden::bwm_v5_model();
  auto size = read_bwm(patch32(b, 0x28, static_cast<std::uint32_t>(b.size())));
  ASSERT_FALSE(size.ok());
  EXPECT_EQ(size.error().field, "size");
  auto meta = read_bwm(patch32(b, 0x34, 0x80));
  ASSERT_FALSE(meta.ok());
  EXPECT_EQ(meta.error().field, "metadata_size");
  EXPECT_EQ(meta.error().offset, 0x34u);
}

TEST(BwmBadInput, IndexPastTheVertexCount) {
  Bytes b = golden::bwm_v5_model();
  const std::size_t last = b.size() - 2;
  b[last] = 3;  // the third index becomes 3 of 3 vertices
  auto r = read_bwm(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "index");
  EXPECT_EQ(r.error().offset, last);
}

TEST(BwmBadInput, WriterRefusesInconsistentDocuments) {
  Bwm m = read_bwm_ok(golden::bwm_v5_model());
  m.strides[0].tail = Verbatim(Bytes(0x84 - 24 - 1, 0xCD));  // a tail that no longer fills the record
  EXPECT_FALSE(write_bwm(m).ok());
  m = read_bwm_ok(golden::bwm_v5_model());
  m.stored_vertex_count = 4;  // the strides hold 3
  auto r = write_bwm(m);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "stride[0].vertices");
  m = read_bwm_ok(golden::bwm_v5_model());
  m.cleave_points.push_back({0, 0, 0});
  EXPECT_FALSE(write_bwm(m).ok());
}

}  // namespace
}  // namespace remodel
