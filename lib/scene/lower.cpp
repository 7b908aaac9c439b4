#include "scene/lower.hpp"

#include "scene/family_table.hpp"
#include "scene/lift.hpp"
#include "scene/skeleton.hpp"

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
  if (inputs.skeleton == nullptr || !entry.holds_model() || std::holds_alternative<MhfuSkeletonFile>(*inputs.skeleton)) return entry.author(scene, inputs);
  // A model on a game file's skeleton: the mesh is rebound to that file's joints before authoring.
  Result<Scene> game = lift(*inputs.skeleton);
  if (!game) return game.error();
  Result<BoundScene> bound = bind_to_skeleton(scene, *game);
  if (!bound) return bound.error();
  Result<Lowered> made = entry.author(bound->scene, inputs);
  if (made) made->warnings.insert(made->warnings.begin(), bound->warnings.begin(), bound->warnings.end());
  return made;
} catch (...) {
  return caught_allocation_failure();
}

}  // namespace remodel::scene
