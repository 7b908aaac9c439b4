// Read and write throughput for every model and animation sample (and the built demos), from
// memory, beside a memcpy of the same bytes in the same run.
#include <benchmark/benchmark.h>

#include <cstring>

#include "bwm_skin.hpp"
#include "j3d_large.hpp"
#include "sample_files.hpp"
#include "model/document.hpp"
#include "model/kh_bbs/demo.hpp"
#include "model/mhfu/demo.hpp"

namespace {

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
    state.counters["file_bytes"] = static_cast<double>(size);
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

// A generated skin of 120,000 vertices in BWM's nine strides, for a file larger than any sample.
remodel::Bwm large_bwm() {
  using namespace remodel;
  Bwm b = bench::bwm_skin_frame();
  for (BwmStride& s : b.strides) {
    s.vertices.resize(120000 * s.size());
    for (std::size_t k = 0; k < s.vertices.size(); ++k) s.vertices[k] = static_cast<std::uint8_t>(k * 7);
  }
  b.indices.resize(180000);
  for (std::size_t i = 0; i < b.indices.size(); ++i) b.indices[i] = static_cast<std::uint16_t>(i % 60000);
  BwmMesh mesh;
  mesh.material_refs.push_back(BwmMaterialRef{0, 0, static_cast<std::uint32_t>(b.indices.size() - 2), 0, bwm_vertex_count(b), 0, 0, 0});
  b.meshes.push_back(mesh);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  add_file("demo.pmo", remodel::write_pmo_file(remodel::build_demo_pmo()).value());
  add_file("demo.pam", remodel::write_pam(remodel::build_demo_pam()).value());
  add_file("demo.pac", remodel::write_pac(remodel::build_demo_mhfu_pac()).value());
  add_file("generated-120k.bwm", remodel::write_bwm(large_bwm()).value());
  add_file("generated-large.bmd", remodel::bench::large_j3d_file());
  for (const auto& [name, bytes] : remodel::bench::sample_files(REMODEL_DEFAULT_SAMPLES)) {
    if (remodel::read_document(bytes).ok()) add_file(name, bytes);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
