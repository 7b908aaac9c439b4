// The Document as JSON, for `remodel dump`.
#pragma once

#include <nlohmann/json.hpp>

#include "model/document.hpp"

namespace remodel {

nlohmann::ordered_json to_json(const Document& d);
nlohmann::ordered_json to_json(const DocumentInfo& info);

}  // namespace remodel
