// The glTF document as read, before it becomes a Scene: the JSON, the buffers' bytes, and every
// buffer view and accessor checked against the bytes present (reader.cpp); reader_scene.cpp builds
// the Scene from it. Internal to lib/gltf.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gltf/components.hpp"
#include "gltf/gltf.hpp"

namespace remodel::gltf::detail {

using json = nlohmann::ordered_json;

inline Error bad(std::string field, std::string message, ErrorCode code = ErrorCode::bad_value) {
  return Error{code, std::nullopt, std::move(field), std::move(message)};
}

struct View {
  std::size_t buffer = 0, offset = 0, length = 0, stride = 0;  // stride 0 = tightly packed
};

struct Accessor {
  int view = -1;  // -1: all zeros (before sparse substitution)
  std::size_t offset = 0, count = 0, width = 1;  // width: components per element (SCALAR 1 ... MAT4 16)
  int component = kFloat;
  bool normalized = false;
  std::string type;  // "SCALAR", "VEC2"...
  std::size_t sparse_count = 0;
  int sparse_index_view = -1, sparse_index_component = kUnsignedInt, sparse_value_view = -1;
  std::size_t sparse_index_offset = 0, sparse_value_offset = 0;
};

struct Document {
  json root;
  // Each buffer's bytes: the GLB's BIN chunk in place (the input outlives the Document: read_gltf
  // reads the Scene from it before returning), a URI's file or data from `loaded`.
  std::vector<ByteSpan> buffers;
  std::vector<Bytes> loaded;
  std::vector<View> views;
  std::vector<Accessor> accessors;
  std::vector<Warning> warnings;
  ResourceLoader resources;
  // What reading may decode in all (accessor values, images, each texture's pixels): a budget from
  // the input's size, so a glTF naming one accessor or image from many places cannot multiply it.
  std::size_t decode_budget = 0;
  mutable std::size_t decoded = 0;

  // Counts `bytes` more decoded for `where`; past the budget, an Error naming it.
  Result<void> spend(std::size_t bytes, const std::string& where) const;

  // The accessor's values as floats (normalized integers as glTF maps them to 0-1 or -1-1, other
  // integers as their value), width() per element; `where` names the referencing location.
  Result<std::vector<float>> floats(int index, const std::string& where) const;
  // The same written to `out` (room for count x width floats), e.g. straight into a Scene array.
  Result<void> floats_into(int index, const std::string& where, void* out) const;
  // The accessor's values as unsigned integers (unsigned integer components only).
  Result<std::vector<std::uint32_t>> uints(int index, const std::string& where) const;
  // The checked accessor at `index`, or an Error naming `where`.
  Result<const Accessor*> accessor(const json& index, const std::string& where) const;
};

// Parses a .glb or .gltf, loads and checks buffers, views and accessors.
Result<Document> read_document(ByteSpan bytes, const ResourceLoader& resources);

// `o[key]` as an integer index in [0, size), or -1 when absent; anything else is an Error.
Result<int> index_of(const json& o, const char* key, std::size_t size, const std::string& where, const char* what);

// A file a URI names: data: URIs decoded here, others through `resources`, refused when they could
// leave the .gltf's directory.
Result<Bytes> load_uri(const std::string& uri, const ResourceLoader& resources, const std::string& where);

}  // namespace remodel::gltf::detail
