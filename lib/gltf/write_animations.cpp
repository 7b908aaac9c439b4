// Scene animations -> glTF animations: node transforms by their paths, other properties by
// KHR_animation_pointer (a bool, KHR_node_visibility's visible, as unsigned bytes with STEP), and
// which nodes a visibility channel drives (each then states KHR_node_visibility).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <utility>

#include "gltf/names.hpp"
#include "gltf/writer.hpp"
#include "scene/anim_channels.hpp"

namespace remodel::gltf::detail {

namespace {

const char* path_name(scene::Path p) {
  switch (p) {
    case scene::Path::rotation: return "rotation";
    case scene::Path::scale: return "scale";
    case scene::Path::translation: break;
  }
  return "translation";
}

const char* interpolation_name(scene::Interpolation i) {
  switch (i) {
    case scene::Interpolation::step: return "STEP";
    case scene::Interpolation::cubic_spline: return "CUBICSPLINE";
    case scene::Interpolation::linear: break;
  }
  return "LINEAR";
}

}  // namespace

Result<std::vector<bool>> Writer::visibility_driven() {
  std::vector<bool> driven(s_.nodes.size(), false);
  for (std::size_t a = 0; a < s_.animations.size(); ++a) {
    for (std::size_t c = 0; c < s_.animations[a].channels.size(); ++c) {
      const scene::Channel& ch = s_.animations[a].channels[c];
      const std::string at = "animations[" + std::to_string(a) + "].channels[" + std::to_string(c) + "]";
      const std::optional<std::size_t> node = scene::visibility_pointer_node(ch.pointer);
      if (!ch.boolean) {
        if (node) return bad(at + ".boolean", "is not set, but its pointer names a bool (KHR_node_visibility's visible)");
        continue;
      }
      if (!node || *node >= s_.nodes.size()) {
        return bad(at + ".pointer", "is \"" + ch.pointer + "\", not a node's KHR_node_visibility visible (the one bool property written)");
      }
      driven[*node] = true;
    }
  }
  return driven;
}

Result<void> Writer::animations(json& out) {
  for (std::size_t a = 0; a < s_.animations.size(); ++a) {
    const scene::Animation& anim = s_.animations[a];
    const std::string where = "animations[" + std::to_string(a) + "]";
    if (anim.channels.empty()) return bad(where, "has no channels; a glTF animation needs at least one");
    json channels = json::array(), samplers = json::array();
    std::vector<std::pair<int, scene::Path>> targets;
    std::set<std::string> pointers;
    const std::vector<float>* last_times = nullptr;
    int last_input = -1;
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
      const scene::Channel& ch = anim.channels[c];
      const std::string at = where + ".channels[" + std::to_string(c) + "]";
      const bool pointer = !ch.pointer.empty();
      if (pointer) {
        if (ch.pointer_width < 1 || ch.pointer_width > 4) return bad(at + ".pointer_width", "is not 1 to 4 floats a key");
        if (ch.boolean && (ch.pointer_width != 1 || ch.interpolation != scene::Interpolation::step)) {
          return bad(at + ".interpolation", "is not STEP over one value a key; KHR_animation_pointer animates a bool only so");
        }
        if (!pointers.insert(ch.pointer).second) return bad(at + ".pointer", "animates " + ch.pointer + " a second time");
      } else {
        if (ch.node < 0 || static_cast<std::size_t>(ch.node) >= s_.nodes.size()) return bad(at + ".node", "is not a node");
        if (std::find(targets.begin(), targets.end(), std::pair{ch.node, ch.path}) != targets.end()) {
          return bad(at, std::string("animates node ") + std::to_string(ch.node) + "'s " + path_name(ch.path) + " a second time");
        }
        targets.emplace_back(ch.node, ch.path);
      }
      if (ch.times.empty()) return bad(at + ".times", "is empty");
      for (std::size_t i = 0; i < ch.times.size(); ++i) {
        if (!std::isfinite(ch.times[i]) || ch.times[i] < 0 || (i > 0 && !(ch.times[i] > ch.times[i - 1]))) {
          return bad(at + ".times[" + std::to_string(i) + "]", "is not a finite time after the one before it (and at least 0)");
        }
      }
      const std::size_t width = scene::value_width(ch);
      const std::size_t per_key = ch.interpolation == scene::Interpolation::cubic_spline ? 3 : 1;
      if (ch.values.size() != ch.times.size() * width * per_key) {
        return bad(at + ".values", "has " + std::to_string(ch.values.size()) + " floats for " + std::to_string(ch.times.size()) +
                                       " keys of " + std::to_string(width * per_key));
      }
      for (float v : ch.values) if (!std::isfinite(v)) return bad(at + ".values", "has a value that is not a finite number");
      if (ch.boolean && std::ranges::any_of(ch.values, [](float v) { return v != 0 && v != 1; })) return bad(at + ".values", "has a bool key that is not 0 or 1");
      int input = last_input;
      if (last_times == nullptr || *last_times != ch.times) {
        input = float_accessor(ch.times.data(), ch.times.size(), "SCALAR", 0);
        accessors_[static_cast<std::size_t>(input)]["min"] = {ch.times.front()};
        accessors_[static_cast<std::size_t>(input)]["max"] = {ch.times.back()};
        last_times = &ch.times, last_input = input;
      }
      int output = 0;
      if (ch.boolean) {
        // KHR_animation_pointer: a bool property's keys are unsigned bytes, 0 false (its "Output Accessor Component Types").
        int view = 0;
        std::uint8_t* o = reserve_view(ch.values.size(), 0, &view);
        for (std::size_t k = 0; k < ch.values.size(); ++k) o[k] = ch.values[k] != 0 ? 1 : 0;
        output = accessor(view, kUnsignedByte, ch.values.size(), "SCALAR");
      } else if (pointer) {
        static constexpr const char* kTypes[] = {"SCALAR", "VEC2", "VEC3", "VEC4"};
        output = float_accessor(ch.values.data(), ch.values.size() / width, kTypes[width - 1], 0);
      } else if (ch.path == scene::Path::rotation) {
        // glTF requires unit quaternions for rotation values (tangents of a cubic spline are free).
        int view = 0;
        auto* o = reinterpret_cast<float*>(reserve_view(ch.values.size() * 4, 0, &view));
        std::memcpy(o, ch.values.data(), ch.values.size() * 4);
        for (std::size_t k = 0; k < ch.times.size() * per_key; ++k) {
          if (per_key == 3 && k % 3 != 1) continue;
          const scene::Quat q = unit_rotation(scene::Quat{o[k * 4], o[k * 4 + 1], o[k * 4 + 2], o[k * 4 + 3]});
          o[k * 4] = q.x, o[k * 4 + 1] = q.y, o[k * 4 + 2] = q.z, o[k * 4 + 3] = q.w;
        }
        output = accessor(view, kFloat, ch.values.size() / 4, "VEC4");
      } else {
        output = float_accessor(ch.values.data(), ch.values.size() / 3, "VEC3", 0);
      }
      samplers.push_back({{"input", input}, {"interpolation", interpolation_name(ch.interpolation)}, {"output", output}});
      if (pointer) {
        channels.push_back({{"sampler", c}, {"target", {{"path", "pointer"}, {"extensions", {{"KHR_animation_pointer", {{"pointer", ch.pointer}}}}}}}});
        used_.insert("KHR_animation_pointer");
      } else {
        channels.push_back({{"sampler", c}, {"target", {{"node", ch.node}, {"path", path_name(ch.path)}}}});
      }
    }
    json o = json::object();
    put_name(o, anim.name);
    o["channels"] = std::move(channels);
    o["samplers"] = std::move(samplers);
    put_extras(o, anim.extras, anim.name);
    out.push_back(std::move(o));
  }
  return {};
}

}  // namespace remodel::gltf::detail
