#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "model/document.hpp"
#include "model/image.hpp"
#include "model/kh_bbs/demo.hpp"
#include "model/mhfu/demo.hpp"
#include "model/mhfu/pac.hpp"
#include "model/mhfu/tmh.hpp"
#include "model/textures.hpp"
#include "bwm_golden.hpp"
#include "cli/cli.hpp"
#include "samples.hpp"
#include "scene/family_table.hpp"

namespace {

namespace fs = std::filesystem;
using remodel::Bytes;

using remodel::test::CliRun;
using remodel::test::slurp;
using remodel::test::spit;

CliRun run(const std::string& args) { return remodel::test::run_cli(args); }

fs::path temp_dir() { return remodel::test::cli_temp_dir("test"); }

TEST(Cli, UsageErrorsExitTwoAndHelpExitsZero) {
  EXPECT_EQ(run("").status, 2);
  EXPECT_EQ(run("frobnicate").status, 2);
  EXPECT_EQ(run("check").status, 2);
  EXPECT_EQ(run("info --bogus x").status, 2);
  for (const char* c : {"--help", "info --help", "check --help", "dump --help", "demo --help"}) {
    CliRun r = run(c);
    EXPECT_EQ(r.status, 0) << c;
    EXPECT_NE(r.out.find("usage"), std::string::npos) << c;
  }
}

// The commands `remodel --help` lists, each as its words ("textures list").
std::vector<std::string> listed_commands() {
  std::vector<std::string> names;
  std::istringstream help(run("--help").out);
  bool in_list = false;
  for (std::string line; std::getline(help, line);) {
    if (line == "commands:") in_list = true;
    if (!in_list || line.rfind("  ", 0) != 0 || line.rfind("      ", 0) == 0) continue;
    std::istringstream words(line);
    std::string name;
    for (std::string w; words >> w && std::islower(static_cast<unsigned char>(w[0]));) name += (name.empty() ? "" : " ") + w;
    names.push_back(name);
  }
  return names;
}

TEST(Cli, EveryCommandParsesThroughOneTable) {
  const std::vector<std::string> names = listed_commands();
  ASSERT_GE(names.size(), 8u);
  for (const std::string& name : names) {
    CliRun help = run(name + " --help");
    EXPECT_EQ(help.status, 0) << name;
    EXPECT_EQ(help.out.rfind("usage: remodel " + name, 0), 0u) << help.out;
    EXPECT_NE(help.out.find("example: remodel " + name), std::string::npos) << help.out;
    EXPECT_EQ(run(name + " -h").out, help.out);
    // Missing arguments (of a command that needs any), an unknown option and a stray extra argument
    // are usage errors.
    const std::string usage = help.out.substr(0, help.out.find('\n'));
    std::istringstream words(usage.substr(std::string("usage: remodel " + name).size()));
    bool needs = false;
    for (std::string w; words >> w;) needs = needs || w[0] != '[';
    if (needs) {
      CliRun bare = run(name);
      EXPECT_EQ(bare.status, 2) << name << bare.out;
      EXPECT_NE(bare.out.find("needs"), std::string::npos) << bare.out;
    }
    EXPECT_EQ(run(name + " --no-such-option x").status, 2) << name;
    EXPECT_EQ(run(name + " a b c d e -o x").status, 2) << name;
  }
  EXPECT_EQ(run("textures").status, 2);
  EXPECT_EQ(run("textures bogus").status, 2);
  EXPECT_EQ(run("textures --help").status, 0);
  // No prefix guessing: --js is not --json.
  EXPECT_EQ(run("info --js x").status, 2);
}

TEST(Cli, VersionIsTheProjectVersion) {
  // One line, "remodel MAJOR.MINOR.PATCH", from CMake's project(VERSION): the Blender add-on parses it.
  const CliRun r = remodel::test::run_cli("--version", false);
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, std::string("remodel ") + REMODEL_VERSION + "\n");
  EXPECT_TRUE(std::regex_match(r.out, std::regex("remodel [0-9]+\\.[0-9]+\\.[0-9]+\n"))) << r.out;
}

TEST(Cli, ATextureNameStartingWithADashAfterTheSeparator) {
  const fs::path dir = temp_dir();
  const fs::path pmo = dir / "cube.pmo";
  ASSERT_EQ(run("demo " + pmo.string()).status, 0);
  ASSERT_EQ(run("textures extract " + pmo.string() + " -o " + (dir / "png").string()).status, 0);
  const fs::path png = dir / "png" / "0_demo_cube.png";
  ASSERT_TRUE(fs::exists(png));
  // "-x" is the texture's name here, not an option; no texture has it, so the input is bad (1), not the usage (2).
  CliRun r = run("textures replace -o " + (dir / "out.pmo").string() + " -- " + pmo.string() + " -x " + png.string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("'-x'"), std::string::npos) << r.out;
  EXPECT_EQ(run("textures replace -o " + (dir / "out.pmo").string() + " -- " + pmo.string() + " demo_cube " + png.string()).status, 0);
  fs::remove_all(dir);
}

TEST(Cli, DemoThenCheckInfoDump) {
  const fs::path dir = temp_dir();
  const fs::path pmo = dir / "cube.pmo";
  ASSERT_EQ(run("demo " + pmo.string()).status, 0);
  CliRun check = run("check " + pmo.string());
  EXPECT_EQ(check.status, 0) << check.out;
  EXPECT_NE(check.out.find("identical"), std::string::npos);
  CliRun json = run("check --json " + pmo.string());
  EXPECT_NE(json.out.find("\"identical\":true"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"verbatim_bytes\":0"), std::string::npos) << json.out;
  CliRun info = run("info --json " + pmo.string());
  EXPECT_EQ(info.status, 0);
  EXPECT_NE(info.out.find("\"joints\": 2"), std::string::npos) << info.out;
  CliRun dump = run("dump " + pmo.string());
  EXPECT_EQ(dump.status, 0);
  EXPECT_NE(dump.out.find("\"demo_cube\""), std::string::npos);
  for (const auto& e : fs::directory_iterator(dir)) {
    EXPECT_EQ(e.path().filename().string().find(".remodel-"), std::string::npos) << "temporary file left behind";
  }
  fs::remove_all(dir);
}

// check --json names each verbatim run: the BWM skin written from the spec keeps its nine stride
// tails (0xCD, 0x84 - 8n bytes after each record's n pairs), which add up to the count; the demo
// cube, written by remodel's own rules, lists none.
TEST(Cli, CheckJsonNamesEachVerbatimRun) {
  const fs::path dir = temp_dir();
  const Bytes skin = remodel::golden::bwm_skin();
  spit(dir / "skin.bwm", skin);
  CliRun r = run("check --json " + (dir / "skin.bwm").string());
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j.at("verbatim_bytes"), 0x84 - 24 + 8 * (0x84 - 8));
  ASSERT_EQ(j.at("verbatim_runs").size(), 9u) << r.out;
  std::size_t sum = 0;
  for (std::size_t k = 0; k < 9; ++k) {
    const auto& listed = j["verbatim_runs"][k];
    EXPECT_EQ(listed.at("field"), "stride[" + std::to_string(k) + "].tail");
    const std::size_t offset = listed.at("offset"), size = listed.at("size");
    EXPECT_EQ(size, k == 0 ? 0x84u - 24 : 0x84u - 8) << k;
    ASSERT_LE(offset + size, skin.size());
    for (std::size_t at = offset; at < offset + size; ++at) ASSERT_EQ(skin[at], 0xCD) << "run " << k << " byte " << at;
    sum += size;
  }
  EXPECT_EQ(j.at("verbatim_bytes"), sum);
  ASSERT_EQ(run("demo " + (dir / "cube.pmo").string()).status, 0);
  const auto cube = nlohmann::json::parse(run("check --json " + (dir / "cube.pmo").string()).out, nullptr, false);
  ASSERT_FALSE(cube.is_discarded());
  EXPECT_EQ(cube.at("verbatim_bytes"), 0);
  EXPECT_FALSE(cube.contains("verbatim_runs"));
  fs::remove_all(dir);
}

TEST(Cli, ImportWithoutLikeAuthorsANewFile) {
  const fs::path dir = temp_dir();
  const std::string pmo = (dir / "cube.pmo").string(), glb = (dir / "cube.glb").string();
  ASSERT_EQ(run("demo " + pmo).status, 0);
  ASSERT_EQ(run("export " + pmo + " -o " + glb).status, 0);
  CliRun made = run("import " + glb + " -o " + (dir / "new.pmo").string());
  EXPECT_EQ(made.status, 0) << made.out;
  EXPECT_NE(made.out.find("as a new kh-bbs-pmo"), std::string::npos) << made.out;
  CliRun info = run("info --json " + (dir / "new.pmo").string());
  EXPECT_NE(info.out.find("\"joints\": 2"), std::string::npos) << info.out;
  EXPECT_EQ(run("check " + (dir / "new.pmo").string()).status, 0);
  CliRun unknown = run("import " + glb + " -o " + (dir / "new.bin").string());
  EXPECT_EQ(unknown.status, 2) << unknown.out;
  EXPECT_NE(unknown.out.find("--format"), std::string::npos) << unknown.out;
  EXPECT_EQ(run("import " + glb + " --format kh-bbs-pmo -o " + (dir / "new.bin").string()).status, 0);
  EXPECT_EQ(run("import " + glb + " --format kh-bbs-pmo --like " + pmo + " -o " + (dir / "x.pmo").string()).status, 2);
  EXPECT_EQ(run("import " + glb + " --format j3d -o " + (dir / "x.bmd").string()).status, 2);
  CliRun bmd = run("import " + glb + " -o " + (dir / "new.bmd").string());
  EXPECT_EQ(bmd.status, 0) << bmd.out;
  EXPECT_NE(bmd.out.find("as a new j3d"), std::string::npos) << bmd.out;
  EXPECT_EQ(run("check " + (dir / "new.bmd").string()).status, 0);
  EXPECT_EQ(run("import " + glb + " --format j3d-bmd -o " + (dir / "new_bmd.bin").string()).status, 0);
  CliRun pam = run("import " + glb + " -o " + (dir / "x.pam").string() + " --skeleton " + pmo);
  EXPECT_EQ(pam.status, 1) << pam.out;
  EXPECT_NE(pam.out.find("no animations"), std::string::npos) << pam.out;
  fs::remove_all(dir);
}

// Issue 31: a PAM over its original takes its joints from the glTF exported with it (the skin names
// the BON's joints in order), so no --skeleton is needed; the unedited import is the PAM's bytes. A
// glTF with no skin still needs --skeleton, and says so.
TEST(Cli, ImportPamOverItsOriginalTakesJointsFromTheGltf) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pam");
  const fs::path root = remodel::test::samples_root() / "kh-bbs", dir = temp_dir() / "pam-joints";
  fs::create_directories(dir);
  const std::string pmo = (root / "pmo/p01ex00.pmo").string(), glb = (dir / "a.glb").string();
  for (const char* pam : {"test.pam", "p01ex00001a.pam"}) {
    const fs::path original = root / "pam" / pam, out = dir / pam;
    ASSERT_EQ(run("export " + pmo + " --anim " + original.string() + " -o " + glb).status, 0);
    CliRun r = run("import " + glb + " --like " + original.string() + " -o " + out.string());
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_TRUE(slurp(out) == slurp(original)) << pam << ": the unedited import changed bytes";
  }
  const fs::path skinless_glb = remodel::test::samples_root() / "gltf/BoxAnimated.glb";  // animated, no skin
  ASSERT_TRUE(fs::exists(skinless_glb));
  CliRun skinless = run("import " + skinless_glb.string() + " --like " + (root / "pam/test.pam").string() + " -o " + (dir / "x.pam").string());
  EXPECT_EQ(skinless.status, 1) << skinless.out;
  EXPECT_NE(skinless.out.find("--skeleton"), std::string::npos) << skinless.out;
  fs::remove_all(dir);
}

TEST(Cli, BadInputExitsOneWithOffsetAndField) {
  const fs::path dir = temp_dir();
  const fs::path bad = dir / "bad.pmo";
  std::ofstream(bad, std::ios::binary).write("PMO\0\1\1\3\0\xC8", 9);
  CliRun info = run("info " + bad.string());
  EXPECT_EQ(info.status, 1);
  EXPECT_NE(info.out.find(" at 0x"), std::string::npos) << info.out;
  CliRun check = run("check " + bad.string());
  EXPECT_EQ(check.status, 1);
  EXPECT_EQ(run("info " + (dir / "missing.pmo").string()).status, 1);
  fs::remove_all(dir);
}

TEST(Cli, CheckSamplesDirectory) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs");
  CliRun r = run("check " + (remodel::test::samples_root() / "kh-bbs").string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("DIFFERENT"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("kh-bbs-pam-anim"), std::string::npos) << r.out;
}

TEST(Cli, DiffNamesTheChangedField) {
  const fs::path dir = temp_dir();
  const fs::path a = dir / "a.pmo", b = dir / "b.pmo";
  ASSERT_EQ(run("demo " + a.string()).status, 0);
  std::ifstream in(a, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bytes[0x18] = static_cast<char>(bytes[0x18] ^ 0x01);  // the lowest bit of the header scale
  std::ofstream(b, std::ios::binary) << bytes;
  CliRun same = run("diff " + a.string() + " " + a.string());
  EXPECT_EQ(same.status, 0) << same.out;
  CliRun differ = run("diff " + a.string() + " " + b.string());
  EXPECT_EQ(differ.status, 1) << differ.out;
  EXPECT_NE(differ.out.find("1 differing field"), std::string::npos) << differ.out;
  CliRun json = run("diff --json " + a.string() + " " + b.string());
  EXPECT_NE(json.out.find("\"differences\": 1"), std::string::npos) << json.out;
  EXPECT_EQ(run("diff " + a.string()).status, 2);
}

TEST(Cli, InfoAndDumpOnAnimations) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pam");
  const fs::path anim = remodel::test::samples_root() / "kh-bbs/pam/p03ex00021e.anim";
  CliRun info = run("info --json " + anim.string());
  ASSERT_EQ(info.status, 0) << info.out;
  EXPECT_NE(info.out.find("\"animations\": 1"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"frames\": 32"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("\"joints\": 51"), std::string::npos) << info.out;
  CliRun dump = run("dump " + (remodel::test::samples_root() / "kh-bbs/pam/test.pam").string());
  ASSERT_EQ(dump.status, 0);
  EXPECT_NE(dump.out.find("\"OpenKHAnim\""), std::string::npos);
  EXPECT_NE(dump.out.find("\"rotation_x\""), std::string::npos);
}

TEST(Cli, TexturesExtractReplaceRoundTripOnTheDemo) {
  const fs::path dir = temp_dir() / "textures";
  fs::create_directories(dir);
  const fs::path pmo = dir / "cube.pmo";
  ASSERT_EQ(run("demo " + pmo.string()).status, 0);
  CliRun list = run("textures list " + pmo.string());
  EXPECT_EQ(list.status, 0) << list.out;
  EXPECT_NE(list.out.find("8x8"), std::string::npos) << list.out;
  CliRun list_json = run("textures list --json " + pmo.string());
  EXPECT_EQ(list_json.status, 0);
  EXPECT_NE(list_json.out.find("\"width\":8"), std::string::npos) << list_json.out;
  EXPECT_NE(list_json.out.find("\"field\":\"pmo.tim2s[0].pictures[0]\""), std::string::npos) << list_json.out;
  CliRun extract = run("textures extract " + pmo.string() + " -o " + (dir / "png").string());
  ASSERT_EQ(extract.status, 0) << extract.out;
  std::vector<fs::path> pngs;
  for (const auto& e : fs::directory_iterator(dir / "png")) pngs.push_back(e.path());
  ASSERT_EQ(pngs.size(), 1u);
  EXPECT_EQ(pngs[0].filename().string().rfind("0_", 0), 0u) << pngs[0];

  // The unedited PNG gives the same file back.
  const fs::path same = dir / "same.pmo";
  CliRun replace = run("textures replace " + pmo.string() + " 0 " + pngs[0].string() + " -o " + same.string());
  ASSERT_EQ(replace.status, 0) << replace.out;
  EXPECT_EQ(slurp(same), slurp(pmo));

  // An edited PNG: the texture reads back with the new pixel (the demo's palette is 32-bit).
  auto image = remodel::read_png(slurp(pngs[0]));
  ASSERT_TRUE(image.ok());
  image->at(3, 4)[0] = 0x12, image->at(3, 4)[1] = 0x34, image->at(3, 4)[2] = 0x56, image->at(3, 4)[3] = 0xFF;
  spit(dir / "edited.png", remodel::write_png(*image));
  const fs::path edited = dir / "edited.pmo";
  replace = run("textures replace " + pmo.string() + " 0 " + (dir / "edited.png").string() + " -o " + edited.string());
  ASSERT_EQ(replace.status, 0) << replace.out;
  const Bytes before = slurp(pmo), after = slurp(edited);
  EXPECT_EQ(before.size(), after.size());
  EXPECT_NE(before, after);
  auto doc = remodel::read_document(after);
  ASSERT_TRUE(doc.ok());
  auto back = remodel::decode_texture(*doc, 0);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->at(3, 4)[0], 0x12);
  EXPECT_EQ(back->at(3, 4)[2], 0x56);

  // A PNG of another size: taken as the new size, or scaled to the old one with --resize.
  spit(dir / "big.png", remodel::write_png(remodel::RgbaImage(16, 16)));
  const fs::path resized = dir / "resized.pmo";
  ASSERT_EQ(run("textures replace " + pmo.string() + " 0 " + (dir / "big.png").string() + " -o " + resized.string() + " --resize").status, 0);
  EXPECT_EQ(slurp(resized).size(), before.size());
  const fs::path grown = dir / "grown.pmo";
  ASSERT_EQ(run("textures replace " + pmo.string() + " 0 " + (dir / "big.png").string() + " -o " + grown.string()).status, 0);
  auto grown_doc = remodel::read_document(slurp(grown));
  ASSERT_TRUE(grown_doc.ok());
  EXPECT_EQ(remodel::list_textures(*grown_doc)[0].width, 16u);

  // Bad requests: unknown texture, broken PNG, missing -o; no output file is left behind.
  const fs::path never = dir / "never.pmo";
  EXPECT_EQ(run("textures replace " + pmo.string() + " 7 " + pngs[0].string() + " -o " + never.string()).status, 1);
  spit(dir / "broken.png", Bytes{0x89, 'P', 'N', 'G', 1, 2});
  CliRun broken = run("textures replace " + pmo.string() + " 0 " + (dir / "broken.png").string() + " -o " + never.string());
  EXPECT_EQ(broken.status, 1);
  EXPECT_NE(broken.out.find("png"), std::string::npos) << broken.out;
  EXPECT_FALSE(fs::exists(never));
  EXPECT_EQ(run("textures extract " + pmo.string()).status, 2);
  EXPECT_EQ(run("textures").status, 2);
  EXPECT_EQ(run("textures --help").status, 0);
  fs::remove_all(dir);
}

TEST(Cli, TexturesExtractEverySampleTexture) {
  REMODEL_SAMPLES_OR_SKIP(files, "j3d");
  const fs::path dir = temp_dir() / "j3d-textures";
  for (const fs::path& f : files) {
    auto doc = remodel::read_document(slurp(f));
    ASSERT_TRUE(doc.ok());
    const std::size_t count = remodel::list_textures(*doc).size();
    fs::remove_all(dir);
    CliRun r = run("textures extract " + f.string() + " -o " + dir.string());
    ASSERT_EQ(r.status, 0) << f << r.out;
    std::size_t written = 0;
    if (fs::exists(dir)) {
      for (const auto& e : fs::directory_iterator(dir)) written += e.path().extension() == ".png";
    }
    EXPECT_EQ(written, count) << f;  // names carry the index, so repeated names do not collide
  }
  fs::remove_all(dir);
}

// The committed seeds built from the demos (fuzz/corpus, written by make_seeds) are the demos as
// built now; every seed that holds a model exports to glTF, and every seed's textures extract (issue
// 31: the MHFU demo's texture was too short for its size, so the PAC and TMH seeds did neither).
TEST(Cli, EverySeedExportsAndExtractsItsTextures) {
  const fs::path corpus = REMODEL_CORPUS;
  const remodel::Pac demo = remodel::build_demo_mhfu_pac();
  const char* regenerate = "regenerate the seeds: build/fuzz/make_seeds fuzz/corpus";
  EXPECT_TRUE(slurp(corpus / "mhfu_pac" / "demo.pac") == remodel::write_pac(demo).value()) << regenerate;
  EXPECT_TRUE(slurp(corpus / "tmh" / "demo.tmh") == remodel::write_tmh_file(std::get<remodel::TmhFile>(demo.entries.at(2).content)).value()) << regenerate;
  EXPECT_TRUE(slurp(corpus / "kh_bbs_pmo" / "demo.pmo") == remodel::write_pmo_file(remodel::build_demo_pmo()).value()) << regenerate;
  EXPECT_TRUE(slurp(corpus / "kh_bbs_pam" / "demo.pam") == remodel::write_pam(remodel::build_demo_pam()).value()) << regenerate;
  const fs::path dir = temp_dir() / "seeds";
  std::size_t exported = 0, extracted = 0;
  for (const auto& e : fs::recursive_directory_iterator(corpus)) {
    if (!e.is_regular_file()) continue;
    const fs::path& f = e.path();
    auto doc = remodel::read_document(slurp(f));
    if (!doc) continue;  // GX codec inputs and glTFs: not Documents
    fs::remove_all(dir);
    fs::create_directories(dir);
    if (remodel::scene::family_entry(remodel::format_of(*doc)).holds_model()) {
      CliRun r = run("export " + f.string() + " -o " + (dir / "seed.glb").string());
      EXPECT_EQ(r.status, 0) << f << r.out;
      EXPECT_TRUE(fs::exists(dir / "seed.glb")) << f;
      ++exported;
    }
    const std::size_t count = remodel::list_textures(*doc).size();
    if (count == 0) continue;
    CliRun r = run("textures extract " + f.string() + " -o " + (dir / "png").string());
    ASSERT_EQ(r.status, 0) << f << r.out;
    std::size_t pngs = 0;
    for (const auto& png : fs::directory_iterator(dir / "png")) pngs += png.path().extension() == ".png";
    EXPECT_EQ(pngs, count) << f;
    ++extracted;
  }
  EXPECT_GE(exported, 8u);
  EXPECT_GE(extracted, 10u);
  fs::remove_all(dir);
}

}  // namespace
