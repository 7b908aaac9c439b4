// Reading any input allocates at most 16 x its size + 1 MiB at a time: a counting allocator watches
// the peak of live bytes while each sample and seed is read. The same allocator makes the Nth
// allocation of a read or write throw std::bad_alloc, for every N, as ufbx's tests do, and the first
// of a lift, lower, author or glTF export and import.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "samples.hpp"
#include "families.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"

namespace {

thread_local bool counting = false;
thread_local std::size_t live = 0;
thread_local std::size_t peak = 0;
thread_local std::size_t allocations = 0;  // made while counting
thread_local std::size_t fail_at = 0;      // the allocation (from 1) that throws; 0: none

// The size is stored in front of each block so delete can subtract it.
constexpr std::size_t kHeader = alignof(std::max_align_t);

void* counted_new(std::size_t n) {
  if (counting && ++allocations == fail_at) throw std::bad_alloc();
  void* p = std::malloc(n + kHeader);
  if (p == nullptr) throw std::bad_alloc();
  *static_cast<std::size_t*>(p) = n;
  if (counting) {
    live += n;
    peak = std::max(peak, live);
  }
  return static_cast<char*>(p) + kHeader;
}

void counted_delete(void* q) noexcept {
  if (q == nullptr) return;
  void* p = static_cast<char*>(q) - kHeader;
  const std::size_t n = *static_cast<std::size_t*>(p);
  if (counting) live -= std::min(live, n);
  std::free(p);
}

}  // namespace

void* operator new(std::size_t n) { return counted_new(n); }
void* operator new[](std::size_t n) { return counted_new(n); }
void operator delete(void* p) noexcept { counted_delete(p); }
void operator delete[](void* p) noexcept { counted_delete(p); }
void operator delete(void* p, std::size_t) noexcept { counted_delete(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_delete(p); }
// The nothrow forms too (std::stable_sort's temporary buffer uses them): every block this program's
// delete frees must come from its new, or delete frees a pointer the allocator never returned.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_new(n);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_delete(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_delete(p); }

namespace remodel {
namespace {

std::size_t peak_while_reading(const Bytes& b) {
  live = 0;
  peak = 0;
  counting = true;
  {
    auto doc = read_document(b);
    (void)doc;
  }
  counting = false;
  return peak;
}

void expect_bounded(const std::filesystem::path& path) {
  const Bytes b = test::load_file(path);
  const std::size_t limit = 16 * b.size() + (1u << 20);
  const std::size_t whole = peak_while_reading(b);
  EXPECT_LE(whole, limit) << path;
  EXPECT_GT(whole, 0u) << path << ": the counting allocator saw nothing";
  // Truncated and count-patched copies must stay within the same bound.
  for (std::size_t cut : {b.size() / 2, b.size() / 3, std::size_t{64}}) {
    if (cut >= b.size()) continue;
    Bytes part(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(cut));
    EXPECT_LE(peak_while_reading(part), 16 * part.size() + (1u << 20)) << path << " cut to " << cut;
  }
  for (std::size_t at = 0; at < std::min<std::size_t>(b.size(), 0x100); ++at) {
    Bytes patched = b;
    patched[at] = 0xFF;
    EXPECT_LE(peak_while_reading(patched), limit) << path << " with 0xFF at " << at;
  }
}

TEST(Allocation, ReadingStaysWithin16TimesTheInput) {
  std::size_t files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(REMODEL_CORPUS)) {
    if (!e.is_regular_file()) continue;
    expect_bounded(e.path());
    ++files;
  }
  for (const test::Family& family : test::kFamilies) {
    for (const auto& path : test::family_sample_inputs(family)) {
      expect_bounded(path);
      ++files;
    }
  }
  EXPECT_GT(files, 10u);
}

// The kept J3D animations whose tracks all name one run (fuzz/regressions/j3d_anim/, AnimHostile): the
// readers copied each track's run, 8 MB for either 20 KB file, and now stop at their bound.
TEST(Allocation, J3dAnimationsWhoseTracksShareOneRunStayWithinTheBound) {
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(REMODEL_CORPUS).parent_path() / "regressions" / "j3d_anim")) {
    expect_bounded(e.path());
    ++files;
  }
  EXPECT_EQ(files, 2u);
}

// What one run of `op` did when its allocation number `n` threw.
struct FailedRun {
  bool threw = false;    // std::bad_alloc left `op`: the library boundary did not catch it
  bool reached = false;  // `op` made at least n allocations, so one of them failed
  std::optional<Error> error;
};

template <typename Op>
FailedRun run_failing_at(std::size_t n, Op&& op) {
  FailedRun run;
  allocations = 0;
  fail_at = n;
  counting = true;
  try {
    const auto result = op();
    counting = false;
    run.reached = allocations >= n;
    if (!result.ok()) run.error = result.error();
  } catch (const std::bad_alloc&) {
    counting = false;
    run.threw = true;
  }
  fail_at = 0;
  return run;
}

// Fails allocation 1, 2, ... of `op` until it completes: every failure must be an out_of_memory
// Error (ASan's leak check at exit covers what the unwinding left behind). Returns the count.
template <typename Op>
std::size_t expect_every_failure_clean(const std::string& what, Op&& op) {
  for (std::size_t n = 1;; ++n) {
    const FailedRun run = run_failing_at(n, op);
    if (run.threw) {
      ADD_FAILURE() << what << ": std::bad_alloc from allocation " << n << " escaped the library";
      return n;
    }
    if (!run.reached) {
      EXPECT_FALSE(run.error.has_value()) << what << ": " << run.error->describe();
      return n - 1;
    }
    if (!run.error) {
      ADD_FAILURE() << what << ": allocation " << n << " failed, yet the call succeeded";
      return n;
    }
    if (run.error->code != ErrorCode::out_of_memory) {
      ADD_FAILURE() << what << ": allocation " << n << " failed and gave " << run.error->describe();
      return n;
    }
  }
}

// The seeds of the file formats (not the GX codec's or the glTF reader's inputs, which are no
// Document) and the samples up to this size.
constexpr std::uintmax_t kSmallInput = 64 * 1024;

std::vector<std::filesystem::path> small_inputs() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(REMODEL_CORPUS)) {
    const auto target = e.path().parent_path().filename();
    if (e.is_regular_file() && target != "gx_texture" && target != "gltf") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  for (const test::Family& family : test::kFamilies) {
    for (const auto& path : test::family_sample_inputs(family)) {
      std::error_code ec;
      if (std::filesystem::file_size(path, ec) <= kSmallInput && !ec) out.push_back(path);
    }
  }
  return out;
}

std::string input_name(const ::testing::TestParamInfo<std::filesystem::path>& info) {
  const auto& path = info.param;
  const auto corpus = path.lexically_relative(REMODEL_CORPUS);
  const bool seed = !corpus.empty() && *corpus.begin() != "..";
  return test::identifier(seed ? "seed/" + corpus.string() : path.lexically_relative(test::samples_root()).string());
}

class AllocationFailure : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(AllocationFailure, EveryAllocationOfReadAndWriteFailsCleanly) {
  const Bytes b = test::load_file(GetParam());
  const auto doc = read_document(b);
  ASSERT_TRUE(doc.ok()) << doc.error().describe();
  const std::string name = GetParam().filename().string();
  const std::size_t reads = expect_every_failure_clean(name + " read", [&] { return read_document(b); });
  EXPECT_GT(reads, 0u) << name << ": the counting allocator saw no allocation";
  RecordProperty("read_allocations", std::to_string(reads));
  const std::size_t writes = expect_every_failure_clean(name + " write", [&] { return write_document(*doc); });
  EXPECT_GT(writes, 0u) << name << ": the counting allocator saw no allocation";
  RecordProperty("write_allocations", std::to_string(writes));
}

INSTANTIATE_TEST_SUITE_P(Inputs, AllocationFailure, ::testing::ValuesIn(small_inputs()), input_name);

// The Scene and glTF calls catch at the same boundary. Only their first allocation fails: a later
// one can fall inside nlohmann::json's destructor, which allocates and is noexcept (std::terminate).
template <typename Op>
void expect_first_failure_clean(const std::string& what, Op&& op) {
  const FailedRun run = run_failing_at(1, op);
  ASSERT_FALSE(run.threw) << what << ": std::bad_alloc escaped the library";
  ASSERT_TRUE(run.reached && run.error.has_value()) << what << ": the failed allocation gave no error";
  EXPECT_EQ(run.error->code, ErrorCode::out_of_memory) << what << ": " << run.error->describe();
}

TEST(AllocationFailure, LiftGltfLowerAndAuthorReturnOutOfMemory) {
  for (const char* seed : {"kh_bbs_pmo/demo.pmo", "j3d/demo.bmd", "bwm/skin.bwm"}) {
    const Bytes b = test::load_file(std::filesystem::path(REMODEL_CORPUS) / seed);
    const auto doc = read_document(b);
    ASSERT_TRUE(doc.ok()) << seed << ": " << doc.error().describe();
    const auto scene = scene::lift(*doc);
    ASSERT_TRUE(scene.ok()) << seed << ": " << scene.error().describe();
    const auto glb = gltf::write_glb(*scene);
    ASSERT_TRUE(glb.ok()) << seed << ": " << glb.error().describe();
    const std::string name = seed;
    expect_first_failure_clean(name + " lift", [&] { return scene::lift(*doc); });
    expect_first_failure_clean(name + " write_glb", [&] { return gltf::write_glb(*scene); });
    expect_first_failure_clean(name + " write_gltf", [&] { return gltf::write_gltf(*scene, "model"); });
    expect_first_failure_clean(name + " read_gltf", [&] { return gltf::read_gltf(*glb); });
    expect_first_failure_clean(name + " lower", [&] { return scene::lower(*scene, *doc); });
    expect_first_failure_clean(name + " author", [&] { return scene::author(*scene, format_of(*doc)); });
  }
}

}  // namespace
}  // namespace remodel
