// Verbatim runs (bytes the structure cannot explain, kept as stored) and what a write reports about
// them: a Document's verbatim bytes are what its writer counts, never a sum kept by hand.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/bytes.hpp"
#include "model/field_mark.hpp"

namespace remodel {

// None (the default) means the canonical bytes the writer derives (zeros, the format's filler); a
// stored run may be empty where a format tells "nothing here" from "the canonical padding". It does
// not convert to a span: only ByteWriter writes one, and counts it.
class Verbatim {
 public:
  Verbatim() = default;
  explicit Verbatim(Bytes stored) : stored_(std::move(stored)) {}
  explicit Verbatim(ByteSpan stored) : stored_(Bytes(stored.begin(), stored.end())) {}

  bool stored() const { return stored_.has_value(); }
  std::size_t size() const { return stored_ ? stored_->size() : 0; }
  // The stored bytes (empty when none), for views and tests; writers go through ByteWriter::verbatim.
  const Bytes& bytes() const {
    static const Bytes kNone;
    return stored_ ? *stored_ : kNone;
  }
  bool operator==(const Verbatim&) const = default;

 private:
  std::optional<Bytes> stored_;
};

// One run a write counted: a Verbatim, or a stored value the structure would have derived otherwise.
struct VerbatimRun {
  std::size_t offset = 0;
  std::size_t size = 0;
  std::string field;
};

// What a write reports besides its bytes. The count is always kept; with `marks`, where each named
// record starts (for `check` to name a difference) and every counted run by name.
struct WriteReport {
  bool marks = false;
  std::size_t verbatim_bytes = 0;
  std::vector<FieldMark> fields;
  std::vector<VerbatimRun> verbatim_runs;
};

}  // namespace remodel
