# Edits through the add-on (the unedited round trip of every sample is test_unedited.py): one vertex
# moved in Blender changes only that vertex's data (`remodel diff`).
import json
import os
import sys

import bpy
import numpy

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.install_addon()



def imported(relative, what):
    """The sample's path and name, imported through the add-on into an empty scene; None when absent."""
    path = common.sample(relative)
    if path is None:
        return None, None
    name = os.path.basename(path)
    common.part(f"{name}: {what}")
    common.clear_scene()
    check(bpy.ops.import_scene.remodel(filepath=path) == {"FINISHED"}, f"{name}: imported ({common.reports()})")
    return path, name


# One vertex moved: remodel diff names only the vertex block; exported again, exactly that vertex's
# position differs (by the move), every UV, joint and weight is kept, and normals change only at
# vertices sharing a triangle with it (Blender keeps custom normals in their faces' frames: on
# f_hair097 a stored vertex comes back as copies whose normals differ, which store their mean).
for relative in ("mhfu/f_hair000_original.pac", "mhfu/f_hair097_rathalos_soul_cap.pac"):
    path, name = imported(relative, "one vertex moved")
    if path is None:
        continue
    obj = next(o for o in bpy.data.objects if o.type == "MESH")
    mesh = obj.data
    center = sum((v.co for v in mesh.vertices), mesh.vertices[0].co * 0) / len(mesh.vertices)
    moved = mesh.vertices[len(mesh.vertices) // 3]
    moved.co = moved.co + (center - moved.co) * 0.2  # inward: inside the stored position range
    out = os.path.join(common.TMP, "moved-" + name)
    check(bpy.ops.export_scene.remodel(filepath=out, mode="ORIGINAL") == {"FINISHED"}, f"{name}: exported ({common.reports()})")
    diff = json.loads(common.remodel("diff", "--json", path, out).stdout)
    fields = [f["field"] for f in diff["fields"]]
    check(fields and all(f.endswith(".vertices") for f in fields), f"{name}: remodel diff names only vertex blocks: {fields}")
    check(os.path.getsize(out) == os.path.getsize(path), f"{name}: the size is kept")
    before, after = (os.path.join(common.TMP, n + ".glb") for n in ("before", "after"))
    check(common.remodel("export", path, "-o", before).returncode == 0 and common.remodel("export", out, "-o", after).returncode == 0,
          f"{name}: both export")
    changed_positions = []
    for p, (a, b) in enumerate(zip(common.glb_attributes(before), common.glb_attributes(after))):
        if not check(sorted(a) == sorted(b) and all(a[k].shape == b[k].shape for k in a), f"{name}: primitive {p} keeps its layout"):
            continue
        moved_here = numpy.nonzero(numpy.any(a["POSITION"] != b["POSITION"], axis=1))[0]
        changed_positions += [(p, int(i)) for i in moved_here]
        for key in a:
            if key not in ("POSITION", "NORMAL", "indices"):
                check(numpy.array_equal(a[key], b[key]), f"{name}: primitive {p} keeps {key}")
        check(numpy.array_equal(a["indices"], b["indices"]), f"{name}: primitive {p} keeps its triangles")
        if "NORMAL" in a:
            tris = a["indices"].reshape(-1, 3)
            near = set(tris[numpy.any(numpy.isin(tris, moved_here), axis=1)].reshape(-1).tolist())
            turned = set(numpy.nonzero(numpy.any(a["NORMAL"] != b["NORMAL"], axis=1))[0].tolist())
            check(turned <= near, f"{name}: primitive {p}: normals change only beside the moved vertex ({sorted(turned - near)[:8]} are not)")
    check(len(changed_positions) == 1, f"{name}: exactly one vertex position changed: {changed_positions[:8]}")

common.finish()
