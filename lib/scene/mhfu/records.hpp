// MHFU records as the game's converter writes them: mesh records, materials and their TMH images.
// Shared by authoring (author.cpp) and the lower over a base, which adds meshes and materials.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/error.hpp"
#include "model/mhfu/pmo.hpp"
#include "model/mhfu/skeleton.hpp"
#include "model/mhfu/tmh.hpp"
#include "scene/lower.hpp"
#include "scene/scene.hpp"

namespace remodel::scene::mhfu {

using remodel::mhfu::kBlendFlags;  // the converter's mesh and material words (model/mhfu/pmo.hpp)
using remodel::mhfu::kBlendWord;
using remodel::mhfu::kOpaqueFlags;
using remodel::mhfu::kShadow;
inline constexpr std::size_t kMaxMaterials = 255;  // the remap is a byte per material, 0xFF = keep
inline constexpr std::size_t kMaxTextures = 255;   // a material names its image by a byte, 0xFF = none

// A colour as a material stores it: RGBA8, red in the low byte. nullopt: a channel is not finite.
std::optional<std::uint32_t> material_colour(const Vec4& c);

// A Scene texture's image as a new TMH image: sides scaled to powers of two up to 512 (with a warning),
// CLUT4 or CLUT8 (new_tmh_image). `where` names the texture.
Result<TmhImage> tmh_image_of(const RgbaImage& image, const std::string& where, std::vector<Warning>& warnings);

// A Scene holding a bare skeleton's joints alone, as a PAC's lift names and places them (lift.cpp):
// what a new file binds to when `--skeleton` names a .skel.
Result<Scene> lift_skeleton_alone(const MhfuSkeletonFile& file);

}  // namespace remodel::scene::mhfu
