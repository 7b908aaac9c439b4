// A modder's replacement over a KH BBS character (issue 30), built in code as Blender makes it: the
// game's meshes deleted, a new mesh along the bones weighted to up to 4 joints, its own material with
// a 64x64 checker texture, a colour layer, Blender's bone turns on the armature. Lowered over the
// original, the BON stays byte for byte, the texture and colours arrive, the weights are the
// incoming ones to the u8 step, and posing the written file with test.pam moves every vertex where
// the game's motion of its bones moves the incoming vertex.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "blender_like.hpp"
#include "model/document.hpp"
#include "model/kh_bbs/pmo.hpp"
#include "samples.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/match.hpp"
#include "scene/math.hpp"

namespace remodel::scene {
namespace {

constexpr const char* kMaterial = "Checker";

RgbaImage checker() {
  RgbaImage image(64, 64);
  for (std::uint32_t y = 0; y < 64; ++y) {
    for (std::uint32_t x = 0; x < 64; ++x) {
      const bool dark = ((x / 8) + (y / 8)) % 2 == 0;
      std::uint8_t* p = image.at(x, y);
      p[0] = dark ? 40 : 230, p[1] = dark ? 60 : 200, p[2] = dark ? 160 : 30, p[3] = 255;
    }
  }
  return image;
}

// The lifted scene with its meshes replaced: per bone (joint with a parent joint), a six-sided tube
// from the parent's origin to the joint's in three rings, each vertex weighted to the parent, the
// joint, the grandparent and the first joint (up to 4), coloured along the tube; one material of the
// modder's own with an unnamed checker texture (Blender names images, not textures).
Scene replacement(const Scene& lifted) {
  Scene s = lifted;
  const Skin& skin = s.skins.at(0);
  const std::vector<Mat4> world = world_matrices(s);
  std::vector<int> slot_of(s.nodes.size(), -1);
  for (std::size_t j = 0; j < skin.joints.size(); ++j) slot_of[static_cast<std::size_t>(skin.joints[j])] = static_cast<int>(j);
  const auto origin = [&](int node) {
    const Mat4& w = world[static_cast<std::size_t>(node)];
    return Vec3{w.at(0, 3), w.at(1, 3), w.at(2, 3)};
  };
  Primitive p;
  p.material = 0;
  p.influences = 4;
  p.uvs.resize(1);
  for (std::size_t j = 0; j < skin.joints.size(); ++j) {
    const int node = skin.joints[j], parent = s.nodes[static_cast<std::size_t>(node)].parent;
    if (parent < 0 || slot_of[static_cast<std::size_t>(parent)] < 0) continue;
    const Vec3 a = origin(parent), b = origin(node), axis = b - a;
    const float len = length(axis);
    if (len < 1e-3f) continue;
    const Vec3 d = axis * (1.0f / len);
    const Vec3 u = normalize(cross(d, std::fabs(d.x) < 0.9f ? Vec3{1, 0, 0} : Vec3{0, 1, 0})), w = cross(d, u);
    const int grand_node = s.nodes[static_cast<std::size_t>(parent)].parent;
    const int grand = grand_node >= 0 ? slot_of[static_cast<std::size_t>(grand_node)] : -1;
    const auto first = static_cast<std::uint32_t>(p.positions.size());
    for (int ring = 0; ring < 3; ++ring) {
      const float t = static_cast<float>(ring) / 2.0f;
      for (int k = 0; k < 6; ++k) {
        const float angle = static_cast<float>(k) * 1.0471975512f, r = 0.12f * len + 0.002f;
        p.positions.push_back(a + axis * t + (u * std::cos(angle) + w * std::sin(angle)) * r);
        p.uvs[0].push_back({static_cast<float>(k) / 6.0f, t});
        p.colors.push_back({1.0f - 0.5f * t, 0.3f + 0.1f * static_cast<float>(k), 0.5f * t, 1.0f});
        float weights[4] = {1.0f - 0.6f * t, 0.6f * t + 0.1f, grand >= 0 ? 0.15f : 0.0f, 0.05f};
        std::uint16_t joints[4] = {static_cast<std::uint16_t>(slot_of[static_cast<std::size_t>(parent)]), static_cast<std::uint16_t>(j),
                                   static_cast<std::uint16_t>(std::max(grand, 0)), 0};
        float sum = 0;
        for (float x : weights) sum += x;
        for (int i = 0; i < 4; ++i) {
          p.joints.push_back(joints[i]);
          p.weights.push_back(weights[i] / sum);
        }
      }
    }
    for (std::uint32_t ring = 0; ring < 2; ++ring) {
      for (std::uint32_t k = 0; k < 6; ++k) {
        const std::uint32_t a0 = first + ring * 6 + k, a1 = first + ring * 6 + (k + 1) % 6, b0 = a0 + 6, b1 = a1 + 6;
        p.indices.insert(p.indices.end(), {a0, a1, b1, a0, b1, b0});
      }
    }
  }
  for (Mesh& m : s.meshes) m.primitives.clear();
  s.meshes.at(0).primitives.push_back(std::move(p));
  Material m;
  m.name = kMaterial;
  m.texture = 0;
  m.vertex_colors = true;
  s.materials = {m};
  Texture t;
  t.image = checker();
  s.textures = {t};
  s.animations.clear();
  test::strip_extras_like_blender(s);
  test::turn_bones_like_blender(s);
  return s;
}

// glTF-style sampling of LINEAR and STEP channels (the PAM lift's), rotations nlerped.
std::array<float, 4> sample(const Channel& c, std::size_t n, float t) {
  std::array<float, 4> out{};
  std::size_t i = 0;
  while (i + 1 < c.times.size() && c.times[i + 1] <= t) ++i;
  const float f = i + 1 < c.times.size() && c.interpolation == Interpolation::linear && t > c.times[i]
                      ? (t - c.times[i]) / (c.times[i + 1] - c.times[i])
                      : 0.0f;
  const std::size_t k = std::min(i + 1, c.times.size() - 1);
  float dot = 0;
  for (std::size_t x = 0; x < n; ++x) dot += c.values[i * n + x] * c.values[k * n + x];
  const float sign = n == 4 && dot < 0 ? -1.0f : 1.0f;
  for (std::size_t x = 0; x < n; ++x) out[x] = c.values[i * n + x] * (1 - f) + sign * c.values[k * n + x] * f;
  return out;
}

// Every node's world matrix with animation `a` at time t.
std::vector<Mat4> posed_worlds(const Scene& s, const Animation& a, float t) {
  Scene posed = s;
  for (const Channel& c : a.channels) {
    Trs& local = posed.nodes[static_cast<std::size_t>(c.node)].local;
    if (c.path == Path::rotation) {
      const auto q = sample(c, 4, t);
      local.rotation = normalize(Quat{q[0], q[1], q[2], q[3]});
    } else {
      const auto v = sample(c, 3, t);
      (c.path == Path::translation ? local.translation : local.scale) = {v[0], v[1], v[2]};
    }
  }
  return world_matrices(posed);
}

struct PosedVertex {
  Vec3 rest, posed;
  float reach = 0;  // how far one u8 weight step moves it: the largest distance between its joints' placements
};

// Skinned positions of every drawn vertex of the mesh of node `node`, each joint moved by
// `motion(joint node)` (a world matrix applied after its bind skinning).
template <typename Motion>
std::vector<PosedVertex> skinned(const Scene& s, const Motion& motion) {
  std::vector<PosedVertex> out;
  const std::vector<Mat4> rest = world_matrices(s);
  for (const Node& n : s.nodes) {
    if (n.mesh < 0 || n.skin < 0) continue;
    const Skin& skin = s.skins[static_cast<std::size_t>(n.skin)];
    for (const Primitive& p : s.meshes[static_cast<std::size_t>(n.mesh)].primitives) {
      for (std::uint32_t v : drawn_triangles(p)) {
        PosedVertex pv{p.positions[v], {0, 0, 0}, 0};
        std::vector<Vec3> places;
        for (std::size_t k = 0; k < p.influences; ++k) {
          const float w = p.weights[v * p.influences + k];
          if (w <= 0) continue;
          const std::size_t j = p.joints[v * p.influences + k];
          const int joint = skin.joints[j];
          const Vec3 at = transform_point(motion(joint) * rest[static_cast<std::size_t>(joint)] * skin.inverse_bind_matrices[j], p.positions[v]);
          pv.posed = pv.posed + at * w;
          places.push_back(at);
        }
        for (const Vec3& a : places) {
          for (const Vec3& b : places) pv.reach = std::max(pv.reach, length(a - b));
        }
        out.push_back(pv);
      }
    }
  }
  return out;
}

const Node* joint_named(const Scene& s, const std::string& name) {
  for (const Node& n : s.nodes) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

// A pose for a skeleton no sample PAM drives: every joint turned 0.4 radians about (1, 2, 3) from
// its bind rotation over one second.
Animation turn_every_joint(const Scene& s) {
  Animation a;
  const Quat turn = axis_angle(normalize(Vec3{1, 2, 3}), 0.4f);
  for (int node : s.skins.at(0).joints) {
    const Quat q = s.nodes[static_cast<std::size_t>(node)].local.rotation, p = normalize(q * turn);
    a.channels.push_back(Channel{node, Path::rotation, Interpolation::linear, {0.0f, 1.0f}, {q.x, q.y, q.z, q.w, p.x, p.y, p.z, p.w}, {}, 0});
  }
  return a;
}

// `a` on the nodes of `to` with the names of its nodes in `from`.
Animation retargeted(const Animation& a, const Scene& from, const Scene& to) {
  Animation out;
  for (Channel c : a.channels) {
    const Node* n = joint_named(to, from.nodes[static_cast<std::size_t>(c.node)].name);
    if (n == nullptr) continue;
    c.node = static_cast<int>(n - to.nodes.data());
    out.channels.push_back(std::move(c));
  }
  return out;
}

// Every field of a BON joint record, bit for bit.
void expect_same_joint(const BonJoint& a, const BonJoint& b, std::size_t j) {
  EXPECT_TRUE(a.name == b.name && a.parent == b.parent && a.index == b.index && a.skin_index == b.skin_index && a.unknown_0x02 == b.unknown_0x02 &&
              a.unknown_0x06 == b.unknown_0x06 && a.unknown_0x0a == b.unknown_0x0a && a.unknown_0x0c == b.unknown_0x0c &&
              std::memcmp(a.local.data(), b.local.data(), sizeof a.local) == 0 && std::memcmp(a.inverse_bind.data(), b.inverse_bind.data(), sizeof a.inverse_bind) == 0)
      << "joint " << j;
}

struct Replaced {
  Scene incoming;
  Document out;
  std::vector<Warning> warnings;
};

std::optional<Replaced> replace_over(const char* name) {
  auto doc = test::load_named_sample("kh-bbs/pmo", name);
  if (!doc) return std::nullopt;
  auto lifted = lift(*doc);
  EXPECT_TRUE(lifted.ok());
  Scene incoming = replacement(*lifted);
  auto out = lower(incoming, *doc);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().describe());
  if (!out.ok()) return std::nullopt;
  auto bytes = write_document(out->document);
  EXPECT_TRUE(bytes.ok());
  auto again = read_document(*bytes);  // `remodel check`: reads back and writes the same bytes
  EXPECT_TRUE(again.ok());
  auto rewritten = write_document(*again);
  EXPECT_TRUE(rewritten.ok() && *rewritten == *bytes);
  return Replaced{std::move(incoming), std::move(*again), std::move(out->warnings)};
}

class KhBbsReplace : public ::testing::TestWithParam<const char*> {};

// The skeleton is the game's byte for byte; the modder's material is a new texture info and TIM2
// holding the checker, the base's no longer drawn are removed; colours are stored per vertex.
TEST_P(KhBbsReplace, SkeletonKeptTextureAndColoursArrive) {
  auto base = test::load_named_sample("kh-bbs/pmo", GetParam());
  if (!base) GTEST_SKIP() << GetParam() << " not present";
  auto r = replace_over(GetParam());
  ASSERT_TRUE(r);
  const Pmo& was = std::get<PmoFile>(*base).pmo;
  const Pmo& now = std::get<PmoFile>(r->out).pmo;
  ASSERT_TRUE(now.skeleton && was.skeleton);
  ASSERT_EQ(now.skeleton->joints.size(), was.skeleton->joints.size());
  for (std::size_t j = 0; j < was.skeleton->joints.size(); ++j) expect_same_joint(was.skeleton->joints[j], now.skeleton->joints[j], j);
  ASSERT_EQ(now.textures.size(), 1u);
  EXPECT_EQ(fixed_string(now.textures[0].name), kMaterial);
  ASSERT_EQ(now.tim2s.size(), 1u);
  auto relifted = lift(r->out);
  ASSERT_TRUE(relifted.ok());
  ASSERT_EQ(relifted->textures.size(), 1u);
  EXPECT_TRUE(relifted->textures[0].image == checker());
  bool said = false, kept = false;
  for (const Warning& w : r->warnings) {
    said = said || w.message.find("no base material stands for") != std::string::npos;
    kept = kept || w.message.find("its picture is kept") != std::string::npos;
  }
  EXPECT_TRUE(said);
  EXPECT_FALSE(kept) << "the base's pictures are drawn by nothing: removed, not kept";
  // Colours as stored bytes: RGB in 1/128 steps.
  const std::vector<PosedVertex> in = skinned(r->incoming, [](int) { return Mat4::identity(); });
  std::size_t colours = 0;
  for (const Primitive& p : relifted->meshes[0].primitives) {
    ASSERT_EQ(p.colors.size(), p.vertex_count());
    for (std::uint32_t v : drawn_triangles(p)) {
      for (const Primitive& q : r->incoming.meshes[0].primitives) {
        for (std::size_t u = 0; u < q.vertex_count(); ++u) {
          if (length(q.positions[u] - p.positions[v]) > now.scale / 16384.0f) continue;
          EXPECT_NEAR(q.colors[u].x, p.colors[v].x, 0.5f / 128 + 1e-6f);
          EXPECT_NEAR(q.colors[u].y, p.colors[v].y, 0.5f / 128 + 1e-6f);
          ++colours;
        }
      }
    }
  }
  EXPECT_GT(colours, 0u);
  // It exports and imports again: the written file lifted and lowered over itself gives its bytes.
  auto own = lower(*relifted, r->out);
  ASSERT_TRUE(own.ok()) << own.error().describe();
  EXPECT_EQ(*write_document(own->document), *write_document(r->out));
}

// Posed by test.pam (h03ex00, whose 106 joints no sample PAM drives: every joint turned): each
// vertex of `out` lands where the incoming vertex at its place lands when every bone moves as the
// game moves it (the original BON posed), within the s16 position step and one u8 weight step per
// joint. Returns the worst distance over its tolerance.
float expect_posed_like_incoming(const Document& out, const Scene& incoming, const char* sample) {
  auto base = test::load_named_sample("kh-bbs/pmo", sample);
  auto pam = test::load_named_sample("kh-bbs/pam", "test.pam");
  if (!base || !pam) {
    ADD_FAILURE() << "samples not present";
    return 0;
  }
  auto game = lift(*base, LiftInputs{{&*pam}, nullptr, nullptr});
  const bool by_pam = game.ok();
  if (!by_pam) {
    game = lift(*base);
    EXPECT_TRUE(game.ok());
    if (!game.ok()) return 0;
    game->animations = {turn_every_joint(*game)};
  }
  auto written = by_pam ? lift(out, LiftInputs{{&*pam}, nullptr, nullptr}) : lift(out);
  EXPECT_TRUE(written.ok()) << (written.ok() ? "" : written.error().describe());
  if (!written.ok()) return 0;
  if (!by_pam) written->animations = {retargeted(game->animations[0], *game, *written)};
  EXPECT_FALSE(written->animations.empty());
  if (written->animations.empty()) return 0;
  const Animation& a = written->animations[0];
  float end = 0;
  for (const Channel& c : a.channels) end = std::max(end, c.times.empty() ? 0.0f : c.times.back());
  const float step = std::get<PmoFile>(out).pmo.scale / 32768.0f;
  const std::vector<Mat4> game_rest = world_matrices(*game), written_rest = world_matrices(*written);
  std::size_t compared = 0;
  float worst = 0;
  for (const float t : {0.0f, end * 0.25f, end * 0.5f, end}) {
    const std::vector<Mat4> game_posed = posed_worlds(*game, game->animations[0], t), written_posed = posed_worlds(*written, a, t);
    // The written file posed by its own animation; the incoming scene by the game's motion of each bone.
    const auto mine = skinned(*written, [&](int node) {
      bool ok = true;
      return written_posed[static_cast<std::size_t>(node)] * inverse(written_rest[static_cast<std::size_t>(node)], &ok);
    });
    const auto theirs = skinned(incoming, [&](int node) {
      const Node* g = joint_named(*game, incoming.nodes[static_cast<std::size_t>(node)].name);
      if (g == nullptr) return Mat4::identity();
      const auto gi = static_cast<std::size_t>(g - game->nodes.data());
      bool ok = true;
      return game_posed[gi] * inverse(game_rest[gi], &ok);
    });
    for (const PosedVertex& w : mine) {
      // The incoming vertex nearest at rest; where several lie there within quantisation (tubes that
      // overlap, weighted differently), the one that poses nearest stands for it.
      float nearest = INFINITY;
      for (const PosedVertex& i : theirs) nearest = std::min(nearest, length(i.rest - w.rest));
      const PosedVertex* best = nullptr;
      for (const PosedVertex& i : theirs) {
        if (length(i.rest - w.rest) <= nearest + 2 * step && (best == nullptr || length(i.posed - w.posed) < length(best->posed - w.posed))) best = &i;
      }
      if (best == nullptr) break;
      // Quantisation, plus the noise Blender's rebuilt bones leave (blender_like.hpp's 4e-4 radians a
      // joint, accumulating down a chain): 2e-3 of the model's size.
      const float tolerance = 2 * step + 4 * best->reach / 128.0f + 1e-4f + 2e-3f * step * 32768.0f;
      const float off = length(best->posed - w.posed);
      worst = std::max(worst, off / tolerance);
      ++compared;
      if (off > tolerance) {
        ADD_FAILURE() << "t " << t << " at " << w.rest.x << " " << w.rest.y << " " << w.rest.z << ": " << off << " past " << tolerance;
        return worst;
      }
    }
  }
  EXPECT_GT(compared, 0u);
  std::printf("%s: %zu posed vertices, worst at %.3f of its tolerance\n", sample, compared, static_cast<double>(worst));
  return worst;
}

TEST_P(KhBbsReplace, PosedAsTheIncomingScene) {
  if (!test::load_named_sample("kh-bbs/pmo", GetParam()) || !test::load_named_sample("kh-bbs/pam", "test.pam")) GTEST_SKIP() << "samples not present";
  auto r = replace_over(GetParam());
  ASSERT_TRUE(r);
  expect_posed_like_incoming(r->out, r->incoming, GetParam());
}

// A new file on the game's skeleton (`import new.glb -o OUT.pmo --skeleton GAME.pmo`): the BON is the
// game's record for record, the mesh bound to it poses as the incoming one.
TEST_P(KhBbsReplace, NewFileOnTheGameSkeleton) {
  auto base = test::load_named_sample("kh-bbs/pmo", GetParam());
  if (!base || !test::load_named_sample("kh-bbs/pam", "test.pam")) GTEST_SKIP() << "samples not present";
  auto lifted = lift(*base);
  ASSERT_TRUE(lifted.ok());
  const Scene incoming = replacement(*lifted);
  auto made = author(incoming, Format::kh_bbs_pmo, LowerInputs{&*base});
  ASSERT_TRUE(made.ok()) << made.error().describe();
  auto bytes = write_document(made->document);
  ASSERT_TRUE(bytes.ok());
  auto again = read_document(*bytes);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(*write_document(*again) == *bytes);
  const Bon& was = *std::get<PmoFile>(*base).pmo.skeleton;
  const Bon& now = *std::get<PmoFile>(*again).pmo.skeleton;
  EXPECT_EQ(now.standard_bone_count, was.standard_bone_count);
  ASSERT_EQ(now.joints.size(), was.joints.size());
  for (std::size_t j = 0; j < was.joints.size(); ++j) expect_same_joint(was.joints[j], now.joints[j], j);
  auto relifted = lift(*again);
  ASSERT_TRUE(relifted.ok());
  ASSERT_EQ(relifted->textures.size(), 1u);
  EXPECT_TRUE(relifted->textures[0].image == checker());
  expect_posed_like_incoming(*again, incoming, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Samples, KhBbsReplace, ::testing::Values("p01ex00.pmo", "h03ex00.pmo"),
                         [](const auto& info) { return test::identifier(info.param); });

}  // namespace
}  // namespace remodel::scene
