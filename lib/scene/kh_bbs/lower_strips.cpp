// A KH BBS PMO section rebuilt from an incoming primitive whose triangles or joints changed: its
// triangles in groups of at most 8 joints (a section's joint slots, greedy in triangle order), each
// group stripped by meshoptimizer (or drawn as a list when authoring and that is smaller) and split
// at the section limits (255 strips, 65535 vertices), its vertices encoded in the base section's
// format (the weight count widened when a group needs it).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include <meshoptimizer.h>

#include "model/psp/colour.hpp"
#include "scene/kh_bbs/lower.hpp"
#include "scene/match.hpp"
#include "scene/palette_influences.hpp"

namespace remodel::scene::kh_bbs {

namespace {

constexpr std::size_t kSlots = 8;           // joint indices per section
constexpr std::size_t kMaxStrips = 255;     // the section header's u8 strip count
constexpr std::size_t kMaxVertices = 0xFFFF;  // its u16 vertex count
constexpr std::uint8_t kListPrimitive = 3;
constexpr std::uint8_t kStripPrimitive = 4;

bool same_winding(std::array<std::uint32_t, 3> t, std::array<std::uint32_t, 3> u) {
  for (int r = 0; r < 3; ++r) {
    if (t == u) return true;
    std::rotate(u.begin(), u.begin() + 1, u.end());
  }
  return false;
}

// meshoptimizer's strips (restart-separated, over local vertices) as strips without degenerate
// triangles: a PMO strip's vertices are stored one by one, so the repeated vertex of a swap would draw
// a zero-area triangle that no index reveals. Its triangles, in its order, are re-joined where the
// next one continues the strip with the strip's own alternating winding.
std::vector<std::vector<std::uint32_t>> clean_strips(const std::vector<unsigned>& strip, const std::vector<std::uint32_t>& incoming_of) {
  std::vector<std::vector<std::uint32_t>> out;
  std::size_t first = 0;
  for (std::size_t end = 0; end <= strip.size(); ++end) {
    if (end < strip.size() && strip[end] != ~0u) continue;
    for (std::size_t i = first; i + 2 < end; ++i) {
      const std::size_t k = i - first;
      std::array<std::uint32_t, 3> t{incoming_of[strip[i]], incoming_of[strip[i + 1]], incoming_of[strip[i + 2]]};
      if (k % 2 == 1) std::swap(t[0], t[1]);
      if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) continue;
      if (!out.empty()) {
        std::vector<std::uint32_t>& cur = out.back();
        const std::size_t n = cur.size();
        const std::uint32_t a = cur[n - 2], b = cur[n - 1];
        const auto third = std::find_if(t.begin(), t.end(), [&](std::uint32_t v) { return v != a && v != b; });
        const bool shares = std::count(t.begin(), t.end(), a) == 1 && std::count(t.begin(), t.end(), b) == 1;
        if (shares && third != t.end()) {
          const std::array<std::uint32_t, 3> drawn = (n - 2) % 2 == 0 ? std::array<std::uint32_t, 3>{a, b, *third}
                                                                      : std::array<std::uint32_t, 3>{b, a, *third};
          if (same_winding(drawn, t)) {
            cur.push_back(*third);
            continue;
          }
        }
      }
      out.push_back({t[0], t[1], t[2]});
    }
    first = end + 1;
  }
  return out;
}

}  // namespace

Result<std::vector<PmoSection>> rebuild_section(const SectionEdit& e, std::vector<Warning>& warnings) {
  const PmoSection& base = e.base;
  const Primitive& in = e.incoming;
  auto parsed = psp::VertexFormat::from_vtype(base.vertex_flags & 0xFFFFFF);
  if (!parsed) return at(e.field + ".vertex_flags", parsed.error().message, parsed.error().code);
  const std::vector<std::uint32_t> tris = drawn_triangles(in);
  const std::size_t vc = in.vertex_count();

  std::vector<bool> used(vc, false);
  for (std::uint32_t v : tris) used[v] = true;
  std::vector<PaletteInfluences> inf(base.joints ? vc : 0);
  std::vector<std::vector<std::pair<float, int>>> full(inf.size());  // each vertex's weights as they came, summing to 1
  for (std::size_t v = 0; v < inf.size(); ++v) {
    if (!used[v]) continue;
    std::map<int, float> by_joint;
    for (std::size_t k = 0; k < in.influences; ++k) {
      const float w = in.weights[v * in.influences + k];
      if (w > 0.0f) by_joint[(*e.bon_of)[in.joints[v * in.influences + k]]] += w;
    }
    std::vector<std::pair<float, int>> sorted;
    for (const auto& [j, w] : by_joint) sorted.emplace_back(w, j);
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    float sum = 0;
    for (const auto& [w, j] : sorted) sum += w;
    if (sorted.empty() || !(sum > 0.0f)) {
      return at(e.where + ".weights", "vertex " + std::to_string(v) + " has no joint weight: every vertex of a skinned PMO follows a joint");
    }
    for (const auto& [w, j] : sorted) full[v].emplace_back(w / sum, j);
    if (sorted.size() > kSlots) {
      sorted.resize(kSlots);
      sum = 0;
      for (const auto& [w, j] : sorted) sum += w;
    }
    for (const auto& [w, j] : sorted) {
      if (j < 0) return at(e.where + ".joints", "vertex " + std::to_string(v) + " leans on a joint that is not in the BON");
      inf[v].joint[inf[v].count] = j;
      inf[v].weight[inf[v].count++] = w / sum;
    }
  }
  const std::size_t narrowed = base.joints ? narrow_triangles(inf, tris) : 0;
  // One warning for the primitive: the weight its vertices lost on joints the 8 slots could not hold.
  std::size_t lost_vertices = 0;
  float lost_most = 0, lost_sum = 0;
  for (std::size_t v = 0; v < full.size(); ++v) {
    float lost = 0;
    for (const auto& [w, j] : full[v]) {
      if (std::find(inf[v].joint.begin(), inf[v].joint.begin() + static_cast<std::ptrdiff_t>(inf[v].count), j) == inf[v].joint.begin() + static_cast<std::ptrdiff_t>(inf[v].count)) lost += w;
    }
    if (lost <= 0.0f) continue;
    ++lost_vertices;
    lost_sum += lost;
    lost_most = std::max(lost_most, lost);
  }
  if (lost_vertices != 0) {
    char amounts[64];
    std::snprintf(amounts, sizeof amounts, "up to %.3f (mean %.3f)", static_cast<double>(lost_most), static_cast<double>(lost_sum / static_cast<float>(lost_vertices)));
    warnings.push_back({e.where, std::to_string(lost_vertices) + " vertices lost " + amounts + " of their weight, moved to their other joints: a PMO "
                                 "vertex holds 8 weights and a section 8 joints (" + std::to_string(narrowed) + " triangles leaned on more)"});
  }

  // Triangles in groups whose vertices lean on at most 8 joints.
  std::vector<std::vector<std::uint32_t>> groups;
  std::vector<std::vector<int>> group_joints;
  for (std::size_t t = 0; t < tris.size(); t += 3) {
    std::vector<int> need;
    for (std::size_t c = 0; c < 3 && base.joints; ++c) {
      const PaletteInfluences& f = inf[tris[t + c]];
      for (std::size_t k = 0; k < f.count; ++k) {
        if (std::find(need.begin(), need.end(), f.joint[k]) == need.end()) need.push_back(f.joint[k]);
      }
    }
    if (need.size() > kSlots) {
      return at(e.where, "triangle " + std::to_string(t / 3) + " leans on " + std::to_string(need.size()) +
                             " joints but a PMO section holds 8", ErrorCode::unsupported);
    }
    std::vector<int> merged = groups.empty() ? std::vector<int>{} : group_joints.back();
    for (int j : need) {
      if (std::find(merged.begin(), merged.end(), j) == merged.end()) merged.push_back(j);
    }
    if (groups.empty() || merged.size() > kSlots) {
      groups.emplace_back();
      group_joints.push_back(need);
    } else {
      group_joints.back() = std::move(merged);
    }
    groups.back().insert(groups.back().end(), tris.begin() + static_cast<std::ptrdiff_t>(t), tris.begin() + static_cast<std::ptrdiff_t>(t) + 3);
  }

  Vec2 uv_scale{1, 1};
  if (e.lifted.extras.contains("uv_scale")) uv_scale = {e.lifted.extras["uv_scale"][0].get<float>(), e.lifted.extras["uv_scale"][1].get<float>()};
  // Positions or UVs past the section's integer format (edited, or triangles of several sections of
  // one material rebuilt together) widen it: 8 bits to 16, then f32, with a warning.
  auto fits = [&](psp::NumFormat f, bool uv) {
    for (std::uint32_t v : tris) {
      for (std::size_t c = 0; c < (uv ? 2u : 3u); ++c) {
        const bool ok = uv ? psp::unsigned_stored(f, (c == 0 ? in.uvs[0][v].x / uv_scale.x : in.uvs[0][v].y / uv_scale.y)).has_value()
                           : psp::signed_stored(f, in.positions[v][c] / e.scale).has_value();
        if (!ok) return false;
      }
    }
    return true;
  };
  for (const bool uv : {false, true}) {
    psp::NumFormat& f = uv ? parsed->texcoord : parsed->position;
    if (f == psp::NumFormat::none || (uv && (in.uvs.empty() || in.uvs[0].size() != vc))) continue;
    const psp::NumFormat was = f;
    while (f != psp::NumFormat::f32 && !fits(f, uv)) f = f == psp::NumFormat::i8 ? psp::NumFormat::i16 : psp::NumFormat::f32;
    if (f != was) {
      warnings.push_back({e.where, std::string(uv ? "UVs" : "positions") + " past what " + range_of(was, !uv) + " holds in " + e.field +
                                       "'s format: the rebuilt sections store them as " + (f == psp::NumFormat::i16 ? "16-bit" : "f32")});
    }
  }
  std::optional<std::uint32_t> diffuse = base.diffuse;
  if (base.diffuse && parsed->color == psp::ColorFormat::none && !in.colors.empty()) {
    const std::uint32_t first = tris.empty() ? 0 : tris[0];
    if (std::any_of(tris.begin(), tris.end(), [&](std::uint32_t v) { return colour_bytes(in.colors[v]) != colour_bytes(in.colors[first]); })) {
      // Colours that vary cannot be one diffuse colour: the rebuilt sections store them per vertex.
      parsed->color = psp::ColorFormat::abgr8888;
      diffuse.reset();
      warnings.push_back({e.where, "the vertex colours differ but " + e.field + " stores one diffuse colour: the rebuilt sections "
                                   "store a colour per vertex (8888)"});
    } else if (e.lifted.colors.empty() || colour_bytes(in.colors[first]) != colour_bytes(e.lifted.colors[0])) {
      const Rgba c = colour_bytes(in.colors[first]);
      diffuse = psp::encode_colour(PspColour::c8888, c.data());
    }
  }
  if (parsed->color == psp::ColorFormat::none && !diffuse && !in.colors.empty() &&
      std::any_of(tris.begin(), tris.end(), [&](std::uint32_t v) { return colour_bytes(in.colors[v]) != colour_bytes({1, 1, 1, 1}); })) {
    // A section without colour draws white: colours other than white need a format that stores them.
    parsed->color = psp::ColorFormat::abgr8888;
    warnings.push_back({e.where, "vertex colours other than white, which " + e.field + "'s format does not store: the rebuilt sections "
                                 "store a colour per vertex (8888)"});
  }
  if (parsed->texcoord != psp::NumFormat::none && in.uvs.empty()) {
    warnings.push_back({e.where, "the primitive has no UVs but its section's format stores them: written as 0"});
  }

  std::vector<PmoSection> out;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    psp::VertexFormat format = *parsed;
    const std::vector<int>& joints = group_joints[g];
    bool rigid = format.weight == psp::NumFormat::none;
    for (std::size_t i = 0; i < groups[g].size() && rigid && base.joints; ++i) rigid = inf[groups[g][i]].count == 1 && inf[groups[g][i]].joint[0] == joints[0];
    if (base.joints && !rigid) {
      if (format.weight == psp::NumFormat::none) format.weight = psp::NumFormat::i8;
      format.weight_count = static_cast<std::uint8_t>(std::max<std::size_t>(format.weight_count, joints.size()));
    }
    // Strips over this group's own vertices.
    std::vector<std::uint32_t> local_of(vc, kUnmatched), incoming_of, local;
    for (std::uint32_t v : groups[g]) {
      if (local_of[v] == kUnmatched) {
        local_of[v] = static_cast<std::uint32_t>(incoming_of.size());
        incoming_of.push_back(v);
      }
      local.push_back(local_of[v]);
    }
    std::vector<unsigned> strip(meshopt_stripifyBound(local.size()));
    strip.resize(meshopt_stripify(strip.data(), local.data(), local.size(), incoming_of.size(), ~0u));
    const std::vector<std::vector<std::uint32_t>> strips = clean_strips(strip, incoming_of);
    // Authoring draws a triangle list where it stores fewer bytes than the strips (each strip costs its
    // u16 length, each list triangle three whole vertices), as the game's converter does for short strips.
    bool as_list = false;
    if (e.allow_lists) {
      const std::size_t vsize = format.layout().size;
      std::size_t strip_bytes = 0;
      for (const auto& s : strips) strip_bytes += s.size() < 3 ? 0 : s.size() * vsize + 2;
      as_list = groups[g].size() * vsize <= strip_bytes;
    }
    const std::uint8_t primitive = as_list ? kListPrimitive : kStripPrimitive;
    auto start = [&]() {
      PmoSection s;
      s.texture = base.texture;
      s.group = base.group;
      s.attribute = base.attribute;
      s.vertex_flags = (base.vertex_flags & (diffuse ? 0x0F000000u : 0x0E000000u)) | format.vtype() | std::uint32_t{primitive} << 28;
      if (base.joints) {
        s.joints.emplace();
        s.joints->fill(0xFF);
        for (std::size_t k = 0; k < joints.size(); ++k) (*s.joints)[k] = static_cast<std::uint8_t>(joints[k]);
      }
      s.diffuse = diffuse;
      out.push_back(std::move(s));
      return std::vector<psp::Vertex>{};
    };
    std::vector<psp::Vertex> vertices = start();
    auto finish = [&]() { out.back().vertices = psp::encode_vertices(format, vertices); };
    auto encode = [&](std::uint32_t v) -> Result<psp::Vertex> {
      psp::Vertex nv;
      for (std::size_t c = 0; c < 3; ++c) {
        auto q = psp::signed_stored(format.position, in.positions[v][c] / e.scale);
        if (!q) {
          return at(e.where + ".positions", "vertex " + std::to_string(v) + " lies outside what " + range_of(format.position, true) +
                                                " times the model scale " + std::to_string(e.scale) + " holds", ErrorCode::unsupported);
        }
        nv.position[c] = *q;
      }
      if (format.normal != psp::NumFormat::none && !in.normals.empty()) {
        const float top = format.normal == psp::NumFormat::i8 ? 127.0f / 128.0f : format.normal == psp::NumFormat::i16 ? 32767.0f / 32768.0f : 1.0f;
        const Vec3 n = normalize(in.normals[v]);
        for (std::size_t c = 0; c < 3; ++c) nv.normal[c] = psp::signed_stored(format.normal, std::clamp(n[c], -1.0f, top)).value_or(0);
      }
      if (format.texcoord != psp::NumFormat::none && !in.uvs.empty() && in.uvs[0].size() == vc) {
        const float uv[2] = {in.uvs[0][v].x / uv_scale.x, in.uvs[0][v].y / uv_scale.y};
        for (std::size_t c = 0; c < 2; ++c) {
          auto q = psp::unsigned_stored(format.texcoord, uv[c]);
          if (!q) {
            return at(e.where + ".uvs", "vertex " + std::to_string(v) + " has a UV outside what " +
                                            std::string(range_of(format.texcoord, false)) + " holds", ErrorCode::unsupported);
          }
          nv.texcoord[c] = *q;
        }
      }
      if (format.color != psp::ColorFormat::none) {
        const Vec4 c = in.colors.empty() ? Vec4{1, 1, 1, 1} : in.colors[v];
        const Rgba bytes = colour_bytes(c);
        nv.color = psp::encode_colour(*psp::colour_format(format.color), bytes.data());
      }
      if (format.weight != psp::NumFormat::none && base.joints) {
        std::array<float, 8> w{};
        for (std::size_t k = 0; k < inf[v].count; ++k) {
          w[static_cast<std::size_t>(std::find(joints.begin(), joints.end(), inf[v].joint[k]) - joints.begin())] = inf[v].weight[k];
        }
        const std::array<std::uint32_t, 8> q = psp::stored_weights(format.weight, format.weight_count, w);
        std::copy(q.begin(), q.end(), nv.weights.begin());
      }
      return nv;
    };
    if (as_list) {
      // Whole triangles per section: 65535 is a multiple of 3.
      for (std::uint32_t v : groups[g]) {
        if (vertices.size() == kMaxVertices) {
          finish();
          vertices = start();
        }
        auto nv = encode(v);
        if (!nv) return nv.error();
        vertices.push_back(*nv);
      }
      finish();
      continue;
    }
    for (const std::vector<std::uint32_t>& s : strips) {
      if (s.size() < 3) continue;
      if (s.size() > kMaxVertices) return at(e.where, "a strip of " + std::to_string(s.size()) + " vertices is past a section's 65535", ErrorCode::unsupported);
      if (out.back().strip_lengths.size() == kMaxStrips || vertices.size() + s.size() > kMaxVertices) {
        finish();
        vertices = start();
      }
      out.back().strip_lengths.push_back(static_cast<std::uint16_t>(s.size()));
      for (std::uint32_t v : s) {
        auto nv = encode(v);
        if (!nv) return nv.error();
        vertices.push_back(*nv);
      }
    }
    finish();
  }
  // A section with no strips (or list vertices) left draws nothing: drop it.
  out.erase(std::remove_if(out.begin(), out.end(), [](const PmoSection& s) { return s.strip_lengths.empty() && s.vertices.empty(); }), out.end());
  return out;
}

}  // namespace remodel::scene::kh_bbs
