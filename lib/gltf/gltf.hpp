// Scene <-> glTF 2.0. Writing: a .glb (one file, everything embedded) or a .gltf with its .bin and PNG images
// beside it, all built in memory so the caller writes each file atomically. The JSON shape of the
// `extras.remodel` objects is documented in lib/gltf/README.md.
#pragma once

#include <filesystem>
#include <functional>
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

// The normal and the rotation the writer writes for a Scene's: glTF wants unit length. A value already
// unit within float rounding is written as given (dividing it by its length again would move it by a
// float step, which an import over the original would take for an edit); a zero or non-finite normal
// becomes +Y, a zero or non-finite rotation the identity.
scene::Vec3 unit_normal(scene::Vec3 n);
scene::Quat unit_rotation(scene::Quat q);

// A file name piece every file system and URI accepts as is: ASCII letters, digits, '-' and '_'
// (anything else becomes '_'), at most 64 bytes, never empty, never a Windows device name.
std::string safe_file_name(std::string_view name);

// Reading (reader.cpp, reader_scene.cpp). The largest JSON text read (a .gltf or a GLB JSON chunk):
// far above any model's (the 1,000,000-vertex export's is under 10 KiB), far below what parsing can hold.
constexpr std::size_t kMaxJsonSize = std::size_t{64} << 20;

// The bytes of a file a .gltf names by a relative URI (percent-decoded, already checked to stay
// beside the .gltf: no "..", no absolute path, no scheme), or an Error.
using ResourceLoader = std::function<Result<Bytes>(const std::string& uri)>;

struct ReadScene {
  scene::Scene scene;
  std::vector<Warning> warnings;
};

// A .glb or a .gltf (told apart by the GLB magic) -> Scene. External files come only through
// `resources` (none given: a URI other than data: is an error). The `extras.remodel` objects our
// writer wrote come back as the Scene's extras, and names that were not UTF-8 from their name_bytes.
Result<ReadScene> read_gltf(ByteSpan bytes, const ResourceLoader& resources = {});

// Reads the file and the resources beside it (regular files in its directory or below).
Result<ReadScene> read_gltf_file(const std::filesystem::path& path);

}  // namespace remodel::gltf
