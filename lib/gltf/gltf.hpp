// Scene -> glTF 2.0: a .glb (one file, everything embedded) or a .gltf with its .bin and PNG images
// beside it, all built in memory so the caller writes each file atomically. The JSON shape of the
// `extras.remodel` objects is documented in lib/gltf/README.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "scene/scene.hpp"

namespace remodel::gltf {

// The version of the documented `extras.remodel` shape, written at the root of every export.
constexpr int kExtrasVersion = 1;

// A file a .gltf refers to by `uri`, relative to the .gltf's directory.
struct Resource {
  std::string uri;
  Bytes data;
};

struct GltfFiles {
  Bytes gltf;                       // the JSON document
  std::vector<Resource> resources;  // <stem>.bin, then <stem>_<index>[_<name>].png per texture
};

// A whole .glb: the JSON chunk and one BIN chunk holding buffer 0 (vertex data and PNG images).
Result<Bytes> write_glb(const scene::Scene& scene);

// A .gltf whose resources are named from `stem` (made safe with safe_file_name).
Result<GltfFiles> write_gltf(const scene::Scene& scene, std::string_view stem);

// A file name piece every file system and URI accepts as is: ASCII letters, digits, '-' and '_'
// (anything else becomes '_'), at most 64 bytes, never empty, never a Windows device name.
std::string safe_file_name(std::string_view name);

}  // namespace remodel::gltf
