// Names and extras as glTF wants them: valid UTF-8 names, extras nested under "remodel".
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "scene/scene.hpp"

namespace remodel::gltf {

bool valid_utf8(std::string_view bytes);

// The name as glTF text: valid UTF-8 as is, else each byte that is not part of a UTF-8 sequence
// (and each backslash) written as \xNN, so the text still shows the readable part of the name.
std::string utf8_name(std::string_view bytes);

// Sets o["name"] when the name is not empty.
void put_name(nlohmann::ordered_json& o, std::string_view name);

// Sets o["extras"] = {"remodel": extras} when there is anything to keep; a name that is not valid
// UTF-8 adds its stored bytes as "name_bytes" (hex), so an import gets the file's name back.
void put_extras(nlohmann::ordered_json& o, const scene::Extras& extras, std::string_view name);

}  // namespace remodel::gltf
