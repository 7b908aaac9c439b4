// Two Documents compared field by field through their JSON view: what `remodel diff` prints and what
// import tests use to show an edit changed nothing outside it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/document.hpp"

namespace remodel {

struct FieldDifference {
  std::string field;       // a JSON path, e.g. "mesh0.sections[3].vertices"
  nlohmann::ordered_json a, b;  // null where one side has no such field
};

// Every differing leaf (or a field only one side has), in document order; at most `limit` are
// listed and the total count is returned.
std::size_t diff_documents(const Document& a, const Document& b, std::vector<FieldDifference>& out,
                           std::size_t limit = 200);
std::size_t diff_json(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b,
                      std::vector<FieldDifference>& out, std::size_t limit = 200);

}  // namespace remodel
