// glTF -> checked document: the GLB container, the JSON, buffers (GLB BIN chunk, data: URIs, files
// through the caller's loader), buffer views and accessors, each checked against the bytes present
// before anything is allocated from a count. Parsed with nlohmann::ordered_json rather than
// tinygltf (see README.md, "Reading"): extras keep their key order and every range is checked here.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "gltf/reader_document.hpp"
#include "model/file_io.hpp"

namespace remodel::gltf::detail {

namespace {

std::uint32_t u32(ByteSpan b, std::size_t at) {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (std::uint32_t{b[at + 3]} << 24);
}

std::size_t component_size(int component) {
  switch (component) {
    case kByte: case kUnsignedByte: return 1;
    case kShort: case kUnsignedShort: return 2;
    case kUnsignedInt: case kFloat: return 4;
    default: return 0;
  }
}

std::size_t type_width(const std::string& type) {
  if (type == "SCALAR") return 1;
  if (type == "VEC2") return 2;
  if (type == "VEC3") return 3;
  if (type == "VEC4") return 4;
  if (type == "MAT2") return 4;
  if (type == "MAT3") return 9;
  if (type == "MAT4") return 16;
  return 0;
}

// Deep nesting would make copying and comparing extras recurse without bound: refused before parsing.
constexpr int kMaxDepth = 64;

Result<void> check_depth(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) {
        return Error{ErrorCode::unsupported, i, "json", "nests arrays and objects deeper than " + std::to_string(kMaxDepth) + " levels"};
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return {};
}

// The DOM nlohmann's parser builds (a repeated key keeps its first place and takes its last value),
// each object and array made at its final size: grown one member at a time, they took a third of a
// parse under ASan (fuzz_gltf). Iterative, as nlohmann's SAX parser is; errors keep their place.
class DomBuilder : public nlohmann::json_sax<json> {
 public:
  static constexpr std::size_t kScannedMembers = 16;
  json root;
  std::optional<std::size_t> error_at;
  std::string error_token, error_what;
  bool error_is_range = false;  // a number past a double's range ("1e400")

  bool null() override { return value(nullptr); }
  bool boolean(bool v) override { return value(v); }
  bool number_integer(number_integer_t v) override { return value(v); }
  bool number_unsigned(number_unsigned_t v) override { return value(v); }
  bool number_float(number_float_t v, const string_t&) override { return value(v); }
  bool string(string_t& v) override { return value(std::move(v)); }  // the lexer clears its buffer before the next token
  bool binary(binary_t& v) override { return value(json::binary(v)); }  // not in JSON text
  bool key(string_t& k) override {
    key_ = std::move(k);
    return true;
  }
  bool start_object(std::size_t) override { return open(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_object() override {
    json o(json::value_t::object);
    auto& members = o.get_ref<json::object_t&>();
    members.reserve(items_.size() - open_.back().first);
    // ordered_json's emplace scans every member for the key: past a few members an index keeps the
    // parse linear (a 1 MB object of 80,000 keys took 10 s).
    const std::size_t first = open_.back().first;
    const bool indexed = items_.size() - first > kScannedMembers;
    std::unordered_map<std::string_view, std::size_t> place;
    for (std::size_t i = first; i < items_.size(); ++i) {
      json* repeated = nullptr;
      if (indexed) {
        auto [it, added] = place.try_emplace(items_[i].first, members.size());
        if (!added) repeated = &std::next(members.begin(), static_cast<std::ptrdiff_t>(it->second))->second;
      } else {
        auto it = std::find_if(members.begin(), members.end(), [&](const auto& m) { return m.first == items_[i].first; });
        if (it != members.end()) repeated = &it->second;
      }
      if (repeated != nullptr) *repeated = std::move(items_[i].second);
      else members.emplace_back(items_[i].first, std::move(items_[i].second));
    }
    return close(std::move(o));
  }
  bool end_array() override {
    json a(json::value_t::array);
    auto& elements = a.get_ref<json::array_t&>();
    elements.reserve(items_.size() - open_.back().first);
    for (std::size_t i = open_.back().first; i < items_.size(); ++i) elements.push_back(std::move(items_[i].second));
    return close(std::move(a));
  }
  bool parse_error(std::size_t position, const std::string& last_token, const nlohmann::detail::exception& e) override {
    error_at = position;
    error_token = last_token.substr(0, 40);
    error_what = e.what();
    error_is_range = dynamic_cast<const json::out_of_range*>(&e) != nullptr;
    return false;
  }

 private:
  struct Open {
    std::size_t first;  // its first member in items_
    std::string key;    // its own key in the object around it
  };
  std::vector<Open> open_;
  std::vector<std::pair<std::string, json>> items_;  // the members of every open object and array, in order
  std::string key_;

  bool value(json v) {
    if (open_.empty()) {
      root = std::move(v);
    } else {
      items_.emplace_back(std::move(key_), std::move(v));
    }
    return true;
  }
  bool open() {
    open_.push_back({items_.size(), std::move(key_)});
    return true;
  }
  bool close(json v) {
    items_.resize(open_.back().first);
    key_ = std::move(open_.back().key);
    open_.pop_back();
    return value(std::move(v));
  }
};

Result<json> parse_json(std::string_view text, std::uint64_t base_offset) {
  if (text.size() > kMaxJsonSize) {
    return Error{ErrorCode::unsupported, base_offset, "json", "is " + std::to_string(text.size()) + " bytes; at most " +
                                                                  std::to_string(kMaxJsonSize) + " are read"};
  }
  if (auto e = check_depth(text); !e) {
    Error error = e.error();
    if (error.offset) *error.offset += base_offset;
    return error;
  }
  DomBuilder dom;
  json::sax_parse(text.begin(), text.end(), &dom);
  if (dom.error_at && dom.error_is_range) {  // nlohmann's message for it names no place
    const std::size_t at = *dom.error_at > dom.error_token.size() ? *dom.error_at - dom.error_token.size() : 0;
    return Error{ErrorCode::bad_value, base_offset + at, "json",
                 "holds the number " + dom.error_token + ", which is outside the range of a double (at most about 1.8e308)"};
  }
  if (dom.error_at) {
    return Error{ErrorCode::bad_value, base_offset + (*dom.error_at > 0 ? *dom.error_at - 1 : 0), "json", "is not valid JSON: " + dom.error_what};
  }
  if (!dom.root.is_object()) return Error{ErrorCode::bad_value, base_offset, "json", "is not a JSON object"};
  return std::move(dom.root);
}

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

std::optional<Bytes> base64(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  Bytes out;
  out.reserve(text.size() * 3 / 4);
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    const int v = base64_value(c);
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(acc >> bits));
    }
  }
  return out;
}

std::optional<std::string> percent_decode(std::string_view uri) {
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      out += uri[i];
      continue;
    }
    const auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; };
    if (i + 2 >= uri.size() || hex(uri[i + 1]) < 0 || hex(uri[i + 2]) < 0) return std::nullopt;
    out += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
    i += 2;
  }
  return out;
}

// A URI that names a file beside the .gltf or below it: relative, no "..", no scheme or drive.
bool stays_beside(const std::string& path) {
  if (path.empty() || path.front() == '/' || path.front() == '\\' || path.find(':') != std::string::npos) return false;
  if (path.find('\0') != std::string::npos || path.find('\\') != std::string::npos) return false;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    if (path.compare(start, end - start, "..") == 0 && end - start == 2) return false;
    start = end + 1;
  }
  return true;
}

double component_value(const std::uint8_t* p, int component, bool normalized) {
  switch (component) {
    case kByte: {
      const auto v = static_cast<std::int8_t>(*p);
      return normalized ? std::max(v / 127.0, -1.0) : v;
    }
    case kUnsignedByte: return normalized ? *p / 255.0 : *p;
    case kShort: {
      std::int16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? std::max(v / 32767.0, -1.0) : v;
    }
    case kUnsignedShort: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? v / 65535.0 : v;
    }
    case kUnsignedInt: {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

// Writes the element values of a checked accessor to `out` (count x width values of T, bytes
// written by memcpy so `out` may be a Scene array of Vec3...), sparse substitution applied; T is
// float or u32.
template <typename T>
Result<void> values_into(const Document& d, const Accessor& a, const std::string& where, void* out) {
  auto* bytes = static_cast<std::uint8_t*>(out);
  const auto put = [&](std::size_t i, double value) {
    const T v = static_cast<T>(value);
    std::memcpy(bytes + i * sizeof(T), &v, sizeof(T));
  };
  const std::size_t n = a.count * a.width;
  const std::size_t size = component_size(a.component), element = size * a.width;
  if (a.view < 0) {
    if (n > 0) std::memset(out, 0, n * sizeof(T));
  } else {
    const View& v = d.views[static_cast<std::size_t>(a.view)];
    const std::uint8_t* base = d.buffers[v.buffer].data() + v.offset + a.offset;
    const std::size_t stride = v.stride != 0 ? v.stride : element;
    if (a.component == kFloat && std::is_same_v<T, float> && stride == element) {
      if (n > 0) std::memcpy(out, base, n * 4);
    } else {
      for (std::size_t i = 0; i < a.count; ++i) {
        for (std::size_t c = 0; c < a.width; ++c) put(i * a.width + c, component_value(base + i * stride + c * size, a.component, a.normalized));
      }
    }
  }
  if (a.sparse_count > 0) {
    const View& iv = d.views[static_cast<std::size_t>(a.sparse_index_view)];
    const View& vv = d.views[static_cast<std::size_t>(a.sparse_value_view)];
    const std::uint8_t* ip = d.buffers[iv.buffer].data() + iv.offset + a.sparse_index_offset;
    const std::uint8_t* vp = d.buffers[vv.buffer].data() + vv.offset + a.sparse_value_offset;
    const std::size_t isize = component_size(a.sparse_index_component);
    double last = -1;
    for (std::size_t k = 0; k < a.sparse_count; ++k) {
      const double index = component_value(ip + k * isize, a.sparse_index_component, false);
      if (index <= last || index >= static_cast<double>(a.count)) {
        return bad(where + ".sparse.indices", "entry " + std::to_string(k) + " is " + std::to_string(static_cast<std::uint64_t>(index)) +
                                                  "; sparse indices increase strictly and stay below the count " + std::to_string(a.count));
      }
      last = index;
      const auto at = static_cast<std::size_t>(index);
      for (std::size_t c = 0; c < a.width; ++c) put(at * a.width + c, component_value(vp + k * element + c * size, a.component, a.normalized));
    }
  }
  if constexpr (std::is_same_v<T, float>) {
    for (std::size_t i = 0; i < n; ++i) {
      float v;
      std::memcpy(&v, bytes + i * 4, 4);
      if (!std::isfinite(v)) return bad(where, "element " + std::to_string(i / a.width) + " holds a value that is not a finite number");
    }
  }
  return {};
}

template <typename T>
Result<std::vector<T>> values(const Document& d, const Accessor& a, const std::string& where) {
  std::vector<T> out(a.count * a.width);
  if (auto e = values_into<T>(d, a, where, out.data()); !e) return e.error();
  return out;
}

// Checks that `bytes` from `offset` in view `view` lie inside it; the view lies inside its buffer.
Result<void> fits(const View& v, std::size_t offset, std::size_t count, std::size_t element, std::size_t stride,
                          const std::string& where) {
  const std::size_t step = stride != 0 ? stride : element;
  if (offset > v.length || count > (v.length - offset) / std::max<std::size_t>(step, 1) + 1 ||
      (count > 0 && (count - 1) * step + element > v.length - offset)) {
    return bad(where, std::to_string(count) + " elements of " + std::to_string(element) + " bytes from byte " + std::to_string(offset) +
                          " do not fit the buffer view's " + std::to_string(v.length) + " bytes", ErrorCode::bad_count);
  }
  return {};
}

Result<void> read_buffers(Document& d, ByteSpan bin, bool glb, const ResourceLoader& resources) {
  if (!d.root.contains("buffers")) return {};
  const json& list = d.root["buffers"];
  if (!list.is_array()) return bad("buffers", "is not an array");
  std::unordered_map<std::string, std::size_t> loaded_from;  // URI -> index in d.loaded: each file is read once
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "buffers[" + std::to_string(i) + "]";
    const json& b = list[i];
    if (!b.is_object() || !b.contains("byteLength") || !b["byteLength"].is_number_unsigned()) {
      return bad(where + ".byteLength", "is missing or not a whole number of at least 0");
    }
    const std::uint64_t length = b["byteLength"].get<std::uint64_t>();
    ByteSpan data;
    if (b.contains("uri")) {
      if (!b["uri"].is_string()) return bad(where + ".uri", "is not a string");
      const std::string& uri = b["uri"].get_ref<const std::string&>();
      if (auto it = loaded_from.find(uri); it != loaded_from.end()) {
        data = d.loaded[it->second];
      } else {
        auto loaded = load_uri(uri, resources, where + ".uri");
        if (!loaded) return loaded.error();
        loaded_from.emplace(uri, d.loaded.size());
        d.loaded.push_back(std::move(*loaded));  // moving a vector keeps its bytes where they are
        data = d.loaded.back();
      }
    } else if (glb && i == 0) {
      data = bin;  // in place: a copy of a large BIN chunk costs as much as reading it
    } else {
      return bad(where, "has no uri and is not the GLB's BIN chunk", ErrorCode::bad_offset);
    }
    // The BIN chunk may end in up to 3 bytes of padding; a URI's file holds exactly byteLength.
    if (data.size() < length || (glb && i == 0 && !b.contains("uri") && data.size() - length > 3)) {
      return bad(where + ".byteLength", "is " + std::to_string(length) + " but the data holds " + std::to_string(data.size()) + " bytes",
                 ErrorCode::bad_count);
    }
    d.buffers.push_back(data.first(static_cast<std::size_t>(length)));
  }
  return {};
}

Result<void> read_views(Document& d) {
  if (!d.root.contains("bufferViews")) return {};
  const json& list = d.root["bufferViews"];
  if (!list.is_array()) return bad("bufferViews", "is not an array");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "bufferViews[" + std::to_string(i) + "]";
    const json& o = list[i];
    if (!o.is_object()) return bad(where, "is not an object");
    auto buffer = index_of(o, "buffer", d.buffers.size(), where, "buffer");
    if (!buffer) return buffer.error();
    if (*buffer < 0) return bad(where + ".buffer", "is missing");
    View v;
    v.buffer = static_cast<std::size_t>(*buffer);
    const auto number = [&](const char* key, std::size_t& out, bool required) -> Result<void> {
      if (!o.contains(key)) return required ? Result<void>(bad(where + "." + key, "is missing")) : Result<void>();
      if (!o[key].is_number_unsigned()) return bad(where + "." + key, "is not a whole number of at least 0");
      out = o[key].get<std::size_t>();
      return {};
    };
    if (auto e = number("byteLength", v.length, true); !e) return e.error();
    if (auto e = number("byteOffset", v.offset, false); !e) return e.error();
    if (auto e = number("byteStride", v.stride, false); !e) return e.error();
    const std::size_t have = d.buffers[v.buffer].size();
    if (v.offset > have || v.length > have - v.offset || v.length == 0) {
      return bad(where + ".byteLength", "bytes " + std::to_string(v.offset) + " + " + std::to_string(v.length) + " are not inside buffer " +
                                            std::to_string(v.buffer) + "'s " + std::to_string(have) + " bytes", ErrorCode::bad_offset);
    }
    if (o.contains("byteStride") && (v.stride < 4 || v.stride > 252 || v.stride % 4 != 0)) {
      return bad(where + ".byteStride", "is " + std::to_string(v.stride) + "; glTF allows multiples of 4 from 4 to 252");
    }
    d.views.push_back(v);
  }
  return {};
}

Result<void> read_sparse(Document& d, const json& s, Accessor& a, const std::string& where) {
  if (!s.is_object() || !s.contains("count") || !s["count"].is_number_unsigned() || s["count"].get<std::uint64_t>() == 0) {
    return bad(where + ".count", "is missing or not a whole number of at least 1");
  }
  a.sparse_count = s["count"].get<std::size_t>();
  if (a.sparse_count > a.count) {
    return bad(where + ".count", "is " + std::to_string(a.sparse_count) + ", more than the accessor's " + std::to_string(a.count) + " elements", ErrorCode::bad_count);
  }
  for (const char* part : {"indices", "values"}) {
    const std::string at = where + "." + part;
    if (!s.contains(part) || !s[part].is_object()) return bad(at, "is missing");
    const json& p = s[part];
    auto view = index_of(p, "bufferView", d.views.size(), at, "buffer view");
    if (!view) return view.error();
    if (*view < 0) return bad(at + ".bufferView", "is missing");
    std::size_t offset = 0;
    if (p.contains("byteOffset")) {
      if (!p["byteOffset"].is_number_unsigned()) return bad(at + ".byteOffset", "is not a whole number of at least 0");
      offset = p["byteOffset"].get<std::size_t>();
    }
    std::size_t element = component_size(a.component) * a.width;
    if (part[0] == 'i') {
      a.sparse_index_view = *view, a.sparse_index_offset = offset;
      a.sparse_index_component = p.contains("componentType") && p["componentType"].is_number_integer() ? p["componentType"].get<int>() : 0;
      if (a.sparse_index_component != kUnsignedByte && a.sparse_index_component != kUnsignedShort && a.sparse_index_component != kUnsignedInt) {
        return bad(at + ".componentType", "is not an unsigned byte, short or int");
      }
      element = component_size(a.sparse_index_component);
    } else {
      a.sparse_value_view = *view, a.sparse_value_offset = offset;
    }
    const View& v = d.views[static_cast<std::size_t>(*view)];
    if (v.stride != 0) return bad(at + ".bufferView", "has a byteStride; sparse data is tightly packed");
    if (offset % component_size(part[0] == 'i' ? a.sparse_index_component : a.component) != 0) {
      return bad(at + ".byteOffset", "is not a multiple of the component size");
    }
    if (auto e = fits(v, offset, a.sparse_count, element, 0, at); !e) return e.error();
  }
  return {};
}

Result<void> read_accessors(Document& d, std::size_t json_size) {
  if (!d.root.contains("accessors")) return {};
  const json& list = d.root["accessors"];
  if (!list.is_array()) return bad("accessors", "is not an array");
  std::size_t total = json_size;
  for (const ByteSpan& b : d.buffers) total += b.size();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "accessors[" + std::to_string(i) + "]";
    const json& o = list[i];
    if (!o.is_object()) return bad(where, "is not an object");
    Accessor a;
    a.component = o.contains("componentType") && o["componentType"].is_number_integer() ? o["componentType"].get<int>() : 0;
    if (component_size(a.component) == 0) return bad(where + ".componentType", "is missing or not one glTF allows");
    a.type = o.contains("type") && o["type"].is_string() ? o["type"].get<std::string>() : "";
    a.width = type_width(a.type);
    if (a.width == 0) return bad(where + ".type", "is missing or not SCALAR, VEC2-4 or MAT2-4");
    if (a.type[0] == 'M' && a.component != kFloat) return bad(where + ".componentType", "is not float; only float matrices are read", ErrorCode::unsupported);
    if (!o.contains("count") || !o["count"].is_number_unsigned() || o["count"].get<std::uint64_t>() == 0) {
      return bad(where + ".count", "is missing or not a whole number of at least 1");
    }
    a.count = o["count"].get<std::size_t>();
    if (o.contains("normalized") && !o["normalized"].is_boolean()) return bad(where + ".normalized", "is not true or false");
    a.normalized = o.contains("normalized") && o["normalized"].get<bool>();
    if (a.normalized && (a.component == kFloat || a.component == kUnsignedInt)) return bad(where + ".normalized", "is true for a float or 32-bit component");
    if (o.contains("byteOffset")) {
      if (!o["byteOffset"].is_number_unsigned()) return bad(where + ".byteOffset", "is not a whole number of at least 0");
      a.offset = o["byteOffset"].get<std::size_t>();
    }
    auto view = index_of(o, "bufferView", d.views.size(), where, "buffer view");
    if (!view) return view.error();
    a.view = *view;
    const std::size_t size = component_size(a.component), element = size * a.width;
    if (a.view >= 0) {
      const View& v = d.views[static_cast<std::size_t>(a.view)];
      if (a.offset % size != 0) return bad(where + ".byteOffset", "is not a multiple of the component size " + std::to_string(size));
      if (v.stride != 0 && (v.stride < element || v.stride % size != 0)) {
        return bad(where + ".bufferView", "has byteStride " + std::to_string(v.stride) + ", less than the element's " + std::to_string(element) + " bytes or not a multiple of its component");
      }
      if (auto e = fits(v, a.offset, a.count, element, v.stride, where + ".count"); !e) return e.error();
    } else if (a.count > total || a.count * a.width > 4 * total) {
      // Zeros from nothing: bounded by the bytes present, so a count alone cannot allocate memory.
      return bad(where + ".count", "is " + std::to_string(a.count) + " elements of zeros, more than the file's " + std::to_string(total) + " bytes could describe", ErrorCode::bad_count);
    }
    if (o.contains("sparse")) {
      if (auto e = read_sparse(d, o["sparse"], a, where + ".sparse"); !e) return e.error();
    }
    d.accessors.push_back(std::move(a));
    // Declared bounds must hold (as the validator checks): data outside them is not what was meant.
    if (o.contains("min") || o.contains("max")) {
      const Accessor& c = d.accessors.back();
      auto data = values<float>(d, c, where);
      if (!data) return data.error();
      for (const char* key : {"min", "max"}) {
        if (!o.contains(key)) continue;
        const json& bound = o[key];
        if (!bound.is_array() || bound.size() != c.width) return bad(where + "." + key, "does not hold one number per component");
        for (std::size_t k = 0; k < c.width; ++k) {
          if (!bound[k].is_number()) return bad(where + "." + key, "does not hold one number per component");
          const auto limit = static_cast<float>(bound[k].get<double>());
          for (std::size_t e = k; e < data->size(); e += c.width) {
            const float v = (*data)[e];
            if (key[1] == 'i' ? v < limit : v > limit) {
              return bad(where + "." + key, "element " + std::to_string(e / c.width) + " component " + std::to_string(k) + " is " +
                                                std::to_string(v) + ", outside the declared " + key + " " + std::to_string(limit));
            }
          }
        }
      }
    }
  }
  return {};
}

}  // namespace

Result<int> index_of(const json& o, const char* key, std::size_t size, const std::string& where, const char* what) {
  if (!o.is_object() || !o.contains(key)) return -1;
  const json& v = o[key];
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() >= size) {
    return bad(where + "." + key, "is " + v.dump() + " but the file has " + std::to_string(size) + " " + what + (size == 1 ? "" : "s"),
               ErrorCode::bad_offset);
  }
  return static_cast<int>(v.get<std::uint64_t>());
}

Result<Bytes> load_uri(const std::string& uri, const ResourceLoader& resources, const std::string& where) {
  if (uri.rfind("data:", 0) == 0) {
    const std::size_t comma = uri.find(',');
    if (comma == std::string::npos || comma < 12 || uri.compare(comma - 7, 7, ";base64") != 0) {
      return bad(where, "is a data: URI that is not base64", ErrorCode::unsupported);
    }
    auto data = base64(std::string_view(uri).substr(comma + 1));
    if (!data) return bad(where, "is a data: URI whose base64 text has a character outside base64");
    return std::move(*data);
  }
  const auto path = percent_decode(uri);
  if (!path) return bad(where, "has a '%' not followed by two hex digits");
  if (!stays_beside(*path)) {
    return bad(where, "is \"" + uri + "\"; only files beside the .gltf (or below it) are read: no absolute path, scheme or \"..\"", ErrorCode::unsupported);
  }
  if (!resources) return bad(where, "names the file \"" + *path + "\" but this glTF was read without its directory (a .glb carries its data inside)", ErrorCode::unsupported);
  auto data = resources(*path);
  if (!data) {
    Error e = data.error();
    e.message = "names \"" + *path + "\", which could not be read: " + e.message;
    e.field = where;
    return e;
  }
  return data;
}

Result<const Accessor*> Document::accessor(const json& index, const std::string& where) const {
  if (!index.is_number_unsigned() || index.get<std::uint64_t>() >= accessors.size()) {
    return bad(where, "is " + index.dump() + " but the file has " + std::to_string(accessors.size()) + " accessors", ErrorCode::bad_offset);
  }
  return &accessors[index.get<std::size_t>()];
}

Result<void> Document::spend(std::size_t bytes, const std::string& where) const {
  if (bytes > decode_budget - std::min(decoded, decode_budget)) {
    return bad(where, "would take the data decoded from this glTF past " + std::to_string(decode_budget) +
                          " bytes (256 MiB plus 8 times the file's size): its accessors, images or textures are named from too many places",
               ErrorCode::bad_count);
  }
  decoded += bytes;
  return {};
}

Result<std::vector<float>> Document::floats(int index, const std::string& where) const {
  const Accessor& a = accessors[static_cast<std::size_t>(index)];
  if (auto e = spend(a.count * a.width * sizeof(float), where); !e) return e.error();
  return values<float>(*this, a, where);
}

Result<void> Document::floats_into(int index, const std::string& where, void* out) const {
  const Accessor& a = accessors[static_cast<std::size_t>(index)];
  if (auto e = spend(a.count * a.width * sizeof(float), where); !e) return e;
  return values_into<float>(*this, a, where, out);
}

Result<std::vector<std::uint32_t>> Document::uints(int index, const std::string& where) const {
  const Accessor& a = accessors[static_cast<std::size_t>(index)];
  if (a.component != kUnsignedByte && a.component != kUnsignedShort && a.component != kUnsignedInt) {
    return bad(where, "is accessor " + std::to_string(index) + " of componentType " + std::to_string(a.component) + "; unsigned byte, short or int is required");
  }
  if (a.normalized) return bad(where, "is accessor " + std::to_string(index) + ", which is normalized; integers are required");
  if (auto e = spend(a.count * a.width * sizeof(std::uint32_t), where); !e) return e.error();
  return values<std::uint32_t>(*this, a, where);
}

Result<Document> read_document(ByteSpan bytes, const ResourceLoader& resources) {
  Document d;
  d.resources = resources;
  ByteSpan bin;
  std::string_view text;
  std::uint64_t json_offset = 0;
  const bool glb = bytes.size() >= 4 && u32(bytes, 0) == 0x46546C67;
  if (glb) {
    if (bytes.size() < 20) return Error{ErrorCode::truncated, 0, "glb", "is " + std::to_string(bytes.size()) + " bytes, shorter than a GLB header and chunk header"};
    if (u32(bytes, 4) != 2) return Error{ErrorCode::unsupported, 4, "glb.version", "is " + std::to_string(u32(bytes, 4)) + "; only GLB version 2 is read"};
    const std::uint32_t length = u32(bytes, 8);
    if (length > bytes.size() || length < 20) {
      return Error{ErrorCode::truncated, 8, "glb.length", "is " + std::to_string(length) + " but the file has " + std::to_string(bytes.size()) + " bytes"};
    }
    bytes = bytes.first(length);
    std::size_t at = 12;
    bool first = true;
    while (at < bytes.size()) {
      if (bytes.size() - at < 8) return Error{ErrorCode::truncated, at, "glb.chunk", "header runs past the end of the file"};
      const std::uint32_t size = u32(bytes, at), type = u32(bytes, at + 4);
      if (size > bytes.size() - at - 8) {
        return Error{ErrorCode::truncated, at, "glb.chunk.length", "is " + std::to_string(size) + " but " + std::to_string(bytes.size() - at - 8) + " bytes follow"};
      }
      const ByteSpan data = bytes.subspan(at + 8, size);
      if (first && type != 0x4E4F534A) return Error{ErrorCode::bad_value, at + 4, "glb.chunk.type", "of the first chunk is not JSON"};
      if (first) {
        text = std::string_view(reinterpret_cast<const char*>(data.data()), data.size());
        json_offset = at + 8;
      } else if (type == 0x004E4942 && bin.data() == nullptr) {
        bin = data;
      }
      first = false;
      at += 8 + ((std::size_t{size} + 3) & ~std::size_t{3});
    }
    if (first) return Error{ErrorCode::truncated, 12, "glb.chunk", "the JSON chunk is missing"};
  } else {
    text = std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  auto root = parse_json(text, json_offset);
  if (!root) return root.error();
  d.root = std::move(*root);
  const json& asset = d.root.contains("asset") ? d.root["asset"] : json();
  if (!asset.is_object() || !asset.contains("version") || !asset["version"].is_string() || asset["version"].get<std::string>().rfind("2.", 0) != 0) {
    return bad("asset.version", "is missing or not 2.x; only glTF 2.0 is read", ErrorCode::unsupported);
  }
  if (d.root.contains("extensionsRequired")) {
    const json& required = d.root["extensionsRequired"];
    if (!required.is_array()) return bad("extensionsRequired", "is not an array");
    for (const json& name : required) {
      static const std::vector<std::string> known{"KHR_materials_unlit", "KHR_mesh_quantization", "KHR_texture_transform"};
      if (!name.is_string() || std::find(known.begin(), known.end(), name.get<std::string>()) == known.end()) {
        return bad("extensionsRequired", "lists " + name.dump() + ", which this reader does not implement", ErrorCode::unsupported);
      }
    }
  }
  if (auto e = read_buffers(d, bin, glb, resources); !e) return e.error();
  if (auto e = read_views(d); !e) return e.error();
  if (auto e = read_accessors(d, text.size()); !e) return e.error();
  std::size_t input = bytes.size();
  for (const Bytes& b : d.loaded) input += b.size();
  d.decode_budget = (std::size_t{256} << 20) + 8 * input;
  return d;
}

}  // namespace remodel::gltf::detail

namespace remodel::gltf {

Result<ReadScene> read_gltf_file(const std::filesystem::path& path) try {
  auto bytes = read_file(path);
  if (!bytes) return bytes.error();
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::weakly_canonical(path, ec).parent_path();
  return read_gltf(*bytes, [&](const std::string& uri) -> Result<Bytes> {
    // A symbolic link beside the .gltf may point anywhere: the file it resolves to must stay below.
    std::error_code error;
    const std::filesystem::path file = std::filesystem::weakly_canonical(dir / std::filesystem::path(uri), error);
    const auto [end, _] = std::mismatch(dir.begin(), dir.end(), file.begin(), file.end());
    if (error) return Error{ErrorCode::io, std::nullopt, uri, "cannot be resolved beside the .gltf: " + error.message()};  // a symlink loop
    if (end != dir.end()) {
      return Error{ErrorCode::io, std::nullopt, uri, "resolves outside the .gltf's directory " + dir.string()};
    }
    return read_file(file);
  });
} catch (...) {
  return caught_allocation_failure();
}

}  // namespace remodel::gltf
