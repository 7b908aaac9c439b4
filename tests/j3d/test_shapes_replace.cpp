// Issue 30's replacement on the J3D samples, built in code as a modder builds it in Blender: the
// game's meshes deleted, one new mesh of stretched spheres along the bones, weighted to up to 4
// joints each (distinct weights per vertex, as automatic weights give), with a colour layer, bones
// turned as Blender turns them. The result opens again, is packed like the samples, keeps its colours
// and poses as the incoming Scene does.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "blender_like.hpp"
#include "gltf/gltf.hpp"
#include "j3d/lower_fixture.hpp"
#include "j3d/shapes_fixture.hpp"

namespace remodel::j3d_lower_test {
namespace {

using scene::Mat4;
using scene::Vec3;

const char* const kSamples[] = {"ww_cl.bdl", "ww_jb.bdl", "sms_mom_model.bmd", "sms_ma_mdl1.bmd"};

// The replacement: the lifted sample's skeleton and materials, its meshes swapped for one mesh.
scene::Scene replacement(const scene::Scene& base) {
  scene::Scene s = base;
  const scene::Skin& skin = s.skins.at(0);
  const std::vector<Mat4> world = scene::world_matrices(s);
  std::vector<Vec3> at(skin.joints.size());
  for (std::size_t j = 0; j < at.size(); ++j) at[j] = scene::transform_point(world[static_cast<std::size_t>(skin.joints[j])], {0, 0, 0});
  float extent = 0;
  for (const Vec3& p : at) extent = std::max(extent, scene::length(p - at[0]));
  const scene::Primitive& like = base.meshes[0].primitives[0];
  scene::Primitive p;
  p.material = like.material;
  p.uvs.resize(like.uvs.size());
  p.influences = 4;
  constexpr int kRings = 8, kSegments = 10;
  const float pi = 3.14159265f;
  for (std::size_t j = 0; j < at.size(); ++j) {
    const int parent_node = s.nodes[static_cast<std::size_t>(skin.joints[j])].parent;
    const auto parent = std::find(skin.joints.begin(), skin.joints.end(), parent_node);
    if (parent == skin.joints.end()) continue;
    const Vec3 a = at[static_cast<std::size_t>(parent - skin.joints.begin())], b = at[j];
    const float bone = scene::length(b - a);
    if (bone < extent * 1e-3f) continue;
    const Vec3 axis = (b - a) * (1.0f / bone);
    const Vec3 side = scene::normalize(std::fabs(axis.y) < 0.9f ? scene::cross(axis, Vec3{0, 1, 0}) : scene::cross(axis, Vec3{1, 0, 0}));
    const Vec3 up = scene::cross(axis, side);
    const auto first = static_cast<std::uint32_t>(p.positions.size());
    for (int r = 0; r <= kRings; ++r) {
      const float theta = pi * static_cast<float>(r) / kRings;
      for (int g = 0; g <= kSegments; ++g) {
        const float phi = 2 * pi * static_cast<float>(g) / kSegments;
        const Vec3 dir = axis * std::cos(theta) + (side * std::cos(phi) + up * std::sin(phi)) * std::sin(theta);
        const Vec3 q = (a + b) * 0.5f + axis * (std::cos(theta) * bone * 0.5f) + (dir - axis * std::cos(theta)) * (bone * 0.2f);
        p.positions.push_back(q);
        p.normals.push_back(dir);
        p.colors.push_back({0.5f + 0.5f * dir.x, 0.5f + 0.5f * dir.y, 0.5f + 0.5f * dir.z, 1.0f});
        for (auto& set : p.uvs) set.push_back({static_cast<float>(g) / kSegments, static_cast<float>(r) / kRings});
        // Automatic weights, roughly: the 4 nearest joints by 1 / distance^2.
        std::vector<std::pair<float, std::uint16_t>> near;
        for (std::size_t k = 0; k < at.size(); ++k) near.emplace_back(scene::length(q - at[k]), static_cast<std::uint16_t>(k));
        std::partial_sort(near.begin(), near.begin() + std::min<std::ptrdiff_t>(4, static_cast<std::ptrdiff_t>(near.size())), near.end());
        float sum = 0;
        std::array<float, 4> w{};
        for (std::size_t k = 0; k < 4 && k < near.size(); ++k) sum += w[k] = 1.0f / (near[k].first * near[k].first + extent * extent * 1e-4f);
        for (std::size_t k = 0; k < 4; ++k) {
          p.joints.push_back(k < near.size() ? near[k].second : 0);
          p.weights.push_back(k < near.size() ? w[k] / sum : 0.0f);
        }
      }
    }
    for (int r = 0; r < kRings; ++r) {
      for (int g = 0; g < kSegments; ++g) {
        const std::uint32_t v = first + static_cast<std::uint32_t>(r * (kSegments + 1) + g), n = v + kSegments + 1;
        if (r > 0) p.indices.insert(p.indices.end(), {v, n, v + 1});
        if (r < kRings - 1) p.indices.insert(p.indices.end(), {v + 1, n, n + 1});
      }
    }
  }
  for (scene::Node& n : s.nodes) n.mesh = -1;
  s.meshes.clear();
  add_skinned_mesh(s, std::move(p), "Replacement");
  test::strip_extras_like_blender(s);
  test::turn_bones_like_blender(s);
  return s;
}

// What a shape's packets hold: triangles, packets, DRW1 entries loaded, distinct draw matrices.
struct Packing {
  std::size_t triangles = 0, packets = 0, slots = 0, slots_used = 0;  // slots: matrix table loads
  std::set<std::uint16_t> entries;
};

Packing packing(const J3dFile& f, std::size_t s) {
  const auto& shp = section<J3dShp1>(f);
  const J3dShape& shape = shp.shapes[s];
  Packing k;
  k.packets = shape.packet_count;
  for (std::size_t i = 0; i < shape.packet_count; ++i) {
    const J3dMatrixGroup& g = shp.matrix_groups[std::size_t{shape.first_matrix_group} + i];
    for (std::size_t m = 0; m < g.count; ++m) {
      const std::uint16_t d = shp.matrix_table[g.first + m];
      if (d == 0xFFFF) continue;
      ++k.slots;
      k.entries.insert(d);
    }
    // The slots a packet's vertices draw with (PNMTXIDX, the first descriptor when present).
    const auto& descriptors = shp.descriptor_lists[shape.descriptors];
    const std::size_t present = static_cast<std::size_t>(std::count_if(descriptors.begin(), descriptors.end(), [](const J3dVertexDescriptor& d) { return d.type != 0; }));
    const bool slotted = !descriptors.empty() && descriptors[0].attribute == 0 && descriptors[0].type != 0;
    std::set<std::uint16_t> used;
    for (const J3dPrimitive& prim : shp.packets[std::size_t{shape.first_packet} + i].primitives) {
      const auto n = j3d_dl_vertex_count(prim, descriptors).value_or(0);
      k.triangles += j3d_triangles(prim.opcode, n).size();
      for (std::size_t v = 0; v < n && slotted; ++v) used.insert(static_cast<std::uint16_t>(prim.values[v * present] / 3));
    }
    k.slots_used += slotted ? used.size() : 1;
  }
  return k;
}

// Skinned positions of a primitive under joint matrices (world x inverse bind), per skin joint.
std::vector<Vec3> skinned(const scene::Primitive& p, const std::vector<Mat4>& joint) {
  std::vector<Vec3> out;
  for (std::size_t v = 0; v < p.vertex_count(); ++v) {
    Vec3 sum{0, 0, 0};
    for (std::uint32_t k = 0; k < p.influences; ++k) {
      const float w = p.weights[v * p.influences + k];
      if (w > 0) sum = sum + scene::transform_point(joint[p.joints[v * p.influences + k]], p.positions[v]) * w;
    }
    out.push_back(sum);
  }
  return out;
}

// The game's skeleton (`game`, JNT1 order) posed by turning every third joint 25 degrees about its own
// (1, 2, 3) axis: each joint's world matrix.
std::vector<Mat4> posed_worlds(const scene::Scene& game) {
  scene::Scene posed = game;
  const scene::Skin& skin = posed.skins.at(0);
  for (std::size_t j = 0; j < skin.joints.size(); j += 3) {
    scene::Node& n = posed.nodes[static_cast<std::size_t>(skin.joints[j])];
    n.local.rotation = scene::normalize(n.local.rotation * scene::axis_angle(scene::normalize(Vec3{1, 2, 3}), 0.436f));
  }
  const std::vector<Mat4> world = scene::world_matrices(posed);
  std::vector<Mat4> out;
  for (int n : skin.joints) out.push_back(world[static_cast<std::size_t>(n)]);
  return out;
}

std::vector<Mat4> rest_worlds(const scene::Scene& s) {
  const std::vector<Mat4> world = scene::world_matrices(s);
  std::vector<Mat4> out;
  for (int n : s.skins.at(0).joints) out.push_back(world[static_cast<std::size_t>(n)]);
  return out;
}

struct Replaced {
  scene::Scene incoming;
  Output out;
};

std::optional<Replaced> replace(const Base& b) {
  Replaced r{replacement(b.scene), {}};
  r.out = lower_and_reread(r.incoming, b);
  if (r.out.bytes.empty()) return std::nullopt;
  return r;
}

// `check(base, replaced, sample name)` on every sample's replacement (absent samples skipped).
template <typename Check>
void each_replaced(Check check) {
  for (const char* name : kSamples) {
    SCOPED_TRACE(name);
    auto b = load(name);
    if (!b) {
      if (test::samples_required()) ADD_FAILURE() << name << " is missing";
      continue;
    }
    auto r = replace(*b);
    if (!r) {
      ADD_FAILURE() << "the replacement did not lower";
      continue;
    }
    check(*b, *r, name);
  }
}

// Rule 1: base shapes the replacement empties leave SHP1 and INF1, so the output exports to glTF,
// reads back and imports over itself (with Blender's treatment) with no error.
TEST(ShapesReplace, TheResultOpensAgain) {
  each_replaced([](const Base&, const Replaced& rr, const char*) {
    const Replaced* r = &rr;
    ASSERT_EQ(r->out.scene.meshes.size(), 1u);  // one shape stays: the replacement's
    EXPECT_EQ(section<J3dShp1>(r->out.file).shapes.size(), 1u);
    for (const scene::Mesh& m : r->out.scene.meshes) {
      for (const scene::Primitive& p : m.primitives) EXPECT_GT(p.vertex_count(), 0u);
    }
    auto glb = gltf::write_glb(r->out.scene);
    ASSERT_TRUE(glb.ok()) << glb.error().describe();
    auto read = gltf::read_gltf(*glb);
    ASSERT_TRUE(read.ok()) << read.error().describe();
    scene::Scene again = read->scene;
    test::strip_extras_like_blender(again);
    test::turn_bones_like_blender(again);
    Base written{r->out.bytes, *read_document(r->out.bytes), r->out.scene};
    const Output twice = lower_and_reread(again, written);
    ASSERT_FALSE(twice.bytes.empty());
    EXPECT_EQ(twice.scene.meshes.size(), 1u);
  });
}

// Rule 2: the rebuilt shape is packed as Nintendo's converter packs the sample's own multi-matrix
// shapes (6.8 to 8.1 of the 10 slots drawn with per packet on these four): its packets draw with at
// least half as many slots each, and it appends no more DRW1 entries than the incoming vertices have
// distinct weight sets (Nintendo's DRW1 repeats entries: 1.6 to 1.8 per distinct one).
TEST(ShapesReplace, PackedLikeTheGamesConverter) {
  each_replaced([](const Base& b, const Replaced& rr, const char* name) {
    const Replaced* r = &rr;
    const J3dFile& base = std::get<J3dFile>(b.doc);
    std::size_t slots = 0, packets = 0;
    for (std::size_t s = 0; s < section<J3dShp1>(base).shapes.size(); ++s) {
      if (section<J3dShp1>(base).shapes[s].matrix_type != 3) continue;
      const Packing k = packing(base, s);
      slots += k.slots_used;
      packets += k.packets;
    }
    const Packing ours = packing(r->out.file, 0);
    std::set<std::vector<std::pair<std::uint16_t, float>>> weight_sets;
    const scene::Primitive& in = r->incoming.meshes[0].primitives[0];
    for (std::size_t v = 0; v < in.vertex_count(); ++v) {
      std::vector<std::pair<std::uint16_t, float>> set;
      for (std::uint32_t k = 0; k < in.influences; ++k) set.emplace_back(in.joints[v * 4 + k], in.weights[v * 4 + k]);
      std::sort(set.begin(), set.end());
      weight_sets.insert(set);
    }
    const double nintendo = packets > 0 ? static_cast<double>(slots) / static_cast<double>(packets) : 0.0;
    const double mine = static_cast<double>(ours.slots_used) / static_cast<double>(ours.packets);
    std::printf("%s: samples' multi-matrix shapes %zu slots / %zu packets = %.2f per packet; replacement %zu triangles, %zu weight sets, %zu packets, %zu slots = %.2f per packet, %zu DRW1 entries (base %zu)\n",
                name, slots, packets, nintendo, ours.triangles, weight_sets.size(), ours.packets, ours.slots_used, mine,
                section<J3dDrw1>(r->out.file).indices.size(), section<J3dDrw1>(base).indices.size());
    EXPECT_GE(mine * 2, nintendo);
    EXPECT_LE(section<J3dDrw1>(r->out.file).indices.size(), section<J3dDrw1>(base).indices.size() + weight_sets.size());
  });
}

// Rule 3: ww_cl's shape 0 stores no colour; the replacement that lands on it brings COLOR_0, so the
// rebuilt shape draws CLR0 and its colours come back within RGBA8's step.
TEST(ShapesReplace, ColoursArriveWhereTheBaseShapeHadNone) {
  LOAD_OR_SKIP(b, "ww_cl.bdl");
  ASSERT_TRUE(b.scene.meshes[0].primitives[0].colors.empty());
  auto r = replace(b);
  ASSERT_TRUE(r);
  const scene::Primitive& in = r->incoming.meshes[0].primitives[0];
  const scene::Primitive& out = r->out.scene.meshes[0].primitives[0];
  ASSERT_EQ(out.colors.size(), out.vertex_count());
  // Each written vertex's colour is that of an incoming vertex at its position.
  std::map<std::tuple<int, int, int>, std::vector<std::size_t>> by_place;
  const auto place = [](Vec3 p) { return std::tuple<int, int, int>{static_cast<int>(std::lround(p.x * 8)), static_cast<int>(std::lround(p.y * 8)), static_cast<int>(std::lround(p.z * 8))}; };
  for (std::size_t v = 0; v < in.vertex_count(); ++v) by_place[place(in.positions[v])].push_back(v);
  std::size_t checked = 0;
  for (std::size_t v = 0; v < out.vertex_count(); ++v) {
    const auto it = by_place.find(place(out.positions[v]));
    if (it == by_place.end()) continue;
    float best = 1e9f;
    for (std::size_t i : it->second) {
      const auto c = in.colors[i], d = out.colors[v];
      best = std::min(best, std::max({std::fabs(c.x - d.x), std::fabs(c.y - d.y), std::fabs(c.z - d.z), std::fabs(c.w - d.w)}));
    }
    EXPECT_LE(best, 0.5f / 255 + 1e-6f) << v;
    ++checked;
  }
  EXPECT_GT(checked, out.vertex_count() / 2);
  for (const Warning& w : r->out.warnings) EXPECT_EQ(w.message.find("COLOR"), std::string::npos) << w.message;
}

// Rule 5: the written file posed (every third joint turned) skins its vertices where the incoming
// Scene's are under the same pose, within the positions' quantisation. The incoming joints are posed
// through their own rest frames (Blender turned them): world_posed x world_rest^-1 x their world.
TEST(ShapesReplace, PosedLikeTheIncomingScene) {
  each_replaced([](const Base& b, const Replaced& rr, const char*) {
    const Replaced* r = &rr;
    const std::vector<Mat4> posed = posed_worlds(r->out.scene), game_rest = rest_worlds(b.scene), in_rest = rest_worlds(r->incoming);
    std::vector<Mat4> out_joint, in_joint;
    const scene::Skin& out_skin = r->out.scene.skins.at(0);
    const scene::Skin& in_skin = r->incoming.skins.at(0);
    for (std::size_t j = 0; j < posed.size(); ++j) {
      out_joint.push_back(posed[j] * out_skin.inverse_bind_matrices[j]);
      in_joint.push_back(posed[j] * scene::inverse(game_rest[j]) * in_rest[j] * in_skin.inverse_bind_matrices[j]);
    }
    const scene::Primitive& in = r->incoming.meshes[0].primitives[0];
    const scene::Primitive& out = r->out.scene.meshes[0].primitives[0];
    const std::vector<Vec3> in_posed = skinned(in, in_joint), out_posed = skinned(out, out_joint);
    float extent = 0;
    for (const Vec3& p : in.positions) extent = std::max(extent, scene::length(p - in.positions[0]));
    // VTX1's position step (s16 with the base's fractional bits; f32 none), plus Blender's bone noise.
    const J3dVertexFormat* pos = j3d_vertex_format(section<J3dVtx1>(r->out.file), 0);
    ASSERT_NE(pos, nullptr);
    const float step = pos->type == 4 ? 0.0f : std::ldexp(1.0f, -static_cast<int>(pos->frac));
    const float tolerance = step + extent * 3e-3f;
    std::map<std::tuple<int, int, int>, std::vector<std::size_t>> by_place;
    const float cell = extent / 64;
    const auto place = [&](Vec3 p) { return std::tuple<int, int, int>{static_cast<int>(std::floor(p.x / cell)), static_cast<int>(std::floor(p.y / cell)), static_cast<int>(std::floor(p.z / cell))}; };
    for (std::size_t v = 0; v < in.vertex_count(); ++v) by_place[place(in.positions[v])].push_back(v);
    float worst = 0;
    for (std::size_t v = 0; v < out.vertex_count(); ++v) {
      // The incoming vertex nearest at rest among its cell and the neighbours'.
      float best_rest = 1e30f, moved = 0;
      const auto [x, y, z] = place(out.positions[v]);
      for (int dx = -1; dx <= 1; ++dx) {
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dz = -1; dz <= 1; ++dz) {
            const auto it = by_place.find({x + dx, y + dy, z + dz});
            if (it == by_place.end()) continue;
            for (std::size_t i : it->second) {
              const float d = scene::length(in.positions[i] - out.positions[v]);
              if (d < best_rest) {
                best_rest = d;
                moved = scene::length(in_posed[i] - out_posed[v]);
              }
            }
          }
        }
      }
      ASSERT_LT(best_rest, tolerance) << "vertex " << v << " is at no incoming vertex";
      worst = std::max(worst, moved);
    }
    EXPECT_LT(worst, tolerance) << "posed vertices differ by up to " << worst;
  });
}

}  // namespace
}  // namespace remodel::j3d_lower_test
