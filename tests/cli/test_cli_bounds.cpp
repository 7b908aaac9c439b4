// Issue 32 F4-F8: the CLI around the glTF side under an attacker's or an unlucky user's inputs: output
// lost or of the wrong kind, outputs that are links or other users' files, names that would break a
// message's line, messages that name what happened in the user's words.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <string>

#include "cli/cli.hpp"
#include "model/image.hpp"

namespace {

namespace fs = std::filesystem;
using remodel::Bytes;
using remodel::test::CliRun;
using remodel::test::quoted;
using remodel::test::run_cli;
using remodel::test::slurp;
using remodel::test::spit;
using Json = nlohmann::ordered_json;

// `remodel ARGS` with stdout on the full device: the exit status and what went to stderr.
CliRun run_to_full_device(const std::string& args) {
  CliRun r{-1, {}};
  FILE* p = popen((std::string(REMODEL_CLI) + " " + args + " 2>&1 >/dev/full").c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// DIR/demo.gltf (the demo grid with its .bin and PNG beside it), its JSON edited by `edit`.
fs::path edited_demo(const fs::path& dir, const std::function<void(Json&)>& edit) {
  const fs::path gltf = dir / "demo.gltf";
  EXPECT_EQ(run_cli("demo " + quoted(gltf)).status, 0);
  const Bytes text = slurp(gltf);
  Json doc = Json::parse(text.begin(), text.end());
  edit(doc);
  const std::string out = doc.dump();
  spit(gltf, Bytes(out.begin(), out.end()));
  return gltf;
}

// The lines of `text` that start with `prefix`.
std::size_t lines_starting(const std::string& text, const std::string& prefix) {
  std::size_t n = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    n += text.compare(at, prefix.size(), prefix) == 0;
    at = end == std::string::npos ? text.size() : end + 1;
  }
  return n;
}

TEST(CliBounds, HelpAndVersionOnAFullDeviceFail) {
  for (const char* args : {"--help", "-h", "--version", "textures --help", "export --help"}) {
    const CliRun r = run_to_full_device(args);
    EXPECT_EQ(r.status, 1) << args << r.out;
    EXPECT_NE(r.out.find("cannot write the output"), std::string::npos) << args << r.out;
  }
}

TEST(CliBounds, ExportRefusesAnOutputOfTheWrongKind) {
  const fs::path dir = remodel::test::cli_temp_dir("wrong-kind");
  const fs::path pmo = dir / "in.pmo";
  ASSERT_EQ(run_cli("demo " + quoted(pmo)).status, 0);
  const Bytes before = slurp(pmo);
  // out.txt is no .glb or .gltf and no directory: it used to become one.
  CliRun r = run_cli("export " + quoted(pmo) + " -o " + quoted(dir / "out.txt"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_FALSE(fs::exists(dir / "out.txt"));
  // The input itself as -o: refused, on stderr (stdout empty), the input as it was.
  r = run_cli("export " + quoted(pmo) + " -o " + quoted(pmo), false);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  r = run_cli("export " + quoted(pmo) + " -o " + quoted(pmo));
  EXPECT_NE(r.out.find("neither a .glb or .gltf file nor a directory"), std::string::npos) << r.out;
  EXPECT_TRUE(slurp(pmo) == before);
  // A directory that is not there yet (no extension) is still made.
  r = run_cli("export " + quoted(pmo) + " -o " + quoted(dir / "made"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(fs::is_regular_file(dir / "made" / "in.glb"));
  fs::remove_all(dir);
}

TEST(CliBounds, ExportErrorsGoToStderr) {
  const fs::path dir = remodel::test::cli_temp_dir("stderr");
  spit(dir / "bad.pmo", Bytes{'P', 'M', 'O', 0, 1, 2});
  const CliRun out_only = run_cli("export " + quoted(dir / "bad.pmo") + " -o " + quoted(dir / "bad.glb"), false);
  EXPECT_EQ(out_only.status, 1);
  EXPECT_EQ(out_only.out.find("error"), std::string::npos) << out_only.out;
  const CliRun both = run_cli("export " + quoted(dir / "bad.pmo") + " -o " + quoted(dir / "bad.glb"));
  EXPECT_EQ(lines_starting(both.out, "error     "), 1u) << both.out;
  fs::remove_all(dir);
}

TEST(CliBounds, AnOutputThatIsASymlinkLoopIsRefusedAndKept) {
  const fs::path dir = remodel::test::cli_temp_dir("loop");
  const fs::path pmo = dir / "in.pmo";
  ASSERT_EQ(run_cli("demo " + quoted(pmo)).status, 0);
  fs::create_symlink("b.glb", dir / "a.glb");
  fs::create_symlink("a.glb", dir / "b.glb");
  const CliRun r = run_cli("export " + quoted(pmo) + " -o " + quoted(dir / "a.glb"));
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("symbolic links"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::is_symlink(dir / "a.glb"));
  EXPECT_EQ(fs::read_symlink(dir / "a.glb"), "b.glb");
  fs::remove_all(dir);
}

// docs/cli.md: a replaced file keeps its owner and mode; one whose owner cannot be kept is refused.
TEST(CliBounds, AnotherUsersFileKeepsItsOwnerOrIsNotReplaced) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a file to another user";
  const fs::path dir = remodel::test::cli_temp_dir("owner");
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  const fs::path pmo = dir / "in.pmo", out = dir / "theirs.glb";
  ASSERT_EQ(run_cli("demo " + quoted(pmo)).status, 0);
  ASSERT_EQ(::chmod(pmo.c_str(), 0644), 0);
  spit(out, Bytes{'o', 'l', 'd'});
  ASSERT_EQ(::chown(out.c_str(), 12345, 12345), 0);
  ASSERT_EQ(::chmod(out.c_str(), 0444), 0);
  // Another user (nobody): not replaced, the file as it was.
  const std::string as_nobody = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
  CliRun r = run_cli("export " + quoted(pmo) + " -o " + quoted(out), true, as_nobody);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("not replaced"), std::string::npos) << r.out;
  EXPECT_TRUE(slurp(out) == (Bytes{'o', 'l', 'd'}));
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 12345u);
  // Root may give it back: replaced, owner and mode kept.
  r = run_cli("export " + quoted(pmo) + " -o " + quoted(out));
  EXPECT_EQ(r.status, 0) << r.out;
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 12345u);
  EXPECT_EQ(st.st_gid, 12345u);
  EXPECT_EQ(st.st_mode & 07777, 0444u);
  EXPECT_GT(st.st_size, 3);
  fs::remove_all(dir);
}

TEST(CliBounds, NamesAreShownEscapedAndLongOnesCut) {
  const fs::path dir = remodel::test::cli_temp_dir("names");
  // A newline in a file name stays one line of the message.
  spit(dir / "a\nb.pmo", Bytes{'P', 'M', 'O', 0, 1, 2});
  CliRun r = run_cli("info " + quoted(dir / "a\nb.pmo"));
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("a\\nb.pmo"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("a\nb.pmo"), std::string::npos) << r.out;
  r = run_cli("export " + quoted(dir / "a\nb.pmo") + " -o " + quoted(dir / "x.glb"));
  EXPECT_EQ(lines_starting(r.out, "error     "), 1u) << r.out;
  EXPECT_NE(r.out.find("a\\nb.pmo"), std::string::npos) << r.out;
  // A 100 KB name in the glTF is cut in the message, which says how long it was.
  const fs::path gltf = edited_demo(dir, [](Json& d) { d["extensionsRequired"] = Json::array({std::string(100000, 'X')}); });
  r = run_cli("import " + quoted(gltf) + " -o " + quoted(dir / "out.pmo"));
  EXPECT_EQ(r.status, 1) << r.out.substr(0, 400);
  EXPECT_LT(r.out.size(), 1000u) << r.out.substr(0, 400);
  EXPECT_NE(r.out.find("(100000 bytes)"), std::string::npos) << r.out.substr(0, 400);
  fs::remove_all(dir);
}

// Every line naming a file the user gave keeps its newline escaped: demo, check, info and the
// textures commands (the archive ones: ArchiveCli.NamesWithANewlineStayOneLine).
TEST(CliBounds, EveryCommandEscapesANewlineInAFileName) {
  const fs::path dir = remodel::test::cli_temp_dir("newline-names");
  const std::string pmo = quoted(dir / "a\nb.pmo");
  const auto expect_escaped = [](const CliRun& r, const std::string& name, const char* command) {
    EXPECT_EQ(r.status, 0) << command << ": " << r.out;
    EXPECT_NE(r.out.find("a\\nb"), std::string::npos) << command << ": " << r.out;
    EXPECT_EQ(r.out.find("a\nb"), std::string::npos) << command << ": " << r.out << " (" << name << ")";
  };
  expect_escaped(run_cli("demo " + pmo), pmo, "demo");
  expect_escaped(run_cli("check " + pmo), pmo, "check");
  expect_escaped(run_cli("info " + pmo), pmo, "info");
  const CliRun list = run_cli("textures list " + pmo);  // lists the textures, not the file's name
  EXPECT_EQ(list.status, 0) << list.out;
  EXPECT_EQ(list.out.find("a\nb"), std::string::npos) << list.out;
  const std::string pngs = quoted(dir / "a\nb.png");
  expect_escaped(run_cli("textures extract " + pmo + " -o " + pngs), pngs, "textures extract");
  fs::path png;
  for (const auto& e : fs::directory_iterator(dir / "a\nb.png")) png = e.path();
  ASSERT_FALSE(png.empty());
  expect_escaped(run_cli("textures replace " + pmo + " 0 " + quoted(png) + " -o " + quoted(dir / "a\nb2.pmo")), pmo, "textures replace");
  // A file that does not check names itself on its one error line.
  spit(dir / "a\nb.pmo", Bytes{'P', 'M', 'O', 0, 1, 2});
  const CliRun r = run_cli("check " + pmo);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(lines_starting(r.out, "error      "), 1u) << r.out;
  EXPECT_NE(r.out.find("a\\nb.pmo"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

TEST(CliBounds, AJ3dLimitIsNotPlacedInAFileNeverWritten) {
  const fs::path dir = remodel::test::cli_temp_dir("j3d-limit");
  // Node names past the 64 KiB a J3D name table reaches.
  const fs::path gltf = edited_demo(dir, [](Json& d) {
    for (Json& n : d["nodes"]) n["name"] = std::string(70000, 'n') + n["name"].get<std::string>();
  });
  const CliRun r = run_cli("import " + quoted(gltf) + " -o " + quoted(dir / "out.bmd"));
  EXPECT_EQ(r.status, 1) << r.out.substr(0, 400);
  EXPECT_EQ(r.out.find(" at 0x"), std::string::npos) << r.out.substr(0, 400);
  EXPECT_NE(r.out.find("64 KiB"), std::string::npos) << r.out.substr(0, 400);
  EXPECT_FALSE(fs::exists(dir / "out.bmd"));
  fs::remove_all(dir);
}

TEST(CliBounds, AGltfResourceThatIsASymlinkLoopSaysSo) {
  const fs::path dir = remodel::test::cli_temp_dir("resource-loop");
  const fs::path gltf = edited_demo(dir, [](Json&) {});
  std::string bin;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".bin") bin = e.path().filename();
  }
  ASSERT_FALSE(bin.empty());
  fs::remove(dir / bin);
  fs::create_symlink("loop2", dir / bin);
  fs::create_symlink(bin, dir / "loop2");
  const CliRun r = run_cli("import " + quoted(gltf) + " -o " + quoted(dir / "out.pmo"));
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(r.out.find("resolves outside"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("symbolic links"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

}  // namespace
