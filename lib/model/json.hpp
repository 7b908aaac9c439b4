// The Document as JSON, for `remodel dump`; stored bytes as JSON text for every JSON writer.
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

#include "model/document.hpp"

namespace remodel {

nlohmann::ordered_json to_json(const Document& d);
nlohmann::ordered_json to_json(const DocumentInfo& info);

// Stored bytes (a name, a magic, a file path, a message quoting them) as JSON, losing nothing: valid
// UTF-8 is a string as is; anything else is {"text", "encoding", "bytes"}, where text is the bytes
// decoded as Shift-JIS (CP932, encoding "shift_jis") when they are valid and re-encode to themselves,
// else the bytes with each one that is not UTF-8 (and each backslash) as \xNN (encoding "escaped"),
// and bytes is their hex.
nlohmann::ordered_json json_text(std::string_view bytes);
std::string hex(ByteSpan bytes);  // two lowercase digits a byte: how JSON shows raw bytes

}  // namespace remodel
