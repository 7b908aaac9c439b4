# File › Import through the add-on gives what remodel reports: for p01ex00.pmo with test.pam,
# ww_cl.bdl, an MHFU PAC and a BWM golden file, Blender's joints are `remodel info`'s joints, its
# actions the PAM's animations, its materials `remodel info`'s materials (KH BBS PMOs have no material
# table: there the glTF's), its mesh objects the glTF's meshes; the imported collection names its
# source file and format for export.
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.install_addon()
from remodel_blender import operators  # noqa: E402

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
    check(not any(f.startswith("remodel-blender-") for f in os.listdir(os.environ["TMPDIR"])), f"{name}: the temporary folder is gone")
common.finish()
