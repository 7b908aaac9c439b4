// Read and write throughput for every KH BBS sample (and the built demo), from memory,
// beside a memcpy of the same bytes in the same run.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "model/document.hpp"
#include "model/kh_bbs_demo.hpp"

namespace {

namespace fs = std::filesystem;
using remodel::Bytes;

void add_file(const std::string& name, const Bytes& bytes) {
  auto data = std::make_shared<Bytes>(bytes);
  auto doc = std::make_shared<remodel::Document>(std::move(remodel::read_document(*data).value()));
  const auto size = static_cast<std::int64_t>(data->size());
  benchmark::RegisterBenchmark(("memcpy/" + name).c_str(), [data, size](benchmark::State& state) {
    Bytes out(data->size());
    for (auto _ : state) {
      std::memcpy(out.data(), data->data(), data->size());
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(state.iterations() * size);
  });
  benchmark::RegisterBenchmark(("read/" + name).c_str(), [data, size](benchmark::State& state) {
    for (auto _ : state) {
      auto d = remodel::read_document(*data);
      benchmark::DoNotOptimize(d);
    }
    state.SetBytesProcessed(state.iterations() * size);
  });
  benchmark::RegisterBenchmark(("write/" + name).c_str(), [doc, size](benchmark::State& state) {
    for (auto _ : state) {
      auto b = remodel::write_document(*doc);
      benchmark::DoNotOptimize(b);
    }
    state.SetBytesProcessed(state.iterations() * size);
  });
  benchmark::RegisterBenchmark(("read+write/" + name).c_str(), [data, size](benchmark::State& state) {
    for (auto _ : state) {
      auto d = remodel::read_document(*data);
      auto b = remodel::write_document(*d);
      benchmark::DoNotOptimize(b);
    }
    state.SetBytesProcessed(state.iterations() * size);
  });
}

}  // namespace

int main(int argc, char** argv) {
  add_file("demo.pmo", remodel::write_pmo_file(remodel::build_demo_pmo()).value());
  add_file("demo.pam", remodel::write_pam(remodel::build_demo_pam()).value());
  const char* env = std::getenv("REMODEL_SAMPLES");
  const fs::path root = (env != nullptr && *env != '\0') ? fs::path(env) : fs::path(REMODEL_DEFAULT_SAMPLES);
  std::vector<fs::path> files;
  std::error_code ec;
  for (const char* sub : {"kh-bbs/pmo", "kh-bbs/pmp", "kh-bbs/pam"}) {
    for (const auto& e : fs::directory_iterator(root / sub, ec)) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    Bytes b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (remodel::read_document(b).ok()) add_file(f.filename().string(), b);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
