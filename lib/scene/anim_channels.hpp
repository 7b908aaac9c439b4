// glTF animation channels as the animation lifts and lowers read and write them (KH BBS PAM, J3D BCK):
// sampling a channel as glTF defines it, checking one, finding a node's channels and joints by name,
// and rotations between quaternions and X-then-Y-then-Z angles.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scene/scene.hpp"

namespace remodel::scene {

// The joint frames (joints x frames) one export or import of animations samples over all of them:
// 2^23 take a few seconds; a real PAM holds under a million (one 65,535-frame record on 53 joints 3.5
// million), a J3D sample's BCK at most 29,000 (all 8 of Sunshine Mario's at once 45,269).
constexpr std::size_t kMaxSampledJointFrames = std::size_t{1} << 23;

// A glTF channel's value at `time` (seconds): 1 to 4 components, rotations normalised; LINEAR, STEP
// and CUBICSPLINE as glTF defines them, clamped outside the keys.
std::array<float, 4> sample_channel(const Channel& c, std::size_t comps, float time);

// The channel names a node, its values fit its times and every number is finite, times increasing.
Result<void> check_channel(const Channel& c, std::size_t nodes, const std::string& where);

// The X, Y, Z angles of q nearest `ref`: both Euler solutions, each angle by whole turns.
Vec3 nearest_euler(const Quat& q, Vec3 ref);

// The animation's last key time (0 with no keys).
float last_time(const Animation& a);

// The channel driving each path (translation, rotation, scale) of `node`; null where none does.
std::array<const Channel*, 3> path_channels(const Animation& a, int node);

// The first node named `name`, or -1: glTF channels name the nodes that stand for a format's joints.
int node_named(const Scene& scene, const std::string& name);
// The first material named `name`, or -1: J3D's material animations find their materials by name.
int material_named(const Scene& scene, const std::string& name);

// Node `node`'s KHR_node_visibility `visible`, the bool property a visibility channel drives.
std::string node_visibility_pointer(std::size_t node);
// The node whose `visible` the pointer names, as node_visibility_pointer writes it; none for any other.
std::optional<std::size_t> visibility_pointer_node(std::string_view pointer);

// glTF slerps the short way; successive quaternions on opposite hemispheres would spin the long way:
// each rotation key is flipped to the hemisphere of the one before.
void keep_hemisphere(Channel& c);

// A LINEAR channel keyed at each of `frames` (at `fps`) with the value `at` gives there: a rotation's
// X, Y, Z angles (radians, X applied first) as quaternions, each on the hemisphere of the one before.
Channel sampled_channel(int node, Path path, const std::vector<float>& frames, float fps, const std::function<Vec3(float)>& at);

}  // namespace remodel::scene
