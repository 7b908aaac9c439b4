// Runs the remodel CLI from tests: exit status and combined output, temporary folders, whole files.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "model/bytes.hpp"

namespace remodel::test {

struct CliRun {
  int status;  // the exit status, or -1 when the process died of a signal
  std::string out;
};

// Runs `PREFIX remodel ARGS` through the shell (ARGS is shell text: quote names with quoted()); the
// prefix is a command such as `timeout 30` that runs the CLI.
inline CliRun run_cli(const std::string& args, bool with_stderr = true, const std::string& prefix = "") {
  const std::string cmd = prefix + std::string(REMODEL_CLI) + " " + args + (with_stderr ? " 2>&1" : " 2>/dev/null");
  CliRun r{-1, {}};
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// A file name as one shell word, whatever bytes it holds.
inline std::string quoted(const std::filesystem::path& p) {
  std::string out = "'";
  for (char c : p.native()) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// A fresh folder for one test, unique per process and name.
inline std::filesystem::path cli_temp_dir(const std::string& name) {
  namespace fs = std::filesystem;
  fs::path d = fs::temp_directory_path() / ("remodel-cli-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// The demo PMO exported as DIR/cube.glb (a skinned, textured glTF to import): its name quoted for
// the shell, or "" when `demo` or `export` failed.
inline std::string demo_glb(const std::filesystem::path& dir) {
  const std::string pmo = quoted(dir / "cube.pmo"), glb = quoted(dir / "cube.glb");
  if (run_cli("demo " + pmo).status != 0 || run_cli("export " + pmo + " -o " + glb).status != 0) return "";
  return glb;
}

inline Bytes slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

inline void spit(const std::filesystem::path& p, const Bytes& b) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

}  // namespace remodel::test
