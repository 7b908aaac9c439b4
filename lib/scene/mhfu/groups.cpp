// MHFU groups as the game's converter lays them out (groups.hpp).
#include <algorithm>
#include <cmath>
#include <map>

#include <meshoptimizer.h>

#include "model/psp/colour.hpp"
#include "scene/mhfu/groups.hpp"

namespace remodel::scene::mhfu {

namespace {

constexpr std::size_t kMaxBlockVertices = 65536;  // u16 indices
constexpr std::size_t kMaxBlockIndices = std::size_t{1} << 21;  // keeps a block's buffers well inside VADDR/IADDR's 24 bits
constexpr std::size_t kMaxU8Indices = 256;    // the converter's u8 indices: every sample block with at most 256 indices

}  // namespace

Result<std::vector<Group>> group_triangles(const Part& part) {
  std::vector<Group> out;
  std::vector<std::uint32_t> seen(part.influences.size(), 0);  // the group (1-based) that last used a vertex
  std::size_t vertices = 0;
  const std::size_t count = part.triangles.size() / 3;
  std::vector<std::vector<int>> needs(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::vector<int>& need = needs[i];
    for (std::size_t c = 0; c < 3; ++c) {
      const PaletteInfluences& f = part.influences[part.triangles[3 * i + c]];
      for (std::size_t k = 0; k < f.count; ++k) {
        if (std::find(need.begin(), need.end(), f.joint[k]) == need.end()) need.push_back(f.joint[k]);
      }
    }
    std::sort(need.begin(), need.end());
  }
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return needs[a] != needs[b] ? needs[a] < needs[b] : a < b; });
  for (std::size_t i : order) {
    const std::size_t t = 3 * i;
    const std::vector<int>& need = needs[i];
    if (need.size() > kSlots) {
      return at(part.where, "triangle " + std::to_string(t / 3) + " leans on " + std::to_string(need.size()) + " bones but a GE draw blends 8", ErrorCode::unsupported);
    }
    std::vector<int> merged = out.empty() ? std::vector<int>{} : out.back().bones;
    for (int b : need) {
      if (std::find(merged.begin(), merged.end(), b) == merged.end()) merged.push_back(b);
    }
    if (out.empty() || merged.size() > kSlots || vertices + 3 > kMaxBlockVertices || out.back().triangles.size() + 3 > kMaxBlockIndices) {
      out.push_back({need, {}});
      vertices = 0;
    } else {
      out.back().bones = std::move(merged);
    }
    const auto id = static_cast<std::uint32_t>(out.size());
    for (std::size_t c = 0; c < 3; ++c) {
      std::uint32_t& s = seen[part.triangles[t + c]];
      if (s != id) s = id, ++vertices;
    }
    out.back().triangles.insert(out.back().triangles.end(), part.triangles.begin() + static_cast<std::ptrdiff_t>(t),
                                part.triangles.begin() + static_cast<std::ptrdiff_t>(t) + 3);
  }
  return out;
}

std::vector<MhfuPaletteEntry> load_palette(std::array<int, kSlots>& current, std::vector<int>& bones, bool fresh) {
  const std::size_t k = bones.size();
  std::vector<int> placed(k, -1);
  std::vector<bool> done(k, false);
  for (std::size_t s = 0; s < k; ++s) {
    for (std::size_t i = 0; i < k; ++i) {
      if (!done[i] && current[s] == bones[i]) placed[s] = bones[i], done[i] = true;
    }
  }
  for (std::size_t i = 0, s = 0; i < k; ++i) {
    if (done[i]) continue;
    while (placed[s] >= 0) ++s;
    placed[s] = bones[i];
  }
  std::vector<MhfuPaletteEntry> entries;
  for (std::size_t s = 0; s < k; ++s) {
    if (fresh || current[s] != placed[s]) entries.push_back({static_cast<std::uint8_t>(s), static_cast<std::uint8_t>(placed[s])});
    current[s] = placed[s];
  }
  bones = std::move(placed);
  return entries;
}

Result<MhfuBlock> encode_block(const Part& part, const Group& group, const Encoding& enc, std::vector<Warning>& warnings) {
  std::map<std::uint32_t, std::uint32_t> local;
  std::vector<std::uint32_t> used;
  std::vector<unsigned> tris;
  for (std::uint32_t v : group.triangles) {
    auto [it, added] = local.emplace(v, static_cast<std::uint32_t>(used.size()));
    if (added) used.push_back(v);
    tris.push_back(it->second);
  }
  const Primitive& p = *part.prim;
  psp::VertexFormat f;
  const std::vector<Vec2>* uvs = p.uvs.empty() ? nullptr : &p.uvs[part.uv_set];
  const bool coloured = std::any_of(used.begin(), used.end(), [&](std::uint32_t v) { return !p.colors.empty() && p.colors[v] != Vec4{1, 1, 1, 1}; });
  if (enc.like) {
    f = *enc.like;
    if (f.texcoord == psp::NumFormat::none) uvs = nullptr;
    // Colours the base's VTYPE does not store: the group stores them as authoring would.
    if (coloured && f.color == psp::ColorFormat::none) f.color = psp::ColorFormat::abgr8888;
  } else {
    f.position = psp::NumFormat::i16;
    f.normal = psp::NumFormat::i8;
    if (uvs) {
      const float top = 65535.0f / 32768.0f;
      const bool fits = std::all_of(used.begin(), used.end(), [&](std::uint32_t v) {
        const Vec2 uv = (*uvs)[v];
        return uv.x >= 0.0f && uv.x <= top && uv.y >= 0.0f && uv.y <= top;
      });
      f.texcoord = fits ? psp::NumFormat::i16 : psp::NumFormat::f32;
    }
    if (coloured) f.color = psp::ColorFormat::abgr8888;
  }
  if (f.weight == psp::NumFormat::none) f.weight = psp::NumFormat::i8;
  f.weight_count = static_cast<std::uint8_t>(group.bones.size());

  // Strips or one list, whichever stores fewer bytes (a PRIM is 4 bytes).
  std::vector<unsigned> strip(meshopt_stripifyBound(tris.size()));
  const unsigned restart = ~0u;
  strip.resize(meshopt_stripify(strip.data(), tris.data(), tris.size(), used.size(), restart));
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // [start, end) in strip
  for (std::size_t s = 0; s < strip.size();) {
    std::size_t e = s;
    while (e < strip.size() && strip[e] != restart) ++e;
    if (e - s >= 3) runs.emplace_back(s, e);
    s = e + 1;
  }
  std::size_t strip_indices = 0;
  for (const auto& [s, e] : runs) strip_indices += e - s;
  const bool wide_strips = strip_indices > kMaxU8Indices, wide_list = tris.size() > kMaxU8Indices;
  const std::size_t strip_bytes = 4 * runs.size() + strip_indices * (wide_strips ? 2 : 1);
  const std::size_t list_bytes = 4 * ((tris.size() + 65534) / 65535) + tris.size() * (wide_list ? 2 : 1);
  const bool list = list_bytes < strip_bytes;
  f.index = (list ? wide_list : wide_strips) ? psp::NumFormat::i16 : psp::NumFormat::i8;

  MhfuBlock block;
  using psp::GeCommand;
  namespace ge = psp::ge;
  block.commands = {GeCommand::make(ge::kOrigin, 0), GeCommand::make(ge::kBase, 0), GeCommand::make(ge::kIaddr, 0),
                    GeCommand::make(ge::kVaddr, 0), GeCommand::make(ge::kVtype, f.vtype()), GeCommand::make(ge::kFface, 0)};
  const std::size_t index_size = psp::element_size(f.index);
  const auto put_index = [&](std::uint32_t v) {
    for (std::size_t b = 0; b < index_size; ++b) block.indices.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
  };
  if (list) {
    for (std::size_t s = 0; s < tris.size(); s += 65535 / 3 * 3) {
      const std::size_t n = std::min<std::size_t>(65535 / 3 * 3, tris.size() - s);
      block.commands.push_back(GeCommand::make(ge::kPrim, std::uint32_t{ge::kPrimTriangles} << 16 | static_cast<std::uint32_t>(n)));
      for (std::size_t i = s; i < s + n; ++i) put_index(tris[i]);
    }
  } else {
    for (const auto& [s, e] : runs) {
      if (e - s > 0xFFFF) return at(part.where, "a strip of " + std::to_string(e - s) + " indices is past a GE PRIM's 65535", ErrorCode::unsupported);
      block.commands.push_back(GeCommand::make(ge::kPrim, std::uint32_t{ge::kPrimStrip} << 16 | static_cast<std::uint32_t>(e - s)));
      for (std::size_t i = s; i < e; ++i) put_index(strip[i]);
    }
  }
  block.commands.push_back(GeCommand::make(ge::kOffset, 0));
  block.commands.push_back(GeCommand::make(ge::kRet, 0));

  const std::size_t stride = f.layout().size;
  block.vertices.assign(used.size() * stride, 0);  // zero padding inside vertices, as the samples have
  std::size_t clamped_uvs = 0;
  for (std::size_t i = 0; i < used.size(); ++i) {
    const std::uint32_t v = used[i];
    psp::Vertex vx;
    const Vec3& q = part.positions[v];
    const float qc[3] = {q.x, q.y, q.z};
    for (std::size_t c = 0; c < 3; ++c) {
      // Clamped only at the top step that a scale of extent * 32768/32767 leaves; past the scale is refused.
      const float raw = qc[c] / enc.scale[c];
      const float top = f.position == psp::NumFormat::f32 ? raw : 32767.0f / 32768.0f;
      const auto s = std::abs(raw) > 1.0f ? std::nullopt : psp::signed_stored(f.position, std::clamp(raw, -1.0f, top));
      if (!s) {
        return at(part.where + ".positions", "vertex " + std::to_string(v) + " lies outside the model's scale (" + std::to_string(enc.scale[0]) + ", " +
                                                 std::to_string(enc.scale[1]) + ", " + std::to_string(enc.scale[2]) + ")", ErrorCode::unsupported);
      }
      vx.position[c] = *s;
    }
    if (f.normal != psp::NumFormat::none) {
      const Vec3 n = part.normals.empty() ? Vec3{0, 1, 0} : part.normals[v];
      const float nc[3] = {n.x, n.y, n.z};
      const float top = f.normal == psp::NumFormat::i16 ? 32767.0f / 32768.0f : 127.0f / 128.0f;
      for (std::size_t c = 0; c < 3; ++c) vx.normal[c] = psp::signed_stored(f.normal, std::clamp(nc[c], -1.0f, top)).value_or(0);
    }
    if (uvs) {
      const Vec2 uv = (*uvs)[v];
      const float uc[2] = {uv.x / enc.uv_scale[0], uv.y / enc.uv_scale[1]};
      for (std::size_t c = 0; c < 2; ++c) {
        const auto s = psp::unsigned_stored(f.texcoord, uc[c]);
        if (!s) ++clamped_uvs;
        vx.texcoord[c] = s.value_or(0);
      }
    }
    if (f.color != psp::ColorFormat::none) {
      const Vec4 c = p.colors.empty() ? Vec4{1, 1, 1, 1} : p.colors[v];
      const float ch[4] = {c.x, c.y, c.z, c.w};
      Rgba rgba{};
      for (std::size_t k = 0; k < 4; ++k) rgba[k] = static_cast<std::uint8_t>(std::nearbyint(std::clamp(ch[k], 0.0f, 1.0f) * 255.0f));
      vx.color = psp::encode_colour(*psp::colour_format(f.color), rgba.data());
    }
    std::array<float, 8> w{};
    const PaletteInfluences& inf = part.influences[v];
    for (std::size_t k = 0; k < inf.count; ++k) {
      const auto slot = std::find(group.bones.begin(), group.bones.end(), inf.joint[k]) - group.bones.begin();
      w[static_cast<std::size_t>(slot)] += inf.weight[k];
    }
    vx.weights = psp::stored_weights(f.weight, f.weight_count, w);
    psp::encode_vertex(f, vx, block.vertices.data() + i * stride);
  }
  if (clamped_uvs != 0) warnings.push_back({part.where + ".uvs", std::to_string(clamped_uvs) + " UV components could not be stored and were written as 0"});
  return block;
}

}  // namespace remodel::scene::mhfu
