// TMH texture bank (".TMH0.14", Capcom's PSP texture container in MHFU PACs), as stored.
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

namespace remodel {

struct TmhClut {
  std::uint32_t kind = 2;  // the block's kind word: 2 = palette
  std::uint32_t mode = 0;  // entry format
  std::uint32_t entry_count = 0;
  Bytes data;  // as stored
};

struct TmhImage {
  // Image header words after the entry size; the has-CLUT word is derived from `clut`.
  std::uint32_t unknown_0x04 = 0;
  std::uint32_t unknown_0x08 = 1;
  std::uint32_t pixel_kind = 1;  // the pixel block's kind word: 1 = pixels
  std::uint32_t mode = 0;        // 4 = CLUT4, 5 = CLUT8, ...
  std::uint16_t width = 0;
  std::uint16_t height = 0;
  Bytes pixels;  // swizzled as stored
  std::optional<TmhClut> clut;
};

struct Tmh {
  std::uint32_t unknown_0x0c = 0;
  std::vector<TmhImage> images;
};

struct TmhFile {
  Tmh tmh;
  Verbatim tail;  // bytes past the last image
};

Result<TmhFile> read_tmh_file(ByteSpan bytes);
Result<Bytes> write_tmh_file(const TmhFile& file, WriteReport* report = nullptr);

// An image as a texture (texture_codec.hpp): a ref's handle is the TmhImage, its index unused.
extern const TextureCodec tmh_image_codec;

// The format's registration (format_table.cpp): its summary, its JSON and its textures.
void add_info(const TmhFile& doc, DocumentInfo& info);
void add_json(const TmhFile& doc, nlohmann::ordered_json& out);
void add_textures(TmhFile& doc, TextureRefs& out);

}  // namespace remodel
