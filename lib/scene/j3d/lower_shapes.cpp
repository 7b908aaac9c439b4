// J3D lower, geometry: Scene primitives -> VTX1 elements, DRW1/EVP1 draw matrices and SHP1 display
// lists over the base's own, in the base's GX attribute formats.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string_view>
#include <unordered_map>

#include <meshoptimizer.h>

#include "model/gx/colour.hpp"
#include "model/j3d/decode.hpp"
#include "scene/j3d/array_codec.hpp"
#include "scene/j3d/draw_matrices.hpp"
#include "scene/j3d/inf1_shapes.hpp"
#include "scene/j3d/lower.hpp"
#include "scene/j3d/packets.hpp"
#include "scene/match.hpp"

namespace remodel::scene {

namespace {

constexpr std::uint32_t kAbsent = 0xFFFFFFFF;

// A display-list vertex as the lift keys it: DRW1 index, POS, NRM, CLR0, CLR1, TEX0-7 (kAbsent = not drawn).
using Key = std::array<std::uint32_t, 13>;
constexpr std::size_t kDrw = 0, kPos = 1, kNrm = 2, kClr0 = 3, kClr1 = 4, kTex0 = 5;

struct KeyHash {
  std::size_t operator()(const Key& k) const {
    std::size_t h = 1469598103934665603ull;
    for (std::uint32_t x : k) h = (h ^ x) * 1099511628211ull;
    return h;
  }
};

// Which key entry each present descriptor fills: -1 the position matrix slot, -2 a texture matrix.
Result<std::vector<int>> descriptor_fills(const std::vector<J3dVertexDescriptor>& descriptors, const std::string& where) {
  std::vector<int> fills;
  for (const J3dVertexDescriptor& d : descriptors) {
    if (d.type == 0) continue;
    if (d.type == 1 && d.attribute > 8) return Error{ErrorCode::unsupported, std::nullopt, where, "draws direct vertex data, which is not supported"};
    if (d.attribute == 0) fills.push_back(-1);
    else if (d.attribute <= 8) fills.push_back(-2);
    else if (d.attribute <= 20) fills.push_back(static_cast<int>(d.attribute) - 8);
    else return Error{ErrorCode::unsupported, std::nullopt, where, "draws GX attribute " + std::to_string(d.attribute) + ", which is not supported"};
  }
  return fills;
}

// The base shape walked as the lift walks it: the key of each lifted vertex, and for every
// display-list vertex the lifted vertex it is.
struct ShapeWalk {
  std::vector<int> fills;
  std::vector<Key> keys;
  std::vector<std::vector<std::vector<std::uint32_t>>> ids;  // [packet][primitive][vertex]
};

Result<ShapeWalk> walk_shape(const J3dShp1& shp, std::size_t s) {
  const J3dShape& shape = shp.shapes[s];
  const std::string where = "SHP1.shape[" + std::to_string(s) + "]";
  const auto& descriptors = shp.descriptor_lists[shape.descriptors];
  auto fills = descriptor_fills(descriptors, where);
  if (!fills) return fills.error();
  auto palettes = j3d_packet_matrices(shp, s);
  if (!palettes) return palettes.error();
  ShapeWalk w;
  w.fills = std::move(*fills);
  std::unordered_map<Key, std::uint32_t, KeyHash> seen;
  for (std::size_t k = 0; k < shape.packet_count; ++k) {
    const J3dPacket& packet = shp.packets[std::size_t{shape.first_packet} + k];
    if (packet.raw.stored()) return Error{ErrorCode::unsupported, std::nullopt, where, "has a packet that is not a plain run of draw commands"};
    auto& packet_ids = w.ids.emplace_back();
    for (const J3dPrimitive& dl : packet.primitives) {
      const std::optional<std::size_t> vertex_count = j3d_dl_vertex_count(dl, descriptors);
      if (!vertex_count) {
        return Error{ErrorCode::inconsistent, std::nullopt, where, "holds a primitive whose values do not match its descriptors"};
      }
      auto& ids = packet_ids.emplace_back(*vertex_count);
      for (std::size_t v = 0; v < *vertex_count; ++v) {
        Key key;
        key.fill(kAbsent);
        std::uint32_t slot = 0;
        for (std::size_t f = 0; f < w.fills.size(); ++f) {
          const std::uint16_t value = dl.values[v * w.fills.size() + f];
          if (w.fills[f] == -1) slot = value / 3u;
          else if (w.fills[f] >= 0) key[static_cast<std::size_t>(w.fills[f])] = value;
        }
        if (slot >= GxMatrixPalette::kSlots || !(*palettes)[k][slot]) return Error{ErrorCode::bad_value, std::nullopt, where, "draws with a matrix slot no packet loaded"};
        key[kDrw] = *(*palettes)[k][slot];
        const auto [it, added] = seen.try_emplace(key, static_cast<std::uint32_t>(w.keys.size()));
        if (added) w.keys.push_back(key);
        ids[v] = it->second;
      }
    }
  }
  return w;
}

// What a vertex's values are stored relative to: a rigid entry's joint, or the envelope's blend of
// world * EVP1 inverse bind (model space as EVP1 saw it), as the lift shows them.
struct Binds {
  const J3dDrw1& drw;
  const J3dEvp1& evp;
  std::vector<Mat4> world;
  std::vector<std::optional<Mat4>> cache;

  Result<Mat4> operator()(std::size_t d) {
    if (d >= drw.indices.size()) return Error{ErrorCode::bad_value, std::nullopt, "DRW1", "draw matrix " + std::to_string(d) + " does not exist"};
    if (cache.size() <= d) cache.resize(drw.indices.size());
    if (cache[d]) return *cache[d];
    auto list = j3d_draw_influences(drw, evp, d);
    if (!list) return list.error();
    float sum = 0;
    for (const J3dInfluence& i : *list) {
      if (i.joint >= world.size()) return Error{ErrorCode::bad_value, std::nullopt, "DRW1.index[" + std::to_string(d) + "]", "binds a joint JNT1 does not have"};
      sum += i.weight;
    }
    if (list->empty() || !(sum > 0)) return Error{ErrorCode::bad_value, std::nullopt, "EVP1", "an envelope's weights do not add up to a positive number"};
    Mat4 bind;
    if (drw.weighted[d] == 0) {
      bind = world[(*list)[0].joint];
    } else {
      std::array<double, 16> blend{};
      for (const J3dInfluence& i : *list) {
        const Mat4 ibm = i.joint < evp.inverse_binds.size() ? Mat4::from_3x4_rows(evp.inverse_binds[i.joint].data()) : inverse(world[i.joint]);
        const Mat4 m = world[i.joint] * ibm;
        for (std::size_t k = 0; k < 16; ++k) blend[k] += static_cast<double>(i.weight / sum) * m.m[k];
      }
      for (std::size_t k = 0; k < 16; ++k) bind.m[k] = static_cast<float>(blend[k]);
    }
    cache[d] = bind;
    return bind;
  }
};

Result<std::vector<Mat4>> joint_worlds(const J3dFile& f) {
  auto w = j3d_joint_world_matrices(f);
  if (!w) return w.error();
  std::vector<Mat4> out(w->size());
  for (std::size_t j = 0; j < w->size(); ++j) out[j].m = (*w)[j];
  return out;
}

// The whole geometry pass over one file.
struct Geometry {
  const Scene& base_scene;
  J3dFile& out;
  J3dVtx1& vtx;
  J3dDrw1& drw;
  J3dEvp1& evp;
  J3dShp1& shp;
  const J3dShp1& base_shp;
  Binds base_binds, binds;
  std::vector<Mat4> world;  // the Scene's bind pose (JNT1 as lowered)
  std::array<J3dArrayCodec, 13> codecs;
  J3dDrawTable draws;
  std::vector<Warning>& warnings;
  bool changed = false;
  // Per shape: rebuilt packets and matrix groups (whose `first` indexes new_table), or nullopt = keep.
  std::vector<std::optional<std::pair<std::vector<J3dPacket>, std::vector<J3dMatrixGroup>>>> rebuilt;

  // The DRW1 entry for a vertex's influences: an equal entry when there is one, else appended.
  Result<std::uint32_t> draw_entry(const Primitive& p, std::size_t v, const std::vector<std::uint16_t>& joint_map, const std::string& where) {
    J3dWeights merged;
    float sum = 0;
    for (std::uint32_t k = 0; k < p.influences; ++k) {
      const float w = p.weights[v * p.influences + k];
      if (!(w > 0)) continue;
      const std::uint16_t j = p.joints[v * p.influences + k];
      if (j >= joint_map.size()) {
        return Error{ErrorCode::bad_value, std::nullopt, where + ".joints", "vertex " + std::to_string(v) + " names joint " + std::to_string(j) + ", past the skin's " + std::to_string(joint_map.size())};
      }
      const auto at = std::find_if(merged.begin(), merged.end(), [&](const auto& jw) { return jw.first == joint_map[j]; });
      if (at == merged.end()) merged.emplace_back(joint_map[j], w);
      else at->second += w;
      sum += w;
    }
    if (merged.empty() || !(sum > 0) || !std::isfinite(sum)) {
      return Error{ErrorCode::bad_value, std::nullopt, where + ".weights", "vertex " + std::to_string(v) + " has no positive weight, so no joint holds it"};
    }
    if (merged.size() > 0xFF) return Error{ErrorCode::unsupported, std::nullopt, where, "vertex " + std::to_string(v) + " has more than 255 joints, past EVP1's u8 count"};
    if (merged.size() > 1 && draws.envelope_count() >= 0xFFFF) return Error{ErrorCode::unsupported, std::nullopt, where, "needs more than 65535 EVP1 envelopes"};
    std::sort(merged.begin(), merged.end());
    for (auto& jw : merged) jw.second /= sum;  // envelope weights as the lift shows them
    return draws.entry(merged);
  }

  // Whether an incoming vertex's influences are the base vertex's (so its DRW1 entry stays).
  static bool same_influences(const Primitive& base, std::size_t bv, const Primitive& in, std::size_t iv, const std::vector<std::uint16_t>& joint_map) {
    std::map<std::uint16_t, float> a, b;
    for (std::uint32_t k = 0; k < base.influences; ++k) {
      if (base.weights[bv * base.influences + k] > 0) a[base.joints[bv * base.influences + k]] += base.weights[bv * base.influences + k];
    }
    for (std::uint32_t k = 0; k < in.influences; ++k) {
      const std::uint16_t j = in.joints[iv * in.influences + k];
      if (in.weights[iv * in.influences + k] > 0) {
        if (j >= joint_map.size()) return false;
        b[joint_map[j]] += in.weights[iv * in.influences + k];
      }
    }
    return a == b;
  }

  // The stored index for one attribute of an edited vertex: the old one when the re-encoded value
  // is what it holds, else an equal element or a new one.
  J3dArrayCodec& codec(std::size_t key_slot) { return codecs[key_slot <= kNrm ? key_slot - 1 : key_slot]; }  // VTX1 slot 2 is NBT

  Result<std::uint32_t> store(std::size_t key_slot, std::uint32_t old, const Bytes& e) {
    J3dArrayCodec& c = codec(key_slot);
    if (old != kAbsent && c.same(old, e)) return old;
    const std::uint32_t at = c.find_or_append(e);
    changed = true;
    return at;
  }

  // The key of incoming vertex iv: from base vertex bv's key (kAbsent bv = a new vertex), its values
  // re-encoded where they differ from what the base shows by more than Blender's noise (match.hpp).
  Result<Key> vertex_key(const Primitive& base, std::uint32_t bv, const Key* base_key, const Primitive& in, std::uint32_t iv,
                         std::uint32_t drw_entry, std::size_t real_uvs, const std::vector<int>& fills, const std::string& where) {
    Key key;
    key.fill(kAbsent);
    if (base_key != nullptr) key = *base_key;
    const bool same_bind = base_key != nullptr && (*base_key)[kDrw] == drw_entry;
    auto bind = binds(drw_entry);
    if (!bind) return bind.error();
    bool bind_moved = !same_bind;
    if (same_bind) {
      auto old_bind = base_binds(drw_entry);
      if (!old_bind) return old_bind.error();
      bind_moved = !(*old_bind == *bind);
    }
    key[kDrw] = drw_entry;
    const std::string at = where + " vertex " + std::to_string(iv);
    for (int fill : fills) {
      if (fill < 1) continue;
      const auto slot = static_cast<std::size_t>(fill);
      const bool kept = base_key != nullptr;
      Bytes e;
      if (slot == kPos) {
        if (kept && !bind_moved && position_within_noise(base.positions[bv], in.positions[iv])) continue;
        const Vec3 stored = transform_point(inverse(*bind), in.positions[iv]);
        const float v[3] = {stored.x, stored.y, stored.z};
        if (auto err = codec(kPos).encode(v, 3, e, at); !err) return err.error();
      } else if (slot == kNrm) {
        if (in.normals.empty()) return Error{ErrorCode::inconsistent, std::nullopt, where + ".normals", "the shape draws normals but the primitive has none"};
        if (kept && !bind_moved && normal_within_noise(base.normals[bv], in.normals[iv])) continue;
        Mat4 t;  // the transpose of the bind: the inverse of the lift's inverse transpose
        for (int r = 0; r < 4; ++r) {
          for (int c = 0; c < 4; ++c) t.at(r, c) = bind->at(c, r);
        }
        Vec3 stored = normalize(transform_direction(t, in.normals[iv]));
        // glTF carries a direction; the length is the base's (quantised normals are rarely unit).
        if (const std::vector<double> was = codec(kNrm).decode(key[kNrm]); kept && was.size() == 3) {
          const double length = std::sqrt(was[0] * was[0] + was[1] * was[1] + was[2] * was[2]);
          if (length > 0.5 && length < 2.0) stored = stored * static_cast<float>(length);
        }
        const float v[3] = {stored.x, stored.y, stored.z};
        if (codec(kNrm).format != nullptr && codec(kNrm).format->components == 1) {
          return Error{ErrorCode::unsupported, std::nullopt, at, "the base stores normals with binormals and tangents (NBT), which cannot be edited"};
        }
        // A normal at the base's length may round a step past the type's top (Blender gives 0.999988
        // where s16 with 15 fractional bits ends at 0.99997): saturated, as stored normals are.
        if (auto err = codec(kNrm).encode(v, 3, e, at, true); !err) return err.error();
      } else if (slot == kClr0) {
        if (in.colors.empty()) {
          // Our export keeps colours a material does not show as `_COLOR_0`, which Blender drops: a
          // base vertex keeps its own (as for CLR1); a new one has none to store.
          if (kept && key[kClr0] != kAbsent) continue;
          return Error{ErrorCode::inconsistent, std::nullopt, at, "is new in a shape that draws vertex colours (CLR0), but the primitive has none (COLOR_0)"};
        }
        if (kept && !base.colors.empty() && colour_within_noise(base.colors[bv], in.colors[iv])) continue;
        if (auto err = codec(kClr0).encode_colour(in.colors[iv], e, at); !err) return err.error();
      } else if (slot == kClr1) {
        if (kept) continue;  // CLR1 is not exported: a base vertex keeps its own
        return Error{ErrorCode::unsupported, std::nullopt, at, "is new in a shape that draws a second colour (CLR1), which glTF does not carry"};
      } else {
        const std::size_t u = slot - kTex0;
        if (u >= real_uvs || u >= in.uvs.size()) {
          if (kept) continue;
          return Error{ErrorCode::inconsistent, std::nullopt, where + ".uvs", "the shape draws TEXCOORD_" + std::to_string(u) + " but the primitive has no such set"};
        }
        if (kept && uv_within_noise(base.uvs[u][bv], in.uvs[u][iv])) continue;
        const float v[2] = {in.uvs[u][iv].x, in.uvs[u][iv].y};
        if (auto err = codec(slot).encode(v, 2, e, at); !err) return err.error();
      }
      auto index = store(slot, key[slot], e);
      if (!index) return index.error();
      key[slot] = *index;
    }
    return key;
  }

  static Result<void> check_width(const std::vector<J3dVertexDescriptor>& descriptors, const Key& key, const std::string& where) {
    for (const J3dVertexDescriptor& d : descriptors) {
      if (d.type < 2 || d.attribute < 9 || d.attribute > 20) continue;
      const std::uint32_t v = key[d.attribute - 8];
      const std::uint32_t limit = d.type == 2 ? 0xFF : 0xFFFF;
      if (v != kAbsent && v > limit) {
        return Error{ErrorCode::unsupported, std::nullopt, where, "needs element " + std::to_string(v) + " of GX attribute " + std::to_string(d.attribute) +
                                                           ", past the shape's " + (d.type == 2 ? "8" : "16") + "-bit index"};
      }
    }
    return {};
  }

  // Same triangles: every display-list index rewritten from the edited keys.
  Result<void> patch_in_place(std::size_t s, const ShapeWalk& walk, const std::vector<Key>& keys) {
    const J3dShape& shape = shp.shapes[s];
    const auto& descriptors = shp.descriptor_lists[shape.descriptors];
    for (std::size_t v = 0; v < keys.size(); ++v) {
      if (keys[v] == walk.keys[v]) continue;
      if (auto e = check_width(descriptors, keys[v], "SHP1.shape[" + std::to_string(s) + "]"); !e) return e.error();
    }
    for (std::size_t k = 0; k < walk.ids.size(); ++k) {
      J3dPacket& packet = shp.packets[std::size_t{shape.first_packet} + k];
      for (std::size_t p = 0; p < walk.ids[k].size(); ++p) {
        J3dPrimitive& dl = packet.primitives[p];
        for (std::size_t v = 0; v < walk.ids[k][p].size(); ++v) {
          const Key& key = keys[walk.ids[k][p][v]];
          for (std::size_t f = 0; f < walk.fills.size(); ++f) {
            if (walk.fills[f] >= 1) dl.values[v * walk.fills.size() + f] = static_cast<std::uint16_t>(key[static_cast<std::size_t>(walk.fills[f])]);
          }
        }
      }
    }
    return {};
  }

  // New packets for a shape: its triangles (GX winding) over vertex keys, grouped into packets of at
  // most 10 draw matrices, each stripped by meshoptimizer (3-vertex strips gathered into one list).
  Result<std::pair<std::vector<J3dPacket>, std::vector<J3dMatrixGroup>>> build_packets(
      std::size_t s, const std::vector<Key>& keys, const std::vector<std::uint32_t>& triangles, std::uint8_t vat) {
    const J3dShape& shape = shp.shapes[s];
    const auto& descriptors = shp.descriptor_lists[shape.descriptors];
    const std::string where = "SHP1.shape[" + std::to_string(s) + "]";
    auto fills = descriptor_fills(descriptors, where);
    if (!fills) return fills.error();
    if (fills->empty()) return Error{ErrorCode::unsupported, std::nullopt, where, "has no vertex descriptor present, so its display lists cannot hold vertices"};
    const bool has_slots = std::find(fills->begin(), fills->end(), -1) != fills->end();
    if (std::find(fills->begin(), fills->end(), -2) != fills->end()) {
      return Error{ErrorCode::unsupported, std::nullopt, where, "draws texture matrix indices (TEXnMTXIDX), so its display lists cannot be rebuilt"};
    }
    for (const Key& k : keys) {
      if (auto e = check_width(descriptors, k, where); !e) return e.error();
    }
    std::vector<std::array<std::uint32_t, 3>> corner_matrices(triangles.size() / 3);
    for (std::size_t t = 0; t < corner_matrices.size(); ++t) {
      for (std::size_t c = 0; c < 3; ++c) corner_matrices[t][c] = keys[triangles[t * 3 + c]][kDrw];
      const std::uint32_t first = corner_matrices[0][0];
      if (!has_slots && std::any_of(corner_matrices[t].begin(), corner_matrices[t].end(), [&](std::uint32_t d) { return d != first; })) {
        return Error{ErrorCode::unsupported, std::nullopt, where, "draws with one matrix (no PNMTXIDX in its vertex descriptors) but its vertices now bind to different joints or envelopes"};
      }
    }
    std::vector<J3dPacket> packets;
    std::vector<J3dMatrixGroup> groups;
    for (const J3dPacketPlan& plan : j3d_plan_packets(corner_matrices, GxMatrixPalette::kSlots)) {
      const std::vector<std::uint32_t>& slots = plan.matrices;
      std::vector<std::uint32_t> local;  // triangles in packet vertex numbers
      std::unordered_map<std::uint32_t, std::uint32_t> local_of;
      std::vector<std::uint32_t> packet_vertices;
      for (std::uint32_t t : plan.triangles) {
        for (std::size_t c = 0; c < 3; ++c) {
          const std::uint32_t v = triangles[std::size_t{t} * 3 + c];
          const auto [it, added] = local_of.try_emplace(v, static_cast<std::uint32_t>(packet_vertices.size()));
          if (added) packet_vertices.push_back(v);
          local.push_back(it->second);
        }
      }
      std::vector<unsigned> strip(meshopt_stripifyBound(local.size()));
      strip.resize(meshopt_stripify(strip.data(), local.data(), local.size(), packet_vertices.size(), ~0u));
      J3dPacket packet;
      J3dPrimitive list;
      list.opcode = static_cast<std::uint8_t>(0x90 | vat);
      const auto emit = [&](J3dPrimitive& prim, std::uint32_t lv) {
        const Key& key = keys[packet_vertices[lv]];
        const auto slot = static_cast<std::uint32_t>(std::find(slots.begin(), slots.end(), key[kDrw]) - slots.begin());
        for (int f : *fills) prim.values.push_back(static_cast<std::uint16_t>(f == -1 ? slot * 3 : key[static_cast<std::size_t>(f)]));
      };
      std::size_t begin = 0;
      for (std::size_t i = 0; i <= strip.size(); ++i) {
        if (i < strip.size() && strip[i] != ~0u) continue;
        const std::size_t n = i - begin;
        if (n == 3) {
          for (std::size_t k = begin; k < i; ++k) emit(list, strip[k]);
        } else if (n > 3) {
          if (n > 0xFFFF) return Error{ErrorCode::unsupported, std::nullopt, where, "needs a triangle strip of more than 65535 vertices, past GX's u16 count"};
          J3dPrimitive prim;
          prim.opcode = static_cast<std::uint8_t>(0x98 | vat);
          for (std::size_t k = begin; k < i; ++k) emit(prim, strip[k]);
          packet.primitives.push_back(std::move(prim));
        }
        begin = i + 1;
      }
      const std::size_t list_vertices = j3d_dl_vertex_count(list, descriptors).value_or(0);
      for (std::size_t at = 0; at < list_vertices;) {  // lists split at u16 vertices, whole triangles
        const std::size_t take = std::min<std::size_t>(list_vertices - at, 0xFFFF / 3 * 3);
        J3dPrimitive part;
        part.opcode = list.opcode;
        part.values.assign(list.values.begin() + static_cast<std::ptrdiff_t>(at * fills->size()),
                           list.values.begin() + static_cast<std::ptrdiff_t>((at + take) * fills->size()));
        packet.primitives.push_back(std::move(part));
        at += take;
      }
      J3dMatrixGroup group;
      group.count = static_cast<std::uint16_t>(slots.size());
      group.use_matrix = static_cast<std::uint16_t>(slots.empty() ? 0 : slots[0]);
      for (std::uint32_t d : slots) {
        if (drw.weighted[d] == 0) {
          group.use_matrix = static_cast<std::uint16_t>(d);
          break;
        }
      }
      group.first = static_cast<std::uint32_t>(shp.matrix_table.size());
      for (std::uint32_t d : slots) shp.matrix_table.push_back(static_cast<std::uint16_t>(d));
      packets.push_back(std::move(packet));
      groups.push_back(group);
    }
    return std::make_pair(std::move(packets), std::move(groups));
  }

  // Whether a primitive's colours hold anything: all opaque white is what a shape without CLR0 shows.
  static bool has_colours(const Primitive& p) {
    return std::any_of(p.colors.begin(), p.colors.end(), [](const Vec4& c) { return c.x != 1 || c.y != 1 || c.z != 1 || c.w != 1; });
  }

  // VTX1's CLR0 array, added (RGBA8, as authoring stores colours) when the file has none.
  void add_colour_array() {
    if (codec(kClr0).format != nullptr) return;
    const J3dVertexFormat clr0{11, 1, 5, 0, {0xFF, 0xFF, 0xFF}};
    std::erase_if(vtx.formats, [](const J3dVertexFormat& f) { return f.attribute == 11; });
    vtx.formats.insert(std::find_if(vtx.formats.begin(), vtx.formats.end(), [](const J3dVertexFormat& f) { return f.attribute > 11; }), clr0);
    std::erase_if(vtx.arrays, [](const J3dVertexArray& a) { return a.slot == kClr0; });
    vtx.arrays.insert(std::find_if(vtx.arrays.begin(), vtx.arrays.end(), [](const J3dVertexArray& a) { return a.slot > kClr0; }), J3dVertexArray{static_cast<std::uint8_t>(kClr0), {}, {}});
    bind_codecs();  // the arrays and formats moved
    changed = true;
  }

  // A rebuilt shape draws what its primitive holds: CLR0 when it brings colours, PNMTXIDX when its
  // vertices bind to more than one draw matrix. The base's list may be shared: an edited copy is used.
  Result<void> fit_descriptors(std::size_t s, const Primitive& p, const std::vector<std::uint32_t>& entries) {
    J3dShape& shape = shp.shapes[s];
    std::vector<J3dVertexDescriptor> list = shp.descriptor_lists[shape.descriptors];
    const auto has = [&](std::uint32_t attribute) {
      return std::any_of(list.begin(), list.end(), [&](const J3dVertexDescriptor& d) { return d.attribute == attribute && d.type != 0; });
    };
    const auto put = [&](J3dVertexDescriptor d) {
      std::erase_if(list, [&](const J3dVertexDescriptor& x) { return x.attribute == d.attribute; });
      list.insert(std::find_if(list.begin(), list.end(), [&](const J3dVertexDescriptor& x) { return x.attribute > d.attribute; }), d);
    };
    bool edited = false;
    if (has_colours(p) && !has(11)) {
      add_colour_array();
      put({11, 3});
      edited = true;
    }
    const bool several = std::any_of(entries.begin(), entries.end(), [&](std::uint32_t d) { return d != entries[0]; });
    if (several && !has(0) && shape.matrix_type == 0) {  // a billboard draws with one matrix
      put({0, 1});
      shape.matrix_type = 3;
      edited = true;
    }
    if (!edited) return {};
    const auto found = std::find(shp.descriptor_lists.begin(), shp.descriptor_lists.end(), list);
    shape.descriptors = static_cast<std::uint32_t>(found - shp.descriptor_lists.begin());
    if (found == shp.descriptor_lists.end()) shp.descriptor_lists.push_back(std::move(list));
    changed = true;
    return {};
  }

  // A shape whose triangles or draw matrices changed: every incoming vertex keyed (reusing the base
  // key of a base vertex with the same values), then packets rebuilt.
  Result<void> rebuild(std::size_t s, const Primitive* base, const ShapeWalk* walk, const J3dShapeInput& in, std::size_t real_uvs) {
    const J3dShape& shape = shp.shapes[s];
    std::uint8_t vat = 0;
    if (shape.packet_count > 0 && !shp.packets[shape.first_packet].primitives.empty()) vat = shp.packets[shape.first_packet].primitives[0].opcode & 7;
    std::vector<Key> keys;
    std::vector<std::uint32_t> triangles;
    if (in.incoming != nullptr) {
      const Primitive& p = *in.incoming;
      const NoiseCells cells(base != nullptr ? base->positions : std::vector<Vec3>());
      std::vector<std::uint32_t> entries(p.vertex_count());
      for (std::uint32_t v = 0; v < p.vertex_count(); ++v) {
        auto d = draw_entry(p, v, in.joint_map, in.where);
        if (!d) return d.error();
        entries[v] = *d;
      }
      if (auto e = fit_descriptors(s, p, entries); !e) return e.error();
      auto fills = descriptor_fills(shp.descriptor_lists[shape.descriptors], in.where);
      if (!fills) return fills.error();
      keys.resize(p.vertex_count());
      for (std::uint32_t v = 0; v < p.vertex_count(); ++v) {
        const std::uint32_t d = entries[v];
        // The base vertex this one stands for: the one with the most values within Blender's noise of
        // its own at its position (same weights and draw matrix), whose stored elements it keeps where
        // they are within noise (a painted corner takes a new colour, its neighbours keep theirs).
        std::uint32_t bv = kAbsent;
        int best = -1;
        cells.visit(p.positions[v], [&](std::uint32_t b) {
          if (!same_influences(*base, b, p, v, in.joint_map) || walk->keys[b][kDrw] != d) return true;
          int score = 0;
          if (!base->normals.empty() && !p.normals.empty()) score += normal_within_noise(base->normals[b], p.normals[v]);
          if (!base->colors.empty() && !p.colors.empty()) score += colour_within_noise(base->colors[b], p.colors[v]);
          for (std::size_t u = 0; u < base->uvs.size() && u < p.uvs.size(); ++u) score += uv_within_noise(base->uvs[u][b], p.uvs[u][v]);
          if (score > best) {
            best = score;
            bv = b;
          }
          return true;
        });
        auto key = vertex_key(base != nullptr ? *base : p, bv, bv == kAbsent ? nullptr : &walk->keys[bv], p, v, d, real_uvs, *fills, in.where);
        if (!key) return key.error();
        keys[v] = *key;
      }
      const std::vector<std::uint32_t> drawn = drawn_triangles(p);
      for (std::size_t t = 0; t + 2 < drawn.size(); t += 3) triangles.insert(triangles.end(), {drawn[t], drawn[t + 2], drawn[t + 1]});  // glTF CCW -> GX CW
    }
    auto built = build_packets(s, keys, triangles, vat);
    if (!built) return built.error();
    rebuilt[s] = std::move(*built);
    changed = true;
    return {};
  }

  // UV sets shape `s` draws that the primitive lacks (Blender writes the one UV map a modder made):
  // zeros, said once, in `storage`; else `in` as it is.
  J3dShapeInput pad_uvs(std::size_t s, const J3dShapeInput& in, std::size_t real_uvs, Primitive& storage) {
    if (in.incoming == nullptr || in.incoming->uvs.size() >= real_uvs || in.incoming->vertex_count() == 0) return in;
    storage = *in.incoming;
    const std::size_t had = storage.uvs.size();
    warnings.push_back({in.where, "lacks TEXCOORD_" + std::to_string(had) + (real_uvs - had > 1 ? " to TEXCOORD_" + std::to_string(real_uvs - 1) : std::string()) +
                                      ", which SHP1 shape " + std::to_string(s) + " draws: stored as (0, 0)"});
    storage.uvs.resize(real_uvs, std::vector<Vec2>(storage.vertex_count(), Vec2{0, 0}));
    return J3dShapeInput{&storage, in.where, in.joint_map};
  }

  Result<void> lower_shape(std::size_t s, const J3dShapeInput& given) {
    const Primitive& base = base_scene.meshes[s].primitives[0];
    auto walk = walk_shape(base_shp, s);
    if (!walk) return walk.error();
    std::size_t real_uvs = base.uvs.size();
    if (const auto it = base.extras.find("uvs_added"); it != base.extras.end() && it->is_number_unsigned()) real_uvs -= it->get<std::size_t>();
    Primitive padded;
    const J3dShapeInput in = pad_uvs(s, given, real_uvs, padded);
    if (in.incoming == nullptr) return rebuild(s, &base, &*walk, in, real_uvs);
    const Primitive& p = *in.incoming;
    for (int fill : walk->fills) {  // what the shape draws, the primitive must hold
      const auto k = static_cast<std::size_t>(fill);
      if (fill < 1 || k == kClr1 || (k >= kTex0 && k - kTex0 >= real_uvs)) continue;
      const bool missing = k == kPos || k == kClr0 ? false : k == kNrm ? p.normals.empty() : p.uvs.size() <= k - kTex0;  // CLR0: see vertex_key
      if (missing && p.vertex_count() > 0) {
        static const char* names[5] = {"", "POSITION", "NORMAL", "COLOR_0", ""};
        return Error{ErrorCode::inconsistent, std::nullopt, in.where, std::string("lacks ") + (k < kTex0 ? names[k] : ("TEXCOORD_" + std::to_string(k - kTex0)).c_str()) +
                                                               ", which SHP1 shape " + std::to_string(s) + " draws"};
      }
    }
    // Colours the shape does not draw: rebuilt to draw them (fit_descriptors).
    if (std::find(walk->fills.begin(), walk->fills.end(), static_cast<int>(kClr0)) == walk->fills.end() && has_colours(p)) return rebuild(s, &base, &*walk, in, real_uvs);
    // Values beyond what the shape draws are dropped: say so when they hold anything.
    for (std::size_t u = real_uvs; u < p.uvs.size(); ++u) {
      if (std::any_of(p.uvs[u].begin(), p.uvs[u].end(), [](const Vec2& t) { return t.x != 0 || t.y != 0; }) &&
          (u >= base.uvs.size() || p.uvs[u] != base.uvs[u] || p.vertex_count() != base.vertex_count())) {
        warnings.push_back({in.where, "TEXCOORD_" + std::to_string(u) + " is not drawn by SHP1 shape " + std::to_string(s) + " and was dropped"});
      }
    }
    // What the shape does not draw takes no part in matching: Blender gives a shape without normals
    // flat ones, one vertex per face corner.
    const Primitive* matched = &p;
    Primitive trimmed;
    if ((base.normals.empty() && !p.normals.empty()) || (base.colors.empty() && !p.colors.empty())) {
      trimmed = p;
      if (base.normals.empty()) trimmed.normals.clear();
      if (base.colors.empty()) trimmed.colors.clear();
      matched = &trimmed;
    }
    auto match = match_vertices(base, *matched);
    Primitive one_normal;  // p with Blender's copies of a vertex (split by their normals) at their mean normal
    if (!match && !base.normals.empty() && !p.normals.empty()) {
      std::size_t split = 0;
      match = match_one_normal(base, *matched, p, one_normal, split, kNormalNoise);
      if (match && split > 0) {
        warnings.push_back({in.where, std::to_string(split) + " vertices of SHP1 shape " + std::to_string(s) + " come back as copies with different normals "
                                      "(Blender keeps custom normals per face corner): each stores its copies' mean normal, and the display lists stay"});
      }
    }
    if (!match) return rebuild(s, &base, &*walk, in, real_uvs);
    if (one_normal.vertex_count() == 0 && !base.normals.empty()) {
      // Normals Blender could not keep (match.hpp) are the base's.
      const std::vector<bool> dropped = normals_blender_dropped(p);
      for (std::uint32_t b = 0; b < match->size(); ++b) {
        const std::uint32_t i = (*match)[b];
        if (i == kUnmatched || !dropped[i]) continue;
        if (one_normal.vertex_count() == 0) one_normal = p;
        one_normal.normals[i] = base.normals[b];
      }
    }
    const Primitive& vp = one_normal.vertex_count() > 0 ? one_normal : p;  // the values written in place
    std::vector<Key> keys = walk->keys;
    for (std::uint32_t b = 0; b < match->size(); ++b) {
      const std::uint32_t i = (*match)[b];
      if (i == kUnmatched) continue;
      std::uint32_t d = walk->keys[b][kDrw];
      if (!same_influences(base, b, p, i, in.joint_map)) {
        auto nd = draw_entry(p, i, in.joint_map, in.where);
        if (!nd) return nd.error();
        if (*nd != d) return rebuild(s, &base, &*walk, in, real_uvs);  // the packets' matrix slots change
      }
      auto key = vertex_key(base, b, &walk->keys[b], vp, i, d, real_uvs, walk->fills, in.where);
      if (!key) return key.error();
      keys[b] = *key;
    }
    return patch_in_place(s, *walk, keys);
  }

  // A primitive the base lacks: a new shape drawn like the first base shape with its material (or
  // else like shape 0): same descriptors and matrix type, placed beside it in INF1.
  Result<void> add_shape(const J3dNewShape& n, J3dInf1& inf) {
    if (shp.shapes.empty()) return Error{ErrorCode::unsupported, std::nullopt, n.where, "cannot be added: the base has no shape to draw it like"};
    std::size_t like = 0;
    for (std::size_t s = 0; s < base_scene.meshes.size(); ++s) {
      if (base_scene.meshes[s].primitives[0].material == n.material) {
        like = s;
        break;
      }
    }
    const bool same_material = base_scene.meshes[like].primitives[0].material == n.material;
    if (shp.shapes.size() >= 0xFFFF) return Error{ErrorCode::unsupported, std::nullopt, n.where, "cannot be added: SHP1 holds 65535 shapes"};
    const std::size_t s = shp.shapes.size();
    J3dShape shape = shp.shapes[like];
    shape.packet_count = 0;
    shape.first_packet = shape.first_matrix_group = static_cast<std::uint16_t>(shp.packets.size());
    // Bounds in model space: what the base's single-joint shapes store; the game culls by them.
    Vec3 lo{0, 0, 0}, hi{0, 0, 0};
    float radius = 0;
    for (std::size_t v = 0; v < n.incoming->positions.size(); ++v) {
      const Vec3 p = n.incoming->positions[v];
      lo = v == 0 ? p : Vec3{std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
      hi = v == 0 ? p : Vec3{std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
      radius = std::max(radius, length(p));
    }
    shape.min = {lo.x, lo.y, lo.z};
    shape.max = {hi.x, hi.y, hi.z};
    shape.radius = radius;
    shp.shapes.push_back(shape);
    shp.remap.push_back(static_cast<std::uint16_t>(s));
    rebuilt.emplace_back();
    const Primitive& base = base_scene.meshes[like].primitives[0];
    std::size_t real_uvs = base.uvs.size();
    if (const auto it = base.extras.find("uvs_added"); it != base.extras.end() && it->is_number_unsigned()) real_uvs -= it->get<std::size_t>();
    Primitive padded;
    if (auto e = rebuild(s, nullptr, nullptr, pad_uvs(s, J3dShapeInput{n.incoming, n.where, n.joint_map}, real_uvs, padded), real_uvs); !e) return e.error();
    // INF1: beside the shape it is drawn like (under its material), or under a new material node there.
    J3dNode node{0x12, static_cast<std::uint16_t>(s), {}};
    if (!same_material && n.material >= 0) node = J3dNode{0x11, static_cast<std::uint16_t>(n.material), {node}};
    if (!j3d_insert_shape_beside(inf.roots, static_cast<std::uint16_t>(like), same_material || n.material < 0, node)) inf.roots.push_back(node);
    return {};
  }

  // Each VTX1 array with its format and element size.
  void bind_codecs() {
    static const char* what[13] = {"position", "normal", "NBT", "colour", "colour", "UV", "UV", "UV", "UV", "UV", "UV", "UV", "UV"};
    for (std::uint8_t slot = 0; slot < 13; ++slot) {
      J3dArrayCodec& c = codecs[slot];
      c.what = what[slot];
      c.format = j3d_vertex_format(vtx, slot);
      c.element = j3d_vertex_element_size(vtx, slot);
      for (J3dVertexArray& a : vtx.arrays) {
        if (a.slot == slot) c.array = &a;
      }
      if (c.array == nullptr) c.format = nullptr;  // nothing to append to
    }
  }

  // Rebuilt shapes that draw nothing leave SHP1 and INF1: glTF has no empty primitive, so a shape with
  // no packets could not be exported again. Later shapes move down one index.
  void remove_emptied(J3dInf1& inf) {
    for (std::size_t s = shp.shapes.size(); s-- > 0;) {
      if (!rebuilt[s] || shp.shapes[s].packet_count != 0) continue;
      bool named_elsewhere = shp.remap.size() != shp.shapes.size();
      for (std::size_t i = 0; i < shp.remap.size() && !named_elsewhere; ++i) named_elsewhere = i != s && shp.remap[i] == s;
      if (named_elsewhere) {
        warnings.push_back({"SHP1.shape[" + std::to_string(s) + "]", "draws nothing but stays (with no packets): SHP1's remap table names it elsewhere"});
        continue;
      }
      shp.shapes.erase(shp.shapes.begin() + static_cast<std::ptrdiff_t>(s));
      shp.remap.erase(shp.remap.begin() + static_cast<std::ptrdiff_t>(s));
      for (std::uint16_t& r : shp.remap) r = static_cast<std::uint16_t>(r > s ? r - 1 : r);
      rebuilt.erase(rebuilt.begin() + static_cast<std::ptrdiff_t>(s));
      j3d_remove_shape_node(inf.roots, static_cast<std::uint16_t>(s));
      changed = true;
    }
  }

  // Rebuilt shapes' packets and matrix groups in place of the old, the others kept in order.
  Result<void> splice() {
    if (std::none_of(rebuilt.begin(), rebuilt.end(), [](const auto& r) { return r.has_value(); })) return {};
    std::vector<J3dPacket> packets;
    std::vector<J3dMatrixGroup> groups;
    std::size_t expected = 0;
    for (std::size_t s = 0; s < shp.shapes.size(); ++s) {
      J3dShape& shape = shp.shapes[s];
      if (shape.first_packet != expected || shape.first_matrix_group != expected) {
        return Error{ErrorCode::unsupported, std::nullopt, "SHP1.shape[" + std::to_string(s) + "]", "shares packets with another shape, so the shapes cannot be rebuilt"};
      }
      expected += shape.packet_count;
      const std::size_t first = packets.size();
      if (rebuilt[s]) {
        for (auto& p : rebuilt[s]->first) packets.push_back(std::move(p));
        for (auto& g : rebuilt[s]->second) groups.push_back(g);
      } else {
        for (std::size_t k = 0; k < shape.packet_count; ++k) {
          packets.push_back(std::move(shp.packets[std::size_t{shape.first_packet} + k]));
          groups.push_back(shp.matrix_groups[std::size_t{shape.first_matrix_group} + k]);
        }
      }
      if (packets.size() > 0xFFFF || packets.size() - first > 0xFFFF) return Error{ErrorCode::unsupported, std::nullopt, "SHP1", "needs more than 65535 packets"};
      shape.first_packet = shape.first_matrix_group = static_cast<std::uint16_t>(first);
      shape.packet_count = static_cast<std::uint16_t>(packets.size() - first);
    }
    if (expected != shp.packets.size()) return Error{ErrorCode::unsupported, std::nullopt, "SHP1", "holds packets no shape draws, so the shapes cannot be rebuilt"};
    shp.packets = std::move(packets);
    shp.matrix_groups = std::move(groups);
    return {};
  }
};

}  // namespace

Result<void> lower_j3d_geometry(const J3dFile& base, const Scene& base_scene, const std::vector<J3dShapeInput>& shapes,
                                        const std::vector<J3dNewShape>& added, J3dFile& out,
                                        std::vector<Warning>& warnings, bool& geometry_changed) {
  J3dVtx1* vtx = j3d_section<J3dVtx1>(out);
  J3dDrw1* drw = j3d_section<J3dDrw1>(out);
  J3dEvp1* evp = j3d_section<J3dEvp1>(out);
  J3dShp1* shp = j3d_section<J3dShp1>(out);
  J3dInf1* inf = j3d_section<J3dInf1>(out);
  const J3dShp1* base_shp = j3d_section<J3dShp1>(base);
  const J3dDrw1* base_drw = j3d_section<J3dDrw1>(base);
  const J3dEvp1* base_evp = j3d_section<J3dEvp1>(base);
  if (vtx == nullptr || drw == nullptr || evp == nullptr || shp == nullptr || inf == nullptr || base_shp == nullptr || base_drw == nullptr || base_evp == nullptr) {
    return Error{ErrorCode::bad_value, std::nullopt, "sections", "a J3D model needs INF1, VTX1, EVP1, DRW1 and SHP1"};
  }
  if (shapes.size() != shp->shapes.size() || base_scene.meshes.size() != shp->shapes.size()) {
    return Error{ErrorCode::inconsistent, std::nullopt, "SHP1", "the Scene's shapes do not line up with SHP1's"};
  }
  auto base_world = joint_worlds(base);
  if (!base_world) return base_world.error();
  auto world = joint_worlds(out);
  if (!world) return world.error();
  Geometry g{base_scene, out, *vtx, *drw, *evp, *shp, *base_shp,
             Binds{*base_drw, *base_evp, *base_world, {}}, Binds{*drw, *evp, *world, {}}, *world, {}, J3dDrawTable{*drw, *evp, *world}, warnings, false,
             std::vector<std::optional<std::pair<std::vector<J3dPacket>, std::vector<J3dMatrixGroup>>>>(shp->shapes.size())};
  g.bind_codecs();
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    if (auto e = g.lower_shape(s, shapes[s]); !e) return e.error();
  }
  for (const J3dNewShape& n : added) {
    if (auto e = g.add_shape(n, *inf); !e) return e.error();
  }
  if (auto e = g.splice(); !e) return e.error();
  g.remove_emptied(*inf);
  for (const J3dArrayCodec& c : g.codecs) g.changed |= c.appended;
  geometry_changed = g.changed || g.draws.appended();
  return {};
}

Result<void> author_j3d_geometry(const std::vector<J3dShapeInput>& shapes, J3dFile& out, std::vector<Warning>& warnings) {
  J3dVtx1* vtx = j3d_section<J3dVtx1>(out);
  J3dDrw1* drw = j3d_section<J3dDrw1>(out);
  J3dEvp1* evp = j3d_section<J3dEvp1>(out);
  J3dShp1* shp = j3d_section<J3dShp1>(out);
  J3dInf1* inf = j3d_section<J3dInf1>(out);
  if (vtx == nullptr || drw == nullptr || evp == nullptr || shp == nullptr || inf == nullptr || shapes.size() != shp->shapes.size()) {
    return Error{ErrorCode::inconsistent, std::nullopt, "SHP1", "the authored file's sections do not line up with its shapes"};
  }
  auto world = joint_worlds(out);
  if (!world) return world.error();
  const Scene none;  // no base: every vertex is new
  Geometry g{none, out, *vtx, *drw, *evp, *shp, *shp, Binds{*drw, *evp, *world, {}}, Binds{*drw, *evp, *world, {}}, *world, {}, J3dDrawTable{*drw, *evp, *world}, warnings, false,
             std::vector<std::optional<std::pair<std::vector<J3dPacket>, std::vector<J3dMatrixGroup>>>>(shp->shapes.size())};
  g.bind_codecs();
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    if (shapes[s].incoming == nullptr) return Error{ErrorCode::inconsistent, std::nullopt, "SHP1.shape[" + std::to_string(s) + "]", "has no primitive to draw"};
    if (auto e = g.rebuild(s, nullptr, nullptr, shapes[s], shapes[s].incoming->uvs.size()); !e) return e.error();
  }
  if (auto e = g.splice(); !e) return e.error();
  g.remove_emptied(*inf);
  return {};
}

}  // namespace remodel::scene
