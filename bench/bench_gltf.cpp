// glTF export speed: a generated 1,000,000-vertex skinned mesh (4 weights a vertex) to .glb bytes in
// memory beside a memcpy of the output bytes in the same run; and per sample family, from bytes
// already in memory, a memcpy of the file's bytes, lift (Document -> Scene), export (Scene -> .glb) and
// import (the export's .glb read back to a Scene and lowered over the file: `remodel import --like`).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>

#include "bwm_skin.hpp"
#include "gltf/gltf.hpp"
#include "model/bwm/bwm.hpp"
#include "model/document.hpp"
#include "scene/demo.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"

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

// The reader on the same .glb: bytes in memory -> Scene (every accessor range, bound and index checked).
void BM_Read1MSkinnedGlb(benchmark::State& state) {
  const Result<Bytes> glb = gltf::write_glb(million());
  for (auto _ : state) {
    Result<gltf::ReadScene> read = gltf::read_gltf(*glb);
    if (!read) {
      state.SkipWithError(read.error().describe().c_str());
      return;
    }
    benchmark::DoNotOptimize(read->scene.meshes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * glb->size()));
}

BENCHMARK(BM_Memcpy1MSkinnedGlb)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Export1MSkinnedGlb)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Read1MSkinnedGlb)->Unit(benchmark::kMillisecond)->UseRealTime();

// A generated BWM skin (no BWM sample exists: the game's files are not redistributable): a 300 x 200
// vertex grid in BWM's nine skin strides (position, normal, UV; 4 bone indices; 4 weights), two bones,
// one strip over every row pair, joined by degenerate triangles.
Bytes generated_bwm_skin() {
  constexpr std::uint32_t columns = 300, rows = 200;
  Bwm b = bench::bwm_skin_frame();
  for (std::size_t k = 0; k < 2; ++k) {
    b.bones[k].xaxis = {1, 0, 0};
    b.bones[k].yaxis = {0, 1, 0};
    b.bones[k].zaxis = {0, 0, 1};
    b.bones[k].position = {0, static_cast<float>(k), 0};
  }
  for (BwmStride& s : b.strides) s.vertices.reserve(std::size_t{columns} * rows * s.size());
  const auto put = [](Bytes& out, float v) {
    std::uint8_t raw[4];
    std::memcpy(raw, &v, 4);  // BWM is little-endian, as this machine
    out.insert(out.end(), raw, raw + 4);
  };
  for (std::uint32_t r = 0; r < rows; ++r) {
    for (std::uint32_t c = 0; c < columns; ++c) {
      const float x = static_cast<float>(c) / (columns - 1), y = static_cast<float>(r) / (rows - 1);
      for (float v : {x, y, 0.0f, 0.0f, 0.0f, 1.0f, x, y}) put(b.strides[0].vertices, v);
      for (int j = 0; j < 4; ++j) b.strides[1 + j].vertices.push_back(j == 1 ? 1 : 0);  // bones 0 and 1
      for (int w = 0; w < 4; ++w) put(b.strides[5 + w].vertices, w == 0 ? 1 - y : w == 1 ? y : 0.0f);
    }
  }
  for (std::uint32_t r = 0; r + 1 < rows; ++r) {
    if (r > 0) b.indices.push_back(static_cast<std::uint16_t>(r * columns));  // degenerate join
    for (std::uint32_t c = 0; c < columns; ++c) {
      b.indices.push_back(static_cast<std::uint16_t>(r * columns + c));
      b.indices.push_back(static_cast<std::uint16_t>((r + 1) * columns + c));
    }
    if (r + 2 < rows) b.indices.push_back(b.indices.back());  // degenerate join
  }
  BwmMesh mesh;
  mesh.material_refs.push_back(
      BwmMaterialRef{0, 0, static_cast<std::uint32_t>(b.indices.size() - 2), 0, columns * rows, 0, 0, 0});
  b.meshes.push_back(mesh);
  return write_bwm(b).value();
}

struct Sample {
  std::string name;
  Bytes bytes;
  Document doc;
  Bytes glb;  // its export, the input of the import benchmark
};

void BM_Memcpy(benchmark::State& state, const Sample* s) {
  Bytes out(s->bytes.size());
  for (auto _ : state) {
    std::memcpy(out.data(), s->bytes.data(), s->bytes.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * s->bytes.size()));
}

// Lift and export count bytes of the input file, so their rates compare with the memcpy beside them.
void BM_Lift(benchmark::State& state, const Sample* s) {
  for (auto _ : state) {
    Result<scene::Scene> scene = scene::lift(s->doc);
    if (!scene) {
      state.SkipWithError(scene.error().describe().c_str());
      return;
    }
    benchmark::DoNotOptimize(scene->nodes.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * s->bytes.size()));
}

void BM_ExportGlb(benchmark::State& state, const Sample* s) {
  const Result<scene::Scene> scene = scene::lift(s->doc);
  if (!scene) {
    state.SkipWithError(scene.error().describe().c_str());
    return;
  }
  std::size_t size = 0;
  for (auto _ : state) {
    Result<Bytes> glb = gltf::write_glb(*scene);
    if (!glb) {
      state.SkipWithError(glb.error().describe().c_str());
      return;
    }
    size = glb->size();
    benchmark::DoNotOptimize(glb->data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * s->bytes.size()));
  state.counters["glb_bytes"] = static_cast<double>(size);
}

// What `remodel import X.glb --like FILE` does in memory: the .glb read to a Scene, lowered over the
// file's Document (the unedited export gives the file's own bytes: checked once at registration).
void BM_Import(benchmark::State& state, const Sample* s) {
  for (auto _ : state) {
    Result<gltf::ReadScene> read = gltf::read_gltf(s->glb);
    if (!read) {
      state.SkipWithError(read.error().describe().c_str());
      return;
    }
    Result<scene::Lowered> lowered = scene::lower(read->scene, s->doc);
    if (!lowered) {
      state.SkipWithError(lowered.error().describe().c_str());
      return;
    }
    benchmark::DoNotOptimize(&lowered->document);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * s->bytes.size()));
  state.counters["glb_bytes"] = static_cast<double>(s->glb.size());
}

Bytes read_all(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(in)), {});
}

// One sample per family (a KH BBS PMO, an MHFU PAC, a BMD, a BDL, the largest J3D file, the generated
// BWM skin), read into memory before timing; a family whose file is absent is left out with a note.
void register_samples() {
  const char* env = std::getenv("REMODEL_SAMPLES");
  const fs::path root = (env != nullptr && *env != '\0') ? fs::path(env) : fs::path(REMODEL_DEFAULT_SAMPLES);
  std::vector<fs::path> files = {root / "kh-bbs/pmo/p01ex00.pmo", root / "kh-bbs/pmp/jb_50.pmp", root / "mhfu/f_hair000_original.pac",
                                 root / "j3d/sms_ma_mdl1.bmd", root / "j3d/ww_cl.bdl"};
  fs::path largest;
  std::uintmax_t largest_size = 0;
  std::error_code ec;
  for (fs::directory_iterator it(root / "j3d", ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::uintmax_t size = it->file_size(ec);
    if (!ec && it->is_regular_file(ec) && size > largest_size) largest = it->path(), largest_size = size;
  }
  if (!largest.empty() && std::find(files.begin(), files.end(), largest) == files.end()) files.push_back(largest);
  static std::vector<Sample> samples;
  samples.reserve(files.size() + 1);
  for (const fs::path& f : files) {
    Bytes bytes = read_all(f);
    Result<Document> doc = read_document(bytes);
    if (!doc || !scene::lift(*doc)) {
      std::fprintf(stderr, "skipped %s: absent or does not lift\n", f.string().c_str());
      continue;
    }
    samples.push_back({f.filename().string(), std::move(bytes), std::move(*doc), {}});
  }
  Bytes bwm = generated_bwm_skin();
  Result<Document> doc = read_document(bwm);
  samples.push_back({"generated-60k-skin.bwm", std::move(bwm), std::move(doc.value()), {}});
  for (Sample& s : samples) {
    benchmark::RegisterBenchmark(("memcpy/" + s.name).c_str(), BM_Memcpy, &s)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("Lift/" + s.name).c_str(), BM_Lift, &s)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("ExportGlb/" + s.name).c_str(), BM_ExportGlb, &s)->Unit(benchmark::kMicrosecond);
    Result<Bytes> glb = gltf::write_glb(scene::lift(s.doc).value());
    Result<gltf::ReadScene> read = glb ? gltf::read_gltf(*glb) : Result<gltf::ReadScene>(glb.error());
    Result<scene::Lowered> lowered = read ? scene::lower(read->scene, s.doc) : Result<scene::Lowered>(read.error());
    Result<Bytes> bytes = lowered ? write_document(lowered->document) : Result<Bytes>(lowered.error());
    if (!bytes || *bytes != s.bytes) {
      std::fprintf(stderr, "no import benchmark for %s: %s\n", s.name.c_str(),
                   bytes ? "the import differs from the file" : bytes.error().describe().c_str());
      continue;
    }
    s.glb = std::move(*glb);
    benchmark::RegisterBenchmark(("Import/" + s.name).c_str(), BM_Import, &s)->Unit(benchmark::kMicrosecond);
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
