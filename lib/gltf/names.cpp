// Names and extras as glTF wants them (see names.hpp), and safe file names for a .gltf's resources.
#include "gltf/names.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gltf/gltf.hpp"
#include "model/json.hpp"

namespace remodel::gltf {

std::string utf8_name(std::string_view bytes) {
  const nlohmann::ordered_json text = json_text(bytes);
  return text.is_string() ? text.get<std::string>() : text["text"].get<std::string>();
}

void put_name(nlohmann::ordered_json& o, std::string_view name) {
  if (!name.empty()) o["name"] = utf8_name(name);
}

nlohmann::ordered_json json_extras(const scene::Extras& extras) {
  nlohmann::ordered_json out = extras;
  std::vector<nlohmann::ordered_json*> stack{&out};
  while (!stack.empty()) {
    nlohmann::ordered_json* v = stack.back();
    stack.pop_back();
    if (v->is_number_float()) {
      const double d = v->get<double>();
      if (std::isnan(d)) *v = "NaN";
      else if (std::isinf(d)) *v = d > 0 ? "Infinity" : "-Infinity";
    } else if (v->is_structured()) {
      for (auto& child : *v) stack.push_back(&child);
    }
  }
  return out;
}

void put_extras(nlohmann::ordered_json& o, const scene::Extras& extras, std::string_view name) {
  const nlohmann::ordered_json text = json_text(name);
  const bool keep_bytes = !text.is_string();
  if (extras.is_null() && !keep_bytes) return;
  if (extras.is_object() && extras.empty() && !keep_bytes) return;
  nlohmann::ordered_json value = json_extras(extras.is_object() || extras.is_null() ? extras : nlohmann::ordered_json{{"value", extras}});
  if (keep_bytes) {
    value["name_bytes"] = text["bytes"];
    value["name_encoding"] = text["encoding"];
  }
  o["extras"] = {{"remodel", std::move(value)}};
}

std::string safe_file_name(std::string_view name) {
  std::string out;
  for (char c : name.substr(0, 64)) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    out += ok ? c : '_';
  }
  if (out.empty()) return "model";
  // CON, PRN, AUX, NUL, COM1-9 and LPT1-9 name devices on Windows whatever extension follows.
  std::string upper;
  for (char c : out) upper += (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c;
  static const std::array<const char*, 4> devices{"CON", "PRN", "AUX", "NUL"};
  bool device = false;
  for (const char* d : devices) device = device || upper == d;
  if (upper.size() == 4 && (upper.rfind("COM", 0) == 0 || upper.rfind("LPT", 0) == 0) && upper[3] >= '1' && upper[3] <= '9') device = true;
  return device ? "_" + out : out;
}

}  // namespace remodel::gltf
