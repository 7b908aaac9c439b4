#include "scene/lower.hpp"

#include <type_traits>

namespace remodel::scene {

Result<Lowered> lower(const Scene& scene, const Document& base, const LowerInputs& inputs) try {
  return std::visit(
      [&]([[maybe_unused]] const auto& doc) -> Result<Lowered> {
        // One arm per format with a lower.
        using T = std::decay_t<decltype(doc)>;
        if constexpr (std::is_same_v<T, J3dFile>) return lower_j3d(scene, doc, inputs);
        else if constexpr (std::is_same_v<T, Pac>) return lower_mhfu_pac(scene, doc, inputs);
        else if constexpr (std::is_same_v<T, MhfuPmoFile>) return lower_mhfu_pmo(scene, doc, inputs);
        else if constexpr (std::is_same_v<T, Bwm>) return lower_bwm(scene, doc, inputs);
        else if constexpr (std::is_same_v<T, PmoFile>) return lower_kh_bbs_pmo(scene, doc, inputs);
        else if constexpr (std::is_same_v<T, Pmp>) return lower_kh_bbs_pmp(scene, doc, inputs);
        else if constexpr (std::is_same_v<T, Pam>) return lower_kh_bbs_pam(scene, doc, inputs);
        else if constexpr (std::is_same_v<T, PamAnimFile>) return lower_kh_bbs_pam_anim(scene, doc, inputs);
        else return Error{ErrorCode::unsupported, std::nullopt, "",
                     std::string("glTF cannot be imported over a ") + format_name(format_of(base)) + " file yet"};
      },
      base);
} catch (...) {
  return caught_allocation_failure();
}

Result<Lowered> author(const Scene& scene, Format format, const LowerInputs& inputs) try {
  // One arm per format that can be authored.
  switch (format) {
    case Format::kh_bbs_pmo: return author_kh_bbs_pmo(scene, inputs);
    case Format::kh_bbs_pam: return author_kh_bbs_pam(scene, inputs);
    case Format::mhfu_pac: return author_mhfu_pac(scene, inputs);
    case Format::mhfu_pmo: return author_mhfu_pmo(scene, inputs);
    case Format::bwm: return author_bwm(scene, inputs);
    case Format::j3d: return author_j3d(scene, inputs);
    default:
      return Error{ErrorCode::unsupported, std::nullopt, "", std::string("a ") + format_name(format) +
                                                  " file cannot be authored from glTF alone yet: import it over an original with --like"};
  }
} catch (...) {
  return caught_allocation_failure();
}

}  // namespace remodel::scene
