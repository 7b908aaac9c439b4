#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <tuple>

#include "model/document.hpp"
#include "model/j3d/j3d.hpp"
#include "model/j3d/decode.hpp"
#include "round_trip.hpp"
#include "samples.hpp"
#include "j3d/big_endian.hpp"

namespace remodel {
namespace {

// ---- a J3D file with one INF1 section, written by hand from j3d-bmd-bdl.md and notes-j3d.md ----

using test::be16;
using test::be32;
std::uint32_t be32_at(const Bytes& b, std::size_t at) {
  return static_cast<std::uint32_t>(b[at] << 24 | b[at + 1] << 16 | b[at + 2] << 8 | b[at + 3]);
}
void text(Bytes& b, const char* s) {
  for (; *s != '\0'; ++s) b.push_back(static_cast<std::uint8_t>(*s));
}

void pad_section(Bytes& section) {  // filler to 32, then the section's size
  const char* filler = "This is padding data to alignment.";
  for (std::size_t i = 0; section.size() % 32 != 0; ++i) section.push_back(static_cast<std::uint8_t>(filler[i]));
  for (int k = 0; k < 4; ++k) section[4 + k] = static_cast<std::uint8_t>(section.size() >> (24 - 8 * k));
}

Bytes j3d_file_of(const std::vector<Bytes>& sections) {
  Bytes file;
  text(file, "J3D2bmd3");
  std::size_t size = 0x20;
  for (const Bytes& s : sections) size += s.size();
  be32(file, static_cast<std::uint32_t>(size));
  be32(file, static_cast<std::uint32_t>(sections.size()));
  text(file, "SVR3");
  file.insert(file.end(), 12, 0xFF);
  for (const Bytes& s : sections) file.insert(file.end(), s.begin(), s.end());
  return file;
}

// INF1: flags, 0xFFFF, packet count, vertex count, hierarchy offset 0x18, the nodes, filler to 32.
Bytes golden_inf1(const std::vector<std::pair<std::uint16_t, std::uint16_t>>& nodes, std::uint32_t packets, std::uint32_t vertices) {
  Bytes section;
  text(section, "INF1");
  be32(section, 0);  // size, patched below
  be16(section, 1);  // flags
  be16(section, 0xFFFF);
  be32(section, packets);
  be32(section, vertices);
  be32(section, 0x18);
  for (auto [type, index] : nodes) {
    be16(section, type);
    be16(section, index);
  }
  pad_section(section);
  return section;
}

// Joint 0 { material 0 { shape 0 } }, shape 1: 9 nodes + terminator = 0x28 bytes after the
// 0x18 header, so 0x40 with 0x18 bytes of "This is padding data to" filler... up to 0x60. With no
// SHP1 or VTX1, the counts that agree with the sections are 0.
Bytes golden_inf1_file(const std::vector<std::pair<std::uint16_t, std::uint16_t>>& nodes, std::uint32_t packets = 0,
                       std::uint32_t vertices = 0) {
  return j3d_file_of({golden_inf1(nodes, packets, vertices)});
}

// VTX1: format list at 0x40 (POS XYZ s16, no fraction; the terminator), positions at 0x60 (6 bytes
// each), filler to 32.
Bytes golden_vtx1(std::size_t positions) {
  Bytes section;
  text(section, "VTX1");
  be32(section, 0);
  be32(section, 0x40);
  be32(section, 0x60);  // position array
  for (int k = 1; k < 13; ++k) be32(section, 0);
  for (std::uint32_t v : {9u, 1u, 3u}) be32(section, v);
  section.insert(section.end(), {0, 0xFF, 0xFF, 0xFF});
  for (std::uint32_t v : {0xFFu, 1u, 0u}) be32(section, v);
  section.insert(section.end(), {0, 0xFF, 0xFF, 0xFF});
  for (std::size_t p = 0; p < positions; ++p) {
    for (int c = 0; c < 3; ++c) be16(section, static_cast<std::uint16_t>(p * 3 + static_cast<std::size_t>(c)));
  }
  pad_section(section);
  return section;
}

const std::vector<std::pair<std::uint16_t, std::uint16_t>> kHierarchy = {
    {0x10, 0}, {1, 0}, {0x11, 0}, {1, 0}, {0x12, 0}, {2, 0}, {2, 0}, {0x12, 1}, {0, 0}};

TEST(J3dGolden, HierarchyReadsAsATree) {
  const Bytes b = golden_inf1_file(kHierarchy);
  ASSERT_EQ(b.size(), 0x60u);
  ASSERT_EQ(detect_format(b), Format::j3d);
  auto r = read_j3d(b);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  ASSERT_EQ(r->sections.size(), 1u);
  const auto& inf = std::get<J3dInf1>(r->sections[0]);
  EXPECT_FALSE(inf.stored_packet_count);  // 0, as the missing SHP1 and VTX1 give
  EXPECT_FALSE(inf.stored_vertex_count);
  ASSERT_EQ(inf.roots.size(), 2u);
  EXPECT_EQ(inf.roots[0].type, 0x10);
  ASSERT_EQ(inf.roots[0].children.size(), 1u);
  EXPECT_EQ(inf.roots[0].children[0].type, 0x11);
  ASSERT_EQ(inf.roots[0].children[0].children.size(), 1u);
  EXPECT_EQ(inf.roots[0].children[0].children[0].type, 0x12);
  EXPECT_EQ(inf.roots[1].index, 1);
  EXPECT_FALSE(inf.gap_after_hierarchy.stored());
  EXPECT_EQ(r->padding, kJ3dNintendoPadding);
  EXPECT_EQ(verbatim_bytes(*r), 0u);
  auto w = write_j3d(*r);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  EXPECT_EQ(*w, b);
}

TEST(J3dGolden, EditedHierarchyWritesSizesAndPadding) {
  auto r = read_j3d(golden_inf1_file(kHierarchy));
  ASSERT_TRUE(r.ok());
  auto& inf = std::get<J3dInf1>(r->sections[0]);
  inf.roots[1].children.push_back(J3dNode{0x11, 1, {}});  // adds open, material, close: 12 bytes
  auto w = write_j3d(*r);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, golden_inf1_file({{0x10, 0}, {1, 0}, {0x11, 0}, {1, 0}, {0x12, 0}, {2, 0}, {2, 0}, {0x12, 1}, {1, 0},
                                  {0x11, 1}, {2, 0}, {0, 0}}));
}

// INF1's counts against the sections (no SHP1: 0 packets; VTX1: 4 positions). A count that agrees is
// not kept, and an appended position is counted in the INF1 written; one that disagrees is kept (4
// verbatim bytes), written as it was whatever the sections become, and shown by `info`.
TEST(J3dGolden, Inf1CountsFollowTheSectionsUnlessTheFileDisagrees) {
  struct Case {
    std::uint32_t packets, vertices;
    std::size_t verbatim;
  };
  const std::vector<std::pair<std::uint16_t, std::uint16_t>> shape = {{0x12, 0}, {0, 0}};
  for (const Case c : {Case{0, 4, 0}, Case{3, 100, 8}, Case{0, 100, 4}}) {
    SCOPED_TRACE("INF1 stating " + std::to_string(c.packets) + " packets, " + std::to_string(c.vertices) + " vertices");
    const Bytes b = j3d_file_of({golden_inf1(shape, c.packets, c.vertices), golden_vtx1(4)});
    auto r = read_j3d(b);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const auto& inf = std::get<J3dInf1>(r->sections[0]);
    EXPECT_EQ(inf.stored_packet_count.has_value(), c.packets != 0);
    EXPECT_EQ(inf.stored_packet_count.value_or(0), c.packets);
    EXPECT_EQ(inf.stored_vertex_count.has_value(), c.vertices != 4);
    EXPECT_EQ(inf.stored_vertex_count.value_or(4), c.vertices);
    EXPECT_EQ(j3d_vertex_count(*r), 4u);
    EXPECT_EQ(verbatim_bytes(*r), c.verbatim);
    DocumentInfo info{};
    add_info(*r, info);
    EXPECT_EQ(info.vertices, c.vertices);  // what the file says
    auto w = write_j3d(*r);
    ASSERT_TRUE(w.ok()) << w.error().describe();
    EXPECT_EQ(*w, b);
    auto& positions = std::get<J3dVtx1>(r->sections[1]).arrays[0].data;
    positions.insert(positions.end(), {0, 12, 0, 13, 0, 14});
    w = write_j3d(*r);
    ASSERT_TRUE(w.ok()) << w.error().describe();
    EXPECT_EQ(*w, j3d_file_of({golden_inf1(shape, c.packets, c.vertices == 4 ? 5 : c.vertices), golden_vtx1(5)}));
  }
}

// TEX1 with one 8x4 I8 texture (32 bytes of image, no palette) named "a", its BTI header's byte 0x19
// set to `unknown_0x19`: header, filler to 0x20, the BTI header, the image at 0x40, names at 0x60.
Bytes golden_tex1(std::uint8_t unknown_0x19) {
  Bytes section;
  text(section, "TEX1");
  be32(section, 0);  // size, patched by pad_section
  be16(section, 1);
  be16(section, 0xFFFF);
  be32(section, 0x20);  // headers
  be32(section, 0x60);  // names
  text(section, "This is padd");  // the filler to 0x20
  section.insert(section.end(), {1, 0});  // I8, alpha
  be16(section, 8);
  be16(section, 4);
  section.insert(section.end(), {0, 0, 0, 0});  // wrap s, t, palette enable, palette format
  be16(section, 0);  // palette count
  be32(section, 0);  // palette offset: the header itself, no palette
  section.insert(section.end(), {0, 0, 0, 0, 0, 0, 0, 0, 1, unknown_0x19});  // ... max LOD, mip count, 0x19
  be16(section, 0);     // LOD bias
  be32(section, 0x20);  // image, from the header
  for (std::uint8_t i = 0; i < 32; ++i) section.push_back(i);
  be16(section, 1);
  be16(section, 0xFFFF);
  be16(section, 97);  // hash of "a"
  be16(section, 8);
  text(section, "a");
  section.push_back(0);
  pad_section(section);
  return section;
}

// Reads `b`, writes it back (expecting the same bytes) and gives what the write counted, runs named.
WriteReport rewritten_report(const Bytes& b) {
  WriteReport report;
  report.marks = true;
  auto r = read_j3d(b);
  EXPECT_TRUE(r.ok()) << r.error().describe();
  if (!r.ok()) return report;
  auto w = write_j3d(*r, &report);
  EXPECT_TRUE(w.ok()) << w.error().describe();
  if (w.ok()) {
    EXPECT_EQ(*w, b);
  }
  return report;
}

// Each verbatim fact is counted once, by name and where it is written: INF1's packet count (3, but no
// SHP1) at 0x2C, INF1's gap stored as zeros (28 bytes after the 0x24 bytes of header and three nodes)
// at 0x44, and the texture's byte 0x19 at TEX1 (0x60) + 0x20 + 0x19. Canonical values count nothing.
TEST(J3dGolden, VerbatimRunsAreNamedWhereTheyAreWritten) {
  const std::vector<std::pair<std::uint16_t, std::uint16_t>> nodes = {{0x10, 0}, {0x12, 0}, {0, 0}};
  Bytes inf1 = golden_inf1(nodes, 3, 0);
  ASSERT_EQ(inf1.size(), 0x40u);
  std::fill(inf1.begin() + 0x24, inf1.end(), std::uint8_t{0});
  const Bytes b = j3d_file_of({inf1, golden_tex1(0x5A)});
  ASSERT_EQ(b[0x99], 0x5A);
  const WriteReport report = rewritten_report(b);
  ASSERT_EQ(report.verbatim_runs.size(), 3u);
  const std::vector<std::tuple<std::string, std::size_t, std::size_t>> expected = {
      {"INF1.stored_packet_count", 0x2C, 4}, {"INF1.gap_after_hierarchy", 0x44, 28}, {"TEX1.texture[0].unknown_0x19", 0x99, 1}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const VerbatimRun& run = report.verbatim_runs[i];
    EXPECT_EQ(std::tie(run.field, run.offset, run.size), std::tie(std::get<0>(expected[i]), std::get<1>(expected[i]), std::get<2>(expected[i])))
        << run.field << " at " << run.offset << ", " << run.size << " bytes";
  }
  EXPECT_EQ(report.verbatim_bytes, 33u);
  // Byte 0x19 of 0, the filler and a count that agrees are what the writer derives: nothing counted.
  const WriteReport none = rewritten_report(j3d_file_of({golden_inf1(nodes, 0, 0), golden_tex1(0)}));
  EXPECT_EQ(none.verbatim_bytes, 0u);
  EXPECT_TRUE(none.verbatim_runs.empty());
}

TEST(J3dGolden, NameHashUsesSignedChars) {
  EXPECT_EQ(j3d_name_hash(""), 0);
  EXPECT_EQ(j3d_name_hash("a"), 97);
  EXPECT_EQ(j3d_name_hash("ab"), 97 * 3 + 98);
  EXPECT_EQ(j3d_name_hash("\xE9"), 0xFFE9);  // -23 as a signed char
}

TEST(J3dDecode, TrianglesFromStripsFansAndLists) {
  using Tris = std::vector<std::array<std::uint32_t, 3>>;
  EXPECT_EQ(j3d_triangles(0x98, 5), (Tris{{0, 1, 2}, {2, 1, 3}, {2, 3, 4}}));
  EXPECT_EQ(j3d_triangles(0xA0, 4), (Tris{{0, 1, 2}, {0, 2, 3}}));
  EXPECT_EQ(j3d_triangles(0x90, 6), (Tris{{0, 1, 2}, {3, 4, 5}}));
  EXPECT_EQ(j3d_triangles(0x99, 3), (Tris{{0, 1, 2}}));  // VAT 1 is still a strip
  EXPECT_EQ(j3d_dl_vertex_size({{0, 1}, {9, 3}, {10, 3}, {13, 2}}), 6u);
  EXPECT_EQ(j3d_dl_vertex_size({{9, 1}}), 0u);  // direct positions: not supported
}

// One shape drawing one packet whose vertices carry 16-bit position and normal indices (two values a
// vertex): SHP1 as notes-j3d.md lays it out, for the draw command's vertex count.
J3dFile golden_shp1_file(std::vector<std::uint16_t> values) {
  J3dShp1 shp;
  shp.shapes.resize(1);
  shp.shapes[0].packet_count = 1;
  shp.remap = {0};
  shp.descriptor_lists = {{J3dVertexDescriptor{0, 0}, J3dVertexDescriptor{9, 3}, J3dVertexDescriptor{10, 3}}};  // PNMTXIDX absent
  shp.matrix_table = {0};
  shp.matrix_groups = {J3dMatrixGroup{0, 1, 0}};
  shp.packets.resize(1);
  shp.packets[0].primitives = {J3dPrimitive{0x98, std::move(values)}};
  J3dFile f;
  f.sections = {shp};
  return f;
}

TEST(J3dGolden, DrawCommandCountsWholeVerticesOfItsValues) {
  WriteReport report;
  report.marks = true;
  auto w = write_j3d(golden_shp1_file({0, 0, 1, 1, 2, 5}), &report);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  const std::vector<FieldMark>& marks = report.fields;
  const auto packet = std::find_if(marks.begin(), marks.end(), [](const FieldMark& m) { return m.field == "SHP1.packet[0]"; });
  ASSERT_NE(packet, marks.end());
  // GX_DRAW_TRIANGLE_STRIP, 3 vertices (u16), then per vertex a u16 position and a u16 normal index.
  const Bytes draw{0x98, 0x00, 0x03, 0, 0, 0, 0, 0, 1, 0, 1, 0, 2, 0, 5};
  ASSERT_LE(packet->offset + 32, w->size());
  EXPECT_EQ(Bytes(w->begin() + static_cast<std::ptrdiff_t>(packet->offset), w->begin() + static_cast<std::ptrdiff_t>(packet->offset + draw.size())), draw);
  for (std::size_t k = draw.size(); k < 32; ++k) EXPECT_EQ((*w)[packet->offset + k], 0) << k;  // GX NOPs to 32
  auto r = read_j3d(*w);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& shp = std::get<J3dShp1>(r->sections[0]);
  ASSERT_EQ(shp.packets[0].primitives.size(), 1u);
  EXPECT_EQ(shp.packets[0].primitives[0].values, (std::vector<std::uint16_t>{0, 0, 1, 1, 2, 5}));
  EXPECT_EQ(j3d_dl_vertex_count(shp.packets[0].primitives[0], shp.descriptor_lists[0]).value_or(0), 3u);
}

// INF1's packet count is SHP1's packets, written by the writer (the Document stores none).
TEST(J3dGolden, Inf1PacketCountFromShp1) {
  J3dFile f = golden_shp1_file({0, 0, 1, 1, 2, 5});
  f.sections.insert(f.sections.begin(), J3dInf1{});
  auto w = write_j3d(f);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  EXPECT_EQ(be32_at(*w, 0x20 + 0x0C), 1u);  // one packet
  EXPECT_EQ(be32_at(*w, 0x20 + 0x10), 0u);  // no VTX1, no positions
  auto r = read_j3d(*w);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_FALSE(std::get<J3dInf1>(r->sections[0]).stored_packet_count);
  EXPECT_EQ(verbatim_bytes(*r), 0u);
}

TEST(J3dBadInput, PrimitiveValuesThatAreNotWholeVertices) {
  auto w = write_j3d(golden_shp1_file({0, 0, 1}));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().field, "SHP1.packet[0].primitive[0]");
  EXPECT_NE(w.error().message.find("not a whole number of vertices"), std::string::npos) << w.error().describe();
  auto many = write_j3d(golden_shp1_file(std::vector<std::uint16_t>(2 * 0x10000, 0)));  // 65536 vertices
  ASSERT_FALSE(many.ok());
  EXPECT_EQ(many.error().field, "SHP1.packet[0].primitive[0]");
  EXPECT_NE(many.error().message.find("65536 vertices"), std::string::npos) << many.error().describe();
  EXPECT_TRUE(write_j3d(golden_shp1_file(std::vector<std::uint16_t>(2 * 0xFFFF, 0))).ok());  // the u16's largest
}

TEST(J3dDecode, FixedPointArrays) {
  J3dVtx1 vtx;
  vtx.formats = {J3dVertexFormat{9, 1, 3, 8, {0xFF, 0xFF, 0xFF}}};  // XYZ s16, 8 fraction bits
  vtx.arrays = {J3dVertexArray{0, Bytes{0x01, 0x00, 0xFF, 0x00, 0x00, 0x80}, {}}};
  auto a = j3d_decode_array(vtx, 0);
  ASSERT_TRUE(a.ok()) << a.error().describe();
  EXPECT_EQ(a->components, 3u);
  EXPECT_EQ(a->values, (std::vector<float>{1.0f, -1.0f, 0.5f}));
  vtx.formats.push_back(J3dVertexFormat{11, 1, 5, 0, {0xFF, 0xFF, 0xFF}});  // RGBA8
  vtx.arrays.push_back(J3dVertexArray{3, Bytes{255, 0, 51, 255}, {}});
  auto c = j3d_decode_array(vtx, 3);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->values, (std::vector<float>{1.0f, 0.0f, 0.2f, 1.0f}));
}

TEST(J3dDecode, PacketMatricesKeepSlotsOn0xFFFF) {
  J3dShp1 shp;
  shp.shapes.resize(1);
  shp.shapes[0].packet_count = 2;
  shp.matrix_table = {5, 6, 0xFFFF, 7};
  shp.matrix_groups = {J3dMatrixGroup{0xFFFF, 2, 0}, J3dMatrixGroup{0xFFFF, 2, 2}};
  auto m = j3d_packet_matrices(shp, 0);
  ASSERT_TRUE(m.ok());
  ASSERT_EQ(m->size(), 2u);
  EXPECT_EQ((*m)[0][0], 5);
  EXPECT_EQ((*m)[0][1], 6);
  EXPECT_EQ((*m)[1][0], 5);  // kept
  EXPECT_EQ((*m)[1][1], 7);
  EXPECT_EQ((*m)[1][2], std::nullopt);  // never loaded
}

TEST(J3dDecode, JointWorldMatricesThroughTheHierarchy) {
  J3dFile f;
  J3dInf1 inf;
  inf.roots = {J3dNode{0x10, 0, {J3dNode{0x10, 1, {}}}}};
  J3dJnt1 jnt;
  jnt.joints.resize(2);
  jnt.joints[0].translation = {1, 0, 0};
  jnt.joints[1].translation = {0, 2, 0};
  jnt.joints[1].rotation = {0, 0, 0x4000};  // 90 degrees about Z
  f.sections = {inf, jnt};
  auto w = j3d_joint_world_matrices(f);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  const auto& child = (*w)[1];
  EXPECT_NEAR(child[12], 1.0f, 1e-6);  // translation
  EXPECT_NEAR(child[13], 2.0f, 1e-6);
  EXPECT_NEAR(child[0], 0.0f, 1e-6);  // the X axis now points along Y
  EXPECT_NEAR(child[1], 1.0f, 1e-6);
  inf.roots[0].children.push_back(J3dNode{0x10, 0, {}});  // joint 0 twice: a cycle in disguise
  f.sections[0] = inf;
  EXPECT_FALSE(j3d_joint_world_matrices(f).ok());
}

TEST(J3dBadInput, MaterialIndexPastItsTable) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const auto& path : files) {
    if (path.filename() != "ww_letter.bdl") continue;
    auto f = read_j3d(test::load_file(path));
    ASSERT_TRUE(f.ok());
    for (J3dSection& s : f->sections) {
      if (auto* mat = std::get_if<J3dMat3>(&s)) mat->entries[0].blend = static_cast<std::uint16_t>(mat->blends.size());
    }
    auto r = j3d_check_indices(*f);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().field, "MAT3.entry[0].blend");
    return;
  }
  GTEST_SKIP() << "ww_letter.bdl not present";
}

// Found by the structure-aware fuzzer: a MAT3 whose name-table offset is 0 read, then could not be written.
TEST(J3dBadInput, MaterialsWithoutNameTable) {
  Bytes b = test::load_file(std::filesystem::path(REMODEL_CORPUS) / "j3d" / "demo.bmd");
  std::size_t at = 0x20;
  while (std::string(b.begin() + at, b.begin() + at + 4) != "MAT3") {
    at += static_cast<std::size_t>(b[at + 4]) << 24 | b[at + 5] << 16 | b[at + 6] << 8 | b[at + 7];
  }
  for (int k = 0; k < 4; ++k) b[at + 0x14 + k] = 0;  // names offset
  auto r = read_j3d(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "MAT3.remap_offset");
}

TEST(J3dBadInput, HierarchyTooDeep) {
  std::vector<std::pair<std::uint16_t, std::uint16_t>> nodes;
  for (int i = 0; i < 300; ++i) {
    nodes.push_back({0x10, 0});
    nodes.push_back({1, 0});
  }
  nodes.push_back({0x10, 0});
  for (int i = 0; i < 300; ++i) nodes.push_back({2, 0});
  nodes.push_back({0, 0});
  auto r = read_j3d(golden_inf1_file(nodes));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "INF1.node.type");
  EXPECT_NE(r.error().message.find("deeper"), std::string::npos);
}

TEST(J3dBadInput, HierarchyThatClosesTooMuchOrNeverEnds) {
  auto closes = read_j3d(golden_inf1_file({{0x10, 0}, {2, 0}, {0, 0}}));
  ASSERT_FALSE(closes.ok());
  EXPECT_EQ(closes.error().code, ErrorCode::bad_value);
  EXPECT_EQ(closes.error().offset, 0x20u + 0x18 + 4);
  Bytes open = golden_inf1_file({{0x10, 0}, {1, 0}, {0x10, 1}, {0x10, 2}});  // no terminator
  auto r = read_j3d(open);
  ASSERT_FALSE(r.ok());
}

TEST(J3dBadInput, DisplayListOverrunsItsPacket) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const auto& path : files) {
    if (path.filename() != "sms_watermask.bmd") continue;
    Bytes b = test::load_file(path);
    auto f = read_j3d(b);
    ASSERT_TRUE(f.ok());
    // Find SHP1's first packet and claim 0xFFFF vertices in its first draw command.
    std::size_t at = 0x20;
    while (std::string(b.begin() + at, b.begin() + at + 4) != "SHP1") {
      at += static_cast<std::size_t>(b[at + 4]) << 24 | b[at + 5] << 16 | b[at + 6] << 8 | b[at + 7];
    }
    const std::size_t dl = at + (static_cast<std::size_t>(b[at + 0x20]) << 24 | b[at + 0x21] << 16 | b[at + 0x22] << 8 | b[at + 0x23]);
    ASSERT_EQ(b[dl] & 0xF8, 0x98);
    b[dl + 1] = 0xFF;
    b[dl + 2] = 0xFF;
    auto r = read_j3d(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::bad_count);
    EXPECT_EQ(r.error().field, "SHP1.packet[0].vertex_count");
    EXPECT_EQ(r.error().offset, dl + 1);
    return;
  }
  GTEST_SKIP() << "sms_watermask.bmd not present";
}

TEST(J3dSamples, RoundTripWithEverySectionStructured) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  std::size_t total = 0, verbatim = 0, unexplained_gaps = 0;
  for (const auto& path : files) {
    ASSERT_TRUE(test::expect_round_trip(path).has_value()) << path;
    const Bytes b = test::load_file(path);
    auto f = read_j3d(b);
    ASSERT_TRUE(f.ok());
    for (const J3dSection& s : f->sections) EXPECT_FALSE(std::holds_alternative<J3dRawSection>(s)) << path;
    // Besides the uninitialised bytes in material entries and BTI headers, only the two SMS test
    // maps keep a gap: their MAT3 light table offset points into the colour-channel pool (32 bytes).
    WriteReport report;
    report.marks = true;
    ASSERT_TRUE(write_j3d(*f, &report).ok()) << path;
    std::size_t gaps = 0, runs = 0;
    for (const VerbatimRun& run : report.verbatim_runs) {
      runs += run.size;
      if (run.field.find("gap") != std::string::npos) gaps += run.size;
    }
    EXPECT_EQ(runs, report.verbatim_bytes) << path;  // every counted byte is in a named run
    if (path.filename().string().rfind("sms_testmap_", 0) == 0) {
      EXPECT_LE(gaps, 32u) << path;
    } else {
      EXPECT_EQ(gaps, 0u) << path;
    }
    unexplained_gaps += gaps;
    total += b.size();
    verbatim += report.verbatim_bytes;
  }
  EXPECT_LT(verbatim * 1000, total);  // under 0.1 percent over all samples
  std::printf("j3d samples: %zu bytes, %zu verbatim (%zu of them gaps)\n", total, verbatim, unexplained_gaps);
}

TEST(J3dSamples, DecodersAgreeWithTheFile) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const auto& path : files) {
    const Bytes bytes = test::load_file(path);
    auto f = read_j3d(bytes);
    ASSERT_TRUE(f.ok());
    auto checked = j3d_check_indices(*f);
    if (path.filename().string().rfind("sms_testmap_", 0) == 0) {
      // The SMS test maps' MAT3 header puts the ambient and light tables inside the colour-channel
      // pool, so its materials index channels past where the header ends that pool.
      ASSERT_FALSE(checked.ok());
      EXPECT_EQ(checked.error().field, "MAT3.entry[0].color_channels") << path;
    } else {
      ASSERT_TRUE(checked.ok()) << path << ": " << checked.error().describe();
      EXPECT_GT(*checked, 0u) << path;
    }
    ASSERT_TRUE(j3d_joint_world_matrices(*f).ok()) << path;
    const J3dInf1* inf = nullptr;
    const J3dVtx1* vtx = nullptr;
    const J3dShp1* shp = nullptr;
    const J3dDrw1* drw = nullptr;
    const J3dEvp1* evp = nullptr;
    for (const J3dSection& s : f->sections) {
      if (const auto* p = std::get_if<J3dInf1>(&s)) inf = p;
      if (const auto* p = std::get_if<J3dVtx1>(&s)) vtx = p;
      if (const auto* p = std::get_if<J3dShp1>(&s)) shp = p;
      if (const auto* p = std::get_if<J3dDrw1>(&s)) drw = p;
      if (const auto* p = std::get_if<J3dEvp1>(&s)) evp = p;
    }
    ASSERT_TRUE(inf && vtx && shp && drw && evp);
    auto positions = j3d_decode_array(*vtx, 0);
    ASSERT_TRUE(positions.ok());
    // INF1, the first section, counts SHP1's packets and VTX1's positions in every sample: nothing kept.
    ASSERT_EQ(std::get_if<J3dInf1>(&f->sections[0]), inf) << path;
    EXPECT_EQ(be32_at(bytes, 0x20 + 0x0C), shp->packets.size()) << path;
    EXPECT_EQ(be32_at(bytes, 0x20 + 0x10), positions->count()) << path;
    EXPECT_FALSE(inf->stored_packet_count) << path;
    EXPECT_FALSE(inf->stored_vertex_count) << path;
    for (std::size_t s = 0; s < shp->shapes.size(); ++s) {
      auto slots = j3d_packet_matrices(*shp, s);
      ASSERT_TRUE(slots.ok()) << path;
      for (const auto& packet : *slots) {
        for (const auto& d : packet.slots) {
          if (!d) continue;
          auto influences = j3d_draw_influences(*drw, *evp, *d);
          ASSERT_TRUE(influences.ok()) << path << ": " << influences.error().describe();
        }
      }
    }
  }
}

// Real tool-made files end some SHP1 descriptor lists with (0xFF, non-zero type): a sample whose
// last terminator's type byte is set reads, keeps the type (4 verbatim bytes) and writes back as is.
TEST(J3dSamples, DescriptorListTerminatorWithATypeRoundTrips) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const auto& path : files) {
    Bytes b = test::load_file(path);
    auto original = read_j3d(b);
    ASSERT_TRUE(original.ok()) << path;
    std::size_t at = 0x20, shp1 = 0;  // sections follow the 0x20-byte file header
    while (at + 8 <= b.size() && shp1 == 0) {
      if (b[at] == 'S' && b[at + 1] == 'H' && b[at + 2] == 'P' && b[at + 3] == '1') shp1 = at;
      at += be32_at(b, at + 4);
    }
    ASSERT_NE(shp1, 0u) << path;
    const std::size_t pool = shp1 + be32_at(b, shp1 + 0x18), matrix_table = shp1 + be32_at(b, shp1 + 0x1C);
    std::size_t last_terminator = 0, lists = 0;
    for (std::size_t d = pool; d + 8 <= matrix_table; d += 8) {
      if (be32_at(b, d) == 0xFF) last_terminator = d, ++lists;
    }
    ASSERT_NE(last_terminator, 0u) << path;
    ASSERT_EQ(be32_at(b, last_terminator + 4), 0u) << path;
    b[last_terminator + 7] = 0x01;
    auto f = read_j3d(b);
    ASSERT_TRUE(f.ok()) << path << ": " << f.error().describe();
    const J3dShp1* shp = nullptr;
    for (const J3dSection& s : f->sections) {
      if (const auto* p = std::get_if<J3dShp1>(&s)) shp = p;
    }
    ASSERT_NE(shp, nullptr);
    EXPECT_EQ(shp->terminator_types, (std::map<std::uint32_t, std::uint32_t>{{static_cast<std::uint32_t>(lists - 1), 1u}})) << path;
    EXPECT_EQ(verbatim_bytes(*f), verbatim_bytes(*original) + 4) << path;
    auto w = write_j3d(*f);
    ASSERT_TRUE(w.ok()) << path << ": " << w.error().describe();
    EXPECT_EQ(*w, b) << path;
  }
}

TEST(J3dBadInput, TerminatorTypeForAMissingList) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  auto f = read_j3d(test::load_file(files.front()));
  ASSERT_TRUE(f.ok());
  for (J3dSection& s : f->sections) {
    if (auto* shp = std::get_if<J3dShp1>(&s)) shp->terminator_types[static_cast<std::uint32_t>(shp->descriptor_lists.size())] = 1;
  }
  auto w = write_j3d(*f);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().field.find("SHP1.terminator_types"), std::string::npos) << w.error().describe();
}

TEST(J3dSamples, KnownFacts) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  for (const auto& path : files) {
    auto f = read_j3d(test::load_file(path));
    ASSERT_TRUE(f.ok()) << path;
    const std::string name = path.filename().string();
    if (name.rfind("superbmd_", 0) == 0) {
      EXPECT_EQ(f->padding, kJ3dSuperBmdPadding) << name;
    }
    if (name.rfind("ww_", 0) == 0) {
      EXPECT_EQ(f->padding, kJ3dNintendoPadding) << name;
    }
    for (const J3dSection& s : f->sections) {
      if (const auto* drw = std::get_if<J3dDrw1>(&s); drw && name == "ww_cl.bdl") {
        // The envelope run is written twice in skinned Nintendo files.
        std::size_t weighted = 0;
        for (std::uint8_t w : drw->weighted) weighted += w;
        EXPECT_EQ(weighted % 2, 0u);
      }
      if (const auto* evp = std::get_if<J3dEvp1>(&s); evp && !evp->envelopes.empty()) {
        for (const J3dEnvelope& e : evp->envelopes) {
          float sum = 0;
          for (float w : e.weights) sum += w;
          EXPECT_NEAR(sum, 1.0f, 1e-3) << name;
        }
      }
    }
  }
}

}  // namespace
}  // namespace remodel
