#include "scene/palette_influences.hpp"

#include <algorithm>
#include <utility>

namespace remodel::scene {

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
