// Where a named record starts in a written file; `remodel check` maps a differing offset to its field.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace remodel {

struct FieldMark {
  std::size_t offset;
  std::string field;
};

// The field whose record holds `offset`: the last mark at or before it.
std::string field_at(const std::vector<FieldMark>& marks, std::size_t offset);

}  // namespace remodel
