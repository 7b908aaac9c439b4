// RARC: every sample round-trips byte for byte (inside Yaz0 too), MeltyTool's golden extracts to its
// expected files, the layout of an archive made in code follows the format's rules, members are
// replaced with the rest kept, and hostile trees and counts are refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "j3d/big_endian.hpp"
#include "model/archive/demo.hpp"
#include "model/archive/members.hpp"
#include "model/document.hpp"
#include "round_trip.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

namespace fs = std::filesystem;

Archive open_sample(const fs::path& path) {
  Result<Archive> a = open_archive(test::load_file(path));
  EXPECT_TRUE(a.ok()) << path << ": " << (a.ok() ? "" : a.error().describe());
  return a.ok() ? std::move(*a) : Archive{};
}

// Verbatim bytes as measured: none in Nintendo's and the tools' archives; MeltyTool's golden pads
// with "This is padding data to alignment" (after the entries, in the string table and the data).
TEST(Rarc, EveryArchiveSampleRoundTrips) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const std::map<std::string, std::size_t> kVerbatim = {{"hierarchy.arc", 72}};
  std::size_t archives = 0;
  for (const fs::path& path : files) {
    const Bytes b = test::load_file(path);
    const std::optional<Format> f = detect_format(b);
    if (!f) continue;
    const std::optional<std::size_t> verbatim = test::expect_round_trip(path);
    const auto expected = kVerbatim.find(path.filename().string());
    if (*f == Format::rarc) {
      EXPECT_EQ(verbatim, expected == kVerbatim.end() ? 0u : expected->second) << path;
    }
    Result<Archive> a = open_archive(b);
    if (!a.ok()) continue;  // a Yaz0 file holding a J3D file or text
    ++archives;
    auto w = write_archive(*a);
    ASSERT_TRUE(w.ok()) << w.error().describe();
    EXPECT_TRUE(*w == b) << path << ": the archive opened and written again differs";
  }
  EXPECT_EQ(archives, 7u);  // the 4 archives at the top, hierarchy.arc, pikis.yaz0 and its decompressed pikis.txt
}

TEST(Rarc, MeltyToolsHierarchyExtractsToItsExpectedOutput) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const fs::path golden = test::samples_root() / "archives" / "meltytool_goldens" / "rarc" / "hierarchy";
  const Archive a = open_sample(golden / "input" / "hierarchy.arc");
  std::set<std::string> files_seen, empty_folders;
  for (const RarcPath& p : rarc_paths(a.rarc)) {
    if (p.directory) {
      const RarcNode& node = a.rarc.nodes[a.rarc.nodes[p.node].entries[p.entry].node];
      if (node.entries.size() == 2) empty_folders.insert(p.path);
      continue;
    }
    files_seen.insert(p.path);
    EXPECT_EQ(find_member(a.rarc, p.path)->data, test::load_file(golden / "output" / p.path)) << p.path;
  }
  EXPECT_EQ(files_seen, (std::set<std::string>{"root_file.txt", "parent_1/child_1_a/space file.txt"}));
  // The golden marks each empty folder with an IGNORE file.
  std::set<std::string> marked;
  for (const auto& e : fs::recursive_directory_iterator(golden / "output")) {
    if (e.path().filename() == "IGNORE") marked.insert(e.path().parent_path().lexically_relative(golden / "output").generic_string());
  }
  EXPECT_EQ(empty_folders, marked);
}

TEST(Rarc, MembersAreTheSharedJ3dSamples) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const Archive lava = open_sample(test::samples_root() / "archives" / "smg_LavaRotatePlanet.arc");
  const RarcEntry* bdl = find_member(lava.rarc, "lavarotateplanet.bdl");
  ASSERT_NE(bdl, nullptr);
  EXPECT_EQ(bdl->data, test::load_file(test::samples_root() / "j3d" / "smg_lavarotateplanet.bdl"));
  const Archive pikis = open_sample(test::samples_root() / "archives" / "meltytool_goldens" / "yaz0" / "pikis" / "input" / "pikis.yaz0");
  std::size_t files_seen = 0;
  for (const RarcPath& p : rarc_paths(pikis.rarc)) files_seen += !p.directory;
  EXPECT_EQ(files_seen, 89u);
  EXPECT_NE(find_member(pikis.rarc, "piki_model/piki_p2_yellow.bmd"), nullptr);
}

// The layout from the format's rules: header 0x20, info 0x20, then nodes, entries, strings and data,
// each at a multiple of 32; offsets in the info block and header count from 0x20.
TEST(Rarc, LayoutOfAnArchiveMadeInCode) {
  auto w = write_rarc(build_demo_rarc());
  ASSERT_TRUE(w.ok()) << w.error().describe();
  const Bytes& b = *w;
  EXPECT_EQ(Bytes(b.begin(), b.begin() + 4), (Bytes{'R', 'A', 'R', 'C'}));
  EXPECT_EQ(test::be32_at(b, 0x20), 3u);     // nodes
  EXPECT_EQ(test::be32_at(b, 0x24), 0x20u);  // at 0x40
  EXPECT_EQ(test::be32_at(b, 0x28), 10u);    // entries: 5 + 3 + 2
  EXPECT_EQ(test::be32_at(b, 0x2C), 0x60u);   // 3 nodes end at 0x70, entries start at 0x80
  EXPECT_EQ(test::be32_at(b, 0x34), 0x140u);  // 10 entries end at 0x148, strings at 0x160
  const std::string strings(".\0..\0demo\0readme.txt\0bdl\0model.bdl\0empty\0", 41);
  EXPECT_EQ(std::string(b.begin() + 0x160, b.begin() + 0x160 + 41), strings);
  EXPECT_EQ(test::be32_at(b, 0x30), 0x40u);  // 41 bytes padded to 64
  EXPECT_EQ(test::be32_at(b, 0x0C), 0x180u);  // data at 0x1A0
  EXPECT_EQ(test::be32_at(b, 0x10), 0x60u);  // readme at 0, model.bdl at 0x20 (40 bytes), padded to 0x60
  EXPECT_EQ(test::be32_at(b, 0x14), 0x60u);  // both load to MRAM
  EXPECT_EQ(test::be32_at(b, 0x04), b.size());
  EXPECT_EQ(b.size(), 0x200u);
  // Node 1 ("bdl"): type "BDL ", name at 15, hash, 3 entries from 5.
  EXPECT_EQ(Bytes(b.begin() + 0x50, b.begin() + 0x54), (Bytes{'B', 'D', 'L', ' '}));
  EXPECT_EQ(test::be32_at(b, 0x54), 21u);
  EXPECT_EQ(test::be32_at(b, 0x5C), 5u);
  EXPECT_EQ(rarc_name_hash("bdl"), 0x50A);  // as wwrando's archive stores it
  // The root's ".." names no parent; model.bdl's entry points into the data at 0x20.
  EXPECT_EQ(test::be32_at(b, 0x80 + 4 * 0x14 + 8), 0xFFFFFFFFu);
  EXPECT_EQ(test::be32_at(b, 0x80 + 5 * 0x14 + 8), 0x20u);
  Result<Rarc> back = read_rarc(b);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(verbatim_bytes(Document(*back)), 0u);
}

TEST(Rarc, AReplacedMemberMovesWhatFollowsAndKeepsTheRest) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  Archive a = open_sample(test::samples_root() / "archives" / "smg_PoltaFormationRock.arc");
  const Archive original = a;
  RarcEntry* bdl = find_member(a.rarc, "poltaformationrock.bdl");
  ASSERT_NE(bdl, nullptr);
  bdl->data.resize(bdl->data.size() + 100, 0xAB);
  auto w = write_archive(a);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  Result<Archive> back = open_archive(*w);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  ASSERT_TRUE(back->yaz0.has_value());
  for (const RarcPath& p : rarc_paths(original.rarc)) {
    if (p.directory) continue;
    const RarcEntry* was = find_member(original.rarc, p.path);
    const RarcEntry* now = find_member(back->rarc, p.path);
    ASSERT_NE(now, nullptr) << p.path;
    EXPECT_EQ(now->id, was->id) << p.path;
    EXPECT_EQ(now->data, p.path == "poltaformationrock.bdl" ? bdl->data : was->data) << p.path;
  }
}

Error rarc_read_error(const Bytes& b) {
  Result<Rarc> r = read_rarc(b);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

Bytes demo_bytes() {
  auto w = write_rarc(build_demo_rarc());
  EXPECT_TRUE(w.ok());
  return w.ok() ? *w : Bytes{};
}

void put32(Bytes& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (24 - 8 * i));
}

TEST(Rarc, DirectoryCyclesAndSharedNodesAreRefused) {
  const std::size_t entries = 0x80;
  // The root's "bdl" opens the root.
  Bytes b = demo_bytes();
  put32(b, entries + 8, 0);
  Error e = rarc_read_error(b);
  EXPECT_EQ(e.code, ErrorCode::bad_value);
  EXPECT_EQ(e.offset, entries + 8);
  // "empty" opens node 1 too.
  b = demo_bytes();
  put32(b, entries + 0x14 + 8, 1);
  e = rarc_read_error(b);
  EXPECT_NE(e.message.find("another directory opens too"), std::string::npos) << e.describe();
  Rarc shared = build_demo_rarc();
  shared.nodes[0].entries[0].node = 2;  // the writer refuses a node opened twice as well
  EXPECT_FALSE(write_rarc(shared).ok());
  // A directory entry in node 2 opening node 1, and the root's opening node 2 only.
  Rarc loop = build_demo_rarc();
  loop.nodes[0].entries.erase(loop.nodes[0].entries.begin());  // the root no longer opens "bdl"
  RarcEntry back_to_1 = loop.nodes[1].entries[1];
  back_to_1.kind = RarcEntryKind::directory;
  back_to_1.name = "bdl";
  back_to_1.node = 1;
  loop.nodes[2].entries.insert(loop.nodes[2].entries.begin(), back_to_1);  // node 2 opens node 1
  RarcEntry to_2 = back_to_1;
  to_2.node = 2;
  to_2.name = "empty";
  loop.nodes[1].entries.insert(loop.nodes[1].entries.begin(), to_2);  // node 1 opens node 2
  loop.nodes[0].entries[0].kind = RarcEntryKind::file;  // "empty" in the root becomes a file
  loop.nodes[0].entries[0].flags = rarc_flag::file;
  auto written = write_rarc(loop);
  ASSERT_TRUE(written.ok()) << written.error().describe();  // the writer sees no node opened twice
  e = rarc_read_error(*written);
  EXPECT_NE(e.message.find("not inside the root's tree"), std::string::npos) << e.describe();
  EXPECT_TRUE(rarc_paths(loop).size() == 2u);  // the root's two files: the walk never enters the loop
}

TEST(Rarc, HugeCountsAndBadOffsetsAreRefused) {
  Bytes b = demo_bytes();
  put32(b, 0x20, 0xFFFFFFFF);
  EXPECT_EQ(rarc_read_error(b).code, ErrorCode::bad_count);
  b = demo_bytes();
  put32(b, 0x28, 0x10000000);
  EXPECT_EQ(rarc_read_error(b).code, ErrorCode::bad_count);
  b = demo_bytes();
  put32(b, 0x80 + 2 * 0x14 + 0x0C, 0x7FFFFFFF);  // readme.txt's size
  Error e = rarc_read_error(b);
  EXPECT_EQ(e.code, ErrorCode::bad_offset);
  EXPECT_EQ(e.offset, 0x80 + 2 * 0x14 + 8u);
  b = demo_bytes();
  b[0x80 + 2 * 0x14 + 6] = 0xFF;  // readme.txt's name offset past the table
  EXPECT_EQ(rarc_read_error(b).code, ErrorCode::bad_offset);
  const Bytes whole = demo_bytes();
  for (std::size_t n = 0; n < whole.size(); ++n) {
    const Bytes cut(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_FALSE(read_rarc(cut).ok()) << "cut to " << n;
  }
}

// What the reader refuses the writer does not write: a member whose path below the root, folders
// included, is past kRarcMaxPath.
TEST(Rarc, APathPastTheLimitIsNotWritten) {
  Rarc r = build_demo_rarc();
  r.nodes[1].entries[0].name = std::string(kRarcMaxPath - 5, 'a');  // "bdl/" + it: 1024 bytes with the root's "/"
  auto written = write_rarc(r);
  ASSERT_TRUE(written.ok()) << written.error().describe();
  EXPECT_TRUE(read_rarc(*written).ok());
  r.nodes[1].entries[0].name += 'a';
  written = write_rarc(r);
  ASSERT_FALSE(written.ok());
  EXPECT_NE(written.error().message.find("longer than 1024 bytes"), std::string::npos) << written.error().describe();
  EXPECT_NE(written.error().field.find("nodes[1]."), std::string::npos) << written.error().describe();
}

TEST(Rarc, UnsafeNamesAreNotFolderNames) {
  EXPECT_TRUE(safe_member_name("space file.txt"));
  for (const char* bad : {"", ".", "..", "a/b", "..\\x"}) EXPECT_FALSE(safe_member_name(bad)) << bad;
}

}  // namespace
}  // namespace remodel
