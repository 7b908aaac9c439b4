// libFuzzer target: RARC reader with the round-trip oracle, and every member's path walk.
#include <cstddef>
#include <cstdint>

#include "model/archive/members.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<Rarc> r = read_rarc(input);
  if (!r.ok()) return 0;
  fuzz::expect_round_trip(input, *r, [](const Rarc& a) { return write_rarc(a); });
  for (const RarcPath& p : rarc_paths(*r)) {
    if (!p.directory && find_member(*r, p.path) == nullptr) fuzz::die("a listed member is not found by its path");
  }
  return 0;
}
