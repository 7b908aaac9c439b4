// KH BBS PAM lower over a base PAM on p01ex00's BON: the unedited animations give the PAM's bytes,
// also as Blender exports them (bones turned, every frame sampled, its noise), and edits (a channel
// moved, retimed, past 255 frames, STEP and CUBICSPLINE channels) read back.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <optional>

#include "blender_like.hpp"
#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "model/kh_bbs/pam.hpp"
#include "samples.hpp"
#include "scene/anim_channels.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"

namespace remodel::scene {
namespace {

struct Fixture {
  Document model, anim;
  Scene scene;  // the PMO with the PAM's animations
  Bytes bytes;  // the PAM as stored
};

std::optional<Fixture> fixture(const std::string& pam) {
  auto model = test::load_named_sample("kh-bbs/pmo", "p01ex00.pmo");
  auto anim = test::load_named_sample("kh-bbs/pam", pam);
  if (!model || !anim) return std::nullopt;
  LiftInputs li;
  li.animations.push_back(&*anim);
  auto scene = lift(*model, li);
  EXPECT_TRUE(scene.ok()) << scene.error().describe();
  if (!scene.ok()) return std::nullopt;
  auto bytes = write_document(*anim);
  return Fixture{std::move(*model), std::move(*anim), std::move(*scene), std::move(*bytes)};
}

#define FIXTURE_OR_SKIP(f, pam)                                            \
  auto f = fixture(pam);                                                   \
  if (!f) {                                                                \
    if (test::samples_required()) FAIL() << "p01ex00.pmo or " pam " missing"; \
    GTEST_SKIP() << "p01ex00.pmo and " pam " not present";                 \
  }

std::optional<Pam> lower_pam_ok(const Scene& scene, const Fixture& f) {
  LowerInputs in;
  in.skeleton = &f.model;
  auto out = lower(scene, f.anim, in);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().describe());
  if (!out.ok()) return std::nullopt;
  auto bytes = write_document(out->document);
  EXPECT_TRUE(bytes.ok());
  if (!bytes.ok()) return std::nullopt;
  auto again = read_document(*bytes);
  EXPECT_TRUE(again.ok());
  if (!again.ok()) return std::nullopt;
  return std::get<Pam>(*again);
}

TEST(LowerKhBbsPam, EveryPamOnP01ex00LowersToItsOwnBytes) {
  for (const char* name : {"test.pam", "p01ex00001a.pam"}) {
    auto f = fixture(name);
    if (!f) {
      if (test::samples_required()) FAIL() << name << " missing";
      continue;
    }
    LowerInputs in;
    in.skeleton = &f->model;
    auto out = lower(f->scene, f->anim, in);
    ASSERT_TRUE(out.ok()) << name << ": " << out.error().describe();
    EXPECT_TRUE(out->warnings.empty()) << name << ": " << out->warnings[0].message;
    auto bytes = write_document(out->document);
    ASSERT_TRUE(bytes.ok());
    EXPECT_TRUE(*bytes == f->bytes) << name << " does not lower to its own bytes";
  }
}

// The PMO with the PAM as Blender exports it unedited (tests/blender_like.hpp): through a .glb, the
// joints turned, every channel sampled at each frame with the turn and Blender's pose noise in it.
Scene blender_like(const Fixture& f) {
  auto glb = gltf::write_glb(f.scene);
  EXPECT_TRUE(glb.ok()) << glb.error().describe();
  auto read = gltf::read_gltf(*glb);
  EXPECT_TRUE(read.ok()) << read.error().describe();
  if (!read.ok()) return {};
  Scene scene = std::move(read->scene);
  test::sample_and_turn_animations_like_blender(scene);
  test::turn_bones_like_blender(scene);
  return scene;
}

// As Blender exports an unedited action, over the --skeleton PMO every PAM on p01ex00 comes back
// identical: no channel re-encoded.
TEST(LowerKhBbsPam, BlenderLikeExportImportsBackIdentical) {
  for (const char* name : {"test.pam", "p01ex00001a.pam"}) {
    SCOPED_TRACE(name);
    auto f = fixture(name);
    if (!f) {
      if (test::samples_required()) FAIL() << name << " missing";
      continue;
    }
    const Scene scene = blender_like(*f);
    LowerInputs in;
    in.skeleton = &f->model;
    auto out = lower(scene, f->anim, in);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    auto bytes = write_document(out->document);
    ASSERT_TRUE(bytes.ok());
    EXPECT_TRUE(*bytes == f->bytes) << name << " exported as Blender does lowers to other bytes";
    // Which channels moved, by kind: what to look at when the bytes differ.
    const Pam& was = std::get<Pam>(f->anim);
    const Pam& now = std::get<Pam>(out->document);
    std::array<std::size_t, kPamChannelKinds> moved{};
    for (std::size_t r = 0; r < was.animations.size(); ++r) {
      for (std::size_t b = 0; b < was.animations[r].bones.size(); ++b) {
        for (std::size_t k = 0; k < kPamChannelKinds; ++k) {
          const auto& w = was.animations[r].bones[b].channels[k];
          const auto& n = now.animations[r].bones[b].channels[k];
          bool same = w.has_value() == n.has_value() && (!w || (w->min == n->min && w->max == n->max && w->keys.size() == n->keys.size()));
          for (std::size_t i = 0; same && w && i < w->keys.size(); ++i) same = w->keys[i].frame == n->keys[i].frame && w->keys[i].value == n->keys[i].value;
          moved[k] += same ? 0 : 1;
        }
      }
    }
    for (std::size_t k = 0; k < kPamChannelKinds; ++k) {
      EXPECT_EQ(moved[k], 0u) << pam_channel_name(static_cast<PamChannelKind>(k)) << " channels re-encoded";
    }
  }
}

// Without a skeleton the PAM is lowered on the BON the Scene's skin names (issue 31): the lifted
// Scene gives the PAM's own bytes, with no warning; a Scene with no skin is an error naming it.
TEST(LowerKhBbsPam, WithoutASkeletonTakesTheSkinsJoints) {
  FIXTURE_OR_SKIP(f, "test.pam");
  auto out = lower(f->scene, f->anim);
  ASSERT_TRUE(out.ok()) << out.error().describe();
  EXPECT_TRUE(out->warnings.empty()) << out->warnings[0].message;
  EXPECT_TRUE(write_document(out->document).value() == f->bytes) << "the skin's BON lowers test.pam to other bytes";
  Scene skinless = f->scene;
  skinless.skins.clear();
  for (Node& n : skinless.nodes) n.skin = -1;
  auto refused = lower(skinless, f->anim);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().field, "skeleton");
  EXPECT_NE(refused.error().message.find("--skeleton"), std::string::npos) << refused.error().message;
  // issue 32: the message named LowerInputs::skeleton, not the CLI's --skeleton.
  EXPECT_EQ(refused.error().message.find("LowerInputs"), std::string::npos) << refused.error().message;
}

// issue 32: an end time near the float maximum was rounded to a long and reported as
// "-9223372036854775718 frames"; the time itself is named.
TEST(LowerKhBbsPam, AnEndPastEveryFrameCountNamesTheTime) {
  FIXTURE_OR_SKIP(f, "test.pam");
  Scene scene = f->scene;
  scene.animations[0].channels[0].times.back() = 3.0e38f;
  LowerInputs in;
  in.skeleton = &f->model;
  auto out = lower(scene, f->anim, in);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message.find("-9223372036854775"), std::string::npos) << out.error().message;
  EXPECT_NE(out.error().message.find("3e+38 s"), std::string::npos) << out.error().message;
}

// Moves one joint's translation channel (one axis, by 0.5 at every other key), as lifted and as
// Blender exports it: that channel is re-quantised, every other keeps its bytes.
TEST(LowerKhBbsPam, EditedChannelIsRequantisedAlone) {
  FIXTURE_OR_SKIP(f, "test.pam");
  const Pam& base = std::get<Pam>(f->anim);
  for (const bool blender : {false, true}) {
    SCOPED_TRACE(blender ? "as Blender exports it" : "as lifted");
    Scene scene = blender ? blender_like(*f) : f->scene;
    // The first joint whose lifted translation has more than two keys.
    int moved_node = -1;
    for (const Channel& c : f->scene.animations[0].channels) {
      if (c.path == Path::translation && c.times.size() > 2 && moved_node < 0) moved_node = c.node;
    }
    Channel* moved = nullptr;
    for (Channel& c : scene.animations[0].channels) {
      if (c.path == Path::translation && c.node == moved_node) moved = &c;
    }
    ASSERT_NE(moved, nullptr);
    const Channel unedited = *moved;
    for (std::size_t k = 0; k < moved->times.size(); ++k) moved->values[k * 3 + 1] += 0.5f * static_cast<float>(k % 2);
    auto out = lower_pam_ok(scene, *f);
    ASSERT_TRUE(out);
    const std::size_t record = *base.entries[f->scene.animations[0].extras["entry"].get<std::size_t>()].animation;
    std::size_t changed = 0, bone = 0, kind = 0;
    for (std::size_t b = 0; b < base.animations[record].bones.size(); ++b) {
      for (std::size_t k = 0; k < kPamChannelKinds; ++k) {
        const auto& was = base.animations[record].bones[b].channels[k];
        const auto& now = out->animations[record].bones[b].channels[k];
        const bool same = was.has_value() == now.has_value() &&
                          (!was || (was->min == now->min && was->max == now->max && was->keys.size() == now->keys.size()));
        if (!same) {
          ++changed;
          bone = b;
          kind = k;
        }
      }
    }
    EXPECT_EQ(changed, 1u);
    EXPECT_LT(kind, 3u) << "a translation channel";
    // It reads back as edited: the moved axis off by the edit at each frame, on the axis Blender's turn puts it on.
    LiftInputs li;
    Document anim = *out;
    li.animations.push_back(&anim);
    auto again = lift(f->model, li);
    ASSERT_TRUE(again.ok());
    const int node = again->skins[0].joints[bone];
    EXPECT_EQ(node, moved_node);
    const std::size_t axis = kind;
    for (const Channel& c : f->scene.animations[0].channels) {
      if (c.node != node || c.path != Path::translation) continue;
      for (const Channel& d : again->animations[0].channels) {
        if (d.node != node || d.path != Path::translation) continue;
        for (std::size_t k = 0; k < d.times.size(); ++k) {
          const auto v = sample_channel(c, 3, d.times[k]);
          const float step = std::abs(sample_channel(*moved, 3, d.times[k])[1] - sample_channel(unedited, 3, d.times[k])[1]);
          EXPECT_NEAR(std::abs(d.values[k * 3 + axis] - v[axis]), step, 1e-3f + 1e-3f * std::abs(v[axis])) << "time " << d.times[k];
        }
      }
    }
  }
}

// Times stretched to 300 frames: the record's frame count follows and its counts become u16.
TEST(LowerKhBbsPam, RetimedPast255Frames) {
  FIXTURE_OR_SKIP(f, "test.pam");
  Scene scene = f->scene;
  Animation& a = scene.animations[0];
  float last = 0;
  for (const Channel& c : a.channels) last = std::max(last, c.times.back());
  ASSERT_GT(last, 0.0f);
  const float stretch = (299.0f / 30.0f) / last;
  for (Channel& c : a.channels) {
    for (float& t : c.times) t *= stretch;
  }
  auto out = lower_pam_ok(scene, *f);
  ASSERT_TRUE(out);
  const std::size_t record = *out->entries[a.extras["entry"].get<std::size_t>()].animation;
  // The end moved from frame last * 30 to 299; the frames after the last key stay.
  const long expected = static_cast<long>(std::get<Pam>(f->anim).animations[record].frame_count) + 299 - std::lround(last * 30.0f);
  EXPECT_EQ(out->animations[record].frame_count, expected);
  EXPECT_GT(expected, 255);
  EXPECT_TRUE(out->animations[record].wide());
}

// STEP and CUBICSPLINE channels are sampled at the PAM's frames as glTF defines them.
TEST(LowerKhBbsPam, StepAndCubicChannelsAreResampled) {
  FIXTURE_OR_SKIP(f, "test.pam");
  Scene scene = f->scene;
  Animation& a = scene.animations[0];
  Channel* t = nullptr;
  for (Channel& c : a.channels) {
    if (c.path == Path::translation && c.times.size() > 2) t = &c;
  }
  ASSERT_NE(t, nullptr);
  const int node = t->node;
  // A STEP channel jumping from 0 to 1 on y half way through.
  t->interpolation = Interpolation::step;
  const std::size_t half = t->times.size() / 2;
  for (std::size_t k = 0; k < t->times.size(); ++k) t->values[k * 3 + 1] = k < half ? 0.0f : 1.0f;
  auto out = lower_pam_ok(scene, *f);
  ASSERT_TRUE(out);
  LiftInputs li;
  Document anim = *out;
  li.animations.push_back(&anim);
  auto again = lift(f->model, li);
  ASSERT_TRUE(again.ok());
  for (const Channel& c : again->animations[0].channels) {
    if (c.node != node || c.path != Path::translation) continue;
    for (std::size_t k = 0; k < c.times.size(); ++k) {
      const float expect = c.times[k] < t->times[half] - 1e-4f ? 0.0f : 1.0f;
      EXPECT_NEAR(c.values[k * 3 + 1], expect, 1e-4f) << "time " << c.times[k];
    }
  }
  // The same values as CUBICSPLINE with zero tangents pass through every key.
  Scene cubic = f->scene;
  Channel* u = nullptr;
  for (Channel& c : cubic.animations[0].channels) {
    if (c.node == node && c.path == Path::translation) u = &c;
  }
  ASSERT_NE(u, nullptr);
  std::vector<float> values;
  for (std::size_t k = 0; k < u->times.size(); ++k) {
    values.insert(values.end(), {0, 0, 0});
    values.insert(values.end(), {u->values[k * 3], k < half ? 0.0f : 1.0f, u->values[k * 3 + 2]});
    values.insert(values.end(), {0, 0, 0});
  }
  u->interpolation = Interpolation::cubic_spline;
  u->values = values;
  auto cubic_out = lower_pam_ok(cubic, *f);
  ASSERT_TRUE(cubic_out);
}

TEST(LowerKhBbsPam, HostileChannelsAreClearErrors) {
  FIXTURE_OR_SKIP(f, "test.pam");
  LowerInputs in;
  in.skeleton = &f->model;
  {
    Scene s = f->scene;
    s.animations[0].channels[0].values.pop_back();
    auto out = lower(s, f->anim, in);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error().field.find("animations[0].channels[0]"), std::string::npos);
  }
  {
    Scene s = f->scene;
    s.animations[0].channels[0].values[0] = std::nanf("");
    auto out = lower(s, f->anim, in);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error().field.find("values"), std::string::npos);
  }
  {
    Scene s = f->scene;
    s.animations[0].channels[0].node = 100000;
    auto out = lower(s, f->anim, in);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error().field.find("node"), std::string::npos);
  }
  {
    Scene s = f->scene;
    for (Channel& c : s.animations[0].channels) {
      for (float& t : c.times) t *= 1000.0f;  // past 65535 frames
    }
    auto out = lower(s, f->anim, in);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error().message.find("65535"), std::string::npos);
  }
}

}  // namespace
}  // namespace remodel::scene
