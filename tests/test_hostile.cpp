#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "bwm_golden.hpp"
#include "hostile.hpp"
#include "model/kh_bbs_demo.hpp"
#include "model/mhfu_demo.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

#ifdef REMODEL_EVERY_OFFSET
constexpr bool kEveryOffset = true;
#else
constexpr bool kEveryOffset = false;
#endif

// Structural offsets: the first bytes of every record the writer marks (headers, counts, offsets).
std::set<std::size_t> structural_offsets(const Document& doc, std::size_t size) {
  std::vector<FieldMark> marks;
  auto w = write_document(doc, &marks);
  std::set<std::size_t> out;
  for (const FieldMark& m : marks) {
    for (std::size_t k = 0; k < 16 && m.offset + k < size; ++k) out.insert(m.offset + k);
  }
  for (std::size_t k = 0; k < 0xA0 && k < size; ++k) out.insert(k);  // the whole file header
  return out;
}

void attack(const Bytes& b, const std::string& name) {
  for (std::size_t n : test::truncation_lengths(b.size())) {
    test::expect_clean(ByteSpan(b).first(n), name + " truncated to " + std::to_string(n));
    if (::testing::Test::HasFatalFailure()) return;
  }
  auto doc = read_document(b);
  ASSERT_TRUE(doc.ok()) << name;
  // Every offset of a file up to 64 KiB; the structural offsets (record starts) of larger ones, and
  // of every file in the sanitizer build, which would otherwise take CI past its time.
  std::set<std::size_t> offsets;
  if (b.size() <= 64 * 1024 && kEveryOffset) {
    for (std::size_t at = 0; at < b.size(); ++at) offsets.insert(offsets.end(), at);
  } else {
    offsets = structural_offsets(*doc, b.size());
  }
  Bytes patched = b;
  for (std::size_t at : offsets) {
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

TEST(Hostile, KhBbsSamplesTruncatedAndPatched) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs");
  std::size_t attacked = 0;
  for (const auto& path : files) {
    const Bytes b = test::load_file(path);
    if (!detect_format(b)) continue;
    attack(b, path.filename().string());
    if (HasFatalFailure()) return;
    ++attacked;
  }
  EXPECT_GT(attacked, 0u);
}

TEST(Hostile, DemoMhfuPacTruncatedAndPatched) {
  auto w = write_pac(build_demo_mhfu_pac());
  ASSERT_TRUE(w.ok());
  attack(*w, "demo.pac");
}

TEST(Hostile, MhfuSamplesTruncatedAndPatched) {
  REMODEL_SAMPLES_OR_SKIP(files, "mhfu");
  for (const auto& path : files) {
    const Bytes b = test::load_file(path);
    ASSERT_TRUE(detect_format(b).has_value()) << path;
    attack(b, path.filename().string());
    if (HasFatalFailure()) return;
  }
}

TEST(Hostile, BwmGoldenFilesTruncatedAndPatched) {
  attack(golden::bwm_v5_model(), "v5-model.bwm");
  attack(golden::bwm_v6_model(), "v6-model.bwm");
  attack(golden::bwm_skin(), "skin.bwm");
}

TEST(Hostile, J3dSamplesTruncatedAndPatched) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  std::size_t attacked = 0;
  for (const auto& path : files) {
    const Bytes b = test::load_file(path);
    if (b.size() > 64 * 1024) continue;  // the small files cover every section kind
    attack(b, path.filename().string());
    if (HasFatalFailure()) return;
    ++attacked;
  }
  EXPECT_GT(attacked, 0u);
}

// The committed seeds are the project's own files: each must read and write back exactly.
TEST(Hostile, CommittedSeedsRoundTrip) {
  std::size_t seeds = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(REMODEL_CORPUS)) {
    if (!e.is_regular_file()) continue;
    if (e.path().parent_path().filename() == "gx_texture") continue;  // codec inputs, not files
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
