// The format-neutral, editable Scene every format lifts into and lowers from, and glTF export/import
// reads and writes: one flat array per element type, with indices between them (as ufbx does).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/error.hpp"
#include "model/image.hpp"
#include "scene/math.hpp"

namespace remodel::scene {

// Values glTF has no field for, in a documented shape under the "remodel" key of a glTF `extras`
// (see lib/gltf/README.md). A null Extras writes nothing.
using Extras = nlohmann::ordered_json;

// How the format drew a primitive. A format that draws many strips per call lifts them to one
// triangle list and keeps the strip lengths in the primitive's extras.
enum class Topology : std::uint8_t { points, lines, triangles, triangle_strip, triangle_fan };

// One draw: every vertex array has vertex_count() entries or is empty.
struct Primitive {
  Topology topology = Topology::triangles;
  std::vector<Vec3> positions;
  std::vector<Vec3> normals;
  std::vector<Vec4> colors;              // RGBA 0-1, linear as stored (vertex colours are not sRGB-decoded)
  std::vector<std::vector<Vec2>> uvs;    // UV sets; glTF's TEXCOORD_n, v down (0 = top row)
  // Skinning: `influences` joints and weights per vertex (a multiple of 4, zero-padded); joints index
  // the mesh's skin's joint list, weights sum to 1.
  std::uint32_t influences = 0;
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
  std::vector<std::uint32_t> indices;    // empty: vertices drawn in order
  int material = -1;                     // index into Scene::materials; -1 = glTF default material
  Extras extras;

  std::size_t vertex_count() const { return positions.size(); }
};

struct Mesh {
  std::string name;
  std::vector<Primitive> primitives;
  Extras extras;
};

struct Node {
  std::string name;
  int parent = -1;            // index into Scene::nodes; -1 = a root
  std::vector<int> children;  // in the format's order
  Trs local;                  // local transform at bind/rest pose
  int mesh = -1;              // index into Scene::meshes
  int skin = -1;              // index into Scene::skins, with `mesh`
  bool visible = true;        // hidden nodes (other LODs) are kept out of the default scene
  Extras extras;
};

struct Skin {
  std::string name;
  std::vector<int> joints;                  // node indices; a primitive's joint j is joints[j]
  std::vector<Mat4> inverse_bind_matrices;  // one per joint: inverse of the joint's world bind matrix
  int skeleton = -1;                        // the common root node, when there is one
  Extras extras;
};

enum class Wrap : std::uint8_t { repeat, clamp, mirror };
enum class Filter : std::uint8_t { nearest, linear, nearest_mipmap_nearest, linear_mipmap_nearest,
                                   nearest_mipmap_linear, linear_mipmap_linear };

struct Sampler {
  Wrap wrap_s = Wrap::repeat, wrap_t = Wrap::repeat;
  Filter mag = Filter::linear, min = Filter::linear_mipmap_linear;
  bool operator==(const Sampler&) const = default;
};

struct Texture {
  std::string name;
  std::string image_name;  // a glTF's name for the image (else its URI's file stem): Blender names images, not textures
  RgbaImage image;      // the top level, decoded
  std::string encoding;  // the source encoding, e.g. "GX CMPR", "TIM2 8-bit CLUT 32"
  Sampler sampler;
  Extras extras;
};

enum class AlphaMode : std::uint8_t { opaque, mask, blend };

// A texture's UV transform as KHR_texture_transform composes it: uv' = T(offset) * R(rotation) * S(scale) * uv,
// R = [[cos, sin], [-sin, cos]].
struct TextureTransform {
  Vec2 offset{0, 0};
  float rotation = 0;
  Vec2 scale{1, 1};
};

struct Material {
  std::string name;
  Vec4 base_color{1, 1, 1, 1};
  int texture = -1;  // index into Scene::textures
  int uv_set = 0;
  bool vertex_colors = false;  // multiply the base colour by COLOR_0
  AlphaMode alpha_mode = AlphaMode::opaque;
  float alpha_cutoff = 0.5f;
  bool double_sided = false;
  bool unlit = false;  // the game lights nothing (KHR_materials_unlit)
  std::optional<TextureTransform> texture_transform;  // on the base colour texture
  Extras extras;
};

enum class Interpolation : std::uint8_t { linear, step, cubic_spline };
enum class Path : std::uint8_t { translation, rotation, scale };

struct Channel {
  int node = -1;  // -1 with `pointer`
  Path path = Path::translation;
  Interpolation interpolation = Interpolation::linear;
  std::vector<float> times;   // seconds, increasing
  std::vector<float> values;  // 3 (translation, scale) or 4 (rotation quaternion) floats per key, or pointer_width;
                              // three times that for cubic_spline (in-tangent, value, out-tangent)
  // A property other than a node's transform (KHR_animation_pointer): its JSON pointer, and the floats
  // one key holds (1 to 4, e.g. a texture offset 2, a colour 4); empty for a node's path.
  std::string pointer;
  std::uint8_t pointer_width = 0;
  // A bool property (KHR_node_visibility's visible): pointer_width 1, STEP, each key 0 or 1.
  bool boolean = false;
};

// The floats one key's value holds.
inline std::size_t value_width(const Channel& c) { return !c.pointer.empty() ? c.pointer_width : c.path == Path::rotation ? 4 : 3; }

struct Animation {
  std::string name;
  std::vector<Channel> channels;
  Extras extras;
};

// A group of root nodes shown together (glTF's scenes): LODs other than the first go in their own.
struct SceneRoots {
  std::string name;
  std::vector<int> nodes;
};

struct Scene {
  std::vector<Node> nodes;
  std::vector<Mesh> meshes;
  std::vector<Skin> skins;
  std::vector<Material> materials;
  std::vector<Texture> textures;
  std::vector<Animation> animations;
  std::vector<SceneRoots> scenes;  // scenes[0] is the default
  Extras extras;                   // {"format": ..., ...} for the whole file

  // Appends a node under `parent` (-1 = root of scenes[0]) and returns its index.
  int add_node(Node node, int parent = -1);
};

// An error in a Scene's value, named by its field (a glTF-like location): no file position.
Error at(std::string field, std::string message, ErrorCode code = ErrorCode::bad_value);

// A primitive's arrays agree in length, its indices name its vertices and its numbers are finite,
// with no negative weight: what every lower and author checks before encoding.
Result<void> check_primitive(const Primitive& p, const std::string& where);

// Each node's world matrix (parents first), computed once.
std::vector<Mat4> world_matrices(const Scene& scene);

}  // namespace remodel::scene
