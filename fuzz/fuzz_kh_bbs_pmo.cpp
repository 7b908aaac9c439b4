// libFuzzer target: KH BBS PMO reader, with the round-trip oracle and the GE vertex decoder.
#include <cstddef>
#include <cstdint>

#include "model/kh_bbs/pmo.hpp"
#include "model/psp/vertex.hpp"
#include "mutators.hpp"
#include "round_trip.hpp"

namespace remodel::fuzz {

void decode_sections(const Pmo& pmo) {
  for (const auto* list : {&pmo.mesh0, &pmo.mesh1}) {
    if (!list->has_value()) continue;
    for (const PmoSection& s : (*list)->sections) {
      auto format = psp::VertexFormat::from_vtype(s.vertex_flags & 0xFFFFFF);
      if (!format.ok()) continue;
      auto vertices = psp::decode_vertices(*format, s.vertices, s.vertex_count());
      if (vertices.ok() && format->layout().size == s.vertex_size() &&
          psp::encode_vertices(*format, *vertices).size() != s.vertices.size()) {
        die("re-encoded vertices changed size");
      }
    }
  }
}

}  // namespace remodel::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<PmoFile> file = read_pmo_file(input);
  if (!file.ok()) return 0;
  fuzz::expect_round_trip(input, *file, [](const PmoFile& f) { return write_pmo_file(f); });
  fuzz::decode_sections(file->pmo);
  return 0;
}

#ifdef REMODEL_LIBFUZZER
// Half the mutations edit the Document and write it back, to get past the outer checks.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed) {
  if (seed % 2 == 0) {
    const std::size_t n = remodel::fuzz::structured_mutate(data, size, max_size, seed, remodel::read_pmo_file, [](const remodel::PmoFile& d) { return remodel::write_pmo_file(d); });
    if (n != 0) return n;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
#endif
