// KH BBS PAM animations -> Scene animations on a PMO's BON joints.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "model/kh_bbs/pam.hpp"
#include "scene/anim_channels.hpp"
#include "scene/lift.hpp"

namespace remodel::scene {

namespace {

const PamDecodedChannel* find_channel(const PamDecodedBone& bone, PamChannelKind kind) {
  for (const PamDecodedChannel& c : bone.channels) {
    if (c.kind == kind) return &c;
  }
  return nullptr;
}

// Three components of one path: the channels the PAM stores, and for the others the bind pose
// (whether a missing channel means the bind value or a default is unresolved; the bind pose keeps
// the skeleton whole).
struct Axes {
  std::array<const PamDecodedChannel*, 3> channel{};
  Vec3 bind;
  bool any() const { return channel[0] != nullptr || channel[1] != nullptr || channel[2] != nullptr; }
  Vec3 at(float frame) const {
    auto v = [&](int i, float fallback) { return channel[static_cast<std::size_t>(i)] != nullptr ? pam_sample(*channel[static_cast<std::size_t>(i)], frame) : fallback; };
    return {v(0, bind.x), v(1, bind.y), v(2, bind.z)};
  }
};

Axes axes(const PamDecodedBone& bone, PamChannelKind first, Vec3 bind) {
  Axes a;
  a.bind = bind;
  for (int i = 0; i < 3; ++i) a.channel[static_cast<std::size_t>(i)] = find_channel(bone, static_cast<PamChannelKind>(static_cast<int>(first) + i));
  return a;
}

// Translation and scale interpolate each axis linearly between keys, as glTF does, so the union of
// the axes' key frames reproduces them exactly.
std::vector<std::uint16_t> key_union(const Axes& a) {
  std::set<std::uint16_t> frames;
  for (const PamDecodedChannel* c : a.channel) {
    if (c != nullptr) frames.insert(c->frames.begin(), c->frames.end());
  }
  return {frames.begin(), frames.end()};
}

// The game interpolates rotation angles, glTF slerps quaternions: a rotation that changes is keyed on
// every frame between its first and last key, so every frame the game shows is exact.
std::vector<std::uint16_t> every_frame(const Axes& a) {
  const std::vector<std::uint16_t> keys = key_union(a);
  if (keys.size() < 2) return keys;
  std::vector<std::uint16_t> out;
  for (std::uint32_t f = keys.front(); f <= keys.back(); ++f) out.push_back(static_cast<std::uint16_t>(f));
  return out;
}

Channel vector_channel(int node, Path path, const Axes& a, const std::vector<std::uint16_t>& frames, float fps) {
  Channel c;
  c.node = node;
  c.path = path;
  c.interpolation = Interpolation::linear;
  for (std::uint16_t f : frames) {
    c.times.push_back(static_cast<float>(f) / fps);
    const Vec3 v = a.at(static_cast<float>(f));
    if (path == Path::rotation) {
      const Quat q = euler_to_quat(v, EulerOrder::xyz);
      c.values.insert(c.values.end(), {q.x, q.y, q.z, q.w});
    } else {
      c.values.insert(c.values.end(), {v.x, v.y, v.z});
    }
  }
  return c;
}

Result<Animation> lift_animation(const PamAnimation& record, const std::string& name, const std::string& where,
                                 const std::vector<int>& joint_nodes, const Scene& scene) {
  if (record.bones.size() != joint_nodes.size()) {
    return Error{ErrorCode::bad_count, std::nullopt, where + ".bones",
                 "the animation drives " + std::to_string(record.bones.size()) + " bones but the skeleton has " +
                     std::to_string(joint_nodes.size()) + " joints"};
  }
  if (record.fps == 0) return Error{ErrorCode::bad_value, std::nullopt, where + ".fps", "an animation of 0 frames per second cannot be timed"};
  auto decoded = decode_pam_animation(record);
  if (!decoded) {
    Error e = decoded.error();
    e.field = where + "." + e.field;
    return e;
  }
  const auto fps = static_cast<float>(record.fps);
  Animation anim;
  anim.name = name;
  anim.extras = {{"flag", record.flag}, {"fps", record.fps}, {"interpolation_frames", record.interpolation_frames},
                 {"loop_from", record.loop_from}, {"loop_to", record.loop_to}, {"frame_count", record.frame_count}};
  if (record.unknown_0x07 != 0) anim.extras["unknown_0x07"] = record.unknown_0x07;
  Extras flags = Extras::array();
  for (const PamBone& b : record.bones) flags.push_back(b.flags());
  anim.extras["channel_flags"] = std::move(flags);
  for (std::size_t b = 0; b < decoded->bones.size(); ++b) {
    const int node = joint_nodes[b];
    const Trs& bind = scene.nodes[static_cast<std::size_t>(node)].local;
    const PamDecodedBone& bone = decoded->bones[b];
    const Axes t = axes(bone, PamChannelKind::translation_x, bind.translation);
    const Axes r = axes(bone, PamChannelKind::rotation_x, euler_xyz_of(bind.rotation));
    const Axes s = axes(bone, PamChannelKind::scale_x, bind.scale);
    if (t.any()) anim.channels.push_back(vector_channel(node, Path::translation, t, key_union(t), fps));
    if (r.any()) {
      anim.channels.push_back(vector_channel(node, Path::rotation, r, every_frame(r), fps));
      keep_hemisphere(anim.channels.back());
    }
    if (s.any()) anim.channels.push_back(vector_channel(node, Path::scale, s, key_union(s), fps));
  }
  return anim;
}

}  // namespace

Result<void> lift_kh_bbs_animations(const LiftInputs& inputs, const std::vector<int>& joint_nodes, Scene& scene) {
  for (std::size_t i = 0; i < inputs.animations.size(); ++i) {
    const std::string where = "animations[" + std::to_string(i) + "]";
    const Document* doc = inputs.animations[i];
    if (doc == nullptr) continue;
    if (const auto* pam = std::get_if<Pam>(doc)) {
      for (std::size_t e = 0; e < pam->entries.size(); ++e) {
        const PamEntry& entry = pam->entries[e];
        if (!entry.animation) continue;  // an empty slot
        const std::string entry_where = where + ".entries[" + std::to_string(e) + "]";
        if (*entry.animation >= pam->animations.size()) {
          return Error{ErrorCode::bad_value, std::nullopt, entry_where, "the entry names animation " + std::to_string(*entry.animation) +
                                                                  " but the PAM has " + std::to_string(pam->animations.size())};
        }
        std::string name = fixed_string(entry.name);
        if (name.empty()) name = "animation" + std::to_string(e);
        auto a = lift_animation(pam->animations[*entry.animation], name, entry_where, joint_nodes, scene);
        if (!a) return a.error();
        a->extras["entry"] = e;
        scene.animations.push_back(std::move(*a));
      }
    } else if (const auto* bare = std::get_if<PamAnimFile>(doc)) {
      auto a = lift_animation(bare->animation, "animation" + std::to_string(i), where, joint_nodes, scene);
      if (!a) return a.error();
      scene.animations.push_back(std::move(*a));
    } else {
      return Error{ErrorCode::unsupported, std::nullopt, where,
                   std::string("a ") + format_name(format_of(*doc)) + " file is not an animation (pass a PAM or a bare PAM record)"};
    }
  }
  return {};
}

}  // namespace remodel::scene
