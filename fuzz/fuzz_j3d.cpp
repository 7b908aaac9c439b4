// libFuzzer target: J3D (BMD/BDL) reader with the round-trip oracle.
#include <cstddef>
#include <cstdint>

#include "model/j3d.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<J3dFile> f = read_j3d(input);
  if (f.ok()) fuzz::expect_round_trip(input, *f, [](const J3dFile& j) { return write_j3d(j); });
  return 0;
}
