// The umbrella header of the installed package: every format's Document (read, write, info, JSON,
// textures), file I/O, the Scene with lift and lower, and glTF export. Link remodel::remodel.
#pragma once

#include "gltf/gltf.hpp"
#include "model/document.hpp"
#include "model/file_io.hpp"
#include "model/image.hpp"
#include "model/json.hpp"
#include "model/textures.hpp"
#include "scene/lift.hpp"
#include "scene/lower.hpp"
#include "scene/scene.hpp"
