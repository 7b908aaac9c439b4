// Shared by the MHFU lowers over a base (mhfu_lower*.cpp): one value in a GE vertex element format,
// and the group-level lower (a block's vertices re-encoded in place, or its group rebuilt).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/bytes.hpp"
#include "model/error.hpp"
#include "model/matrix_palette.hpp"
#include "model/mhfu_pmo.hpp"
#include "model/psp_vertex.hpp"
#include "scene/lower.hpp"
#include "scene/scene.hpp"

namespace remodel::scene::mhfu {

Error unsupported(const std::string& where, const std::string& message);
Error bad(const std::string& where, const std::string& message);

// ---- one value in a GE vertex element format (psp_vertex.hpp's scaling, inverted) ----

// Signed element (normals, positions): nullopt when the value does not fit the element's range.
std::optional<std::uint32_t> encode_signed(psp::NumFormat f, float v);
// A unit normal's component: 1.0 is one step past the signed range, so it saturates.
std::uint32_t encode_normal(psp::NumFormat f, float v);
// Unsigned element (UVs, weights).
std::optional<std::uint32_t> encode_unsigned(psp::NumFormat f, float v);
std::uint32_t encode_vertex_colour(psp::ColorFormat f, const Vec4& c);
// Weights per palette slot (summing to 1) as stored: u8 and u16 split 128 or 32768 by largest
// remainder, so the stored total is exact, as the game's converter leaves it.
std::array<std::uint32_t, 8> encode_weights(psp::NumFormat f, std::size_t count, const std::array<float, 8>& w);
// Overwrites the components of one stored vertex, keeping its padding bytes as stored.
void store_vertex(const psp::VertexFormat& f, const psp::Vertex& v, std::uint8_t* dst);
// A value as the element stores it: encoded and decoded again (unchanged when it does not fit, which
// the encoder then says). Compared so, float noise below half a step (Blender's) is no difference.
float on_grid(psp::NumFormat f, float v, bool is_signed);

// ---- one group of a PMO over its base ----

class GroupLowerer {
 public:
  // bones: incoming skin joint -> base bone.
  GroupLowerer(const std::vector<int>& bones, std::vector<LowerWarning>& warnings) : bones_(bones), warnings_(warnings) {}

  // Re-encodes the vertices of one group's block that the incoming primitive moved; true when any did.
  Result<bool> lower_group(MhfuPmo& pmo, const MhfuMesh& mesh, std::size_t g, const GeBonePalette& palette, const Primitive& bp,
                           const Primitive& incoming, const std::string& where);

 private:
  Result<Bytes> encode_new_vertex(const MhfuPmo& pmo, const MhfuMesh& mesh, const GeBonePalette& palette, const Primitive& bp,
                                  const Primitive& ip, std::uint32_t i, const std::vector<psp::Vertex>& stored,
                                  const psp::VertexFormat& f, const MhfuBlock& block, const std::string& where);
  std::optional<Error> rebuild_group(MhfuPmo& pmo, const MhfuMesh& mesh, std::size_t g, const GeBonePalette& palette, const Primitive& bp,
                                     const Primitive& ip, const std::vector<psp::Vertex>& stored, const MhfuDrawList& draw,
                                     const std::string& where);
  Result<std::array<float, 8>> slot_weights(const Primitive& p, std::size_t v, const GeBonePalette& palette,
                                            const psp::VertexFormat& f, const std::string& where, bool incoming);

  const std::vector<int>& bones_;
  std::vector<LowerWarning>& warnings_;
  std::size_t limited_ = 0;  // vertices of the current group whose weights were cut to the VTYPE's
};

}  // namespace remodel::scene::mhfu
