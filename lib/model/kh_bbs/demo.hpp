// A small skinned, textured PMO described in code: the project's own input for the quick start,
// the fuzz seeds and the tests that must not depend on game files.
#pragma once

#include "model/kh_bbs/pam.hpp"
#include "model/kh_bbs/pmo.hpp"

namespace remodel {

// A two-joint cube: a triangle-list section and a strip section, u16 UVs, s16 positions,
// two u8 weights per vertex, one 8x8 4-bit TIM2 with a 32-bit CLUT.
PmoFile build_demo_pmo();

// Animations for the demo cube's two joints: "sway" (30 frames: constant, every-frame and sparse
// channels), an empty slot, and "long" (300 frames, so u16 key counts and frame ids).
Pam build_demo_pam();

}  // namespace remodel
