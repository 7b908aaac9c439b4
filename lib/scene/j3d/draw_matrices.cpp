// J3dDrawTable: DRW1 entries and EVP1 envelopes indexed by joint (rigid) and by joint list (envelopes).
#include "scene/j3d/draw_matrices.hpp"

#include <cmath>
#include <map>

namespace remodel::scene {

std::size_t J3dDrawTable::JointsHash::operator()(const std::vector<std::uint16_t>& joints) const {
  std::size_t h = 1469598103934665603ull;
  for (std::uint16_t j : joints) h = (h ^ j) * 1099511628211ull;
  return h;
}

J3dDrawTable::J3dDrawTable(J3dDrw1& drw, J3dEvp1& evp, const std::vector<Mat4>& world) : drw_(drw), evp_(evp), world_(world) {
  for (std::uint32_t e = 0; e < evp_.envelopes.size(); ++e) index_envelope(e);
  for (std::uint32_t d = 0; d < drw_.indices.size() && d < drw_.weighted.size(); ++d) {  // the first of equal entries
    if (drw_.weighted[d] == 0) rigid_of_joint_.try_emplace(drw_.indices[d], d);
    else if (drw_.weighted[d] == 1) entry_of_envelope_.try_emplace(drw_.indices[d], d);
  }
}

// An envelope as the lift shows it: a joint listed twice weighs their sum, each weight over the total.
void J3dDrawTable::index_envelope(std::uint32_t e) {
  const J3dEnvelope& x = evp_.envelopes[e];
  float total = 0;
  for (float w : x.weights) total += w;
  std::map<std::uint16_t, float> merged;
  for (std::size_t k = 0; k < x.joints.size() && k < x.weights.size(); ++k) merged[x.joints[k]] += x.weights[k] / total;
  std::vector<std::uint16_t> joints;
  std::vector<float> weights;
  for (const auto& [j, w] : merged) {
    joints.push_back(j);
    weights.push_back(w);
  }
  envelopes_of_joints_[std::move(joints)].push_back(e);
  if (shown_weights_.size() <= e) shown_weights_.resize(std::size_t{e} + 1);
  shown_weights_[e] = std::move(weights);
}

std::uint32_t J3dDrawTable::entry(const J3dWeights& weights) {
  const auto append = [&](std::uint8_t weighted, std::uint16_t index) {
    drw_.weighted.push_back(weighted);
    drw_.indices.push_back(index);
    appended_ = true;
    return static_cast<std::uint32_t>(drw_.indices.size() - 1);
  };
  if (weights.size() == 1) {
    const std::uint16_t joint = weights[0].first;
    if (const auto it = rigid_of_joint_.find(joint); it != rigid_of_joint_.end()) return it->second;
    const std::uint32_t d = append(0, joint);
    rigid_of_joint_.emplace(joint, d);
    return d;
  }
  std::vector<std::uint16_t> joints;
  for (const auto& jw : weights) joints.push_back(jw.first);
  std::uint32_t found = static_cast<std::uint32_t>(evp_.envelopes.size());
  if (const auto it = envelopes_of_joints_.find(joints); it != envelopes_of_joints_.end()) {
    for (std::uint32_t e : it->second) {
      bool same = true;
      for (std::size_t k = 0; k < weights.size() && same; ++k) same = std::fabs(shown_weights_[e][k] - weights[k].second) <= 1e-6f;
      if (same) {
        found = e;
        break;
      }
    }
  }
  if (found == evp_.envelopes.size()) {
    // A new envelope needs an inverse bind for each joint: unskinned files store none.
    for (std::size_t j = evp_.inverse_binds.size(); j < world_.size(); ++j) {
      const Mat4 ibm = inverse(world_[j]);
      std::array<float, 12> rows{};
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c) rows[static_cast<std::size_t>(r * 4 + c)] = ibm.at(r, c);
      }
      evp_.inverse_binds.push_back(rows);
    }
    J3dEnvelope env;
    for (const auto& [j, w] : weights) {
      env.joints.push_back(j);
      env.weights.push_back(w);
    }
    evp_.envelopes.push_back(std::move(env));
    index_envelope(found);
    appended_ = true;
  }
  if (const auto it = entry_of_envelope_.find(static_cast<std::uint16_t>(found)); it != entry_of_envelope_.end()) return it->second;
  const std::uint32_t d = append(1, static_cast<std::uint16_t>(found));
  entry_of_envelope_.emplace(static_cast<std::uint16_t>(found), d);
  return d;
}

}  // namespace remodel::scene
