// glTF animation channels as the animation lifts and lowers read and write them (KH BBS PAM, J3D BCK).
#include "scene/anim_channels.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>

namespace remodel::scene {

namespace {
constexpr float kPi = std::numbers::pi_v<float>;
constexpr std::string_view kNodes = "/nodes/", kVisible = "/extensions/KHR_node_visibility/visible";

// `a` moved by whole turns to lie nearest `ref`.
float nearest_turn(float a, float ref) { return a + 2 * kPi * std::round((ref - a) / (2 * kPi)); }
}  // namespace

// A glTF channel's value at `time` (seconds): 3 or 4 components, rotations normalised.
std::array<float, 4> sample_channel(const Channel& c, std::size_t comps, float time) {
  std::array<float, 4> out{};
  const bool cubic = c.interpolation == Interpolation::cubic_spline;
  const std::size_t stride = cubic ? 3 * comps : comps, offset = cubic ? comps : 0;
  auto value = [&](std::size_t k, std::size_t i) { return c.values[k * stride + offset + i]; };
  const std::size_t n = c.times.size();
  if (time <= c.times.front() || n == 1) {
    for (std::size_t i = 0; i < comps; ++i) out[i] = value(0, i);
  } else if (time >= c.times.back()) {
    for (std::size_t i = 0; i < comps; ++i) out[i] = value(n - 1, i);
  } else {
    const std::size_t k = static_cast<std::size_t>(std::upper_bound(c.times.begin(), c.times.end(), time) - c.times.begin()) - 1;
    const float dt = c.times[k + 1] - c.times[k], u = (time - c.times[k]) / dt;
    if (c.interpolation == Interpolation::step) {
      for (std::size_t i = 0; i < comps; ++i) out[i] = value(k, i);
    } else if (cubic) {
      const float u2 = u * u, u3 = u2 * u;
      for (std::size_t i = 0; i < comps; ++i) {
        const float out_tangent = c.values[k * stride + 2 * comps + i] * dt, in_tangent = c.values[(k + 1) * stride + i] * dt;
        out[i] = (2 * u3 - 3 * u2 + 1) * value(k, i) + (u3 - 2 * u2 + u) * out_tangent + (-2 * u3 + 3 * u2) * value(k + 1, i) +
                 (u3 - u2) * in_tangent;
      }
    } else if (comps == 4 && c.pointer.empty()) {  // a rotation: slerp the short way
      Quat a{value(k, 0), value(k, 1), value(k, 2), value(k, 3)}, b{value(k + 1, 0), value(k + 1, 1), value(k + 1, 2), value(k + 1, 3)};
      float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
      if (d < 0) {
        b = {-b.x, -b.y, -b.z, -b.w};
        d = -d;
      }
      float wa = 1 - u, wb = u;
      if (d < 0.9995f) {
        const float theta = std::acos(std::min(d, 1.0f));
        wa = std::sin((1 - u) * theta) / std::sin(theta);
        wb = std::sin(u * theta) / std::sin(theta);
      }
      out = {wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z, wa * a.w + wb * b.w};
    } else {
      for (std::size_t i = 0; i < comps; ++i) out[i] = value(k, i) + (value(k + 1, i) - value(k, i)) * u;
    }
  }
  if (comps == 4 && c.pointer.empty()) {
    const Quat q = normalize(Quat{out[0], out[1], out[2], out[3]});
    out = {q.x, q.y, q.z, q.w};
  }
  return out;
}

Result<void> check_channel(const Channel& c, std::size_t nodes, const std::string& where) {
  if (!c.pointer.empty()) {
    if (c.pointer_width < 1 || c.pointer_width > 4) return at(where + ".pointer", "a pointer's keys hold 1 to 4 floats, not " + std::to_string(c.pointer_width));
  } else if (c.node < 0 || static_cast<std::size_t>(c.node) >= nodes) {
    return at(where + ".node", "the channel targets node " + std::to_string(c.node) + ", which does not exist");
  }
  const std::size_t comps = value_width(c), per_key = c.interpolation == Interpolation::cubic_spline ? 3 * comps : comps;
  if (c.times.empty() || c.values.size() != c.times.size() * per_key) {
    return at(where, std::to_string(c.times.size()) + " key times need " + std::to_string(c.times.size() * per_key) + " values, the channel has " +
                         std::to_string(c.values.size()), ErrorCode::inconsistent);
  }
  for (std::size_t k = 0; k < c.times.size(); ++k) {
    if (!std::isfinite(c.times[k]) || (k > 0 && !(c.times[k] > c.times[k - 1]))) {
      return at(where + ".times", "key times must be finite and increasing (key " + std::to_string(k) + ")");
    }
  }
  for (float v : c.values) {
    if (!std::isfinite(v)) return at(where + ".values", "a key value is not finite");
  }
  return {};
}

// The X, Y, Z angles of q nearest `ref`: both Euler solutions, each angle by whole turns.
Vec3 nearest_euler(const Quat& q, Vec3 ref) {
  const Vec3 a = euler_xyz_of(q);
  const Vec3 b{a.x + kPi, kPi - a.y, a.z + kPi};
  auto fit = [&](Vec3 e) { return Vec3{nearest_turn(e.x, ref.x), nearest_turn(e.y, ref.y), nearest_turn(e.z, ref.z)}; };
  const Vec3 fa = fit(a), fb = fit(b);
  const Vec3 da = fa - ref, db = fb - ref;
  return dot(da, da) <= dot(db, db) ? fa : fb;
}

// The animation's last key time (0 with no keys).
float last_time(const Animation& a) {
  float t = 0;
  for (const Channel& c : a.channels) t = std::max(t, c.times.empty() ? 0.0f : c.times.back());
  return t;
}

// The channel driving each path (translation, rotation, scale) of `node`; null where none does.
std::array<const Channel*, 3> path_channels(const Animation& a, int node) {
  std::array<const Channel*, 3> out{};
  for (const Channel& c : a.channels) {
    if (c.node == node && node >= 0) out[static_cast<std::size_t>(c.path)] = &c;
  }
  return out;
}

// The first node named `name`, or -1: glTF channels name the nodes that stand for a format's joints.
int node_named(const Scene& scene, const std::string& name) {
  for (std::size_t n = 0; n < scene.nodes.size(); ++n) {
    if (scene.nodes[n].name == name) return static_cast<int>(n);
  }
  return -1;
}

int material_named(const Scene& scene, const std::string& name) {
  for (std::size_t m = 0; m < scene.materials.size(); ++m) {
    if (scene.materials[m].name == name) return static_cast<int>(m);
  }
  return -1;
}

std::string node_visibility_pointer(std::size_t node) { return std::string(kNodes) + std::to_string(node) + std::string(kVisible); }

std::optional<std::size_t> visibility_pointer_node(std::string_view pointer) {
  if (pointer.size() <= kNodes.size() + kVisible.size() || !pointer.starts_with(kNodes) || !pointer.ends_with(kVisible)) return std::nullopt;
  const std::string_view digits = pointer.substr(kNodes.size(), pointer.size() - kNodes.size() - kVisible.size());
  std::size_t node = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), node);
  // One spelling a node: no sign, no leading zero (JSON pointers compare as text).
  if (ec != std::errc{} || end != digits.data() + digits.size() || (digits.size() > 1 && digits[0] == '0')) return std::nullopt;
  return node;
}

void keep_hemisphere(Channel& c) {
  for (std::size_t i = 4; i + 3 < c.values.size(); i += 4) {
    const float d = c.values[i - 4] * c.values[i] + c.values[i - 3] * c.values[i + 1] + c.values[i - 2] * c.values[i + 2] +
                    c.values[i - 1] * c.values[i + 3];
    if (d < 0) {
      for (std::size_t k = 0; k < 4; ++k) c.values[i + k] = -c.values[i + k];
    }
  }
}

Channel sampled_channel(int node, Path path, const std::vector<float>& frames, float fps, const std::function<Vec3(float)>& at) {
  Channel c;
  c.node = node;
  c.path = path;
  c.times.reserve(frames.size());
  c.values.reserve(frames.size() * (path == Path::rotation ? 4 : 3));
  for (float f : frames) {
    c.times.push_back(f / fps);
    const Vec3 v = at(f);
    if (path == Path::rotation) {
      const Quat q = euler_to_quat(v, EulerOrder::xyz);
      c.values.insert(c.values.end(), {q.x, q.y, q.z, q.w});
    } else {
      c.values.insert(c.values.end(), {v.x, v.y, v.z});
    }
  }
  if (path == Path::rotation) keep_hemisphere(c);
  return c;
}

}  // namespace remodel::scene
