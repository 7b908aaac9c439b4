// Decoder speed (issue 18): the decoders the Scene lift calls, on every sample's data, each beside a
// memcpy of the same bytes in the same run. PSP GE vertices per VTYPE family (KH BBS PMO/PMP sections
// and MHFU blocks), MHFU command lists, J3D attribute arrays and display lists, BWM strides, PAM and
// J3D animation (BCK, BCA, BTP, BVA, BTK, BRK, BPK) sampling, Yaz0 streams (decompressed bytes per second); rates in bytes and in items (vertices, attributes, commands, samples) per second.
// An attribute is one per-vertex element: a position, a normal, a colour, a UV set, a weight set.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "bwm_skin.hpp"
#include "j3d_large.hpp"
#include "sample_files.hpp"
#include "model/archive/yaz0.hpp"
#include "model/bwm/bwm.hpp"
#include "model/document.hpp"
#include "model/j3d/anim.hpp"
#include "model/j3d/anim_eval.hpp"
#include "model/j3d/decode.hpp"
#include "model/kh_bbs/pam.hpp"
#include "model/mhfu/demo.hpp"
#include "model/mhfu/pmo.hpp"
#include "model/psp/vertex.hpp"
#include "scene/lift.hpp"

namespace {

using namespace remodel;

std::vector<std::shared_ptr<const Document>> g_documents;  // kept alive for the spans below

// memcpy of `bytes` bytes, the baseline every decoder is set beside.
void register_memcpy(const std::string& name, std::size_t bytes) {
  benchmark::RegisterBenchmark(("memcpy/" + name).c_str(), [bytes](benchmark::State& state) {
    Bytes in(bytes, 0x5A), out(bytes);
    for (auto _ : state) {
      std::memcpy(out.data(), in.data(), bytes);
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  });
}

// Sets bytes/s and items/s, plus per-second counters for the named item kinds.
void rates(benchmark::State& state, std::size_t bytes, std::size_t items, std::initializer_list<std::pair<const char*, std::size_t>> per_second) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * items));
  for (const auto& [name, n] : per_second) state.counters[name] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}

// ---- PSP GE vertices ----

struct PspRun {
  psp::VertexFormat format;
  ByteSpan bytes;
  std::size_t count = 0;
};

std::string family_name(const psp::VertexFormat& f) {
  static const char* num[] = {"", "8", "16", "f"};
  static const char* colour[] = {"", "", "", "", "565", "5551", "4444", "8888"};
  std::string s;
  const auto add = [&](const std::string& part) { s += (s.empty() ? "" : "-") + part; };
  if (f.weight != psp::NumFormat::none) add("w" + std::string(num[static_cast<int>(f.weight)]) + "x" + std::to_string(f.weight_count));
  if (f.texcoord != psp::NumFormat::none) add("t" + std::string(num[static_cast<int>(f.texcoord)]));
  if (f.color != psp::ColorFormat::none) add("c" + std::string(colour[static_cast<int>(f.color)]));
  if (f.normal != psp::NumFormat::none) add("n" + std::string(num[static_cast<int>(f.normal)]));
  if (f.position != psp::NumFormat::none) add("p" + std::string(num[static_cast<int>(f.position)]));
  if (f.through) add("through");
  return s;
}

std::size_t attributes_per_vertex(const psp::VertexFormat& f) {
  return (f.weight != psp::NumFormat::none) + (f.texcoord != psp::NumFormat::none) + (f.color != psp::ColorFormat::none) +
         (f.normal != psp::NumFormat::none) + (f.position != psp::NumFormat::none);
}

void add_psp_run(std::map<std::string, std::vector<PspRun>>& families, std::uint32_t vtype, ByteSpan bytes, std::size_t count) {
  auto f = psp::VertexFormat::from_vtype(vtype & 0xFFFFFF);
  if (!f || count == 0) return;
  families[family_name(*f)].push_back({*f, bytes, count});
}

void collect_psp(const Document& d, std::map<std::string, std::vector<PspRun>>& families) {
  const auto pmo = [&](const Pmo& p) {
    for (const auto* list : {&p.mesh0, &p.mesh1}) {
      if (!list->has_value()) continue;
      for (const PmoSection& s : (*list)->sections) add_psp_run(families, s.vertex_flags, s.vertices, s.vertex_count());
    }
  };
  const auto mhfu = [&](const MhfuPmo& p) {
    for (const MhfuBlock& b : p.blocks) {
      auto draw = decode_mhfu_block(b);
      if (draw) add_psp_run(families, draw->format.vtype(), b.vertices, draw->vertex_count);
    }
  };
  if (const auto* f = std::get_if<PmoFile>(&d)) pmo(f->pmo);
  if (const auto* f = std::get_if<Pmp>(&d)) {
    for (const Pmo& p : f->pmos) pmo(p);
  }
  if (const auto* f = std::get_if<MhfuPmoFile>(&d)) mhfu(f->pmo);
  if (const auto* f = std::get_if<Pac>(&d)) {
    for (const PacEntry& e : f->entries) {
      if (const auto* m = std::get_if<MhfuPmoFile>(&e.content)) mhfu(m->pmo);
    }
  }
}

void register_psp(const std::string& family, const std::vector<PspRun>& runs) {
  std::size_t bytes = 0, vertices = 0, attributes = 0;
  for (const PspRun& r : runs) {
    bytes += r.count * r.format.layout().size;
    vertices += r.count;
    attributes += r.count * attributes_per_vertex(r.format);
  }
  register_memcpy("psp/" + family, bytes);
  benchmark::RegisterBenchmark(("decode/psp/" + family).c_str(), [runs, bytes, vertices, attributes](benchmark::State& state) {
    for (auto _ : state) {
      for (const PspRun& r : runs) {
        auto v = psp::decode_vertices(r.format, r.bytes, r.count);
        benchmark::DoNotOptimize(v);
      }
    }
    rates(state, bytes, attributes, {{"vertices/s", vertices}, {"attributes/s", attributes}});
  });
}

// ---- MHFU command lists ----

void register_mhfu(const std::vector<const MhfuBlock*>& blocks) {
  std::size_t bytes = 0, commands = 0;
  for (const MhfuBlock* b : blocks) {
    bytes += 4 * b->commands.size() + b->indices.size();
    commands += b->commands.size();
  }
  register_memcpy("mhfu/command-lists", bytes);
  benchmark::RegisterBenchmark("decode/mhfu/command-lists", [blocks, bytes, commands](benchmark::State& state) {
    for (auto _ : state) {
      for (const MhfuBlock* b : blocks) {
        auto d = decode_mhfu_block(*b);
        benchmark::DoNotOptimize(d);
      }
    }
    rates(state, bytes, commands, {{"commands/s", commands}});
  });
}

// ---- J3D: attribute arrays and display lists ----

void register_j3d(const std::string& name, const J3dFile& f) {
  const J3dVtx1* vtx = j3d_section<J3dVtx1>(f);
  const J3dShp1* shp = j3d_section<J3dShp1>(f);
  if (vtx == nullptr || shp == nullptr) return;
  std::size_t array_bytes = 0, elements = 0;
  std::vector<std::uint8_t> slots;
  for (const J3dVertexArray& a : vtx->arrays) {
    if (a.slot != 0 && a.slot != 1 && (a.slot < 3 || a.slot > 12)) continue;
    auto d = j3d_decode_array(*vtx, a.slot);
    if (!d) continue;
    slots.push_back(a.slot);
    array_bytes += a.data.size();
    elements += d->count();
  }
  register_memcpy("j3d-arrays/" + name, array_bytes);
  benchmark::RegisterBenchmark(("decode/j3d-arrays/" + name).c_str(), [vtx, slots, array_bytes, elements](benchmark::State& state) {
    for (auto _ : state) {
      for (std::uint8_t s : slots) {
        auto d = j3d_decode_array(*vtx, s);
        benchmark::DoNotOptimize(d);
      }
    }
    rates(state, array_bytes, elements, {{"attributes/s", elements}});
  });
  // Display lists: the indexed data (one index per present descriptor per vertex) to triangles, and
  // the whole lift's geometry (indices resolved to vertices, matrices, weights; textures decoded too).
  std::size_t dl_bytes = 0, dl_vertices = 0, dl_indices = 0;
  std::vector<std::pair<std::uint8_t, std::size_t>> prims;  // opcode, vertices
  for (std::size_t s = 0; s < shp->shapes.size(); ++s) {
    const J3dShape& sh = shp->shapes[s];
    const auto& descriptors = shp->descriptor_lists[sh.descriptors];
    const std::size_t vertex_bytes = j3d_dl_vertex_size(descriptors);
    for (std::size_t k = 0; k < sh.packet_count; ++k) {
      for (const J3dPrimitive& p : shp->packets[std::size_t{sh.first_packet} + k].primitives) {
        const std::size_t vertices = j3d_dl_vertex_count(p, descriptors).value_or(0);
        prims.emplace_back(p.opcode, vertices);
        dl_bytes += 3 + vertices * vertex_bytes;
        dl_vertices += vertices;
        dl_indices += p.values.size();
      }
    }
  }
  register_memcpy("j3d-display-lists/" + name, dl_bytes);
  benchmark::RegisterBenchmark(("decode/j3d-display-lists/" + name).c_str(), [prims, dl_bytes, dl_vertices, dl_indices](benchmark::State& state) {
    for (auto _ : state) {
      for (const auto& [opcode, vertices] : prims) {
        auto t = j3d_triangles(opcode, vertices);
        benchmark::DoNotOptimize(t);
      }
    }
    rates(state, dl_bytes, dl_indices, {{"vertices/s", dl_vertices}, {"attributes/s", dl_indices}});
  });
  benchmark::RegisterBenchmark(("lift/j3d/" + name).c_str(), [&f, dl_bytes, dl_vertices, dl_indices](benchmark::State& state) {
    for (auto _ : state) {
      auto s = scene::lift_j3d(f, {});
      benchmark::DoNotOptimize(s);
    }
    rates(state, dl_bytes, dl_indices, {{"vertices/s", dl_vertices}, {"attributes/s", dl_indices}});
  });
}

// ---- BWM strides ----

// The benchmark's generated 120,000-vertex skin (bench_samples.cpp's), with hashed vertex bytes
// whose floats are finite.
Bwm generated_bwm() {
  Bwm b = bench::bwm_skin_frame();
  for (BwmStride& s : b.strides) {
    s.vertices.resize(120000 * s.size());
    for (std::size_t k = 0; k < s.vertices.size(); ++k) s.vertices[k] = static_cast<std::uint8_t>((k * 7) & 0x3F);
  }
  return b;
}

void register_bwm(const Bwm& b) {
  std::size_t bytes = 0, attributes = 0;
  for (const BwmStride& s : b.strides) {
    bytes += s.vertices.size();
    attributes += std::size_t{bwm_vertex_count(b)} * s.attributes.size();
  }
  const std::size_t vertices = bwm_vertex_count(b);
  register_memcpy("bwm/generated-120k", bytes);
  benchmark::RegisterBenchmark("decode/bwm/generated-120k", [&b, bytes, vertices, attributes](benchmark::State& state) {
    for (auto _ : state) {
      auto v = decode_bwm_vertices(b);
      benchmark::DoNotOptimize(v);
    }
    rates(state, bytes, attributes, {{"vertices/s", vertices}, {"attributes/s", attributes}});
  });
}

// ---- Yaz0: the stream decompressed into the stated size, beside a memcpy of what it gives ----

void register_yaz0(const std::string& name, const Bytes& file) {
  Result<Yaz0File> f = read_yaz0(file);
  if (!f) return;
  const std::size_t bytes = f->data.size();
  register_memcpy("yaz0/" + name, bytes);
  benchmark::RegisterBenchmark(("decode/yaz0/" + name).c_str(), [&file, bytes](benchmark::State& state) {
    Bytes out;
    for (auto _ : state) {
      auto used = yaz0_decompress(ByteSpan(file).subspan(kYaz0HeaderSize), bytes, out);
      benchmark::DoNotOptimize(used);
      benchmark::DoNotOptimize(out.data());
    }
    rates(state, bytes, bytes, {});
  });
  benchmark::RegisterBenchmark(("encode/yaz0/" + name).c_str(), [data = f->data](benchmark::State& state) {
    for (auto _ : state) {
      auto stream = yaz0_compress(data);
      benchmark::DoNotOptimize(stream.data());
    }
    rates(state, data.size(), data.size(), {});
  });
}

// ---- PAM: decode every record, then sample every channel at every frame ----

void register_pam(const std::string& name, const std::vector<const PamAnimation*>& animations) {
  std::size_t bytes = 0, samples = 0;
  for (const PamAnimation* a : animations) {
    bytes += pam_animation_size(*a);
    auto d = decode_pam_animation(*a);
    if (!d) return;
    for (const PamDecodedBone& bone : d->bones) samples += bone.channels.size() * d->frame_count;
  }
  register_memcpy("pam/" + name, bytes);
  benchmark::RegisterBenchmark(("decode/pam/" + name).c_str(), [animations, bytes, samples](benchmark::State& state) {
    for (auto _ : state) {
      for (const PamAnimation* a : animations) {
        auto d = decode_pam_animation(*a);
        float sum = 0;
        for (const PamDecodedBone& bone : d->bones) {
          for (const PamDecodedChannel& c : bone.channels) {
            for (std::uint16_t f = 0; f < d->frame_count; ++f) sum += pam_sample(c, f);
          }
        }
        benchmark::DoNotOptimize(sum);
      }
    }
    rates(state, bytes, samples, {{"samples/s", samples}});
  });
}

// ---- J3D animations (BCK, BCA, BTP, BVA, BTK, BRK, BPK): every track sampled at every frame 0..duration ----

// One pass over sections of a kind: the sum of every sample (kept from the optimiser) and how many.
struct AnimPass {
  float sum = 0;
  std::size_t samples = 0;

  // A keyed track: its keys out of the Document, then the Hermite at every frame (as the lifts do).
  template <typename T>
  void keyed(const J3dAnimTrack<T>& track, std::uint16_t duration) {
    const std::vector<J3dKey> keys = j3d_keys(track);
    for (std::size_t f = 0; f <= duration; ++f) sum += j3d_sample(keys, static_cast<float>(f));
    samples += std::size_t{duration} + 1;
  }
  // A full-frame track: the stored frame at every frame.
  template <typename T>
  void frames(const J3dFrameTrack<T>& track, std::uint16_t duration) {
    for (std::size_t f = 0; f <= duration; ++f) sum += j3d_frame_value(track, static_cast<float>(f));
    samples += std::size_t{duration} + 1;
  }
  template <typename Joint>
  void joint(const Joint& j, std::uint16_t duration) {
    for (std::size_t i = 0; i < 3; ++i) {
      if constexpr (std::is_same_v<Joint, J3dJointAnim>) {
        keyed(j.scale[i], duration);
        keyed(j.rotation[i], duration);
        keyed(j.translation[i], duration);
      } else {
        frames(j.scale[i], duration);
        frames(j.rotation[i], duration);
        frames(j.translation[i], duration);
      }
    }
  }
  void colours(const J3dColourAnims& c, std::uint16_t duration) {
    for (const J3dColourAnim& a : c.anims) {
      for (const J3dColourTrack& t : a.rgba) keyed(t, duration);
    }
  }

  void operator()(const J3dAnk1& a) { for (const J3dJointAnim& j : a.joints) joint(j, a.duration); }
  void operator()(const J3dAnf1& a) { for (const J3dFullFrameJoint& j : a.joints) joint(j, a.duration); }
  void operator()(const J3dTpt1& a) { for (const J3dTexturePattern& p : a.patterns) frames(p.textures, a.duration); }
  void operator()(const J3dVaf1& a) { for (const auto& shape : a.shapes) frames(shape, a.duration); }
  void operator()(const J3dTtk1& a) { for (const J3dTexMtxAnim& m : a.anims) joint(m.keys, a.duration); }
  void operator()(const J3dTrk1& a) {
    colours(a.registers, a.duration);
    colours(a.konstants, a.duration);
  }
  void operator()(const J3dPak1& a) { colours(a.colours, a.duration); }
};

// Every sample file of one kind (`kind`: "bck", ...) decoded and sampled, beside a memcpy of their bytes.
void register_j3d_anims(const std::string& kind, const std::vector<const J3dAnimSection*>& sections, std::size_t bytes) {
  AnimPass counted;
  for (const J3dAnimSection* s : sections) std::visit(counted, *s);
  const std::size_t samples = counted.samples;
  register_memcpy(kind + "/all-samples", bytes);
  benchmark::RegisterBenchmark(("decode/" + kind + "/all-samples").c_str(), [sections, bytes, samples](benchmark::State& state) {
    for (auto _ : state) {
      AnimPass pass;
      for (const J3dAnimSection* s : sections) std::visit(pass, *s);
      benchmark::DoNotOptimize(pass.sum);
    }
    rates(state, bytes, samples, {{"samples/s", samples}});
  });
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::pair<std::string, Bytes>> files = {{"demo.pac", write_pac(build_demo_mhfu_pac()).value()},
                                                     {"generated-large.bmd", bench::large_j3d_file()}};
  for (auto& file : bench::sample_files(REMODEL_DEFAULT_SAMPLES)) files.push_back(std::move(file));
  std::map<std::string, std::vector<PspRun>> families;
  std::vector<const MhfuBlock*> mhfu_blocks;
  std::vector<const PamAnimation*> pam_all;
  std::vector<std::vector<const J3dAnimSection*>> j3d_anims(std::size(kJ3dAnimKinds));  // by section kind
  std::vector<std::size_t> j3d_anim_bytes(std::size(kJ3dAnimKinds));
  for (const auto& [name, bytes] : files) {
    auto doc = read_document(bytes);
    if (!doc) continue;
    g_documents.push_back(std::make_shared<const Document>(std::move(*doc)));
    const Document& d = *g_documents.back();
    collect_psp(d, families);
    const auto blocks = [&](const MhfuPmo& p) {
      for (const MhfuBlock& b : p.blocks) mhfu_blocks.push_back(&b);
    };
    if (const auto* f = std::get_if<MhfuPmoFile>(&d)) blocks(f->pmo);
    if (const auto* f = std::get_if<Pac>(&d)) {
      for (const PacEntry& e : f->entries) {
        if (const auto* m = std::get_if<MhfuPmoFile>(&e.content)) blocks(m->pmo);
      }
    }
    if (const auto* f = std::get_if<J3dFile>(&d)) register_j3d(name, *f);
    if (const auto* f = std::get_if<Pam>(&d)) {
      for (const PamAnimation& a : f->animations) pam_all.push_back(&a);
    }
    if (const auto* f = std::get_if<PamAnimFile>(&d)) pam_all.push_back(&f->animation);
    if (const auto* f = std::get_if<J3dAnimFile>(&d)) {
      j3d_anims[f->section.index()].push_back(&f->section);
      j3d_anim_bytes[f->section.index()] += bytes.size();
    }
    if (std::holds_alternative<Yaz0File>(d)) register_yaz0(name, bytes);
  }
  for (const auto& [family, runs] : families) register_psp(family, runs);
  if (!mhfu_blocks.empty()) register_mhfu(mhfu_blocks);
  static const Bwm bwm = generated_bwm();
  register_bwm(bwm);
  if (!pam_all.empty()) register_pam("all-samples", pam_all);
  for (std::size_t k = 0; k < j3d_anims.size(); ++k) {
    // The kind's file type without its version digit: "bck1" -> "bck".
    if (!j3d_anims[k].empty()) register_j3d_anims(std::string(kJ3dAnimKinds[k].type, 3), j3d_anims[k], j3d_anim_bytes[k]);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
