// The registry: a family is registered whole or the tests say what is missing. The static_asserts in
// lib/model/format_table.cpp and lib/scene/family_table.cpp hold each table to the Format enum; these
// tests hold the two tables to each other, and the family list (tests/families.hpp) to the tables, the
// tests/ folders, the sample folders on disk, fuzz/targets.txt and the glTF tests' export samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include "export_samples.hpp"
#include "families.hpp"
#include "model/document.hpp"
#include "samples.hpp"
#include "scene/family_table.hpp"

namespace remodel {
namespace {

namespace fs = std::filesystem;

const test::Family* family_named(const std::string& name) {
  for (const test::Family& f : test::kFamilies) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

TEST(Registry, EveryFormatIsInBothTablesInOneOrder) {
  const auto model = format_table();
  const auto family = scene::family_table();
  ASSERT_EQ(model.size(), family.size());
  for (std::size_t i = 0; i < model.size(); ++i) {
    EXPECT_EQ(model[i].format, family[i].format) << model[i].name;
    EXPECT_EQ(static_cast<std::size_t>(model[i].format), i) << model[i].name;
    EXPECT_STREQ(format_name(family[i].format), model[i].name);
  }
}

TEST(Registry, EveryFormatBelongsToAListedFamilyAndEveryFamilyHasFormats) {
  std::set<std::string> used;
  for (const scene::FamilyEntry& e : scene::family_table()) {
    EXPECT_NE(family_named(e.family), nullptr) << format_name(e.format) << "'s family " << e.family << " is not in tests/families.hpp";
    used.insert(e.family);
  }
  for (const test::Family& f : test::kFamilies) EXPECT_TRUE(used.count(f.name)) << f.name << " has no format in the family table";
}

TEST(Registry, EveryNewFileIsNamedOnceAndPickedByOneExtension) {
  std::set<std::string> options, extensions;
  for (const scene::FamilyEntry& e : scene::family_table()) {
    EXPECT_FALSE(e.files.empty()) << format_name(e.format) << " names no kind of file";
    if (e.author == nullptr) continue;
    for (const scene::FileKind& kind : e.files) {
      if (!kind.authored) continue;
      EXPECT_TRUE(options.insert(e.option(kind)).second) << "two kinds of file are authored by --format " << e.option(kind);
      if (e.by_extension) {
        EXPECT_TRUE(extensions.insert(kind.extension).second) << "two new formats are picked by " << kind.extension;
      }
    }
  }
}

TEST(Registry, EveryFamilyHasItsTestFolder) {
  for (const test::Family& f : test::kFamilies) {
    const fs::path dir = fs::path(REMODEL_SOURCE_DIR) / "tests" / f.tests;
    std::size_t tests = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) tests += e.path().filename().string().rfind("test_", 0) == 0;
    EXPECT_GT(tests, 0u) << f.name << " has no test_*.cpp in " << dir;
  }
}

// A sample folder holding files of a format is a family's folder (which its tests read) or set aside
// with a reason: samples added in a folder of their own are never silently untested.
TEST(Registry, EverySampleFolderWithAFormatsFilesIsAFamilysOrSetAside) {
  const fs::path root = test::samples_root();
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    if (test::samples_required()) FAIL() << "REMODEL_REQUIRE_SAMPLES=1 but " << root << " is absent";
    GTEST_SKIP() << "no samples folder " << root;
  }
  std::set<std::string> known;
  for (const std::string& folder : test::family_sample_folders()) known.insert(folder);
  for (const test::SetAside& s : test::kSetAside) {
    EXPECT_TRUE(fs::is_directory(root / s.folder, ec)) << s.folder << " is set aside (" << s.why << ") but absent: remove it from the list";
    known.insert(s.folder);
  }
  for (const auto& folder : fs::directory_iterator(root)) {
    if (!folder.is_directory() || known.count(folder.path().filename().string())) continue;
    for (const fs::path& file : test::sample_files(folder.path().filename().string())) {
      const std::optional<Format> format = detect_format(test::load_file(file));
      EXPECT_FALSE(format) << file << " is a " << format_name(*format) << " file in a folder no family in tests/families.hpp names";
    }
  }
}

TEST(Registry, FuzzTargetsReadFamilySamples) {
  const std::vector<test::FuzzTarget> targets = test::fuzz_targets();
  ASSERT_FALSE(targets.empty());
  const std::vector<std::string> folders = test::family_sample_folders();
  for (const test::FuzzTarget& t : targets) {
    if (t.samples == "-" || t.samples == "gltf") continue;
    EXPECT_NE(std::find(folders.begin(), folders.end(), t.samples), folders.end())
        << "fuzz target " << t.name << " reads samples from " << t.samples << ", which no family in tests/families.hpp names";
  }
}

// Each family is fuzzed: a target of fuzz/targets.txt is named for one of its formats.
TEST(Registry, EveryFamilyHasAFuzzTarget) {
  const std::vector<test::FuzzTarget> targets = test::fuzz_targets();
  for (const test::Family& f : test::kFamilies) {
    bool fuzzed = false;
    for (const scene::FamilyEntry& e : scene::family_table()) {
      if (std::string(e.family) != f.name) continue;
      const std::string target = test::identifier(format_name(e.format));
      fuzzed = fuzzed || std::any_of(targets.begin(), targets.end(), [&](const test::FuzzTarget& t) { return t.name == target; });
    }
    EXPECT_TRUE(fuzzed) << f.name << ": no target in fuzz/targets.txt is named for one of its formats";
  }
}

// Each family with a lift is exported in the glTF tests: kExportSamples names a file of it.
TEST(Registry, EveryFamilyThatLiftsHasExportSamples) {
  for (const test::Family& f : test::kFamilies) {
    const bool lifts = std::any_of(scene::family_table().begin(), scene::family_table().end(),
                                   [&](const scene::FamilyEntry& e) { return e.lift != nullptr && std::string(e.family) == f.name; });
    const bool listed = std::any_of(test::kExportSamples.begin(), test::kExportSamples.end(),
                                    [&](const test::ExportSample& s) { return std::string(s.file).rfind(std::string(f.name) + "/", 0) == 0; });
    EXPECT_TRUE(!lifts || listed) << f.name << " lifts models but tests/export_samples.hpp names none of its files";
  }
}

}  // namespace
}  // namespace remodel
