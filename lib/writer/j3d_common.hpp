// Internal: what every J3D section writer shares: padding gaps and name tables.
#pragma once

#include "model/j3d.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

// Pads to `alignment` relative to `base` with the canonical filler, or writes the stored gap.
void write_j3d_gap(ByteWriter& w, const std::string& filler, std::size_t alignment, std::size_t base, const J3dGap& gap,
                   std::size_t first_alignment = 1);
void write_j3d_names(ByteWriter& w, const J3dNameTable& names);

// Section writers kept in their own files; `base` is the section's start.
void write_j3d_tex1(ByteWriter& w, const J3dTex1& s, std::size_t base, const std::string& filler);
void write_j3d_shp1(ByteWriter& w, const J3dShp1& s, std::size_t base, const std::string& filler);
void write_j3d_mdl3(ByteWriter& w, const J3dMdl3& s, std::size_t base, const std::string& filler);
void write_j3d_mat3(ByteWriter& w, const J3dMat3& s, std::size_t base, const std::string& filler);

}  // namespace remodel
