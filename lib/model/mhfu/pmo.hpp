// Monster Hunter Freedom Unite PMO 1.0: tables and per-block PSP GE command lists, as stored.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/verbatim.hpp"
#include "model/format.hpp"
#include "model/matrix_palette.hpp"
#include "model/psp/ge.hpp"
#include "model/psp/vertex.hpp"

namespace remodel {

namespace mhfu {
// Mesh records as the game's converter writes them (every sample): lighting + fog for opaque, lighting
// + alpha blend with the GE BLENDMODE word 0xDF000032 for translucent; every material's shadow 0x7F7F7F.
inline constexpr std::uint32_t kOpaqueFlags = 0x80000003, kBlendFlags = 0x80000005, kBlendWord = 0xDF000032;
inline constexpr std::uint32_t kShadow = 0x007F7F7F;
}  // namespace mhfu

struct MhfuMesh {  // 0x18 bytes
  std::array<float, 2> uv_scale{1.0f, 1.0f};
  std::uint32_t lighting_flags = 0;  // bit0 lighting, bit1 fog, bit2 alpha blend, bit31 enable
  std::uint32_t blend = 0;           // a raw GE BLENDMODE command, or 0
  std::uint8_t material_count = 0;
  std::uint8_t unknown_0x11 = 0;
  std::uint16_t material_start = 0;  // into the remap table
  std::uint16_t group_count = 0;
  std::uint16_t group_start = 0;     // into the group table
};

struct MhfuGroup {  // 0x10 bytes; list, vertex and index offsets are computed by the writer
  std::uint8_t material_offset = 0;  // into the mesh's run of the remap table
  std::uint8_t bone_count = 0;       // palette entries this group applies
  std::uint16_t bone_start = 0;      // into the bone palette
  std::uint32_t block = 0;           // index into MhfuPmo::blocks; groups may share one
};

struct MhfuPaletteEntry {
  std::uint8_t slot = 0;  // 0-7: the GE has eight bone matrices
  std::uint8_t bone = 0;
};

struct MhfuMaterial {  // 0x10 bytes
  std::uint32_t color = 0xFFFFFFFF;  // RGBA, red in the low byte; alpha 0 = not drawn
  std::uint32_t shadow = 0;
  std::uint8_t texture = 0xFF;       // 0xFF = untextured
  std::array<std::uint8_t, 3> unknown_0x09{};
  std::uint32_t reserved = 0;        // leftover memory in some files
};

// One geometry block: a command list ending in RET, its vertex buffer and its index buffer.
struct MhfuBlock {
  std::vector<psp::GeCommand> commands;  // VADDR and IADDR arguments are recomputed by the writer
  Bytes vertices;                   // vertex count * stride, padding bytes as stored
  Bytes indices;                    // the indexed PRIMs' indices, in order; empty when unindexed
  // Stored only where the bytes after the list, between vertices and indices, and after the block
  // (up to the next block or the declared end) are not zeros to the next 16-byte boundary.
  Verbatim gap_after_list, gap_after_vertices, gap_after_block;
};

// What a command list says: buffer addresses relative to its ORIGIN, vertex format, primitives.
struct MhfuListPlan {
  std::optional<std::uint32_t> vaddr;
  std::optional<std::uint32_t> iaddr;
  psp::VertexFormat format;
  bool flip = false;
  struct Prim {
    std::uint8_t type = 0;
    std::uint16_t count = 0;
  };
  std::vector<Prim> prims;
  std::size_t index_size() const { return psp::element_size(format.index); }
  std::size_t index_count() const;  // sum of the PRIM counts
};

// Fails on lists the model cannot place: no ORIGIN first, no RET, conflicting VADDR/IADDR/VTYPE,
// BASE high bits, OFFSET before a draw, PRIM before VTYPE/VADDR, morph targets. The error's offset
// is relative to the list start.
Result<MhfuListPlan> plan_mhfu_list(const std::vector<psp::GeCommand>& commands);

struct MhfuPmo {
  std::array<std::uint8_t, 4> version{'1', '.', '0', '\0'};
  float clip_distance = 0.0f;  // the largest scale component
  std::array<float, 3> scale{1.0f, 1.0f, 1.0f};
  std::array<std::uint8_t, 8> unknown_0x38{};
  std::vector<MhfuMesh> meshes;
  std::vector<MhfuGroup> groups;  // as many as the meshes' runs reach
  Bytes remap;                    // one material index per mesh material; 0xFF = keep the current one
  std::vector<MhfuPaletteEntry> bone_palette;
  std::vector<MhfuMaterial> materials;
  std::vector<MhfuBlock> blocks;  // in file order
  // Stored only where a table's pad to 16 is not zeros (or, before the blocks, not empty).
  Verbatim gap_after_header, gap_after_meshes, gap_after_groups, gap_after_remap, gap_after_palette,
      gap_after_materials, gap_before_blocks;
};

// A PMO as a file: the model up to its declared size, then whatever follows (standalone files pad to 0x800).
struct MhfuPmoFile {
  MhfuPmo pmo;
  Verbatim tail;
};

Result<MhfuPmoFile> read_mhfu_pmo_file(ByteSpan bytes);
Result<Bytes> write_mhfu_pmo_file(const MhfuPmoFile& file, WriteReport* report = nullptr);

// ---- decoding, for export ----

struct MhfuPrimitive {
  std::uint8_t type = psp::ge::kPrimStrip;
  std::vector<std::uint32_t> indices;  // into the block's vertices
};

struct MhfuDrawList {
  psp::VertexFormat format;
  std::size_t stride = 0;
  std::size_t vertex_count = 0;  // largest index + 1, or the PRIM counts' sum when unindexed
  bool flip = false;             // FFACE bit 0
  std::vector<MhfuPrimitive> primitives;
};

// Walks a block's command list: vertex format, primitives and their indices.
Result<MhfuDrawList> decode_mhfu_block(const MhfuBlock& block);
// Triangles (model/primitive.hpp) from strips, fans and lists; FFACE bit 0 flips every triangle.
std::vector<Triangle> mhfu_triangles(const MhfuDrawList& draw);
// The running bone palette after each group: the GE's 8 slots of bone indices.
Result<std::vector<GeBonePalette>> mhfu_group_palettes(const MhfuPmo& pmo);
// Position in model units: raw / 128 or / 32768 (floats as stored), times the header's scale.
std::array<float, 3> mhfu_position(const MhfuPmo& pmo, const psp::VertexFormat& f, const psp::Vertex& v);

// The format's registration (format_table.cpp): its summary, its JSON and its textures.
void add_info(const MhfuPmoFile& doc, DocumentInfo& info);
void add_json(const MhfuPmoFile& doc, nlohmann::ordered_json& out);

}  // namespace remodel
