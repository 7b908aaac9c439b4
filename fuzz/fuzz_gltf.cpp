// libFuzzer target: the glTF reader over .glb bytes (no external files), with an oracle: a Scene that
// reads must export, and that export must read back.
#include <cstddef>
#include <cstdint>

#include "gltf/gltf.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  Result<gltf::ReadScene> read = gltf::read_gltf(ByteSpan(data, size));
  if (!read.ok()) return 0;
  // The writer refuses Scenes glTF cannot hold (an empty animation...), which a read may give; what
  // it writes must read again.
  Result<Bytes> glb = gltf::write_glb(read->scene);
  if (glb.ok() && !gltf::read_gltf(*glb).ok()) fuzz::die("a Scene the reader gave and the writer wrote must read back");
  return 0;
}
