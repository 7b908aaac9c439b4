# What a modder does to replace a game character (issue 30), in Blender 3.4 without the add-on:
# import the game model's glTF export, delete every mesh, model a new body along the armature (a
# stretched UV sphere per bone, joined into one low-poly object), give it a new material with a new
# 64x64 red/white checker PNG and one vertex-colour layer (a gradient), parent it to the armature
# With Automatic Weights, and export with Blender's glTF exporter at its defaults.
#   usage: blender -b --python-exit-code 1 -P tests/blender/replace.py -- IN.glb OUT.glb
#            [--max-triangles N] [--image PNG]
# IN.glb is `remodel export GAMEFILE -o IN.glb`; the checker is saved as PNG (default OUT's stem +
# "_checker.png" beside OUT) and embedded by the exporter. Prints one line "REMODEL_REPLACED {json}"
# with what it made. test_replace.py imports this file and calls replace().
import json
import os
import sys

import numpy

numpy.bool = bool  # Blender 3.4's glTF importer still uses np.bool, which numpy >= 1.24 removed

import bmesh  # noqa: E402
import bpy  # noqa: E402
from mathutils import Matrix, Vector  # noqa: E402

CHECKER_SIZE = 64
CHECKER_SQUARE = 8  # texels per square: 8x8 squares of red and white
RED = (1.0, 0.0, 0.0, 1.0)
WHITE = (1.0, 1.0, 1.0, 1.0)
GRADIENT = ((0.1, 0.2, 1.0, 1.0), (1.0, 0.9, 0.1, 1.0))  # vertex colour at the lowest and highest point
SPHERE_TRIANGLES_MIN = 6 * 2 * 2 + 2 * 6  # 6 segments, 4 rings: the coarsest sphere used


def checker_texel(x, y):
    """The checker's colour at texel (x, y) of the 64x64 image (row 0 at the top, as a PNG stores it)."""
    return RED if (x // CHECKER_SQUARE + y // CHECKER_SQUARE) % 2 == 0 else WHITE


def make_checker(path):
    """A new 64x64 red/white checker image, saved as PNG at path (Blender's rows run bottom-up)."""
    image = bpy.data.images.new("replacement_checker", CHECKER_SIZE, CHECKER_SIZE, alpha=False)
    pixels = []
    for row in range(CHECKER_SIZE):
        for x in range(CHECKER_SIZE):
            pixels.extend(checker_texel(x, CHECKER_SIZE - 1 - row))
    image.pixels = pixels
    image.filepath_raw = path
    image.file_format = "PNG"
    image.save()
    return image


def make_material(image):
    """A new Principled material whose Base Color is the image (UVMap coordinates)."""
    material = bpy.data.materials.new("replacement_checker")
    material.use_nodes = True
    nodes = material.node_tree.nodes
    texture = nodes.new("ShaderNodeTexImage")
    texture.image = image
    material.node_tree.links.new(texture.outputs["Color"], nodes["Principled BSDF"].inputs["Base Color"])
    return material


def sphere_shape(budget, bones):
    """UV sphere (segments, rings) so that one per bone stays within the triangle budget."""
    for segments, rings in ((12, 8), (10, 6), (8, 6), (8, 4), (6, 4)):
        if bones * (segments * (rings - 2) * 2 + 2 * segments) <= budget:
            return segments, rings
    return 6, 4


def body_along(armature, extent, max_triangles):
    """One mesh of stretched UV spheres, one per bone (the longest bones when the budget is short),
    from head to tail in world space, with UVs."""
    thinnest = extent * 0.03
    keep = max(1, max_triangles // SPHERE_TRIANGLES_MIN)
    placed = []  # (head, tail) in world space, longest bones first
    for bone in sorted(armature.data.bones, key=lambda b: -b.length):
        head = armature.matrix_world @ bone.head_local
        tail = armature.matrix_world @ bone.tail_local
        # A sphere (nearly) on top of another makes bone heat's system singular: it then weights nothing.
        if len(placed) < keep and not any((head - h).length < thinnest and (tail - t).length < thinnest for h, t in placed):
            placed.append((head, tail))
    segments, rings = sphere_shape(max_triangles, len(placed))
    bm = bmesh.new()
    bm.loops.layers.uv.new("UVMap")  # calc_uvs fills the first UV layer
    for head, tail in placed:
        axis = tail - head
        length = axis.length
        half = max(length * 0.6, thinnest)
        radius = max(min(length * 0.3, extent * 0.05), thinnest)
        turn = (axis if length > 1e-9 else Vector((0, 0, 1))).to_track_quat("Z", "Y").to_matrix().to_4x4()
        frame = Matrix.Translation((head + tail) / 2) @ turn @ Matrix.Diagonal((radius, radius, half, 1.0))
        bmesh.ops.create_uvsphere(bm, u_segments=segments, v_segments=rings, radius=1.0, matrix=frame, calc_uvs=True)
    mesh = bpy.data.meshes.new("replacement_body")
    bm.to_mesh(mesh)
    bm.free()
    for polygon in mesh.polygons:
        polygon.use_smooth = True
    body = bpy.data.objects.new("replacement_body", mesh)
    return body, len(placed), (segments, rings)


def paint_gradient(mesh):
    """One colour layer (per face corner, bytes): a gradient from the lowest point to the highest."""
    heights = [v.co.z for v in mesh.vertices]
    low, high = min(heights), max(heights)
    layer = mesh.vertex_colors.new(name="Col")
    for loop in mesh.loops:
        t = (mesh.vertices[loop.vertex_index].co.z - low) / max(high - low, 1e-9)
        layer.data[loop.index].color = [a + (b - a) * t for a, b in zip(*GRADIENT)]
    return layer


def extent_of(objects, armature):
    """The size of the model: the diagonal of its meshes' world bounds (else of the bones)."""
    points = [o.matrix_world @ Vector(c) for o in objects for c in o.bound_box]
    if not points:
        points = [armature.matrix_world @ p for b in armature.data.bones for p in (b.head_local, b.tail_local)]
    low, high = Vector(map(min, *points)), Vector(map(max, *points))  # at least two points: a head and a tail
    return max((high - low).length, 1e-3)


def weight_leftovers(body, armature):
    """Vertices bone heat left without weight (its "failed to find solution" on some spheres) go
    wholly to the nearest bone, as a modder fixes them in Weight Paint; returns how many there were."""
    leftovers = [v for v in body.data.vertices if not any(g.weight > 0 for g in v.groups)]
    segments = [(b.name, armature.matrix_world @ b.head_local, armature.matrix_world @ b.tail_local) for b in armature.data.bones]
    to_world = body.matrix_world

    def distance(point, head, tail):
        axis = tail - head
        t = 0.0 if axis.length_squared < 1e-18 else min(max((point - head).dot(axis) / axis.length_squared, 0.0), 1.0)
        return (point - (head + axis * t)).length

    for v in leftovers:
        point = to_world @ v.co
        name = min(segments, key=lambda s: distance(point, s[1], s[2]))[0]
        body.vertex_groups[name].add([v.index], 1.0, "REPLACE")
    return len(leftovers)


def build(max_triangles=3000, image_path="replacement_checker.png"):
    """In the open scene (one armature, the game's meshes): the modder's edit, up to the export.
    Returns what it made."""
    armatures = [o for o in bpy.context.scene.objects if o.type == "ARMATURE"]
    if len(armatures) != 1:
        raise RuntimeError(f"{len(armatures)} armatures in the scene; a replacement needs the one game skeleton")
    armature = armatures[0]
    meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    extent = extent_of(meshes, armature)
    for o in meshes:  # the modder deletes the game's meshes
        bpy.data.objects.remove(o, do_unlink=True)

    body, spheres, (segments, rings) = body_along(armature, extent, max_triangles)
    armature.users_collection[0].objects.link(body)  # beside the armature (the add-on exports its collection)
    image = make_checker(os.path.abspath(image_path))
    body.data.materials.append(make_material(image))
    paint_gradient(body.data)

    # Ctrl+P > With Automatic Weights: the mesh selected, the armature active.
    bpy.ops.object.select_all(action="DESELECT")
    body.select_set(True)
    armature.select_set(True)
    bpy.context.view_layer.objects.active = armature
    bpy.ops.object.parent_set(type="ARMATURE_AUTO")
    unweighted = weight_leftovers(body, armature)
    return {
        "image": os.path.abspath(image_path),
        "bones": len(armature.data.bones),
        "spheres": spheres,
        "sphere": [segments, rings],
        "vertices": len(body.data.vertices),
        "triangles": sum(len(p.vertices) - 2 for p in body.data.polygons),
        "unweighted_by_heat": unweighted,
        "most_weights_per_vertex": max((sum(1 for g in v.groups if g.weight > 0) for v in body.data.vertices), default=0),
        "vertex_groups": len(body.vertex_groups),
    }


def replace(in_glb, out_glb, max_triangles=3000, image_path=None):
    """Builds the replacement of in_glb's meshes in an empty Blender and exports it to out_glb at the
    glTF exporter's defaults; returns what it made."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=os.path.abspath(in_glb))
    made = build(max_triangles, image_path or os.path.splitext(out_glb)[0] + "_checker.png")
    bpy.ops.export_scene.gltf(filepath=os.path.abspath(out_glb))  # the exporter's defaults (.glb)
    made.update({"in": in_glb, "out": out_glb})
    print("REMODEL_REPLACED " + json.dumps(made), flush=True)
    return made


def main(argv):
    import argparse

    parser = argparse.ArgumentParser(prog="replace.py", description="A Blender-made replacement of a game model's meshes")
    parser.add_argument("input", help="the game model's glTF export (remodel export GAMEFILE -o IN.glb)")
    parser.add_argument("output", help="the replacement .glb")
    parser.add_argument("--max-triangles", type=int, default=3000, help="triangle budget of the new body (default 3000)")
    parser.add_argument("--image", help="where the checker PNG is saved (default OUT_checker.png)")
    args = parser.parse_args(argv)
    replace(args.input, args.output, args.max_triangles, args.image)


if __name__ == "__main__":
    main(sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else [])
