// glTF import over the original: every sample of the one table below exported, read back and
// lowered over its own file gives the original bytes, from a .glb, from a .gltf with its .bin and
// PNGs in a directory, and from the .glb re-serialised by tinygltf's writer (other buffer layout and
// JSON order, extras keys sorted). Lower helpers: add your format's samples when your lower lands.
#include <gtest/gtest.h>

#include <tiny_gltf.h>

#include <filesystem>
#include <sstream>

#include "cli.hpp"
#include "export_samples.hpp"
#include "gltf/gltf.hpp"
#include "model/file_io.hpp"
#include "scene/lower.hpp"

namespace remodel {
namespace {

namespace fs = std::filesystem;
using test::ExportSample;

// Every row must import to its original's bytes; a row whose lower fails, fails.
const std::vector<ExportSample> kImportSamples = {
    {"mhfu/f_hair000_original.pac"},
    {"mhfu/f_hair097_rathalos_soul_cap.pac"},
    {"mhfu/f_hair000_original.0.pmo", {}, "mhfu/f_hair000_original.1.skel", "mhfu/f_hair000_original.2.tmh"},
    {"mhfu/f_hair097_rathalos_soul_cap.0.pmo", {}, "mhfu/f_hair097_rathalos_soul_cap.1.skel",
     "mhfu/f_hair097_rathalos_soul_cap.2.tmh"},
    {"j3d/mkdd_mariotree1.bmd"},
    {"j3d/riistudio_Mario.bdl"},
    {"j3d/riistudio_ReverseGravity2DDossunPlanet.bdl"},
    {"j3d/riistudio_driver.bmd"},
    {"j3d/riistudio_resaved_ReverseGravity2DDossunPlanet.bdl"},
    {"j3d/smg_lavarotateplanet.bdl"},
    {"j3d/smg_poltaformationrock.bdl"},
    {"j3d/sms_coin.bmd"},
    {"j3d/sms_ma_mdl1.bmd"},
    {"j3d/sms_mom_model.bmd"},
    {"j3d/sms_testmap_map.bmd"},
    {"j3d/sms_testmap_sky.bmd"},
    {"j3d/sms_watermask.bmd"},
    {"j3d/superbmd_mkdd_extender_cup.bmd"},
    {"j3d/ww_Windfall_1.bdl"},
    {"j3d/ww_cl.bdl"},
    {"j3d/ww_jb.bdl"},
    {"j3d/ww_ka.bdl"},
    {"j3d/ww_letter.bdl"},
    {"j3d/ww_vr_sky.bdl"},
    {"bwm/skin.bwm", {}, nullptr, nullptr, true},
    {"bwm/v5-model.bwm", {}, nullptr, nullptr, true},
    {"bwm/v6-model.bwm", {}, nullptr, nullptr, true},
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

// Lowers what was read over the sample and checks the bytes written are the original's.
void expect_original(const test::LiftedSample& sample, const Bytes& original, const Result<gltf::ReadScene>& read, const std::string& what) {
  ASSERT_TRUE(read.ok()) << what << ": " << read.error().describe();
  scene::LowerInputs inputs;
  inputs.skeleton = sample.skeleton;
  auto lowered = scene::lower(read->scene, sample.document, inputs);
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
  for (const ExportSample& s : kImportSamples) {
    if (std::string(s.file).rfind(family, 0) != 0) continue;
    if (!fs::exists(test::sample_path(s))) {
      if (s.corpus || test::samples_required()) ADD_FAILURE() << test::sample_path(s) << " is missing";
      continue;
    }
    const Bytes original = test::load_file(test::sample_path(s));
    auto sample = test::lift_sample(s);
    ASSERT_TRUE(sample->scene.ok()) << s.file << ": " << sample->scene.error().describe();
    auto glb = gltf::write_glb(*sample->scene);
    ASSERT_TRUE(glb.ok()) << s.file << ": " << glb.error().describe();
    expect_original(*sample, original, gltf::read_gltf(*glb), std::string(s.file) + " from .glb");

    auto files = gltf::write_gltf(*sample->scene, fs::path(s.file).stem().string());
    ASSERT_TRUE(files.ok()) << s.file << ": " << files.error().describe();
    const fs::path gltf_path = dir / (fs::path(s.file).stem().string() + ".gltf");
    for (const gltf::Resource& r : files->resources) ASSERT_FALSE(write_file_atomic(dir / r.uri, r.data)) << r.uri;
    ASSERT_FALSE(write_file_atomic(gltf_path, files->gltf));
    expect_original(*sample, original, gltf::read_gltf_file(gltf_path), std::string(s.file) + " from .gltf");

    expect_original(*sample, original, gltf::read_gltf(tinygltf_resaved(*glb)), std::string(s.file) + " from tinygltf's re-serialisation");
    ++tested;
  }
  fs::remove_all(dir);
  if (tested == 0) GTEST_SKIP() << "no " << family << " samples in " << test::samples_root();
}

INSTANTIATE_TEST_SUITE_P(Families, GltfImportSamples, ::testing::Values("mhfu", "j3d", "bwm"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace remodel
