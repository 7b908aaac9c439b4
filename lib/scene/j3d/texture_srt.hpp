// A J3D texture matrix (model/j3d/anim_eval.hpp) as KHR_texture_transform, and back. Maya's matrix is
// R(rotation) * S as KHR's is; the basic one is S * R(-rotation) about a centre, KHR's form when its two
// scales are equal or nothing turns, else KHR holds its offset exactly and its scale and rotation as
// they are (khr_exact says which).
#pragma once

#include <array>
#include <string>

#include "model/j3d/anim_eval.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

// The JSON pointer to material m's base colour KHR_texture_transform, ending in '/': + offset, rotation or scale.
std::string khr_texture_transform_pointer(int material);

TextureTransform khr_texture_transform(const J3dTexSrt& srt, std::array<float, 2> centre, bool maya);
bool khr_exact(const J3dTexSrt& srt, bool maya);
// The SRT whose KHR_texture_transform is `t` (the inverse of khr_texture_transform).
J3dTexSrt j3d_texture_srt_of(const TextureTransform& t, std::array<float, 2> centre, bool maya);

}  // namespace remodel::scene
