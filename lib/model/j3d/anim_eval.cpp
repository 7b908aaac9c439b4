// J3D key evaluation: Hermite keys, loop modes and a BCK or BCA joint's pose at a frame.
#include "model/j3d/anim_eval.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace remodel {

namespace {

template <typename T>
std::vector<J3dKey> keys_of(const J3dAnimTrack<T>& t) {
  std::vector<J3dKey> out;
  if (t.values.empty()) return out;
  if (t.count <= 1 || t.values.size() < j3d_track_length(t.count, t.tangent_mode)) {
    out.push_back({0, static_cast<float>(t.values[0]), 0, 0});
    return out;
  }
  const std::size_t stride = t.tangent_mode == 0 ? 3 : 4;
  out.reserve(t.count);
  for (std::size_t k = 0; k < t.count; ++k) {
    const T* v = &t.values[k * stride];
    const float in = static_cast<float>(v[2]);
    out.push_back({static_cast<float>(v[0]), static_cast<float>(v[1]), in, stride == 4 ? static_cast<float>(v[3]) : in});
  }
  return out;
}

// The key a segment starts at for `frame` inside the keys: the last key whose time is at or before it.
std::size_t segment(std::span<const J3dKey> keys, float frame) {
  const auto after = std::upper_bound(keys.begin(), keys.end(), frame, [](float f, const J3dKey& k) { return f < k.time; });
  return static_cast<std::size_t>(after - keys.begin()) - 1;
}

}  // namespace

std::vector<J3dKey> j3d_keys(const J3dFloatTrack& track) { return keys_of(track); }
std::vector<J3dKey> j3d_keys(const J3dAngleTrack& track) { return keys_of(track); }

float j3d_hermite(const J3dKey& k0, const J3dKey& k1, float frame) {
  const float span = k1.time - k0.time;
  const float s = (frame - k0.time) / span, s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * k0.value + (-2 * s3 + 3 * s2) * k1.value + (s3 - 2 * s2 + s) * k0.out * span +
         (s3 - s2) * k1.in * span;
}

float j3d_sample(std::span<const J3dKey> keys, float frame) {
  if (keys.empty()) return 0;
  if (keys.size() == 1 || !(frame >= keys.front().time)) return keys.front().value;
  if (frame >= keys.back().time) return keys.back().value;
  const std::size_t k = segment(keys, frame);
  return j3d_hermite(keys[k], keys[k + 1], frame);
}

float j3d_slope(std::span<const J3dKey> keys, float frame) {
  if (keys.size() < 2 || !(frame >= keys.front().time) || frame >= keys.back().time) return 0;
  const std::size_t k = segment(keys, frame);
  const J3dKey &k0 = keys[k], &k1 = keys[k + 1];
  const float span = k1.time - k0.time;
  const float s = (frame - k0.time) / span, s2 = s * s;
  // d/ds of the Hermite basis, divided by the span to be per frame.
  return ((6 * s2 - 6 * s) * (k0.value - k1.value)) / span + (3 * s2 - 4 * s + 1) * k0.out + (3 * s2 - 2 * s) * k1.in;
}

float j3d_loop_frame(std::uint8_t loop_mode, float duration, float time) {
  if (!(time > 0)) return 0;
  switch (loop_mode) {
    case 1: return time > duration ? 0 : time;
    case 2: return duration > 0 ? std::fmod(time, duration) : 0;
    case 3:
      if (time <= duration) return time;
      return std::max(0.0f, 2 * duration - time);
    case 4: {
      if (!(duration > 0)) return 0;
      const float t = std::fmod(time, 2 * duration);
      return t <= duration ? t : 2 * duration - t;
    }
    default: return std::min(time, duration);
  }
}

float j3d_angle_unit(std::uint8_t angle_scale) {
  return std::ldexp(std::numbers::pi_v<float>, std::min<int>(angle_scale, 64)) / 32768.0f;
}

J3dJointPose j3d_joint_pose(const J3dJointAnim& joint, std::uint8_t angle_scale, float frame) {
  J3dJointPose p;
  const float unit = j3d_angle_unit(angle_scale);
  for (std::size_t i = 0; i < 3; ++i) {
    p.scale[i] = j3d_sample(j3d_keys(joint.scale[i]), frame);
    p.rotation[i] = j3d_sample(j3d_keys(joint.rotation[i]), frame) * unit;
    p.translation[i] = j3d_sample(j3d_keys(joint.translation[i]), frame);
  }
  return p;
}

J3dJointPose j3d_joint_pose(const J3dFullFrameJoint& joint, float frame) {
  J3dJointPose p;
  const float unit = j3d_angle_unit(0);
  for (std::size_t i = 0; i < 3; ++i) {
    p.scale[i] = j3d_frame_value(joint.scale[i], frame);
    p.rotation[i] = j3d_frame_value(joint.rotation[i], frame) * unit;
    p.translation[i] = j3d_frame_value(joint.translation[i], frame);
  }
  return p;
}

std::array<float, 16> j3d_pose_matrix(const J3dJointPose& pose) {
  const float cx = std::cos(pose.rotation[0]), sx = std::sin(pose.rotation[0]);
  const float cy = std::cos(pose.rotation[1]), sy = std::sin(pose.rotation[1]);
  const float cz = std::cos(pose.rotation[2]), sz = std::sin(pose.rotation[2]);
  // R = Rz * Ry * Rx, columns scaled by S, translation in the last column.
  const float r[3][3] = {{cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx},
                         {sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx},
                         {-sy, cy * sx, cy * cx}};
  std::array<float, 16> m{};
  for (std::size_t c = 0; c < 3; ++c) {
    for (std::size_t row = 0; row < 3; ++row) m[c * 4 + row] = r[row][c] * pose.scale[c];
  }
  m[12] = pose.translation[0];
  m[13] = pose.translation[1];
  m[14] = pose.translation[2];
  m[15] = 1;
  return m;
}

J3dTexSrt j3d_texture_srt(const J3dJointAnim& keys, std::uint8_t angle_scale, float frame) {
  return {j3d_sample(j3d_keys(keys.scale[0]), frame), j3d_sample(j3d_keys(keys.scale[1]), frame),
          j3d_sample(j3d_keys(keys.rotation[2]), frame) * j3d_angle_unit(angle_scale), j3d_sample(j3d_keys(keys.translation[0]), frame),
          j3d_sample(j3d_keys(keys.translation[1]), frame)};
}

std::array<float, 6> j3d_texture_matrix(const J3dTexSrt& srt, std::array<float, 2> centre, bool maya) {
  const float s = std::sin(srt.rotation), c = std::cos(srt.rotation);
  if (maya) {
    const float tx = srt.translation_s - 0.5f, ty = srt.translation_t - 0.5f;
    return {srt.scale_s * c, srt.scale_t * s, tx * c - s * (ty + srt.scale_t) + 0.5f,
            -srt.scale_s * s, srt.scale_t * c, -tx * s - c * (ty + srt.scale_t) + 0.5f};
  }
  const float cx = srt.scale_s * c, sx = srt.scale_s * s, sy = srt.scale_t * s, cy = srt.scale_t * c;
  return {cx, -sx, -cx * centre[0] + sx * centre[1] + centre[0] + srt.translation_s,
          sy, cy, -sy * centre[0] - cy * centre[1] + centre[1] + srt.translation_t};
}

}  // namespace remodel
