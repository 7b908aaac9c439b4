#include "model/psp/vertex.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

namespace remodel::psp {

std::size_t element_size(NumFormat f) {
  switch (f) {
    case NumFormat::none: return 0;
    case NumFormat::i8: return 1;
    case NumFormat::i16: return 2;
    case NumFormat::f32: return 4;
  }
  return 0;
}

std::size_t color_size(ColorFormat f) {
  switch (f) {
    case ColorFormat::none: return 0;
    case ColorFormat::bgr5650:
    case ColorFormat::abgr5551:
    case ColorFormat::abgr4444: return 2;
    case ColorFormat::abgr8888: return 4;
  }
  return 0;
}

VertexFormat VertexFormat::parse(std::uint32_t vtype) {
  VertexFormat f;
  f.texcoord = static_cast<NumFormat>(vtype & 3);
  f.color = static_cast<ColorFormat>((vtype >> 2) & 7);
  f.normal = static_cast<NumFormat>((vtype >> 5) & 3);
  f.position = static_cast<NumFormat>((vtype >> 7) & 3);
  f.weight = static_cast<NumFormat>((vtype >> 9) & 3);
  f.index = static_cast<NumFormat>((vtype >> 11) & 3);
  f.weight_count = f.weight == NumFormat::none ? 0 : static_cast<std::uint8_t>(((vtype >> 14) & 7) + 1);
  f.morph_count = static_cast<std::uint8_t>(((vtype >> 18) & 7) + 1);
  f.through = (vtype >> 23) & 1;
  return f;
}

Result<VertexFormat> VertexFormat::from_vtype(std::uint32_t vtype) {
  VertexFormat f = parse(vtype);
  std::uint32_t color = (vtype >> 2) & 7;
  if (color != 0 && color < 4) {
    return Error{ErrorCode::bad_value, std::nullopt, "vtype.color", "colour format " + std::to_string(color) + " is not a vertex colour format (0 or 4-7)"};
  }
  if (((vtype >> 11) & 3) == 3) return Error{ErrorCode::bad_value, std::nullopt, "vtype.index", "index format 3 does not exist on the GE"};
  if (f.morph_count != 1) {
    // No real file has them: neither game stores morph targets (no KH BBS or MHFU sample sets the count).
    return Error{ErrorCode::unsupported, std::nullopt, "vtype.morph", "morph targets (" + std::to_string(f.morph_count) + ") are not supported"};
  }
  return f;
}

std::uint32_t VertexFormat::vtype() const {
  std::uint32_t v = static_cast<std::uint32_t>(texcoord) | static_cast<std::uint32_t>(color) << 2 |
                    static_cast<std::uint32_t>(normal) << 5 | static_cast<std::uint32_t>(position) << 7 |
                    static_cast<std::uint32_t>(weight) << 9 | static_cast<std::uint32_t>(index) << 11 |
                    static_cast<std::uint32_t>(morph_count - 1) << 18 | static_cast<std::uint32_t>(through) << 23;
  if (weight != NumFormat::none) v |= static_cast<std::uint32_t>(weight_count - 1) << 14;
  return v;
}

VertexLayout VertexFormat::layout() const {
  VertexLayout l;
  std::size_t at = 0;
  std::size_t align = 1;
  auto place = [&](std::size_t elem, std::size_t count) -> std::uint8_t {
    if (elem == 0) return static_cast<std::uint8_t>(at);
    at = (at + elem - 1) & ~(elem - 1);  // each component aligns to its element size (1, 2 or 4)
    std::uint8_t offset = static_cast<std::uint8_t>(at);
    at += elem * count;
    align = std::max(align, elem);
    return offset;
  };
  l.weights = place(element_size(weight), weight_count);
  l.texcoord = place(element_size(texcoord), 2);
  l.color = place(color_size(color), 1);
  l.normal = place(element_size(normal), 3);
  l.position = place(element_size(position), 3);
  at = (at + align - 1) & ~(align - 1);
  l.size = static_cast<std::uint8_t>(at);
  l.alignment = static_cast<std::uint8_t>(align);
  return l;
}

namespace {

std::uint32_t load(const std::uint8_t* p, std::size_t n) {
  std::uint32_t v = 0;
  for (std::size_t i = n; i-- > 0;) v = (v << 8) | p[i];  // the PSP is little-endian
  return v;
}

void store(std::uint8_t* p, std::size_t n, std::uint32_t v) {
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

}  // namespace

float unsigned_value(NumFormat f, std::uint32_t stored) {
  switch (f) {
    case NumFormat::i8: return static_cast<float>(stored & 0xFF) / 128.0f;
    case NumFormat::i16: return static_cast<float>(stored & 0xFFFF) / 32768.0f;
    case NumFormat::f32: return std::bit_cast<float>(stored);
    case NumFormat::none: break;
  }
  return 0.0f;
}

float signed_value(NumFormat f, std::uint32_t stored) {
  switch (f) {
    case NumFormat::i8: return static_cast<float>(static_cast<std::int8_t>(stored)) / 128.0f;
    case NumFormat::i16: return static_cast<float>(static_cast<std::int16_t>(stored)) / 32768.0f;
    case NumFormat::f32: return std::bit_cast<float>(stored);
    case NumFormat::none: break;
  }
  return 0.0f;
}

std::optional<std::uint32_t> signed_stored(NumFormat f, float x) {
  switch (f) {
    case NumFormat::i8: {
      const float r = std::round(x * 128.0f);
      if (!(r >= -128.0f && r <= 127.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(static_cast<std::int32_t>(r)) & 0xFFu;
    }
    case NumFormat::i16: {
      const float r = std::round(x * 32768.0f);
      if (!(r >= -32768.0f && r <= 32767.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(static_cast<std::int32_t>(r)) & 0xFFFFu;
    }
    case NumFormat::f32:
      if (!std::isfinite(x)) return std::nullopt;
      return std::bit_cast<std::uint32_t>(x);
    case NumFormat::none: break;
  }
  return std::nullopt;
}

std::optional<std::uint32_t> unsigned_stored(NumFormat f, float x) {
  switch (f) {
    case NumFormat::i8: {
      const float r = std::round(x * 128.0f);
      if (!(r >= 0.0f && r <= 255.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(r);
    }
    case NumFormat::i16: {
      const float r = std::round(x * 32768.0f);
      if (!(r >= 0.0f && r <= 65535.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(r);
    }
    case NumFormat::f32:
      if (!std::isfinite(x)) return std::nullopt;
      return std::bit_cast<std::uint32_t>(x);
    case NumFormat::none: break;
  }
  return std::nullopt;
}

std::array<std::uint32_t, 8> stored_weights(NumFormat f, std::size_t n, const std::array<float, 8>& w) {
  std::array<std::uint32_t, 8> out{};
  n = std::min<std::size_t>(n, 8);
  float sum = 0;
  for (std::size_t k = 0; k < n; ++k) sum += w[k];
  if (!(sum > 0.0f)) return out;
  if (f == NumFormat::f32) {
    for (std::size_t k = 0; k < n; ++k) out[k] = std::bit_cast<std::uint32_t>(w[k] / sum);
    return out;
  }
  const std::uint32_t total = f == NumFormat::i8 ? 128 : 32768;
  // Largest remainder: the floors first, then one unit each to the largest fractions (lower slot on a tie).
  std::array<float, 8> fraction{};
  std::uint32_t given = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const float exact = w[k] / sum * static_cast<float>(total);
    out[k] = static_cast<std::uint32_t>(std::floor(exact));
    fraction[k] = exact - std::floor(exact);
    given += out[k];
  }
  while (given < total) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < n; ++k) {
      if (fraction[k] > fraction[best]) best = k;
    }
    ++out[best];
    fraction[best] = -1.0f;
    ++given;
  }
  return out;
}

Result<std::vector<Vertex>> decode_vertices(const VertexFormat& format, std::span<const std::uint8_t> bytes,
                                            std::size_t count) {
  const VertexLayout l = format.layout();
  if (l.size == 0) {
    if (count == 0) return std::vector<Vertex>{};
    return Error{ErrorCode::bad_value, std::nullopt, "vtype", "the vertex format has no components, so vertices have no size"};
  }
  if (count > bytes.size() / l.size) {
    return Error{ErrorCode::truncated, bytes.size(), "vertices",
                 std::to_string(count) + " vertices of " + std::to_string(l.size) + " bytes need more than the " +
                     std::to_string(bytes.size()) + " bytes given"};
  }
  const std::size_t ws = element_size(format.weight), ts = element_size(format.texcoord),
                    cs = color_size(format.color), ns = element_size(format.normal),
                    ps = element_size(format.position);
  std::vector<Vertex> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint8_t* v = bytes.data() + i * l.size;
    Vertex& o = out[i];
    for (std::size_t k = 0; k < format.weight_count; ++k) o.weights[k] = load(v + l.weights + k * ws, ws);
    for (std::size_t k = 0; k < 2 && ts; ++k) o.texcoord[k] = load(v + l.texcoord + k * ts, ts);
    if (cs) o.color = load(v + l.color, cs);
    for (std::size_t k = 0; k < 3 && ns; ++k) o.normal[k] = load(v + l.normal + k * ns, ns);
    for (std::size_t k = 0; k < 3 && ps; ++k) o.position[k] = load(v + l.position + k * ps, ps);
  }
  return out;
}

void encode_vertex(const VertexFormat& format, const Vertex& s, std::uint8_t* v) {
  const VertexLayout l = format.layout();
  const std::size_t ws = element_size(format.weight), ts = element_size(format.texcoord),
                    cs = color_size(format.color), ns = element_size(format.normal),
                    ps = element_size(format.position);
  for (std::size_t k = 0; k < format.weight_count; ++k) store(v + l.weights + k * ws, ws, s.weights[k]);
  for (std::size_t k = 0; k < 2 && ts; ++k) store(v + l.texcoord + k * ts, ts, s.texcoord[k]);
  if (cs) store(v + l.color, cs, s.color);
  for (std::size_t k = 0; k < 3 && ns; ++k) store(v + l.normal + k * ns, ns, s.normal[k]);
  for (std::size_t k = 0; k < 3 && ps; ++k) store(v + l.position + k * ps, ps, s.position[k]);
}

std::vector<std::uint8_t> encode_vertices(const VertexFormat& format, std::span<const Vertex> vertices) {
  const VertexLayout l = format.layout();
  std::vector<std::uint8_t> out(vertices.size() * l.size, kVertexPadding);
  for (std::size_t i = 0; i < vertices.size(); ++i) encode_vertex(format, vertices[i], out.data() + i * l.size);
  return out;
}

}  // namespace remodel::psp
