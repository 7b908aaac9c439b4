# Colours painted in Blender come back as painted (issue 31 item 4): a KH BBS PMO and a J3D model
# that draw vertex colours, imported through the add-on, a few triangles' face corners painted to
# pure colours with bpy, exported over the original. Read back with the CLI (`remodel export` of the
# result), each painted triangle carries its paint at every corner and every other triangle keeps
# the colours the original stores. Blender 3.4's exporter reads corner colours at the wrong vertex
# (operators.corner_colours_by_corner works around it): without that, the paint lands elsewhere.
import os
import sys

import bpy
import numpy

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.install_addon()

PAINTS = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (1.0, 1.0, 0.0), (0.0, 1.0, 1.0)]
# The formats store colours in /128 (KH BBS) or /255 (J3D) steps and Blender keeps them as sRGB bytes:
# one step of either is within this; a paint is further than it from every colour it replaces.
STEP = 1.0 / 128 + 1e-4


def triangles(glb):
    """{key: [(corner positions, corner colours)]}: every drawn triangle of a .glb keyed by its corner
    positions (rounded, in sorted order), with its corners' positions and RGBA colours (white without COLOR_0)."""
    out = {}
    for p in common.glb_attributes(glb):
        positions = p["POSITION"]
        colours = p["COLOR_0"] if "COLOR_0" in p else numpy.ones((len(positions), 4))
        if colours.shape[1] == 3:
            colours = numpy.hstack([colours, numpy.ones((len(colours), 1))])
        corners = p["indices"] if "indices" in p else numpy.arange(len(positions))
        for t in range(0, len(corners) - 2, 3):
            c = corners[t:t + 3]
            if len({tuple(positions[i]) for i in c}) < 3:
                continue  # no area: glTF export leaves it out
            key = tuple(sorted(position_key(positions[i]) for i in c))
            out.setdefault(key, []).append(([position_key(positions[i]) for i in c], colours[c]))
    return out


def position_key(p):
    return tuple(round(float(x), 4) for x in p)


def check_painted(relative):
    path = common.sample(relative)
    if path is None:
        return
    name = os.path.basename(path)
    common.part(f"{name}: face corners painted, exported over the original")
    common.clear_scene()
    check(bpy.ops.import_scene.remodel(filepath=path) == {"FINISHED"}, f"{name}: imported ({common.reports()})")
    before_glb = os.path.join(common.TMP, "before-" + name + ".glb")
    check(common.remodel("export", path, "-o", before_glb).returncode == 0, f"{name}: the original exports")
    before = triangles(before_glb)

    # Paint triangles that stand alone (one triangle at their corners in the original and in Blender),
    # spread over the meshes, each to a pure colour far from every colour it had.
    painted = {}  # key -> RGBA
    for obj in sorted((o for o in bpy.data.objects if o.type == "MESH" and o.data.color_attributes), key=lambda o: o.name):
        mesh = obj.data
        layer = mesh.color_attributes[mesh.color_attributes.render_color_index]
        if layer.domain != "CORNER":
            continue
        keys = []
        for poly in mesh.polygons:
            # Blender is Z up, glTF Y up: the importer stored (x, -z, y).
            keys.append(tuple(sorted(position_key((mesh.vertices[v].co.x, mesh.vertices[v].co.z, -mesh.vertices[v].co.y)) for v in poly.vertices)))
        counts = {}
        for k in keys:
            counts[k] = counts.get(k, 0) + 1
        step = max(1, len(mesh.polygons) // 7)
        for i in range(step // 2, len(mesh.polygons), step):
            poly, key = mesh.polygons[i], keys[i]
            paint = PAINTS[len(painted) % len(PAINTS)] + (1.0,)
            if len(poly.vertices) != 3 or counts[key] != 1 or len(before.get(key, [])) != 1 or key in painted:
                continue
            if numpy.any(numpy.all(numpy.abs(before[key][0][1] - paint) <= STEP, axis=1)):
                continue  # a corner already had that colour
            for loop in poly.loop_indices:
                layer.data[loop].color = paint
            painted[key] = paint
    check(len(painted) >= 3, f"{name}: triangles to paint were found ({len(painted)})")

    out = os.path.join(common.TMP, "painted-" + name)
    check(bpy.ops.export_scene.remodel(filepath=out, mode="ORIGINAL") == {"FINISHED"}, f"{name}: exported ({common.reports()})")
    after_glb = os.path.join(common.TMP, "after-" + name + ".glb")
    if not check(os.path.isfile(out) and common.remodel("export", out, "-o", after_glb).returncode == 0, f"{name}: the result exports"):
        return
    after = triangles(after_glb)
    for key, paint in painted.items():
        found = after.get(key, [])
        check(len(found) == 1 and numpy.all(numpy.abs(found[0][1] - paint) <= STEP),
              f"{name}: the triangle painted {paint[:3]} carries it at every corner: {[f[1].round(3).tolist() for f in found]}")
    # Every other triangle is one the original draws at those corners with those colours (translucent
    # layers draw some triangles twice, in two colours: as a set, per corner key).
    kept = changed = 0
    for key, found in after.items():
        if key in painted:
            continue
        was = [sorted(zip(ps, cs.round(4).tolist())) for ps, cs in before.get(key, [])]
        for positions, colours in found:
            now = sorted(zip(positions, colours.round(4).tolist()))
            same = now in was
            kept += same
            changed += not same
            if not same and changed <= 5:
                print(f"  {name}: triangle {now} was {was}", flush=True)
    check(kept > 0 and changed == 0, f"{name}: every unpainted triangle keeps its stored colours ({kept} kept, {changed} changed)")


check_painted("kh-bbs/pmo/p01ex00.pmo")
check_painted("j3d/mkdd_mariotree1.bmd")
common.finish()
