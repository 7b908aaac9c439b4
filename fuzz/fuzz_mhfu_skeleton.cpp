// libFuzzer target: MHFU skeleton reader with the round-trip oracle.
#include <cstddef>
#include <cstdint>

#include "model/mhfu/skeleton.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<MhfuSkeletonFile> f = read_mhfu_skeleton_file(input);
  if (f.ok()) fuzz::expect_round_trip(input, *f, [](const MhfuSkeletonFile& s) { return write_mhfu_skeleton_file(s); });
  return 0;
}
