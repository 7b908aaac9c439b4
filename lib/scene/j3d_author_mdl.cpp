// J3D authoring, MDL3: each MAT3 material as the GX command packet a BDL loads.
#include "scene/j3d_author.hpp"

namespace remodel::scene {

Result<J3dMdl3> author_j3d_mdl3(const J3dMat3& mat3, const J3dTex1& tex1) {
  (void)mat3;
  (void)tex1;
  return Error{ErrorCode::unsupported, std::nullopt, "MDL3", "BDL authoring is not written yet"};
}

}  // namespace remodel::scene
