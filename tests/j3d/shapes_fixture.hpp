// What the J3D shape tests (test_shapes_*.cpp) build their Scenes with.
#pragma once

#include <string>
#include <utility>

#include "scene/scene.hpp"

namespace remodel {

// `p` as a new mesh `name`, drawn by a new root node under skin 0.
inline void add_skinned_mesh(scene::Scene& s, scene::Primitive p, const std::string& name) {
  scene::Mesh mesh;
  mesh.name = name;
  mesh.primitives.push_back(std::move(p));
  s.meshes.push_back(std::move(mesh));
  scene::Node node;
  node.name = name;
  node.mesh = static_cast<int>(s.meshes.size() - 1);
  node.skin = 0;
  s.add_node(node);
}

}  // namespace remodel
