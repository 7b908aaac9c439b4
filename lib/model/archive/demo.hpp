// A small RARC described in code (a root with a file and a folder holding another, an empty folder):
// the project's own seeds and test input for the archive formats.
#pragma once

#include "model/archive/rarc.hpp"

namespace remodel {

Rarc build_demo_rarc();

}  // namespace remodel
