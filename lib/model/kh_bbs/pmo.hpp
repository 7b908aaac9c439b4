// Kingdom Hearts Birth by Sleep PMO model, BON skeleton and PMP map container, as stored.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/error.hpp"
#include "model/kh_bbs/tim2.hpp"
#include "model/bytes.hpp"
#include "model/verbatim.hpp"
#include "model/format.hpp"
#include "model/primitive.hpp"

namespace remodel {

// Texture info record (0x20 bytes); the PMP's texture list uses the same layout.
struct PmoTextureInfo {
  // Which TIM2 the stored offset points at: the PMO's own list, or the PMP's inside a PMP. None = offset 0.
  std::optional<std::uint16_t> tim2;
  std::array<std::uint8_t, 12> name{};
  float scroll_u = 0.0f;
  float scroll_v = 0.0f;
  std::array<std::uint8_t, 8> unknown_0x18{};
};

struct PmoSection {
  std::uint8_t texture = 0;  // index into the texture infos; 0xFF = none
  std::uint32_t vertex_flags = 0;  // PSP GE VTYPE in bits 0-23, uniform diffuse bit 24, no-weight bit 25, primitive 28-31
  std::uint8_t group = 0;
  std::uint16_t attribute = 0;
  std::optional<std::array<std::uint8_t, 8>> joints;  // present exactly when the PMO has a skeleton
  std::optional<std::uint32_t> diffuse;               // present exactly when vertex_flags bit 24 is set
  std::vector<std::uint16_t> strip_lengths;
  Bytes vertices;                                     // vertex_count * vertex size, as stored
  std::optional<std::uint8_t> stored_vertex_size;     // only when the file disagrees with the VTYPE layout
  Verbatim end_padding;                               // when the pad to 4 was not zeros

  static constexpr std::uint32_t kUniformDiffuse = 1u << 24;
  static constexpr std::uint32_t kNoWeight = 1u << 25;
  std::uint8_t primitive() const { return static_cast<std::uint8_t>(vertex_flags >> 28); }
  std::uint8_t vertex_size() const;  // stored override or the GE layout's size
  std::size_t vertex_count() const;  // vertices.size() / vertex_size()
  std::size_t triangle_count() const;        // by the one definition (model/primitive.hpp)
  std::vector<Triangle> triangles() const;   // into this section's vertices (past them if the strip lengths are)
};

struct PmoMeshList {
  std::vector<PmoSection> sections;
  Verbatim end_verbatim;  // the 12-byte end header and pad to 16, when not all zeros
};

struct BonJoint {
  std::uint16_t index = 0;
  std::uint16_t unknown_0x02 = 0;
  std::uint16_t parent = 0xFFFF;  // 0xFFFF = root
  std::uint16_t unknown_0x06 = 0;
  std::uint16_t skin_index = 0xFFFF;  // 0xFFFF = not skinned
  std::uint16_t unknown_0x0a = 0;
  std::uint32_t unknown_0x0c = 0;
  std::array<std::uint8_t, 16> name{};
  std::array<float, 16> local{};         // row-vector form, translation in 12-14
  std::array<float, 16> inverse_bind{};  // inverse of the world bind matrix
};

struct Bon {
  std::uint32_t unknown_0x04 = 0;
  std::uint16_t unknown_0x0a = 0;
  std::uint16_t standard_bone_count = 2;  // nStdBone; 2 in every sample
  std::vector<BonJoint> joints;
  std::optional<std::uint16_t> stored_skinned_count;  // only when it disagrees with the joints
};

struct Pmo {
  std::uint8_t number = 1;
  std::uint8_t group = 1;  // max section group + 1 on retail files
  std::uint8_t version = 3;
  std::uint8_t unknown_0x07 = 0;
  std::uint8_t unknown_0x09 = 0;
  std::uint16_t flag = 0x8000;
  float scale = 1.0f;
  std::array<std::array<float, 4>, 8> bounding_box{};
  std::vector<PmoTextureInfo> textures;
  std::optional<PmoMeshList> mesh0;  // opaque pass
  std::optional<PmoMeshList> mesh1;  // translucent pass
  std::vector<Tim2> tim2s;           // embedded textures, in file order
  std::optional<Bon> skeleton;
  std::optional<std::uint16_t> stored_triangle_count;  // only when they disagree with the sections
  std::optional<std::uint16_t> stored_vertex_count;
  // Gaps between structures that are not the canonical zero padding.
  Verbatim gap_before_mesh0, gap_before_mesh1, gap_before_skeleton;
  std::vector<Verbatim> gaps_before_tim2;  // empty, or one per TIM2

  std::size_t triangle_count() const;
  std::size_t vertex_count() const;
};

struct PmoFile {
  Pmo pmo;
  Verbatim tail;  // bytes after the last structure (some BONs are followed by zeros)
};

struct PmpObject {
  std::array<float, 3> position{};
  std::array<float, 3> rotation{};
  std::array<float, 3> scale{1.0f, 1.0f, 1.0f};
  std::optional<std::uint16_t> pmo;  // index into Pmp::pmos; none = a null object
  std::uint32_t unknown_0x28 = 0;
  std::uint16_t flags = 0;
  std::uint16_t id = 0;
};

struct Pmp {
  std::uint16_t version = 0;
  std::array<std::uint8_t, 9> unknown_0x06{};
  std::uint8_t flag = 0;
  std::array<std::uint8_t, 6> unknown_0x14{};
  std::vector<PmpObject> objects;
  std::vector<Pmo> pmos;                   // in file order, which need not follow object order
  std::vector<PmoTextureInfo> textures;    // the shared texture list; tim2 indexes `tim2s`
  std::vector<Tim2> tim2s;
  std::optional<std::uint16_t> stored_model_count;
  std::vector<Verbatim> gaps_before_pmo;   // empty, or one per PMO
  Verbatim gap_before_texture_list;
  std::vector<Verbatim> gaps_before_tim2;  // empty, or one per TIM2
  Verbatim tail;
};

Result<PmoFile> read_pmo_file(ByteSpan bytes);
Result<Bytes> write_pmo_file(const PmoFile& file, WriteReport* report = nullptr);
Result<Pmp> read_pmp(ByteSpan bytes);
Result<Bytes> write_pmp(const Pmp& pmp, WriteReport* report = nullptr);

std::string fixed_string(const std::uint8_t* data, std::size_t size);  // up to the first NUL
template <std::size_t N>
std::string fixed_string(const std::array<std::uint8_t, N>& a) {
  return fixed_string(a.data(), N);
}

// The format's registration (format_table.cpp): its summary, its JSON and its textures.
void add_info(const PmoFile& doc, DocumentInfo& info);
void add_json(const PmoFile& doc, nlohmann::ordered_json& out);
void add_textures(PmoFile& doc, TextureRefs& out);
void add_info(const Pmp& doc, DocumentInfo& info);
void add_json(const Pmp& doc, nlohmann::ordered_json& out);
void add_textures(Pmp& doc, TextureRefs& out);

}  // namespace remodel
