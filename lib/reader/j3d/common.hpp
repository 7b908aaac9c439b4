// Internal: what every J3D section reader shares: padding gaps and name tables.
#pragma once

#include <string>

#include "model/j3d/j3d.hpp"
#include "reader/cursor.hpp"

namespace remodel {

// The filler a file's gaps are read against, and the gap bytes it leaves unexplained (kept verbatim):
// of the fillers tried, the one that leaves fewest is the file's.
struct J3dFiller {
  std::string text;
  std::size_t unexplained = 0;
};

// The bytes from the cursor to `target` (relative to the section start, which is offset 0 of the
// section's cursor): none when they are exactly the canonical filler up to `alignment`, else stored
// and added to the filler's unexplained bytes.
// With `first_alignment`, the canonical gap is two fills: to that alignment, then restarted to `alignment`.
Verbatim read_j3d_gap(Cursor& c, J3dFiller& filler, std::uint64_t target, std::size_t alignment, const char* field,
                      std::size_t first_alignment = 1);
// Whether `gap`, starting at section offset `start`, is that canonical gap.
bool j3d_is_canonical_gap(ByteSpan gap, std::size_t start, const std::string& filler, std::size_t alignment,
                          std::size_t first_alignment = 1);
// Fails unless `target` is where the cursor is: tables that do not follow each other are not handled.
void j3d_expect_at(Cursor& c, std::uint64_t target, const char* field);
// How much of `region` is data of `element`-byte items: what is left after the longest trailing run
// of filler (under 32 bytes) that leaves whole items.
std::size_t j3d_data_length(ByteSpan region, std::size_t element, const std::string& filler);
// Whether the bytes are the filler, restarted at their first byte and repeated as needed.
bool j3d_is_filler(ByteSpan bytes, const std::string& filler);
// A name table at the cursor; fails on tables the writer could not reproduce (hash or offset
// layout other than Nintendo's).
J3dNameTable read_j3d_names(Cursor& c, std::size_t expected_count);

// The 32-byte header every J3D file starts with: `magic` ("J3D2" models, "J3D1" animations), type,
// size (the caller checks it against the file), section count and 16 bytes a tool fills.
struct J3dFileHeader {
  std::array<std::uint8_t, 4> type{};
  std::uint32_t size = 0;
  std::uint32_t section_count = 0;
  std::array<std::uint8_t, 16> header_0x10{};
};
J3dFileHeader read_j3d_file_header(Cursor& c, const char* magic);

// Section readers kept in their own files; the cursor is on the section, after its 8-byte header.
J3dTex1 read_j3d_tex1(Cursor& c, J3dFiller& filler);
J3dShp1 read_j3d_shp1(Cursor& c, J3dFiller& filler);
J3dMdl3 read_j3d_mdl3(Cursor& c, J3dFiller& filler);
J3dMat3 read_j3d_mat3(Cursor& c, J3dFiller& filler);

}  // namespace remodel
