// Internal: what every J3D section writer shares: padding gaps and name tables.
#pragma once

#include "model/j3d/j3d.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

// Pads to `first_alignment`, then to `alignment`, relative to `base` with the canonical filler.
void write_j3d_filler(ByteWriter& w, const std::string& filler, std::size_t alignment, std::size_t base,
                      std::size_t first_alignment = 1);
// The stored gap (counted as verbatim under `name`), or the canonical filler.
template <typename NameFn>
void write_j3d_gap(ByteWriter& w, const std::string& filler, std::size_t alignment, std::size_t base, const Verbatim& gap,
                   NameFn&& name, std::size_t first_alignment = 1) {
  if (!w.verbatim(gap, name)) write_j3d_filler(w, filler, alignment, base, first_alignment);
}
void write_j3d_names(ByteWriter& w, const J3dNameTable& names);

// The 32-byte J3D file header (reader/j3d/common.hpp) with a size the file stored (counted), else 0;
// returns where the size is, for the caller to patch.
std::size_t write_j3d_file_header(ByteWriter& w, const char* magic, const std::array<std::uint8_t, 4>& type,
                                  std::uint32_t section_count, const std::array<std::uint8_t, 16>& header_0x10,
                                  std::optional<std::uint32_t> stored_size = std::nullopt);

// Section writers kept in their own files; `base` is the section's start.
void write_j3d_tex1(ByteWriter& w, const J3dTex1& s, std::size_t base, const std::string& filler);
void write_j3d_shp1(ByteWriter& w, const J3dShp1& s, std::size_t base, const std::string& filler);
void write_j3d_mdl3(ByteWriter& w, const J3dMdl3& s, std::size_t base, const std::string& filler);
void write_j3d_mat3(ByteWriter& w, const J3dMat3& s, std::size_t base, const std::string& filler);

}  // namespace remodel
