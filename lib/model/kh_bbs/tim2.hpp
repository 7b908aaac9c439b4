// TIM2 (Sony's PS2/PSP texture container) as stored: header fields, pixel and CLUT bytes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/error.hpp"
#include "model/bytes.hpp"
#include "model/verbatim.hpp"
#include "model/format.hpp"

namespace remodel {

struct Tim2Picture {
  std::uint16_t clut_colors = 0;
  std::uint8_t pict_format = 0;
  std::uint8_t mipmap_count = 1;
  std::uint8_t clut_type = 0;   // low bits: 1 = 16-bit, 2 = 24-bit, 3 = 32-bit entries; 0x80 = CSM2
  std::uint8_t image_type = 0;  // 1-3 direct colour, 4 = 4-bit indexed, 5 = 8-bit indexed
  std::uint16_t width = 0;
  std::uint16_t height = 0;
  std::uint64_t gs_tex0 = 0;
  std::uint64_t gs_tex1 = 0;
  std::uint32_t gs_texa_fba_pabe = 0;
  std::uint32_t gs_tex_clut = 0;
  Bytes extended_header;  // header bytes past 0x30: mipmap offsets and user data
  Bytes image;            // pixels as stored, every mip level
  Bytes clut;             // palette as stored
  // Set only where the file's size fields disagree with its contents (KH2's radar has ClutSize 0).
  std::optional<std::uint32_t> stored_total_size;
  std::optional<std::uint32_t> stored_clut_size;
};

struct Tim2 {
  std::uint8_t version = 4;
  std::uint8_t format = 0;  // 0 = 16-byte aligned headers; 1 = the file header padded to 128
  std::array<std::uint8_t, 8> unknown_0x08{};
  Verbatim gap_after_header;  // format 1 only: canonical = zeros to 128 bytes from the TIM2's start
  std::vector<Tim2Picture> pictures;
};

inline constexpr std::size_t kTim2Alignment128 = 128;  // format 1's alignment

// Bytes per CLUT entry for a clut_type (0 when the type has no palette or is unknown).
std::size_t tim2_clut_entry_size(std::uint8_t clut_type);
std::size_t tim2_size(const Tim2& tim2);  // bytes the writer produces

// A TIM2 file: the image container plus anything after it.
struct Tim2File {
  Tim2 tim2;
  Verbatim tail;  // trailing bytes past the last picture
};

Result<Tim2File> read_tim2_file(ByteSpan bytes);
Result<Bytes> write_tim2_file(const Tim2File& file, WriteReport* report = nullptr);

// A picture as a texture (texture_codec.hpp): a ref's handle is the Tim2Picture, its index unused.
extern const TextureCodec tim2_picture_codec;

// The format's registration (format_table.cpp): its summary, its JSON and its textures.
void add_info(const Tim2File& doc, DocumentInfo& info);
void add_json(const Tim2File& doc, nlohmann::ordered_json& out);
void add_textures(Tim2File& doc, TextureRefs& out);

}  // namespace remodel
