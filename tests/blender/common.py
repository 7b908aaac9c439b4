# What the headless Blender tests share: the add-on installed from its zip into the clean profile
# tests/blender/run.sh made, the remodel CLI, samples (skip or fail), scene counts, and checks that
# collect failures and end the run with exit 1 (a failure), 77 (everything skipped) or 0.
import json
import os
import subprocess
import sys
import time

import addon_utils
import bpy

import replace_checks  # beside this file: the .glb reader the tests share

sys.dont_write_bytecode = True  # nothing written beside the sources

REMODEL = os.environ["REMODEL_CLI"]
ZIP = os.environ["REMODEL_ADDON_ZIP"]
CORPUS = os.environ["REMODEL_CORPUS"]
SAMPLES = os.environ.get("REMODEL_SAMPLES") or os.environ.get("REMODEL_DEFAULT_SAMPLES", "")
TMP = os.environ["REMODEL_TEST_TMP"]
REQUIRE_SAMPLES = os.environ.get("REMODEL_REQUIRE_SAMPLES") == "1"

failures = []
skips = []
ran = []
started = time.monotonic()


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message, flush=True)
    return condition


def sample(relative):
    """A sample's path, or None (a skip, or a failure under REMODEL_REQUIRE_SAMPLES=1) when absent."""
    path = os.path.join(SAMPLES, relative)
    if SAMPLES and os.path.isfile(path):
        return path
    if REQUIRE_SAMPLES:
        check(False, f"sample {relative} is absent from {SAMPLES or '(REMODEL_SAMPLES unset)'} and REMODEL_REQUIRE_SAMPLES=1")
    else:
        skips.append(relative)
        print(f"SKIP: sample {relative} is absent from {SAMPLES or '(REMODEL_SAMPLES unset)'}", flush=True)
    return None


def part(name):
    ran.append(name)
    print(f"== {name} ({time.monotonic() - started:.1f} s)", flush=True)


def finish():
    print(f"{len(ran)} parts in {time.monotonic() - started:.1f} s; {len(failures)} failures, {len(skips)} samples skipped", flush=True)
    if failures:
        sys.exit(1)
    if not ran:
        sys.exit(77)
    sys.exit(0)


def install_addon(executable=REMODEL):
    """Installs the zip into the empty profile and enables it, as Install add-on from file does."""
    addons = bpy.utils.user_resource("SCRIPTS", path="addons")
    check(not os.path.exists(os.path.join(addons, "remodel_blender")), f"the profile is not clean: {addons} holds remodel_blender")
    bpy.ops.preferences.addon_install(filepath=ZIP)
    check(os.path.isfile(os.path.join(addons, "remodel_blender", "__init__.py")), f"the zip did not install into {addons}")
    module = addon_utils.enable("remodel_blender", default_set=True, handle_error=None)
    check(module is not None, "addon_utils.enable did not enable remodel_blender")
    bpy.context.preferences.addons["remodel_blender"].preferences.executable = executable
    return module


def remodel(*args):
    return subprocess.run([REMODEL, *args], capture_output=True, text=True)


def info(path):
    done = remodel("info", "--json", path)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def glb_json(path):
    """The JSON chunk of a .glb."""
    return replace_checks.glb(path)[0]


def clear_scene():
    """Everything a test imported or made, removed (the add-on and its preferences stay)."""
    for data in (bpy.data.objects, bpy.data.meshes, bpy.data.armatures, bpy.data.materials, bpy.data.actions,
                 bpy.data.images, bpy.data.collections, bpy.data.textures):
        for item in list(data):
            data.remove(item)


def counts():
    return {
        "meshes": len([o for o in bpy.data.objects if o.type == "MESH"]),
        "joints": sum(len(a.bones) for a in bpy.data.armatures),
        "materials": len(bpy.data.materials),
        "actions": len(bpy.data.actions),
    }


def reports():
    import remodel_blender.operators
    return list(remodel_blender.operators.last_reports)


def reported(level, text):
    """Whether the last import or export reported a message of that level containing text."""
    return any(lv == level and text in message for lv, message in reports())


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def expect_error(call, text, what):
    """Runs call (an operator), which must fail with an error report containing text; returns it."""
    try:
        call()
    except RuntimeError as e:
        check(text in str(e), f"{what}: the report holds {text!r}: {e}")
        return str(e)
    check(False, f"{what}: no error was reported")
    return ""


def glb_attributes(path):
    """Every primitive's attributes of a .glb as numpy arrays: [{"POSITION": array(n, 3), ...,
    "indices": array}] in mesh and primitive order (no sparse accessors: remodel writes none)."""
    gltf, binary = replace_checks.glb(path)
    out = []
    for mesh in gltf.get("meshes", []):
        for p in mesh["primitives"]:
            arrays = {name: replace_checks.accessor(gltf, binary, i) for name, i in p["attributes"].items()}
            if "indices" in p:
                arrays["indices"] = replace_checks.accessor(gltf, binary, p["indices"]).reshape(-1).astype(int)
            out.append(arrays)
    return out


def armature():
    """The scene's first armature object."""
    return next(o for o in bpy.data.objects if o.type == "ARMATURE")


def poses(action, frames):
    """Each bone's (translation, rotation, scale) off its rest pose at each of these frames of the action."""
    rig = armature()
    rig.animation_data.action = action
    out = {}
    for f in frames:
        bpy.context.scene.frame_set(f)
        out[f] = {b.name: b.matrix_basis.decompose() for b in rig.pose.bones}
    return out
