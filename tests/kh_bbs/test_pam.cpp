#include <gtest/gtest.h>

#include <cmath>

#include "model/document.hpp"
#include "model/kh_bbs/pam.hpp"
#include "round_trip.hpp"
#include "samples.hpp"

namespace remodel {
namespace {

// ---- golden arrays, written by hand from kh-bbs-pam.md and notes-kh-bbs.md ----

// Three entries: "idle" -> A at 0x40, an empty slot, "run" -> B at 0x78.
// A: 4 frames (u8 counts), 1 bone with Tx constant, Ry on every frame, Sz sparse; 55 bytes + 1 pad.
// B: 300 frames (u16 counts and frame ids), bone 0 Tx constant, bone 1 Rx sparse; 48 bytes, even.
const Bytes kContainer = {
    'P', 'A', 'M', 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0,                         // header, version 1
    0x40, 0, 0, 0, 'i', 'd', 'l', 'e', 0, 0, 0, 0, 0, 0, 0, 0,                     // entry 0
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,                                // entry 1: empty
    0x78, 0, 0, 0, 'r', 'u', 'n', 0, 0, 0, 0, 0, 0, 0, 0, 0,                       // entry 2
    // A @0x40: flag 1, 30 fps, 5 interpolation frames, loop from 3, 1 bone, 4 frames, loop to 0
    0x01, 0x00, 0x1E, 0x05, 0x03, 0x00, 0x01, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x11, 0x01,                                                                    // flags Tx | Ry | Sz
    0x00, 0x00, 0xC0, 0x3F, 0x00, 0x00, 0xC0, 0x3F, 0x01,                          // Tx: 1.5, 1.5, 1 key
    0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0xC0, 0x04,                          // Ry: max 2, min -2, 4 keys
    0x00, 0x00, 0xFF, 0xFF, 0x00, 0x80, 0x00, 0x40,                                //   values
    0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x00, 0x02,                          // Sz: max 1, min 0, 2 keys
    0x00, 0x00, 0x00, 0x03, 0xFF, 0xFF,                                            //   frame 0: 0, frame 3: ffff
    0x00,                                                                          // pad to even
    // B @0x78: flag 0x101, 30 fps, loop from 299, 2 bones, 300 frames, loop to 10
    0x01, 0x01, 0x1E, 0x00, 0x2B, 0x01, 0x02, 0x00, 0x2C, 0x01, 0x0A, 0x00,
    0x01, 0x00, 0x08, 0x00,                                                        // flags: Tx; Rx
    0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x00, 0x3F, 0x01, 0x00,                    // Tx: 0.5, 0.5, 1 key (u16)
    0x00, 0x00, 0x40, 0x40, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00,                    // Rx: max 3, min 0, 3 keys
    0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x80, 0x2B, 0x01, 0xFF, 0xFF,        //   frames 0, 256, 299
};

// A bare record: 2 frames, 1 bone with Sx on every frame (max 2, min 1); 27 bytes + 1 pad.
const Bytes kBare = {
    0x01, 0x01, 0x1E, 0x00, 0x01, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00,
    0x40, 0x00,
    0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x80, 0x3F, 0x02, 0x00, 0x00, 0xFF, 0xFF,
    0x00,
};

// 260 frames with a u16 key on every one: count 0x0104, then values 0..259 * 256 (built by loop).
Bytes wide_every_frame() {
  Bytes b = {0x01, 0x00, 0x1E, 0x00, 0x00, 0x00, 0x01, 0x00, 0x04, 0x01, 0x00, 0x00,  // 1 bone, 260 frames
             0x20, 0x00,                                                              // flags Rz
             0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x80, 0xBF, 0x04, 0x01};             // max 1, min -1, 260
  for (unsigned k = 0; k < 260; ++k) {
    b.push_back(0x00);
    b.push_back(static_cast<std::uint8_t>(k));
  }
  return b;  // 24 + 520 bytes: even, no pad
}

TEST(PamGolden, ContainerFieldsReadAsWritten) {
  auto r = read_pam(kContainer);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const Pam& p = *r;
  EXPECT_EQ(p.version, 1);
  ASSERT_EQ(p.entries.size(), 3u);
  EXPECT_EQ(fixed_string(p.entries[0].name), "idle");
  EXPECT_EQ(p.entries[0].animation, 0);
  EXPECT_FALSE(p.entries[1].animation.has_value());
  EXPECT_EQ(fixed_string(p.entries[2].name), "run");
  EXPECT_EQ(p.entries[2].animation, 1);
  ASSERT_EQ(p.animations.size(), 2u);

  const PamAnimation& a = p.animations[0];
  EXPECT_EQ(a.flag, 1);
  EXPECT_EQ(a.fps, 30);
  EXPECT_EQ(a.interpolation_frames, 5);
  EXPECT_EQ(a.loop_from, 3);
  EXPECT_EQ(a.frame_count, 4);
  EXPECT_FALSE(a.wide());
  ASSERT_EQ(a.bones.size(), 1u);
  EXPECT_EQ(a.bones[0].flags(), 0x0111);
  const auto& tx = a.bones[0].channels[0];
  ASSERT_TRUE(tx.has_value());
  EXPECT_TRUE(tx->constant);
  EXPECT_EQ(tx->max, 1.5f);
  const auto& ry = a.bones[0].channels[4];
  ASSERT_TRUE(ry.has_value());
  EXPECT_EQ(ry->max, 2.0f);
  EXPECT_EQ(ry->min, -2.0f);
  ASSERT_EQ(ry->keys.size(), 4u);
  EXPECT_EQ(ry->keys[2].frame, 2);
  EXPECT_EQ(ry->keys[2].value, 0x8000);
  const auto& sz = a.bones[0].channels[8];
  ASSERT_TRUE(sz.has_value());
  ASSERT_EQ(sz->keys.size(), 2u);
  EXPECT_EQ(sz->keys[1].frame, 3);
  EXPECT_EQ(sz->keys[1].value, 0xFFFF);
  EXPECT_FALSE(a.stored_padding.stored());

  const PamAnimation& b = p.animations[1];
  EXPECT_EQ(b.flag, 0x0101);
  EXPECT_EQ(b.loop_from, 299);
  EXPECT_EQ(b.frame_count, 300);
  EXPECT_EQ(b.loop_to, 10);
  EXPECT_TRUE(b.wide());
  ASSERT_EQ(b.bones.size(), 2u);
  EXPECT_TRUE(b.bones[0].channels[0]->constant);
  const auto& rx = b.bones[1].channels[3];
  ASSERT_TRUE(rx.has_value());
  ASSERT_EQ(rx->keys.size(), 3u);
  EXPECT_EQ(rx->keys[1].frame, 256);
  EXPECT_EQ(rx->keys[2].frame, 299);
  EXPECT_EQ(verbatim_bytes(p), 0u);
}

TEST(PamGolden, ContainerWritesBackByteForByte) {
  auto r = read_pam(kContainer);
  ASSERT_TRUE(r.ok());
  auto w = write_pam(*r);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  EXPECT_EQ(*w, kContainer);
  EXPECT_EQ(pam_animation_size(r->animations[0]), 55u);
  EXPECT_EQ(pam_animation_size(r->animations[1]), 48u);
}

TEST(PamGolden, BareRecordDetectedReadAndWritten) {
  ASSERT_EQ(detect_format(kBare), Format::kh_bbs_pam_anim);
  auto r = read_pam_anim_file(kBare);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const PamAnimation& a = r->animation;
  EXPECT_EQ(a.frame_count, 2);
  ASSERT_TRUE(a.bones[0].channels[6].has_value());
  EXPECT_EQ(a.bones[0].channels[6]->keys[1].value, 0xFFFF);
  auto w = write_pam_anim_file(*r);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, kBare);
}

TEST(PamGolden, WideEveryFrameKeys) {
  const Bytes b = wide_every_frame();
  auto r = read_pam_anim_file(b);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  const auto& rz = r->animation.bones[0].channels[5];
  ASSERT_TRUE(rz.has_value());
  ASSERT_EQ(rz->keys.size(), 260u);
  EXPECT_EQ(rz->keys[259].frame, 259);
  EXPECT_EQ(rz->keys[259].value, 0x0300);  // 259 = 0x103: low byte 3 in the value's high byte
  auto w = write_pam_anim_file(*r);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, b);
}

TEST(PamDecode, HandComputedValues) {
  auto r = read_pam(kContainer);
  ASSERT_TRUE(r.ok());
  auto d = decode_pam_animation(r->animations[0]);
  ASSERT_TRUE(d.ok()) << d.error().describe();
  ASSERT_EQ(d->bones.size(), 1u);
  ASSERT_EQ(d->bones[0].channels.size(), 3u);
  const PamDecodedChannel& tx = d->bones[0].channels[0];
  EXPECT_EQ(tx.kind, PamChannelKind::translation_x);
  EXPECT_EQ(tx.values, std::vector<float>{1.5f});
  const PamDecodedChannel& ry = d->bones[0].channels[1];
  EXPECT_EQ(ry.kind, PamChannelKind::rotation_y);
  EXPECT_EQ(ry.frames, (std::vector<std::uint16_t>{0, 1, 2, 3}));
  // -2 + 4 * q / 65535 for q = 0, 65535, 32768, 16384
  EXPECT_FLOAT_EQ(ry.values[0], -2.0f);
  EXPECT_FLOAT_EQ(ry.values[1], 2.0f);
  EXPECT_NEAR(ry.values[2], 0.0000305185f, 1e-6);
  EXPECT_NEAR(ry.values[3], -0.9999847412f, 1e-6);
  const PamDecodedChannel& sz = d->bones[0].channels[2];
  EXPECT_EQ(sz.frames, (std::vector<std::uint16_t>{0, 3}));
  EXPECT_FLOAT_EQ(sz.values[1], 1.0f);
  // Linear between frame 0 (0) and frame 3 (1); held after the last key.
  EXPECT_NEAR(pam_sample(sz, 1.0f), 1.0f / 3.0f, 1e-6);
  EXPECT_NEAR(pam_sample(sz, 1.5f), 0.5f, 1e-6);
  EXPECT_FLOAT_EQ(pam_sample(sz, 10.0f), 1.0f);

  auto wide = decode_pam_animation(r->animations[1]);
  ASSERT_TRUE(wide.ok());
  const PamDecodedChannel& rx = wide->bones[1].channels[0];
  EXPECT_EQ(rx.kind, PamChannelKind::rotation_x);
  EXPECT_NEAR(rx.values[1], 3.0f * 32768.0f / 65535.0f, 1e-6);
  EXPECT_NEAR(pam_sample(rx, 128.0f), 0.5f * rx.values[1], 1e-6);
}

TEST(PamDecode, RejectsFramesThatDoNotIncrease) {
  PamAnimation a;
  a.frame_count = 10;
  a.bones.resize(1);
  a.bones[0].channels[0] = PamChannel{1, 0, false, {{5, 0}, {5, 1}}};
  auto d = decode_pam_animation(a);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().field, "bone[0].translation_x.key[1]");
}

// ---- bad input ----

Bytes patched(Bytes b, std::size_t at, std::uint8_t v) {
  b[at] = v;
  return b;
}

TEST(PamBadInput, BoneCountThatDisagreesWithChannelData) {
  // Two bones claimed in A: the second bone's flags are Tx's max (0x0000) then the data shifts by 2.
  auto r = read_pam(patched(kContainer, 0x46, 2));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field.rfind("animation[0].", 0), 0u) << r.error().describe();
}

TEST(PamBadInput, KeyCountsPastTheEnd) {
  // Sz in A claims 3 keys but the record has room for 2 before B starts: the next record is read over.
  auto r = read_pam(patched(kContainer, 0x40 + 48, 3));
  ASSERT_FALSE(r.ok());
  // The bare record's 2 keys claimed as 2 with frames 3 (> frame count) instead.
  auto b = read_pam_anim_file(patched(kBare, 22, 3));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().code, ErrorCode::bad_count);
  EXPECT_EQ(b.error().field, "bone[0].scale_x.key_count");
  EXPECT_EQ(b.error().offset, 22u);
  // Truncated keys.
  Bytes cut(kBare.begin(), kBare.begin() + 25);
  auto t = read_pam_anim_file(cut);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::bad_count);
}

TEST(PamBadInput, FrameIdOutOfRange) {
  // Sz's second key at frame 4 in a 4-frame animation.
  auto r = read_pam(patched(kContainer, 0x40 + 52, 4));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::bad_value);
  EXPECT_EQ(r.error().field, "animation[0].bone[0].scale_z.frame");
  EXPECT_EQ(r.error().offset, 0x40u + 52);
}

TEST(PamBadInput, OffsetsIntoTheTableOrOverlapping) {
  auto inside = read_pam(patched(kContainer, 0x10, 0x20));
  ASSERT_FALSE(inside.ok());
  EXPECT_EQ(inside.error().code, ErrorCode::bad_offset);
  EXPECT_EQ(inside.error().field, "entry[0].offset");
  auto overlap = read_pam(patched(kContainer, 0x30, 0x70));  // B starts inside A
  ASSERT_FALSE(overlap.ok());
  EXPECT_EQ(overlap.error().code, ErrorCode::bad_offset);
  auto huge = read_pam(Bytes{'P', 'A', 'M', 0, 0xFF, 0xFF, 0xFF, 0x0F, 0, 0, 0, 0, 0, 0, 1, 0});
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().code, ErrorCode::bad_count);
}

TEST(PamWriter, RefusesDocumentsItCannotWriteBack) {
  PamAnimFile f;
  f.animation.frame_count = 4;
  f.animation.bones.resize(1);
  f.animation.bones[0].channels[0] = PamChannel{1, 0, false, {{2, 7}}};
  EXPECT_FALSE(write_pam_anim_file(f).ok());  // one key reads back as a constant
  f.animation.bones[0].channels[0] = PamChannel{1, 0, false, {{0, 1}, {9, 2}}};
  EXPECT_FALSE(write_pam_anim_file(f).ok());  // frame past the end
  f.animation.bones[0].channels[0] = PamChannel{1, 0, false, {{0, 1}, {2, 2}, {1, 3}, {3, 4}}};
  EXPECT_FALSE(write_pam_anim_file(f).ok());  // every-frame storage needs frames in order
  Pam p;
  p.animations.push_back(PamAnimation{});
  EXPECT_FALSE(write_pam(p).ok());  // unreferenced
  p.entries.push_back(PamEntry{std::uint16_t{3}, {}});
  EXPECT_FALSE(write_pam(p).ok());  // index past the list
}

TEST(PamWriter, EditedAnimationReadsBack) {
  auto r = read_pam(kContainer);
  ASSERT_TRUE(r.ok());
  Pam p = *r;
  p.animations[0].bones[0].channels[8]->keys.push_back({1, 0x1234});  // 3 sparse keys now
  std::swap(p.animations[0].bones[0].channels[8]->keys[1], p.animations[0].bones[0].channels[8]->keys[2]);
  p.entries[1].animation = 1;  // the empty slot now shares B
  auto w = write_pam(p);
  ASSERT_TRUE(w.ok()) << w.error().describe();
  auto back = read_pam(*w);
  ASSERT_TRUE(back.ok()) << back.error().describe();
  EXPECT_EQ(back->entries[1].animation, 1);
  EXPECT_EQ(back->animations[0].bones[0].channels[8]->keys.size(), 3u);
  EXPECT_EQ(back->animations[0].bones[0].channels[8]->keys[1].value, 0x1234);
  EXPECT_EQ(verbatim_bytes(*back), 0u);  // A is now 58 bytes: even, no pad
  EXPECT_EQ(w->size(), kContainer.size() + 2);
}

// ---- samples ----

TEST(KhBbsSamples, PamRoundTrip) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pam");
  for (const auto& path : files) EXPECT_EQ(test::expect_round_trip(path), 0u) << path;
}

TEST(KhBbsSamples, PamMatchesSources) {
  REMODEL_SAMPLES_OR_SKIP(files, "kh-bbs/pam");
  for (const auto& path : files) {
    const Bytes b = test::load_file(path);
    if (path.filename() == "test.pam") {
      auto p = read_pam(b);
      ASSERT_TRUE(p.ok());
      ASSERT_EQ(p->animations.size(), 1u);
      EXPECT_EQ(fixed_string(p->entries[0].name), "OpenKHAnim");
      EXPECT_EQ(p->animations[0].bones.size(), 53u);
      EXPECT_EQ(p->animations[0].frame_count, 90);
      auto d = decode_pam_animation(p->animations[0]);
      EXPECT_TRUE(d.ok()) << d.error().describe();
      // One bone too many: the 54th flags word is the first channel's max (0xd70a), bits past the nine.
      Bytes more = b;
      more[0x26] = 54;
      auto bad = read_pam(more);
      ASSERT_FALSE(bad.ok());
      EXPECT_EQ(bad.error().field, "animation[0].channel_flags");
      EXPECT_EQ(bad.error().offset, 0x20u + 12 + 2 * 53);
    } else if (path.extension() == ".anim") {
      ASSERT_EQ(detect_format(b), Format::kh_bbs_pam_anim) << path;
      auto a = read_pam_anim_file(b);
      ASSERT_TRUE(a.ok());
      EXPECT_EQ(a->animation.flag, 0x0101);
      EXPECT_EQ(a->animation.bones.size(), 51u);
      EXPECT_EQ(a->animation.frame_count, 32);
      bool has_scale = false;
      for (const PamBone& bone : a->animation.bones) has_scale |= (bone.flags() & 0x1C0) != 0;
      EXPECT_TRUE(has_scale);
      auto d = decode_pam_animation(a->animation);
      EXPECT_TRUE(d.ok()) << d.error().describe();
    }
  }
}

}  // namespace
}  // namespace remodel
