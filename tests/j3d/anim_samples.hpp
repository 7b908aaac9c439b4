// The J3D animation samples of one extension: each reads, writes back identical, and says how many
// verbatim bytes it kept.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "model/j3d/anim.hpp"
#include "samples.hpp"

namespace remodel::test {

// Round-trips every file of `files` with `extension`; returns how many there were.
inline std::size_t round_trip_j3d_anims(const std::vector<std::filesystem::path>& files, const std::string& extension) {
  std::size_t read = 0;
  for (const auto& path : files) {
    if (path.extension() != extension) continue;
    const Bytes bytes = load_file(path);
    Result<J3dAnimFile> r = read_j3d_anim(bytes);
    EXPECT_TRUE(r) << path << ": " << r.error().message;
    if (!r) continue;
    WriteReport report;
    Result<Bytes> w = write_j3d_anim(r.value(), &report);
    EXPECT_TRUE(w) << path << ": " << w.error().message;
    if (!w) continue;
    EXPECT_TRUE(w.value() == bytes) << path;
    std::printf("%s: %zu verbatim bytes\n", path.filename().string().c_str(), report.verbatim_bytes);
    ++read;
  }
  return read;
}

}  // namespace remodel::test
