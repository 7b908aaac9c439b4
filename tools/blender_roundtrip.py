# Run by tools/blender_roundtrip.sh inside Blender: imports a glTF and exports it again unchanged with
# Blender's own glTF exporter, as a modder's "open and save" would.
import os
import sys

import numpy

numpy.bool = bool  # Blender 3.4's glTF importer still uses np.bool, which numpy >= 1.24 removed

import bpy  # noqa: E402

source, out, extras = sys.argv[sys.argv.index("--") + 1:][:3]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=os.path.abspath(source))
# Defaults except where said: extras off unless asked, animations sampled as the exporter does.
bpy.ops.export_scene.gltf(filepath=os.path.abspath(out), export_format="GLB", export_extras=(extras == "1"))
print("REMODEL_EXPORTED " + out)
