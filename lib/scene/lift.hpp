// Document -> Scene for every format: `lift` dispatches through the family table (family_table.hpp);
// each format's lift lives in lib/scene/<family>/, beside its lower and authoring.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/document.hpp"
#include "model/error.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

// What a file does not hold itself: animations for a KH BBS model (PAM containers or bare records) or
// a J3D model (BCKs), a skeleton and a texture bank for a bare MHFU PMO.
struct LiftInputs {
  std::vector<const Document*> animations;  // Pam or PamAnimFile; J3dAnimFile
  const MhfuSkeletonFile* skeleton = nullptr;
  const TmhFile* textures = nullptr;
  std::vector<std::string> animation_names{};  // a name per animation file (its stem), where known
};

// A file with nothing to show (a TIM2, TMH, skeleton or animation alone) is an `unsupported` error
// that says what to pass instead.
Result<Scene> lift(const Document& document, const LiftInputs& inputs = {});

// Whether `lift(model, {animations: {&anim}})` takes `anim`: a BCK or BCA of a J3D model's joint count (RARC
// archives hold no other family). How an archive's animations find the models they belong to.
bool animates(const Document& model, const Document& anim);

// Per format, called by `lift`.
Result<Scene> lift_kh_bbs_pmo(const PmoFile& file, const LiftInputs& inputs);
Result<Scene> lift_kh_bbs_pmp(const Pmp& pmp, const LiftInputs& inputs);
// Appends the PAM animations of `inputs` to `scene`, on the nodes of one BON skeleton (joint_nodes[i]
// is BON joint i, at its bind pose); called by the PMO lift.
[[nodiscard]] Result<void> lift_kh_bbs_animations(const LiftInputs& inputs, const std::vector<int>& joint_nodes, Scene& scene);
Result<Scene> lift_mhfu_pmo(const MhfuPmoFile& file, const LiftInputs& inputs);
Result<Scene> lift_mhfu_pac(const Pac& pac, const LiftInputs& inputs);
Result<Scene> lift_j3d(const J3dFile& file, const LiftInputs& inputs);
Result<Scene> lift_bwm(const Bwm& bwm, const LiftInputs& inputs);

}  // namespace remodel::scene
