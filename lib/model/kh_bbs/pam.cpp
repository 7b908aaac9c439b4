#include "model/kh_bbs/pam.hpp"
#include <algorithm>

#include <string>

namespace remodel {

const char* pam_channel_name(PamChannelKind kind) {
  static const char* const names[kPamChannelKinds] = {
      "translation_x", "translation_y", "translation_z", "rotation_x", "rotation_y",
      "rotation_z",    "scale_x",       "scale_y",       "scale_z"};
  const auto i = static_cast<std::size_t>(kind);
  return i < kPamChannelKinds ? names[i] : "unknown";
}

std::uint16_t PamBone::flags() const {
  std::uint16_t f = 0;
  for (std::size_t i = 0; i < kPamChannelKinds; ++i) {
    if (channels[i]) f = static_cast<std::uint16_t>(f | (1u << i));
  }
  return f;
}

std::size_t pam_animation_size(const PamAnimation& a) {
  const std::size_t count_size = a.wide() ? 2 : 1;
  std::size_t size = 12 + 2 * a.bones.size();
  for (const PamBone& b : a.bones) {
    for (const auto& c : b.channels) {
      if (!c) continue;
      size += 8 + count_size;
      if (c->constant) continue;
      const bool every_frame = c->keys.size() == a.frame_count;
      size += c->keys.size() * (every_frame ? 2 : 2 + count_size);
    }
  }
  return size;
}

bool looks_like_pam_anim(ByteSpan b) {
  if (b.size() < 12) return false;
  const std::size_t bones = b[6];
  const std::size_t frames = b[8] | (b[9] << 8);
  if (b[2] != 30 || b[7] != 0 || bones == 0 || frames == 0) return false;
  if (b.size() < 12 + 2 * bones) return false;
  for (std::size_t i = 0; i < bones; ++i) {
    if (b[12 + 2 * i + 1] & 0xFE) return false;  // only bits 0-8 of each bone's flags are used
  }
  return true;
}

float pam_dequantise(float min, float max, std::uint16_t q) {
  return min + (max - min) * (static_cast<float>(q) / 65535.0f);
}

Result<PamDecodedAnimation> decode_pam_animation(const PamAnimation& a) {
  PamDecodedAnimation out;
  out.fps = a.fps;
  out.frame_count = a.frame_count;
  out.bones.reserve(a.bones.size());
  for (std::size_t bi = 0; bi < a.bones.size(); ++bi) {
    PamDecodedBone bone;
    for (std::size_t ci = 0; ci < kPamChannelKinds; ++ci) {
      const auto& c = a.bones[bi].channels[ci];
      if (!c) continue;
      PamDecodedChannel d;
      d.kind = static_cast<PamChannelKind>(ci);
      const std::string field = "bone[" + std::to_string(bi) + "]." + pam_channel_name(d.kind);
      if (c->constant) {
        d.frames.push_back(0);
        d.values.push_back(c->min);
      } else {
        d.frames.reserve(c->keys.size());
        d.values.reserve(c->keys.size());
        for (std::size_t k = 0; k < c->keys.size(); ++k) {
          const PamKey& key = c->keys[k];
          if (key.frame >= a.frame_count) {
            return Error{ErrorCode::bad_value, std::nullopt, field + ".key[" + std::to_string(k) + "]",
                         "frame " + std::to_string(key.frame) + " is past the animation's " +
                             std::to_string(a.frame_count) + " frames"};
          }
          if (!d.frames.empty() && key.frame <= d.frames.back()) {
            return Error{ErrorCode::bad_value, std::nullopt, field + ".key[" + std::to_string(k) + "]",
                         "frame ids must increase, but frame " + std::to_string(key.frame) + " follows frame " +
                             std::to_string(d.frames.back())};
          }
          d.frames.push_back(key.frame);
          d.values.push_back(pam_dequantise(c->min, c->max, key.value));
        }
      }
      bone.channels.push_back(std::move(d));
    }
    out.bones.push_back(std::move(bone));
  }
  return out;
}

float pam_sample(const PamDecodedChannel& c, float frame) {
  if (c.values.empty()) return 0.0f;
  if (frame <= static_cast<float>(c.frames.front())) return c.values.front();
  if (!(frame <= static_cast<float>(c.frames.back()))) return c.values.back();  // also NaN
  // The first key at or after `frame`, by binary search: sampling every frame stays linear in the keys.
  const auto at = std::lower_bound(c.frames.begin() + 1, c.frames.end(), frame,
                                   [](std::uint16_t f, float x) { return static_cast<float>(f) < x; });
  const auto i = static_cast<std::size_t>(at - c.frames.begin());
  const auto f0 = static_cast<float>(c.frames[i - 1]), f1 = static_cast<float>(c.frames[i]);
  const float t = (frame - f0) / (f1 - f0);
  return c.values[i - 1] + (c.values[i] - c.values[i - 1]) * t;
}

namespace {

void add_animation_info(const PamAnimation& a, DocumentInfo& info) {
  info.animations += 1;
  info.joints = std::max(info.joints, a.bones.size());
  info.frames = std::max<std::size_t>(info.frames, a.frame_count);
}

}  // namespace

void add_info(const Pam& pam, DocumentInfo& info) {
  for (const PamAnimation& a : pam.animations) add_animation_info(a, info);
}

void add_info(const PamAnimFile& file, DocumentInfo& info) {
  add_animation_info(file.animation, info);
}

}  // namespace remodel
