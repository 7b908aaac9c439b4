// Writes the seed corpus the project builds itself: fuzz/corpus/<target>/.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "model/kh_bbs_demo.hpp"
#include "model/kh_bbs_pmo.hpp"
#include "bwm_golden.hpp"
#include "model/mhfu_demo.hpp"

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
  return 0;
}
