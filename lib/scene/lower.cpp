#include "scene/lower.hpp"

#include "scene/family_table.hpp"

namespace remodel::scene {

Result<Lowered> lower(const Scene& scene, const Document& base, const LowerInputs& inputs) try {
  const FamilyEntry& entry = family_entry(format_of(base));
  if (entry.lower == nullptr) {
    return Error{ErrorCode::unsupported, std::nullopt, "", std::string("glTF cannot be imported over a ") + format_name(entry.format) + " file yet"};
  }
  return entry.lower(scene, base, inputs);
} catch (...) {
  return caught_allocation_failure();
}

Result<Lowered> author(const Scene& scene, Format format, const LowerInputs& inputs) try {
  const FamilyEntry& entry = family_entry(format);
  if (entry.author == nullptr) {
    return Error{ErrorCode::unsupported, std::nullopt, "", std::string("a ") + format_name(format) +
                                                               " file cannot be authored from glTF alone yet: import it over an original with --like"};
  }
  return entry.author(scene, inputs);
} catch (...) {
  return caught_allocation_failure();
}

}  // namespace remodel::scene
