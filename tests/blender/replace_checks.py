# What a replacement (issue 30) must keep and carry, read from .glb files and PNGs with numpy alone
# (no bpy), so that test_replace.py inside Blender and tools/blender_replace_status.py outside it
# judge the same way: the skin's joints (names, parents, local TRS, inverse binds), each vertex's
# weights by joint name matched by skinned position, and the 64x64 red/white checker among PNGs.
import json
import os
import struct
import zlib

import numpy

TYPES = {5120: numpy.int8, 5121: numpy.uint8, 5122: numpy.int16, 5123: numpy.uint16, 5125: numpy.uint32, 5126: numpy.float32}
WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def glb(path):
    """(the JSON chunk, the binary chunk) of a .glb."""
    with open(path, "rb") as f:
        data = f.read()
    length, kind = struct.unpack_from("<II", data, 12)
    assert kind == 0x4E4F534A, path
    return json.loads(data[20:20 + length]), data[20 + length + 8:]


def accessor(gltf, binary, index):
    """An accessor's values as float64 rows (normalized integers scaled to 0..1); no sparse accessors."""
    a = gltf["accessors"][index]
    view = gltf["bufferViews"][a["bufferView"]]
    dtype = numpy.dtype(TYPES[a["componentType"]])
    width = WIDTHS[a["type"]]
    stride = view.get("byteStride", dtype.itemsize * width)
    start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
    rows = numpy.array([numpy.frombuffer(binary, dtype, width, start + i * stride) for i in range(a["count"])]).reshape(a["count"], width)
    rows = rows.astype(numpy.float64)
    if a.get("normalized") and dtype.kind == "u":
        rows /= numpy.iinfo(dtype).max
    return rows


def local_matrix(node):
    if "matrix" in node:
        return numpy.array(node["matrix"], dtype=numpy.float64).reshape(4, 4).T
    x, y, z, w = node.get("rotation", (0, 0, 0, 1))
    turn = numpy.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    m = numpy.identity(4)
    m[:3, :3] = turn * numpy.array(node.get("scale", (1, 1, 1)))
    m[:3, 3] = node.get("translation", (0, 0, 0))
    return m


def parents(gltf):
    return {child: i for i, n in enumerate(gltf.get("nodes", [])) for child in n.get("children", [])}


def world_matrices(gltf):
    up = parents(gltf)
    nodes = gltf.get("nodes", [])
    done = {}

    def world(i):
        if i not in done:
            done[i] = (world(up[i]) if i in up else numpy.identity(4)) @ local_matrix(nodes[i])
        return done[i]

    return [world(i) for i in range(len(nodes))]


def skeleton(path):
    """The first skin's joints in order: name, parent joint's name (None at a root), local
    translation, rotation, scale (or matrix) and inverse bind matrix."""
    gltf, binary = glb(path)
    skin = gltf["skins"][0]
    nodes = gltf["nodes"]
    up = parents(gltf)
    identity = [numpy.identity(4).reshape(16)] * len(skin["joints"])
    binds = accessor(gltf, binary, skin["inverseBindMatrices"]) if "inverseBindMatrices" in skin else identity
    joints = []
    for j, ibm in zip(skin["joints"], binds):
        n = nodes[j]
        joints.append({
            "name": n.get("name", f"node {j}"),
            "parent": nodes[up[j]].get("name", f"node {up[j]}") if j in up and up[j] in skin["joints"] else None,
            "local": local_matrix(n),
            "inverse_bind": numpy.array(ibm, dtype=numpy.float64).reshape(4, 4).T,
        })
    return joints


def skeleton_differences(expected, got, tolerance=1e-5):
    """What differs between two skeletons (skeleton() lists), as sentences; [] when they agree."""
    out = []
    if [j["name"] for j in expected] != [j["name"] for j in got]:
        out.append(f"joint names or order differ: {len(expected)} joints {[j['name'] for j in expected][:6]}... "
                   f"-> {len(got)} joints {[j['name'] for j in got][:6]}...")
        return out
    scale = max(1.0, max(abs(j["local"][:3, 3]).max() for j in expected))
    for a, b in zip(expected, got):
        if a["parent"] != b["parent"]:
            out.append(f"joint {a['name']}: parent {a['parent']} -> {b['parent']}")
    for field, what in (("local", "local transforms"), ("inverse_bind", "inverse binds")):
        off = [(a["name"], abs(a[field] - b[field]).max()) for a, b in zip(expected, got)]
        off = [(n, d) for n, d in off if d > tolerance * scale]
        if off:
            names = ", ".join(n for n, _ in off[:8]) + ("..." if len(off) > 8 else "")
            out.append(f"{len(off)} of {len(expected)} joints' {what} differ (by up to {max(d for _, d in off):.3g}): {names}")
    return out


def skinned_vertices(path, pose=None, played=False):
    """Every skinned primitive's vertices as the node pose skins them, or under pose (game_pose()):
    played, each joint at the game's posed world matrix (what the game does playing its animation's
    local values on the file's joints); else each joint's rest frame carried by the move the game's
    joint of that name makes (how Blender poses its own, turned, bones to follow it). Returns
    (positions (n, 3), weights: a list of {joint name: weight} per vertex, linear RGB colours (n, 3),
    NaN where none)."""
    gltf, binary = glb(path)
    worlds = world_matrices(gltf)
    nodes = gltf["nodes"]
    positions, weights, colours = [], [], []
    for i, n in enumerate(nodes):
        if "mesh" not in n:
            continue
        skin = gltf["skins"][n["skin"]] if "skin" in n else None
        names = [nodes[j].get("name", f"node {j}") for j in skin["joints"]] if skin else []
        if skin:
            binds = accessor(gltf, binary, skin["inverseBindMatrices"]).reshape(-1, 4, 4).transpose(0, 2, 1)
            at = [worlds[j] if not pose or name not in pose else pose[name][0] if played
                  else pose[name][0] @ numpy.linalg.inv(pose[name][1]) @ worlds[j] for name, j in zip(names, skin["joints"])]
            skinning = numpy.array([m @ b for m, b in zip(at, binds)])
        for p in gltf["meshes"][n["mesh"]]["primitives"]:
            a = p["attributes"]
            xyz = accessor(gltf, binary, a["POSITION"])
            homogeneous = numpy.hstack([xyz, numpy.ones((len(xyz), 1))])
            colours.append(accessor(gltf, binary, a["COLOR_0"])[:, :3] if "COLOR_0" in a else numpy.full((len(xyz), 3), numpy.nan))
            if skin and "JOINTS_0" in a:
                js = accessor(gltf, binary, a["JOINTS_0"]).astype(int)
                ws = accessor(gltf, binary, a["WEIGHTS_0"])
                if "JOINTS_1" in a:
                    js = numpy.hstack([js, accessor(gltf, binary, a["JOINTS_1"]).astype(int)])
                    ws = numpy.hstack([ws, accessor(gltf, binary, a["WEIGHTS_1"])])
                blended = numpy.einsum("vk,vkij->vij", ws, skinning[js])
                positions.append(numpy.einsum("vij,vj->vi", blended, homogeneous)[:, :3])
                for jr, wr in zip(js, ws):
                    row = {}
                    for j, w in zip(jr, wr):
                        if w > 0:
                            row[names[j]] = row.get(names[j], 0.0) + w
                    weights.append(row)
            else:
                positions.append((homogeneous @ worlds[i].T)[:, :3])
                weights.extend({} for _ in range(len(xyz)))
    if not positions:
        return numpy.zeros((0, 3)), weights, numpy.zeros((0, 3))
    return numpy.vstack(positions), weights, numpy.vstack(colours)


def game_pose(skeleton_path, turns):
    """A pose of the game's skeleton (the first skin of skeleton_path, the original's export): each
    joint named in turns rotated by turns[name] = (axis, degrees) in its own stored frame, as the
    game's animations rotate it. Returns {joint name: (posed world matrix, rest world matrix)}."""
    gltf, _ = glb(skeleton_path)
    nodes = gltf["nodes"]
    up = parents(gltf)
    rest = world_matrices(gltf)
    posed = {}

    def world(i):
        if i not in posed:
            local = local_matrix(nodes[i])
            axis, degrees = turns.get(nodes[i].get("name"), ((1, 0, 0), 0))
            x, y, z = numpy.array(axis, dtype=numpy.float64) / numpy.linalg.norm(axis)
            c, s_, t = numpy.cos(numpy.radians(degrees)), numpy.sin(numpy.radians(degrees)), 1 - numpy.cos(numpy.radians(degrees))
            turn = numpy.identity(4)
            turn[:3, :3] = [[t * x * x + c, t * x * y - s_ * z, t * x * z + s_ * y],
                            [t * x * y + s_ * z, t * y * y + c, t * y * z - s_ * x],
                            [t * x * z - s_ * y, t * y * z + s_ * x, t * z * z + c]]
            posed[i] = (world(up[i]) if i in up else numpy.identity(4)) @ local @ turn
        return posed[i]

    return {nodes[j].get("name"): (world(j), rest[j]) for j in gltf["skins"][0]["joints"]}


def test_pose(skeleton_path):
    """A pose every test uses: every other joint turned 35 degrees about its own (1, 1, 0) axis."""
    gltf, _ = glb(skeleton_path)
    names = [gltf["nodes"][j].get("name") for j in gltf["skins"][0]["joints"]]
    return game_pose(skeleton_path, {n: ((1, 1, 0), 35) for n in names[1::2]})


def vertex_differences(incoming_path, result_path, pose=None):
    """Each result vertex matched to the incoming vertex nearest it under the node pose: {"distance":
    the largest distance of a match relative to the model's size, "weight": the largest weight
    difference, "weights_off": how many vertices' weights differ by more than 0.02, "colour": the
    largest colour difference (NaN when the result holds no colours), "posed": the largest distance
    between matched vertices under the game's pose (game_pose(): Blender's bones follow it, the
    result's joints play it) relative to the model's size}."""
    a_xyz, a_w, a_rgb = skinned_vertices(incoming_path)
    b_xyz, b_w, b_rgb = skinned_vertices(result_path)
    a_posed = skinned_vertices(incoming_path, pose)[0] if pose else a_xyz
    b_posed = skinned_vertices(result_path, pose, played=True)[0] if pose else b_xyz
    if not len(a_xyz) or not len(b_xyz):
        return {"distance": float("inf"), "weight": float("inf"), "weights_off": len(b_xyz), "colour": float("nan"), "posed": float("inf")}
    size = max(numpy.ptp(a_xyz, axis=0).max(), 1e-9)
    worst_distance = worst_weight = worst_colour = worst_posed = 0.0
    off = 0
    for start in range(0, len(b_xyz), 512):
        block = b_xyz[start:start + 512]
        d = ((block[:, None, :] - a_xyz[None, :, :]) ** 2).sum(-1)
        nearest = d.argmin(1)
        worst_distance = max(worst_distance, float(numpy.sqrt(d[numpy.arange(len(block)), nearest]).max()) / size)
        worst_posed = max(worst_posed, float(numpy.linalg.norm(b_posed[start:start + 512] - a_posed[nearest], axis=1).max()) / size)
        worst_colour = max(worst_colour, float(numpy.nan_to_num(abs(b_rgb[start:start + 512] - a_rgb[nearest]), nan=1.0).max()))
        for k, m in enumerate(nearest):
            want, have = a_w[m], b_w[start + k]
            diff = max((abs(want.get(n, 0.0) - have.get(n, 0.0)) for n in set(want) | set(have)), default=0.0)
            worst_weight = max(worst_weight, diff)
            off += diff > 0.02
    if numpy.isnan(b_rgb).all():
        worst_colour = float("nan")
    return {"distance": worst_distance, "weight": worst_weight, "weights_off": off, "colour": worst_colour, "posed": worst_posed}


def png_rgba(path):
    """An 8-bit non-interlaced PNG (grey, RGB, palette, grey+alpha or RGBA) as an (h, w, 4) uint8 array."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, palette, alpha = 8, b"", None, None
    while pos < len(data):
        length, kind = struct.unpack_from(">I4s", data, pos)
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = numpy.frombuffer(body, numpy.uint8).reshape(-1, 3)
        elif kind == b"tRNS":
            alpha = numpy.frombuffer(body, numpy.uint8)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and interlace == 0, f"{path}: only 8-bit non-interlaced PNGs are read here"
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    raw = zlib.decompress(idat)
    stride = w * channels
    out = numpy.zeros((h, stride), numpy.int32)
    for y in range(h):
        kind, line = raw[y * (stride + 1)], numpy.frombuffer(raw, numpy.uint8, stride, y * (stride + 1) + 1).astype(numpy.int32)
        prior = out[y - 1] if y else numpy.zeros(stride, numpy.int32)
        row = numpy.zeros(stride, numpy.int32)
        for x in range(stride):
            left = row[x - channels] if x >= channels else 0
            upleft = prior[x - channels] if x >= channels else 0
            if kind == 0:
                p = 0
            elif kind == 1:
                p = left
            elif kind == 2:
                p = prior[x]
            elif kind == 3:
                p = (left + prior[x]) // 2
            else:
                e = left + prior[x] - upleft
                pa, pb, pc = abs(e - left), abs(e - prior[x]), abs(e - upleft)
                p = left if pa <= pb and pa <= pc else prior[x] if pb <= pc else upleft
            row[x] = (line[x] + p) & 0xFF
        out[y] = row
    px = out.reshape(h, w, channels).astype(numpy.uint8)
    if color == 3:
        rgb = palette[px[:, :, 0]]
        a = numpy.full((h, w, 1), 255, numpy.uint8)
        if alpha is not None:
            full = numpy.concatenate([alpha, numpy.full(256 - len(alpha), 255, numpy.uint8)])
            a = full[px[:, :, 0]][:, :, None]
        return numpy.concatenate([rgb, a], axis=2)
    if color in (0, 4):
        grey = numpy.repeat(px[:, :, :1], 3, axis=2)
        a = px[:, :, 1:2] if color == 4 else numpy.full((h, w, 1), 255, numpy.uint8)
        return numpy.concatenate([grey, a], axis=2)
    if color == 2:
        return numpy.concatenate([px, numpy.full((h, w, 1), 255, numpy.uint8)], axis=2)
    return px


def checker_expected(size=64, square=8):
    """replace.py's checker as RGB rows from the top: (0, 0) red, squares of 8 texels."""
    y, x = numpy.mgrid[0:size, 0:size]
    red = ((x // square + y // square) % 2 == 0)[:, :, None]
    return numpy.where(red, numpy.array([255, 0, 0]), numpy.array([255, 255, 255]))


def checker_in(directory, tolerance=24):
    """The PNGs in directory (textures extract's output) holding replace.py's checker, within the
    tolerance per channel (the format's quantisation), as it was made or flipped upside down; and
    what the others are, to say what was found instead."""
    want = checker_expected()
    found, others = [], []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".png"):
            continue
        path = os.path.join(directory, name)
        with open(path, "rb") as f:
            w, h = struct.unpack(">II", f.read(24)[16:24])  # IHDR's width and height: only 64x64 ones are decoded
        if (w, h) != (64, 64):
            others.append(f"{name} {w}x{h}")
            continue
        rgb = png_rgba(path)[:, :, :3].astype(int)
        if abs(rgb - want).max() <= tolerance or abs(rgb[::-1] - want).max() <= tolerance:
            found.append(name)
        else:
            others.append(f"{name} 64x64, not the checker: top-left texel {tuple(int(c) for c in rgb[0, 0])}")
    return found, others


def run(remodel, *args):
    """(exit code, stderr lines) of one remodel command."""
    import subprocess
    done = subprocess.run([remodel, *args], capture_output=True, text=True)
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


def attempt(remodel, original, replacement, work, like=True, skeleton=True, tolerance=0.02):
    """What a modder meets writing replacement (Blender's .glb) back to original's format: over the
    original (like) or as a new file (with --skeleton original when skeleton), then exported, checked,
    its textures extracted, and its export imported again. Returns {"steps": [(command, exit, lines)],
    "problems": [sentences]}: problems is what issue 30 says must not happen."""
    os.makedirs(work, exist_ok=True)
    ext = os.path.splitext(original)[1]
    stem = os.path.splitext(os.path.basename(original))[0]
    kind = "like" if like else ("skeleton" if skeleton else "new")
    out = os.path.join(work, f"{stem}.{kind}{ext}")
    steps, problems = [], []

    def step(*args):
        code, lines = run(remodel, *args)
        steps.append((" ".join(["remodel", *args]), code, lines))
        if code != 0:
            problems.append(f"`remodel {args[0]}` exits {code}: " + "; ".join(lines[-2:]))
        return code

    args = ["import", replacement, "-o", out]
    args += ["--like", original] if like else ["--skeleton", original] if skeleton else []
    if step(*args) != 0:
        return {"out": out, "steps": steps, "problems": problems}
    exported_original = os.path.join(work, f"{stem}.original.glb")
    if not os.path.exists(exported_original):
        step("export", original, "-o", exported_original)
    exported = os.path.join(work, f"{stem}.{kind}.glb")
    step("check", out)
    if step("export", out, "-o", exported) == 0:
        problems += ["skeleton: " + d for d in skeleton_differences(skeleton_of(exported_original), skeleton_of(exported))]
        v = vertex_differences(replacement, exported, test_pose(exported_original))
        if v["distance"] > 1e-3:
            problems.append(f"vertices: the written mesh is not where Blender's is "
                            f"(a vertex {v['distance']:.3g} of the model's size from any of Blender's)")
        if v["posed"] > 2e-3:
            problems.append(f"pose: under the same pose of the game's skeleton the written mesh is not where Blender's is "
                            f"(a vertex {v['posed']:.3g} of the model's size away)")
        if v["weight"] > tolerance:
            problems.append(f"weights: {v['weights_off']} vertices' weights differ from Blender's by more than {tolerance} "
                            f"(by up to {v['weight']:.3f})")
        warned = any("colour" in line for _, _, said in steps[:1] for line in said)
        # Issue 30: colours the format cannot store are dropped only with a warning that says so (BWM).
        if numpy.isnan(v["colour"]) and not warned:
            problems.append("colours: the written file holds no vertex colours and no warning says so")
        elif v["colour"] > 0.05:
            problems.append(f"colours: differ from Blender's by up to {v['colour']:.3f}")
        again = os.path.join(work, f"{stem}.{kind}.again{ext}")
        step(*(["import", exported, "-o", again] + (["--like", original] if like else [])))
    textures = os.path.join(work, f"{stem}.{kind}.textures")
    if step("textures", "extract", out, "-o", textures) == 0:
        found, others = checker_in(textures)
        if not found and others:
            problems.append("texture: no extracted texture is the 64x64 red/white checker; found " + ", ".join(others))
        elif not found:  # a format that names its images (BWM) rather than holding them
            image = image_name(replacement)
            code, said = run(remodel, "dump", out)
            if not any(image in line for line in said):
                problems.append(f"texture: the file holds no image and does not name the new one ({image!r}) either")
    return {"out": out, "steps": steps, "problems": problems}


def skeleton_of(path):
    try:
        return skeleton(path)
    except (KeyError, IndexError):
        return []


def image_name(path):
    """The name of the first image of a .glb (its file name's stem when it has a uri)."""
    gltf, _ = glb(path)
    image = gltf.get("images", [{}])[0]
    return os.path.splitext(os.path.basename(image.get("uri", "")))[0] or image.get("name", "")
