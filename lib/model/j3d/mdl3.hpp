// MDL3 generated from MAT3 (and TEX1 for texture sizes): each material's GX command packet as
// Nintendo's converter lays it out, with its subpacket offsets, matrix info, PE mode and names.
#pragma once

#include <cstdint>
#include <optional>

#include "model/error.hpp"
#include "model/j3d/j3d.hpp"

namespace remodel {

// Converter versions differ in one mask: the PE blend mode's (BP 0xFE before 0x41) covers logic-op
// bits 12 only in Wind Waker's files (0x001FE7) and bits 12-15 in Galaxy's (0x00FFE7).
enum class J3dMdlFlavour : std::uint8_t { galaxy, wind_waker };

// What Nintendo's converter wrote from data it had not initialised, and runtime addresses: fields a
// generated packet cannot know and fills with a fixed choice (see mdl3.cpp).
// - TEV order of the odd stage past the stage count (second half of the last BP 0x28-0x2F) and its
//   texcoord-scale writes: generated as (texcoord 0, no texture map, COLOR0) with scale slot 7 = 0;
// - BP 0x64 (TLUT load source address): 0;
// - texture matrices whose mode is not plain SRT (info & 0x3F != 0) were computed against a view at
//   run time: generated from their SRT.
Result<J3dMdl3> j3d_mdl3_from_mat3(const J3dMat3& mat, const J3dTex1& tex,
                                   J3dMdlFlavour flavour = J3dMdlFlavour::galaxy);

// After TEX1 texture `texture` changed from `before` (size, format, levels, sampler): in the packets
// of the materials that show it, the texture image/mode registers and texcoord scales take the values
// j3d_mdl3_from_mat3 gives where its command has the same register; every other byte of MDL3 stays as
// it was. Nothing is regenerated when no field those registers hold has changed.
Result<void> j3d_mdl3_follow_texture(J3dMdl3& mdl, const J3dMat3& mat, const J3dTex1& tex, std::size_t texture, const J3dTexture& before);

// Appends the packets of MAT3's materials from `first` on (added after MDL3 was written for the
// others), generated as j3d_mdl3_from_mat3 makes them, in the flavour the stored packets show.
Result<void> j3d_mdl3_add_materials(J3dMdl3& mdl, const J3dMat3& mat, const J3dTex1& tex, std::size_t first);

}  // namespace remodel
