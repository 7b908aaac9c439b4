#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "reader/cursor.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {
namespace {

TEST(Cursor, ReadsBothEndians) {
  const Bytes b = {0x01, 0x02, 0x03, 0x04, 0x00, 0x00, 0x80, 0x3F};
  Cursor le(b, Endian::little);
  EXPECT_EQ(le.u16("a"), 0x0201);
  EXPECT_EQ(le.u16("b"), 0x0403);
  EXPECT_EQ(le.f32("c"), 1.0f);
  Cursor be(b, Endian::big);
  EXPECT_EQ(be.u32("a"), 0x01020304u);
  EXPECT_TRUE(be.at_end() == false);
}

TEST(Cursor, TruncationNamesFieldPathAndOffset) {
  const Bytes b = {1, 2, 3};
  auto r = guarded([&] {
    Cursor c(b, Endian::little);
    PathScope scope(c, "mesh0");
    PathScope section(c, "section", 3);
    c.u16("vertex_count");
    return c.u32("vertex_flags");
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::truncated);
  EXPECT_EQ(r.error().offset, 2u);
  EXPECT_EQ(r.error().field, "mesh0.section[3].vertex_flags");
  EXPECT_NE(r.error().describe().find("0x2"), std::string::npos);
}

TEST(Cursor, CountIsCheckedBeforeAllocation) {
  const Bytes b(10, 0);
  auto r = guarded([&] {
    Cursor c(b, Endian::little);
    c.check_count(0xFFFFFFFFull, 0xA0, "joint_count");
    return 0;
  });
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::bad_count);
  EXPECT_EQ(r.error().field, "joint_count");
}

TEST(Cursor, GapKeepsOnlyNonCanonicalBytes) {
  const Bytes b = {9, 0, 0, 0, 9, 7, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 9};
  Cursor c(b, Endian::little);
  c.skip(1, "x");
  EXPECT_FALSE(c.padding(4, 0, 0, "pad").stored());  // canonical zeros
  c.skip(1, "x");
  EXPECT_EQ(c.padding(4, 0, 0, "pad").bytes(), (Bytes{7, 0, 0}));  // not zeros: kept
  c.skip(1, "x");
  EXPECT_EQ(c.gap(16, 4, 0, 0, "gap").bytes(), (Bytes{0, 0, 0, 0, 0, 0, 0}));  // longer than canonical: kept
  auto behind = guarded([&] { return c.gap(4, 4, 0, 0, "gap"); });
  EXPECT_EQ(behind.error().code, ErrorCode::bad_offset);
  auto unaligned = guarded([&] { return c.gap(17, 4, 0, 0, "gap"); });
  EXPECT_EQ(unaligned.error().code, ErrorCode::bad_offset);
}

TEST(ByteWriter, PatchesAndPads) {
  ByteWriter w(Endian::big);
  std::size_t at = w.placeholder_u32();
  w.u8(0xAA);
  w.pad(4, 0, 0xFF);
  w.patch_u32(at, 0x01020304);
  EXPECT_EQ(w.bytes(), (Bytes{1, 2, 3, 4, 0xAA, 0xFF, 0xFF, 0xFF}));
  const auto name = [] { return std::string("gap"); };
  const Verbatim verbatim(Bytes{5, 6, 7});
  w.u8(0xAA);
  w.pad(4, 0, 0, verbatim, name);
  EXPECT_EQ(w.bytes().size(), 12u);
  EXPECT_EQ(w.bytes()[9], 5);
  const Verbatim wrong_length(Bytes{5, 6});
  w.u8(0xAA);
  w.pad(4, 0, 0, wrong_length, name);  // would break the alignment: canonical fill instead
  EXPECT_EQ(w.bytes(), (Bytes{1, 2, 3, 4, 0xAA, 0xFF, 0xFF, 0xFF, 0xAA, 5, 6, 7, 0xAA, 0, 0, 0}));
}

// Every run and stored value a writer writes is counted and, with marks, named where it lands; a
// gap the writer cannot place and a value the file did not store count nothing.
TEST(ByteWriter, CountsAndNamesWhatItWritesVerbatim) {
  WriteReport report;
  report.marks = true;
  ByteWriter w(Endian::little, 0, &report);
  w.u8(1);
  w.pad(4, 0, 0, Verbatim(Bytes{9, 9, 9}), [] { return std::string("gap"); });
  w.pad(4, 0, 0, Verbatim(Bytes{9}), [] { return std::string("misplaced"); });  // one byte would break the alignment: none needed
  w.stored_or(std::optional<std::uint16_t>(7), std::uint16_t{3}, [] { return std::string("stored_count"); });
  w.stored_or(std::optional<std::uint16_t>(), std::uint16_t{3}, [] { return std::string("derived_count"); });
  EXPECT_FALSE(w.verbatim(Verbatim(), [] { return std::string("none"); }));
  EXPECT_TRUE(w.verbatim(Verbatim(Bytes{}), [] { return std::string("stored_empty"); }));
  w.tail(Verbatim(Bytes{0xEE, 0xEE}));
  EXPECT_EQ(w.bytes(), (Bytes{1, 9, 9, 9, 7, 0, 3, 0, 0xEE, 0xEE}));
  EXPECT_EQ(report.verbatim_bytes, 3u + 2u + 2u);
  ASSERT_EQ(report.verbatim_runs.size(), 4u);
  const std::vector<std::tuple<std::size_t, std::size_t, std::string>> expected = {
      {1, 3, "gap"}, {4, 2, "stored_count"}, {8, 0, "stored_empty"}, {8, 2, "tail"}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(std::tie(report.verbatim_runs[i].offset, report.verbatim_runs[i].size, report.verbatim_runs[i].field),
              std::tie(std::get<0>(expected[i]), std::get<1>(expected[i]), std::get<2>(expected[i])));
  }
  ASSERT_EQ(report.fields.size(), 1u);
  EXPECT_EQ(report.fields[0].field, "tail");

  WriteReport count_only;  // no marks: counted, nothing named
  ByteWriter quiet(Endian::little, 0, &count_only);
  quiet.tail(Verbatim(Bytes{1, 2, 3}));
  EXPECT_EQ(count_only.verbatim_bytes, 3u);
  EXPECT_TRUE(count_only.verbatim_runs.empty());
  EXPECT_TRUE(count_only.fields.empty());
}

// Small values go into a zeroed room, large spans are appended past it, a reserve is used up before
// growing: whichever path a value takes, the bytes come out in order, and nothing of the room is left.
TEST(ByteWriter, RoomAndLargeSpansKeepTheOrder) {
  for (std::size_t reserve : {std::size_t{0}, std::size_t{10}, std::size_t{20000}}) {
    ByteWriter w(Endian::little, reserve);
    Bytes expected;
    const Bytes large(9000, 0x5C);
    for (int round = 0; round < 3; ++round) {
      for (std::uint16_t i = 0; i < 3000; ++i) {
        w.u16(i);
        expected.insert(expected.end(), {static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(i >> 8)});
      }
      w.bytes(large);
      expected.insert(expected.end(), large.begin(), large.end());
      std::uint8_t* p = w.append(3);
      p[0] = 1, p[1] = 2, p[2] = 3;
      expected.insert(expected.end(), {1, 2, 3});
    }
    EXPECT_EQ(w.pos(), expected.size());
    EXPECT_EQ(w.take(), expected) << "reserve " << reserve;
  }
}

}  // namespace
}  // namespace remodel
