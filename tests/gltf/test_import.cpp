// glTF import over the original: every sample of the one table below exported, read back and
// lowered over its own file gives the original bytes, from a .glb, from a .gltf with its .bin and
// PNGs in a directory, and from the .glb re-serialised by tinygltf's writer (other buffer layout and
// JSON order, extras keys sorted). A PAM row exports its PMO with the PAM and imports over the PAM
// on the PMO's skeleton, as `remodel import IN --like X.pam --skeleton Y.pmo` does.
#include <gtest/gtest.h>

#include <tiny_gltf.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "cli/cli.hpp"
#include "families.hpp"
#include "export_samples.hpp"
#include "gltf/gltf.hpp"
#include "model/file_io.hpp"
#include "scene/lower.hpp"

namespace remodel {
namespace {

namespace fs = std::filesystem;
using test::ExportSample;

// One row: the sample exported as the export table does, and the file it is imported over (--like):
// the sample itself, or for a PAM the animation, lowered on the sample's skeleton (--skeleton).
struct ImportSample {
  ExportSample exported;
  const char* like = nullptr;  // an animation among exported.anims; null = exported.file
};

// Every row must import to its original's bytes; a row whose lower fails, fails.
const std::vector<ImportSample> kImportSamples = {
    {{"kh-bbs/pmo/bbs-dummy.pmo"}},
    {{"kh-bbs/pmo/g59dc00.pmo"}},
    {{"kh-bbs/pmo/h03ex00.pmo"}},
    {{"kh-bbs/pmo/p01ex00.pmo"}},
    {{"kh-bbs/pmo/p01ex00.pmo", {"kh-bbs/pam/test.pam"}}, "kh-bbs/pam/test.pam"},
    {{"kh-bbs/pmo/p01ex00.pmo", {"kh-bbs/pam/p01ex00001a.pam"}}, "kh-bbs/pam/p01ex00001a.pam"},
    {{"kh-bbs/pmp/bbs-testmap.pmp"}},
    {{"kh-bbs/pmp/jb_50.pmp"}},
    {{"mhfu/f_hair000_original.pac"}},
    {{"mhfu/f_hair097_rathalos_soul_cap.pac"}},
    {{"mhfu/f_hair000_original.0.pmo", {}, "mhfu/f_hair000_original.1.skel", "mhfu/f_hair000_original.2.tmh"}},
    {{"mhfu/f_hair097_rathalos_soul_cap.0.pmo", {}, "mhfu/f_hair097_rathalos_soul_cap.1.skel",
      "mhfu/f_hair097_rathalos_soul_cap.2.tmh"}},
    {{"j3d/mkdd_mariotree1.bmd"}},
    {{"j3d/riistudio_Mario.bdl"}},
    {{"j3d/riistudio_ReverseGravity2DDossunPlanet.bdl"}},
    {{"j3d/riistudio_driver.bmd"}},
    {{"j3d/riistudio_resaved_ReverseGravity2DDossunPlanet.bdl"}},
    {{"j3d/smg_lavarotateplanet.bdl"}},
    {{"j3d/smg_poltaformationrock.bdl"}},
    {{"j3d/sms_coin.bmd"}},
    {{"j3d/sms_ma_mdl1.bmd"}},
    {{"j3d/sms_mom_model.bmd"}},
    {{"j3d/sms_testmap_map.bmd"}},
    {{"j3d/sms_testmap_sky.bmd"}},
    {{"j3d/sms_watermask.bmd"}},
    {{"j3d/superbmd_mkdd_extender_cup.bmd"}},
    {{"j3d/ww_Windfall_1.bdl"}},
    {{"j3d/ww_cl.bdl"}},
    {{"j3d/ww_jb.bdl"}},
    {{"j3d/ww_ka.bdl"}},
    {{"j3d/ww_letter.bdl"}},
    {{"j3d/ww_vr_sky.bdl"}},
    {{"bwm/skin.bwm", {}, nullptr, nullptr, true}},
    {{"bwm/v5-model.bwm", {}, nullptr, nullptr, true}},
    {{"bwm/v6-model.bwm", {}, nullptr, nullptr, true}},
};

// The .glb as tinygltf reads and writes it back, changing nothing it was not made to.
Bytes tinygltf_resaved(const Bytes& glb) {
  tinygltf::TinyGLTF loader;
  tinygltf::Model model;
  std::string err, warn;
  EXPECT_TRUE(loader.LoadBinaryFromMemory(&model, &err, &warn, glb.data(), static_cast<unsigned>(glb.size()), "")) << err;
  std::ostringstream out;
  EXPECT_TRUE(loader.WriteGltfSceneToStream(&model, out, false, true));
  const std::string s = out.str();
  return Bytes(s.begin(), s.end());
}

// The Document a row is imported over and what lowering it needs besides (a PAM's skeleton: the PMO).
struct Base {
  const Document* document = nullptr;
  scene::LowerInputs inputs;
};

Base base_of(const ImportSample& row, const test::LiftedSample& sample) {
  Base b{&sample.document, {}};
  b.inputs.skeleton = sample.skeleton;
  if (row.like == nullptr) return b;
  const auto& anims = row.exported.anims;
  const auto at = static_cast<std::size_t>(std::find(anims.begin(), anims.end(), row.like) - anims.begin());
  EXPECT_LT(at, anims.size()) << row.like << " is not among the row's animations";
  if (at >= anims.size() || at >= sample.inputs.size()) return b;
  b.document = sample.inputs[at].get();
  b.inputs.skeleton = &sample.document;
  return b;
}

// Lowers what was read over the base and checks the bytes written are the original's.
void expect_original(const Base& base, const Bytes& original, const Result<gltf::ReadScene>& read, const std::string& what) {
  ASSERT_TRUE(read.ok()) << what << ": " << read.error().describe();
  auto lowered = scene::lower(read->scene, *base.document, base.inputs);
  ASSERT_TRUE(lowered.ok()) << what << ": " << lowered.error().describe();
  auto bytes = write_document(lowered->document);
  ASSERT_TRUE(bytes.ok()) << what << ": " << bytes.error().describe();
  EXPECT_TRUE(*bytes == original) << what << ": the import differs from the original (" << bytes->size() << " bytes, original "
                                   << original.size() << ")";
}

class GltfImportSamples : public ::testing::TestWithParam<const char*> {};

TEST_P(GltfImportSamples, UnchangedExportImportsToTheOriginalBytes) {
  const std::string family = std::string(GetParam()) + "/";
  const fs::path dir = test::cli_temp_dir("gltf-import-" + std::string(GetParam()));
  std::size_t tested = 0;
  for (const ImportSample& row : kImportSamples) {
    const ExportSample& s = row.exported;
    if (std::string(s.file).rfind(family, 0) != 0) continue;
    const fs::path original_path = row.like ? test::samples_root() / row.like : test::sample_path(s);
    if (!fs::exists(test::sample_path(s)) || !fs::exists(original_path)) {
      if (s.corpus || test::samples_required()) ADD_FAILURE() << original_path << " or " << test::sample_path(s) << " is missing";
      continue;
    }
    const std::string name = row.like ? row.like : s.file;
    const Bytes original = test::load_file(original_path);
    auto sample = test::lift_sample(s);
    ASSERT_TRUE(sample->scene.ok()) << name << ": " << sample->scene.error().describe();
    const Base base = base_of(row, *sample);
    auto glb = gltf::write_glb(*sample->scene);
    ASSERT_TRUE(glb.ok()) << name << ": " << glb.error().describe();
    expect_original(base, original, gltf::read_gltf(*glb), name + " from .glb");

    const std::string stem = fs::path(name).stem().string();
    auto files = gltf::write_gltf(*sample->scene, stem);
    ASSERT_TRUE(files.ok()) << name << ": " << files.error().describe();
    const fs::path gltf_path = dir / (stem + ".gltf");
    for (const gltf::Resource& r : files->resources) ASSERT_TRUE(write_file_atomic(dir / r.uri, r.data).ok()) << r.uri;
    ASSERT_TRUE(write_file_atomic(gltf_path, files->gltf).ok());
    expect_original(base, original, gltf::read_gltf_file(gltf_path), name + " from .gltf");

    expect_original(base, original, gltf::read_gltf(tinygltf_resaved(*glb)), name + " from tinygltf's re-serialisation");
    ++tested;
  }
  fs::remove_all(dir);
  if (tested == 0) GTEST_SKIP() << "no " << family << " samples in " << test::samples_root();
}

INSTANTIATE_TEST_SUITE_P(Families, GltfImportSamples, ::testing::ValuesIn(test::family_names()),
                         [](const auto& info) { return test::identifier(info.param); });

}  // namespace
}  // namespace remodel
