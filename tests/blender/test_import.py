# File › Import through the add-on gives what remodel reports: for p01ex00.pmo with test.pam,
# ww_cl.bdl, an MHFU PAC and a BWM golden file, Blender's joints are `remodel info`'s joints, its
# actions the PAM's animations, its materials `remodel info`'s materials (KH BBS PMOs have no material
# table: there the glTF's), its mesh objects the glTF's meshes; the imported collection names its
# source file and format for export; the PMO's actions export back as a PAM.
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.install_addon()
from remodel_blender import operators  # noqa: E402



def export_pam(pmo, pam):
    """The imported actions back as a PAM on the PMO's skeleton, over the imported PAM (--like) and
    new: over it, the unedited actions (bones turned, every frame sampled again, Blender's noise) give
    the PAM's own bytes; new, the PAM has its animations, frames and joints and reads and writes back
    identically."""
    common.part(f"the actions exported as a PAM on {os.path.basename(pmo)}")
    check((bpy.context.scene.render.fps, bpy.context.scene.render.fps_base) == (30, 1), "the import set the scene to the PAM's 30 fps")
    want = common.info(pam)
    for mode in ("ORIGINAL", "NEW"):
        out = os.path.join(common.TMP, f"{mode}.pam")
        check(bpy.ops.export_scene.remodel(filepath=out, mode=mode, target="kh-bbs-pam") == {"FINISHED"}, f"PAM {mode}: exported ({common.reports()})")
        check(common.reported("INFO", "over " + os.path.abspath(pam)) == (mode == "ORIGINAL"), f"PAM {mode}: --like the PAM only over the original")
        check(common.remodel("check", out).returncode == 0, f"PAM {mode}: remodel check reads it")
        got = common.info(out)
        check([got[k] for k in ("animations", "frames", "joints")] == [want[k] for k in ("animations", "frames", "joints")],
              f"PAM {mode}: animations, frames and joints are {os.path.basename(pam)}'s: {got}")
        if mode == "ORIGINAL":
            check(common.same_bytes(out, pam), f"PAM ORIGINAL: the unedited actions give {os.path.basename(pam)}'s bytes "
                  f"({os.path.getsize(out)}, the original {os.path.getsize(pam)})")


models = [
    ("kh-bbs/pmo/p01ex00.pmo", ["kh-bbs/pam/test.pam"]),
    ("j3d/ww_cl.bdl", []),
    ("mhfu/f_hair000_original.pac", []),
    (os.path.join(common.CORPUS, "bwm", "skin.bwm"), []),
]
for relative, anims in models:
    path = relative if os.path.isabs(relative) else common.sample(relative)
    anim_paths = [common.sample(a) for a in anims]
    if path is None or None in anim_paths:
        continue
    name = os.path.basename(path)
    common.part(f"import {name}" + "".join(f" with {os.path.basename(a)}" for a in anim_paths))
    common.clear_scene()
    model = common.info(path)
    glb = os.path.join(common.TMP, name + ".glb")
    args = ["export", path, "-o", glb]
    for a in anim_paths:
        args += ["--anim", a]
    check(common.remodel(*args).returncode == 0, f"remodel export {name}")
    gltf = common.glb_json(glb)
    result = bpy.ops.import_scene.remodel(filepath=path, animations=";".join(anim_paths))
    check(result == {"FINISHED"}, f"{name}: the import finished ({result}; {common.reports()})")
    got = common.counts()
    want = {
        "meshes": len(gltf.get("meshes", [])),
        "joints": model["joints"],
        "materials": model["materials"] if model["materials"] else len(gltf.get("materials", [])),
        "actions": sum(common.info(a)["animations"] for a in anim_paths),
    }
    print(f"{name}: Blender {got}, remodel {want}", flush=True)
    check(got == want, f"{name}: Blender has {got}, remodel reports {want}")
    check(want["joints"] > 0 and want["meshes"] > 0 and want["materials"] > 0, f"{name}: the counts compared are not empty: {want}")
    collections = [c for c in bpy.data.collections if c.get(operators.SOURCE)]
    check(len(collections) == 1, f"{name}: one collection names its source")
    if collections:
        c = collections[0]
        check(c[operators.SOURCE] == os.path.abspath(path) and c[operators.FORMAT] == model["format"],
              f"{name}: the collection stores the source and format: {dict(c)}")
        check(all(c in o.users_collection for o in bpy.data.objects), f"{name}: every imported object is in that collection")
        if anim_paths:
            check(c[operators.ANIMATIONS] == ";".join(map(os.path.abspath, anim_paths)), f"{name}: the collection stores the PAM files")
    if anim_paths:
        export_pam(path, anim_paths[0])
    check(not any(f.startswith("remodel-blender-") for f in os.listdir(os.environ["TMPDIR"])), f"{name}: the temporary folder is gone")
common.finish()
