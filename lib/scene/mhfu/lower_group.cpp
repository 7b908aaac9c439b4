// The group-level MHFU lower over a base (lower.hpp): a group's block re-encoded where the
// incoming primitive moved its vertices, or its vertices, indices and PRIMs rebuilt where its triangles
// changed.
#include <algorithm>
#include <bit>
#include <cmath>
#include <span>

#include <meshoptimizer.h>

#include "scene/match.hpp"
#include "scene/mhfu/lower.hpp"

namespace remodel::scene::mhfu {

namespace {

// A unit normal's component: 1.0 is one step past the signed range, so it saturates.
std::uint32_t encode_normal(psp::NumFormat f, float v) {
  if (f == psp::NumFormat::f32) return std::bit_cast<std::uint32_t>(v);
  const float limit = f == psp::NumFormat::i8 ? 127.0f / 128.0f : 32767.0f / 32768.0f;
  return *psp::signed_stored(f, std::clamp(v, -1.0f, limit));
}

std::uint32_t encode_vertex_colour(psp::ColorFormat f, const Vec4& c) {
  std::array<std::uint8_t, 4> rgba{};
  const float ch[4] = {c.x, c.y, c.z, c.w};
  for (int i = 0; i < 4; ++i) rgba[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(std::nearbyint(std::clamp(ch[i], 0.0f, 1.0f) * 255.0f));
  return psp::encode_colour(*psp::colour_format(f), rgba.data());
}

// A value as the element stores it: encoded and decoded again (unchanged when it does not fit, which
// the encoder then says). Compared so, float noise below half a step (Blender's) is no difference.
float on_grid(psp::NumFormat f, float v, bool is_signed) {
  if (f != psp::NumFormat::i8 && f != psp::NumFormat::i16) return v;
  const std::optional<std::uint32_t> e = is_signed ? psp::signed_stored(f, v) : psp::unsigned_stored(f, v);
  if (!e) return v;
  return is_signed ? psp::signed_value(f, *e) : psp::unsigned_value(f, *e);
}

// Half a step of the u8 weights and 8-bit colours the samples store: less is no difference.
constexpr float kHalfWeightStep = 0.5f / 128.0f;

// What the incoming primitive's drawn vertices carry that format f cannot store: more significant
// bones per vertex than its weights (`bones` maps skin joints to bones), or colours other than white
// where it stores none.
struct Beyond {
  std::size_t stored = 0, wider = 0, widest = 0, coloured = 0;
  std::string text() const {
    std::string out;
    if (wider > 0) {
      out = std::to_string(wider) + " vertices weigh up to " + std::to_string(widest) + " bones where its VTYPE stores " + std::to_string(stored) + " weight" +
            (stored == 1 ? "" : "s");
    }
    if (coloured > 0) out += (out.empty() ? "" : ", and ") + std::to_string(coloured) + " vertices have colours its VTYPE does not store";
    return out;
  }
};
Beyond beyond_format(const Primitive& ip, const std::vector<int>& bones, const psp::VertexFormat& f) {
  Beyond out;
  out.stored = f.weight == psp::NumFormat::none ? 1 : f.weight_count;
  std::vector<bool> seen(ip.vertex_count(), false);
  for (std::uint32_t v : drawn_triangles(ip)) {
    if (seen[v]) continue;
    seen[v] = true;
    if (ip.influences > 0) {
      std::vector<std::pair<int, float>> by_bone;
      float sum = 0;
      for (std::size_t k = 0; k < ip.influences; ++k) {
        const float w = ip.weights[v * ip.influences + k];
        const std::uint16_t j = ip.joints[v * ip.influences + k];
        if (!(w > 0) || j >= bones.size()) continue;
        sum += w;
        auto it = std::find_if(by_bone.begin(), by_bone.end(), [&](const auto& b) { return b.first == bones[j]; });
        if (it == by_bone.end()) by_bone.emplace_back(bones[j], w);
        else it->second += w;
      }
      const auto count = static_cast<std::size_t>(std::count_if(by_bone.begin(), by_bone.end(), [&](const auto& b) { return b.second >= kHalfWeightStep * sum; }));
      out.widest = std::max(out.widest, count);
      out.wider += count > out.stored;
    }
    if (f.color == psp::ColorFormat::none && !ip.colors.empty()) {
      const Vec4 c = ip.colors[v];
      out.coloured += std::min({c.x, c.y, c.z, c.w}) < 1.0f - 0.5f / 255.0f;
    }
  }
  return out;
}

}  // namespace

// The incoming primitive's arrays agree in size, its indices are in range, its positions and weights
// finite, and (weighted) its joints are skin joints.
Result<void> GroupLowerer::check_incoming(const Primitive& ip, bool weighted, const std::string& where) const {
  const std::size_t n = ip.vertex_count();
  const auto sized = [&](std::size_t have, std::size_t per, const char* what) -> Result<void> {
    if (have == 0 || have == n * per) return {};
    return at(where + "." + what, std::to_string(have) + " values for " + std::to_string(n) + " vertices");
  };
  if (auto e = sized(ip.normals.size(), 1, "normals"); !e) return e.error();
  if (auto e = sized(ip.colors.size(), 1, "colors"); !e) return e.error();
  if (!ip.uvs.empty()) {
    if (auto e = sized(ip.uvs[0].size(), 1, "uvs[0]"); !e) return e.error();
  }
  if (auto e = sized(ip.joints.size(), ip.influences, "joints"); !e) return e.error();
  if (auto e = sized(ip.weights.size(), ip.influences, "weights"); !e) return e.error();
  for (std::uint32_t i : ip.indices) {
    if (i >= n) return at(where + ".indices", "index " + std::to_string(i) + " is past the " + std::to_string(n) + " vertices");
  }
  for (const Vec3& p : ip.positions) {
    if (!finite(p.x) || !finite(p.y) || !finite(p.z)) return at(where + ".positions", "a position is not finite");
  }
  for (std::size_t i = 0; i < ip.weights.size(); ++i) {
    if (!finite(ip.weights[i]) || ip.weights[i] < 0) return at(where + ".weights", "weight " + std::to_string(i) + " is negative or not finite");
  }
  for (std::uint16_t j : ip.joints) {
    if (weighted && j >= bones_.size()) {
      return at(where + ".joints", "joint " + std::to_string(j) + " is past the skin's " + std::to_string(bones_.size()) + " joints");
    }
  }

  return {};
}

Result<bool> GroupLowerer::lower_group(MhfuPmo& pmo, const MhfuMesh& mesh, std::size_t g, const GeBonePalette& palette, const Primitive& bp,
                         const Primitive& incoming, const std::string& where) {
  MhfuBlock& block = pmo.blocks[pmo.groups[g].block];
  Result<MhfuDrawList> draw = decode_mhfu_block(block);
  if (!draw) return draw.error();
  const psp::VertexFormat& f = draw->format;
  const std::size_t stride = f.layout().size;
  Result<std::vector<psp::Vertex>> stored = psp::decode_vertices(f, block.vertices, draw->vertex_count);
  if (!stored) return stored.error();

  if (auto e = check_incoming(incoming, bp.influences > 0, where); !e) return e.error();
  const Primitive& ip = incoming;
  // Matched over positions, normals and UV set 0 as the block would store them, so that Blender's
  // float noise (it splits a vertex whose loops got different custom normals) is no difference.
  Primitive grid = incoming;
  for (Vec3& p : grid.positions) {
    if (f.position == psp::NumFormat::f32) break;
    p = {on_grid(f.position, p.x / pmo.scale[0], true) * pmo.scale[0], on_grid(f.position, p.y / pmo.scale[1], true) * pmo.scale[1],
         on_grid(f.position, p.z / pmo.scale[2], true) * pmo.scale[2]};
  }
  for (Vec3& v : grid.normals) {
    if (f.normal == psp::NumFormat::none || f.normal == psp::NumFormat::f32) break;
    const Vec3 u = normalize(v);
    const float top = f.normal == psp::NumFormat::i8 ? 127.0f / 128.0f : 32767.0f / 32768.0f;  // saturated as encode_normal does
    const auto snapped = [&](float c) { return on_grid(f.normal, std::clamp(c, -1.0f, top), true); };
    v = {snapped(u.x), snapped(u.y), snapped(u.z)};
  }
  if (!grid.uvs.empty() && f.texcoord != psp::NumFormat::none && f.texcoord != psp::NumFormat::f32 && mesh.uv_scale[0] != 0.0f && mesh.uv_scale[1] != 0.0f) {
    for (Vec2& t : grid.uvs[0]) t = {on_grid(f.texcoord, t.x / mesh.uv_scale[0], false) * mesh.uv_scale[0], on_grid(f.texcoord, t.y / mesh.uv_scale[1], false) * mesh.uv_scale[1]};
  }
  // Weights or colours the block's VTYPE cannot store: the group is replaced by new groups in a VTYPE
  // that stores them (add_groups), as a primitive no base group stands for would be.
  const Beyond beyond = beyond_format(ip, bones_, f);
  if (beyond.wider > 0 || beyond.coloured > 0) {
    if (bp.influences > 0 && ip.influences > 0) {
      Placing placing;
      placing.after = g;
      placing.material_offset = pmo.groups[g].material_offset;
      placing.fresh = placing.takes_over = true;
      const std::vector<std::uint32_t> triangles = drawn_triangles(ip);
      if (triangles.empty()) return at(where, "the primitive draws no triangle: removing an MHFU group is not supported", ErrorCode::unsupported);
      if (auto e = add_groups(pmo, mesh, palette, ip, triangles, &f, placing, where, beyond.text() + " of group " + std::to_string(g) + ": the group is replaced"); !e) {
        return e.error();
      }
      replaced.push_back(g);
      return true;
    }
    if (beyond.coloured > 0) {
      warnings_.push_back({where + ".colors", std::to_string(beyond.coloured) + " vertices have colours group " + std::to_string(g) + "'s VTYPE does not store, and an unweighted group cannot be rebuilt in another: they are dropped"});
    }
  }
  if (bp.influences > 0 && ip.influences > 0) {
    Primitive kept;
    Result<bool> split = split_off(pmo, mesh, g, palette, ip, f, where, kept);
    if (!split) return split.error();
    if (*split) {
      if (kept.indices.empty()) return true;  // replaced by the new groups (split_off)
      if (auto e = rebuild_group(pmo, mesh, g, palette, bp, kept, *stored, *draw, where); !e) return e.error();
      return true;
    }
  }
  std::optional<std::vector<std::uint32_t>> match = match_vertices(bp, grid);
  Primitive one_normal;
  if (!match && f.normal != psp::NumFormat::none && !grid.normals.empty()) {
    std::size_t split = 0;
    match = match_one_normal(bp, grid, ip, one_normal, split, 0.0f);
    if (match && split > 0) {
      warnings_.push_back({where, std::to_string(split) + " vertices of group " + std::to_string(g) + " come back as copies with different normals "
                                  "(Blender keeps custom normals per face corner): each stores its copies' mean normal, and the strips stay"});
    }
  }
  const Primitive& vp = one_normal.vertex_count() > 0 ? one_normal : ip;  // the values written in place
  if (!match) {
    if (auto e = rebuild_group(pmo, mesh, g, palette, bp, ip, *stored, *draw, where); !e) return e.error();
    return true;
  }

  bool changed = false;
  limited_ = 0;
  for (std::size_t v = 0; v < match->size(); ++v) {
    const std::uint32_t m = (*match)[v];
    if (m == kUnmatched) continue;  // drawn by no triangle: kept as stored
    psp::Vertex vx = (*stored)[v];
    bool moved = false;
    const auto set = [&](std::uint32_t& field, std::uint32_t incoming, std::uint32_t base) {
      if (incoming != base) field = incoming, moved = true;
    };
    const auto pos = [&](const Vec3& p) -> std::optional<std::array<std::uint32_t, 3>> {
      std::array<std::uint32_t, 3> out{};
      const float c[3] = {p.x, p.y, p.z};
      for (std::size_t i = 0; i < 3; ++i) {
        const float raw = f.position == psp::NumFormat::f32 ? c[i] : c[i] / pmo.scale[i];
        std::optional<std::uint32_t> e = psp::signed_stored(f.position, raw);
        if (!e) return std::nullopt;
        out[i] = *e;
      }
      return out;
    };
    const auto ipos = pos(vp.positions[m]);
    if (!ipos) {
      return at(where + ".positions", "vertex " + std::to_string(m) + " lies outside the PMO's scale (" + std::to_string(pmo.scale[0]) + ", " +
                                                   std::to_string(pmo.scale[1]) + ", " + std::to_string(pmo.scale[2]) +
                                                   ") times the stored element range; the header's scale is kept", ErrorCode::unsupported);
    }
    const auto bpos = pos(bp.positions[v]);
    for (std::size_t i = 0; i < 3; ++i) set(vx.position[i], (*ipos)[i], bpos ? (*bpos)[i] : ~0u);
    if (f.normal != psp::NumFormat::none && !vp.normals.empty()) {
      const Vec3 a = normalize(vp.normals[m]), b = bp.normals[v];
      if (!finite(a.x) || !finite(a.y) || !finite(a.z)) return at(where + ".normals", "vertex " + std::to_string(m) + "'s normal is not finite");
      const float ac[3] = {a.x, a.y, a.z}, bc[3] = {b.x, b.y, b.z};
      for (std::size_t i = 0; i < 3; ++i) set(vx.normal[i], encode_normal(f.normal, ac[i]), encode_normal(f.normal, bc[i]));
    }
    if (f.texcoord != psp::NumFormat::none && !vp.uvs.empty()) {
      const Vec2 a = vp.uvs[0][m], b = bp.uvs[0][v];
      const float ac[2] = {a.x, a.y}, bc[2] = {b.x, b.y};
      for (std::size_t i = 0; i < 2; ++i) {
        if (mesh.uv_scale[i] == 0.0f || !finite(ac[i])) return at(where + ".uvs[0]", "vertex " + std::to_string(m) + "'s UV cannot be stored over a zero UV scale or is not finite");
        const auto ia = psp::unsigned_stored(f.texcoord, ac[i] / mesh.uv_scale[i]), ib = psp::unsigned_stored(f.texcoord, bc[i] / mesh.uv_scale[i]);
        if (!ia) {
          return at(where + ".uvs[0]", "vertex " + std::to_string(m) + "'s UV " + std::to_string(ac[i]) +
                                                    " is outside what the block's unsigned UVs times the mesh's UV scale can hold", ErrorCode::unsupported);
        }
        set(vx.texcoord[i], *ia, ib ? *ib : ~0u);
      }
    }
    if (f.color != psp::ColorFormat::none && !vp.colors.empty()) {
      const Vec4& c = vp.colors[m];
      if (!finite(c.x) || !finite(c.y) || !finite(c.z) || !finite(c.w)) return at(where + ".colors", "vertex " + std::to_string(m) + "'s colour is not finite");
      set(vx.color, encode_vertex_colour(f.color, c), encode_vertex_colour(f.color, bp.colors[v]));
    }
    if (bp.influences > 0 && vp.influences > 0) {
      Result<std::array<float, 8>> iw = slot_weights(vp, m, palette, f, where, true);
      if (!iw) return iw.error();
      Result<std::array<float, 8>> bw = slot_weights(bp, v, palette, f, where, false);
      if (!bw) return bw.error();
      const std::size_t count = f.weight == psp::NumFormat::none ? 0 : f.weight_count;
      const auto ie = psp::stored_weights(f.weight, count, *iw), be = psp::stored_weights(f.weight, count, *bw);
      for (std::size_t k = 0; k < count; ++k) set(vx.weights[k], ie[k], be[k]);
    }
    if (moved) {
      psp::encode_vertex(f, vx, block.vertices.data() + v * stride);
      changed = true;
    }
  }
  if (limited_ > 0) {
    warnings_.push_back({where, std::to_string(limited_) + " vertices weigh more bones than group " + std::to_string(g) + "'s VTYPE stores (" +
                                    std::to_string(f.weight == psp::NumFormat::none ? 1 : f.weight_count) +
                                    "): the strongest are kept and renormalised"});
  }
  return changed;
}

// One incoming vertex in the block's VTYPE: the stored bytes of a base vertex with the same values
// when there is one, else every component encoded afresh.
Result<Bytes> GroupLowerer::encode_new_vertex(const MhfuPmo& pmo, const MhfuMesh& mesh, const GeBonePalette& palette, const Primitive& bp,
                                const Primitive& ip, std::uint32_t i, const std::vector<psp::Vertex>& stored,
                                const psp::VertexFormat& f, const MhfuBlock& block, const std::string& where) {
  const std::size_t stride = f.layout().size;
  for (std::uint32_t v = 0; v < bp.vertex_count() && v < stored.size(); ++v) {
    if (same_vertex(bp, v, ip, i) && (bp.influences == 0) == (ip.influences == 0)) {
      return Bytes(block.vertices.begin() + static_cast<std::ptrdiff_t>(v * stride), block.vertices.begin() + static_cast<std::ptrdiff_t>((v + 1) * stride));
    }
  }
  psp::Vertex vx;
  const std::string vertex = "vertex " + std::to_string(i);
  const Vec3& p = ip.positions[i];
  const float pc[3] = {p.x, p.y, p.z};
  for (std::size_t c = 0; c < 3; ++c) {
    const auto e = psp::signed_stored(f.position, f.position == psp::NumFormat::f32 ? pc[c] : pc[c] / pmo.scale[c]);
    if (!e) return at(where + ".positions", vertex + " lies outside the PMO's scale times the stored element range", ErrorCode::unsupported);
    vx.position[c] = *e;
  }
  if (f.normal != psp::NumFormat::none) {
    const Vec3 n = ip.normals.empty() ? Vec3{0, 1, 0} : normalize(ip.normals[i]);
    const float nc[3] = {n.x, n.y, n.z};
    for (std::size_t c = 0; c < 3; ++c) vx.normal[c] = encode_normal(f.normal, nc[c]);
  }
  if (f.texcoord != psp::NumFormat::none) {
    const Vec2 uv = ip.uvs.empty() ? Vec2{} : ip.uvs[0][i];
    const float uc[2] = {uv.x, uv.y};
    for (std::size_t c = 0; c < 2; ++c) {
      const auto e = mesh.uv_scale[c] == 0.0f || !finite(uc[c]) ? std::nullopt : psp::unsigned_stored(f.texcoord, uc[c] / mesh.uv_scale[c]);
      if (!e) return at(where + ".uvs[0]", vertex + "'s UV is outside what the block's unsigned UVs times the mesh's UV scale can hold", ErrorCode::unsupported);
      vx.texcoord[c] = *e;
    }
  }
  if (f.color != psp::ColorFormat::none) vx.color = encode_vertex_colour(f.color, ip.colors.empty() ? Vec4{1, 1, 1, 1} : ip.colors[i]);
  if (f.weight != psp::NumFormat::none && ip.influences > 0 && bp.influences > 0) {
    Result<std::array<float, 8>> w = slot_weights(ip, i, palette, f, where, true);
    if (!w) return w.error();
    const auto e = psp::stored_weights(f.weight, f.weight_count, *w);
    std::copy(e.begin(), e.end(), vx.weights.begin());
  } else if (ip.influences > 0 && bp.influences > 0) {
    Result<std::array<float, 8>> w = slot_weights(ip, i, palette, f, where, true);  // checks the one bone
    if (!w) return w.error();
  }
  return psp::encode_vertices(f, std::span<const psp::Vertex>(&vx, 1));
}

// A group whose triangles changed: its block's vertices (the ones the triangles use, in incoming
// order), indices and PRIM commands rebuilt from meshoptimizer strips, one GE strip per strip (the
// game's own converter draws strips, many of them three long). The commands before the first PRIM
// and after the last stay as stored; u8 indices widen to u16 past 256 vertices.
Result<void> GroupLowerer::rebuild_group(MhfuPmo& pmo, const MhfuMesh& mesh, std::size_t g, const GeBonePalette& palette, const Primitive& bp,
                                   const Primitive& ip, const std::vector<psp::Vertex>& stored, const MhfuDrawList& draw,
                                   const std::string& where) {
  MhfuBlock& block = pmo.blocks[pmo.groups[g].block];
  for (std::size_t other = 0; other < pmo.groups.size(); ++other) {
    if (other != g && pmo.groups[other].block == pmo.groups[g].block) {
      return at(where, "block " + std::to_string(pmo.groups[g].block) + " is drawn by groups " + std::to_string(g) + " and " +
                                    std::to_string(other) + ": its topology cannot change for one of them", ErrorCode::unsupported);
    }
  }
  std::vector<std::uint32_t> triangles = drawn_triangles(ip);
  if (triangles.empty()) return at(where, "the primitive draws no triangle: removing an MHFU group is not supported", ErrorCode::unsupported);
  // Vertices the triangles use, renumbered in incoming order.
  std::vector<std::uint32_t> slot(ip.vertex_count(), kUnmatched);
  for (std::uint32_t i : triangles) slot[i] = 0;
  std::vector<std::uint32_t> used;
  for (std::uint32_t i = 0; i < slot.size(); ++i) {
    if (slot[i] == 0) slot[i] = static_cast<std::uint32_t>(used.size()), used.push_back(i);
  }
  psp::VertexFormat f = draw.format;
  if (f.index == psp::NumFormat::i8 && used.size() > 256) f.index = psp::NumFormat::i16;
  if (f.index != psp::NumFormat::none && used.size() > 65536) {
    return at(where, "the primitive uses " + std::to_string(used.size()) + " vertices: a GE block's u16 indices reach 65536", ErrorCode::unsupported);
  }
  // FFACE bit 0 flips every triangle the block draws: store them flipped so they draw as given.
  for (std::size_t t = 0; t < triangles.size(); t += 3) {
    for (std::size_t k = 0; k < 3; ++k) triangles[t + k] = slot[triangles[t + k]];
    if (draw.flip) std::swap(triangles[t + 1], triangles[t + 2]);
  }
  std::vector<unsigned> strip(meshopt_stripifyBound(triangles.size()));
  const unsigned restart = ~0u;
  strip.resize(meshopt_stripify(strip.data(), triangles.data(), triangles.size(), used.size(), restart));

  Bytes vertices;
  for (std::uint32_t i : used) {
    Result<Bytes> b = encode_new_vertex(pmo, mesh, palette, bp, ip, i, stored, draw.format, block, where);
    if (!b) return b.error();
    vertices.insert(vertices.end(), b->begin(), b->end());
  }
  std::vector<psp::GeCommand> prims;
  Bytes indices, unindexed;
  const std::size_t stride = draw.format.layout().size;
  for (std::size_t start = 0; start < strip.size();) {
    std::size_t end = start;
    while (end < strip.size() && strip[end] != restart) ++end;
    const std::size_t count = end - start;
    if (count > 0xFFFF) return at(where, "a strip of " + std::to_string(count) + " indices is past a GE PRIM's 65535", ErrorCode::unsupported);
    if (count >= 3) {
      prims.push_back(psp::GeCommand::make(psp::ge::kPrim, std::uint32_t{psp::ge::kPrimStrip} << 16 | static_cast<std::uint32_t>(count)));
      for (std::size_t k = start; k < end; ++k) {
        const std::uint32_t v = strip[k];
        if (f.index == psp::NumFormat::none) {
          unindexed.insert(unindexed.end(), vertices.begin() + static_cast<std::ptrdiff_t>(v * stride),
                           vertices.begin() + static_cast<std::ptrdiff_t>((v + 1) * stride));
        } else {
          for (std::size_t b = 0; b < psp::element_size(f.index); ++b) indices.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
        }
      }
    }
    start = end + 1;
  }
  std::vector<psp::GeCommand> commands;
  bool placed = false;
  for (const psp::GeCommand& c : block.commands) {
    if (c.op() == psp::ge::kVtype && f.index != draw.format.index) {
      commands.push_back(psp::GeCommand::make(psp::ge::kVtype, f.vtype()));
    } else if (c.op() == psp::ge::kPrim) {
      if (!placed) commands.insert(commands.end(), prims.begin(), prims.end());
      placed = true;
    } else {
      commands.push_back(c);
    }
  }
  block.commands = std::move(commands);
  block.vertices = f.index == psp::NumFormat::none ? std::move(unindexed) : std::move(vertices);
  block.indices = std::move(indices);
  if (Result<MhfuDrawList> check = decode_mhfu_block(block); !check) {
    return Error{check.error().code, std::nullopt, where, "the rebuilt block does not decode: " + check.error().message};
  }
  return {};
}

// A vertex's weights per palette slot, summing to 1. Incoming joints are skin joints (mapped to
// bones); base joints are bones already.
Result<std::array<float, 8>> GroupLowerer::slot_weights(const Primitive& p, std::size_t v, const GeBonePalette& palette,
                                          const psp::VertexFormat& f, const std::string& where, bool incoming) {
  std::array<float, 8> out{};
  const std::size_t slots = f.weight == psp::NumFormat::none ? 1 : f.weight_count;
  std::vector<std::pair<int, float>> by_bone;  // in first-met order, repeated joints summed
  for (std::size_t k = 0; k < p.influences; ++k) {
    const float w = p.weights[v * p.influences + k];
    if (w <= 0) continue;
    const std::uint16_t j = p.joints[v * p.influences + k];
    const int bone = incoming ? bones_[j] : int{j};
    auto it = std::find_if(by_bone.begin(), by_bone.end(), [&](const auto& b) { return b.first == bone; });
    if (it == by_bone.end()) by_bone.emplace_back(bone, w);
    else it->second += w;
  }
  // More bones than the VTYPE stores weights for: the strongest ones, renormalised below.
  if (by_bone.size() > slots) {
    // std::sort with a full order (weight, then bone): clang 14's ASan reports libstdc++ 12's
    // stable_sort temporary buffer as a double free.
    std::sort(by_bone.begin(), by_bone.end(), [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
    by_bone.resize(slots);
    ++limited_;
  }
  float sum = 0;
  for (const auto& [bone, w] : by_bone) {
    std::size_t s = 0;
    while (s < slots && !(palette[s] && int{*palette[s]} == bone)) ++s;
    if (s == slots) {
      return at(where + ".joints", "vertex " + std::to_string(v) + " weighs bone " + std::to_string(bone) +
                                                ", which its group's " + std::to_string(slots) +
                                                "-slot GE palette does not hold (re-partitioning palettes is not supported)", ErrorCode::unsupported);
    }
    out[s] += w;
    sum += w;
  }
  if (sum <= 0) {
    out[0] = 1;
    return out;
  }
  for (float& w : out) w /= sum;
  return out;
}

}  // namespace remodel::scene::mhfu
