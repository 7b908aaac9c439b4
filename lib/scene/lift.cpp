#include "scene/lift.hpp"

#include "scene/family_table.hpp"

namespace remodel::scene {

namespace {

Error no_model(const Document& document, const char* instead) {
  return Error{ErrorCode::unsupported, std::nullopt, "",
               std::string("a ") + format_name(format_of(document)) + " file holds no model to export: pass its model instead (" + instead + ")"};
}

}  // namespace

Result<Scene> lift(const Document& document, const LiftInputs& inputs) try {
  const FamilyEntry& entry = family_entry(format_of(document));
  if (entry.lift == nullptr) return no_model(document, entry.instead);
  return entry.lift(document, inputs);
} catch (...) {
  return caught_allocation_failure();
}

}  // namespace remodel::scene
