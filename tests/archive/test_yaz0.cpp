// Yaz0: Nintendo's streams decode to MeltyTool's and the J3D samples' bytes, the encoder gives each
// sample's stream back byte for byte, golden streams from the format's rules, hostile headers and
// streams.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "hostile.hpp"
#include "model/archive/yaz0.hpp"
#include "model/document.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

namespace fs = std::filesystem;

Yaz0File read_sample(const fs::path& path) {
  Result<Yaz0File> f = read_yaz0(test::load_file(path));
  EXPECT_TRUE(f.ok()) << path << ": " << (f.ok() ? "" : f.error().describe());
  return f.ok() ? *f : Yaz0File{};
}

std::vector<fs::path> yaz0_samples() {
  std::vector<fs::path> out;
  for (const fs::path& p : test::sample_files("archives")) {
    if (detect_format(test::load_file(p)) == Format::yaz0) out.push_back(p);
  }
  return out;
}

// What follows each stream, as measured: Nintendo's archives are padded with zeros to 32 bytes.
TEST(Yaz0, EverySampleRoundTripsAndTheEncoderGivesBackItsStream) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const std::vector<fs::path> samples = yaz0_samples();
  ASSERT_EQ(samples.size(), 6u);
  for (const fs::path& path : samples) {
    const Bytes b = test::load_file(path);
    const Yaz0File f = read_sample(path);
    EXPECT_FALSE(f.stream.stored()) << path << ": yaz0_compress does not give Nintendo's stream back";
    const Bytes stream = yaz0_compress(f.data);
    const std::size_t padding = b.size() - kYaz0HeaderSize - stream.size();
    EXPECT_TRUE(std::equal(stream.begin(), stream.end(), b.begin() + kYaz0HeaderSize)) << path;
    EXPECT_EQ(f.padded, padding != 0) << path;
    EXPECT_LT(padding, 32u) << path;
    auto w = write_yaz0(f);
    ASSERT_TRUE(w.ok()) << w.error().describe();
    EXPECT_TRUE(*w == b) << path;
    EXPECT_EQ(verbatim_bytes(Document(f)), 0u) << path;
  }
}

TEST(Yaz0, DecodesToMeltyToolsGoldensAndTheJ3dSamples) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const fs::path golden = test::samples_root() / "archives" / "meltytool_goldens" / "yaz0";
  EXPECT_EQ(read_sample(golden / "pikis" / "input" / "pikis.yaz0").data, test::load_file(golden / "pikis" / "output" / "pikis.txt"));
  EXPECT_EQ(read_sample(golden / "text_file" / "input" / "text_file.yaz0").data, test::load_file(golden / "text_file" / "output" / "text_file.txt"));
  const fs::path link = test::samples_root() / "j3d-anim" / "ww_link";
  const fs::path yaz0 = test::samples_root() / "archives" / "yaz0";
  EXPECT_EQ(read_sample(yaz0 / "ww_link_wait.bck.yaz0").data, test::load_file(link / "wait.bck"));
  EXPECT_EQ(read_sample(yaz0 / "ww_link_tboxopenlink.btp.yaz0").data, test::load_file(link / "tboxopenlink.btp"));
}

// Golden streams from the format's rules: a 2-byte reference (length - 2 in the high nibble,
// distance - 1 in 12 bits), a 3-byte one (length - 0x12 in the third byte), literals flagged 1.
TEST(Yaz0, GoldenStreams) {
  const Bytes short_ref = {'a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c', 'a'};
  EXPECT_EQ(yaz0_compress(short_ref), (Bytes{0xE0, 'a', 'b', 'c', 0x50, 0x02}));
  const Bytes run(40, 'a');
  EXPECT_EQ(yaz0_compress(run), (Bytes{0x80, 'a', 0x00, 0x00, 40 - 1 - 0x12}));
  // The farthest of equal matches: "xyz" at 0 and at 4 are both 3 long from 8; distance 8 is stored.
  const Bytes twice = {'x', 'y', 'z', '1', 'x', 'y', 'z', '2', 'x', 'y', 'z'};
  EXPECT_EQ(yaz0_compress(twice), (Bytes{0xF4, 'x', 'y', 'z', '1', 0x10, 0x03, '2', 0x10, 0x07}));
  Bytes file = {'Y', 'a', 'z', '0', 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0xE0, 'a', 'b', 'c', 0x50, 0x02};
  Result<Yaz0File> f = read_yaz0(file);
  ASSERT_TRUE(f.ok()) << f.error().describe();
  EXPECT_EQ(f->data, short_ref);
  EXPECT_FALSE(f->stream.stored());
}

// Nintendo's lookahead, measured on the samples and pinned on a small case: a literal first when the
// match one byte on is at least 2 longer.
TEST(Yaz0, ALiteralGoesFirstWhenTheNextMatchIsTwoLonger) {
  const Bytes data = {'a', 'b', 'c', 'X', 'b', 'c', 'd', 'e', 'f', 'Y', 'a', 'b', 'c', 'd', 'e', 'f'};
  Bytes back;
  const Bytes stream = yaz0_compress(data);
  ASSERT_TRUE(yaz0_decompress(stream, data.size(), back).ok());
  EXPECT_EQ(back, data);
  // At 10, "abc" (3, from 0) loses to a literal and "bcdef" (5, from 4) at 11.
  EXPECT_EQ(Bytes(stream.end() - 4, stream.end()), (Bytes{'Y', 'a', 0x30, 0x06}));
}

TEST(Yaz0, AnEditedFileIsCompressedAgain) {
  Yaz0File f{Bytes(100, 7), 0, 0, Verbatim(Bytes{0x80, 1}), false, {}};  // a stored stream of other data
  auto w = write_yaz0(f);
  ASSERT_TRUE(w.ok());
  Result<Yaz0File> back = read_yaz0(*w);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back->data, f.data);
}

TEST(Yaz0, AStreamTheEncoderDoesNotMakeIsKeptAndCounted) {
  // "aaaa" as four literals: Nintendo's encoder would write one literal and a reference.
  const Bytes file = {'Y', 'a', 'z', '0', 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0xF0, 'a', 'a', 'a', 'a'};
  Result<Yaz0File> f = read_yaz0(file);
  ASSERT_TRUE(f.ok()) << f.error().describe();
  EXPECT_TRUE(f->stream.stored());
  auto w = write_yaz0(*f);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, file);
  EXPECT_EQ(verbatim_bytes(Document(*f)), 5u);
}

Error yaz0_read_error(const Bytes& b) {
  Result<Yaz0File> f = read_yaz0(b);
  EXPECT_FALSE(f.ok());
  return f.ok() ? Error{} : f.error();
}

TEST(Yaz0, HostileHeadersAndStreams) {
  // A 4 GiB claim in a 20-byte file is refused before anything is allocated.
  Bytes huge = {'Y', 'a', 'z', '0', 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0xFF};
  Error e = yaz0_read_error(huge);
  EXPECT_EQ(e.code, ErrorCode::bad_count);
  EXPECT_EQ(e.field, "size");
  EXPECT_EQ(e.offset, 4u);
  // A reference before the first byte.
  e = yaz0_read_error({'Y', 'a', 'z', '0', 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x10, 0x00});
  EXPECT_EQ(e.code, ErrorCode::bad_offset);
  EXPECT_EQ(e.offset, 17u);
  // A reference copying past the stated size.
  e = yaz0_read_error({'Y', 'a', 'z', '0', 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 'a', 0xF0, 0x00});
  EXPECT_EQ(e.code, ErrorCode::bad_value);
  EXPECT_NE(e.message.find("past the stated size"), std::string::npos) << e.message;
  // The stream ends before the size is reached.
  e = yaz0_read_error({'Y', 'a', 'z', '0', 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 'a', 'b'});
  EXPECT_EQ(e.code, ErrorCode::truncated);
  EXPECT_EQ(yaz0_read_error({'Y', 'a', 'z'}).code, ErrorCode::bad_magic);
}

TEST(Yaz0, EveryTruncationOfASampleFailsCleanly) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const Bytes b = test::load_file(test::samples_root() / "archives" / "yaz0" / "ww_link_tboxopenlink.btp.yaz0");
  for (std::size_t n = 0; n < b.size(); ++n) {
    Result<Yaz0File> f = read_yaz0(Bytes(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n)));
    EXPECT_FALSE(f.ok()) << "cut to " << n;
    if (!f.ok()) {
      EXPECT_FALSE(f.error().message.empty());
    }
  }
}

}  // namespace
}  // namespace remodel
