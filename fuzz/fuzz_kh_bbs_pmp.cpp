// libFuzzer target: KH BBS PMP reader (and the PMOs and TIM2s inside), with the round-trip oracle.
#include <cstddef>
#include <cstdint>

#include "model/kh_bbs/pmo.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<Pmp> pmp = read_pmp(input);
  if (!pmp.ok()) return 0;
  fuzz::expect_round_trip(input, *pmp, [](const Pmp& p) { return write_pmp(p); });
  fuzz::expect_textures_round_trip(input, Document(std::move(*pmp)));
  return 0;
}
