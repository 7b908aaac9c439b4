// The pieces every format's JSON view is built from (dump): numbers, names, verbatim runs.
#pragma once

#include <bit>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "model/json.hpp"
#include "model/verbatim.hpp"

namespace remodel::json_fields {

using Json = nlohmann::ordered_json;

// NaN and infinities are not JSON numbers: they are written as their bits.
inline Json number(float f) {
  if (std::isfinite(f)) return f;
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", std::bit_cast<std::uint32_t>(f));
  return buf;
}

template <typename Range>
Json floats(const Range& r) {
  Json a = Json::array();
  for (float f : r) a.push_back(number(f));
  return a;
}

template <std::size_t N>
Json name(const std::array<std::uint8_t, N>& n) {
  const std::string s = fixed_string(n);
  Json j = json_text(s);
  // Bytes after the terminator are shown too when they are not zeros, so nothing is hidden.
  for (std::size_t i = s.size(); i < N; ++i) {
    if (n[i] != 0) {
      if (!j.is_object()) j = Json{{"text", j}};
      j["bytes"] = hex(n);
      return j;
    }
  }
  return j;
}

inline Json texts(const std::vector<std::string>& names) {
  Json a = Json::array();
  for (const std::string& n : names) a.push_back(json_text(n));
  return a;
}

template <typename T>
void optional_field(Json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}

// A run shows only when stored: none is the canonical bytes the writer derives.
inline void verbatim(Json& j, const char* key, const Verbatim& v) {
  if (v.stored()) j[key] = hex(v.bytes());
}

inline void verbatim_list(Json& j, const char* key, const std::vector<Verbatim>& runs) {
  if (runs.empty()) return;
  Json a = Json::array();
  for (const Verbatim& v : runs) a.push_back(hex(v.bytes()));
  j[key] = a;
}

}  // namespace remodel::json_fields
