#include "samples.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "families.hpp"

namespace remodel::test {

namespace fs = std::filesystem;

fs::path samples_root() {
  if (const char* env = std::getenv("REMODEL_SAMPLES"); env != nullptr && *env != '\0') return env;
  return REMODEL_DEFAULT_SAMPLES;
}

bool samples_required() {
  const char* env = std::getenv("REMODEL_REQUIRE_SAMPLES");
  return env != nullptr && std::string(env) == "1";
}

std::vector<fs::path> sample_files(const std::string& subdir) {
  std::vector<std::string> folders{subdir};
  for (const Family& f : kFamilies) {
    if (subdir == f.samples && f.layouts != nullptr) folders.emplace_back(f.layouts);
  }
  std::vector<fs::path> out;
  for (const std::string& folder : folders) {
    std::error_code ec;
    const fs::path dir = samples_root() / folder;
    if (!fs::is_directory(dir, ec)) continue;
    for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
      if (e.is_regular_file(ec)) out.push_back(e.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string identifier(std::string text) {
  for (char& ch : text) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return text;
}

Bytes load_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

Document load_document(const fs::path& path) {
  Result<Document> doc = read_document(load_file(path));
  EXPECT_TRUE(doc.ok()) << path << ": " << (doc.ok() ? "" : doc.error().describe());
  return doc.ok() ? std::move(doc.value()) : Document{};
}

std::optional<Document> load_named_sample(const std::string& subdir, const std::string& name) {
  bool found = false;
  for (const fs::path& path : sample_files(subdir)) {
    if (path.filename() != name) continue;
    found = true;
    Result<Document> doc = read_document(load_file(path));
    if (doc.ok()) return std::move(doc.value());
    ADD_FAILURE() << path << ": " << doc.error().describe();
  }
  // A caller skips on nullopt: with samples required, an absent file fails the test instead.
  if (!found && samples_required()) ADD_FAILURE() << "REMODEL_REQUIRE_SAMPLES=1 but " << (samples_root() / subdir / name) << " is absent";
  return std::nullopt;
}

fs::path mhfu_sibling(const fs::path& pmo, const char* suffix) {
  std::string stem = pmo.filename().string();
  stem = stem.substr(0, stem.size() - std::string(".0.pmo").size());
  return pmo.parent_path() / (stem + suffix);
}

}  // namespace remodel::test
