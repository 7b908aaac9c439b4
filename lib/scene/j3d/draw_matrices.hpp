// DRW1 entries and EVP1 envelopes found by what they stand for, as the J3D lower and authoring give
// every vertex its draw matrix: one hash lookup per vertex however many envelopes the file holds.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/j3d/j3d.hpp"
#include "scene/math.hpp"

namespace remodel::scene {

// A vertex's influences merged per JNT1 joint, in joint order, each weight over their sum.
using J3dWeights = std::vector<std::pair<std::uint16_t, float>>;

class J3dDrawTable {
 public:
  // `world`: the joints' bind-pose world matrices, whose inverses a new envelope stores in EVP1 when
  // the file has none (an unskinned file stores no inverse binds).
  J3dDrawTable(J3dDrw1& drw, J3dEvp1& evp, const std::vector<Mat4>& world);

  // The DRW1 entry for `weights` (one joint: a rigid entry; more: an envelope whose weights, as the
  // lift shows them, are within 1e-6 of these): the first equal one, else appended (with its envelope).
  std::uint32_t entry(const J3dWeights& weights);
  bool appended() const { return appended_; }
  std::size_t envelope_count() const { return evp_.envelopes.size(); }

 private:
  struct JointsHash {
    std::size_t operator()(const std::vector<std::uint16_t>& joints) const;
  };
  void index_envelope(std::uint32_t e);

  J3dDrw1& drw_;
  J3dEvp1& evp_;
  const std::vector<Mat4>& world_;
  std::unordered_map<std::uint16_t, std::uint32_t> rigid_of_joint_, entry_of_envelope_;
  // Envelopes by their joints; each with its weights as the lift shows them.
  std::unordered_map<std::vector<std::uint16_t>, std::vector<std::uint32_t>, JointsHash> envelopes_of_joints_;
  std::vector<std::vector<float>> shown_weights_;
  bool appended_ = false;
};

}  // namespace remodel::scene
