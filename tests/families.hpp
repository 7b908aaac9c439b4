// The one list of families the tests run over: each family's folder of tests and of samples. Formats
// belong to a family by the family table (scene::FamilyEntry::family); the registry test
// (tests/core/test_registry.cpp) fails when this list, the tables and the folders on disk disagree.
#pragma once

#include <string>
#include <vector>

namespace remodel::test {

struct Family {
  const char* name;     // as the family table names it: "kh-bbs"
  const char* tests;    // its folder under tests/
  const char* samples;  // its folder under samples_root() (absent where no public sample exists)
  const char* more_samples = nullptr;  // a second folder its tests read (J3D's animations)
};

inline constexpr Family kFamilies[] = {
    {"kh-bbs", "kh_bbs", "kh-bbs"},
    {"mhfu", "mhfu", "mhfu"},
    {"j3d", "j3d", "j3d", "j3d-anim"},
    {"bwm", "bwm", "bw2"},
};

// Sample folders that hold a family's files its tests do not read, each with the reason.
struct SetAside {
  const char* folder;
  const char* why;
};

inline constexpr SetAside kSetAside[] = {
    {"j3d-layouts", "a tool-made J3D layout remodel refuses today (SOURCES.md): the J3D tests take it once it reads"},
};

// The family names (as test parameters), and their sample folders, in list order.
std::vector<const char*> family_names();
std::vector<std::string> family_sample_folders();

// One line of fuzz/targets.txt: the fuzz target and its samples folder ("-" for none).
struct FuzzTarget {
  std::string name, samples;
};
std::vector<FuzzTarget> fuzz_targets();

}  // namespace remodel::test
