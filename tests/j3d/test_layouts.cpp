// Layouts other tools write that the structured sections cannot express: each file reads, keeps the
// section as its bytes (counted by `remodel check`) and writes back identical. Bytes from the spec.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>

#include "golden.hpp"
#include "model/document.hpp"
#include "model/j3d/decode.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

using namespace j3d_golden;

void set_be32(Bytes& b, std::size_t at, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) b[at + static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(v >> (24 - 8 * k));
}

// A name table (count, 0xFFFF, hash and offset per entry, the strings) with each entry's hash and
// string offset as given, the strings stored in `stored` order.
Bytes name_table(const std::vector<std::pair<std::uint16_t, std::uint16_t>>& entries, const std::vector<std::string>& stored) {
  Bytes t;
  be16(t, static_cast<std::uint16_t>(entries.size()));
  be16(t, 0xFFFF);
  for (auto [hash, offset] : entries) {
    be16(t, hash);
    be16(t, offset);
  }
  for (const std::string& s : stored) {
    text(t, s.c_str());
    t.push_back(0);
  }
  return t;
}

// JNT1 with two joints (0x40 bytes each, zeros) at 0x18, remap {0, 1} at 0x98, the names at 0x9C.
Bytes golden_jnt1(const Bytes& names) {
  Bytes s;
  text(s, "JNT1");
  be32(s, 0);
  be16(s, 2);
  be16(s, 0xFFFF);
  for (std::uint32_t v : {0x18u, 0x98u, 0x9Cu}) be32(s, v);
  s.insert(s.end(), 0x80, 0);
  be16(s, 0);
  be16(s, 1);
  s.insert(s.end(), names.begin(), names.end());
  pad_section(s);
  return s;
}

// Names "a" (hash 97) and "b" (98) packed in entry order from offset 12: Nintendo's layout.
const Bytes kPackedNames = name_table({{97, 12}, {98, 14}}, {"a", "b"});

// EVP1 with no envelope and no matrix whose four table offsets all point at 0x1C, past the header.
Bytes evp1_offsets_without_tables() {
  Bytes s;
  text(s, "EVP1");
  be32(s, 0);
  be16(s, 0);
  be16(s, 0xFFFF);
  for (int k = 0; k < 4; ++k) be32(s, 0x1C);
  pad_section(s);
  return s;
}

// DRW1 with one rigid entry whose flag table starts 4 bytes of filler after the 0x14-byte header.
Bytes drw1_flags_after_a_gap() {
  Bytes s;
  text(s, "DRW1");
  be32(s, 0);
  be16(s, 1);
  be16(s, 0xFFFF);
  be32(s, 0x18);
  be32(s, 0x1A);
  text(s, "This");
  s.push_back(0);  // joint
  s.push_back('T');
  be16(s, 0);
  pad_section(s);
  return s;
}

// The golden SHP1 (one shape, one packet) with a name table appended at its 32-byte end.
Bytes shp1_with_names() {
  J3dShp1 shp;
  shp.shapes.resize(1);
  shp.shapes[0].packet_count = 1;
  shp.remap = {0};
  shp.descriptor_lists = {{J3dVertexDescriptor{9, 3}}};
  shp.matrix_table = {0};
  shp.matrix_groups = {J3dMatrixGroup{0, 1, 0}};
  shp.packets.resize(1);
  shp.packets[0].primitives = {J3dPrimitive{0x90, {0, 1, 2}}};
  J3dFile f;
  f.sections = {shp};
  auto w = write_j3d(f);
  EXPECT_TRUE(w.ok()) << w.error().describe();
  if (!w.ok()) return {};
  Bytes s(w->begin() + 0x20, w->end());
  set_be32(s, 0x14, static_cast<std::uint32_t>(s.size()));
  const Bytes names = name_table({{97, 8}}, {"a"});
  s.insert(s.end(), names.begin(), names.end());
  pad_section(s);
  return s;
}

struct Layout {
  const char* what;
  const char* section;  // the section kept as its bytes
  std::function<Bytes()> file;
};

const Layout kLayouts[] = {
    {"a control node with an index", "INF1", [] { return golden_inf1_file({{0x10, 0}, {1, 5}, {0x12, 0}, {2, 5}, {0, 0}}); }},
    {"a second child list for one node", "INF1",
     [] { return golden_inf1_file({{0x10, 0}, {1, 0}, {0x12, 0}, {2, 0}, {1, 0}, {0x12, 1}, {2, 0}, {0, 0}}); }},
    {"an empty child list", "INF1", [] { return golden_inf1_file({{0x10, 0}, {1, 0}, {2, 0}, {0x12, 0}, {0, 0}}); }},
    {"two attribute arrays at one offset", "VTX1",
     [] {
       Bytes v = golden_vtx1(2);
       set_be32(v, 0x10, 0x60);  // the normal array's offset: the positions'
       return j3d_file_of({v});
     }},
    {"an EVP1 with table offsets but no tables", "EVP1", [] { return j3d_file_of({evp1_offsets_without_tables()}); }},
    {"a table that starts after a gap", "DRW1", [] { return j3d_file_of({drw1_flags_after_a_gap()}); }},
    {"names not packed in entry order", "JNT1", [] { return j3d_file_of({golden_jnt1(name_table({{97, 14}, {98, 12}}, {"b", "a"}))}); }},
    {"a name whose hash is not its own", "JNT1", [] { return j3d_file_of({golden_jnt1(name_table({{0x1234, 12}, {98, 14}}, {"a", "b"}))}); }},
    {"an SHP1 name table", "SHP1", [] { return j3d_file_of({shp1_with_names()}); }},
    {"a header offset with no textures", "TEX1",
     [] {
       Bytes t;
       text(t, "TEX1");
       be32(t, 0);
       be16(t, 0);
       be16(t, 0xFFFF);
       be32(t, 0x14);  // headers: where the names are
       be32(t, 0x14);
       be16(t, 0);
       be16(t, 0xFFFF);
       pad_section(t);
       return j3d_file_of({t});
     }},
    {"an image at its own header", "TEX1",
     [] {
       Bytes t = golden_tex1(0);
       set_be32(t, 0x20 + 0x1C, 0);
       return j3d_file_of({t});
     }},
    {"image data that does not follow the headers", "TEX1",
     [] {
       Bytes t = golden_tex1(0);
       set_be32(t, 0x20 + 0x1C, 0x21);  // one byte into the image: the byte before it is a gap
       return j3d_file_of({t});
     }},
};

TEST(J3dLayouts, GoldenBuildersAreNintendosLayoutWhenUnchanged) {
  // The builders' unchanged sections read structured: each layout above differs from them only there.
  for (const Bytes& b : {j3d_file_of({golden_jnt1(kPackedNames)}), j3d_file_of({golden_tex1(0)}), golden_inf1_file({{0x10, 0}, {0, 0}})}) {
    auto r = read_j3d(b);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    for (const J3dSection& s : r->sections) EXPECT_FALSE(std::holds_alternative<J3dRawSection>(s)) << j3d_section_magic(s);
    EXPECT_EQ(verbatim_bytes(*r), 0u);
  }
}

TEST(J3dLayouts, SectionsTheTablesCannotExpressAreKeptAsTheirBytes) {
  for (const Layout& layout : kLayouts) {
    SCOPED_TRACE(layout.what);
    const Bytes b = layout.file();
    ASSERT_GT(b.size(), 0x20u);
    auto r = read_j3d(b);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ(r->sections.size(), 1u);
    const auto* raw = std::get_if<J3dRawSection>(&r->sections[0]);
    ASSERT_NE(raw, nullptr);
    EXPECT_EQ(j3d_section_magic(r->sections[0]), layout.section);
    EXPECT_EQ(raw->stored.size(), b.size() - 0x20);
    const WriteReport report = rewritten_report(b);  // identical bytes
    EXPECT_EQ(report.verbatim_bytes, b.size() - 0x20);
  }
}

// A MAT3 whose first table starts 4 bytes after the header ends: the section is kept as its bytes,
// the other sections stay structured.
TEST(J3dLayouts, Mat3TableAfterAGapKeepsTheSectionAsBytes) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  Bytes b = test::load_file(files.front());
  std::size_t at = 0x20;
  while (at + 8 <= b.size() && be32_at(b, at) != 0x4D415433) at += be32_at(b, at + 4);  // "MAT3"
  ASSERT_LT(at + 0x84, b.size()) << files.front();
  std::size_t first_field = 0;  // the offset of the table that follows the header
  for (std::size_t k = 0; k < kJ3dMatTables; ++k) {
    if (be32_at(b, at + 0x0C + 4 * k) == 0x0C + 4 * kJ3dMatTables) first_field = at + 0x0C + 4 * k;
  }
  ASSERT_NE(first_field, 0u);
  set_be32(b, first_field, 0x0C + 4 * kJ3dMatTables + 4);
  auto r = read_j3d(b);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  std::size_t raw = 0, structured = 0;
  for (const J3dSection& s : r->sections) (std::holds_alternative<J3dRawSection>(s) ? raw : structured) += 1;
  EXPECT_EQ(raw, 1u);
  EXPECT_GT(structured, 4u);
  EXPECT_EQ(j3d_section_magic(*std::find_if(r->sections.begin(), r->sections.end(),
                                             [](const J3dSection& s) { return std::holds_alternative<J3dRawSection>(s); })),
            "MAT3");
  rewritten_report(b);
}

// Packets a tool stores unpadded (no GX NOPs to 32): the filler then runs from the display lists'
// end to the matrix groups at the next 32 bytes, the canonical gap; other bytes there are counted.
TEST(J3dLayouts, UnpaddedPacketsFillToTheMatrixGroups) {
  J3dShp1 shp;
  shp.shapes.resize(1);
  shp.shapes[0].packet_count = 1;
  shp.remap = {0};
  shp.descriptor_lists = {{J3dVertexDescriptor{9, 3}, J3dVertexDescriptor{10, 3}}};
  shp.matrix_table = {0};
  shp.matrix_groups = {J3dMatrixGroup{0, 1, 0}};
  shp.packets.resize(1);
  shp.packets[0].primitives = {J3dPrimitive{0x98, {0, 0, 1, 1, 2, 5}}};
  shp.packets[0].stored_size = 15;  // the draw command alone: 3 + 3 vertices of 4 bytes
  J3dFile f;
  f.sections = {shp};
  auto w = write_j3d(f);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  const std::size_t section = 0x20;
  const std::uint32_t dl = be32_at(*w, section + 0x20), groups = be32_at(*w, section + 0x24);
  EXPECT_EQ(be32_at(*w, section + 0x28), groups + 8);  // the packet table after the one group
  ASSERT_EQ(groups, dl + 32);
  EXPECT_EQ(Bytes(w->begin() + section + dl + 15, w->begin() + section + groups), Bytes(kJ3dNintendoPadding, kJ3dNintendoPadding + 17));
  EXPECT_EQ(be32_at(*w, section + groups + 8), 15u);  // the packet's size as stored
  const WriteReport canonical = rewritten_report(*w);
  EXPECT_EQ(canonical.verbatim_bytes, 0u);
  auto r = read_j3d(*w);
  ASSERT_TRUE(r.ok());
  const auto& read = std::get<J3dShp1>(r->sections[0]);
  EXPECT_FALSE(read.gap_after_display_lists.stored());
  EXPECT_EQ(read.packets[0].primitives[0].values, shp.packets[0].primitives[0].values);

  Bytes zeros = *w;  // another tool's zeros in the gap
  std::fill(zeros.begin() + section + dl + 15, zeros.begin() + section + groups, std::uint8_t{0});
  auto z = read_j3d(zeros);
  ASSERT_TRUE(z.ok()) << z.error().describe();
  EXPECT_EQ(std::get<J3dShp1>(z->sections[0]).gap_after_display_lists.size(), 17u);
  EXPECT_EQ(rewritten_report(zeros).verbatim_bytes, 17u);
}

// tool_model_normalstest.bmd (a J3D tool's): SHP1's matrix groups start 5 filler bytes after its
// unpadded packet; it reads with every section structured, writes back identical and lifts.
TEST(J3dLayouts, ToolMadeNormalsTestReadsStructured) {
  const std::optional<Document> doc = test::load_named_sample("j3d-layouts", "tool_model_normalstest.bmd");
  if (!doc) GTEST_SKIP() << "tool_model_normalstest.bmd not present";
  const auto& f = std::get<J3dFile>(*doc);
  for (const J3dSection& s : f.sections) EXPECT_FALSE(std::holds_alternative<J3dRawSection>(s)) << j3d_section_magic(s);
  const auto* shp = j3d_section<J3dShp1>(f);
  ASSERT_NE(shp, nullptr);
  EXPECT_FALSE(shp->gap_after_display_lists.stored());
  ASSERT_EQ(shp->packets.size(), 1u);
  EXPECT_EQ(shp->packets[0].stored_size, 0xDBu);
}

}  // namespace
}  // namespace remodel
