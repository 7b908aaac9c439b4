// The J3D animation samples of one kind: each reads and writes back identical.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "model/j3d/anim.hpp"
#include "samples.hpp"

namespace remodel::test {

struct AnimSamples {
  std::size_t files = 0, verbatim = 0;
};

// Reads and writes every file named `extension`; a failure names the file. Prints each file's verbatim bytes.
inline AnimSamples expect_anims_identical(const std::vector<std::filesystem::path>& files, const std::string& extension) {
  AnimSamples out;
  for (const auto& path : files) {
    if (path.extension() != extension) continue;
    const Bytes bytes = load_file(path);
    Result<J3dAnimFile> r = read_j3d_anim(bytes);
    EXPECT_TRUE(r) << path << ": " << (r ? "" : r.error().describe());
    if (!r) continue;
    WriteReport report;
    Result<Bytes> w = write_j3d_anim(r.value(), &report);
    EXPECT_TRUE(w) << path << ": " << (w ? "" : w.error().describe());
    if (!w) continue;
    EXPECT_TRUE(w.value() == bytes) << path;
    std::printf("%s: %zu verbatim bytes\n", path.filename().string().c_str(), report.verbatim_bytes);
    out.verbatim += report.verbatim_bytes;
    ++out.files;
  }
  return out;
}

}  // namespace remodel::test
