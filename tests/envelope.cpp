#include "envelope.hpp"

#include <functional>
#include <optional>

namespace remodel::test {

using nlohmann::ordered_json;

namespace {

// Arrays of records a file holds whole, by the kind their records are: a PMP's PMOs are PMOs, a PAM's
// animations are what a bare animation file holds; the TIM2s of KH BBS models apart from the bare
// TIM2 files (KH2's, written by other tools).
struct Nested {
  const char* format;
  const char* key;
  const char* kind;
};
constexpr Nested kNested[] = {
    {"kh-bbs-pmo", "tim2s", "kh-bbs model tim2"},
    {"kh-bbs-pmp", "tim2s", "kh-bbs model tim2"},
    {"kh-bbs-pmp", "pmos", "kh-bbs-pmo"},
    {"kh-bbs-pam", "animations", "kh-bbs-pam-anim"},
};

std::optional<std::string> nested_kind(const std::string& format, const std::string& key) {
  for (const Nested& n : kNested) {
    if (format == n.format && key == n.key) return std::string(n.kind);
  }
  return std::nullopt;
}

bool is_scalar_array(const ordered_json& v) {
  if (!v.is_array()) return false;
  for (const ordered_json& x : v) {
    if (x.is_structured()) return false;
  }
  return true;
}

// Calls `leaf(field, value)` on every leaf of `node` under `path`, skipping `nested` keys at the top;
// `vector(field, length)` on every scalar array first, and indices apart where `by_component(field)`.
void walk(const ordered_json& node, const std::string& path, const std::set<std::string>* nested,
          const std::function<bool(const std::string&)>& by_component, const std::function<void(const std::string&, std::size_t)>& vector,
          const std::function<void(const std::string&, const ordered_json&)>& leaf) {
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      if (nested && nested->contains(key)) continue;
      walk(value, path + "." + key, nullptr, by_component, vector, leaf);
    }
  } else if (node.is_array()) {
    const std::string any = path + "[]";
    if (is_scalar_array(node)) vector(any, node.size());
    const bool components = is_scalar_array(node) && by_component(any);
    for (std::size_t i = 0; i < node.size(); ++i) {
      walk(node[i], components ? path + "[" + std::to_string(i) + "]" : any, nullptr, by_component, vector, leaf);
    }
  } else if (!node.is_null()) {  // null: an optional record absent, not a stored value
    leaf(path, node);
  }
}

void add_records(const ordered_json& doc, std::vector<EnvelopeRecord>& out) {
  const std::string format = doc.at("format").get<std::string>();
  for (const auto& [key, value] : doc.items()) {
    if (key == "format" || key == "verbatim_bytes") continue;
    EnvelopeRecord own{format, &value, {}};
    if (value.is_object()) {
      for (const auto& [k, v] : value.items()) {
        if (!v.is_array() || v.empty() || !v[0].is_object()) continue;
        if (auto kind = nested_kind(format, k)) {
          for (const ordered_json& x : v) out.push_back({*kind, &x, {}});
        } else if (v[0].contains("format")) {  // a container's entries: Documents of their own
          for (const ordered_json& x : v) add_records(x, out);
        } else if (v[0].contains("magic")) {  // J3D sections, each a kind by its magic
          for (const ordered_json& x : v) out.push_back({format + " " + x.at("magic").get<std::string>(), &x, {}});
        } else {
          continue;
        }
        own.nested.insert(k);
      }
    }
    out.push_back(std::move(own));
  }
}

}  // namespace

std::vector<EnvelopeRecord> envelope_records(const ordered_json& doc) {
  std::vector<EnvelopeRecord> out;
  add_records(doc, out);
  return out;
}

std::map<std::string, std::set<std::string>> Envelope::leaves(const EnvelopeRecord& r) const {
  std::map<std::string, std::set<std::string>> out;
  walk(*r.node, "", &r.nested, [&](const std::string& f) { return vectors_.contains(r.kind + " " + f); },
       [](const std::string&, std::size_t) {}, [&](const std::string& f, const ordered_json& v) { out[f].insert(v.dump()); });
  return out;
}

Envelope::Envelope(const std::vector<ordered_json>& real) {
  std::vector<std::vector<EnvelopeRecord>> records;
  std::map<std::string, std::set<std::size_t>> lengths;
  for (const ordered_json& doc : real) {
    records.push_back(envelope_records(doc));
    for (const EnvelopeRecord& r : records.back()) {
      walk(*r.node, "", &r.nested, [](const std::string&) { return false; },
           [&](const std::string& f, std::size_t n) { lengths[r.kind + " " + f].insert(n); }, [](const std::string&, const ordered_json&) {});
    }
  }
  constexpr std::size_t kLongestVector = 16;  // a 4x4 matrix
  for (const auto& [field, n] : lengths) {
    if (n.size() == 1 && *n.begin() > 0 && *n.begin() <= kLongestVector) vectors_.insert(field);
  }
  // A record met twice (a PAC's entry and the same entry as a bare file) counts once.
  std::map<std::string, std::set<std::map<std::string, std::set<std::string>>>> distinct;
  for (const auto& doc : records) {
    for (const EnvelopeRecord& r : doc) distinct[r.kind].insert(leaves(r));
  }
  for (const auto& [kind, set] : distinct) {
    distinct_[kind] = set.size();
    std::map<std::string, std::set<std::string>> values;
    std::map<std::string, std::size_t> held_by;
    for (const auto& record : set) {
      for (const auto& [field, v] : record) {
        values[field].insert(v.begin(), v.end());
        ++held_by[field];
      }
    }
    for (const auto& [field, v] : values) {
      if (v.size() == 1 && held_by[field] >= 2) fields_[kind][field] = *v.begin();
    }
  }
}

std::size_t Envelope::distinct_records(const std::string& kind) const {
  auto it = distinct_.find(kind);
  return it == distinct_.end() ? 0 : it->second;
}

std::vector<EnvelopeDifference> Envelope::differences(const ordered_json& doc) const {
  std::vector<EnvelopeDifference> out;
  std::set<std::pair<std::string, std::string>> named;
  for (const EnvelopeRecord& r : envelope_records(doc)) {
    auto learned = fields_.find(r.kind);
    if (learned == fields_.end()) continue;
    for (const auto& [field, values] : leaves(r)) {
      auto real = learned->second.find(field);
      if (real == learned->second.end()) continue;
      for (const std::string& v : values) {
        if (v != real->second && named.emplace(r.kind, field).second) out.push_back({r.kind, field, real->second, v});
      }
    }
  }
  return out;
}

}  // namespace remodel::test
