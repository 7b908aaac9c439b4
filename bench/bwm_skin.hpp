// The frame of a generated BWM skin for the benchmarks (no BWM sample exists): the header fields and
// BWM's nine skin strides (position, normal, UV; four bone indices as u8; four weights as f32) with
// zero tails and no vertices yet.
#pragma once

#include <cstdint>

#include "model/bwm/bwm.hpp"

namespace remodel::bench {

inline Bwm bwm_skin_frame() {
  Bwm b;
  b.identifier = {'L', 'i', 'O', 'n', 'H', 'e', 'A', 'd', 'M', 'O', 'D', 'E', 'L'};
  b.type = 3;
  b.materials.resize(1);
  b.bones.resize(2);
  BwmStride base;
  base.attributes = {{0, BwmFormat::f32x3}, {1, BwmFormat::f32x3}, {2, BwmFormat::f32x2}};
  b.strides.push_back(base);
  for (int i = 0; i < 4; ++i) b.strides.push_back(BwmStride{{{6, BwmFormat::u8}}, {}, {}});
  for (int i = 0; i < 4; ++i) b.strides.push_back(BwmStride{{{7, BwmFormat::f32}}, {}, {}});
  return b;
}

}  // namespace remodel::bench
