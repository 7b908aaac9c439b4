// Internal: writes one TIM2, for the containers that embed TIM2s.
#pragma once

#include "model/kh_bbs/tim2.hpp"
#include "writer/byte_writer.hpp"

namespace remodel {

void write_tim2_into(ByteWriter& w, const Tim2& tim2);

}  // namespace remodel
