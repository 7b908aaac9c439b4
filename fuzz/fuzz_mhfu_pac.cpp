// libFuzzer target: MHFU PAC reader (and the PMO, skeleton and TMH entries) with the round-trip oracle.
#include <cstddef>
#include <cstdint>

#include "model/mhfu_pac.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<Pac> pac = read_pac(input);
  if (pac.ok()) fuzz::expect_round_trip(input, *pac, [](const Pac& p) { return write_pac(p); });
  return 0;
}
