// The sample round trip every format's tests share: read, write, compare, count verbatim bytes.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>

#include "model/document.hpp"
#include "samples.hpp"

namespace remodel::test {

// Returns the verbatim byte count so a caller can pin it; fails the test on any difference.
inline std::optional<std::size_t> expect_round_trip(const std::filesystem::path& path) {
  const Bytes b = load_file(path);
  auto doc = read_document(b);
  EXPECT_TRUE(doc.ok()) << path << ": " << (doc.ok() ? "" : doc.error().describe());
  if (!doc.ok()) return std::nullopt;
  auto w = write_document(*doc);
  EXPECT_TRUE(w.ok()) << path << ": " << (w.ok() ? "" : w.error().describe());
  if (!w.ok()) return std::nullopt;
  EXPECT_TRUE(*w == b) << path << " does not round-trip";
  return verbatim_bytes(*doc);
}

}  // namespace remodel::test
