#include "scene/lift.hpp"

#include "model/j3d/decode.hpp"
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

bool animates(const Document& model, const Document& anim) {
  const auto* j3d = std::get_if<J3dFile>(&model);
  const auto* file = std::get_if<J3dAnimFile>(&anim);
  const J3dJnt1* jnt = j3d != nullptr ? j3d_section<J3dJnt1>(*j3d) : nullptr;
  if (jnt == nullptr || file == nullptr) return false;
  if (const auto* ank1 = std::get_if<J3dAnk1>(&file->section)) return ank1->joints.size() == jnt->joints.size();
  if (const auto* anf1 = std::get_if<J3dAnf1>(&file->section)) return anf1->joints.size() == jnt->joints.size();
  return false;
}

}  // namespace remodel::scene
