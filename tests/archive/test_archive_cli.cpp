// The archive commands end to end: ls, extract (MeltyTool's golden), pack (the original's bytes
// back; one member changed), --member for info, check and export, and import over a member.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "cli/cli.hpp"
#include "model/archive/demo.hpp"
#include "model/archive/members.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

namespace fs = std::filesystem;
using test::quoted;
using test::run_cli;

fs::path archives() { return test::samples_root() / "archives"; }

TEST(ArchiveCli, LsListsMembersWithTheirFormats) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const test::CliRun text = run_cli("ls " + quoted(archives() / "wwrando_Vscroll.arc"));
  EXPECT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("bdl/vscroll.bdl"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("j3d"), std::string::npos) << text.out;
  const test::CliRun json = run_cli("ls --json " + quoted(archives() / "smg_PoltaFormationRock.arc"), false);
  ASSERT_EQ(json.status, 0);
  const nlohmann::json list = nlohmann::json::parse(json.out);
  ASSERT_EQ(list.size(), 13u);
  EXPECT_EQ(list[2]["path"], "poltaformationrock.bdl");
  EXPECT_EQ(list[2]["format"], "j3d");
  EXPECT_EQ(list[2]["id"], 2);
}

TEST(ArchiveCli, ExtractGivesMeltyToolsExpectedOutput) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const fs::path golden = archives() / "meltytool_goldens" / "rarc" / "hierarchy";
  const fs::path dir = test::cli_temp_dir("extract");
  const test::CliRun r = run_cli("extract " + quoted(golden / "input" / "hierarchy.arc") + " -o " + quoted(dir / "out"));
  ASSERT_EQ(r.status, 0) << r.out;
  for (const auto& e : fs::recursive_directory_iterator(golden / "output")) {
    const fs::path rel = e.path().lexically_relative(golden / "output");
    if (e.path().filename() == "IGNORE") {
      EXPECT_TRUE(fs::is_directory(dir / "out" / rel.parent_path()));
      EXPECT_TRUE(fs::is_empty(dir / "out" / rel.parent_path())) << rel;
    } else if (e.is_regular_file()) {
      EXPECT_EQ(test::load_file(dir / "out" / rel), test::load_file(e.path())) << rel;
    }
  }
  fs::remove_all(dir);
}

TEST(ArchiveCli, PackGivesTheOriginalBackAndChangesOneMember) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const fs::path original = archives() / "smg_PoltaFormationRock.arc";
  const fs::path dir = test::cli_temp_dir("pack");
  ASSERT_EQ(run_cli("extract " + quoted(original) + " -o " + quoted(dir / "m")).status, 0);
  test::CliRun r = run_cli("pack " + quoted(dir / "m") + " --like " + quoted(original) + " -o " + quoted(dir / "same.arc"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(test::load_file(dir / "same.arc"), test::load_file(original));
  test::spit(dir / "m" / "openingdemo.bva", Bytes(100, 1));
  r = run_cli("pack " + quoted(dir / "m") + " --like " + quoted(original) + " -o " + quoted(dir / "mod.arc"));
  ASSERT_EQ(r.status, 0) << r.out;
  Result<Archive> was = open_archive(test::load_file(original));
  Result<Archive> now = open_archive(test::load_file(dir / "mod.arc"));
  ASSERT_TRUE(was.ok() && now.ok());
  EXPECT_TRUE(now->yaz0.has_value());
  for (const RarcPath& p : rarc_paths(was->rarc)) {
    const RarcEntry* a = find_member(was->rarc, p.path);
    const RarcEntry* b = find_member(now->rarc, p.path);
    if (p.directory) continue;
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(b->data == a->data, p.path != "openingdemo.bva") << p.path;
    EXPECT_EQ(b->id, a->id);
  }
  // A missing member and a file the archive does not hold are errors.
  test::spit(dir / "m" / "new.bck", Bytes(4, 0));
  EXPECT_EQ(run_cli("pack " + quoted(dir / "m") + " --like " + quoted(original) + " -o " + quoted(dir / "x.arc")).status, 1);
  fs::remove(dir / "m" / "new.bck");
  fs::remove(dir / "m" / "repairarmr.bva");
  EXPECT_EQ(run_cli("pack " + quoted(dir / "m") + " --like " + quoted(original) + " -o " + quoted(dir / "x.arc")).status, 1);
  EXPECT_FALSE(fs::exists(dir / "x.arc"));
  fs::remove_all(dir);
}

TEST(ArchiveCli, ANameThatIsNoFileNameIsNotExtracted) {
  Rarc r = build_demo_rarc();
  r.nodes[1].entries[0].name = "..";  // bdl/.. as a file: would write beside the folder
  auto w = write_rarc(r);
  ASSERT_TRUE(w.ok());
  const fs::path dir = test::cli_temp_dir("unsafe");
  test::spit(dir / "bad.arc", *w);
  const test::CliRun run = run_cli("extract " + quoted(dir / "bad.arc") + " -o " + quoted(dir / "out"));
  EXPECT_EQ(run.status, 1) << run.out;
  EXPECT_NE(run.out.find("cannot be a file or folder name"), std::string::npos) << run.out;
  const test::CliRun exported = run_cli("export " + quoted(dir / "bad.arc") + " -o " + quoted(dir / "glb"));
  EXPECT_EQ(exported.status, 1) << exported.out;
  EXPECT_NE(exported.out.find("cannot be a file or folder name"), std::string::npos) << exported.out;
  fs::remove_all(dir);
}

// An archive exported whole: each model member to its own .glb under the member's folders, the
// archive read once; a .glb output takes an archive of one model only.
TEST(ArchiveCli, ExportGivesEveryModelOfTheArchive) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const fs::path pikis = archives() / "meltytool_goldens" / "yaz0" / "pikis" / "input" / "pikis.yaz0";
  const fs::path dir = test::cli_temp_dir("export-archive");
  test::CliRun r = run_cli("export " + quoted(pikis) + " -o " + quoted(dir / "pikis"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("17 exported, 0 failed"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_regular_file(dir / "pikis" / "piki_model" / "piki_p2_red.glb")) << r.out;
  EXPECT_TRUE(fs::is_regular_file(dir / "pikis" / "orima_model" / "orima1.glb")) << r.out;
  r = run_cli("export " + quoted(pikis) + " -o " + quoted(dir / "one.glb"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("holds 17 models"), std::string::npos) << r.out;
  r = run_cli("export " + quoted(archives() / "smg_PoltaFormationRock.arc") + " -o " + quoted(dir / "polta.glb"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(fs::is_regular_file(dir / "polta.glb")) << r.out;
  fs::remove_all(dir);
}

// A member, archive or folder name holding a newline stays one line of ls, extract and pack.
TEST(ArchiveCli, NamesWithANewlineStayOneLine) {
  Rarc r = build_demo_rarc();
  r.nodes[1].entries[0].name = "a\nb.bdl";
  auto w = write_rarc(r);
  ASSERT_TRUE(w.ok());
  const fs::path dir = test::cli_temp_dir("newline-members");
  const fs::path arc = dir / "c\nd.arc";
  test::spit(arc, *w);
  const auto expect_escaped = [](const test::CliRun& run, const char* name, const char* command) {
    EXPECT_EQ(run.status, 0) << command << ": " << run.out;
    EXPECT_NE(run.out.find(std::string(name, 1) + "\\n" + std::string(name + 2)), std::string::npos) << command << ": " << run.out;
    EXPECT_EQ(run.out.find(name), std::string::npos) << command << ": " << run.out;
  };
  expect_escaped(run_cli("ls " + quoted(arc)), "a\nb.bdl", "ls");
  expect_escaped(run_cli("extract " + quoted(arc) + " -o " + quoted(dir / "e\nf")), "e\nf", "extract");
  EXPECT_TRUE(fs::is_regular_file(dir / "e\nf" / "bdl" / "a\nb.bdl"));
  expect_escaped(run_cli("pack " + quoted(dir / "e\nf") + " --like " + quoted(arc) + " -o " + quoted(dir / "g\nh.arc")), "g\nh", "pack");
  fs::remove_all(dir);
}

TEST(ArchiveCli, InfoAndCheckReadMembersAndStreams) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const fs::path lava = archives() / "smg_LavaRotatePlanet.arc";
  test::CliRun r = run_cli("info " + quoted(lava) + " --member lavarotateplanet.bdl");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find(": j3d"), std::string::npos) << r.out;
  r = run_cli("info " + quoted(lava) + " --member no/such.bdl");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("holds no file no/such.bdl"), std::string::npos) << r.out;
  r = run_cli("check " + quoted(lava));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("stream re-compressed identically"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" members identical"), std::string::npos) << r.out;  // the BDL (and the BTK once animations read)
  // wwrando's SuperBMD BDL stores MDL3's name count as 0 for its one entry: that section is kept as
  // bytes (it was refused, failing the archive by its member), and the member checks identical.
  r = run_cli("check " + quoted(archives() / "wwrando_Vscroll.arc"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("1 members identical"), std::string::npos) << r.out;
}

// The done-when: an import over a member gives an archive whose other members are the
// original's bytes, and which reads again.
TEST(ArchiveCli, ImportOverAMemberChangesOnlyThatMember) {
  REMODEL_SAMPLES_OR_SKIP(files, "archives");
  const fs::path lava = archives() / "smg_LavaRotatePlanet.arc";
  const fs::path dir = test::cli_temp_dir("import-member");
  test::CliRun r = run_cli("export " + quoted(lava) + " --member lavarotateplanet.bdl -o " + quoted(dir / "lava.glb"));
  ASSERT_EQ(r.status, 0) << r.out;
  r = run_cli("import " + quoted(dir / "lava.glb") + " --like " + quoted(lava) + " --member lavarotateplanet.bdl -o " + quoted(dir / "lava_mod.arc"));
  ASSERT_EQ(r.status, 0) << r.out;
  // An unedited export imports to the original's bytes, so the whole archive comes back.
  EXPECT_EQ(test::load_file(dir / "lava_mod.arc"), test::load_file(lava));
  EXPECT_EQ(run_cli("import " + quoted(dir / "lava.glb") + " --member x.bdl -o " + quoted(dir / "y.arc")).status, 2);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace remodel
