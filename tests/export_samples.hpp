// The one table of samples the glTF export and the glTF reader are tested on (tests/gltf/test_export.cpp,
// tests/gltf/test_reader.cpp).
#pragma once

#include <filesystem>
#include <memory>
#include <vector>

#include "model/document.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"

namespace remodel::test {

// The samples every export is tested on, relative to the samples folder (or to fuzz/corpus for the
// hand-written BWM golden files: no public BWM sample exists). Lift helpers: add your format's samples
// here when your lift lands (with the --anim/--skeleton/--textures they need).
// Not listed: kh-bbs/pam/p03ex00021e.anim (its 51-bone model is not among the samples).
struct ExportSample {
  const char* file;
  std::vector<const char*> anims = {};
  const char* skeleton = nullptr;
  const char* textures = nullptr;
  bool corpus = false;  // under fuzz/corpus instead of the samples folder
};
const std::vector<ExportSample> kExportSamples = {
    {"kh-bbs/pmo/bbs-dummy.pmo"},
    {"kh-bbs/pmo/g59dc00.pmo"},
    {"kh-bbs/pmo/h03ex00.pmo"},
    {"kh-bbs/pmo/p01ex00.pmo"},
    {"kh-bbs/pmo/p01ex00.pmo", {"kh-bbs/pam/test.pam"}},
    {"kh-bbs/pmo/p01ex00.pmo", {"kh-bbs/pam/p01ex00001a.pam"}},
    {"kh-bbs/pmp/bbs-testmap.pmp"},
    {"kh-bbs/pmp/jb_50.pmp"},
    {"mhfu/f_hair000_original.pac"},
    {"mhfu/f_hair097_rathalos_soul_cap.pac"},
    {"mhfu/f_hair000_original.0.pmo", {}, "mhfu/f_hair000_original.1.skel", "mhfu/f_hair000_original.2.tmh"},
    {"mhfu/f_hair097_rathalos_soul_cap.0.pmo", {}, "mhfu/f_hair097_rathalos_soul_cap.1.skel",
     "mhfu/f_hair097_rathalos_soul_cap.2.tmh"},
    {"j3d/mkdd_mariotree1.bmd"},
    {"j3d/mkdd_mariotree1.bmd", {"j3d-anim/mkdd_mariotree1/mariotree1_wait.bck", "j3d-anim/mkdd_mariotree1/mariotree1_wait.bca"}},
    {"j3d-anim/pik2_piki/piki_p2_red.bmd",
     {"j3d-anim/pik2_piki/akubi.bca", "j3d-anim/pik2_piki/chatting.bca", "j3d-anim/pik2_piki/damage.bca", "j3d-anim/pik2_piki/dead.bca",
      "j3d-anim/pik2_piki/jump.bca", "j3d-anim/pik2_piki/nukareru.bca", "j3d-anim/pik2_piki/run2.bca", "j3d-anim/pik2_piki/throw.bca",
      "j3d-anim/pik2_piki/wait.bca", "j3d-anim/pik2_piki/walk.bca"}},
    {"j3d/riistudio_Mario.bdl"},
    {"j3d/riistudio_Mario.bdl", {"j3d-anim/smg_mario/ghostmario.btk", "j3d-anim/smg_mario/grandstarget.btp"}},
    {"j3d/riistudio_ReverseGravity2DDossunPlanet.bdl"},
    {"j3d/riistudio_driver.bmd"},
    {"j3d/riistudio_resaved_ReverseGravity2DDossunPlanet.bdl"},
    {"j3d/smg_lavarotateplanet.bdl"},
    {"j3d/smg_lavarotateplanet.bdl", {"j3d-anim/smg_lavarotateplanet/lavarotateplanet.btk"}},
    {"j3d/smg_poltaformationrock.bdl"},
    {"j3d/smg_poltaformationrock.bdl", {"j3d-anim/smg_poltaformationrock/repairarml.bck", "j3d-anim/smg_poltaformationrock/repairarmr.bck"}},
    {"j3d/smg_poltaformationrock.bdl", {"j3d-anim/smg_poltaformationrock/openingdemo.bva", "j3d-anim/smg_poltaformationrock/repairarml.bva"}},
    {"j3d/sms_coin.bmd"},
    {"j3d/sms_ma_mdl1.bmd"},
    {"j3d/sms_ma_mdl1.bmd", {"j3d-anim/sms_mario/ma_jump.bck", "j3d-anim/sms_mario/ma_wait.bck", "j3d-anim/sms_mario/ma_wink_tx.btp"}},
    {"j3d/sms_mom_model.bmd"},
    {"j3d/sms_testmap_map.bmd"},
    {"j3d/sms_testmap_sky.bmd"},
    {"j3d/sms_watermask.bmd"},
    {"j3d/superbmd_mkdd_extender_cup.bmd"},
    {"j3d/ww_Windfall_1.bdl"},
    {"j3d/ww_cl.bdl"},
    {"j3d/ww_cl.bdl", {"j3d-anim/ww_link/rise.bck", "j3d-anim/ww_link/walk.bck"}},
    {"j3d/ww_cl.bdl", {"j3d-anim/ww_link/tboxopenlink.btk", "j3d-anim/ww_link/titemget.btk", "j3d-anim/ww_link/titemget.btp"}},
    {"j3d/ww_jb.bdl"},
    {"j3d/ww_jb.bdl", {"j3d-anim/ww_jabun/18_jb_cut12_lookwait_l.bck"}},
    {"j3d/ww_ka.bdl"},
    {"j3d/ww_letter.bdl"},
    {"j3d/ww_vr_sky.bdl"},
    {"bwm/skin.bwm", {}, nullptr, nullptr, true},
    {"bwm/v5-model.bwm", {}, nullptr, nullptr, true},
    {"bwm/v6-model.bwm", {}, nullptr, nullptr, true},
};

inline std::filesystem::path sample_path(const ExportSample& s) {
  return (s.corpus ? std::filesystem::path(REMODEL_CORPUS) : samples_root()) / s.file;
}

// The sample and its inputs read, and the Scene `remodel export` makes of them.
struct LiftedSample {
  Document document;
  std::vector<std::unique_ptr<Document>> inputs;  // animations, skeleton, textures
  const Document* skeleton = nullptr;             // the skeleton among them, for a lower
  Result<scene::Scene> scene = Error{};
};

inline std::unique_ptr<LiftedSample> lift_sample(const ExportSample& s) {
  const std::filesystem::path root = s.corpus ? std::filesystem::path(REMODEL_CORPUS) : samples_root();
  auto out = std::make_unique<LiftedSample>();
  const auto read = [&](const char* file) -> Result<Document> { return read_document(load_file(root / file)); };
  auto doc = read(s.file);
  if (!doc) {
    out->scene = doc.error();
    return out;
  }
  out->document = std::move(*doc);
  scene::LiftInputs inputs;
  std::vector<const char*> files = s.anims;
  if (s.skeleton) files.push_back(s.skeleton);
  if (s.textures) files.push_back(s.textures);
  for (const char* f : files) {
    auto d = read(f);
    if (!d) {
      out->scene = d.error();
      return out;
    }
    out->inputs.push_back(std::make_unique<Document>(std::move(*d)));
    const Document* in = out->inputs.back().get();
    if (f == s.skeleton) inputs.skeleton = &std::get<MhfuSkeletonFile>(*in), out->skeleton = in;
    else if (f == s.textures) inputs.textures = &std::get<TmhFile>(*in);
    else inputs.animations.push_back(in);
  }
  out->scene = scene::lift(out->document, inputs);
  return out;
}

}  // namespace remodel::test
