#include "scene/lift.hpp"

#include <type_traits>

namespace remodel::scene {

namespace {

Error no_model(const Document& document) {
  return Error{ErrorCode::unsupported, std::nullopt, "",
               std::string("a ") + format_name(format_of(document)) +
                   " file holds no model to export: pass its model instead (a PAM with --anim beside its PMO; an "
                   "MHFU skeleton or TMH with --skeleton/--textures beside the PMO, or the whole PAC)"};
}

}  // namespace

Result<Scene> lift(const Document& document, const LiftInputs& inputs) try {
  return std::visit(
      [&](const auto& doc) -> Result<Scene> {
        // One arm per format with a lift, e.g. with T = std::decay_t<decltype(doc)>:
        //   if constexpr (std::is_same_v<T, J3dFile>) return lift_j3d(doc, inputs); else
        using T = std::decay_t<decltype(doc)>;
        if constexpr (std::is_same_v<T, MhfuPmoFile>) return lift_mhfu_pmo(doc, inputs); else
        if constexpr (std::is_same_v<T, Pac>) return lift_mhfu_pac(doc, inputs); else
        if constexpr (std::is_same_v<T, Bwm>) return lift_bwm(doc, inputs); else
        if constexpr (std::is_same_v<T, PmoFile>) return lift_kh_bbs_pmo(doc, inputs); else
        if constexpr (std::is_same_v<T, Pmp>) return lift_kh_bbs_pmp(doc, inputs); else
        if constexpr (std::is_same_v<T, J3dFile>) return lift_j3d(doc, inputs); else
        return no_model(document);
      },
      document);
} catch (...) {
  return caught_allocation_failure();
}

}  // namespace remodel::scene
