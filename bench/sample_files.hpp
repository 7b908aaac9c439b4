// The model and animation samples the benchmarks load (from $REMODEL_SAMPLES or the build's default
// ../shared/samples): every KH BBS PMO, PMP and PAM, every MHFU and every J3D file, every J3D animation (BCK, BCA, BTK, BRK, BPK, BTP,
// BVA) under j3d-anim/ and the archives at
// the top of archives/, sorted by path,
// each with its bytes. A family whose folder is absent is left out.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "model/bytes.hpp"

namespace remodel::bench {

inline std::vector<std::pair<std::string, Bytes>> sample_files(const char* default_root) {
  namespace fs = std::filesystem;
  const char* env = std::getenv("REMODEL_SAMPLES");
  const fs::path root = (env != nullptr && *env != '\0') ? fs::path(env) : fs::path(default_root);
  std::vector<fs::path> paths;
  std::error_code ec;
  for (const char* sub : {"kh-bbs/pmo", "kh-bbs/pmp", "kh-bbs/pam", "mhfu", "j3d", "archives"}) {
    for (const auto& e : fs::directory_iterator(root / sub, ec)) {
      if (e.is_regular_file()) paths.push_back(e.path());
    }
  }
  // J3D animations sit one folder deeper, a folder per model's set.
  for (const auto& e : fs::recursive_directory_iterator(root / "j3d-anim", ec)) {
    const std::string ext = e.path().extension().string();
    for (const char* kind : {".bck", ".bca", ".btk", ".brk", ".bpk", ".btp", ".bva"}) {
      if (e.is_regular_file() && ext == kind) paths.push_back(e.path());
    }
  }
  std::sort(paths.begin(), paths.end());
  std::vector<std::pair<std::string, Bytes>> files;
  for (const fs::path& p : paths) {
    std::ifstream in(p, std::ios::binary);
    files.emplace_back(p.filename().string(), Bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
  }
  return files;
}

}  // namespace remodel::bench
