#include "scene/palette_influences.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace remodel::scene {

Result<std::vector<std::pair<float, int>>> strongest_joints(const Primitive& p, std::size_t v, std::size_t joint_count, std::size_t keep,
                                                            const std::string& where, bool& limited) {
  std::vector<std::pair<float, int>> out;  // weight, skin joint
  for (std::size_t k = 0; k < p.influences; ++k) {
    const float w = p.weights[v * p.influences + k];
    const std::uint16_t j = p.joints[v * p.influences + k];
    if (w <= 0.0f) continue;
    if (j >= joint_count) {
      return Error{ErrorCode::bad_value, std::nullopt, where + ".joints", "joint " + std::to_string(j) + " is past the skin's " + std::to_string(joint_count) + " joints"};
    }
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& b) { return b.second == j; });
    if (it == out.end()) out.emplace_back(w, j);
    else it->first += w;
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  limited = out.size() > keep;
  if (limited) out.resize(keep);
  float sum = 0;
  for (const auto& b : out) sum += b.first;
  if (out.empty() || !(sum > 0.0f) || !std::isfinite(sum)) {
    return Error{ErrorCode::bad_value, std::nullopt, where + ".weights", "vertex " + std::to_string(v) + " has no joint weight: every vertex of a skinned model follows a bone"};
  }
  for (auto& b : out) b.first /= sum;
  return out;
}

std::size_t narrow_triangles(std::vector<PaletteInfluences>& influences, const std::vector<std::uint32_t>& triangles) {
  std::size_t narrowed = 0;
  for (std::size_t t = 0; t + 2 < triangles.size(); t += 3) {
    for (bool counted = false;;) {
      std::vector<std::pair<int, float>> strongest;  // joint, its largest weight on the triangle
      for (std::size_t c = 0; c < 3; ++c) {
        const PaletteInfluences& f = influences[triangles[t + c]];
        for (std::size_t k = 0; k < f.count; ++k) {
          auto it = std::find_if(strongest.begin(), strongest.end(), [&](const auto& p) { return p.first == f.joint[k]; });
          if (it == strongest.end()) strongest.emplace_back(f.joint[k], f.weight[k]);
          else it->second = std::max(it->second, f.weight[k]);
        }
      }
      if (strongest.size() <= kPaletteSlots) break;
      if (!counted) ++narrowed, counted = true;
      const int weakest = std::min_element(strongest.begin(), strongest.end(), [](const auto& a, const auto& b) {
                            return a.second != b.second ? a.second < b.second : a.first > b.first;
                          })->first;
      bool changed = false;
      for (std::size_t c = 0; c < 3; ++c) {
        PaletteInfluences& f = influences[triangles[t + c]];
        std::size_t k = 0;
        while (k < f.count && f.joint[k] != weakest) ++k;
        if (k == f.count || f.count == 1) continue;  // a lone joint weighs 1: never the weakest of 9
        const float keep = 1.0f - f.weight[k];
        for (std::size_t m = k; m + 1 < f.count; ++m) f.joint[m] = f.joint[m + 1], f.weight[m] = f.weight[m + 1];
        --f.count;
        for (std::size_t m = 0; m < f.count; ++m) f.weight[m] /= keep;
        changed = true;
      }
      if (!changed) break;  // cannot narrow further: the caller's grouping refuses the triangle
    }
  }
  return narrowed;
}

}  // namespace remodel::scene
