// Writes the seed corpus the project builds itself: fuzz/corpus/<target>/.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>
#include <tuple>
#include <type_traits>

#include "model/archive/demo.hpp"
#include "model/archive/yaz0.hpp"
#include "model/kh_bbs/demo.hpp"
#include "model/kh_bbs/pmo.hpp"
#include "bwm_golden.hpp"
#include "model/gx/texture.hpp"
#include "model/image.hpp"
#include "model/j3d/anim.hpp"
#include "model/mhfu/demo.hpp"
#include "model/psp/texture.hpp"
#include "scene/demo.hpp"
#include "scene/lower.hpp"
#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "model/file_io.hpp"
#include "scene/family_table.hpp"
#include "scene/lift.hpp"
#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using namespace remodel;

void save_file(const fs::path& path, const Bytes& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::string base64(const Bytes& data) {
  static const char* kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < data.size(); i += 3) {
    const std::size_t left = data.size() - i;
    const std::uint32_t v = (std::uint32_t{data[i]} << 16) | (left > 1 ? data[i + 1] << 8 : 0) | (left > 2 ? data[i + 2] : 0);
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += left > 1 ? kDigits[(v >> 6) & 63] : '=';
    out += left > 2 ? kDigits[v & 63] : '=';
  }
  return out;
}

// "Box%20With%20Spaces.bin" -> "Box With Spaces.bin".
std::string percent_decoded(const std::string& uri) {
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size()) {
      out += static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

// A .gltf with the files its buffers and images name embedded as data: URIs (fuzz_gltf reads no
// files); a file that is not there keeps its name.
std::string embedded(const fs::path& gltf) {
  using Json = nlohmann::ordered_json;
  Result<Bytes> text = read_file(gltf);
  if (!text.ok()) return "";
  Json root = Json::parse(text->begin(), text->end(), nullptr, false);
  if (root.is_discarded() || !root.is_object()) return std::string(text->begin(), text->end());
  for (const char* list : {"buffers", "images"}) {
    if (!root.contains(list) || !root[list].is_array()) continue;
    for (Json& entry : root[list]) {
      if (!entry.is_object() || !entry.contains("uri") || !entry["uri"].is_string()) continue;
      const std::string uri = entry["uri"].get<std::string>();
      if (uri.rfind("data:", 0) == 0) continue;
      Result<Bytes> bytes = read_file(gltf.parent_path() / percent_decoded(uri));
      if (bytes.ok()) entry["uri"] = "data:application/octet-stream;base64," + base64(*bytes);
    }
  }
  return root.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// What one fuzz_gltf execution should take: at 200 executions a second under ASan, each has 5 ms
// for the mutator's JSON parse and dump, the read, the authoring and the read-back, which all grow
// with the input: a seed is at most 8 KiB (kSeedSize), or 64 KiB when a model's nodes and skins
// alone take more, far below libFuzzer's max_len.
constexpr std::size_t kSeedSize = 8192, kMaxSeedSize = 65536;
constexpr std::size_t kSeedVertices = 128;
constexpr std::uint32_t kSeedImageSide = 8;
constexpr std::size_t kSeedKeys = 8;
constexpr std::size_t kSeedPixels = 128 * 128;  // decoded per execution, over all of a seed's images
// A sample larger than one seed is split into 2, 4... parts (its primitives and channels dealt
// out); the first 4 parts are kept, each with the sample's nodes and skins.
constexpr std::size_t kMaxSplit = 64, kKeptParts = 4;

// Whether one execution over a glTF that reads as `s` stays small: few vertices to author, few
// pixels to decode.
bool cheap_to_fuzz(const scene::Scene& s) {
  std::size_t vertices = 0, pixels = 0;
  for (const scene::Mesh& m : s.meshes) {
    for (const scene::Primitive& p : m.primitives) vertices += p.positions.size();
  }
  for (const scene::Texture& t : s.textures) pixels += std::size_t{t.image.width} * t.image.height;
  return vertices <= kSeedVertices && pixels <= kSeedPixels;
}

// The first draws of `p` that hold at most `limit` vertices (points, lines, triangles, or a strip's
// or fan's first vertices), its vertex arrays cut to the vertices they use.
void keep_first_draws(scene::Primitive& p, std::size_t limit) {
  const std::size_t unit = p.topology == scene::Topology::points ? 1 : p.topology == scene::Topology::lines ? 2 : 3;
  const bool list = p.topology != scene::Topology::triangle_strip && p.topology != scene::Topology::triangle_fan;
  const std::size_t drawn = p.indices.empty() ? p.positions.size() : p.indices.size();
  std::size_t keep = std::min(drawn, std::max(limit, unit));
  if (list) keep -= keep % unit;
  if (keep == drawn && p.indices.empty()) return;
  std::vector<std::uint32_t> order;  // the kept vertices, in their first use
  if (p.indices.empty()) {
    for (std::uint32_t v = 0; v < keep; ++v) order.push_back(v);
  } else {
    std::vector<std::uint32_t> renumbered(p.positions.size(), UINT32_MAX);
    p.indices.resize(keep);
    for (std::uint32_t& i : p.indices) {
      if (renumbered[i] == UINT32_MAX) renumbered[i] = static_cast<std::uint32_t>(order.size()), order.push_back(i);
      i = renumbered[i];
    }
  }
  const auto pick = [&](auto& values, std::size_t per_vertex) {
    if (values.empty()) return;
    std::remove_reference_t<decltype(values)> kept;
    for (std::uint32_t v : order) kept.insert(kept.end(), values.begin() + v * per_vertex, values.begin() + (v + 1) * per_vertex);
    values = std::move(kept);
  };
  pick(p.positions, 1);
  pick(p.normals, 1);
  pick(p.colors, 1);
  for (auto& uv : p.uvs) pick(uv, 1);
  pick(p.joints, p.influences);
  pick(p.weights, p.influences);
}

// A sample's Scene cut to a seed one execution authors in a few milliseconds, with every element it
// had (nodes, skins, meshes, primitives, materials, textures, animations, extras): each primitive to
// its first draws, each image to at most 8x8, each channel to its first keys.
void shrink_for_seed(scene::Scene& s) {
  std::size_t primitives = 0;
  for (const scene::Mesh& m : s.meshes) primitives += m.primitives.size();
  const std::size_t per_primitive = kSeedVertices / std::max<std::size_t>(primitives, 1);
  for (scene::Mesh& m : s.meshes) {
    for (scene::Primitive& p : m.primitives) keep_first_draws(p, per_primitive);
  }
  for (scene::Texture& t : s.textures) {
    const std::uint32_t w = std::min(t.image.width, kSeedImageSide), h = std::min(t.image.height, kSeedImageSide);
    if (w != t.image.width || h != t.image.height) t.image = resize_image(t.image, w, h);
  }
  for (scene::Animation& a : s.animations) {
    for (scene::Channel& c : a.channels) {
      if (c.times.size() <= kSeedKeys) continue;
      const std::size_t per_key = c.values.size() / c.times.size();
      c.times.resize(kSeedKeys);
      c.values.resize(kSeedKeys * per_key);
    }
  }
}

// Part `k` of `parts` of `s`: every parts-th primitive and animation channel from the k-th (meshes
// and animations left empty dropped, nodes drawing a dropped mesh drawing nothing), the materials
// its primitives draw with and their textures; the nodes and skins whole.
scene::Scene part_of(const scene::Scene& s, std::size_t k, std::size_t parts) {
  scene::Scene out = s;
  std::size_t ordinal = 0;
  std::vector<int> mesh_index(s.meshes.size(), -1);
  out.meshes.clear();
  for (std::size_t m = 0; m < s.meshes.size(); ++m) {
    scene::Mesh mesh = s.meshes[m];
    mesh.primitives.clear();
    for (const scene::Primitive& p : s.meshes[m].primitives) {
      if (ordinal++ % parts == k) mesh.primitives.push_back(p);
    }
    if (mesh.primitives.empty()) continue;
    mesh_index[m] = static_cast<int>(out.meshes.size());
    out.meshes.push_back(std::move(mesh));
  }
  for (scene::Node& n : out.nodes) {
    if (n.mesh < 0) continue;
    n.mesh = mesh_index[static_cast<std::size_t>(n.mesh)];
    if (n.mesh < 0) n.skin = -1;
  }
  std::vector<int> material_index(s.materials.size(), -1), texture_index(s.textures.size(), -1);
  out.materials.clear();
  out.textures.clear();
  for (scene::Mesh& mesh : out.meshes) {
    for (scene::Primitive& p : mesh.primitives) {
      if (p.material < 0) continue;
      int& m = material_index[static_cast<std::size_t>(p.material)];
      if (m < 0) {
        m = static_cast<int>(out.materials.size());
        out.materials.push_back(s.materials[static_cast<std::size_t>(p.material)]);
        if (int& t = out.materials.back().texture; t >= 0) {
          int& kept = texture_index[static_cast<std::size_t>(t)];
          if (kept < 0) kept = static_cast<int>(out.textures.size()), out.textures.push_back(s.textures[static_cast<std::size_t>(t)]);
          t = kept;
        }
      }
      p.material = m;
    }
  }
  ordinal = 0;
  out.animations.clear();
  for (const scene::Animation& a : s.animations) {
    scene::Animation kept = a;
    kept.channels.clear();
    for (const scene::Channel& c : a.channels) {
      if (ordinal++ % parts == k) kept.channels.push_back(c);
    }
    if (!kept.channels.empty()) out.animations.push_back(std::move(kept));
  }
  return out;
}

// A Scene written as shrunk seeds (shrink_for_seed), split into as few parts as keep each under
// kSeedSize, or, when its nodes and skins alone pass that, the first of the parts that come out
// smallest if it stays under kMaxSeedSize; how many were written (0 when the writer refuses it).
std::size_t save_shrunk(const fs::path& seed, const scene::Scene& scene) {
  std::vector<Bytes> best;
  std::size_t best_largest = SIZE_MAX;
  for (std::size_t parts = 1; parts <= kMaxSplit; parts *= 2) {
    std::vector<Bytes> glbs;
    std::size_t largest = 0;
    for (std::size_t k = 0; k < std::min(parts, kKeptParts); ++k) {
      scene::Scene part = part_of(scene, k, parts);
      shrink_for_seed(part);
      Result<Bytes> glb = gltf::write_glb(part);
      if (!glb.ok()) return 0;
      largest = std::max(largest, glb->size());
      glbs.push_back(std::move(*glb));
    }
    if (largest < best_largest) best = std::move(glbs), best_largest = largest;
    if (best_largest <= kSeedSize) break;
  }
  if (best_largest > kMaxSeedSize) return 0;
  if (best_largest > kSeedSize) best.resize(1);  // the parts' cost is the nodes they share: one will do
  for (std::size_t k = 0; k < best.size(); ++k) {
    save_file(best.size() == 1 ? seed : fs::path(seed).replace_extension("part" + std::to_string(k) + ".glb"), best[k]);
  }
  return best.size();
}

// `make_seeds --gltf OUT DIR...`: fuzz_gltf's seeds from the samples (never committed): every .glb as
// it is and every .gltf with its files embedded, or, past kSeedSize or what one execution should
// decode and author (cheap_to_fuzz), read and written again shrunk and split (save_shrunk); and
// every model file of another format exported to .glb, shrunk and split.
int gltf_seeds(const fs::path& out, const std::vector<fs::path>& dirs) {
  fs::create_directories(out);
  std::size_t n = 0, shrunk = 0, too_large = 0;
  for (const fs::path& dir : dirs) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
      if (e.is_regular_file(ec)) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      const fs::path seed = out / (std::to_string(n) + "-" + f.stem().string() + ".glb");
      if (f.extension() == ".glb" || f.extension() == ".gltf") {
        Result<Bytes> bytes = read_file(f);
        if (!bytes.ok()) continue;
        if (f.extension() == ".gltf") {
          const std::string text = embedded(f);
          bytes = Bytes(text.begin(), text.end());
        }
        Result<gltf::ReadScene> read = gltf::read_gltf(*bytes);
        if (bytes->size() <= kSeedSize && (!read.ok() || cheap_to_fuzz(read->scene))) {
          save_file(f.extension() == ".gltf" ? fs::path(seed).replace_extension(".gltf") : seed, *bytes);
          ++n;
        } else if (const std::size_t parts = read.ok() ? save_shrunk(seed, read->scene) : 0; parts != 0) {
          n += parts, shrunk += parts;
        } else if (read.ok()) {
          ++too_large;
        }
      } else if (Result<Bytes> bytes = read_file(f); bytes.ok()) {
        const std::optional<Format> format = detect_format(*bytes);
        if (!format || !scene::family_entry(*format).holds_model()) continue;
        Result<Document> doc = read_document(*bytes);
        if (!doc.ok()) continue;
        Result<scene::Scene> lifted = scene::lift(*doc);
        if (const std::size_t parts = lifted.ok() ? save_shrunk(seed, *lifted) : 0; parts != 0) {
          n += parts, shrunk += parts;
        } else if (lifted.ok()) {
          ++too_large;
        }
      }
    }
  }
  std::printf("wrote %zu glTF seeds (%zu shrunk or split) to %s; %zu models fit no seed\n", n, shrunk, out.c_str(), too_large);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--gltf") return gltf_seeds(argv[2], std::vector<fs::path>(argv + 3, argv + argc));
  if (argc != 2) {
    std::fputs("usage: make_seeds CORPUS_DIR | make_seeds --gltf OUT SAMPLES_DIR...\n", stderr);
    return 2;
  }
  const fs::path root = argv[1];
  auto save = [&](const char* target, const char* name, const Result<Bytes>& bytes) {
    if (!bytes.ok()) {
      std::fprintf(stderr, "%s: %s\n", name, bytes.error().describe().c_str());
      std::exit(1);
    }
    fs::create_directories(root / target);
    std::ofstream(root / target / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
  };
  const PmoFile demo = build_demo_pmo();
  save("kh_bbs_pmo", "demo.pmo", write_pmo_file(demo));
  PmoFile bare = demo;
  bare.pmo.skeleton.reset();
  for (PmoSection& s : bare.pmo.mesh0->sections) s.joints.reset();
  bare.pmo.mesh1 = bare.pmo.mesh0;
  bare.pmo.mesh0.reset();
  save("kh_bbs_pmo", "static-mesh1.pmo", write_pmo_file(bare));

  Pmp pmp;
  Pmo inner = bare.pmo;
  inner.tim2s.clear();
  pmp.textures = inner.textures;
  pmp.tim2s = demo.pmo.tim2s;
  pmp.pmos = {inner};
  pmp.objects.resize(2);
  pmp.objects[0].pmo = 0;
  save("kh_bbs_pmp", "demo.pmp", write_pmp(pmp));

  save("tim2", "demo.tm2", write_tim2_file(Tim2File{demo.pmo.tim2s[0], {}}));
  // One picture of every other TIM2 pixel type, odd sizes, a CSM2 CLUT: the texture codec's variants.
  for (const auto& [name, image_type, clut_type] : {std::tuple{"rgba5551.tm2", 1, 0}, {"rgb888.tm2", 2, 0}, {"rgba8888.tm2", 3, 0},
                                                    {"clut4-odd.tm2", 4, 1}, {"clut8-csm2.tm2", 5, 0x83}}) {
    Tim2File f{demo.pmo.tim2s[0], {}};
    Tim2Picture& p = f.tim2.pictures[0];
    p.image_type = static_cast<std::uint8_t>(image_type);
    p.clut_type = static_cast<std::uint8_t>(clut_type);
    p.width = 5, p.height = 3;
    p.gs_tex0 = tim2_gs_tex0(p);  // the registers follow the type and size, as authoring sets them
    const unsigned bits = image_type == 1 ? 16 : image_type == 2 ? 24 : image_type == 3 ? 32 : image_type == 4 ? 4 : 8;
    p.image.assign((5 * bits + 7) / 8 * 3, 0);
    for (std::size_t i = 0; i < p.image.size(); ++i) p.image[i] = static_cast<std::uint8_t>(i * 37 % (bits == 4 ? 256 : 251));
    p.clut_colors = static_cast<std::uint16_t>(image_type == 4 ? 16 : image_type == 5 ? 256 : 0);
    p.clut.assign(p.clut_colors * tim2_clut_entry_size(p.clut_type), 0);
    for (std::size_t i = 0; i < p.clut.size(); ++i) p.clut[i] = static_cast<std::uint8_t>(i * 13);
    save("tim2", name, write_tim2_file(f));
  }

  // GX codec inputs (fuzz/gx_texture_input.hpp): every format at a partial-tile size with mip levels,
  // the indexed ones with each palette format.
  for (std::uint8_t format : {0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 14}) {
    for (std::uint8_t palette_format = 0; palette_format < (gx_is_indexed(format) ? 3 : 1); ++palette_format) {
      Bytes input = {format, palette_format, 13, 9, 3, 16, 0, 0};
      for (int i = 0; i < 32 + 1024; ++i) input.push_back(static_cast<std::uint8_t>((i * 29 + format) % 16));  // indices below 16
      const std::string name =
          std::string(gx_format_name(format)) + (gx_is_indexed(format) ? std::string("-") + gx_palette_format_name(palette_format) : "") + ".gx";
      save("gx_texture", name.c_str(), Result<Bytes>(input));
    }
  }

  const Pam pam = build_demo_pam();
  save("kh_bbs_pam", "demo.pam", write_pam(pam));
  save("kh_bbs_pam", "sway.anim", write_pam_anim_file(PamAnimFile{pam.animations[0]}));
  save("kh_bbs_pam", "long.anim", write_pam_anim_file(PamAnimFile{pam.animations[1]}));

  const Pac pac = build_demo_mhfu_pac();
  save("mhfu_pac", "demo.pac", write_pac(pac));
  save("mhfu_pmo", "demo.pmo", write_mhfu_pmo_file(std::get<MhfuPmoFile>(pac.entries[0].content)));
  save("mhfu_skeleton", "demo.skel", write_mhfu_skeleton_file(std::get<MhfuSkeletonFile>(pac.entries[1].content)));
  save("tmh", "demo.tmh", write_tmh_file(std::get<TmhFile>(pac.entries[2].content)));

  // The BWM seeds are the golden files the tests write by hand from the spec.
  save("bwm", "v5-model.bwm", golden::bwm_v5_model());
  save("bwm", "v6-model.bwm", golden::bwm_v6_model());
  save("bwm", "skin.bwm", golden::bwm_skin());

  // A small J3D authored as `remodel import` authors one: the demo grid (3x3 vertices on two joints,
  // an 8x8 texture, vertex colours), so its tables are the encoders' own.
  auto j3d = scene::author(scene::demo_grid(3, 3), Format::j3d);
  if (!j3d) {
    std::fprintf(stderr, "demo.bmd: %s\n", j3d.error().describe().c_str());
    return 1;
  }
  save("j3d", "demo.bmd", write_document(j3d->document));

  const Result<Bytes> arc = write_rarc(build_demo_rarc());
  save("rarc", "demo.arc", arc);
  save("yaz0", "demo.szs", write_yaz0(Yaz0File{*arc, 0, 0, {}, true, {}}));

  // A BCK: one joint, scale x keyed twice (tangent In), translation y 5, everything else one value.
  J3dAnimFile bck;
  J3dAnk1 ank;
  ank.loop_mode = 2;
  ank.angle_scale = 1;
  ank.duration = 30;
  J3dJointAnim joint;
  for (auto& t : joint.scale) t.values = {1.0f};
  for (auto& t : joint.rotation) t.values = {0};
  for (auto& t : joint.translation) t.values = {0.0f};
  joint.scale[0].count = 2;
  joint.scale[0].values = {0.0f, 1.0f, 0.0f, 30.0f, 2.0f, 0.5f};
  joint.translation[1].values = {5.0f};
  ank.joints.push_back(joint);
  bck.section = ank;
  save("j3d_anim", "one_joint.bck", write_j3d_anim(bck));

  // A BCA as Nintendo's converter writes one: one joint, scale x over 3 frames, the file cut before
  // its closing filler.
  J3dAnimFile bca;
  bca.type = {'b', 'c', 'a', '1'};
  bca.closing_filler_cut = true;
  J3dAnf1 anf;
  anf.loop_mode = 2;
  anf.duration = 3;
  J3dFullFrameJoint frames;
  for (auto& t : frames.scale) t.values = {1.0f};
  for (auto& t : frames.rotation) t.values = {0};
  for (auto& t : frames.translation) t.values = {0.0f};
  frames.scale[0].values = {1.0f, 1.5f, 2.0f};
  frames.rotation[1].values = {0, 0x2000, 0x4000};
  anf.joints.push_back(frames);
  anf.gap_after_translations = Verbatim(Bytes{});  // no closing filler
  bca.section = anf;
  save("j3d_anim", "one_joint.bca", write_j3d_anim(bca));

  // A BTP: two materials' texture indices over 3 frames.
  J3dAnimFile btp;
  btp.type = {'b', 't', 'p', '1'};
  J3dTpt1 tpt;
  tpt.duration = 3;
  tpt.patterns.resize(2);
  tpt.patterns[0].textures.values = {0, 1, 2};
  tpt.patterns[1].textures.values = {1};
  tpt.patterns[1].material_index = 1;
  tpt.material_names.names = {"eye_L", "eye_R"};
  btp.section = tpt;
  save("j3d_anim", "two_materials.btp", write_j3d_anim(btp));

  // A BVA: two shapes, one blinking, one always shown.
  J3dAnimFile bva;
  bva.type = {'b', 'v', 'a', '1'};
  J3dVaf1 vaf;
  vaf.loop_mode = 2;
  vaf.duration = 4;
  vaf.shapes.resize(2);
  vaf.shapes[0].values = {1, 0, 1, 0};
  vaf.shapes[1].values = {1};
  bva.section = vaf;
  save("j3d_anim", "two_shapes.bva", write_j3d_anim(bva));

  // A BTK: one texture matrix on "mat", S scale keyed twice (tangent mode 1), the rest one value each.
  J3dAnimFile btk;
  btk.type = {'b', 't', 'k', '1'};
  J3dTtk1 ttk;
  ttk.duration = 20;
  J3dTexMtxAnim tex;
  tex.centre = {0.5f, 0.5f, 0.5f};
  tex.keys = joint;
  for (auto* axes : {&tex.keys.scale, &tex.keys.translation}) {
    for (J3dFloatTrack& t : *axes) t.tangent_mode = 1;  // every shipped BTK, BRK and BPK stores mode 1
  }
  for (J3dAngleTrack& t : tex.keys.rotation) t.tangent_mode = 1;
  tex.keys.scale[0].values = {0.0f, 1.0f, 0.0f, 0.0f, 20.0f, 2.0f, 0.5f, 0.25f};
  ttk.anims.push_back(tex);
  ttk.names.names = {"mat"};
  btk.section = ttk;
  save("j3d_anim", "one_matrix.btk", write_j3d_anim(btk));

  // A BRK with one register and one konstant colour, and a BPK with two materials: R keyed twice.
  J3dColourAnim colour;
  for (auto& t : colour.rgba) {
    t.values = {255};
    t.tangent_mode = 1;
  }
  colour.rgba[0].count = 2;
  colour.rgba[0].values = {0, 0, 0, 0, 10, 255, 0, 0};
  J3dAnimFile brk;
  brk.type = {'b', 'r', 'k', '1'};
  J3dTrk1 trk;
  trk.duration = 10;
  trk.registers.anims = {colour};
  trk.registers.names.names = {"reg"};
  trk.konstants.anims = {colour};
  trk.konstants.anims[0].colour_id = 3;
  trk.konstants.names.names = {"kon"};
  brk.section = trk;
  save("j3d_anim", "register_konstant.brk", write_j3d_anim(brk));
  J3dAnimFile bpk;
  bpk.type = {'b', 'p', 'k', '1'};
  J3dPak1 pak;
  pak.duration = 10;
  pak.colours.anims = {colour, colour};
  pak.colours.anims[1].remap = 1;
  pak.colours.names.names = {"a", "b"};
  bpk.section = pak;
  save("j3d_anim", "two_materials.bpk", write_j3d_anim(bpk));
  return 0;
}
