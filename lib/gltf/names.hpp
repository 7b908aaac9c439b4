// Names and extras as glTF wants them: valid UTF-8 names, extras nested under "remodel".
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "scene/scene.hpp"

namespace remodel::gltf {

// The name as glTF text, through the library's one bytes-to-text rule (json_text): valid UTF-8 as is,
// else Shift-JIS decoded when the bytes are Shift-JIS, else the bytes outside UTF-8 written \xNN.
std::string utf8_name(std::string_view bytes);

// Sets o["name"] when the name is not empty.
void put_name(nlohmann::ordered_json& o, std::string_view name);

// The extras as JSON text can hold them: JSON has no NaN or infinity (a dump would write null, losing
// that a value was there), so a non-finite number becomes the string "NaN", "Infinity" or "-Infinity".
nlohmann::ordered_json json_extras(const scene::Extras& extras);

// Sets o["extras"] = {"remodel": extras} when there is anything to keep; a name that is not valid
// UTF-8 adds its stored bytes as "name_bytes" (hex) and how the text was made as "name_encoding"
// ("shift_jis" or "escaped"), so an import gets the file's name back.
void put_extras(nlohmann::ordered_json& o, const scene::Extras& extras, std::string_view name);

}  // namespace remodel::gltf
