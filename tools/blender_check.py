# Run by tools/blender_check.sh inside Blender: imports a glTF (or a game model through the remodel
# add-on, which the script installed), prints its counts as JSON, frames a camera on it, adds a light
# and renders a small PNG.
import json
import math
import os
import sys

import numpy

numpy.bool = bool  # Blender 3.4's glTF importer still uses np.bool, which numpy >= 1.24 removed

import bpy  # noqa: E402
from mathutils import Vector  # noqa: E402

model, out, *anims = sys.argv[sys.argv.index("--") + 1:]
engine = os.environ.get("REMODEL_BLENDER_ENGINE", "CYCLES")

bpy.ops.wm.read_factory_settings(use_empty=True)
if model.endswith((".glb", ".gltf")):
    bpy.ops.import_scene.gltf(filepath=os.path.abspath(model))
else:
    import addon_utils

    bpy.ops.preferences.addon_install(filepath=os.environ["REMODEL_ADDON_ZIP"])
    addon_utils.enable("remodel_blender", default_set=True)
    bpy.context.preferences.addons["remodel_blender"].preferences.executable = os.environ["REMODEL_CLI"]
    bpy.ops.import_scene.remodel(filepath=os.path.abspath(model), animations=";".join(map(os.path.abspath, anims)))
    if bpy.data.actions:  # posed half way through the first animation
        start, end = bpy.data.actions[0].frame_range
        bpy.context.scene.frame_set(int((start + end) / 2))

meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
counts = {
    "file": model,
    "mesh_objects": len(meshes),
    "meshes": len(bpy.data.meshes),
    "vertices": sum(len(m.vertices) for m in bpy.data.meshes),
    "triangles": sum(len(p.vertices) - 2 for m in bpy.data.meshes for p in m.polygons),
    "armatures": len(bpy.data.armatures),
    "joints": sum(len(a.bones) for a in bpy.data.armatures),
    "materials": len(bpy.data.materials),
    "images": len(bpy.data.images),
    "animations": len(bpy.data.actions),
}
print("REMODEL_COUNTS " + json.dumps(counts), flush=True)

# Frame the evaluated (posed) meshes: a camera in front (glTF +Z is Blender -Y), a little above.
depsgraph = bpy.context.evaluated_depsgraph_get()
lo = Vector((math.inf,) * 3)
hi = Vector((-math.inf,) * 3)
for o in meshes:
    e = o.evaluated_get(depsgraph)
    for corner in e.bound_box:
        w = e.matrix_world @ Vector(corner)
        lo = Vector(map(min, lo, w))
        hi = Vector(map(max, hi, w))
if not meshes:
    lo, hi = Vector((-1, -1, -1)), Vector((1, 1, 1))
center = (lo + hi) / 2
radius = max((hi - lo).length / 2, 1e-3)

scene = bpy.context.scene
cam_data = bpy.data.cameras.new("remodel_camera")
cam_data.lens = 50
cam_data.clip_start = radius * 0.01
cam_data.clip_end = radius * 100
cam = bpy.data.objects.new("remodel_camera", cam_data)
scene.collection.objects.link(cam)
fov = 2 * math.atan(cam_data.sensor_width / (2 * cam_data.lens))
direction = Vector((0.35, -1.0, 0.35)).normalized()
cam.location = center + direction * (radius / math.sin(fov / 2) * 1.05)
cam.rotation_euler = (center - cam.location).to_track_quat("-Z", "Y").to_euler()
scene.camera = cam

sun_data = bpy.data.lights.new("remodel_sun", type="SUN")
sun_data.energy = 3.0
sun = bpy.data.objects.new("remodel_sun", sun_data)
sun.rotation_euler = (math.radians(50), math.radians(10), math.radians(30))
scene.collection.objects.link(sun)
world = bpy.data.worlds.new("remodel_world")
world.color = (0.25, 0.25, 0.28)
world.use_nodes = True
world.node_tree.nodes["Background"].inputs[0].default_value = (0.35, 0.35, 0.4, 1)
world.node_tree.nodes["Background"].inputs[1].default_value = 1.0
scene.world = world

scene.render.engine = engine
scene.render.resolution_x = 480
scene.render.resolution_y = 360
scene.render.resolution_percentage = 100
scene.render.film_transparent = False
if engine == "CYCLES":
    scene.cycles.device = "CPU"
    scene.cycles.samples = 8
    scene.cycles.use_denoising = False
    scene.cycles.max_bounces = 2
elif engine == "BLENDER_WORKBENCH":
    scene.display.shading.light = "STUDIO"
    scene.display.shading.color_type = "TEXTURE"
scene.render.filepath = os.path.abspath(out)
scene.render.image_settings.file_format = "PNG"
scene.render.image_settings.compression = 100  # small files (the README picture is committed)
scene.render.image_settings.color_mode = "RGB"
bpy.ops.render.render(write_still=True)
print("REMODEL_RENDERED " + os.path.abspath(out), flush=True)
