// libFuzzer target: TIM2 reader and texture codec, with the round-trip oracles.
#include <cstddef>
#include <cstdint>

#include "model/kh_bbs/tim2.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<Tim2File> file = read_tim2_file(input);
  if (!file.ok()) return 0;
  fuzz::expect_round_trip(input, *file, [](const Tim2File& f) { return write_tim2_file(f); });
  fuzz::expect_textures_round_trip(input, Document(std::move(*file)));
  return 0;
}
