// libFuzzer target: J3D (BMD/BDL) reader with the round-trip oracle and every decoder.
#include <cstddef>
#include <cstdint>

#include "model/j3d/j3d.hpp"
#include "model/j3d/decode.hpp"
#include "mutators.hpp"
#include "round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace remodel;
  const ByteSpan input(data, size);
  Result<J3dFile> f = read_j3d(input);
  if (!f.ok()) return 0;
  fuzz::expect_round_trip(input, *f, [](const J3dFile& j) { return write_j3d(j); });
  // The decoders must succeed or fail with a message on whatever parsed.
  for (const J3dSection& s : f->sections) {
    if (const auto* vtx = std::get_if<J3dVtx1>(&s)) {
      for (std::uint8_t slot = 0; slot < 13; ++slot) {
        auto a = j3d_decode_array(*vtx, slot);
        if (!a.ok() && a.error().message.empty()) fuzz::die("a decode error must say why");
      }
    }
    if (const auto* shp = std::get_if<J3dShp1>(&s)) {
      for (std::size_t i = 0; i < shp->shapes.size(); ++i) (void)j3d_packet_matrices(*shp, i);
    }
  }
  (void)j3d_joint_world_matrices(*f);
  (void)j3d_check_indices(*f);
  fuzz::expect_textures_round_trip(input, Document(std::move(*f)), 16);  // the codec itself: fuzz_gx_texture
  return 0;
}

#ifdef REMODEL_LIBFUZZER
// Half the mutations edit the Document and write it back, to get past the outer checks.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned int seed) {
  if (seed % 2 == 0) {
    const std::size_t n = remodel::fuzz::structured_mutate(data, size, max_size, seed, remodel::read_j3d, [](const remodel::J3dFile& d) { return remodel::write_j3d(d); });
    if (n != 0) return n;
  }
  return LLVMFuzzerMutate(data, size, max_size);
}
#endif
