# Export as a new file: a Blender-made cube with a material and a two-bone skinned cylinder, each
# exported through the add-on in every format it offers. Where remodel authors that format (today KH
# BBS PMO, MHFU PAC, bare MHFU PMO, J3D BMD and BDL, and BWM, which must work) the file is one
# `remodel check` reads and writes back identically, with the cylinder's two joints; where it does
# not yet, the add-on's error report carries remodel's own message, the same as the CLI gives for
# the same glTF.
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.install_addon()
from remodel_blender import operators  # noqa: E402

AUTHORED_TODAY = {"kh-bbs-pmo", "mhfu-pac", "mhfu-pmo", "j3d-bmd", "j3d-bdl", "bwm"}
JOINTS = {("cube", "kh-bbs-pmo"): 0, ("cube", "mhfu-pac"): 1, ("cube", "mhfu-pmo"): 0, ("cylinder", "mhfu-pmo"): 0}


def select(objects):
    bpy.ops.object.select_all(action="DESELECT")
    for o in objects:
        o.select_set(True)
    bpy.context.view_layer.objects.active = objects[0]


def make_cube():
    bpy.ops.mesh.primitive_cube_add(size=2, location=(0, 0, 0))
    cube = bpy.context.active_object
    cube.name = "cube"
    material = bpy.data.materials.new("cube_red")
    material.use_nodes = True
    material.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (0.8, 0.1, 0.1, 1)
    cube.data.materials.append(material)
    return [cube]


def make_cylinder():
    bpy.ops.mesh.primitive_cylinder_add(vertices=12, radius=0.5, depth=2, location=(4, 0, 1))
    cylinder = bpy.context.active_object
    cylinder.name = "cylinder"
    bpy.ops.object.armature_add(location=(4, 0, 0))
    rig = bpy.context.active_object
    rig.name = "rig"
    bpy.ops.object.mode_set(mode="EDIT")
    lower = rig.data.edit_bones[0]
    lower.name, lower.head, lower.tail = "lower", (0, 0, 0), (0, 0, 1)
    upper = rig.data.edit_bones.new("upper")
    upper.head, upper.tail, upper.parent = (0, 0, 1), (0, 0, 2), lower
    bpy.ops.object.mode_set(mode="OBJECT")
    groups = {n: cylinder.vertex_groups.new(name=n) for n in ("lower", "upper")}
    for v in cylinder.data.vertices:
        up = min(max((v.co.z + 1) / 2, 0), 1)  # 0 at the bottom, 1 at the top
        groups["lower"].add([v.index], 1 - up, "REPLACE")
        groups["upper"].add([v.index], up, "REPLACE")
    cylinder.parent = rig
    cylinder.matrix_parent_inverse = rig.matrix_world.inverted()
    cylinder.modifiers.new("rig", "ARMATURE").object = rig
    return [cylinder, rig]


bpy.ops.object.select_all(action="SELECT")
bpy.ops.object.delete()
scenes = {"cube": make_cube(), "cylinder": make_cylinder()}
for label, objects in scenes.items():
    # What the CLI alone says for the same glTF, to compare the add-on's outcome with.
    select(objects)
    glb = os.path.join(common.TMP, label + "-cli.glb")
    bpy.ops.export_scene.gltf(filepath=glb, export_format="GLB", export_extras=True, use_selection=True)
    animations = {kind["name"] for f in operators.cli.formats(common.REMODEL) if f["name"] in operators.ANIMATION_OF.values() for kind in f["files"]}
    for ident, _, ext, fmt in operators.targets(common.REMODEL):
        if ident == "AUTO" or ident in animations:
            continue  # a PAM, BCK or BCA holds a model's animations: tested with the model it animates
        common.part(f"{label} as a new {ident}")
        select(objects)
        out = os.path.join(common.TMP, f"{label}-{ident}{ext}")
        cli_out = os.path.join(common.TMP, f"{label}-{ident}-cli{ext}")
        cli = common.remodel("import", glb, "-o", cli_out, *(["--format", fmt] if fmt else []))
        try:
            result = bpy.ops.export_scene.remodel(filepath=out, mode="NEW", target=ident)
            error = None
        except RuntimeError as e:
            result, error = {"CANCELLED"}, str(e)
        if ident in AUTHORED_TODAY:
            check(cli.returncode == 0, f"{label} as {ident}: the CLI authors it ({cli.stderr.strip()})")
        if cli.returncode == 0:
            check(result == {"FINISHED"}, f"{label} as {ident}: the add-on wrote it ({error})")
            checked = common.remodel("check", out)
            check(checked.returncode == 0, f"{label} as {ident}: remodel check reads it: {checked.stdout}{checked.stderr}")
            model = common.info(out) if checked.returncode == 0 else {}
            print(f"{label} as {ident}: {model}", flush=True)
            # The cylinder's two bones; a bare MHFU PMO holds no skeleton (a PAC's second entry does),
            # and a PAC's skeleton gets one root joint for a mesh without a skin.
            want_joints = JOINTS.get((label, ident), 2 if label == "cylinder" else model.get("joints"))
            check(model.get("triangles") == (12 if label == "cube" else 44) and model.get("joints") == want_joints,
                  f"{label} as {ident}: it holds the triangles and {want_joints} joints: {model}")
        else:
            first = cli.stderr.strip().splitlines()[0].replace(glb, "Blender's glTF") if cli.stderr.strip() else "?"
            message = first.split(": ", 2)[-1]  # after "remodel: FILE: "
            check(error is not None and message in error, f"{label} as {ident}: the report carries remodel's message {message!r}: {error}")
            check(not os.path.exists(out), f"{label} as {ident}: nothing was written")
            print(f"{label} as {ident}: not authored yet: {error}", flush=True)
common.finish()
