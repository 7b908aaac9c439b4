// The CLI on awkward inputs: names that are not UTF-8, files that are not regular, unreadable folders.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli.hpp"
#include "model/json.hpp"
#include "samples.hpp"

namespace {

namespace fs = std::filesystem;
using remodel::Bytes;
using remodel::json_text;
using remodel::test::CliRun;
using remodel::test::quoted;
using remodel::test::run_cli;
using remodel::test::slurp;
using remodel::test::spit;

using Json = nlohmann::ordered_json;

// Every line of the output parsed as JSON; a line that does not parse fails the test.
std::vector<Json> json_lines(const std::string& out) {
  std::vector<Json> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    lines.push_back(Json::parse(line, nullptr, false));
    EXPECT_FALSE(lines.back().is_discarded()) << line;
  }
  return lines;
}

// The demo PMO with the first byte of its texture name ("demo_cube") set to `byte`.
Bytes demo_with_name_byte(const fs::path& dir, std::uint8_t byte) {
  const fs::path demo = dir / "demo.pmo";
  EXPECT_EQ(run_cli("demo " + quoted(demo)).status, 0);
  Bytes b = slurp(demo);
  const std::string name = "demo_cube";
  auto at = std::search(b.begin(), b.end(), name.begin(), name.end());
  EXPECT_NE(at, b.end());
  if (at != b.end()) *at = byte;
  return b;
}

TEST(JsonText, Utf8AsIsShiftJisDecodedAnythingElseEscapedBytesKept) {
  EXPECT_EQ(json_text("jb_body01"), Json("jb_body01"));
  EXPECT_EQ(json_text("\xE3\x83\x86\xE3\x82\xB9\xE3\x83\x88"), Json("\xE3\x83\x86\xE3\x82\xB9\xE3\x83\x88"));  // テスト in UTF-8
  // テスト in Shift-JIS: 83 65 83 58 83 67.
  const Json sjis = json_text("\x83\x65\x83\x58\x83\x67");
  EXPECT_EQ(sjis, (Json{{"text", "\xE3\x83\x86\xE3\x82\xB9\xE3\x83\x88"}, {"encoding", "shift_jis"}, {"bytes", "836583588367"}}));
  // Half-width katakana (one byte each) are Shift-JIS too.
  EXPECT_EQ(json_text("\xB1\xB2").at("encoding"), "shift_jis");
  // 0xFF is neither; valid UTF-8 runs stay readable, the byte and any backslash become \xNN.
  const Json bad = json_text("a\\b\xFF\xC3\xA9");
  EXPECT_EQ(bad, (Json{{"text", "a\\x5Cb\\xFF\xC3\xA9"}, {"encoding", "escaped"}, {"bytes", "615c62ffc3a9"}}));
  // A Shift-JIS lead byte with nothing after it is not Shift-JIS.
  EXPECT_EQ(json_text("ab\x83").at("encoding"), "escaped");
  // Overlong and surrogate forms are not UTF-8 (C0 AF happens to be two half-width katakana).
  EXPECT_TRUE(json_text("\xC0\xAF").is_object());
  EXPECT_TRUE(json_text("\xED\xA0\x80").is_object());
  EXPECT_TRUE(json_text("\xF4\x90\x80\x80").is_object());
  // Every result dumps without throwing.
  for (int c = 0; c < 256; ++c) {
    const std::string s(1, static_cast<char>(c));
    EXPECT_NO_THROW((void)json_text(s).dump()) << c;
  }
}

TEST(CliInputs, NamesThatAreNotUtf8DumpAndListAsJson) {
  const fs::path dir = remodel::test::cli_temp_dir("names");
  for (std::uint8_t byte : {std::uint8_t{0xFF}, std::uint8_t{0x83}, std::uint8_t{0xB1}}) {
    const fs::path pmo = dir / "patched.pmo";
    spit(pmo, demo_with_name_byte(dir, byte));
    CliRun dump = run_cli("dump " + quoted(pmo), false);
    ASSERT_EQ(dump.status, 0) << int(byte);
    const Json doc = Json::parse(dump.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded());
    CliRun list = run_cli("textures list --json " + quoted(pmo), false);
    ASSERT_EQ(list.status, 0);
    const std::vector<Json> lines = json_lines(list.out);
    ASSERT_EQ(lines.size(), 1u);
    const Json& name = lines[0].at("name");
    ASSERT_TRUE(name.is_object()) << name;
    EXPECT_EQ(name.at("bytes").get<std::string>().substr(0, 2), remodel::hex(Bytes{byte}));
    CliRun diff = run_cli("diff --json " + quoted(dir / "demo.pmo") + " " + quoted(pmo), false);
    EXPECT_EQ(diff.status, 1);
    EXPECT_FALSE(Json::parse(diff.out, nullptr, false).is_discarded()) << diff.out;
  }
  fs::remove_all(dir);
}

// The repro: p01ex00.pmo with byte 0xA4 (inside a texture name) set to 0xFF.
TEST(CliInputs, DumpOfASampleWithAPatchedName) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pmo");
  const fs::path sample = remodel::test::samples_root() / "kh-bbs/pmo/p01ex00.pmo";
  ASSERT_TRUE(fs::exists(sample));
  const fs::path dir = remodel::test::cli_temp_dir("repro");
  Bytes b = slurp(sample);
  ASSERT_GT(b.size(), 0xA4u);
  b[0xA4] = 0xFF;
  spit(dir / "p01ex00.pmo", b);
  CliRun dump = run_cli("dump " + quoted(dir / "p01ex00.pmo"), false);
  EXPECT_EQ(dump.status, 0);
  EXPECT_FALSE(Json::parse(dump.out, nullptr, false).is_discarded());
  fs::remove_all(dir);
}

TEST(CliInputs, CheckJsonOnAFileNameThatIsNotUtf8AndOneObjectPerInput) {
  const fs::path dir = remodel::test::cli_temp_dir("check-names");
  const fs::path demo = dir / "demo.pmo";
  ASSERT_EQ(run_cli("demo " + quoted(demo)).status, 0);
  fs::copy_file(demo, dir / "coin_\xFF.pmo");
  spit(dir / "notes.txt", Bytes{'h', 'i'});
  CliRun check = run_cli("check --json " + quoted(dir), false);
  EXPECT_EQ(check.status, 0) << check.out;
  const std::vector<Json> lines = json_lines(check.out);
  ASSERT_EQ(lines.size(), 3u);
  int identical = 0, skipped = 0;
  for (const Json& l : lines) {
    if (l.contains("skipped")) {
      EXPECT_EQ(l.at("skipped"), "not a supported format");
      EXPECT_EQ(l.at("file"), (dir / "notes.txt").string());
      ++skipped;
    } else {
      identical += l.at("identical").get<bool>();
    }
  }
  EXPECT_EQ(identical, 2);
  EXPECT_EQ(skipped, 1);
  EXPECT_TRUE(lines[0].at("file").is_object());  // "coin_\xFF.pmo" sorts first
  EXPECT_EQ(lines[0].at("file").at("encoding"), "escaped");
  fs::remove_all(dir);
}

TEST(CliInputs, DirectoriesAndFifosAreNotRegularFiles) {
  const fs::path dir = remodel::test::cli_temp_dir("special");
  const fs::path fifo = dir / "fifo.pmo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const fs::path png = dir / "x.png";
  spit(png, Bytes{0x89, 'P', 'N', 'G'});
  for (const fs::path& p : {dir, fifo, fs::path("/dev/null")}) {
    // timeout: a FIFO that blocks fails the test instead of hanging it.
    for (const std::string cmd : {"info", "dump", "textures list", "textures extract"}) {
      const std::string args = cmd + " " + quoted(p) + (cmd == "textures extract" ? " -o " + quoted(dir / "out") : "");
      CliRun r = run_cli(args, true, "timeout 30 ");
      EXPECT_EQ(r.status, 1) << args << "\n" << r.out;
      EXPECT_NE(r.out.find("not a regular file"), std::string::npos) << args << "\n" << r.out;
    }
    CliRun diff = run_cli("diff " + quoted(p) + " " + quoted(p), true, "timeout 30 ");
    EXPECT_EQ(diff.status, 1) << diff.out;
    EXPECT_NE(diff.out.find("not a regular file"), std::string::npos) << diff.out;
    CliRun check = run_cli("check " + quoted(p == dir ? fifo : p), true, "timeout 30 ");
    EXPECT_EQ(check.status, 1) << check.out;
  }
  // The PNG of replace, too.
  const fs::path demo = dir / "demo.pmo";
  ASSERT_EQ(run_cli("demo " + quoted(demo)).status, 0);
  CliRun replace = run_cli("textures replace " + quoted(demo) + " 0 " + quoted(fifo) + " -o " + quoted(dir / "out.pmo"));
  EXPECT_EQ(replace.status, 1) << replace.out;
  EXPECT_NE(replace.out.find("not a regular file"), std::string::npos) << replace.out;
  // In a folder, a FIFO is skipped and said so.
  CliRun check = run_cli("check --json " + quoted(dir), false, "timeout 30 ");
  EXPECT_EQ(check.status, 0) << check.out;
  bool fifo_skipped = false;
  for (const Json& l : json_lines(check.out)) fifo_skipped |= l.value("skipped", "") == "not a regular file";
  EXPECT_TRUE(fifo_skipped) << check.out;
  fs::remove_all(dir);
}

// Runs as an unprivileged user when the tests run as root, so permission bits apply.
std::string as_unprivileged() { return ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""; }

TEST(CliInputs, AnUnreadableFolderOrFileFailsTheBatch) {
  if (::geteuid() == 0 && !fs::exists("/usr/bin/setpriv")) GTEST_SKIP() << "running as root without setpriv";
  const fs::path dir = remodel::test::cli_temp_dir("unreadable");
  fs::permissions(dir, fs::perms::all);  // the unprivileged user must reach inside
  const fs::path demo = dir / "demo.pmo";
  ASSERT_EQ(run_cli("demo " + quoted(demo)).status, 0);
  fs::permissions(demo, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  fs::create_directories(dir / "locked");
  fs::copy_file(demo, dir / "locked" / "inside.pmo");
  fs::permissions(dir / "locked", fs::perms::none);
  const auto run_as = [&](const std::string& args) { return run_cli(args, true, as_unprivileged()); };
  CliRun locked = run_as("check " + quoted(dir / "locked"));
  EXPECT_EQ(locked.status, 1) << locked.out;
  EXPECT_NE(locked.out.find("cannot read the directory"), std::string::npos) << locked.out;
  EXPECT_NE(locked.out.find("1 failed"), std::string::npos) << locked.out;
  CliRun batch = run_as("check " + quoted(dir));
  EXPECT_EQ(batch.status, 1) << batch.out;
  EXPECT_NE(batch.out.find("1 identical, 1 failed"), std::string::npos) << batch.out;
  fs::permissions(demo, fs::perms::none);
  CliRun file = run_as("check --json " + quoted(dir));
  EXPECT_EQ(file.status, 1) << file.out;
  EXPECT_EQ(json_lines(file.out).size(), 2u);
  CliRun info = run_as("info " + quoted(demo));
  EXPECT_EQ(info.status, 1) << info.out;
  fs::permissions(dir / "locked", fs::perms::owner_all);
  fs::remove_all(dir);
}

TEST(CliInputs, OutputThatCannotBeWrittenFails) {
  const fs::path dir = remodel::test::cli_temp_dir("full");
  const fs::path pmo = dir / "cube.pmo";
  ASSERT_EQ(run_cli("demo " + quoted(pmo)).status, 0);
  for (const std::string cmd : {"dump ", "info --json ", "info ", "check --json ", "textures list --json "}) {
    // stderr to the pipe, stdout to the full device.
    CliRun r{-1, {}};
    FILE* p = popen((std::string(REMODEL_CLI) + " " + cmd + quoted(pmo) + " 2>&1 >/dev/full").c_str(), "r");
    ASSERT_NE(p, nullptr);
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
    const int status = pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    EXPECT_EQ(r.status, 1) << cmd << r.out;
    EXPECT_NE(r.out.find("cannot write the output"), std::string::npos) << cmd << r.out;
  }
  fs::remove_all(dir);
}

// DIR/in holding fuzz corpus seeds under new names, exported to DIR/out with `options`.
CliRun export_seeds(const fs::path& dir, const std::vector<std::pair<std::string, std::string>>& seeds, const std::string& options = "") {
  fs::create_directories(dir / "in");
  for (const auto& [seed, name] : seeds) fs::copy_file(fs::path(REMODEL_CORPUS) / seed, dir / "in" / name);
  return run_cli("export " + quoted(dir / "in") + " -o " + quoted(dir / "out") + options);
}

// issue 32 (F11): x.bmd renamed to x_bmd.glb beside x.bdl landed on x_bmd.pmo's own output, one file lost.
TEST(CliInputs, ABatchWritesOneOutputPerInput) {
  const fs::path dir = remodel::test::cli_temp_dir("collide");
  const CliRun r = export_seeds(dir, {{"j3d/demo.bmd", "x.bdl"}, {"j3d/demo.bmd", "x.bmd"}, {"kh_bbs_pmo/demo.pmo", "x_bmd.pmo"}});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("3 exported, 0 failed"), std::string::npos) << r.out;
  std::set<fs::path> outputs;
  for (const char* name : {"x.bdl", "x.bmd", "x_bmd.pmo"}) {
    const std::string line = "exported  " + (dir / "in" / name).string() + " -> ";
    const std::size_t at = r.out.find(line);
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::size_t from = at + line.size();
    const fs::path out = r.out.substr(from, r.out.find(" (", from) - from);
    EXPECT_TRUE(fs::is_regular_file(out)) << out;
    EXPECT_TRUE(outputs.insert(out).second) << out << " written twice\n" << r.out;
  }
  // Names without a collision stay the inputs' own.
  EXPECT_EQ(outputs.count(dir / "out" / "x.glb"), 1u) << r.out;
  EXPECT_EQ(outputs.count(dir / "out" / "x_bmd.glb"), 1u) << r.out;
  EXPECT_NE(r.out.find("x_bmd.pmo -> " + (dir / "out" / "x_bmd.glb").string()), std::string::npos) << r.out;
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir / "out")) ++files;
  EXPECT_EQ(files, 3u);
  fs::remove_all(dir);
}

// issue 32 (F11): "a b.gltf" and "a_b.gltf" both name a_b.bin; the second replaced the first's.
TEST(CliInputs, ABatchNeverReplacesAnotherInputsResource) {
  const fs::path dir = remodel::test::cli_temp_dir("collide-gltf");
  const CliRun r = export_seeds(dir, {{"kh_bbs_pmo/demo.pmo", "a b.pmo"}, {"kh_bbs_pmo/static-mesh1.pmo", "a_b.pmo"}}, " --format gltf");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("1 exported, 1 failed"), std::string::npos) << r.out;
  const std::size_t at = r.out.find("error     ");
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string error = r.out.substr(at, r.out.find('\n', at) - at);
  for (const char* name : {"a b.pmo", "a_b.pmo"}) EXPECT_NE(error.find((dir / "in" / name).string()), std::string::npos) << error;
  EXPECT_NE(error.find((dir / "out" / "a_b.bin").string()), std::string::npos) << error;
  // The exported one's .bin is its own: the bytes it writes when exported alone.
  const std::string exported = error.find("error     " + (dir / "in" / "a_b.pmo").string()) == 0 ? "a b" : "a_b";
  ASSERT_EQ(run_cli("export " + quoted(dir / "in" / (exported + ".pmo")) + " -o " + quoted(dir / "alone" / (exported + ".gltf"))).status, 0);
  EXPECT_EQ(slurp(dir / "out" / "a_b.bin"), slurp(dir / "alone" / "a_b.bin")) << exported;
  fs::remove_all(dir);
}

// issue 13: `textures replace F ... -o F` kept neither the mode nor a symlink OUT.
TEST(CliInputs, ReplaceInPlaceKeepsTheModeAndWritesThroughASymlink) {
  const fs::path dir = remodel::test::cli_temp_dir("in-place");
  const fs::path pmo = dir / "cube.pmo";
  ASSERT_EQ(run_cli("demo " + quoted(pmo)).status, 0);
  ASSERT_EQ(run_cli("textures extract " + quoted(pmo) + " -o " + quoted(dir / "png")).status, 0);
  fs::path png;
  for (const auto& e : fs::directory_iterator(dir / "png")) png = e.path();
  ASSERT_EQ(::chmod(pmo.c_str(), 0640), 0);
  fs::create_symlink("cube.pmo", dir / "link.pmo");
  for (const fs::path& out : {pmo, dir / "link.pmo"}) {
    CliRun r = run_cli("textures replace " + quoted(pmo) + " 0 " + quoted(png) + " -o " + quoted(out));
    ASSERT_EQ(r.status, 0) << r.out;
    struct stat st {};
    ASSERT_EQ(::stat(pmo.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0640u) << out;
    EXPECT_TRUE(fs::is_symlink(dir / "link.pmo"));
  }
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++entries;
  EXPECT_EQ(entries, 3u);  // cube.pmo, link.pmo, png/: no temporary file left
  fs::remove_all(dir);
}

}  // namespace
