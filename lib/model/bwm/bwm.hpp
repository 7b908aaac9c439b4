// Black & White 2 BWM models and skins (layout: ../shared/formats/notes-bwm.md), as stored.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/format.hpp"
#include "model/primitive.hpp"
#include "model/verbatim.hpp"

namespace remodel {

using BwmVec3 = std::array<float, 3>;
using BwmName64 = std::array<std::uint8_t, 64>;

struct BwmMaterial {  // 448 bytes: seven texture names
  BwmName64 diffuse{}, light{}, growth{}, specular{}, animated{}, normal{}, type{};
};

struct BwmMaterialRef {  // 32 bytes; ranges into the global index and vertex arrays
  std::uint32_t material = 0;
  std::uint32_t indices_offset = 0, indices_size = 0;
  std::uint32_t vertex_offset = 0, vertex_size = 0;
  std::uint32_t faces_offset = 0, faces_size = 0;
  std::uint32_t unknown_0x1c = 0;
};

struct BwmMesh {  // 220 bytes, then its material references after all meshes
  std::uint32_t faces_count = 0;
  std::uint32_t indices_offset = 0, indices_size = 0;
  std::uint32_t vertex_offset = 0, vertex_size = 0;
  BwmVec3 zaxis{}, xaxis{}, yaxis{}, position{};
  BwmVec3 center{};
  float radius = 0.0f;
  BwmVec3 box1{}, box2{}, unknown_0x6c{};
  float height = 0.0f;
  float unknown_0x7c = 0.0f;
  std::uint32_t unknown_0x80 = 0;
  float volume = 0.0f;
  // 0x88: the material reference count, from material_refs
  std::uint32_t unknown_0x8c = 0;
  std::uint32_t lod_level = 1;
  BwmName64 name{};
  std::array<std::uint32_t, 2> unknown_0xd4{};
  std::vector<BwmMaterialRef> material_refs;
};

struct BwmBone {  // 48 bytes: a rotation's three axes and a position
  BwmVec3 zaxis{}, xaxis{}, yaxis{}, position{};
};

struct BwmEntity {  // 304 bytes
  BwmBone transform;
  std::array<std::uint8_t, 256> name{};
};

// Stride element formats and their sizes: 0 f32, 1 f32x2, 2 f32x3, 3 int, 4 byte.
enum class BwmFormat : std::uint32_t { f32 = 0, f32x2 = 1, f32x3 = 2, i32 = 3, u8 = 4 };
std::size_t bwm_format_size(BwmFormat f);

// Attribute ids seen: 0 position, 1 normal, 2 UV (repeated), 6 bone index, 7 bone weight.
struct BwmAttribute {
  std::uint32_t id = 0;
  BwmFormat format = BwmFormat::f32;
};

struct BwmStride {  // 136 bytes: count, (id, format) pairs, then raw bytes to 0x88
  std::vector<BwmAttribute> attributes;  // at most 16
  Verbatim tail;                         // 0x84 - 8 * count bytes, "presumed garbage": none when zeros, the canonical fill
  Bytes vertices;                        // bwm_vertex_count records of this stride's size, interleaved
  std::size_t size() const;              // bytes per vertex
};

struct Bwm {
  std::array<std::uint8_t, 40> identifier{};  // "LiOnHeAdMODEL" and 27 NULs, kept as stored
  std::uint32_t version = 6;                  // 5 or 6
  float unknown_0x38 = 0.0f;
  BwmVec3 pnt{}, box1{}, box2{}, center{};
  float height = 0.0f;
  float radius = 0.0f;
  std::uint32_t unknown_0x74 = 0;
  float volume = 0.0f;
  std::array<std::uint8_t, 20> unknown_0x94{};  // sources disagree on its fields: kept as stored
  // The file's vertex count, kept only when the strides do not hold it (a file with no vertex data).
  std::optional<std::uint32_t> stored_vertex_count;
  std::uint32_t type = 2;  // 2 = model (triangle lists), 3 = skin (strips)
  std::vector<BwmMaterial> materials;
  std::vector<BwmMesh> meshes;
  std::vector<BwmBone> bones;
  std::vector<BwmEntity> entities;
  std::vector<BwmVec3> unknown_points;
  std::vector<BwmVec3> collision_points;
  std::vector<BwmStride> strides;
  std::vector<std::uint16_t> indices;
  std::vector<BwmVec3> cleave_points;  // version 6 only
};

inline constexpr std::uint32_t kBwmMagic = 0x2B00B1E5;

Result<Bwm> read_bwm(ByteSpan bytes);
Result<Bytes> write_bwm(const Bwm& bwm, WriteReport* report = nullptr);
// The vertices every stride holds (the first with a size tells), or the stored count that disagrees.
std::uint32_t bwm_vertex_count(const Bwm& bwm);
bool looks_like_bwm(ByteSpan bytes);          // "LiOnHeAdMODEL" and the magic at 0x2C

// ---- decoding, for export ----

struct BwmVertices {
  std::vector<BwmVec3> positions;
  std::vector<BwmVec3> normals;
  std::vector<std::vector<std::array<float, 2>>> uv_sets;  // texture, lightmap, ...
  std::vector<std::array<std::uint8_t, 4>> joints;         // skins: strides 1-4
  std::vector<std::array<float, 4>> weights;               // skins: strides 5-8
};

// Every attribute by id, in stride order; bone indices and weights fill slots 0-3 in the order met.
Result<BwmVertices> decode_bwm_vertices(const Bwm& bwm);
// Triangles of one material reference: lists for models; for skins a strip with alternating
// winding over indices_size + 2 indices (the bwm-blender convention, unverified on game files).
Result<std::vector<Triangle>> bwm_triangles(const Bwm& bwm, const BwmMaterialRef& ref);

// The format's registration (format_table.cpp): its summary, its JSON and its textures.
void add_info(const Bwm& doc, DocumentInfo& info);
void add_json(const Bwm& doc, nlohmann::ordered_json& out);

}  // namespace remodel
