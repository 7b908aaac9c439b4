// The CLI hostile harness: every command over mutated inputs (names patched with bytes 0x80-0xFF,
// section magics, truncations) and awkward paths (a directory, a FIFO, an empty, unreadable or missing
// file, /dev/null, a name that is not UTF-8). Every run must exit 0, 1 or 2 within its time limit,
// never report an internal error (the top-level guard catching something is a case the code missed),
// and a JSON command's output must parse. The set is bounded: one seed per format from fuzz/corpus
// and three small samples, five variants each (about 330 runs).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "model/image.hpp"
#include "samples.hpp"
#include "families.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using remodel::Bytes;
using remodel::test::slurp;
using remodel::test::spit;
using Json = nlohmann::ordered_json;

struct Spawned {
  bool exited = false;  // false: killed by a signal (a crash) or by the time limit
  bool timed_out = false;
  int status = -1;
  std::string out, err;
};

// Runs argv directly (no shell, so any byte can be in a name) with stdout and stderr captured; a run
// past the time limit is killed, so a blocking FIFO fails the test instead of hanging it.
Spawned spawn(const std::vector<std::string>& argv, int limit_seconds = 60) {
  Spawned r;
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return r;
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]), ::close(out[1]);
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]), ::close(err[1]);
  if (spawned != 0) {
    ::close(out[0]), ::close(err[0]);
    return r;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(limit_seconds);
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_pipes = 2;
  while (open_pipes > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    if (::poll(fds, 2, static_cast<int>(left)) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[65536];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_pipes;
      }
    }
  }
  for (pollfd& f : fds) {
    if (f.fd >= 0) ::close(f.fd);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exited = !r.timed_out && WIFEXITED(status);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  return r;
}

enum class Output { text, json, json_lines };

struct Stats {
  std::size_t runs = 0;
};

// One CLI run and the harness's assertions on it. `usage_ok` allows status 2 (a path given where
// the command line itself is odd); well-formed command lines must give 0 or 1.
void expect_sane(const std::vector<std::string>& args, Output output, Stats& stats, const std::vector<std::string>& prefix = {},
                 bool usage_ok = false) {
  std::vector<std::string> argv = prefix;
  argv.push_back(REMODEL_CLI);
  argv.insert(argv.end(), args.begin(), args.end());
  std::string shown;
  for (const std::string& a : args) shown += " " + a;
  const Spawned r = spawn(argv);
  ++stats.runs;
  ASSERT_FALSE(r.timed_out) << "remodel" << shown << ": still running after 60 s";
  ASSERT_TRUE(r.exited) << "remodel" << shown << ": killed by signal " << -r.status << "\n" << r.err;
  EXPECT_TRUE(r.status == 0 || r.status == 1 || (usage_ok && r.status == 2)) << "remodel" << shown << ": exit " << r.status << "\n"
                                                                              << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << "remodel" << shown << "\n" << r.err;
  if (output == Output::json && (r.status == 0 || !r.out.empty())) {
    EXPECT_FALSE(Json::parse(r.out, nullptr, false).is_discarded()) << "remodel" << shown << ": not JSON\n" << r.out.substr(0, 400);
  }
  if (output == Output::json_lines) {
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
      EXPECT_FALSE(Json::parse(line, nullptr, false).is_discarded()) << "remodel" << shown << ": not JSON\n" << line.substr(0, 400);
    }
  }
}

// The fuzz targets that read one format (fuzz/targets.txt; their seeds are fuzz/corpus/<name>/), sorted.
std::vector<std::string> format_fuzz_targets() {
  std::vector<std::string> out;
  for (const remodel::test::FuzzTarget& t : remodel::test::fuzz_targets()) {
    std::string name = t.name;
    std::replace(name.begin(), name.end(), '_', '-');
    for (const remodel::FormatEntry& f : remodel::format_table()) {
      if (name == f.name) out.push_back(t.name);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The inputs the harness mutates: the first seed of each format the project builds, and a few
// small samples when they are present.
std::vector<fs::path> bases() {
  std::vector<fs::path> out;
  for (const std::string& dir : format_fuzz_targets()) {
    std::vector<fs::path> seeds;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(REMODEL_CORPUS) / dir, ec)) seeds.push_back(e.path());
    std::sort(seeds.begin(), seeds.end());
    if (!seeds.empty()) out.push_back(seeds.front());
  }
  for (const char* sample : {"j3d/sms_coin.bmd", "kh-bbs/pmo/p01ex00.pmo", "mhfu/f_hair000_original.pac"}) {
    const fs::path p = remodel::test::samples_root() / sample;
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) out.push_back(p);
  }
  return out;
}

// Runs of 4+ name characters: where a format stores names (and J3D its section magics).
std::vector<std::size_t> name_runs(const Bytes& b) {
  std::vector<std::size_t> runs;
  const auto namechar = [](std::uint8_t c) { return std::isalnum(c) || c == '_'; };
  for (std::size_t i = 0; i < b.size();) {
    std::size_t j = i;
    while (j < b.size() && namechar(b[j])) ++j;
    if (j - i >= 4) runs.push_back(i);
    i = j == i ? i + 1 : j;
  }
  return runs;
}

struct Variant {
  std::string label;  // also (mostly) its file name
  Bytes bytes;
};

// Five variants of a file: names patched with 0x80-0xFF bytes and a tag (J3D's second section magic)
// patched; names as Shift-JIS (a pair, and a lead byte before ASCII); the format magic's last byte
// patched; two truncations.
std::vector<Variant> variants(const Bytes& b) {
  std::vector<Variant> out;
  const std::vector<std::size_t> runs = name_runs(b);
  // The first runs are magics more often than names; take runs from the middle of the list too.
  if (!runs.empty()) {
    const std::size_t third = runs[runs.size() / 3], half = runs[runs.size() / 2], last = runs.back();
    Bytes names = b;
    names[third] = 0x80, names[half] = 0xA4, names[last] = 0xFF;
    names[runs[std::min<std::size_t>(1, runs.size() - 1)] + 1] = 0xFF;
    out.push_back({"names_high", names});
    Bytes sjis = b;
    sjis[half] = 0x83, sjis[half + 1] = 0x65;  // テ
    sjis[last] = 0x83;                          // a lead byte with an ASCII trail
    out.push_back({"names_sjis", sjis});
  }
  if (b.size() >= 4) {
    Bytes magic = b;
    magic[3] ^= 0x80;
    out.push_back({"magic", magic});
  }
  out.push_back({"half", Bytes(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(b.size() / 2))});
  if (!b.empty()) out.push_back({"minus1", Bytes(b.begin(), b.end() - 1)});
  return out;
}

std::string label_of(const fs::path& base) {
  std::string s = base.parent_path().filename().string() + "_" + base.filename().string();
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

class CliHostile : public ::testing::TestWithParam<fs::path> {};

TEST_P(CliHostile, EveryCommandOnEveryVariant) {
  const fs::path base = GetParam();
  const fs::path dir = remodel::test::cli_temp_dir("hostile-" + label_of(base));
  const Bytes original = slurp(base);
  ASSERT_FALSE(original.empty()) << base;
  const fs::path base_copy = dir / ("base" + base.extension().string());
  spit(base_copy, original);
  const fs::path png = dir / "image.png";
  spit(png, remodel::write_png(remodel::RgbaImage(8, 8)));
  Stats stats;
  // The base's own export (when it has a model), imported over every variant and read as a .glb.
  const fs::path exported = dir / "exported.glb", demo_glb = dir / "demo.glb";
  expect_sane({"export", base_copy.string(), "-o", exported.string()}, Output::text, stats);
  expect_sane({"demo", demo_glb.string()}, Output::text, stats);
  const fs::path glb = fs::exists(exported) ? exported : demo_glb;
  std::vector<fs::path> files = {base_copy};
  for (const Variant& v : variants(original)) {
    // Half the variants get a file name that is not UTF-8 either.
    const std::string name = v.label + (files.size() % 2 ? "_\xFF\x83" : "") + base.extension().string();
    files.push_back(dir / name);
    spit(files.back(), v.bytes);
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string f = files[i].string();
    SCOPED_TRACE(f);
    expect_sane({"info", "--json", f}, Output::json, stats);
    expect_sane({"dump", f}, Output::json, stats);
    expect_sane({"textures", "list", "--json", f}, Output::json_lines, stats);
    if (i == 1 || i == 2) expect_sane({"diff", "--json", base_copy.string(), f}, Output::json, stats);
    if (i <= 1) {  // the unpatched file and its names patched: the text and writing commands too
      expect_sane({"info", f}, Output::text, stats);
      expect_sane({"textures", "extract", f, "-o", (dir / ("png" + std::to_string(i))).string()}, Output::text, stats);
      expect_sane({"textures", "replace", f, "0", png.string(), "-o", (dir / ("out" + std::to_string(i))).string()}, Output::text, stats);
      expect_sane({"export", f, "-o", (dir / ("out" + std::to_string(i) + ".glb")).string()}, Output::text, stats);
      const fs::path as_glb = dir / ("variant" + std::to_string(i) + ".glb");
      fs::copy_file(files[i], as_glb, fs::copy_options::overwrite_existing);
      expect_sane({"import", as_glb.string(), "--like", base_copy.string(), "-o", (dir / ("in" + std::to_string(i))).string()}, Output::text, stats);
    }
    expect_sane({"import", glb.string(), "--like", f, "-o", (dir / ("import" + std::to_string(i))).string()}, Output::text, stats);
  }
  expect_sane({"check", "--json", dir.string()}, Output::json_lines, stats);
  RecordProperty("cli_runs", static_cast<int>(stats.runs));
  std::printf("%zu CLI runs on %zu files from %s\n", stats.runs, files.size(), base.string().c_str());
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Inputs, CliHostile, ::testing::ValuesIn(bases()),
                         [](const ::testing::TestParamInfo<fs::path>& info) { return label_of(info.param); });

// Runs as an unprivileged user when the tests run as root, so permission bits apply.
std::vector<std::string> unprivileged() {
  if (::geteuid() != 0) return {};
  return {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"};
}

TEST(CliHostilePaths, EveryCommandOnPathsThatAreNotGoodFiles) {
  const fs::path dir = remodel::test::cli_temp_dir("hostile-paths");
  fs::permissions(dir, fs::perms::all);
  Stats stats;
  const fs::path demo = dir / "demo.pmo";
  expect_sane({"demo", demo.string()}, Output::text, stats);
  const fs::path png = dir / "image.png";
  spit(png, remodel::write_png(remodel::RgbaImage(8, 8)));
  fs::permissions(png, fs::perms::all);
  const fs::path fifo = dir / "fifo.pmo", empty = dir / "empty.pmo", locked = dir / "locked.pmo", odd = dir / "odd_\xFF\x83\x65.pmo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0666), 0);
  spit(empty, {});
  fs::copy_file(demo, locked);
  fs::permissions(locked, fs::perms::none);
  fs::copy_file(demo, odd);
  fs::permissions(odd, fs::perms::all);
  fs::permissions(demo, fs::perms::all);
  const fs::path demo_glb = dir / "demo.glb";
  expect_sane({"export", demo.string(), "-o", demo_glb.string()}, Output::text, stats);
  fs::permissions(demo_glb, fs::perms::all);
  const fs::path subdir = dir / "sub";
  fs::create_directories(subdir);
  const std::vector<fs::path> paths = {subdir, fifo, empty, locked, odd, dir / "missing.pmo", "/dev/null"};
  const std::vector<std::string> as_user = unprivileged();
  if (!as_user.empty() && !fs::exists("/usr/bin/setpriv")) GTEST_SKIP() << "running as root without setpriv";
  int n = 0;
  for (const fs::path& p : paths) {
    const std::string f = p.string();
    SCOPED_TRACE(f);
    const std::string out = (dir / ("out" + std::to_string(n++))).string();
    expect_sane({"info", f}, Output::text, stats, as_user);
    expect_sane({"info", "--json", f}, Output::json, stats, as_user);
    expect_sane({"dump", f}, Output::json, stats, as_user);
    expect_sane({"diff", "--json", f, demo.string()}, Output::json, stats, as_user);
    expect_sane({"check", "--json", f}, Output::json_lines, stats, as_user);
    expect_sane({"textures", "list", "--json", f}, Output::json_lines, stats, as_user);
    expect_sane({"textures", "extract", f, "-o", out}, Output::text, stats, as_user);
    expect_sane({"textures", "replace", f, "0", png.string(), "-o", out + ".pmo"}, Output::text, stats, as_user);
    expect_sane({"textures", "replace", demo.string(), "0", f, "-o", out + ".pmo"}, Output::text, stats, as_user);
    // A directory exported to a .glb is a usage error (2) by export's own rule.
    expect_sane({"export", f, "-o", out + ".glb"}, Output::text, stats, as_user, p == subdir);
    // As the glTF (not .glb/.gltf: import's usage error), as ORIGINAL, and as OUT.
    expect_sane({"import", f, "--like", demo.string(), "-o", out + ".pmo"}, Output::text, stats, as_user, true);
    expect_sane({"import", demo_glb.string(), "--like", f, "-o", out + ".pmo"}, Output::text, stats, as_user);
    if (p != locked) expect_sane({"import", demo_glb.string(), "--like", demo.string(), "-o", f}, Output::text, stats, as_user);
    // As OUT: a directory, a FIFO, a missing place (the locked file stays as it is for the check below).
    if (p != locked) expect_sane({"demo", f}, Output::text, stats, as_user);
  }
  expect_sane({"check", "--json", dir.string()}, Output::json_lines, stats, as_user);
  // The original of every path is as it was: the FIFO is still a FIFO, the locked file unchanged.
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  fs::permissions(locked, fs::perms::owner_read);
  EXPECT_EQ(slurp(locked), slurp(demo));
  std::printf("%zu CLI runs on %zu paths\n", stats.runs, paths.size());
  fs::remove_all(dir);
}

}  // namespace
