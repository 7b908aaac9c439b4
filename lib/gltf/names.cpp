// Names and extras as glTF wants them (see names.hpp), and safe file names for a .gltf's resources.
#include "gltf/names.hpp"

#include <array>
#include <cstdint>

#include "gltf/gltf.hpp"

namespace remodel::gltf {

namespace {

// Length of the valid UTF-8 sequence at s[i] (shortest form, no surrogates, at most U+10FFFF), or 0.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<std::uint8_t>(s[i + k]); };
  const std::uint8_t c = b(0);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  std::uint8_t lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
  if (c >= 0xC2 && c <= 0xDF) n = 2;
  else if (c == 0xE0) n = 3, lo = 0xA0;
  else if (c == 0xED) n = 3, hi = 0x9F;
  else if (c >= 0xE1 && c <= 0xEF) n = 3;
  else if (c == 0xF0) n = 4, lo = 0x90;
  else if (c == 0xF4) n = 4, hi = 0x8F;
  else if (c >= 0xF1 && c <= 0xF3) n = 4;
  else return 0;
  if (i + n > s.size() || b(1) < lo || b(1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k) if (b(k) < 0x80 || b(k) > 0xBF) return 0;
  return n;
}

std::string hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (char ch : bytes) {
    const auto c = static_cast<std::uint8_t>(ch);
    s += digits[c >> 4];
    s += digits[c & 15];
  }
  return s;
}

}  // namespace

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0, n; i < s.size(); i += n) {
    if ((n = utf8_sequence(s, i)) == 0) return false;
  }
  return true;
}

std::string utf8_name(std::string_view s) {
  if (valid_utf8(s)) return std::string(s);
  static const char* digits = "0123456789ABCDEF";
  std::string out;
  for (std::size_t i = 0, n; i < s.size(); i += n) {
    n = utf8_sequence(s, i);
    if (n > 0 && s[i] != '\\') {
      out.append(s.substr(i, n));
      continue;
    }
    const auto c = static_cast<std::uint8_t>(s[i]);
    out += "\\x";
    out += digits[c >> 4];
    out += digits[c & 15];
    n = 1;
  }
  return out;
}

void put_name(nlohmann::ordered_json& o, std::string_view name) {
  if (!name.empty()) o["name"] = utf8_name(name);
}

void put_extras(nlohmann::ordered_json& o, const scene::Extras& extras, std::string_view name) {
  const bool keep_bytes = !valid_utf8(name);
  if (extras.is_null() && !keep_bytes) return;
  if (extras.is_object() && extras.empty() && !keep_bytes) return;
  nlohmann::ordered_json value = extras.is_object() || extras.is_null() ? extras : nlohmann::ordered_json{{"value", extras}};
  if (keep_bytes) value["name_bytes"] = hex(name);
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
