#include <gtest/gtest.h>

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
  EXPECT_TRUE(c.padding(4, 0, 0, "pad").empty());  // canonical zeros
  c.skip(1, "x");
  EXPECT_EQ(c.padding(4, 0, 0, "pad"), (Bytes{7, 0, 0}));  // not zeros: kept
  c.skip(1, "x");
  EXPECT_EQ(c.gap(16, 4, 0, 0, "gap"), (Bytes{0, 0, 0, 0, 0, 0, 0}));  // longer than canonical: kept
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
  const Bytes verbatim = {5, 6, 7};
  w.u8(0xAA);
  w.pad(4, 0, 0, verbatim);
  EXPECT_EQ(w.bytes().size(), 12u);
  EXPECT_EQ(w.bytes()[9], 5);
  const Bytes wrong_length = {5, 6};
  w.u8(0xAA);
  w.pad(4, 0, 0, wrong_length);  // would break the alignment: canonical fill instead
  EXPECT_EQ(w.bytes(), (Bytes{1, 2, 3, 4, 0xAA, 0xFF, 0xFF, 0xFF, 0xAA, 5, 6, 7, 0xAA, 0, 0, 0}));
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
