// Internal: reads one TIM2 at the cursor, for the containers that embed TIM2s.
#pragma once

#include "model/kh_bbs/tim2.hpp"
#include "reader/cursor.hpp"

namespace remodel {

// The cursor ends right after the last picture.
Tim2 read_tim2_at(Cursor& c);

}  // namespace remodel
