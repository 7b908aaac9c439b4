# Issue 30's modder workflow, one sample per family (KH BBS p01ex00.pmo, J3D sms_mom_model.bmd, MHFU
# f_hair000_original.pac, the BWM skin golden from fuzz/corpus): the game model's export replaced in
# Blender by replace.py (its meshes deleted, stretched spheres along the bones, a new checker
# material, a colour layer, automatic weights, the glTF exporter's defaults), then written back with
# the CLI over the original (--like) and as a new file with --skeleton ORIGINAL, and through the
# add-on's "New file", which must pass the imported model's file as --skeleton. Each result must
# keep the original's joints (names, parents, local transforms, inverse binds), hold the checker
# (textures extract), carry Blender's weights and colours, pass check, export and import again
# (replace_checks.attempt says what fails), and be posed by the game's skeleton as Blender poses it.
# REMODEL_REPLACE_FAMILY=kh-bbs|j3d|mhfu|bwm runs one family (ctest has a test for each).
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
import replace  # noqa: E402  (sets numpy.bool for Blender 3.4's glTF add-on)
import replace_checks  # noqa: E402
from common import check  # noqa: E402

common.install_addon()
from remodel_blender import cli as addon_cli  # noqa: E402

SAMPLES = [("kh-bbs", "kh-bbs/pmo/p01ex00.pmo"), ("j3d", "j3d/sms_mom_model.bmd"), ("mhfu", "mhfu/f_hair000_original.pac")]
TRIANGLES = 800  # low poly: the CLI's checks match every vertex, and two busy cores run this


def blender_replacement(original, stem):
    """replace.py's replacement of original's export, built in this Blender; its .glb path."""
    exported = os.path.join(common.TMP, stem + ".exported.glb")
    done = common.remodel("export", original, "-o", exported)
    if not check(done.returncode == 0, f"{stem}: remodel export: {done.stderr}"):
        return None
    common.clear_scene()
    bpy.ops.import_scene.gltf(filepath=exported)
    made = replace.build(TRIANGLES, os.path.join(common.TMP, stem + "_checker.png"))
    check(made["unweighted_by_heat"] == 0, f"{stem}: bone heat weighted every vertex: {made}")
    out = os.path.join(common.TMP, stem + ".glb")
    bpy.ops.export_scene.gltf(filepath=out)  # the exporter's defaults
    return out


def through_cli(original, stem, replacement):
    for like, title in ((True, "over the original (--like)"), (False, "as a new file with --skeleton")):
        got = replace_checks.attempt(common.REMODEL, original, replacement, os.path.join(common.TMP, stem), like=like, skeleton=True)
        for problem in got["problems"]:
            check(False, f"{stem} {title}: {problem}")


def through_addon(original, stem):
    """Import the game file with the add-on, replace its meshes, export a New file: the CLI is run
    with --skeleton ORIGINAL and the written skeleton is the original's."""
    common.clear_scene()
    bpy.ops.import_scene.remodel(filepath=original)
    replace.build(TRIANGLES, os.path.join(common.TMP, stem + "_addon_checker.png"))
    out = os.path.join(common.TMP, stem + ".addon" + os.path.splitext(original)[1])
    commands = []
    run = addon_cli.run

    def recording(exe, args, **kw):
        commands.append(list(args))
        return run(exe, args, **kw)

    addon_cli.run = recording
    try:
        bpy.ops.export_scene.remodel(filepath=out, mode="NEW")
    except RuntimeError as e:
        check(False, f"{stem} add-on New file: {e}")
    finally:
        addon_cli.run = run
    imports = [c for c in commands if c[:1] == ["import"]]
    given = imports[-1][imports[-1].index("--skeleton") + 1] if imports and "--skeleton" in imports[-1] else None
    check(given is not None and os.path.realpath(given) == os.path.realpath(original),
          f"{stem} add-on New file: `remodel import` is given --skeleton {original}: {imports}")
    if not os.path.isfile(out):
        return
    written, want = os.path.join(common.TMP, stem + ".addon.glb"), os.path.join(common.TMP, stem + ".original.glb")
    for path, glb in ((out, written), (original, want)):
        common.remodel("export", path, "-o", glb)
    for problem in replace_checks.skeleton_differences(replace_checks.skeleton(want), replace_checks.skeleton(written)):
        check(False, f"{stem} add-on New file: skeleton: {problem}")


only = os.environ.get("REMODEL_REPLACE_FAMILY")  # ctest runs one family per test
cases = [(family, common.sample(relative)) for family, relative in SAMPLES if only in (None, family)]
if only in (None, "bwm"):
    cases.append(("bwm", os.path.join(common.CORPUS, "bwm", "skin.bwm")))
for family, original in cases:
    if original is None:
        continue
    stem = os.path.splitext(os.path.basename(original))[0]
    common.part(f"{family}: {stem}")
    replacement = blender_replacement(original, stem)
    if replacement:
        through_cli(original, stem, replacement)
        through_addon(original, stem)
common.finish()
