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

namespace {

// Vertices drawn again by a second node drawing one mesh: authoring writes each draw out, so a glTF
// that names one mesh from many nodes would make output and time grow with its references.
constexpr std::size_t kMaxRedrawnVertices = std::size_t{1} << 20;

Result<void> check_redrawn(const Scene& scene) {
  std::vector<char> seen(scene.meshes.size(), 0);
  std::size_t redrawn = 0;
  for (std::size_t n = 0; n < scene.nodes.size(); ++n) {
    const Node& node = scene.nodes[n];
    if (node.mesh < 0 || static_cast<std::size_t>(node.mesh) >= scene.meshes.size() || !node.visible) continue;
    if (!seen[static_cast<std::size_t>(node.mesh)]) {
      seen[static_cast<std::size_t>(node.mesh)] = 1;
      continue;
    }
    for (const Primitive& p : scene.meshes[static_cast<std::size_t>(node.mesh)].primitives) redrawn += p.vertex_count() + p.indices.size();
    if (redrawn > kMaxRedrawnVertices) {
      return at("nodes[" + std::to_string(n) + "].mesh", "the nodes that draw a mesh another node draws too would write " + std::to_string(redrawn) +
                                                             " vertices and indices again by now; at most " + std::to_string(kMaxRedrawnVertices) + " are",
                ErrorCode::unsupported);
    }
  }
  return {};
}

}  // namespace

Result<Lowered> author(const Scene& scene, Format format, const LowerInputs& inputs) try {
  const FamilyEntry& entry = family_entry(format);
  if (entry.author == nullptr) {
    return Error{ErrorCode::unsupported, std::nullopt, "", std::string("a ") + format_name(format) +
                                                               " file cannot be authored from glTF alone yet: import it over an original with --like"};
  }
  if (auto e = check_redrawn(scene); !e) return e.error();
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
