// libFuzzer target: BWM reader with the round-trip oracle; vertices and every material reference's
// triangles are decoded on whatever parses.
#include <cstddef>
#include <cstdint>

#include "model/bwm/bwm.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<Bwm> bwm = read_bwm(input);
  if (!bwm.ok()) return 0;
  fuzz::expect_round_trip(input, *bwm, [](const Bwm& b) { return write_bwm(b); });
  if (!decode_bwm_vertices(*bwm).ok()) fuzz::die("the vertices of a BWM that reads must decode");
  for (const BwmMesh& m : bwm->meshes) {
    for (const BwmMaterialRef& r : m.material_refs) (void)bwm_triangles(*bwm, r);
  }
  return 0;
}
