// Nintendo J3D models (BMD/BDL): the file, its sections and their tables, as stored. Big-endian.
// Layout facts: ../shared/formats/notes-j3d.md.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/bytes.hpp"
#include "model/gx/texture.hpp"
#include "model/error.hpp"
#include "model/format.hpp"
#include "model/j3d/mat3.hpp"
#include "model/primitive.hpp"
#include "model/verbatim.hpp"

namespace remodel {

// Gaps between tables are Verbatim: none = the canonical filler (a prefix of "This is padding data
// to alignment." restarted in every gap, up to the table's alignment); otherwise the bytes as stored.

// ResNTAB: names with their hashes; the writer computes hashes and offsets.
struct J3dNameTable {
  std::uint16_t unknown_0x02 = 0xFFFF;
  std::vector<std::string> names;
};
std::uint16_t j3d_name_hash(const std::string& name);  // hash * 3 + c, c a signed char

// ---- INF1: the scene hierarchy ----
struct J3dNode {
  std::uint16_t type = 0;  // 0x10 joint, 0x11 material, 0x12 shape
  std::uint16_t index = 0;
  std::vector<J3dNode> children;  // written between an open (0x01) and a close (0x02) node
};

struct J3dInf1 {
  std::uint16_t flags = 0;
  std::uint16_t unknown_0x0a = 0xFFFF;
  // The file's packet and vertex counts, set only when they disagree with what the sections give
  // (j3d_packet_count, j3d_vertex_count): verbatim.
  std::optional<std::uint32_t> stored_packet_count, stored_vertex_count;
  std::vector<J3dNode> roots;
  Verbatim gap_after_hierarchy;
};
inline constexpr std::size_t kJ3dMaxDepth = 256;

// ---- VTX1: vertex formats and attribute arrays ----
struct J3dVertexFormat {
  std::uint32_t attribute = 0;  // GX attribute: 9 position, 10 normal, 11-12 colour, 13-20 UV
  std::uint32_t components = 0;
  std::uint32_t type = 0;       // 0 u8, 1 s8, 2 u16, 3 s16, 4 f32; colours 0-5
  std::uint8_t frac = 0;        // fixed-point shift
  std::array<std::uint8_t, 3> unknown_0x0d{0xFF, 0xFF, 0xFF};
};

struct J3dVertexArray {
  std::uint8_t slot = 0;  // 0 position, 1 normal, 2 NBT, 3-4 colour, 5-12 UV (the header's offset order)
  Bytes data;             // elements as stored, big-endian
  Verbatim gap_after;
};

struct J3dVtx1 {
  std::vector<J3dVertexFormat> formats;  // without the 0xFF terminator
  J3dVertexFormat terminator{0xFF, 1, 0, 0, {0xFF, 0xFF, 0xFF}};
  Verbatim gap_after_formats;
  std::vector<J3dVertexArray> arrays;  // in file order
};

// The GX attribute whose array sits in VTX1 header slot `slot` (0xFF past the 13 slots).
std::uint32_t j3d_slot_attribute(std::uint8_t slot);
// VTX1's format entry for an array slot, or nullptr when the file has none.
const J3dVertexFormat* j3d_vertex_format(const J3dVtx1& vtx, std::uint8_t slot);
// Bytes per element of the array in `slot`, from the format that describes it (0 when none does).
std::size_t j3d_vertex_element_size(const J3dVtx1& vtx, std::uint8_t slot);
// Bytes of one component of GX type 0-4 (u8, s8, u16, s16, f32); 0 for any other type.
std::size_t j3d_component_size(std::uint32_t type);
// One big-endian component of GX type 0-4 at `p`: fixed point times 2^-frac, f32 as stored.
double j3d_component_value(std::uint32_t type, std::uint8_t frac, const std::uint8_t* p);

// ---- EVP1: envelopes ----
struct J3dEnvelope {
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
};

struct J3dEvp1 {
  std::uint16_t unknown_0x0a = 0xFFFF;
  std::vector<J3dEnvelope> envelopes;
  std::vector<std::array<float, 12>> inverse_binds;  // 3x4, one per joint
  Verbatim gap_after_indices, gap_after_matrices;
};

// ---- DRW1: draw matrices ----
struct J3dDrw1 {
  std::uint16_t unknown_0x0a = 0xFFFF;
  std::vector<std::uint8_t> weighted;  // 0 = joint, 1 = envelope
  std::vector<std::uint16_t> indices;  // joint or EVP1 index
  Verbatim gap_after_flags, gap_after_indices;
};

// ---- JNT1: joints ----
struct J3dJoint {
  std::uint16_t flags = 0;
  std::uint8_t inherit_scale = 0;  // 1 = do not inherit the parent's scale
  std::uint8_t unknown_0x03 = 0xFF;
  std::array<float, 3> scale{1, 1, 1};
  std::array<std::int16_t, 3> rotation{};  // 0x8000 = 180 degrees
  std::uint16_t unknown_0x16 = 0xFFFF;
  std::array<float, 3> translation{};
  float radius = 0;
  std::array<float, 3> min{}, max{};
};

struct J3dJnt1 {
  std::uint16_t unknown_0x0a = 0xFFFF;
  std::vector<J3dJoint> joints;
  std::vector<std::uint16_t> remap;
  J3dNameTable names;
  Verbatim gap_after_remap, gap_after_names;
};

// ---- SHP1: shapes, vertex descriptors, matrix groups and display-list packets ----
struct J3dVertexDescriptor {
  std::uint32_t attribute = 0;  // GX attribute (0 PNMTXIDX, 1-8 TEXnMTXIDX, 9 POS, 10 NRM, 11-12 CLR, 13-20 TEX)
  std::uint32_t type = 0;       // 0 none, 1 direct, 2 8-bit index, 3 16-bit index
  bool operator==(const J3dVertexDescriptor&) const = default;
};

struct J3dShape {  // 0x28 bytes
  std::uint8_t matrix_type = 0;  // 0 single, 1 billboard, 2 billboard Y, 3 multi
  std::uint8_t unknown_0x01 = 0xFF;
  std::uint16_t packet_count = 0;
  std::uint32_t descriptors = 0;  // index into J3dShp1::descriptor_lists
  std::uint16_t first_matrix_group = 0;
  std::uint16_t first_packet = 0;
  std::uint16_t unknown_0x0a = 0xFFFF;
  float radius = 0;
  std::array<float, 3> min{}, max{};
};

struct J3dMatrixGroup {  // mtx-init, 8 bytes: the matrix table run a packet loads
  std::uint16_t use_matrix = 0;
  std::uint16_t count = 0;
  std::uint32_t first = 0;  // into J3dShp1::matrix_table
};

struct J3dPrimitive {
  std::uint8_t opcode = 0x98;  // GX draw command with its VAT in the low 3 bits: 0x90 list, 0x98 strip, 0xA0 fan
  std::vector<std::uint16_t> values;  // vertex by vertex, one per present descriptor, as stored; the count follows
};

struct J3dPacket {
  std::vector<J3dPrimitive> primitives;  // then GX NOPs (zeros) to the next 32 bytes
  // Set when the packet holds more zero bytes than the pad to 32 (its stored size).
  std::optional<std::uint32_t> stored_size;
  // Set when the packet is not a plain run of draw commands: its bytes, kept as they are.
  Verbatim raw;
};

struct J3dShp1 {
  std::uint16_t unknown_0x0a = 0xFFFF;
  std::vector<J3dShape> shapes;
  std::vector<std::uint16_t> remap;
  std::vector<std::vector<J3dVertexDescriptor>> descriptor_lists;  // each ends with (0xFF, 0) on disk
  // By descriptor list: the terminator's type where a tool wrote one that is not 0 (verbatim).
  std::map<std::uint32_t, std::uint32_t> terminator_types;
  std::vector<std::uint16_t> matrix_table;                         // DRW1 indices; 0xFFFF = keep
  std::vector<J3dPacket> packets;
  std::vector<J3dMatrixGroup> matrix_groups;
  // Some versions of Nintendo's tool fill to 4 after the remap table before filling to 32.
  bool remap_filled_to_4 = true;
  // gap_after_display_lists: canonical = fill to 32, empty after Nintendo's 32-byte packets; tools
  // that store packets unpadded fill there before the matrix groups.
  Verbatim gap_after_remap, gap_after_matrix_table, gap_after_display_lists, gap_after_tables;
};

// Bytes one vertex takes in a display list for these descriptors (0 when one is not supported).
std::size_t j3d_dl_vertex_size(const std::vector<J3dVertexDescriptor>& descriptors);
// Vertices a primitive draws: its values over the descriptors present (the draw command's u16 count);
// nullopt when none is present or the values are not a whole number of vertices.
std::optional<std::size_t> j3d_dl_vertex_count(const J3dPrimitive& p, const std::vector<J3dVertexDescriptor>& descriptors);
// The descriptor list each packet is drawn with (the last shape that draws it), nullptr for a packet
// no shape draws or a shape that refers past the tables.
std::vector<const std::vector<J3dVertexDescriptor>*> j3d_packet_descriptors(const J3dShp1& s);
// The triangle topology of a GX draw opcode (0x80 quads, 0x90 list, 0x98 strip, 0xA0 fan, any
// VAT); none for lines and points.
std::optional<Topology> j3d_topology(std::uint8_t opcode);
// Triangles (model/primitive.hpp; vertex numbers within the primitive's run) of one draw command.
std::vector<Triangle> j3d_triangles(std::uint8_t opcode, std::size_t vertex_count);

// ---- MAT3: materials ----
struct J3dMat3 {
  std::uint16_t unknown_0x0a = 0xFFFF;
  std::vector<J3dMaterialEntry> entries;  // de-duplicated; materials reach them through remap
  std::vector<std::uint16_t> remap;       // one per material
  J3dNameTable names;
  std::vector<J3dIndirectEntry> indirect;
  std::vector<std::uint32_t> cull_modes;
  std::vector<J3dColor8> material_colors;
  std::vector<std::uint8_t> channel_counts;
  std::vector<J3dColorChannel> color_channels;
  std::vector<J3dColor8> ambient_colors;
  std::vector<J3dLight> lights;
  std::vector<std::uint8_t> texgen_counts;
  std::vector<J3dTexGen> texgens;
  std::vector<J3dTexGen> post_texgens;
  std::vector<J3dTexMatrix> tex_matrices;
  std::vector<J3dTexMatrix> post_tex_matrices;
  std::vector<std::uint16_t> textures;
  std::vector<J3dTevOrder> tev_orders;
  std::vector<J3dTevColor> tev_colors;
  std::vector<J3dColor8> tev_kcolors;
  std::vector<std::uint8_t> tev_stage_counts;
  std::vector<J3dTevStage> tev_stages;
  std::vector<J3dSwapMode> swap_modes;
  std::vector<J3dSwapTable> swap_tables;
  std::vector<J3dFog> fogs;
  std::vector<J3dAlphaCompare> alpha_compares;
  std::vector<J3dBlend> blends;
  std::vector<J3dZMode> zmodes;
  std::vector<std::uint8_t> zcompare_locations;
  std::vector<std::uint8_t> dithers;
  std::vector<J3dNbtScale> nbt_scales;
  // Layout facts. `order`: the tables in file order; a table not listed has offset 0. A listed table
  // whose bit is set in `points_at_next` is empty and shares the next table's offset (no gap).
  std::vector<J3dMatTable> order;
  std::uint32_t points_at_next = 0;
  std::array<Verbatim, kJ3dMatTables> gaps{};  // after each table: canonical = fill to 4 (32 after the last)
};

std::size_t j3d_mat_table_size(const J3dMat3& m, J3dMatTable t);  // items in a table

// ---- MDL3: each material as GX command packets ----
struct J3dGxCommand {
  std::uint8_t opcode = 0x61;  // 0x61 BP (4 bytes), 0x10 XF (count-1, address, values), 0x08 CP (register, value)
  Bytes args;                  // what follows the opcode, as stored
};

struct J3dMdlPacket {
  std::vector<J3dGxCommand> commands;  // then zeros (GX NOPs) to the next 32 bytes
  std::optional<std::uint32_t> stored_size;  // when more zeros follow than the pad to 32
  Verbatim raw;                              // when the packet is not a plain BP/XF/CP stream
};

struct J3dMdlSubpacket {  // where each part of the material starts inside its packet
  std::array<std::uint16_t, 6> offsets{};
  std::uint32_t unknown_0x0c = 0xFFFFFFFF;
};

struct J3dMdl3 {
  std::uint16_t unknown_0x0a = 0xFFFF;
  std::vector<J3dMdlPacket> packets;
  std::vector<J3dMdlSubpacket> subpackets;
  std::vector<std::array<std::uint32_t, 2>> matrix_info;  // CP MATINDEX A and B
  std::vector<std::uint8_t> pe_modes;
  std::vector<std::uint16_t> indices;
  J3dNameTable names;
  Verbatim gap_after_header, gap_after_packet_table, gap_after_pe_modes, gap_after_indices, gap_after_names;
};

// Bytes of a GX command's arguments from its opcode and first bytes; 0 when not a known command.
std::size_t j3d_gx_command_size(ByteSpan at);

// ---- TEX1: BTI headers and their image and palette data ----
struct J3dTexture {  // the 0x20-byte BTI header; data offsets resolved to blocks
  std::uint8_t format = 0;  // GX: 0 I4, 1 I8, 2 IA4, 3 IA8, 4 RGB565, 5 RGB5A3, 6 RGBA8, 8 C4, 9 C8, 10 C14X2, 14 CMPR
  std::uint8_t alpha = 0;
  std::uint16_t width = 0, height = 0;
  std::uint8_t wrap_s = 0, wrap_t = 0;
  std::uint8_t palette_enable = 0;
  std::uint8_t palette_format = 0;
  std::uint16_t palette_count = 0;
  // The block the palette offset points at; for textures without a palette Nintendo's tool stores
  // its palette cursor there, RiiStudio's resave stores 0 (the header itself).
  std::optional<std::uint32_t> palette_block;
  std::uint8_t mip_enable = 0, edge_lod = 0, bias_clamp = 0, max_aniso = 0, min_filter = 0, mag_filter = 0;
  std::int8_t min_lod = 0, max_lod = 0;
  std::uint8_t mip_count = 1;
  std::optional<std::uint8_t> unknown_0x19;  // often non-zero, never explained: kept (verbatim) when not 0
  std::int16_t lod_bias = 0;
  std::uint32_t image_block = 0;
};

struct J3dTexBlock {  // image or palette data, shared by every header that points at it
  Bytes data;
  Verbatim gap_after;
};

struct J3dTex1 {
  std::uint16_t unknown_0x0a = 0xFFFF;
  std::vector<J3dTexture> textures;
  std::vector<J3dTexBlock> blocks;  // in file order
  J3dNameTable names;
  Verbatim gap_after_header, gap_after_names;
};


// A section this version keeps as its bytes: verbatim in full, its 8-byte header (magic, size) included.
struct J3dRawSection {
  Verbatim stored;
};

using J3dSection = std::variant<J3dInf1, J3dVtx1, J3dEvp1, J3dDrw1, J3dJnt1, J3dShp1, J3dMat3, J3dMdl3, J3dTex1, J3dRawSection>;
std::string j3d_section_magic(const J3dSection& s);

inline constexpr char kJ3dNintendoPadding[] = "This is padding data to alignment.";
inline constexpr char kJ3dSuperBmdPadding[] = "Model made with SuperBMD";

struct J3dFile {
  std::array<std::uint8_t, 4> type{'b', 'm', 'd', '3'};  // "bmd3" or "bdl4"
  std::string padding = kJ3dNintendoPadding;               // the gap filler this file's writer used
  std::array<std::uint8_t, 16> header_0x10{};              // "SVR3" + FF x 12, FF x 16, a tool's name...
  std::vector<J3dSection> sections;
};

// INF1's counts as the sections give them: SHP1's packets and VTX1's positions (0 without the section).
std::uint32_t j3d_packet_count(const J3dFile& file);
std::uint32_t j3d_vertex_count(const J3dFile& file);

Result<J3dFile> read_j3d(ByteSpan bytes);
Result<Bytes> write_j3d(const J3dFile& file, WriteReport* report = nullptr);

// The format's registration (format_table.cpp): its summary, its JSON and its textures.
void add_info(const J3dFile& doc, DocumentInfo& info);
void add_json(const J3dFile& doc, nlohmann::ordered_json& out);
void add_textures(J3dFile& doc, TextureRefs& out);

}  // namespace remodel
