// libFuzzer target: J3D animations (J3D1), with the round-trip oracle on whatever parses.
#include <cstddef>
#include <cstdint>

#include "model/j3d/anim.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  if (Result<J3dAnimFile> anim = read_j3d_anim(input); anim.ok()) {
    fuzz::expect_round_trip(input, *anim, [](const J3dAnimFile& f) { return write_j3d_anim(f); });
  }
  return 0;
}
