// The fuzz oracle: whatever reads must write back to the same bytes, and every decoder must
// succeed or fail cleanly on what was read.
#pragma once

#include <cstdio>
#include <cstdlib>

#include "model/bytes.hpp"
#include "model/error.hpp"

namespace remodel::fuzz {

[[noreturn]] inline void die(const char* what) {
  std::fprintf(stderr, "round-trip oracle failed: %s\n", what);
  std::abort();
}

template <typename Doc, typename WriteFn>
void expect_round_trip(ByteSpan input, const Doc& doc, WriteFn&& write) {
  Result<Bytes> out = write(doc);
  if (!out.ok()) die("a document that reads must write");
  if (out->size() != input.size() || !std::equal(out->begin(), out->end(), input.begin())) die("write(read(x)) != x");
}

}  // namespace remodel::fuzz
