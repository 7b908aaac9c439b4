// Scene animations -> KH BBS PAM over a base PAM (or bare record), on the BON of LowerInputs::skeleton.
// Each glTF channel is sampled at the PAM's frames (LINEAR, STEP and CUBICSPLINE as glTF defines
// them), with the turns Blender gave the joints taken off (bone_turns.hpp), rotations turned back into
// X-then-Y-then-Z angles nearest the stored ones; a channel whose samples all lie within the stored
// channel's quantisation (and Blender's noise, where the joints came back turned) keeps its bytes,
// another is re-quantised between its own min and max (constant: one key; else every frame or
// sparse keys, the smaller).
// A new PAM authored from the Scene alone (author_kh_bbs_pam) shares the sampler and channel encoder.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "model/kh_bbs/pam.hpp"
#include "scene/anim_channels.hpp"
#include "scene/bone_turns.hpp"
#include "scene/kh_bbs/lower.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"

namespace remodel::scene {

namespace {

// A time for a message: "2.5", "3.40282e+38" (std::to_string prints a huge float's 39 digits).
std::string seconds(float t) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(t));
  return text;
}

// A channel of `values` (one per frame) as the PAM stores it, re-chosen: one constant key when every
// value is within `tolerance` of the first, else keys quantised between min and max, on every frame
// or sparse (only the frames linear interpolation cannot rebuild within one step), whichever is smaller.
PamChannel encode_channel(const std::vector<float>& values, float tolerance, bool wide) {
  PamChannel c;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (*hi - *lo <= tolerance) {
    c.constant = true;
    c.min = c.max = values.front();
    return c;
  }
  c.min = *lo;
  c.max = *hi;
  std::vector<std::uint16_t> q(values.size());
  for (std::size_t f = 0; f < values.size(); ++f) {
    q[f] = static_cast<std::uint16_t>(std::lround(std::clamp((values[f] - c.min) / (c.max - c.min), 0.0f, 1.0f) * 65535.0f));
  }
  std::vector<std::size_t> sparse{0};
  for (std::size_t f = 1; f < q.size(); ++f) {
    // Can the last kept key reach frame f + 1 with every frame between within one step?
    const std::size_t from = sparse.back();
    bool reach = f + 1 < q.size();
    for (std::size_t m = from + 1; m <= f && reach; ++m) {
      const double lerp = q[from] + (static_cast<double>(q[f + 1]) - q[from]) * static_cast<double>(m - from) / static_cast<double>(f + 1 - from);
      reach = std::abs(lerp - q[m]) <= 1.0;
    }
    if (!reach) sparse.push_back(f);
  }
  const std::size_t count_size = wide ? 2 : 1;
  const bool every = sparse.size() * (2 + count_size) >= q.size() * 2;
  if (every) {
    for (std::size_t f = 0; f < q.size(); ++f) c.keys.push_back({static_cast<std::uint16_t>(f), q[f]});
  } else {
    for (std::size_t f : sparse) c.keys.push_back({static_cast<std::uint16_t>(f), q[f]});
  }
  return c;
}

struct AnimationEdit {
  const Scene& lifted;
  const std::vector<int>& lifted_joints;  // BON joint -> lifted node
  const Scene& in;
  const std::vector<int>& joints;         // BON joint -> incoming node (-1: none)
  const std::vector<JointTurn>& turns;    // BON joint -> Blender's turns on its node and its parent's
  const PoseNoise& noise;
};

// The channels of `ia` written over `record` (a copy of the base's); `la` is the base as lifted.
Result<void> lower_animation(const AnimationEdit& e, const Animation& la, const Animation& ia, const PamAnimation& base,
                                     PamAnimation& record, const std::string& where) {
  for (std::size_t c = 0; c < ia.channels.size(); ++c) {
    if (auto err = check_channel(ia.channels[c], e.in.nodes.size(), where + ".channels[" + std::to_string(c) + "]"); !err) return err.error();
  }
  const float fps = static_cast<float>(base.fps);
  // Retimed: the incoming end moved by whole frames moves the frame count by as many.
  // In double and range-checked before rounding: a time near the float maximum is no frame count.
  const double shifted = std::round((static_cast<double>(last_time(ia)) - last_time(la)) * fps) + base.frame_count;
  if (!(shifted >= 1 && shifted <= 0xFFFF)) {
    return at(where, "the animation ends at " + seconds(last_time(ia)) + " s, which at " + std::to_string(base.fps) +
                         " fps is outside the 1 to 65535 frames a PAM holds", ErrorCode::unsupported);
  }
  const long frames = static_cast<long>(shifted);
  const long shift = frames - static_cast<long>(base.frame_count);
  record.frame_count = static_cast<std::uint16_t>(frames);
  const bool retimed = shift != 0;
  auto decoded = decode_pam_animation(base);
  if (!decoded) return decoded.error();
  std::vector<float> frame_numbers(static_cast<std::size_t>(frames));
  for (std::size_t f = 0; f < frame_numbers.size(); ++f) frame_numbers[f] = static_cast<float>(f);

  for (std::size_t b = 0; b < base.bones.size(); ++b) {
    const int node = e.joints[b];
    const Node& bind = e.lifted.nodes[static_cast<std::size_t>(e.lifted_joints[b])];
    const Trs& rest = node >= 0 ? e.in.nodes[static_cast<std::size_t>(node)].local : bind.local;
    const std::array<const Channel*, 3> path_channel = path_channels(ia, node);
    const std::vector<Trs> poses = IncomingJointPose{path_channel, rest, e.turns[b], fps}.at(frame_numbers);
    const Vec3 bind_values[3] = {bind.local.translation, euler_xyz_of(bind.local.rotation), bind.local.scale};
    for (std::size_t p = 0; p < 3; ++p) {
      // Per frame, the three axes of this path as the incoming Scene has them.
      std::vector<Vec3> per_frame(static_cast<std::size_t>(frames));
      std::array<const PamDecodedChannel*, 3> stored{};
      for (const PamDecodedChannel& dc : decoded->bones[b].channels) {
        const std::size_t k = static_cast<std::size_t>(dc.kind);
        if (k / 3 == p) stored[k % 3] = &dc;
      }
      // Per frame, the three axes the PAM stores (else the bind pose's), as the game samples them.
      std::vector<Vec3> stored_values(per_frame.size(), bind_values[p]);
      for (std::size_t f = 0; f < stored_values.size(); ++f) {
        for (std::size_t i = 0; i < 3; ++i) {
          if (stored[i] != nullptr) (i == 0 ? stored_values[f].x : i == 1 ? stored_values[f].y : stored_values[f].z) = pam_sample(*stored[i], static_cast<float>(f));
        }
      }
      Vec3 previous = bind_values[p];
      for (std::size_t f = 0; f < per_frame.size(); ++f) {
        if (p == 1) {
          Vec3 ref = previous;  // the stored angles where the PAM has them, else the frame before
          for (std::size_t i = 0; i < 3; ++i) {
            if (stored[i] != nullptr && !retimed) (i == 0 ? ref.x : i == 1 ? ref.y : ref.z) = stored_values[f][i];
          }
          per_frame[f] = previous = nearest_euler(poses[f].rotation, ref);
        } else {
          per_frame[f] = p == 0 ? poses[f].translation : poses[f].scale;
        }
      }
      if (p == 1 && !retimed) {
        // Rotations compare as rotations: near gimbal lock (Y at +-90 degrees) X and Z are not
        // separable, so the stored angles stay when every frame turns the same way within 1e-3 rad.
        bool same = true;
        for (std::size_t f = 0; f < poses.size() && same; ++f) {
          same = rotation_angle(euler_to_quat(stored_values[f], EulerOrder::xyz), poses[f].rotation) <= std::max(1e-3, e.noise.rotation());
        }
        if (same) continue;
      }
      for (std::size_t i = 0; i < 3; ++i) {
        std::optional<PamChannel>& out = record.bones[b].channels[p * 3 + i];
        const std::optional<PamChannel>& was = base.bones[b].channels[p * 3 + i];
        std::vector<float> values(per_frame.size());
        for (std::size_t f = 0; f < values.size(); ++f) values[f] = per_frame[f][i];
        // The stored quantisation is the tolerance, widened by the float error of the Euler round trip.
        const float step = was ? (was->max - was->min) / 65535.0f : 0.0f;
        float tolerance = std::max(step, 1e-5f);
        for (float v : values) tolerance = std::max(tolerance, 1e-5f * std::abs(v));
        // Blender's noise on this path at a frame, where the joints came back turned (else 0).
        const auto blender = [&](std::size_t f) {
          return p == 0 ? e.noise.translation(stored_values[f]) : p == 1 ? static_cast<float>(e.noise.rotation()) : e.noise.scale(stored_values[f][i]);
        };
        bool same = !retimed;
        for (std::size_t f = 0; f < values.size() && same; ++f) same = std::abs(values[f] - stored_values[f][i]) <= tolerance + blender(f);
        if (same) continue;
        if (!was && !retimed) {
          // A channel the PAM did not store, now moving away from the bind value: added.
          out = encode_channel(values, tolerance, record.wide());
        } else if (!was) {
          bool bind_only = true;
          for (std::size_t f = 0; f < values.size(); ++f) bind_only = bind_only && std::abs(values[f] - bind_values[p][i]) <= tolerance + blender(f);
          if (!bind_only) out = encode_channel(values, tolerance, record.wide());
        } else {
          out = encode_channel(values, std::max(1e-5f, 1e-5f * std::max(std::abs(was->min), std::abs(was->max))), record.wide());
        }
      }
    }
  }
  return {};
}

// The PMO whose BON a PAM animates (--skeleton): absent, or given without a BON, in the user's words.
Result<const PmoFile*> skeleton_pmo(const LowerInputs& inputs) {
  if (inputs.skeleton == nullptr) {
    return at("skeleton", "a PAM names no joints itself: pass the PMO whose BON it animates with --skeleton", ErrorCode::unsupported);
  }
  const PmoFile* pmo = std::get_if<PmoFile>(inputs.skeleton);
  if (pmo == nullptr || !pmo->pmo.skeleton) {
    return at("skeleton", std::string("the --skeleton file is a ") + format_name(format_of(*inputs.skeleton)) +
                              (pmo ? " without a BON skeleton" : "") + "; a PAM animates the joints of a KH BBS PMO's BON",
              ErrorCode::unsupported);
  }
  return pmo;
}

// Lowers the Scene's animations over the records of `base` (a Pam or a PamAnimFile held in `out`), on
// the BON of the --skeleton PMO, else on the one the glTF's first skin names (as exported from the PMO).
Result<Lowered> lower_pam(const Scene& scene, const Document& base, const LowerInputs& inputs) {
  const PmoFile* pmo = nullptr;
  PmoFile from_skin;
  std::vector<Warning> bon_warnings;  // a joint name cut to the BON's 16 bytes, or two alike
  if (inputs.skeleton != nullptr) {
    auto given = skeleton_pmo(inputs);
    if (!given) return given.error();
    pmo = *given;
  } else if (!scene.skins.empty()) {
    std::vector<int> bon_of;
    auto bon = kh_bbs::author_bon(scene, 0, world_matrices(scene), bon_of, bon_warnings);
    if (!bon) return bon.error();
    from_skin.pmo.skeleton = std::move(*bon);
    pmo = &from_skin;
  } else {
    return at("skeleton", "a PAM names no joints itself and the glTF has no skin naming them: pass the PMO whose BON it animates with --skeleton",
              ErrorCode::unsupported);
  }
  LiftInputs li;
  li.animations.push_back(&base);
  auto lifted = lift_kh_bbs_pmo(*pmo, li);
  if (!lifted) return lifted.error();
  const Skin& skin = lifted->skins[0];
  const std::vector<int>& lifted_joints = skin.joints;
  // Joints by node name (BON names), as glTF channels name nodes.
  std::vector<int> joints(lifted_joints.size(), -1);
  std::size_t found = 0;
  for (std::size_t b = 0; b < lifted_joints.size(); ++b) {
    joints[b] = node_named(scene, lifted->nodes[static_cast<std::size_t>(lifted_joints[b])].name);
    found += joints[b] >= 0 ? 1 : 0;
  }
  Lowered out{base, std::move(bon_warnings)};
  if (found < lifted_joints.size()) {
    out.warnings.push_back({"nodes", std::to_string(lifted_joints.size() - found) + " BON joints have no node of their name: their channels keep the bind pose"});
  }
  // Blender's turns on the incoming joints, found against the BON's bind pose, and the noise they bring.
  std::vector<Trs> bind(lifted_joints.size());
  for (std::size_t b = 0; b < bind.size(); ++b) bind[b] = lifted->nodes[static_cast<std::size_t>(lifted_joints[b])].local;
  const std::vector<JointTurn> turns = joint_turns(scene, joints, bind);
  const PoseNoise noise = pose_noise(scene, joints, turns);
  const AnimationEdit edit{*lifted, lifted_joints, scene, joints, turns, noise};
  // Incoming animation per lifted one: by the lift's `entry` extras, else name, else order.
  std::vector<int> incoming_of(lifted->animations.size(), -1);
  for (std::size_t l = 0; l < lifted->animations.size(); ++l) {
    const Animation& la = lifted->animations[l];
    for (std::size_t a = 0; a < scene.animations.size() && incoming_of[l] < 0; ++a) {
      const Extras& x = scene.animations[a].extras;
      const bool by_entry = x.is_object() && x.contains("entry") && la.extras.contains("entry") && x["entry"] == la.extras["entry"];
      if (by_entry || scene.animations[a].name == la.name) incoming_of[l] = static_cast<int>(a);
    }
  }
  if (std::count(incoming_of.begin(), incoming_of.end(), -1) != 0 && scene.animations.size() == lifted->animations.size()) {
    for (std::size_t l = 0; l < incoming_of.size(); ++l) incoming_of[l] = static_cast<int>(l);
    out.warnings.push_back({"animations", "animations matched to the PAM's by order: their names and extras did not identify them"});
  }
  for (std::size_t l = 0; l < lifted->animations.size(); ++l) {
    const Animation& la = lifted->animations[l];
    if (incoming_of[l] < 0) {
      out.warnings.push_back({"animations", "no incoming animation stands for \"" + la.name + "\": its record is kept"});
      continue;
    }
    const Animation& ia = scene.animations[static_cast<std::size_t>(incoming_of[l])];
    const std::string where = "animations[" + std::to_string(incoming_of[l]) + "]";
    if (auto* pam = std::get_if<Pam>(&out.document)) {
      const std::size_t entry = la.extras["entry"].get<std::size_t>();
      const std::size_t record = *pam->entries[entry].animation;
      if (auto e = lower_animation(edit, la, ia, std::get<Pam>(base).animations[record], pam->animations[record], where); !e) return e.error();
      if (ia.name != la.name) {
        std::array<std::uint8_t, 12>& name = pam->entries[entry].name;
        if (ia.name.size() > name.size()) {
          return at(where + ".name", "the name \"" + ia.name + "\" has " + std::to_string(ia.name.size()) + " bytes but a PAM entry holds 12", ErrorCode::unsupported);
        }
        name.fill(0);
        std::memcpy(name.data(), ia.name.data(), ia.name.size());
      }
    } else if (auto* bare = std::get_if<PamAnimFile>(&out.document)) {
      if (auto e = lower_animation(edit, la, ia, std::get<PamAnimFile>(base).animation, bare->animation, where); !e) return e.error();
    }
  }
  for (std::size_t a = 0; a < scene.animations.size(); ++a) {
    if (std::find(incoming_of.begin(), incoming_of.end(), static_cast<int>(a)) == incoming_of.end()) {
      out.warnings.push_back({"animations[" + std::to_string(a) + "]", "the animation stands for no PAM record and is not stored (records cannot be added)"});
    }
  }
  return out;
}

// The frames of `a`'s new record, after checking its channels.
Result<std::uint16_t> record_frames(const Animation& a, const Scene& scene, const std::string& where) {
  for (std::size_t c = 0; c < a.channels.size(); ++c) {
    if (auto err = check_channel(a.channels[c], scene.nodes.size(), where + ".channels[" + std::to_string(c) + "]"); !err) return err.error();
  }
  const float end = last_time(a);
  const double frames = std::round(static_cast<double>(end) * PamAnimation{}.fps) + 1;
  if (!(frames >= 1 && frames <= 0xFFFF)) {
    return at(where, "the animation lasts " + seconds(end) + " s; a PAM holds 1 to 65535 frames at 30 fps (at most 2184.5 s)",
              ErrorCode::unsupported);
  }
  return static_cast<std::uint16_t>(frames);
}

// One new record of `frame_count` frames (record_frames): every BON joint's translation and rotation
// (constant channels collapsed to one key), scale only where it leaves 1, sampled at every frame from
// the joint's node (by name); a joint with no node holds its bind pose.
Result<PamAnimation> author_animation(const Animation& a, const Scene& scene, const std::vector<int>& joints,
                                      const std::vector<Trs>& bind, std::uint16_t frame_count, const std::string& where) {
  PamAnimation record;
  record.frame_count = frame_count;
  record.loop_from = static_cast<std::uint16_t>(record.frame_count - 1);  // as both samples: loop the whole animation
  record.bones.resize(joints.size());
  for (std::size_t b = 0; b < joints.size(); ++b) {
    const int node = joints[b];
    const Trs rest = node >= 0 ? scene.nodes[static_cast<std::size_t>(node)].local : bind[b];
    const std::array<const Channel*, 3> path_channel = path_channels(a, node);
    Vec3 previous = euler_xyz_of(normalize(rest.rotation));
    for (std::size_t p = 0; p < 3; ++p) {
      std::vector<Vec3> per_frame(record.frame_count);
      for (std::size_t f = 0; f < per_frame.size(); ++f) {
        const float t = static_cast<float>(f) / static_cast<float>(record.fps);
        if (p == 1) {
          Quat q = rest.rotation;
          if (path_channel[1] != nullptr) {
            const auto v = sample_channel(*path_channel[1], 4, t);
            q = {v[0], v[1], v[2], v[3]};
          }
          per_frame[f] = previous = nearest_euler(normalize(q), previous);
        } else if (path_channel[p] != nullptr) {
          const auto v = sample_channel(*path_channel[p], 3, t);
          per_frame[f] = {v[0], v[1], v[2]};
        } else {
          per_frame[f] = p == 0 ? rest.translation : rest.scale;
        }
      }
      for (std::size_t i = 0; i < 3; ++i) {
        std::vector<float> values(per_frame.size());
        float tolerance = 1e-5f;  // the float round trip of the Euler conversion
        for (std::size_t f = 0; f < values.size(); ++f) {
          values[f] = per_frame[f][i];
          if (!std::isfinite(values[f])) return at(where, "joint " + std::to_string(b) + " has a non-finite sampled value");
          tolerance = std::max(tolerance, 1e-5f * std::abs(values[f]));
        }
        if (p == 2 && std::all_of(values.begin(), values.end(), [&](float v) { return std::abs(v - 1.0f) <= tolerance; })) continue;
        record.bones[b].channels[p * 3 + i] = encode_channel(values, tolerance, record.wide());
      }
    }
  }
  return record;
}

}  // namespace

Result<Lowered> author_kh_bbs_pam(const Scene& scene, const LowerInputs& inputs) {
  auto given = skeleton_pmo(inputs);
  if (!given) return given.error();
  const PmoFile* pmo = *given;
  if (scene.animations.empty()) return at("animations", "the glTF has no animations to store in a PAM", ErrorCode::unsupported);
  const std::vector<BonJoint>& bon = pmo->pmo.skeleton->joints;
  if (bon.size() > 255) return at("skeleton", "the BON has " + std::to_string(bon.size()) + " joints; a PAM record holds 255", ErrorCode::unsupported);
  // Joints in the BON's order, by node name (glTF channels name nodes).
  Lowered out{Document{Pam{}}, {}};
  std::vector<int> joints(bon.size(), -1);
  std::vector<Trs> bind(bon.size());
  std::string missing;
  std::size_t missing_count = 0;
  for (std::size_t b = 0; b < bon.size(); ++b) {
    bind[b] = decompose(Mat4::from_row_vector(bon[b].local));
    const std::string name = fixed_string(bon[b].name);
    joints[b] = node_named(scene, name);
    if (joints[b] < 0 && ++missing_count <= 8) missing += (missing.empty() ? "\"" : ", \"") + name + "\"";
  }
  if (missing_count == bon.size()) {
    return at("nodes", "no node is named as a joint of the skeleton's BON (joints are found by name): the animations drive nothing",
              ErrorCode::unsupported);
  }
  if (missing_count != 0) {
    out.warnings.push_back({"nodes", std::to_string(missing_count) + " BON joints have no node of their name and hold their bind pose: " + missing +
                                         (missing_count > 8 ? "..." : "")});
  }
  Pam& pam = std::get<Pam>(out.document);
  // Every record's frames first: the joint frames sampled are capped before any is sampled.
  std::vector<std::uint16_t> frames(scene.animations.size());
  std::size_t sampled = 0;
  for (std::size_t a = 0; a < scene.animations.size(); ++a) {
    const std::string where = "animations[" + std::to_string(a) + "]";
    auto count = record_frames(scene.animations[a], scene, where);
    if (!count) return count.error();
    frames[a] = *count;
    sampled += std::size_t{*count} * joints.size();
    if (sampled > kMaxSampledJointFrames) {
      return at(where, "brings the frames sampled for the PAM's joints to " + std::to_string(sampled) + " (frames x " + std::to_string(joints.size()) +
                           " BON joints, over the animations so far); one import samples at most " + std::to_string(kMaxSampledJointFrames),
                ErrorCode::unsupported);
    }
  }
  for (std::size_t a = 0; a < scene.animations.size(); ++a) {
    const std::string where = "animations[" + std::to_string(a) + "]";
    auto record = author_animation(scene.animations[a], scene, joints, bind, frames[a], where);
    if (!record) return record.error();
    PamEntry entry;
    entry.animation = static_cast<std::uint16_t>(pam.animations.size());
    std::string name = scene.animations[a].name.empty() ? "anim" + std::to_string(a) : scene.animations[a].name;
    if (name.size() > entry.name.size()) {
      out.warnings.push_back({where + ".name", "the name \"" + name + "\" is cut to 12 bytes (a PAM entry holds 12)"});
      name.resize(entry.name.size());
    }
    std::memcpy(entry.name.data(), name.data(), name.size());
    pam.entries.push_back(entry);
    pam.animations.push_back(std::move(*record));
  }
  return out;
}

Result<Lowered> lower_kh_bbs_pam(const Scene& scene, const Pam& base, const LowerInputs& inputs) {
  return lower_pam(scene, Document{base}, inputs);
}

Result<Lowered> lower_kh_bbs_pam_anim(const Scene& scene, const PamAnimFile& base, const LowerInputs& inputs) {
  return lower_pam(scene, Document{base}, inputs);
}

}  // namespace remodel::scene
