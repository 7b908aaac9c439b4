# File › Import of a J3D model attaches the BCKs beside it as actions: ww_cl.bdl copied beside four
# of Link's BCKs (and a BCK of another model's joint count, and a damaged one) comes in with one
# action per BCK of its joint count, named by the file's stem, that moves the joints at its middle
# frame, and sets the scene to the BCKs' 30 fps; the option off attaches none. Each action exported
# unedited over its BCK gives the original's bytes (Blender's bone turns, its noise and its per-frame
# samples are no edit); one key edited in Blender changes only that joint's rotation tracks; "New
# file" writes a new BCK. Pikmin 2's Piki comes in with its BCAs beside it, and each comes back
# identical from Blender's unedited export.
import json
import os
import shutil
import sys

import bpy
from mathutils import Quaternion

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.install_addon()
from remodel_blender import operators  # noqa: E402

LINK = ["rise", "damfb", "wait", "walk"]
model = common.sample("j3d/ww_cl.bdl")
bcks = [common.sample(f"j3d-anim/ww_link/{n}.bck") for n in LINK]
other = common.sample("j3d-anim/ww_jabun/18_jb_cut12_lookwait_l.bck")  # Jabun's joints, not Link's


def tracks(path):
    """Each joint's tracks of the BCK at path as `remodel dump` reads them: kind -> [(count, values)] per axis."""
    dumped = json.loads(common.remodel("dump", path).stdout)
    return [{kind: [(t["count"], t["values"]) for t in joint[kind]] for kind in ("scale", "rotation", "translation")}
            for joint in dumped["j3d_anim"]["section"]["joints"]]


def moved_joints(action):
    """The bones the action poses away from the rest pose at its middle frame."""
    rig = common.armature()
    rig.animation_data.action = action
    start, end = action.frame_range
    bpy.context.scene.frame_set(int((start + end) / 2))
    return [b.name for b in rig.pose.bones
            if (b.matrix_basis.to_translation().length > 1e-3 or b.matrix_basis.to_quaternion().angle > 1e-3)]


if model and None not in bcks:
    folder = os.path.join(common.TMP, "ww_cl")
    os.makedirs(folder)
    source = shutil.copy(model, folder)
    for b in bcks:
        shutil.copy(b, folder)
    if other:
        shutil.copy(other, folder)
    with open(os.path.join(folder, "broken.bck"), "wb") as f:
        f.write(b"J3D1bck1" + bytes(8))  # a header cut short: unreadable
    joints = common.info(model)["joints"]

    common.part("ww_cl.bdl with the BCKs beside it")
    result = bpy.ops.import_scene.remodel(filepath=source)
    check(result == {"FINISHED"}, f"the import finished ({result}; {common.reports()})")
    check(sorted(a.name for a in bpy.data.actions) == sorted(LINK), f"one action per Link BCK, named by its stem: {[a.name for a in bpy.data.actions]}")
    check(common.reported("WARNING", "broken.bck beside the model is skipped"), f"the unreadable BCK is skipped with a warning: {common.reports()}")
    if other:
        check(common.reported("INFO", "18_jb_cut12_lookwait_l.bck beside the model is not attached"), f"Jabun's BCK is not attached: {common.reports()}")
    collection = next(c for c in bpy.data.collections if c.get(operators.SOURCE))
    want = ";".join(os.path.join(folder, n + ".bck") for n in sorted(LINK))
    check(collection.get(operators.ANIMATIONS) == want, f"the collection remembers the BCKs: {collection.get(operators.ANIMATIONS)}")
    check(len(common.armature().pose.bones) == joints, f"the armature has the model's {joints} joints")
    for action in bpy.data.actions:
        moved = moved_joints(action)
        print(f"{action.name}: {len(moved)} of {joints} bones off the rest pose at the middle frame", flush=True)
        check(moved, f"{action.name} moves some joint at its middle frame")

    common.part("each BCK exported unedited over its original")
    check(bpy.context.scene.render.fps == 30 and bpy.context.scene.render.fps_base == 1, "the import set the scene to the BCKs' 30 fps")
    for name in LINK:
        out = os.path.join(common.TMP, "out", name + ".bck")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        common.armature().animation_data.action = bpy.data.actions["rise" if name != "rise" else "wait"]  # the file's name chooses
        result = bpy.ops.export_scene.remodel(filepath=out, mode="ORIGINAL", target="j3d-anim")
        check(result == {"FINISHED"}, f"{name}: the export finished ({result}; {common.reports()})")
        check(common.reported("INFO", "over " + os.path.join(folder, name + ".bck")), f"{name}: written over {name}.bck: {common.reports()}")
        original = os.path.join(folder, name + ".bck")
        if check(os.path.isfile(out), f"{name}.bck was written"):
            check(common.same_bytes(out, original), f"{name}.bck from Blender's unedited export has the original's bytes "
                  f"({os.path.getsize(out)}, the original {os.path.getsize(original)})")

    common.part("one key edited in Blender changes only its joint's rotation")
    rig = common.armature()
    rig.animation_data.action = bpy.data.actions["wait"]
    bpy.context.scene.frame_set(30)
    bone = rig.pose.bones["head_jnt"]
    bone.rotation_quaternion = bone.rotation_quaternion @ Quaternion((1, 0, 0), 0.3)
    bone.keyframe_insert("rotation_quaternion", frame=30)
    out = os.path.join(common.TMP, "out", "edited", "wait.bck")
    os.makedirs(os.path.dirname(out))
    result = bpy.ops.export_scene.remodel(filepath=out, mode="ORIGINAL", target="j3d-anim")
    if check(result == {"FINISHED"} and os.path.isfile(out), f"the edited wait.bck was written ({common.reports()})"):
        was, now = tracks(os.path.join(folder, "wait.bck")), tracks(out)
        changed = sorted({(j, kind) for j in range(len(was)) for kind in was[j] if was[j][kind] != now[j][kind]})
        check(len(changed) == 1 and changed[0][1] == "rotation", f"one joint's rotation changed, nothing else: {changed}")

    common.part("a new BCK from the actions")
    common.clear_scene()
    check(bpy.ops.import_scene.remodel(filepath=source) == {"FINISHED"}, f"imported again ({common.reports()})")
    new = os.path.join(common.TMP, "out", "new.bck")
    result = bpy.ops.export_scene.remodel(filepath=new, mode="NEW", target="j3d-anim")
    check(result == {"FINISHED"} and common.remodel("check", new).returncode == 0, f"a new BCK is written and checks ({common.reports()})")
    check(os.path.isfile(new) and common.info(new)["joints"] == joints, f"the new BCK animates the model's {joints} joints")

    common.part("ww_cl.bdl with Animations beside the model off")
    common.clear_scene()
    result = bpy.ops.import_scene.remodel(filepath=source, beside=False)
    check(result == {"FINISHED"} and not bpy.data.actions, f"no actions without the option: {[a.name for a in bpy.data.actions]}")
    common.clear_scene()
    result = bpy.ops.import_scene.remodel(filepath=source, beside=False, animations=os.path.join(folder, "damfb.bck"))
    check(result == {"FINISHED"} and [a.name for a in bpy.data.actions] == ["damfb"],
          f"the animations list takes a BCK: {[a.name for a in bpy.data.actions]}")
piki = common.sample("j3d-anim/pik2_piki/piki_p2_red.bmd")
if piki:
    common.part("piki_p2_red.bmd with its BCAs beside it")
    common.clear_scene()
    folder = os.path.dirname(piki)
    bcas = sorted(os.path.splitext(n)[0] for n in os.listdir(folder) if n.endswith(".bca"))
    result = bpy.ops.import_scene.remodel(filepath=piki)
    check(result == {"FINISHED"}, f"the import finished ({result}; {common.reports()})")
    check(sorted(a.name for a in bpy.data.actions) == bcas, f"one action per BCA, named by its stem: {[a.name for a in bpy.data.actions]}")
    for name in bcas:
        out = os.path.join(common.TMP, "out", "piki", name + ".bca")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        common.armature().animation_data.action = bpy.data.actions[name]
        result = bpy.ops.export_scene.remodel(filepath=out, mode="ORIGINAL", target="j3d-bca" if name != "walk" else "AUTO")
        original = os.path.join(folder, name + ".bca")
        if check(result == {"FINISHED"} and os.path.isfile(out), f"{name}.bca was written ({common.reports()})"):
            check(common.same_bytes(out, original), f"{name}.bca from Blender's unedited export has the original's bytes "
                  f"({os.path.getsize(out)}, the original {os.path.getsize(original)})")
common.finish()
