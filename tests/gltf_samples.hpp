// The shared real glTFs (../shared/samples/gltf, not its invalid/ folder) that the reader takes,
// each with its file name: what every authoring test runs over. The reader's own tests cover the
// files it refuses.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "gltf/gltf.hpp"

namespace remodel::test {

inline std::vector<std::pair<std::string, gltf::ReadScene>> readable_gltf_samples(const std::vector<std::filesystem::path>& files) {
  std::vector<std::pair<std::string, gltf::ReadScene>> out;
  for (const auto& path : files) {
    if (path.extension() != ".glb" && path.extension() != ".gltf") continue;
    if (path.string().find("/invalid/") != std::string::npos) continue;
    auto read = gltf::read_gltf_file(path);
    if (read) out.emplace_back(path.filename().string(), std::move(*read));
  }
  return out;
}

}  // namespace remodel::test
