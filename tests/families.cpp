#include "families.hpp"

#include <algorithm>

#include "samples.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace remodel::test {

std::vector<const char*> family_names() {
  std::vector<const char*> out;
  for (const Family& f : kFamilies) out.push_back(f.name);
  return out;
}

std::vector<std::string> family_sample_folders() {
  std::vector<std::string> out;
  for (const Family& f : kFamilies) {
    out.emplace_back(f.samples);
    if (f.layouts != nullptr) out.emplace_back(f.layouts);
    if (f.animations != nullptr) out.emplace_back(f.animations);
  }
  return out;
}

std::vector<std::filesystem::path> family_sample_inputs(const Family& family) {
  std::vector<std::filesystem::path> out = sample_files(family.samples);
  std::erase_if(out, [](const std::filesystem::path& p) {
    const auto parts = p.lexically_relative(samples_root());
    return std::find(parts.begin(), parts.end(), "meltytool_goldens") != parts.end() && std::find(parts.begin(), parts.end(), "output") != parts.end();
  });
  return out;
}

std::vector<FuzzTarget> fuzz_targets() {
  std::vector<FuzzTarget> out;
  std::ifstream in(std::filesystem::path(REMODEL_SOURCE_DIR) / "fuzz" / "targets.txt");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    FuzzTarget t;
    words >> t.name >> t.samples;
    out.push_back(t);
  }
  return out;
}

}  // namespace remodel::test
