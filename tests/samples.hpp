// Finds the real game files in ../shared/samples/<format>/ (or $REMODEL_SAMPLES) at run time.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/bytes.hpp"
#include "model/document.hpp"

namespace remodel::test {

std::filesystem::path samples_root();
// Every regular file under samples_root()/subdir, sorted; empty when the folder is absent. A family's
// folder brings its layouts folder too (tests/families.hpp): j3d takes j3d-layouts.
std::vector<std::filesystem::path> sample_files(const std::string& subdir);
Bytes load_file(const std::filesystem::path& path);
// The file read as a Document; a read error is a test failure (and an empty Document is returned).
Document load_document(const std::filesystem::path& path);
// The sample `name` in samples_root()/subdir read as a Document; nullopt when it is absent or does not
// read (a read error is a test failure, and so is an absent file with REMODEL_REQUIRE_SAMPLES=1).
std::optional<Document> load_named_sample(const std::string& subdir, const std::string& name);
// "x.0.pmo" -> "x.1.skel" / "x.2.tmh": the PAC's entries as the MHFU samples store them beside it.
std::filesystem::path mhfu_sibling(const std::filesystem::path& pmo, const char* suffix);
bool samples_required();
// `text` with every character that is not a letter or digit made '_': a test case name.
std::string identifier(std::string text);

}  // namespace remodel::test

// Skips (or, with REMODEL_REQUIRE_SAMPLES=1, fails) the test when the folder has no files.
#define REMODEL_SAMPLES_OR_SKIP(files, subdir)                                                             \
  auto files = ::remodel::test::sample_files(subdir);                                                    \
  if (files.empty()) {                                                                                   \
    if (::remodel::test::samples_required()) {                                                           \
      FAIL() << "REMODEL_REQUIRE_SAMPLES=1 but no samples in " << (::remodel::test::samples_root() / subdir); \
    }                                                                                                    \
    GTEST_SKIP() << "no samples in " << (::remodel::test::samples_root() / subdir)                        \
                 << " (set REMODEL_SAMPLES to the shared/samples folder)";                               \
  }
