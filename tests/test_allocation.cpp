// Reading any input allocates at most 16 x its size + 1 MiB at a time: a counting allocator watches
// the peak of live bytes while each sample and seed is read.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <new>

#include "model/document.hpp"
#include "samples.hpp"

namespace {

thread_local bool counting = false;
thread_local std::size_t live = 0;
thread_local std::size_t peak = 0;

// The size is stored in front of each block so delete can subtract it.
constexpr std::size_t kHeader = alignof(std::max_align_t);

void* counted_new(std::size_t n) {
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
  for (const char* family : {"kh-bbs", "mhfu", "j3d"}) {
    for (const auto& path : test::sample_files(family)) {
      expect_bounded(path);
      ++files;
    }
  }
  EXPECT_GT(files, 10u);
}

}  // namespace
}  // namespace remodel
