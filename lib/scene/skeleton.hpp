// A new file on the game's skeleton (`remodel import new.glb -o OUT --skeleton GAMEFILE`): the modder's
// mesh, weighted in Blender to the armature of the game's export, rebound to the game file's own joints
// so the game's animations drive it. Blender turns every bone and adds noise (bone_turns.hpp); the
// game's joints are taken as they are and the mesh is moved so its rest pose is unchanged.
#pragma once

#include <vector>

#include "model/error.hpp"
#include "scene/scene.hpp"

namespace remodel::scene {

struct BoundScene {
  Scene scene;
  std::vector<Warning> warnings;
};

// `game` is the game file's lifted Scene; its skin 0 is the skeleton. The result holds the game's
// joint nodes (and their ancestors) as they are — names, order, parents, local transforms, extras —
// its skin 0 with the game's joint order and inverse binds, and one root node per visible mesh node
// of `in` (what authoring draws), whose primitives are skinned to the game's joints: an incoming
// joint stands for the game joint of its name, else for its nearest ancestor that has one (a
// warning names it); a mesh node that no skin binds follows its nearest ancestor joint
// rigidly (else the game's first joint, with a warning). Each vertex is moved so that the game's
// skinning puts it where the incoming skinning put it at rest; normals turn with it. Materials,
// textures and the animation channels on joints the game has are kept; other channels are dropped
// with a warning. Errors: the game Scene has no skin, or a game joint name is held by two incoming
// nodes, or a vertex that no game joint can bind (its blend of the game's joints is singular).
Result<BoundScene> bind_to_skeleton(const Scene& in, const Scene& game);

}  // namespace remodel::scene
