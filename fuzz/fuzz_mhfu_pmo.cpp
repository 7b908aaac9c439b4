// libFuzzer target: MHFU PMO reader with the round-trip oracle; every block's command list,
// triangles and vertices and the bone palettes are decoded on whatever parses.
#include <cstddef>
#include <cstdint>

#include "model/mhfu/pmo.hpp"
#include "mutators.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<MhfuPmoFile> f = read_mhfu_pmo_file(input);
  if (!f.ok()) return 0;
  fuzz::expect_round_trip(input, *f, [](const MhfuPmoFile& p) { return write_mhfu_pmo_file(p); });
  for (const MhfuBlock& b : f->pmo.blocks) {
    Result<MhfuDrawList> d = decode_mhfu_block(b);
    if (!d.ok()) fuzz::die("a block that reads must decode");
    (void)mhfu_triangles(*d);
    if (!psp::decode_vertices(d->format, b.vertices, d->vertex_count).ok()) fuzz::die("vertices must decode");
  }
  (void)mhfu_group_palettes(f->pmo);
  return 0;
}

#ifdef REMODEL_LIBFUZZER
// Half the mutations edit the Document and write it back, to get past the outer checks.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed) {
  if (seed % 2 == 0) {
    const std::size_t n = remodel::fuzz::structured_mutate(data, size, max_size, seed, remodel::read_mhfu_pmo_file, [](const remodel::MhfuPmoFile& d) { return remodel::write_mhfu_pmo_file(d); });
    if (n != 0) return n;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
#endif
