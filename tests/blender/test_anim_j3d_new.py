# A new BCK authored from Blender's export of an edited Link animation moves the joints as Blender did:
# ww_cl.bdl comes in with wait.bck as an action; head_jnt and LarmA_jnt are turned at frame 30 and
# center moved at frame 45; File › Export with "New file" and Format BCK writes new.bck (not over
# wait.bck), which checks, animates the model's joints over the action's frames, and, imported back
# onto a fresh ww_cl.bdl, poses every bone as the edited action did at every frame (within the
# stored precision, TOLERANCE below), where wait.bck's poses differ at the edited frames by the edit.
import json
import math
import os
import shutil
import sys

import bpy
from mathutils import Quaternion, Vector

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.install_addon()

model = common.sample("j3d/ww_cl.bdl")
wait = common.sample("j3d-anim/ww_link/wait.bck")

# The edits: (bone, frame, path, change) with a rotation turned about a bone axis or a location moved.
TURNED = [("head_jnt", 30, Quaternion((1, 0, 0), 0.5)), ("LarmA_jnt", 30, Quaternion((0, 0, 1), -0.6))]
MOVED = ("center", 45, Vector((0, 12, -5)))

# What the new BCK can hold of Blender's pose, at whole frames. Rotation: each X, Y, Z angle is an s16
# in units of pi * 2^angle_scale / 32768 rad (9.6e-5 rad at angle_scale 0), fitted with Hermite keys
# within 1 unit at every frame (lower_bck.cpp's fit_angle_track, keys rounded before the check), so
# the three axes together are off by at most 3 units; Blender's glTF round trip turns a bone by up to
# 1e-3 rad (bone_turns.hpp's kBoneRollNoise), which its import of the new BCK undoes only to that.
# Translation and scale: f32, fitted within 1e-4 + 1e-5 * the track's largest |value|, plus Blender's
# noise (1e-3 of the translation's length plus 4e-5 of the skeleton's extent; scales 1e-5).
NOISE_ROTATION = 1e-3


def turn(a, b):
    """The angle between two rotations, radians (atan2: well-conditioned near 0, where acos is not)."""
    d = a.conjugated() @ b
    return 2 * math.atan2(math.sqrt(d.x * d.x + d.y * d.y + d.z * d.z), abs(d.w))


def worst(want, got, frames):
    """The largest (difference, frame, bone) of translation, rotation and scale between two poses (common.poses)."""
    out = {"translation": (0, None, None), "rotation": (0, None, None), "scale": (0, None, None)}
    for f in frames:
        for bone, (t, r, s) in want[f].items():
            t2, r2, s2 = got[f][bone]
            for kind, d in (("translation", (t - t2).length), ("rotation", turn(r, r2)), ("scale", max(abs(x) for x in s - s2))):
                if not d <= out[kind][0]:  # a NaN is the worst
                    out[kind] = (d, f, bone)
    return out


if model and wait:
    folder = os.path.join(common.TMP, "ww_cl")
    os.makedirs(folder)
    source = shutil.copy(model, folder)
    original = shutil.copy(wait, folder)
    joints = common.info(model)["joints"]
    stored_frames = common.info(wait)["frames"]

    common.part("ww_cl.bdl with wait.bck, edited in Blender")
    result = bpy.ops.import_scene.remodel(filepath=source, beside=False, animations=original)
    check(result == {"FINISHED"} and [a.name for a in bpy.data.actions] == ["wait"], f"imported with wait as an action ({common.reports()})")
    action = bpy.data.actions["wait"]
    start, end = (int(round(x)) for x in action.frame_range)
    frames = range(start, end + 1)
    check(end - start == stored_frames, f"the action spans wait.bck's {stored_frames} frames: {start}..{end}")
    before = common.poses(action, frames)
    rig = common.armature()
    for name, frame, q in TURNED:
        bpy.context.scene.frame_set(frame)
        bone = rig.pose.bones[name]
        bone.rotation_quaternion = bone.rotation_quaternion @ q
        bone.keyframe_insert("rotation_quaternion", frame=frame)
    name, frame, v = MOVED
    bpy.context.scene.frame_set(frame)
    rig.pose.bones[name].location = rig.pose.bones[name].location + v
    rig.pose.bones[name].keyframe_insert("location", frame=frame)
    edited = common.poses(action, frames)
    for name, frame, q in TURNED:
        check(abs(turn(before[frame][name][1], edited[frame][name][1]) - q.angle) < 1e-4, f"{name} turned by {q.angle} rad at frame {frame} in Blender")
    check(abs((edited[MOVED[1]][MOVED[0]][0] - before[MOVED[1]][MOVED[0]][0]).length - MOVED[2].length) < 1e-4, "center moved in Blender")

    common.part("a new BCK from the edited action")
    new = os.path.join(common.TMP, "out", "new.bck")
    os.makedirs(os.path.dirname(new))
    result = bpy.ops.export_scene.remodel(filepath=new, mode="NEW", target="j3d-anim")
    check(result == {"FINISHED"} and os.path.isfile(new), f"new.bck was written ({common.reports()})")
    check(common.same_bytes(original, wait), "wait.bck beside the model is untouched")
    done = common.remodel("check", new)
    check(done.returncode == 0, f"remodel check passes on new.bck: {done.stdout}{done.stderr}")
    described = common.info(new)
    check(described["joints"] == joints, f"new.bck animates the model's {joints} joints: {described['joints']}")
    check(described["frames"] == end - start, f"new.bck lasts the action's {end - start} frames: {described['frames']}")

    common.part("new.bck imported back poses every bone as the edited action")
    common.clear_scene()
    result = bpy.ops.import_scene.remodel(filepath=source, beside=False, animations=new)
    check(result == {"FINISHED"} and [a.name for a in bpy.data.actions] == ["new"], f"imported with new.bck as an action ({common.reports()})")
    back = common.poses(bpy.data.actions["new"], frames)
    extent = max(b.head_local.length for b in common.armature().data.bones)
    unit = math.pi / 32768 * 2 ** json.loads(common.remodel("dump", new).stdout)["j3d_anim"]["section"]["angle_scale"]
    largest = max(t.length for f in frames for t, r, s in edited[f].values())
    tolerance = {"rotation": 3 * unit + NOISE_ROTATION,
                 "translation": 1e-4 + 1e-5 * largest + 1e-3 * largest + 4e-5 * max(1.0, extent),
                 "scale": 1e-4 + 1e-5 + 1e-5}
    off = worst(edited, back, frames)
    for kind, (d, f, bone) in off.items():
        print(f"{kind}: new.bck is off Blender's edited pose by at most {d:.3g} (frame {f}, {bone}); tolerance {tolerance[kind]:.3g}", flush=True)
        check(d <= tolerance[kind], f"new.bck's {kind} is Blender's edited pose within {tolerance[kind]:.3g} at every frame: "
              f"off by {d:.3g} at frame {f} on {bone}")
    print(f"new.bck's angle unit: {unit:.3g} rad; the largest translation {largest:.3g}, the skeleton's extent {extent:.3g}", flush=True)
    for name, frame in [(n, f) for n, f, _ in TURNED] + [MOVED[:2]]:
        for f in (frame - 1, frame, frame + 1):
            print(f"{name} at frame {f}: wait.bck {before[f][name][:2]}, edited {edited[f][name][:2]}, new.bck {back[f][name][:2]}", flush=True)
    for name, frame, q in TURNED:
        d = turn(before[frame][name][1], back[frame][name][1])
        check(abs(d - q.angle) <= tolerance["rotation"], f"new.bck turns {name} at frame {frame} by the edit ({q.angle} rad) off wait.bck: {d:.4f}")
    name, frame, v = MOVED
    d = (back[frame][name][0] - before[frame][name][0]).length
    check(abs(d - v.length) <= tolerance["translation"], f"new.bck moves {name} at frame {frame} by the edit ({v.length:.3f}) off wait.bck: {d:.4f}")
common.finish()
