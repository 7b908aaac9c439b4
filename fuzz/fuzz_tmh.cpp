// libFuzzer target: TMH texture bank reader and texture codec, with the round-trip oracles.
#include <cstddef>
#include <cstdint>

#include "model/mhfu/tmh.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<TmhFile> f = read_tmh_file(input);
  if (!f.ok()) return 0;
  fuzz::expect_round_trip(input, *f, [](const TmhFile& t) { return write_tmh_file(t); });
  fuzz::expect_textures_round_trip(input, Document(std::move(*f)));
  return 0;
}
