// J3dArrayCodec: one VTX1 array's values in and out of its GX component type.
#include "scene/j3d/array_codec.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "model/gx/colour.hpp"

namespace remodel::scene {

bool J3dArrayCodec::same(std::uint32_t index, const Bytes& e) const {
  return index < count() && std::equal(e.begin(), e.end(), array->data.begin() + static_cast<std::ptrdiff_t>(std::size_t{index} * element));
}

std::uint32_t J3dArrayCodec::find_or_append(const Bytes& e) {
  if (!indexed) {
    for (std::size_t i = count(); i-- > 0;) {
      first_of[std::string(reinterpret_cast<const char*>(array->data.data() + i * element), element)] = static_cast<std::uint32_t>(i);
    }
    indexed = true;
  }
  const std::string k(reinterpret_cast<const char*>(e.data()), e.size());
  if (const auto it = first_of.find(k); it != first_of.end()) return it->second;
  const auto at = static_cast<std::uint32_t>(count());
  array->data.insert(array->data.end(), e.begin(), e.end());
  first_of.emplace(k, at);
  appended = true;
  return at;
}

Result<void> J3dArrayCodec::encode(const float* v, std::size_t given, Bytes& out, const std::string& where, bool saturate) const {
  if (format == nullptr || format->type > 4 || element == 0) {
    return Error{ErrorCode::unsupported, std::nullopt, where, std::string("the base has no VTX1 ") + what + " array to hold an edited value"};
  }
  const std::size_t size = j3d_component_size(format->type), components = element / size;
  out.assign(element, 0);
  const double scale = std::ldexp(1.0, format->frac & 31);
  for (std::size_t c = 0; c < components; ++c) {
    const float f = c < given ? v[c] : 0.0f;
    std::uint8_t* p = out.data() + c * size;
    if (format->type == 4) {
      std::uint32_t bits = 0;
      std::memcpy(&bits, &f, 4);
      p[0] = static_cast<std::uint8_t>(bits >> 24);
      p[1] = static_cast<std::uint8_t>(bits >> 16);
      p[2] = static_cast<std::uint8_t>(bits >> 8);
      p[3] = static_cast<std::uint8_t>(bits);
      continue;
    }
    static const double lo[4] = {0, -128, 0, -32768}, hi[4] = {255, 127, 65535, 32767};
    double q = std::nearbyint(static_cast<double>(f) * scale);
    if (saturate && std::isfinite(q)) q = std::clamp(q, lo[format->type], hi[format->type]);
    if (!(q >= lo[format->type] && q <= hi[format->type])) {
      static const char* names[4] = {"u8", "s8", "u16", "s16"};
      return Error{ErrorCode::unsupported, std::nullopt, where,
                   std::string(what) + " value " + std::to_string(f) + " does not fit VTX1's " + names[format->type] + " with " +
                       std::to_string(format->frac) + " fractional bits"};
    }
    const auto n = static_cast<std::int64_t>(q);
    if (size == 1) {
      p[0] = static_cast<std::uint8_t>(n & 0xFF);
    } else {
      p[0] = static_cast<std::uint8_t>((n >> 8) & 0xFF);
      p[1] = static_cast<std::uint8_t>(n & 0xFF);
    }
  }
  return {};
}

std::vector<double> J3dArrayCodec::decode(std::uint32_t index) const {
  std::vector<double> out;
  if (format == nullptr || format->type > 4 || index >= count()) return out;
  const std::size_t size = j3d_component_size(format->type);
  const std::uint8_t* p = array->data.data() + std::size_t{index} * element;
  for (std::size_t c = 0; c < element / size; ++c, p += size) out.push_back(j3d_component_value(format->type, format->frac, p));
  return out;
}

Result<void> J3dArrayCodec::encode_colour(const Vec4& c, Bytes& out, const std::string& where) const {
  if (format == nullptr || element == 0) return Error{ErrorCode::unsupported, std::nullopt, where, "the base has no VTX1 colour array to hold an edited colour"};
  const auto channel = [](float x) { return static_cast<std::uint8_t>(std::lround(std::clamp(x, 0.0f, 1.0f) * 255.0f)); };
  out.assign(element, 0);
  gx::encode_vertex_colour(static_cast<std::uint8_t>(format->type), Rgba{channel(c.x), channel(c.y), channel(c.z), channel(c.w)}, out.data());
  return {};
}

}  // namespace remodel::scene
