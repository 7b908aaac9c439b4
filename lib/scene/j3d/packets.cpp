// j3d_plan_packets: triangles grouped by matrix set, groups packed greedily into matrix slots.
#include "scene/j3d/packets.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace remodel::scene {

namespace {

struct Group {
  std::vector<std::uint32_t> matrices;  // sorted, distinct
  std::vector<std::uint32_t> triangles;
  bool placed = false;
};

}  // namespace

std::vector<J3dPacketPlan> j3d_plan_packets(const std::vector<std::array<std::uint32_t, 3>>& corner_matrices, std::size_t slots) {
  // Triangles with the same matrices form one group, in the order each set first appears.
  std::vector<Group> groups;
  std::map<std::vector<std::uint32_t>, std::size_t> group_of;
  for (std::uint32_t t = 0; t < corner_matrices.size(); ++t) {
    std::vector<std::uint32_t> m(corner_matrices[t].begin(), corner_matrices[t].end());
    std::sort(m.begin(), m.end());
    m.erase(std::unique(m.begin(), m.end()), m.end());
    const auto [it, added] = group_of.try_emplace(m, groups.size());
    if (added) groups.push_back({std::move(m), {}, false});
    groups[it->second].triangles.push_back(t);
  }
  std::unordered_map<std::uint32_t, std::vector<std::size_t>> groups_using;  // DRW1 entry -> groups
  std::array<std::vector<std::size_t>, 4> by_size;                         // groups by matrix count, in order
  std::array<std::size_t, 4> next_of_size{};
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (std::uint32_t m : groups[g].matrices) groups_using[m].push_back(g);
    by_size[groups[g].matrices.size()].push_back(g);
  }
  // The first unplaced group of `size` matrices.
  const auto first_of_size = [&](std::size_t size) -> std::ptrdiff_t {
    std::size_t& at = next_of_size[size];
    while (at < by_size[size].size() && groups[by_size[size][at]].placed) ++at;
    return at < by_size[size].size() ? static_cast<std::ptrdiff_t>(by_size[size][at]) : -1;
  };

  std::vector<J3dPacketPlan> plans;
  std::size_t left = groups.size();
  while (left > 0) {
    J3dPacketPlan plan;
    std::vector<std::size_t> near;  // groups sharing a matrix with the packet
    const auto has = [&](std::uint32_t m) { return std::find(plan.matrices.begin(), plan.matrices.end(), m) != plan.matrices.end(); };
    const auto place = [&](std::size_t g) {
      groups[g].placed = true;
      --left;
      plan.triangles.insert(plan.triangles.end(), groups[g].triangles.begin(), groups[g].triangles.end());
      for (std::uint32_t m : groups[g].matrices) {
        if (has(m)) continue;
        plan.matrices.push_back(m);
        const auto& using_m = groups_using[m];
        near.insert(near.end(), using_m.begin(), using_m.end());
      }
    };
    // The seed: the earliest group left.
    std::ptrdiff_t seed = -1;
    for (std::size_t size = 1; size <= 3; ++size) {
      const std::ptrdiff_t g = first_of_size(size);
      if (g >= 0 && (seed < 0 || g < seed)) seed = g;
    }
    place(static_cast<std::size_t>(seed));
    for (;;) {
      std::ptrdiff_t best = -1;
      std::size_t best_cost = 0;
      for (std::size_t i = 0; i < near.size(); ++i) {
        const std::size_t g = near[i];
        if (groups[g].placed) continue;
        const std::size_t cost = static_cast<std::size_t>(std::count_if(groups[g].matrices.begin(), groups[g].matrices.end(), [&](std::uint32_t m) { return !has(m); }));
        if (cost == 0) {
          place(g);  // covered: no new matrix, so the costs already seen stand
          continue;
        }
        if (plan.matrices.size() + cost > slots) continue;
        if (best < 0 || cost < best_cost || (cost == best_cost && groups[g].triangles.size() > groups[static_cast<std::size_t>(best)].triangles.size())) {
          best = static_cast<std::ptrdiff_t>(g);
          best_cost = cost;
        }
      }
      std::erase_if(near, [&](std::size_t g) { return groups[g].placed; });
      if (best < 0) {  // nothing near fits: the earliest group that fills the room left
        for (std::size_t size = 1; size <= 3 && plan.matrices.size() + size <= slots; ++size) {
          const std::ptrdiff_t g = first_of_size(size);
          if (g >= 0 && (best < 0 || g < best)) best = g;
        }
      }
      if (best < 0) break;
      place(static_cast<std::size_t>(best));
    }
    std::sort(plan.triangles.begin(), plan.triangles.end());
    plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace remodel::scene
