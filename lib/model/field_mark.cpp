#include "model/field_mark.hpp"

#include <algorithm>

namespace remodel {

std::string field_at(const std::vector<FieldMark>& marks, std::size_t offset) {
  auto it = std::upper_bound(marks.begin(), marks.end(), offset,
                             [](std::size_t o, const FieldMark& m) { return o < m.offset; });
  if (it == marks.begin()) return "";
  return std::prev(it)->field;
}

}  // namespace remodel
