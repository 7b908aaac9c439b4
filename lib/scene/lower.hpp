// Scene -> Document over a base: the one dispatch of `lower`; each format's lower lives beside its
// lift in lib/scene/. The base supplies what glTF cannot carry; the Scene supplies what it can.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/document.hpp"
#include "model/error.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

// What a base does not hold itself: the model whose skeleton names a PAM's or a BCK's joints.
struct LowerInputs {
  // A KH BBS PMO for a PAM base, a J3D model for a BCK; the MhfuSkeletonFile a bare MHFU PMO was exported with (its weights
  // name bones only through the skeleton, so without it they are not lowered). Authoring a model: the
  // game file of its family whose skeleton the new file takes (`author` binds the mesh to it first,
  // skeleton.hpp; the format's author stores that file's own joint records).
  const Document* skeleton = nullptr;
  std::uint32_t bwm_version = 6;  // the version a new BWM is authored in (5 or 6)
  // J3D authoring: a BDL (MAT3 also as MDL3 GX packets) rather than a BMD.
  bool j3d_bdl = false;
  // J3D animation authoring: a BCA (full frames) rather than a BCK.
  bool j3d_bca = false;
  // The base file's stem: a BCK base takes the glTF animation of that name (the export names each so).
  std::string base_name{};
};

struct Lowered {
  Document document;
  std::vector<Warning> warnings;
};

// Writes `scene` over `base`: every value the Scene carries and the base already stores (compared
// after encoding in the base's own encoding) keeps its stored bytes; changed values are re-encoded
// as the base encodes them. What the base format cannot express is an error naming the limit.
Result<Lowered> lower(const Scene& scene, const Document& base, const LowerInputs& inputs = {});

// Per format, beside each lift (lib/scene/<family>/lower.cpp).
Result<Lowered> lower_j3d(const Scene& scene, const J3dFile& base, const LowerInputs& inputs);
Result<Lowered> lower_mhfu_pac(const Scene& scene, const Pac& base, const LowerInputs& inputs);
Result<Lowered> lower_mhfu_pmo(const Scene& scene, const MhfuPmoFile& base, const LowerInputs& inputs);
Result<Lowered> lower_bwm(const Scene& scene, const Bwm& base, const LowerInputs& inputs);
Result<Lowered> lower_kh_bbs_pmo(const Scene& scene, const PmoFile& base, const LowerInputs& inputs);
Result<Lowered> lower_kh_bbs_pmp(const Scene& scene, const Pmp& base, const LowerInputs& inputs);
Result<Lowered> lower_kh_bbs_pam(const Scene& scene, const Pam& base, const LowerInputs& inputs);
Result<Lowered> lower_kh_bbs_pam_anim(const Scene& scene, const PamAnimFile& base, const LowerInputs& inputs);
Result<Lowered> lower_j3d_bck(const Scene& scene, const J3dAnimFile& base, const LowerInputs& inputs);
Result<Lowered> lower_j3d_bca(const Scene& scene, const J3dAnimFile& base, const LowerInputs& inputs);
Result<Lowered> lower_j3d_btk(const Scene& scene, const J3dAnimFile& base, const LowerInputs& inputs);  // lower_btk.cpp
// The J3D animation format's: the BCA lower for an ANF1 base, the BTK's for a TTK1 one, else the BCK's
// (j3d/anim_joints.cpp).
Result<Lowered> lower_j3d_anim(const Scene& scene, const J3dAnimFile& base, const LowerInputs& inputs);

// A new file in `format` from the Scene alone (no base), laid out as the game's own converter lays
// its files out (lib/scene/<family>/README.md, "Authoring"); what the format cannot hold is transformed with a
// warning or refused with an error naming the limit. The warnings come back in Lowered.
Result<Lowered> author(const Scene& scene, Format format, const LowerInputs& inputs = {});

// Per format, beside each lower (lib/scene/<family>/author.cpp).
Result<Lowered> author_kh_bbs_pmo(const Scene& scene, const LowerInputs& inputs);
Result<Lowered> author_kh_bbs_pam(const Scene& scene, const LowerInputs& inputs);  // beside the PAM lower
Result<Lowered> author_mhfu_pac(const Scene& scene, const LowerInputs& inputs);
Result<Lowered> author_mhfu_pmo(const Scene& scene, const LowerInputs& inputs);  // the PAC's PMO alone
Result<Lowered> author_bwm(const Scene& scene, const LowerInputs& inputs);
Result<Lowered> author_j3d(const Scene& scene, const LowerInputs& inputs);  // BMD, or BDL with inputs.j3d_bdl
Result<Lowered> author_j3d_bck(const Scene& scene, const LowerInputs& inputs);  // beside the BCK lower
Result<Lowered> author_j3d_bca(const Scene& scene, const LowerInputs& inputs);  // beside the BCA lower
Result<Lowered> author_j3d_anim(const Scene& scene, const LowerInputs& inputs);  // a BCA with inputs.j3d_bca, else a BCK

}  // namespace remodel::scene
