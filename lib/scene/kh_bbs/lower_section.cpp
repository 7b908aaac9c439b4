// One KH BBS PMO section lowered in place: each incoming vertex value that differs from the lifted one
// is encoded as the section stores it (its GE vertex format, the model scale, the NPOT UV scale, RGB
// /128 colours, weights summing to 128); every other byte of the section stays as stored.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>

#include "model/psp/colour.hpp"
#include "model/psp/vertex.hpp"
#include "scene/kh_bbs/lower.hpp"
#include "scene/match.hpp"

namespace remodel::scene::kh_bbs {

const char* range_of(psp::NumFormat f, bool is_signed) {
  switch (f) {
    case psp::NumFormat::i8: return is_signed ? "s8 (-1 to 127/128)" : "u8 (0 to 255/128)";
    case psp::NumFormat::i16: return is_signed ? "s16 (-1 to 32767/32768)" : "u16 (0 to 65535/32768)";
    default: return "f32 (finite)";
  }
}

namespace {

std::uint8_t colour_byte(float v, float full) {
  return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * full));
}

}  // namespace

Rgba colour_bytes(const Vec4& c) {
  return {colour_byte(c.x, 128), colour_byte(c.y, 128), colour_byte(c.z, 128), colour_byte(c.w, 255)};
}

namespace {

std::vector<Vec3> coloured_positions(const std::vector<Primitive>& lifted) {
  std::vector<Vec3> out;
  for (const Primitive& p : lifted) {
    if (p.colors.size() == p.vertex_count()) out.insert(out.end(), p.positions.begin(), p.positions.end());
  }
  return out;
}

}  // namespace

LiftedColours::LiftedColours(const std::vector<Primitive>& lifted) : cells_(coloured_positions(lifted)) {
  for (const Primitive& p : lifted) {
    if (p.colors.size() == p.vertex_count()) colours_.insert(colours_.end(), p.colors.begin(), p.colors.end());
  }
}

void LiftedColours::keep(Primitive& in) const {
  if (in.colors.size() != in.vertex_count()) return;
  for (std::size_t v = 0; v < in.vertex_count(); ++v) {
    cells_.visit(in.positions[v], [&](std::uint32_t b) {
      if (!colour_within_noise(colours_[b], in.colors[v])) return true;
      in.colors[v] = colours_[b];
      return false;
    });
  }
}

Result<void> check_primitive(const Primitive& p, const std::string& where) {
  if (auto e = scene::check_primitive(p, where); !e) return e.error();
  for (float w : p.weights) {
    if (!(w >= 0.0f && w <= 1.0f + 1e-3f)) {
      return at(where + ".weights", "a weight of " + std::to_string(w) + " is not between 0 and 1");
    }
  }
  return {};
}

namespace {

// Per weight slot of the section, the weight a lifted or incoming vertex gives it; false when the
// vertex leans on a joint the section's first `slots` slots do not hold.
bool slot_weights(const Primitive& p, std::size_t v, const std::vector<int>* bon_of, const std::array<std::uint8_t, 8>& joints,
                  std::size_t slots, std::array<float, 8>& out) {
  out = {};
  for (std::size_t k = 0; k < p.influences; ++k) {
    const float w = p.weights[v * p.influences + k];
    if (w == 0.0f) continue;
    const std::uint16_t j = p.joints[v * p.influences + k];
    const int bon = bon_of == nullptr ? j : (*bon_of)[j];
    std::size_t s = 0;
    while (s < slots && joints[s] != bon) ++s;
    if (s == slots) return false;
    out[s] += w;
  }
  return true;
}

}  // namespace

Result<SectionValues> SectionValues::make(const SectionEdit& e) {
  auto format = psp::VertexFormat::from_vtype(e.base.vertex_flags & 0xFFFFFF);
  if (!format) return at(e.field + ".vertex_flags", format.error().message, format.error().code);
  SectionValues out(e, *format);
  if (e.lifted.extras.contains("uv_scale")) {
    out.uv_scale_ = {e.lifted.extras["uv_scale"][0].get<float>(), e.lifted.extras["uv_scale"][1].get<float>()};
  }
  out.base_.reserve(e.lifted.vertex_count());
  for (std::uint32_t v = 0; v < e.lifted.vertex_count(); ++v) out.base_.push_back(out.key(e.lifted, v, nullptr));
  return out;
}

SectionValues::Key SectionValues::key(const Primitive& p, std::uint32_t v, const std::vector<int>* bon_of) const {
  Key k;
  const psp::VertexFormat& f = format_;
  for (std::size_t c = 0; c < 3 && f.position != psp::NumFormat::none; ++c) {
    auto s = psp::signed_stored(f.position, p.positions[v][c] / e_->scale);
    if (!s) return k;
    k.v.position[c] = *s;
  }
  if (f.normal != psp::NumFormat::none && !p.normals.empty()) {
    const float top = f.normal == psp::NumFormat::i8 ? 127.0f / 128.0f : f.normal == psp::NumFormat::i16 ? 32767.0f / 32768.0f : 1.0f;
    const Vec3 n = normalize(p.normals[v]);
    for (std::size_t c = 0; c < 3; ++c) k.v.normal[c] = psp::signed_stored(f.normal, std::clamp(n[c], -1.0f, top)).value_or(0);
    k.normal = true;
  }
  if (f.texcoord != psp::NumFormat::none && !p.uvs.empty() && p.uvs[0].size() == p.vertex_count()) {
    const float uv[2] = {p.uvs[0][v].x / uv_scale_.x, p.uvs[0][v].y / uv_scale_.y};
    for (std::size_t c = 0; c < 2; ++c) {
      auto s = psp::unsigned_stored(f.texcoord, uv[c]);
      if (!s) return k;
      k.v.texcoord[c] = *s;
    }
    k.uv = true;
  }
  if (!p.colors.empty()) {
    k.colour = colour_bytes(p.colors[v]);
    k.has_colour = true;
  }
  const std::size_t weight_slots = f.weight == psp::NumFormat::none ? 0 : f.weight_count;
  if (e_->base.joints && p.influences != 0) {
    std::array<float, 8> w{};
    if (!slot_weights(p, v, bon_of, *e_->base.joints, std::max<std::size_t>(weight_slots, 1), w)) return k;
    if (weight_slots == 0 && !(w[0] > 0.0f)) return k;
    if (weight_slots != 0) k.v.weights = psp::stored_weights(f.weight, weight_slots, w);
  }
  k.ok = true;
  return k;
}

namespace {

// f32 components: equal within 2^-17 of their magnitude (at least 1); integer ones exactly.
bool same_component(psp::NumFormat f, std::uint32_t a, std::uint32_t b) {
  if (f != psp::NumFormat::f32) return a == b;
  const float x = std::bit_cast<float>(a), y = std::bit_cast<float>(b);
  return std::fabs(x - y) <= std::max({1.0f, std::fabs(x), std::fabs(y)}) * (1.0f / 131072.0f);
}

}  // namespace

bool SectionValues::same(std::uint32_t base_vertex, std::uint32_t incoming_vertex) const {
  if (base_vertex >= base_.size() || incoming_vertex >= e_->incoming.vertex_count()) return false;
  const Key& b = base_[base_vertex];
  const Key i = key(e_->incoming, incoming_vertex, e_->bon_of);
  if (!b.ok || !i.ok) return false;
  const psp::VertexFormat& f = format_;
  for (std::size_t c = 0; c < 3; ++c) {
    if (!same_component(f.position, b.v.position[c], i.v.position[c])) return false;
    if (b.normal && i.normal && !same_component(f.normal, b.v.normal[c], i.v.normal[c])) return false;
  }
  for (std::size_t c = 0; c < 2 && b.uv && i.uv; ++c) {
    if (!same_component(f.texcoord, b.v.texcoord[c], i.v.texcoord[c])) return false;
  }
  // A section without colours draws white: an incoming colour must be white to stand for it. Within
  // Blender's noise it is the base's, though its sRGB byte crossed a /128 step (g59dc00.pmo).
  if (i.has_colour && i.colour != (b.has_colour ? b.colour : colour_bytes({1, 1, 1, 1})) &&
      !colour_within_noise(b.has_colour ? e_->lifted.colors[base_vertex] : Vec4{1, 1, 1, 1}, e_->incoming.colors[incoming_vertex])) {
    return false;
  }
  for (std::size_t k = 0; k < 8; ++k) {
    if (!same_component(f.weight, b.v.weights[k], i.v.weights[k])) return false;
  }
  return true;
}

Result<bool> lower_section_in_place(const SectionEdit& e, PmoSection& out) {
  const PmoSection& base = e.base;
  const Primitive& lifted = e.lifted;
  const Primitive& in = e.incoming;
  auto match = match_vertices(lifted, in);
  if (!match) return false;
  auto format = psp::VertexFormat::from_vtype(base.vertex_flags & 0xFFFFFF);
  if (!format) return at(e.field + ".vertex_flags", format.error().message, format.error().code);
  const std::size_t vc = base.vertex_count();
  auto stored = psp::decode_vertices(*format, base.vertices, vc);
  if (!stored) return at(e.field + ".vertices", stored.error().message, stored.error().code);
  const psp::VertexLayout layout = format->layout();
  Vec2 uv_scale{1, 1};
  if (lifted.extras.contains("uv_scale")) uv_scale = {lifted.extras["uv_scale"][0].get<float>(), lifted.extras["uv_scale"][1].get<float>()};
  const std::size_t weight_slots = format->weight == psp::NumFormat::none ? 0 : format->weight_count;
  const bool skinned = base.joints.has_value() && in.influences != 0 && lifted.influences != 0;

  for (std::size_t v = 0; v < vc; ++v) {
    const std::uint32_t iv = (*match)[v];
    if (iv == kUnmatched) continue;  // drawn by no triangle: nothing incoming stands for it
    psp::Vertex nv = (*stored)[v];
    const std::string vertex = e.where + " vertex " + std::to_string(iv);
    for (std::size_t c = 0; c < 3; ++c) {
      const float now = in.positions[iv][c];
      if (now == lifted.positions[v][c]) continue;
      auto s = psp::signed_stored(format->position, now / e.scale);
      if (!s) {
        return at(e.where + ".positions", vertex + " lies outside what " + range_of(format->position, true) + " times the model scale " +
                                              std::to_string(e.scale) + " holds", ErrorCode::unsupported);
      }
      nv.position[c] = *s;
    }
    if (format->normal != psp::NumFormat::none && !in.normals.empty() && in.normals[iv] != lifted.normals[v]) {
      // Keep the stored normal's length: the lift normalised it, the file need not be unit length.
      const Vec3 old{psp::signed_value(format->normal, nv.normal[0]), psp::signed_value(format->normal, nv.normal[1]),
                     psp::signed_value(format->normal, nv.normal[2])};
      const Vec3 n = normalize(in.normals[iv]) * (length(old) > 0.0f ? length(old) : 1.0f);
      const float top = format->normal == psp::NumFormat::i8 ? 127.0f / 128.0f : 32767.0f / 32768.0f;
      for (std::size_t c = 0; c < 3; ++c) {
        const float x = format->normal == psp::NumFormat::f32 ? n[c] : std::clamp(n[c], -1.0f, top);
        nv.normal[c] = psp::signed_stored(format->normal, x).value_or(nv.normal[c]);
      }
    }
    if (format->texcoord != psp::NumFormat::none && !in.uvs.empty() && in.uvs[0].size() == in.vertex_count() &&
        in.uvs[0][iv] != lifted.uvs[0][v]) {
      const float now[2] = {in.uvs[0][iv].x, in.uvs[0][iv].y}, was[2] = {lifted.uvs[0][v].x, lifted.uvs[0][v].y};
      const float scale[2] = {uv_scale.x, uv_scale.y};
      for (std::size_t c = 0; c < 2; ++c) {
        if (now[c] == was[c]) continue;
        auto s = psp::unsigned_stored(format->texcoord, now[c] / scale[c]);
        if (!s) {
          return at(e.where + ".uvs", vertex + " has a UV outside what " + std::string(range_of(format->texcoord, false)) +
                                          " holds", ErrorCode::unsupported);
        }
        nv.texcoord[c] = *s;
      }
    }
    if (format->color != psp::ColorFormat::none && !in.colors.empty() && !colour_within_noise(lifted.colors[v], in.colors[iv])) {
      const Rgba bytes = colour_bytes(in.colors[iv]);
      nv.color = psp::encode_colour(*psp::colour_format(format->color), bytes.data());
    }
    if (skinned) {
      std::array<float, 8> now{}, was{};
      const std::size_t slots = std::max<std::size_t>(weight_slots, 1);
      if (!slot_weights(in, iv, e.bon_of, *base.joints, slots, now)) return false;
      slot_weights(lifted, v, nullptr, *base.joints, slots, was);
      if (weight_slots == 0 && now[0] == 0.0f) return false;
      if (weight_slots != 0 && now != was) {
        const std::array<std::uint32_t, 8> q = psp::stored_weights(format->weight, weight_slots, now);
        for (std::size_t k = 0; k < weight_slots; ++k) nv.weights[k] = q[k];
      }
    }
    if (nv == (*stored)[v]) continue;
    if (base.vertex_size() != layout.size) {
      return at(e.field + ".vertices", "the section stores " + std::to_string(base.vertex_size()) + "-byte vertices, not the " +
                                           std::to_string(layout.size) + " its vertex format lays out, so its vertices cannot be edited",
                ErrorCode::unsupported);
    }
    psp::encode_vertex(*format, nv, out.vertices.data() + v * layout.size);
  }

  // A uniform diffuse colour: one colour for the whole section. Colours that differ, or that are not
  // white on a section without colour, need a format that stores them: the section is rebuilt.
  if (base.diffuse && format->color == psp::ColorFormat::none && !in.colors.empty()) {
    const Vec4 first = in.colors[0];
    if (std::any_of(in.colors.begin(), in.colors.end(), [&](const Vec4& c) { return colour_bytes(c) != colour_bytes(first); })) return false;
    if (lifted.colors.empty() || first != lifted.colors[0]) {
      const Rgba bytes = colour_bytes(first);
      out.diffuse = psp::encode_colour(PspColour::c8888, bytes.data());
    }
  } else if (format->color == psp::ColorFormat::none && !base.diffuse && !in.colors.empty() &&
             std::any_of(in.colors.begin(), in.colors.end(), [](const Vec4& c) { return colour_bytes(c) != colour_bytes({1, 1, 1, 1}); })) {
    return false;
  }
  return true;
}

}  // namespace remodel::scene::kh_bbs
