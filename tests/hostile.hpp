// ufbx-style hostile-input loops shared by every format's tests.
#pragma once

#include <gtest/gtest.h>

#include "model/document.hpp"

namespace remodel::test {

// Reads `bytes`; a clean error must carry a message, and a success must round-trip exactly.
inline void expect_clean(ByteSpan bytes, const std::string& what) {
  Bytes copy(bytes.begin(), bytes.end());  // an exact-size buffer, so ASan sees a one-byte over-read
  auto doc = read_document(copy);
  if (!doc.ok()) {
    ASSERT_FALSE(doc.error().message.empty()) << what;
    return;
  }
  auto w = write_document(*doc);
  ASSERT_TRUE(w.ok()) << what << ": a document that reads must write: " << w.error().describe();
  ASSERT_TRUE(*w == copy) << what << ": parsed but does not round-trip";
}

// Every truncation length for small files, a dense spread plus the first 4 KiB for large ones.
inline std::vector<std::size_t> truncation_lengths(std::size_t size) {
  std::vector<std::size_t> out;
  if (size <= 64 * 1024) {
    for (std::size_t n = 0; n < size; ++n) out.push_back(n);
    return out;
  }
  for (std::size_t n = 0; n < 4096; ++n) out.push_back(n);
  const std::size_t step = size / 1500 + 1;
  for (std::size_t n = 4096; n < size; n += step) out.push_back(n);
  for (std::size_t n = size - 64; n < size; ++n) out.push_back(n);
  return out;
}

}  // namespace remodel::test
