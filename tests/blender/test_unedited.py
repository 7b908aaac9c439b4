# Unedited, File › Import then File › Export "over the original" gives the original's bytes, for every
# sample of one family (REMODEL_UNEDITED_FAMILY: kh-bbs, j3d, mhfu, bwm; the BWM goldens are the
# corpus's). Blender 3.4's exporter misplaces face-corner colours (the add-on reads them corner by
# corner while it exports: operators.corner_colours_by_corner), which broke most KH BBS sections
# and the J3D samples that draw vertex colours. Every sample is asserted identical: g59dc00.pmo's
# colours come back a /128 step off (within Blender's noise), riistudio_Mario.bdl's joint stored at
# scale 0 comes back at 1 (Blender holds no bone of zero size).
import glob
import os
import sys

import bpy

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.install_addon()

FAMILY = os.environ.get("REMODEL_UNEDITED_FAMILY", "")
PATTERNS = {
    "kh-bbs": [("samples", "kh-bbs/pmo/*.pmo"), ("samples", "kh-bbs/pmp/*.pmp")],
    "j3d": [("samples", "j3d/*.bmd"), ("samples", "j3d/*.bdl"), ("samples", "j3d-layouts/*.bmd")],
    "mhfu": [("samples", "mhfu/*.pac")],
    "bwm": [("corpus", "bwm/*.bwm")],
}
check(FAMILY in PATTERNS, f"REMODEL_UNEDITED_FAMILY={FAMILY!r} names none of {sorted(PATTERNS)}")
files = []
for root, pattern in PATTERNS.get(FAMILY, []):
    base = common.SAMPLES if root == "samples" else common.CORPUS
    files += sorted(glob.glob(os.path.join(base, pattern))) if base else []
if not files and FAMILY in PATTERNS:
    common.sample(PATTERNS[FAMILY][0][1])  # absent: a skip, or a failure when samples are required

for path in files:
    name = os.path.basename(path)
    common.part(f"{name}: import, export over the original")
    common.clear_scene()
    try:
        imported = bpy.ops.import_scene.remodel(filepath=path) == {"FINISHED"}
    except RuntimeError as error:  # the operator's error report: one failure, not two
        check(False, f"{name}: import failed: {error}")
        continue
    if not check(imported, f"{name}: imported ({common.reports()})"):
        continue
    out = os.path.join(common.TMP, name)
    check(bpy.ops.export_scene.remodel(filepath=out, mode="ORIGINAL") == {"FINISHED"}, f"{name}: exported ({common.reports()})")
    same = os.path.isfile(out) and common.same_bytes(out, path)
    check(same, f"{name}: the unedited export has the original's bytes")
    if os.path.isfile(out) and not same:
        for level, message in common.reports()[:12]:
            print(f"  {level}: {message[:300]}")
        print(common.remodel("diff", path, out).stdout[:1500])

common.finish()
