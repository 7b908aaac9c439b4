// Monster Hunter Freedom Unite PAC container: a table of (offset, size) entries, 16-aligned, the
// file padded to 0x800. Entries are read as PMO, skeleton or TMH when their magic says so.
#pragma once

#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/verbatim.hpp"
#include "model/format.hpp"
#include "model/mhfu/pmo.hpp"
#include "model/mhfu/skeleton.hpp"
#include "model/mhfu/tmh.hpp"

namespace remodel {

struct PacEntry {
  std::variant<MhfuPmoFile, MhfuSkeletonFile, TmhFile, Verbatim> content;  // Verbatim: no known magic, kept whole
  Verbatim gap_after;  // only when the bytes to the next entry are not zeros to 16
};

struct Pac {
  std::vector<PacEntry> entries;
  Verbatim gap_after_table;  // only when not zeros to 16
  // Set only when the bytes after the last entry are not zeros to the next 0x800 (leftover memory).
  Verbatim end_padding;
};

Result<Pac> read_pac(ByteSpan bytes);
Result<Bytes> write_pac(const Pac& pac, WriteReport* report = nullptr);
// No magic: a plausible table (count, 16-aligned increasing entries inside the file, the first right
// after the table) is the signature.
bool looks_like_pac(ByteSpan bytes);

// The format's registration (format_table.cpp): its summary, its JSON and its textures.
void add_info(const Pac& doc, DocumentInfo& info);
void add_json(const Pac& doc, nlohmann::ordered_json& out);
void add_textures(Pac& doc, TextureRefs& out);

}  // namespace remodel
