// glTF export speed: a generated 1,000,000-vertex skinned mesh (4 weights a vertex) to .glb bytes in
// memory beside a memcpy of the output bytes in the same run; and per sample, lift (Document ->
// Scene) and export (Scene -> .glb bytes).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "scene/demo.hpp"
#include "scene/lift.hpp"

namespace {

using namespace remodel;
namespace fs = std::filesystem;

// 1000 x 1000 vertices: positions, normals, colours, one UV set, 4 joints and weights, 1,996,002
// triangles (about 72 MB of .glb).
const scene::Scene& million() {
  static const scene::Scene s = scene::demo_grid(1000, 1000);
  return s;
}

void BM_Export1MSkinnedGlb(benchmark::State& state) {
  std::size_t size = 0;
  for (auto _ : state) {
    Result<Bytes> glb = gltf::write_glb(million());
    if (!glb) {
      state.SkipWithError(glb.error().describe().c_str());
      return;
    }
    size = glb->size();
    benchmark::DoNotOptimize(glb->data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
  state.counters["glb_bytes"] = static_cast<double>(size);
  state.counters["vertices"] = static_cast<double>(million().meshes[0].primitives[0].vertex_count());
}

void BM_Memcpy1MSkinnedGlb(benchmark::State& state) {
  const Result<Bytes> glb = gltf::write_glb(million());
  Bytes out(glb->size());
  for (auto _ : state) {
    std::memcpy(out.data(), glb->data(), glb->size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * glb->size()));
}

BENCHMARK(BM_Memcpy1MSkinnedGlb)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Export1MSkinnedGlb)->Unit(benchmark::kMillisecond)->UseRealTime();

struct Sample {
  std::string name;
  std::shared_ptr<Document> doc;
};

void BM_Lift(benchmark::State& state, const Sample* s) {
  for (auto _ : state) {
    Result<scene::Scene> scene = scene::lift(*s->doc);
    if (!scene) {
      state.SkipWithError(scene.error().describe().c_str());
      return;
    }
    benchmark::DoNotOptimize(scene->nodes.data());
  }
}

void BM_ExportGlb(benchmark::State& state, const Sample* s) {
  const Result<scene::Scene> scene = scene::lift(*s->doc);
  if (!scene) {
    state.SkipWithError(scene.error().describe().c_str());
    return;
  }
  std::size_t size = 0;
  for (auto _ : state) {
    Result<Bytes> glb = gltf::write_glb(*scene);
    size = glb ? glb->size() : 0;
    benchmark::DoNotOptimize(glb);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * size));
}

// Every model sample (files that lift to a Scene), registered at start-up.
void register_samples() {
  const char* env = std::getenv("REMODEL_SAMPLES");
  const fs::path root = env ? env : REMODEL_DEFAULT_SAMPLES;
  static std::vector<Sample> samples;
  std::error_code ec;
  for (const char* family : {"kh-bbs/pmo", "kh-bbs/pmp", "mhfu", "j3d"}) {
    std::vector<fs::path> files;
    for (fs::directory_iterator it(root / family, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) files.push_back(it->path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      std::ifstream in(f, std::ios::binary);
      const Bytes bytes((std::istreambuf_iterator<char>(in)), {});
      Result<Document> doc = read_document(bytes);
      if (!doc || !scene::lift(*doc)) continue;
      samples.push_back({f.filename().string(), std::make_shared<Document>(std::move(*doc))});
    }
  }
  for (const Sample& s : samples) {
    benchmark::RegisterBenchmark(("Lift/" + s.name).c_str(), BM_Lift, &s)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("ExportGlb/" + s.name).c_str(), BM_ExportGlb, &s)->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  register_samples();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
