// One value in a GE vertex element format, as an MHFU block stores it (psp_vertex.hpp's scaling,
// inverted), for the lowers over a base (mhfu_lower.hpp).
#include <algorithm>
#include <bit>
#include <cmath>
#include <span>

#include "scene/mhfu_lower.hpp"

namespace remodel::scene::mhfu {

Error unsupported(const std::string& where, const std::string& message) {
  return Error{ErrorCode::unsupported, std::nullopt, where, message};
}
Error bad(const std::string& where, const std::string& message) { return Error{ErrorCode::bad_value, std::nullopt, where, message}; }

std::optional<std::uint32_t> encode_signed(psp::NumFormat f, float v) {
  switch (f) {
    case psp::NumFormat::f32: return std::bit_cast<std::uint32_t>(v);
    case psp::NumFormat::i8: {
      const float q = std::nearbyint(v * 128.0f);
      if (!(q >= -128.0f && q <= 127.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(static_cast<std::int32_t>(q)) & 0xFF;
    }
    case psp::NumFormat::i16: {
      const float q = std::nearbyint(v * 32768.0f);
      if (!(q >= -32768.0f && q <= 32767.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(static_cast<std::int32_t>(q)) & 0xFFFF;
    }
    case psp::NumFormat::none: break;
  }
  return 0;
}

std::uint32_t encode_normal(psp::NumFormat f, float v) {
  if (f == psp::NumFormat::f32) return std::bit_cast<std::uint32_t>(v);
  const float limit = f == psp::NumFormat::i8 ? 127.0f / 128.0f : 32767.0f / 32768.0f;
  return *encode_signed(f, std::clamp(v, -1.0f, limit));
}

std::optional<std::uint32_t> encode_unsigned(psp::NumFormat f, float v) {
  switch (f) {
    case psp::NumFormat::f32: return std::bit_cast<std::uint32_t>(v);
    case psp::NumFormat::i8: {
      const float q = std::nearbyint(v * 128.0f);
      if (!(q >= 0.0f && q <= 255.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(q);
    }
    case psp::NumFormat::i16: {
      const float q = std::nearbyint(v * 32768.0f);
      if (!(q >= 0.0f && q <= 65535.0f)) return std::nullopt;
      return static_cast<std::uint32_t>(q);
    }
    case psp::NumFormat::none: break;
  }
  return 0;
}

std::uint32_t encode_vertex_colour(psp::ColorFormat f, const Vec4& c) {
  std::array<std::uint8_t, 4> rgba{};
  const float ch[4] = {c.x, c.y, c.z, c.w};
  for (int i = 0; i < 4; ++i) rgba[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(std::nearbyint(std::clamp(ch[i], 0.0f, 1.0f) * 255.0f));
  return psp::encode_colour(*psp::colour_format(f), rgba.data());
}

std::array<std::uint32_t, 8> encode_weights(psp::NumFormat f, std::size_t count, const std::array<float, 8>& w) {
  std::array<std::uint32_t, 8> out{};
  if (f == psp::NumFormat::f32) {
    for (std::size_t k = 0; k < count; ++k) out[k] = std::bit_cast<std::uint32_t>(w[k]);
    return out;
  }
  const double total = f == psp::NumFormat::i8 ? 128.0 : 32768.0;
  std::array<double, 8> rest{};
  std::uint32_t given = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const double exact = static_cast<double>(w[k]) * total;
    out[k] = static_cast<std::uint32_t>(std::floor(exact));
    rest[k] = exact - out[k];
    given += out[k];
  }
  for (auto left = static_cast<std::uint32_t>(total) - std::min<std::uint32_t>(given, static_cast<std::uint32_t>(total)); left > 0; --left) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < count; ++k) best = rest[k] > rest[best] ? k : best;
    ++out[best];
    rest[best] = -1.0;
  }
  return out;
}

void store_vertex(const psp::VertexFormat& f, const psp::Vertex& v, std::uint8_t* dst) {
  const psp::VertexLayout l = f.layout();
  const std::vector<std::uint8_t> enc = psp::encode_vertices(f, std::span<const psp::Vertex>(&v, 1));
  const auto copy = [&](std::size_t at, std::size_t n) { std::copy_n(enc.begin() + static_cast<std::ptrdiff_t>(at), n, dst + at); };
  copy(l.weights, f.weight_count * psp::element_size(f.weight));
  copy(l.texcoord, 2 * psp::element_size(f.texcoord));
  copy(l.color, psp::color_size(f.color));
  copy(l.normal, 3 * psp::element_size(f.normal));
  copy(l.position, 3 * psp::element_size(f.position));
}

float on_grid(psp::NumFormat f, float v, bool is_signed) {
  const std::optional<std::uint32_t> e = is_signed ? encode_signed(f, v) : encode_unsigned(f, v);
  if (!e || !std::isfinite(v)) return v;
  switch (f) {
    case psp::NumFormat::i8: return (is_signed ? static_cast<float>(static_cast<std::int8_t>(*e & 0xFF)) : static_cast<float>(*e)) / 128.0f;
    case psp::NumFormat::i16: return (is_signed ? static_cast<float>(static_cast<std::int16_t>(*e & 0xFFFF)) : static_cast<float>(*e)) / 32768.0f;
    case psp::NumFormat::f32:
    case psp::NumFormat::none: break;
  }
  return v;
}

}  // namespace remodel::scene::mhfu
