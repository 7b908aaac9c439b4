// A small MHFU PAC described in code (a one-bone quad, its skeleton, a 16x8 CLUT4 texture): the
// project's own seeds and test input for the MHFU formats.
#pragma once

#include "model/mhfu/pac.hpp"

namespace remodel {

Pac build_demo_mhfu_pac();

}  // namespace remodel
