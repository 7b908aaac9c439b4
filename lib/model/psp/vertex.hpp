// PSP GE vertices: the VTYPE bit field, the in-vertex layout rules and an exact codec.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "model/error.hpp"
#include "model/psp/colour.hpp"

namespace remodel::psp {

// Element format of texcoords, normals, positions and weights (VTYPE 2-bit fields).
enum class NumFormat : std::uint8_t { none = 0, i8 = 1, i16 = 2, f32 = 3 };
// Colour format (VTYPE bits 2-4); 1-3 are not valid vertex colours.
enum class ColorFormat : std::uint8_t { none = 0, bgr5650 = 4, abgr5551 = 5, abgr4444 = 6, abgr8888 = 7 };

struct VertexLayout {
  std::uint8_t weights = 0, texcoord = 0, color = 0, normal = 0, position = 0;  // byte offsets
  std::uint8_t size = 0;       // bytes per vertex, rounded up to `alignment`
  std::uint8_t alignment = 1;  // the largest element size present
};

struct VertexFormat {
  NumFormat texcoord = NumFormat::none;
  ColorFormat color = ColorFormat::none;
  NumFormat normal = NumFormat::none;
  NumFormat position = NumFormat::none;
  NumFormat weight = NumFormat::none;
  NumFormat index = NumFormat::none;  // index buffer element; not part of the vertex
  std::uint8_t weight_count = 0;      // 1-8 when `weight` is present
  std::uint8_t morph_count = 1;
  bool through = false;               // 2D "through mode": no transform pipeline

  // Every field as the bits say, valid or not: enough to compute a layout.
  static VertexFormat parse(std::uint32_t vtype);
  // Rejects colour codes 1-3, index format 3 and morph targets, which no supported file uses.
  static Result<VertexFormat> from_vtype(std::uint32_t vtype);
  std::uint32_t vtype() const;  // the low 24 bits this format encodes to
  VertexLayout layout() const;
};

// One vertex as stored: every component keeps its stored integer (floats keep their bits),
// so encoding gives back the same bytes.
struct Vertex {
  std::array<std::uint32_t, 8> weights{};
  std::array<std::uint32_t, 2> texcoord{};
  std::uint32_t color = 0;
  std::array<std::uint32_t, 3> normal{};    // two's complement at the stored width
  std::array<std::uint32_t, 3> position{};  // two's complement at the stored width
  bool operator==(const Vertex&) const = default;
};

inline constexpr std::uint8_t kVertexPadding = 0xAB;  // what Sony's converter leaves between components

std::size_t element_size(NumFormat f);
std::size_t color_size(ColorFormat f);

// Stored integer to float, with the GE's scaling: unsigned /128 or /32768 for UVs and weights,
// signed /128 or /32768 for normals and positions; f32 is its own bits.
float unsigned_value(NumFormat f, std::uint32_t stored);
float signed_value(NumFormat f, std::uint32_t stored);
// The inverse of signed_value / unsigned_value: the stored integer nearest `x` (f32: its bits);
// nullopt outside the format's range or not finite.
std::optional<std::uint32_t> signed_stored(NumFormat f, float x);
std::optional<std::uint32_t> unsigned_stored(NumFormat f, float x);
// The first n weights of `w` (any positive total) as stored: u8 and u16 split 128 or 32768 by largest
// remainder (lower slot on a tie), so the stored total is exact as the game's converter leaves it;
// f32 normalised to 1.
std::array<std::uint32_t, 8> stored_weights(NumFormat f, std::size_t n, const std::array<float, 8>& w);
// The GE colour format of a vertex colour (VTYPE 4-7 are modes 0-3), none when the vertex has no
// colour; a vertex colour decodes with psp::decode_colour like every other GE colour.
inline std::optional<PspColour> colour_format(ColorFormat f) {
  if (f == ColorFormat::none) return std::nullopt;
  return static_cast<PspColour>(static_cast<std::uint8_t>(f) - 4);
}

// Decodes `count` vertices from `bytes` (at least count * layout().size long).
Result<std::vector<Vertex>> decode_vertices(const VertexFormat& format, std::span<const std::uint8_t> bytes,
                                            std::size_t count);
// Stores one vertex's components at `out` (layout().size bytes), leaving the bytes between them as
// they are, so an edited vertex keeps its file's padding.
void encode_vertex(const VertexFormat& format, const Vertex& vertex, std::uint8_t* out);
// Encodes vertices with 0xAB in-vertex padding.
std::vector<std::uint8_t> encode_vertices(const VertexFormat& format, std::span<const Vertex> vertices);

}  // namespace remodel::psp
