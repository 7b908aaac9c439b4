#include "families.hpp"

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
    if (f.more_samples != nullptr) out.emplace_back(f.more_samples);
  }
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
