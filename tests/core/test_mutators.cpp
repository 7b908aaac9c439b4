// The fuzzers' structure-aware mutations, run deterministically: every edited Document that writes
// must read back cleanly or fail with a message, and round-trip when it reads.
#include <gtest/gtest.h>

#include <filesystem>

#include "gltf/gltf.hpp"
#include "hostile.hpp"
#include "mutators.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

template <typename Read, typename Write>
std::size_t run_mutations(const Bytes& seed, Read&& read, Write&& write, const std::string& name) {
  std::size_t written = 0;
  for (unsigned k = 0; k < 300; ++k) {
    Bytes buffer = seed;
    buffer.resize(seed.size() * 2 + 4096);
    const std::size_t n = fuzz::structured_mutate(buffer.data(), seed.size(), buffer.size(), k, read, write);
    if (n == 0) continue;
    ++written;
    test::expect_clean(ByteSpan(buffer.data(), n), name + " mutation " + std::to_string(k));
    if (::testing::Test::HasFatalFailure()) break;
  }
  return written;
}

std::vector<std::filesystem::path> inputs(const char* corpus, const char* samples) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(REMODEL_CORPUS) / corpus)) out.push_back(e.path());
  for (const auto& p : test::sample_files(samples)) {
    if (std::filesystem::file_size(p) <= 64 * 1024) out.push_back(p);
  }
  return out;
}

TEST(StructuredMutation, KhBbsPmo) {
  std::size_t written = 0;
  for (const auto& path : inputs("kh_bbs_pmo", "kh-bbs/pmo")) {
    written += run_mutations(test::load_file(path), read_pmo_file, [](const PmoFile& f) { return write_pmo_file(f); },
                             path.filename().string());
  }
  EXPECT_GT(written, 100u);
}

TEST(StructuredMutation, MhfuPmo) {
  std::size_t written = 0;
  for (const auto& path : inputs("mhfu_pmo", "mhfu")) {
    if (path.extension() != ".pmo") continue;
    written += run_mutations(test::load_file(path), read_mhfu_pmo_file, [](const MhfuPmoFile& f) { return write_mhfu_pmo_file(f); },
                             path.filename().string());
  }
  EXPECT_GT(written, 100u);
}

TEST(StructuredMutation, J3d) {
  std::size_t written = 0;
  for (const auto& path : inputs("j3d", "j3d")) {
    written += run_mutations(test::load_file(path), read_j3d, [](const J3dFile& f) { return write_j3d(f); },
                             path.filename().string());
  }
  EXPECT_GT(written, 100u);
}

// The glTF JSON mutator: its edits of the committed seeds give a .glb whose container still reads
// (only the JSON inside is wrong), read to a Scene or refused with a message.
TEST(StructuredMutation, Gltf) {
  std::size_t written = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(REMODEL_CORPUS) / "gltf")) {
    const Bytes seed = test::load_file(e.path());
    for (unsigned k = 0; k < 150; ++k) {
      Bytes buffer = seed;
      buffer.resize(seed.size() * 4 + 262144);
      const std::size_t n = fuzz::mutate_gltf(buffer.data(), seed.size(), buffer.size(), k);
      if (n == 0) continue;
      ++written;
      auto read = gltf::read_gltf(ByteSpan(buffer.data(), n));
      if (read.ok()) continue;
      EXPECT_FALSE(read.error().message.empty()) << e.path() << " mutation " << k;
      EXPECT_NE(read.error().field.rfind("glb", 0), 0u) << e.path() << " mutation " << k << ": " << read.error().describe();
    }
  }
  EXPECT_GT(written, 250u);
}

}  // namespace
}  // namespace remodel
