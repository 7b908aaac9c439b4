// Structure-aware mutations: edit a Document (counts, indices, offsets' targets, table entries) so
// the writer produces a file that is well-formed on the outside and wrong on the inside, which
// byte-level mutation rarely reaches.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>

#include "model/j3d/j3d.hpp"
#include "model/kh_bbs/pmo.hpp"
#include "model/mhfu/pmo.hpp"

namespace remodel::fuzz {

void mutate(PmoFile& f, std::mt19937& rng);
void mutate(MhfuPmoFile& f, std::mt19937& rng);
void mutate(J3dFile& f, std::mt19937& rng);

// A glTF (.glb: its JSON chunk; .gltf: the text) with 1-3 edits of its JSON: nodes re-parented (loops
// included), a chain of nodes added (up to 310 deep), numbers (counts, indices, offsets) set to edge values,
// entries copied so they share one accessor, image, buffer or mesh, keys removed. Returns the new
// size, or 0 when the JSON does not parse or the result does not fit (the caller mutates bytes).
std::size_t mutate_gltf(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed);

// Reads `data`, applies 1-3 structural edits and writes it back into `data`; returns the new size,
// or 0 when the bytes do not read or the edited Document does not write (the caller then mutates
// bytes instead).
template <typename Read, typename Write>
std::size_t structured_mutate(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed, Read&& read,
                              Write&& write) {
  auto doc = read(ByteSpan(data, size));
  if (!doc.ok()) return 0;
  std::mt19937 rng(seed);
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int i = 0; i < edits; ++i) mutate(*doc, rng);
  auto out = write(*doc);
  if (!out.ok() || out->size() > max_size || out->empty()) return 0;
  std::memcpy(data, out->data(), out->size());
  return out->size();
}

}  // namespace remodel::fuzz
