// Every sample in the one table below exported by `remodel export` to .glb and .gltf, and every
// export checked by the Khronos glTF-Validator (tools/gltf-validate.mjs): zero errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "export_samples.hpp"
#include "samples.hpp"
#include "families.hpp"

namespace remodel {
namespace {

namespace fs = std::filesystem;

bool validator_installed() {
  const std::string probe = "node -e \"require.resolve('gltf-validator', {paths: ['" + fs::path(REMODEL_GLTF_VALIDATE).parent_path().string() +
                            "']})\" >/dev/null 2>&1";
  return std::system(probe.c_str()) == 0;
}

// Runs the validator over `files`; one JSON summary per file, keyed by path.
std::vector<nlohmann::json> validate(const std::vector<fs::path>& files, std::string& raw) {
  std::string cmd = "node ";
  cmd += test::quoted(REMODEL_GLTF_VALIDATE);
  cmd += " --json";
  for (const fs::path& f : files) {
    cmd += ' ';
    cmd += test::quoted(f);
  }
  cmd += " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return {};
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) raw.append(buf, n);
  pclose(p);
  std::vector<nlohmann::json> out;
  std::istringstream lines(raw);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] == '{') out.push_back(nlohmann::json::parse(line, nullptr, false));
  }
  return out;
}

void expect_valid(const std::vector<fs::path>& files) {
  std::string raw;
  const std::vector<nlohmann::json> reports = validate(files, raw);
  ASSERT_EQ(reports.size(), files.size()) << raw;
  for (const nlohmann::json& r : reports) {
    ASSERT_TRUE(r.is_object()) << raw;
    EXPECT_EQ(r["errors"], 0) << r.dump(1);
    // Warnings are listed (the issue note gives a reason for each), not failures.
    for (const auto& m : r["messages"]) {
      if (m["severity"] != "error") std::printf("  %s: %s %s\n", r["file"].get<std::string>().c_str(), m["code"].get<std::string>().c_str(), m["pointer"].dump().c_str());
    }
  }
}

#define VALIDATOR_OR_SKIP()                                                                                    \
  if (!validator_installed()) {                                                                                \
    if (test::samples_required()) FAIL() << "the glTF-Validator is not installed: run tools/install-deps.sh"; \
    GTEST_SKIP() << "the glTF-Validator is not installed (tools/install-deps.sh installs it)";              \
  }

TEST(GltfExport, DemoScenesAreValid) {
  VALIDATOR_OR_SKIP();
  const fs::path dir = test::cli_temp_dir("gltf-demo");
  for (const char* name : {"demo.glb", "demo.gltf"}) {
    const test::CliRun r = test::run_cli("demo " + test::quoted(dir / name));
    ASSERT_EQ(r.status, 0) << r.out;
  }
  EXPECT_TRUE(fs::exists(dir / "demo.bin"));
  EXPECT_TRUE(fs::exists(dir / "demo_0_checker.png"));
  // The quickstart's main job: the demo PMO built in code, exported through the KH BBS lift.
  ASSERT_EQ(test::run_cli("demo " + test::quoted(dir / "cube.pmo")).status, 0);
  for (const char* name : {"cube.glb", "cube.gltf"}) {
    const test::CliRun r = test::run_cli("export " + test::quoted(dir / "cube.pmo") + " -o " + test::quoted(dir / name));
    ASSERT_EQ(r.status, 0) << r.out;
  }
  expect_valid({dir / "demo.glb", dir / "demo.gltf", dir / "cube.glb", dir / "cube.gltf"});
  fs::remove_all(dir);
}

// One test per family (the table's first path component), so each stays far from its timeout.
class GltfExportSamples : public ::testing::TestWithParam<const char*> {};

TEST_P(GltfExportSamples, ExportAndValidate) {
  VALIDATOR_OR_SKIP();
  const std::string family = std::string(GetParam()) + "/";
  // A model may sit in its family's animation folder beside its animations (j3d-anim/pik2_piki).
  std::string animations = "-";
  for (const test::Family& f : test::kFamilies) {
    if (f.name == std::string(GetParam()) && f.animations != nullptr) animations = std::string(f.animations) + "/";
  }
  const fs::path samples = test::samples_root(), corpus = REMODEL_CORPUS;
  std::vector<const test::ExportSample*> present;
  for (const test::ExportSample& s : test::kExportSamples) {
    if (std::string(s.file).rfind(family, 0) != 0 && std::string(s.file).rfind(animations, 0) != 0) continue;
    const fs::path root = s.corpus ? corpus : samples;
    if (fs::exists(root / s.file)) present.push_back(&s);
    else if (s.corpus || test::samples_required()) ADD_FAILURE() << (root / s.file) << " is missing";
  }
  if (present.empty()) GTEST_SKIP() << "no " << family << " export samples in " << samples;
  const fs::path dir = test::cli_temp_dir("gltf-export-" + std::string(GetParam()));
  std::vector<fs::path> outputs;
  for (std::size_t i = 0; i < present.size(); ++i) {
    const test::ExportSample* s = present[i];
    const fs::path root = s->corpus ? corpus : samples;
    std::string extra;
    for (const char* a : s->anims) extra += " --anim " + test::quoted(root / a);
    if (s->skeleton) extra += " --skeleton " + test::quoted(root / s->skeleton);
    if (s->textures) extra += " --textures " + test::quoted(root / s->textures);
    const std::string stem = std::to_string(i) + "_" + fs::path(s->file).stem().string();
    for (const char* ext : {".glb", ".gltf"}) {
      const fs::path out = dir / (stem + ext);
      const test::CliRun r = test::run_cli("export " + test::quoted(root / s->file) + extra + " -o " + test::quoted(out));
      EXPECT_EQ(r.status, 0) << s->file << ": " << r.out;
      if (r.status == 0) outputs.push_back(out);
    }
  }
  for (const auto& e : fs::directory_iterator(dir)) {
    EXPECT_EQ(e.path().string().find(".remodel-tmp"), std::string::npos) << "a temporary file was left: " << e.path();
  }
  expect_valid(outputs);
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Families, GltfExportSamples, ::testing::ValuesIn(test::family_names()),
                         [](const auto& info) { return test::identifier(info.param); });

// An archive exported whole: its model with the BCKs it holds of the model's joint count, valid glTF.
TEST(GltfExport, AnArchivesModelTakesItsAnimations) {
  VALIDATOR_OR_SKIP();
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const fs::path dir = test::cli_temp_dir("gltf-archive");
  const test::CliRun r = test::run_cli("export " + test::quoted(test::samples_root() / "archives" / "smg_PoltaFormationRock.arc") + " -o " +
                                       test::quoted(dir / "polta.glb"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("with 6 of the archive's animations"), std::string::npos) << r.out;
  expect_valid({dir / "polta.glb"});
  fs::remove_all(dir);
}

TEST(GltfExport, DirectoryExportReportsEachFailure) {
  const fs::path dir = test::cli_temp_dir("gltf-dir");
  fs::create_directories(dir / "in" / "sub");
  ASSERT_EQ(test::run_cli("demo " + test::quoted(dir / "in" / "sub" / "cube.pmo")).status, 0);
  test::run_cli("demo " + test::quoted(dir / "in" / "grid.glb"));  // not a model format: skipped
  {
    std::ofstream bad(dir / "in" / "broken.pmo", std::ios::binary);
    const Bytes cube = test::slurp(dir / "in" / "sub" / "cube.pmo");
    bad.write(reinterpret_cast<const char*>(cube.data()), 64);  // a PMO cut short
  }
  const test::CliRun r = test::run_cli("export " + test::quoted(dir / "in") + " -o " + test::quoted(dir / "out"));
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("error     " + (dir / "in" / "broken.pmo").string() + ": "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("skipped   " + (dir / "in" / "grid.glb").string()), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" failed, 1 skipped"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(dir / "out" / "broken.glb"));  // never a partial file
  fs::remove_all(dir);
}

TEST(GltfExport, UsageErrors) {
  EXPECT_EQ(test::run_cli("export").status, 2);
  EXPECT_EQ(test::run_cli("export x.pmo").status, 2);  // no -o
  EXPECT_EQ(test::run_cli("export x.pmo -o y.glb --bogus").status, 2);
  EXPECT_EQ(test::run_cli("export x.pmo -o y.glb --anim").status, 2);
  EXPECT_EQ(test::run_cli("export . -o y.glb").status, 2);  // a directory into one file
  const test::CliRun missing = test::run_cli("export /nonexistent/x.pmo -o /tmp/x.glb");
  EXPECT_EQ(missing.status, 1) << missing.out;
}

}  // namespace
}  // namespace remodel
