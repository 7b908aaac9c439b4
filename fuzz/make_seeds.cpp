// Writes the seed corpus the project builds itself: fuzz/corpus/<target>/.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "model/kh_bbs/demo.hpp"
#include "model/kh_bbs/pmo.hpp"
#include "bwm_golden.hpp"
#include "model/gx/texture.hpp"
#include "model/mhfu/demo.hpp"
#include "model/psp/texture.hpp"
#include "scene/demo.hpp"
#include "scene/lower.hpp"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace remodel;
  if (argc != 2) {
    std::fputs("usage: make_seeds CORPUS_DIR\n", stderr);
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
  return 0;
}
