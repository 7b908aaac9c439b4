// libFuzzer target: MHFU PAC reader (and the PMO, skeleton and TMH entries) with the round-trip oracle.
#include <cstddef>
#include <cstdint>

#include "model/mhfu/pac.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<Pac> pac = read_pac(input);
  if (!pac.ok()) return 0;
  fuzz::expect_round_trip(input, *pac, [](const Pac& p) { return write_pac(p); });
  fuzz::expect_textures_round_trip(input, Document(std::move(*pac)));
  return 0;
}
