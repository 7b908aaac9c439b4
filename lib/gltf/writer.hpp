// The Scene -> glTF writer's state while it builds one document: writer.cpp writes the geometry,
// skins, materials and textures, write_animations.cpp the animations. Internal to lib/gltf.
#pragma once

#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gltf/components.hpp"
#include "gltf/gltf.hpp"

namespace remodel::gltf::detail {

using json = nlohmann::ordered_json;

class Writer {
 public:
  Writer(const scene::Scene& scene, bool embed_images) : s_(scene), embed_images_(embed_images) {}

  // The Scene's values the writer refuses, named by their Scene field.
  static Error bad(std::string field, std::string message) {
    return Error{ErrorCode::inconsistent, std::nullopt, std::move(field), std::move(message)};
  }

  // Builds the JSON and buffer 0; `bin_uri` empty for a .glb.
  Result<void> build(const std::string& bin_uri, const std::string& image_stem);

  json doc;
  Bytes bin;
  std::vector<Resource> images;  // PNG files beside a .gltf

 private:
  const scene::Scene& s_;
  bool embed_images_;
  json views_ = json::array(), accessors_ = json::array();
  std::vector<int> mesh_max_joint_;  // per mesh: the largest joint index its primitives use, or -1
  std::vector<bool> mesh_skinned_;   // per mesh: its primitives have joints and weights
  std::set<std::string> used_;      // the extensions the document uses

  // Reserves `size` bytes of buffer 0 at a 4-aligned offset (every component type's alignment) for
  // a new buffer view, and returns a pointer to them.
  std::uint8_t* reserve_view(std::size_t size, int target, int* view) {
    const std::size_t offset = (bin.size() + 3) & ~std::size_t{3};
    bin.resize(offset + size);
    json v = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", size}};
    if (target != 0) v["target"] = target;
    *view = static_cast<int>(views_.size());
    views_.push_back(std::move(v));
    return bin.data() + offset;
  }
  int accessor(int view, int component, std::size_t count, const char* type, bool normalized = false) {
    json a = {{"bufferView", view}, {"componentType", component}};
    if (normalized) a["normalized"] = true;
    a["count"] = count;
    a["type"] = type;
    accessors_.push_back(std::move(a));
    return static_cast<int>(accessors_.size()) - 1;
  }
  // `count` elements of `type` floats copied from `data`.
  int float_accessor(const void* data, std::size_t count, const char* type, int target) {
    const std::size_t floats = type[0] == 'S' ? 1 : type[0] == 'M' ? 16 : static_cast<std::size_t>(type[3] - '0');
    int view = 0;
    std::memcpy(reserve_view(count * floats * 4, target, &view), data, count * floats * 4);
    return accessor(view, kFloat, count, type);
  }

  Result<void> primitive(const scene::Primitive& p, const std::string& where, int mesh, json& out);
  Result<void> skinning(const scene::Primitive& p, const std::string& where, int mesh, json& attributes);
  Result<void> meshes(json& out);
  Result<void> nodes(json& out);
  Result<void> skins(json& out);
  Result<void> materials(json& out);
  Result<void> textures(json& textures, json& images, json& samplers, const std::string& image_stem);
  Result<void> animations(json& out);  // write_animations.cpp
  // Per node, whether a channel drives its KHR_node_visibility `visible` (write_animations.cpp).
  Result<std::vector<bool>> visibility_driven();
};

}  // namespace remodel::gltf::detail
