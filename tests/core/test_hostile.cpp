#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "bwm_golden.hpp"
#include "hostile.hpp"
#include "model/kh_bbs/demo.hpp"
#include "model/mhfu/demo.hpp"
#include "samples.hpp"
#include "families.hpp"

namespace remodel {
namespace {

#ifdef REMODEL_EVERY_OFFSET
constexpr bool kEveryOffset = true;
#else
constexpr bool kEveryOffset = false;
#endif

// A record's kind: its field name with every index dropped ("mesh0.section[12].strip[3]" ->
// "mesh0.section[].strip[]").
std::string record_kind(const std::string& field) {
  std::string kind;
  bool in_index = false;
  for (char c : field) {
    if (c == '[') in_index = true;
    if (c == ']') in_index = false;
    if (!in_index) kind += c;
    else if (c == '[') kind += c;
  }
  return kind;
}

// Structural offsets: the first bytes of the records the writer marks (headers, counts, offsets):
// every record of a kind up to its kKindSample-th, and its last one. A large file repeats the same
// few kinds thousands of times, and patching each copy read and wrote the whole file again (1,243 s
// of CI's test time, most of it one 1.4 MB PMO), while the readers check each kind the same way.
std::set<std::size_t> structural_offsets(const Document& doc, std::size_t size) {
  constexpr std::size_t kKindSample = 4;
  WriteReport report;
  report.marks = true;
  auto w = write_document(doc, &report);
  std::map<std::string, std::vector<std::size_t>> by_kind;
  for (const FieldMark& m : report.fields) by_kind[record_kind(m.field)].push_back(m.offset);
  std::set<std::size_t> out;
  for (const auto& [kind, starts] : by_kind) {
    for (std::size_t i = 0; i < starts.size(); ++i) {
      if (i >= kKindSample && i + 1 != starts.size()) continue;
      for (std::size_t k = 0; k < 16 && starts[i] + k < size; ++k) out.insert(starts[i] + k);
    }
  }
  for (std::size_t k = 0; k < 0xA0 && k < size; ++k) out.insert(k);  // the whole file header
  return out;
}

// Truncates `b` to every length test::truncation_lengths gives and patches each offset with 0x00, 0xFF
// and the byte + 1. A large file's work is dealt into `shards` interleaved parts (this call does
// part `shard`), so every cut and offset is still tried, one ctest case per part.
void attack(const Bytes& b, const std::string& name, std::size_t shard = 0, std::size_t shards = 1) {
  const std::vector<std::size_t> cuts = test::truncation_lengths(b.size());
  for (std::size_t i = shard; i < cuts.size(); i += shards) {
    test::expect_clean(ByteSpan(b).first(cuts[i]), name + " truncated to " + std::to_string(cuts[i]));
    if (::testing::Test::HasFatalFailure()) return;
  }
  auto doc = read_document(b);
  ASSERT_TRUE(doc.ok()) << name;
  // Every offset of a file up to 64 KiB; the structural offsets (record starts) of larger ones, and
  // of every file in the sanitizer build, which would otherwise take CI past its time.
  std::vector<std::size_t> offsets;
  if (b.size() <= 64 * 1024 && kEveryOffset) {
    for (std::size_t at = 0; at < b.size(); ++at) offsets.push_back(at);
  } else {
    const std::set<std::size_t> structural = structural_offsets(*doc, b.size());
    offsets.assign(structural.begin(), structural.end());
  }
  Bytes patched = b;
  for (std::size_t i = shard; i < offsets.size(); i += shards) {
    const std::size_t at = offsets[i];
    for (std::uint8_t value : {std::uint8_t{0x00}, std::uint8_t{0xFF}, static_cast<std::uint8_t>(b[at] + 1)}) {
      patched[at] = value;
      test::expect_clean(patched, name + " with 0x" + std::to_string(value) + " at " + std::to_string(at));
      if (::testing::Test::HasFatalFailure()) return;
    }
    patched[at] = b[at];
  }
}

TEST(Hostile, DemoPmoTruncatedAndPatched) {
  auto w = write_pmo_file(build_demo_pmo());
  ASSERT_TRUE(w.ok());
  attack(*w, "demo.pmo");
}

TEST(Hostile, DemoPamTruncatedAndPatched) {
  const Pam pam = build_demo_pam();
  auto w = write_pam(pam);
  ASSERT_TRUE(w.ok());
  attack(*w, "demo.pam");
  auto bare = write_pam_anim_file(PamAnimFile{pam.animations[1]});
  ASSERT_TRUE(bare.ok());
  attack(*bare, "long.anim");
}

TEST(Hostile, DemoMhfuPacTruncatedAndPatched) {
  auto w = write_pac(build_demo_mhfu_pac());
  ASSERT_TRUE(w.ok());
  attack(*w, "demo.pac");
}

TEST(Hostile, BwmGoldenFilesTruncatedAndPatched) {
  attack(golden::bwm_v5_model(), "v5-model.bwm");
  attack(golden::bwm_v6_model(), "v6-model.bwm");
  attack(golden::bwm_skin(), "skin.bwm");
}

// One case per sample file, and per part of a large one: a single loop over every KH BBS sample
// once took over 600 s under ASan on a loaded machine.
struct HostileInput {
  std::filesystem::path path;
  std::size_t part = 0;
  std::size_t parts = 1;
};

void PrintTo(const HostileInput& in, std::ostream* os) {
  *os << in.path.string() << " part " << in.part + 1 << " of " << in.parts;
}

// Each truncation and each patch reads the whole file, and the patched offsets are bounded per
// record kind, so the work grows with the size: one part per 512 KiB.
std::size_t parts_for(std::uintmax_t size) {
  constexpr std::uintmax_t kBytesPerPart = std::uintmax_t{512} * 1024;
  return static_cast<std::size_t>(1 + size / kBytesPerPart);
}

std::vector<HostileInput> hostile_inputs() {
  std::vector<HostileInput> out;
  for (const test::Family& family : test::kFamilies) {
    for (const auto& path : test::family_sample_inputs(family)) {
      std::error_code ec;
      const std::uintmax_t size = std::filesystem::file_size(path, ec);
      if (ec) continue;
      // The small J3D files cover every section kind; the small archives every RARC record and Yaz0 token.
      if ((std::string(family.name) == "j3d" || std::string(family.name) == "archive") && size > 64 * 1024) continue;
      const std::size_t parts = parts_for(size);
      for (std::size_t k = 0; k < parts; ++k) out.push_back({path, k, parts});
    }
  }
  return out;
}

std::string case_name(const ::testing::TestParamInfo<HostileInput>& info) {
  std::string name = test::identifier(info.param.path.lexically_relative(test::samples_root()).string());
  if (info.param.parts > 1) name += "_part" + std::to_string(info.param.part + 1);
  return name;
}

class HostileSample : public ::testing::TestWithParam<HostileInput> {};

TEST_P(HostileSample, TruncatedAndPatched) {
  const HostileInput& in = GetParam();
  const Bytes b = test::load_file(in.path);
  ASSERT_FALSE(b.empty()) << in.path << " is missing or empty";
  ASSERT_TRUE(detect_format(b).has_value()) << in.path;
  attack(b, in.path.filename().string(), in.part, in.parts);
}

// The cases are listed from the samples present when the tests are built; without samples the suite
// is empty, and the round-trip tests of each family skip or (REMODEL_REQUIRE_SAMPLES=1) fail.
INSTANTIATE_TEST_SUITE_P(Samples, HostileSample, ::testing::ValuesIn(hostile_inputs()), case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(HostileSample);

// The committed seeds are the project's own files: each must read and write back exactly.
TEST(Hostile, CommittedSeedsRoundTrip) {
  std::size_t seeds = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(REMODEL_CORPUS)) {
    if (!e.is_regular_file()) continue;
    const auto target = e.path().parent_path().filename();
    if (target == "gx_texture" || target == "gltf") continue;  // codec and glTF inputs, not Documents
    const Bytes b = test::load_file(e.path());
    test::expect_clean(b, e.path().string());
    EXPECT_TRUE(read_document(b).ok()) << e.path() << " does not read";
    ++seeds;
  }
  EXPECT_GT(seeds, 10u);
}

TEST(Hostile, HugeCountsDoNotAllocate) {
  // A PMP claiming 65535 objects and textures in 32 bytes.
  Bytes b(0x20, 0);
  b[0] = 'P';
  b[1] = 'M';
  b[2] = 'P';
  b[0x10] = b[0x11] = 0xFF;
  b[0x1A] = b[0x1B] = 0xFF;
  auto r = read_document(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::bad_count);
  EXPECT_EQ(r.error().field, "object_count");
}

TEST(Hostile, EmptyAndUnknownInputs) {
  EXPECT_FALSE(read_document(Bytes{}).ok());
  EXPECT_EQ(read_document(Bytes{'X', 'Y', 'Z', 'W'}).error().code, ErrorCode::bad_magic);
  EXPECT_EQ(read_document(Bytes{'P', 'M', 'O', 0}).error().code, ErrorCode::truncated);
}

}  // namespace
}  // namespace remodel
