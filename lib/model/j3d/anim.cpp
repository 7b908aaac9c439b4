// J3D animations: the value-table rule shared by every key table, and the summary `info` prints.
#include "model/j3d/anim.hpp"

#include <algorithm>
#include <functional>

namespace remodel {

std::size_t j3d_track_length(std::uint16_t count, std::uint16_t tangent_mode) {
  if (count == 1) return 1;
  return std::size_t{count} * (tangent_mode == 0 ? 3 : 4);
}

namespace {
// A place no run has filled yet: never equal to a value's 32 bits.
constexpr std::uint64_t kHole = std::uint64_t{1} << 32;
}  // namespace

std::size_t J3dTableBuilder::find(const std::vector<std::uint32_t>& run) const {
  const std::vector<std::uint64_t> wide(run.begin(), run.end());
  const auto found = std::search(table_.begin(), table_.end(), std::boyer_moore_horspool_searcher(wide.begin(), wide.end()));
  return static_cast<std::size_t>(found - table_.begin());
}

std::size_t J3dTableBuilder::place(const std::vector<std::uint32_t>& run, std::size_t at) {
  if (table_.size() < at + run.size()) table_.resize(at + run.size(), kHole);
  for (std::size_t k = 0; k < run.size(); ++k) {
    if (table_[at + k] != kHole && table_[at + k] != run[k]) conflict_ = true;
    table_[at + k] = run[k];
  }
  return at;
}

std::optional<std::vector<std::uint32_t>> J3dTableBuilder::finish() const {
  if (conflict_) return std::nullopt;
  std::vector<std::uint32_t> out;
  out.reserve(table_.size());
  for (std::uint64_t v : table_) {
    if (v == kHole) return std::nullopt;
    out.push_back(static_cast<std::uint32_t>(v));
  }
  return out;
}

void add_info(const J3dAnimFile& file, DocumentInfo& info) {
  info.sections = 1;
  info.animations = 1;
  std::visit(
      [&](const auto& s) {
        info.frames = s.duration;
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, J3dAnk1> || std::is_same_v<S, J3dAnf1>) info.joints = s.joints.size();
        if constexpr (std::is_same_v<S, J3dTpt1>) info.materials = s.patterns.size();
        if constexpr (std::is_same_v<S, J3dTtk1>) info.materials = s.anims.size();
        if constexpr (std::is_same_v<S, J3dTrk1>) info.materials = s.registers.anims.size() + s.konstants.anims.size();
        if constexpr (std::is_same_v<S, J3dPak1>) info.materials = s.colours.anims.size();
      },
      file.section);
}

}  // namespace remodel
