// BWM files written byte by byte from notes-bwm.md, independent of remodel's writer: the tests read
// them field by field and write them back, and make_seeds commits them as the fuzz corpus.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "model/bytes.hpp"

namespace remodel::golden {

class BwmBytes {
 public:
  Bytes b;
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u16(std::uint16_t v) {
    b.push_back(static_cast<std::uint8_t>(v));
    b.push_back(static_cast<std::uint8_t>(v >> 8));
  }
  void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
  void vec3(float x, float y, float z) { f32(x); f32(y); f32(z); }
  void text(const std::string& s, std::size_t width) {  // NUL-padded fixed-width string
    for (std::size_t i = 0; i < width; ++i) b.push_back(i < s.size() ? static_cast<std::uint8_t>(s[i]) : 0);
  }
  void fill(std::size_t n, std::uint8_t v) { b.insert(b.end(), n, v); }
};

struct BwmCounts {
  std::uint32_t version, materials, meshes, refs, bones, entities, unknown_points, collision_points, vertices,
      strides, type, indices, vertex_bytes, cleave;
};

// The 184-byte header; metadataSize and size by the formulas in notes-bwm.md.
inline void bwm_header(BwmBytes& g, const BwmCounts& n) {
  const std::uint32_t metadata = 0x80 + 0x1C0 * n.materials + 0xDC * n.meshes + 0x20 * n.refs + 0x30 * n.bones +
                                 0x130 * n.entities + 0xC * (n.unknown_points + n.collision_points) + 0x88 * n.strides;
  const std::uint32_t size = metadata + 0xC + n.vertex_bytes + 2 * n.indices + (n.version > 5 ? 4 + 12 * n.cleave : 0);
  g.text("LiOnHeAdMODEL", 40);
  g.u32(size);
  g.u32(0x2B00B1E5);
  g.u32(n.version);
  g.u32(metadata);
  g.f32(0.25f);               // unknown_0x38
  g.vec3(1.0f, 2.0f, 3.0f);   // pnt
  g.vec3(-1.0f, 0.0f, -1.0f); // box1
  g.vec3(1.0f, 2.0f, 1.0f);   // box2
  g.vec3(0.0f, 1.0f, 0.0f);   // center
  g.f32(2.0f);                // height
  g.f32(1.5f);                // radius
  g.u32(1);                   // unknown_0x74
  g.f32(4.0f);                // volume
  for (std::uint32_t c : {n.materials, n.meshes, n.bones, n.entities, n.unknown_points, n.collision_points}) g.u32(c);
  for (std::uint8_t k = 0; k < 20; ++k) g.b.push_back(static_cast<std::uint8_t>(0xA0 + k));  // unknown_0x94
  g.u32(n.vertices);
  g.u32(n.strides);
  g.u32(n.type);
  g.u32(n.indices);
}

inline void bwm_material(BwmBytes& g, const std::string& diffuse, const std::string& type) {
  g.text(diffuse, 64);
  g.text("", 64 * 5);  // light, growth, specular, animated, normal
  g.text(type, 64);
}

inline void bwm_mesh(BwmBytes& g, const std::string& name, std::uint32_t faces, std::uint32_t indices_offset,
                     std::uint32_t indices_size, std::uint32_t refs, std::uint32_t lod) {
  g.u32(faces);
  g.u32(indices_offset);
  g.u32(indices_size);
  g.u32(0);  // vertex offset
  g.u32(4);  // vertex size
  g.vec3(0, 0, 1);  // zaxis
  g.vec3(1, 0, 0);  // xaxis
  g.vec3(0, 1, 0);  // yaxis
  g.vec3(0, 0, 0);  // position
  g.vec3(0, 1, 0);  // center
  g.f32(1.25f);     // radius
  g.vec3(-1, 0, -1);
  g.vec3(1, 2, 1);
  g.vec3(0, 0, 0);  // unknown_0x6c
  g.f32(2.0f);      // height
  g.f32(0.0f);      // unknown_0x7c
  g.u32(7);         // unknown_0x80
  g.f32(3.0f);      // volume
  g.u32(refs);
  g.u32(0);         // unknown_0x8c
  g.u32(lod);
  g.text(name, 64);
  g.u32(0);
  g.u32(0);
}

inline void bwm_ref(BwmBytes& g, std::uint32_t material, std::uint32_t indices_offset, std::uint32_t indices_size) {
  for (std::uint32_t v : {material, indices_offset, indices_size, 0u, 4u, indices_offset / 3, indices_size / 3, 0u}) g.u32(v);
}

// Stride record: count, (id, format) pairs, then the "presumed garbage" tail (0xCD here, to be kept).
inline void bwm_stride(BwmBytes& g, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& attrs) {
  g.u32(static_cast<std::uint32_t>(attrs.size()));
  for (auto [id, format] : attrs) {
    g.u32(id);
    g.u32(format);
  }
  g.fill(0x84 - 8 * attrs.size(), 0xCD);
}

// Version 5 model: 1 material, 1 mesh with 1 reference, one stride (position, normal, UV), a triangle.
inline Bytes bwm_v5_model() {
  BwmBytes g;
  bwm_header(g, {5, 1, 1, 1, 0, 0, 0, 0, 3, 1, 2, 3, 3 * 32, 0});
  bwm_material(g, "wood.tga", "BUILDING");
  bwm_mesh(g, "hut", 1, 0, 3, 1, 1);
  bwm_ref(g, 0, 0, 3);
  bwm_stride(g, {{0, 2}, {1, 2}, {2, 1}});
  const float xyz[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  for (const auto& p : xyz) {
    g.vec3(p[0], p[1], p[2]);
    g.vec3(0, 0, 1);
    g.f32(p[0]);
    g.f32(p[1]);
  }
  g.u16(0); g.u16(1); g.u16(2);
  return g.b;
}

// Version 6 model: 2 materials, 2 meshes with 2 and 3 references, an entity, an unknown point, two
// collision points, two strides (position+normal; two UV sets), 4 vertices, 12 indices, 2 cleave points.
inline Bytes bwm_v6_model() {
  BwmBytes g;
  bwm_header(g, {6, 2, 2, 5, 0, 1, 1, 2, 4, 2, 2, 12, 4 * 24 + 4 * 16, 2});
  bwm_material(g, "stone.tga", "BUILDING");
  bwm_material(g, "roof.tga", "ROOF");
  bwm_mesh(g, "lod0", 4, 0, 12, 2, 1);
  bwm_mesh(g, "lod1", 2, 0, 6, 3, 2);
  bwm_ref(g, 0, 0, 6);
  bwm_ref(g, 1, 6, 6);
  bwm_ref(g, 0, 0, 3);
  bwm_ref(g, 1, 3, 3);
  bwm_ref(g, 1, 6, 0);
  g.vec3(0, 0, 1); g.vec3(1, 0, 0); g.vec3(0, 1, 0); g.vec3(0.5f, 0, 0.5f);  // entity transform
  g.text("Door", 256);
  g.vec3(9, 9, 9);                          // unknown point
  g.vec3(-1, 0, -1); g.vec3(1, 0, 1);       // collision points
  bwm_stride(g, {{0, 2}, {1, 2}});
  bwm_stride(g, {{2, 1}, {2, 1}});
  const float xyz[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  for (const auto& p : xyz) {
    g.vec3(p[0], p[1], p[2]);
    g.vec3(0, 0, 1);
  }
  for (const auto& p : xyz) {
    g.f32(p[0]); g.f32(p[1]);                // texture UV
    g.f32(p[0] / 2); g.f32(p[1] / 2);        // lightmap UV
  }
  for (std::uint16_t i : {0, 1, 2, 0, 2, 3, 2, 1, 0, 3, 2, 0}) g.u16(i);
  g.u32(2);
  g.vec3(0, 0, 0);
  g.vec3(0, 2, 0);
  return g.b;
}

// Version 6 skin: 9 strides (position+normal+UV; 4 x bone index u8; 4 x weight f32), 2 bones,
// 4 vertices, one strip of 4 indices (2 triangles), no cleave points.
inline Bytes bwm_skin() {
  BwmBytes g;
  bwm_header(g, {6, 1, 1, 1, 2, 0, 0, 0, 4, 9, 3, 4, 4 * (32 + 4 * 1 + 4 * 4), 0});
  bwm_material(g, "villager.tga", "SKIN");
  bwm_mesh(g, "body", 2, 0, 2, 1, 1);
  bwm_ref(g, 0, 0, 2);
  g.vec3(0, 0, 1); g.vec3(1, 0, 0); g.vec3(0, 1, 0); g.vec3(0, 0, 0);  // bone 0
  g.vec3(0, 0, 1); g.vec3(1, 0, 0); g.vec3(0, 1, 0); g.vec3(0, 1, 0);  // bone 1
  bwm_stride(g, {{0, 2}, {1, 2}, {2, 1}});
  for (int s = 0; s < 4; ++s) bwm_stride(g, {{6, 4}});
  for (int s = 0; s < 4; ++s) bwm_stride(g, {{7, 0}});
  const float xyz[4][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
  for (const auto& p : xyz) {
    g.vec3(p[0], p[1], p[2]);
    g.vec3(0, 0, 1);
    g.f32(p[0]);
    g.f32(p[1]);
  }
  for (int s = 0; s < 4; ++s) {  // bone index slot s of vertices 0-3: slot 0 = 0, slot 1 = 1, slots 2-3 = 0
    for (int v = 0; v < 4; ++v) g.b.push_back(s == 1 ? 1 : 0);
  }
  for (int s = 0; s < 4; ++s) {  // weight slot s: lower vertices lean on bone 0, upper on bone 1
    for (int v = 0; v < 4; ++v) g.f32(s == 0 ? (v < 2 ? 0.75f : 0.25f) : s == 1 ? (v < 2 ? 0.25f : 0.75f) : 0.0f);
  }
  for (std::uint16_t i : {0, 1, 2, 3}) g.u16(i);
  g.u32(0);
  return g.b;
}

// The three golden files by name, for tests that run over all of them.
struct BwmGolden {
  const char* name;
  Bytes bytes;
};

inline std::vector<BwmGolden> bwm_goldens() {
  return {{"v5-model", bwm_v5_model()}, {"v6-model", bwm_v6_model()}, {"skin", bwm_skin()}};
}

}  // namespace remodel::golden
