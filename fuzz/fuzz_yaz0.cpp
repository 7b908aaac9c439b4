// libFuzzer target: Yaz0 reader with the round-trip oracle, and the codec's: the input's bytes
// compressed by remodel decompress to themselves.
#include <cstddef>
#include <cstdint>

#include "model/archive/yaz0.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<Yaz0File> f = read_yaz0(input);
  if (f.ok()) fuzz::expect_round_trip(input, *f, [](const Yaz0File& y) { return write_yaz0(y); });
  const Bytes stream = yaz0_compress(input);
  Bytes back;
  const Result<std::size_t> used = yaz0_decompress(stream, input.size(), back);
  if (!used.ok() || *used != stream.size() || back.size() != input.size() || !std::equal(back.begin(), back.end(), input.begin())) {
    fuzz::die("yaz0_compress does not decompress to its input");
  }
  return 0;
}
