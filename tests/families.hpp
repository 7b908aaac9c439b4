// The one list of families the tests run over: each family's folder of tests and of samples. Formats
// belong to a family by the family table (scene::FamilyEntry::family); the registry test
// (tests/core/test_registry.cpp) fails when this list, the tables and the folders on disk disagree.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace remodel::test {

struct Family {
  const char* name;     // as the family table names it: "kh-bbs"
  const char* tests;    // its folder under tests/
  const char* samples;  // its folder under samples_root() (absent where no public sample exists)
  // A second folder of its files, in layouts other tools write; sample_files(samples) takes it too.
  const char* layouts = nullptr;
  const char* animations = nullptr;  // a folder of its animation files (with their models), read by its animation tests
};

inline constexpr Family kFamilies[] = {
    {"kh-bbs", "kh_bbs", "kh-bbs"},
    {"mhfu", "mhfu", "mhfu"},
    {"j3d", "j3d", "j3d", "j3d-layouts", "j3d-anim"},
    {"bwm", "bwm", "bw2"},
    {"archive", "archive", "archives"},
};

// Sample folders that hold a family's files its tests do not read, each with the reason.
struct SetAside {
  const char* folder;
  const char* why;
};

inline constexpr std::array<SetAside, 0> kSetAside{};  // none today: every sample folder is a family's

// A family's sample files that are inputs: all of them but MeltyTool's expected results
// (archives/meltytool_goldens/*/*/output/: extracted members and decompressed bytes).
std::vector<std::filesystem::path> family_sample_inputs(const Family& family);

// The family names (as test parameters), and their sample folders (layouts and animations included), in list order.
std::vector<const char*> family_names();
std::vector<std::string> family_sample_folders();

// One line of fuzz/targets.txt: the fuzz target and its samples folder ("-" for none).
struct FuzzTarget {
  std::string name, samples;
};
std::vector<FuzzTarget> fuzz_targets();

}  // namespace remodel::test
