// libFuzzer target: TMH texture bank reader with the round-trip oracle.
#include <cstddef>
#include <cstdint>

#include "model/tmh.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<TmhFile> f = read_tmh_file(input);
  if (f.ok()) fuzz::expect_round_trip(input, *f, [](const TmhFile& t) { return write_tmh_file(t); });
  return 0;
}
