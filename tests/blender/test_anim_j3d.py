# File › Import of a J3D model attaches the BCKs beside it as actions: ww_cl.bdl copied beside three
# of Link's BCKs (and a BCK of another model's joint count, and a damaged one) comes in with one
# action per BCK of its joint count, named by the file's stem, that moves the joints at its middle
# frame; the option off attaches none; an action exported unedited is written over its BCK, which
# `remodel check` reads with the original's joints and frames; "New file" writes a new BCK. Whether
# the bytes are the original's and how far the poses are from the original's are printed, not
# asserted: Blender's export carries its turned bone frames, which remodel's BCK import does not undo
# yet (its model import does).
import os
import shutil
import sys

import bpy

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.install_addon()
from remodel_blender import operators  # noqa: E402

LINK = ["rise", "damfb", "wait"]
model = common.sample("j3d/ww_cl.bdl")
bcks = [common.sample(f"j3d-anim/ww_link/{n}.bck") for n in LINK]
other = common.sample("j3d-anim/ww_jabun/18_jb_cut12_lookwait_l.bck")  # Jabun's joints, not Link's


def armature():
    return next(o for o in bpy.data.objects if o.type == "ARMATURE")


def poses(action, frames):
    """Each bone's (translation, rotation) off its rest pose at these frames of the action."""
    rig = armature()
    rig.animation_data.action = action
    out = {}
    for f in frames:
        bpy.context.scene.frame_set(f)
        out[f] = {b.name: (b.matrix_basis.to_translation(), b.matrix_basis.to_quaternion()) for b in rig.pose.bones}
    return out


def moved_joints(action):
    """The bones the action poses away from the rest pose at its middle frame."""
    rig = armature()
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
    check(len(armature().pose.bones) == joints, f"the armature has the model's {joints} joints")
    for action in bpy.data.actions:
        moved = moved_joints(action)
        print(f"{action.name}: {len(moved)} of {joints} bones off the rest pose at the middle frame", flush=True)
        check(moved, f"{action.name} moves some joint at its middle frame")

    common.part("wait.bck exported unedited over its original")
    out = os.path.join(common.TMP, "out", "wait.bck")
    os.makedirs(os.path.dirname(out))
    armature().animation_data.action = bpy.data.actions["rise"]  # the file's name chooses, not the active action
    result = bpy.ops.export_scene.remodel(filepath=out, mode="ORIGINAL", target="j3d-anim")
    check(result == {"FINISHED"}, f"the export finished ({result}; {common.reports()})")
    check(common.reported("INFO", "over " + os.path.join(folder, "wait.bck")), f"written over wait.bck: {common.reports()}")
    frames = list(range(0, int(bpy.data.actions["wait"].frame_range[1]) + 1, 5))
    want = poses(bpy.data.actions["wait"], frames)
    if check(os.path.isfile(out), "wait.bck was written"):
        identical = common.same_bytes(out, os.path.join(folder, "wait.bck"))
        print(f"wait.bck from Blender's unedited export: {'identical' if identical else 'different'} bytes "
              f"({os.path.getsize(out)}, the original {os.path.getsize(os.path.join(folder, 'wait.bck'))})", flush=True)
        check(common.remodel("check", out).returncode == 0, "remodel check reads the written wait.bck")
        written, original = common.info(out), common.info(os.path.join(folder, "wait.bck"))
        check([written[k] for k in ("joints", "frames")] == [original[k] for k in ("joints", "frames")],
              f"the written wait.bck has the original's joints and frames: {written}")
        common.clear_scene()
        result = bpy.ops.import_scene.remodel(filepath=source, beside=False, animations=out)
        check(result == {"FINISHED"} and [a.name for a in bpy.data.actions] == ["wait"], f"the written wait.bck imports as an action: {common.reports()}")
        if bpy.data.actions:
            got = poses(bpy.data.actions[0], frames)
            worst = max((w[0] - g[0]).length + w[1].rotation_difference(g[1]).angle
                        for f in frames for w, g in ((want[f][b], got[f][b]) for b in want[f]))
            print(f"wait.bck written over the original: the largest bone pose difference (translation + angle) "
                  f"from the original's is {worst:.3g}", flush=True)

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
common.finish()
