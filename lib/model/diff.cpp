#include "model/diff.hpp"

#include <algorithm>

#include "model/json.hpp"

namespace remodel {

namespace {

using Json = nlohmann::ordered_json;

struct Walk {
  std::vector<FieldDifference>& out;
  std::size_t limit;
  std::size_t count = 0;

  void add(const std::string& path, const Json& a, const Json& b) {
    if (++count <= limit) out.push_back(FieldDifference{path, a, b});
  }

  void compare(const Json& a, const Json& b, const std::string& path) {
    if (a == b) return;
    if (a.is_object() && b.is_object()) {
      for (auto it = a.begin(); it != a.end(); ++it) {
        const std::string p = path.empty() ? it.key() : path + "." + it.key();
        if (b.contains(it.key())) compare(it.value(), b.at(it.key()), p);
        else add(p, it.value(), Json());
      }
      for (auto it = b.begin(); it != b.end(); ++it)
        if (!a.contains(it.key())) add(path.empty() ? it.key() : path + "." + it.key(), Json(), it.value());
      return;
    }
    if (a.is_array() && b.is_array()) {
      const std::size_t n = std::max(a.size(), b.size());
      for (std::size_t i = 0; i < n; ++i) {
        const std::string p = path + "[" + std::to_string(i) + "]";
        if (i < a.size() && i < b.size()) compare(a[i], b[i], p);
        else add(p, i < a.size() ? a[i] : Json(), i < b.size() ? b[i] : Json());
      }
      return;
    }
    add(path, a, b);
  }
};

}  // namespace

std::size_t diff_json(const Json& a, const Json& b, std::vector<FieldDifference>& out, std::size_t limit) {
  Walk walk{out, limit};
  walk.compare(a, b, "");
  return walk.count;
}

std::size_t diff_documents(const Document& a, const Document& b, std::vector<FieldDifference>& out, std::size_t limit) {
  return diff_json(to_json(a), to_json(b), out, limit);
}

}  // namespace remodel
