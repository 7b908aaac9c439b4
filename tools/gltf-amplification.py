#!/usr/bin/env python3
"""Issue 32's amplification inputs, made from nothing and imported by the release CLI into every
format each applies to, with wall time and peak RSS from /usr/bin/time -v (lib/gltf/README.md keeps
the figures). Each must finish under 5 s and 1 GB, or be refused naming the cap.

usage: tools/gltf-amplification.py REMODEL [SAMPLES_DIR]   (SAMPLES_DIR gives ww_cl.bdl for --like)
"""
import base64
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import zlib

LIMIT_SECONDS, LIMIT_BYTES = 5.0, 1 << 30


class Gltf:
    """A glTF whose buffer 0 is built here, as a data: URI or a file beside the .gltf."""

    def __init__(self):
        self.doc = {"asset": {"version": "2.0"}, "buffers": [], "bufferViews": [], "accessors": [], "meshes": [], "nodes": [],
                    "scenes": [{"nodes": []}], "scene": 0}
        self.bin = bytearray()

    def view(self, data):
        while len(self.bin) % 4:
            self.bin.append(0)
        self.doc["bufferViews"].append({"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)})
        self.bin += data
        return len(self.doc["bufferViews"]) - 1

    def accessor(self, fmt, kind, component, values, count, **extra):
        a = {"bufferView": self.view(struct.pack("<%d%s" % (len(values), fmt), *values)), "componentType": component,
             "count": count, "type": kind}
        a.update(extra)
        self.doc["accessors"].append(a)
        return len(self.doc["accessors"]) - 1

    def positions(self, points):
        flat = [c for p in points for c in p]
        lo = [min(p[i] for p in points) for i in range(3)]
        hi = [max(p[i] for p in points) for i in range(3)]
        return self.accessor("f", "VEC3", 5126, flat, len(points), min=lo, max=hi)

    def node(self, **n):
        self.doc["nodes"].append(n)
        return len(self.doc["nodes"]) - 1

    def save(self, path, external=None):
        """Writes PATH (.gltf); the buffer is a data: URI unless `external` names a file for it."""
        if external:
            with open(os.path.join(os.path.dirname(path), external), "wb") as f:
                f.write(self.bin)
            uri = external
        else:
            uri = "data:application/octet-stream;base64," + base64.b64encode(bytes(self.bin)).decode()
        self.doc["buffers"].insert(0, {"byteLength": len(self.bin), "uri": uri})
        with open(path, "w") as f:
            json.dump(self.doc, f, separators=(",", ":"))
        del self.doc["buffers"][0]
        return os.path.getsize(path)


def triangle(g):
    return {"attributes": {"POSITION": g.positions([(0, 0, 0), (1, 0, 0), (0, 1, 0)])}}


def f1_chain(path, levels=60000):
    g = Gltf()
    g.doc["meshes"].append({"primitives": [triangle(g)]})
    for i in range(levels):
        g.node(**({"children": [i + 1]} if i + 1 < levels else {"mesh": 0}))
    g.doc["scenes"][0]["nodes"] = [0]
    return g.save(path)


def png_1bit(side):
    row = b"\0" + bytes((side + 7) // 8)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(row * side, 9)) + chunk(b"IEND", b""))


def f2_images(path, images, textures):
    g = Gltf()
    png = g.view(png_1bit(4096))
    uv = g.accessor("f", "VEC2", 5126, [0, 0, 1, 0, 0, 1], 3)
    g.doc["images"] = [{"bufferView": png, "mimeType": "image/png"} for _ in range(images)]
    g.doc["textures"] = [{"source": i % images} for i in range(textures)]
    g.doc["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": i}}} for i in range(textures)]
    tri = triangle(g)
    prims = []
    for i in range(textures):
        prims.append({"attributes": dict(tri["attributes"], TEXCOORD_0=uv), "material": i})
    g.doc["meshes"].append({"primitives": prims})
    g.doc["scenes"][0]["nodes"] = [g.node(mesh=0)]
    return g.save(path)


def grid_mesh(g, vertices):
    side = 100
    points = [((i % side) * 0.01, (i // side) * 0.01, (i * 7 % 13) * 0.001) for i in range(vertices)]
    return {"attributes": {"POSITION": g.positions(points)}, "indices": g.accessor("H", "SCALAR", 5123, list(range(vertices)), vertices)}


def f3_primitives(path, primitives=1000, nodes=1):
    g = Gltf()
    prim = grid_mesh(g, 19998)
    g.doc["meshes"].append({"primitives": [prim] * primitives})
    g.doc["scenes"][0]["nodes"] = [g.node(mesh=0) for _ in range(nodes)]
    return g.save(path)


def f3_buffers(path, buffers=30, size=100 << 20):
    g = Gltf()
    g.doc["meshes"].append({"primitives": [triangle(g)]})
    g.doc["scenes"][0]["nodes"] = [g.node(mesh=0)]
    big = os.path.join(os.path.dirname(path), "big.bin")
    with open(big, "wb") as f:
        f.truncate(size)
    g.doc["buffers"] = [{"byteLength": size, "uri": "big.bin"} for _ in range(buffers)]
    return g.save(path, external="f3.bin")


def skinned(g, joints, points, joint_of, weight_of, names=None):
    """A skin of `joints` root joints (one node each, the mesh node beside them) drawing `points`."""
    first = len(g.doc["nodes"])
    for j in range(joints):
        g.node(name=names[j] if names else "joint%d" % j, translation=[0, j * 0.1, 0])
    ibm = []
    for j in range(joints):
        ibm += [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -j * 0.1, 0, 1]
    g.doc["skins"] = [{"joints": list(range(first, first + joints)), "inverseBindMatrices": g.accessor("f", "MAT4", 5126, ibm, joints)}]
    n = len(points)
    js, ws = [], []
    for i in range(n):
        js += joint_of(i)
        ws += weight_of(i)
    attributes = {"POSITION": g.positions(points), "JOINTS_0": g.accessor("B", "VEC4", 5121, js, n),
                  "WEIGHTS_0": g.accessor("f", "VEC4", 5126, ws, n)}
    g.doc["meshes"].append({"primitives": [{"attributes": attributes}]})
    mesh = g.node(name="mesh", mesh=0, skin=0)
    g.doc["scenes"][0]["nodes"] = list(range(first, first + joints)) + [mesh]


def f12_animations(path, keys=65535, animations=18, joints=2):
    g = Gltf()
    # Named as p01ex00.pmo's first BON joints, so a PAM on that skeleton animates them.
    skinned(g, joints, [(0, 0, 0), (1, 0, 0), (0, 1, 0)], lambda i: [i % joints, 0, 0, 0], lambda i: [1, 0, 0, 0], ["Root", "center"])
    times = g.accessor("f", "SCALAR", 5126, [k / 30.0 for k in range(keys)], keys, min=[0.0], max=[(keys - 1) / 30.0])
    rotations = g.accessor("f", "VEC4", 5126, [c for _ in range(keys) for c in (0.0, 0.0, 0.0, 1.0)], keys)
    moves = g.accessor("f", "VEC3", 5126, [c for k in range(keys) for c in (0.0, (k % 10) * 0.01, 0.0)], keys)
    g.doc["animations"] = []
    for a in range(animations):
        samplers = [{"input": times, "output": rotations}, {"input": times, "output": moves}]
        channels = []
        for j in range(joints):
            channels.append({"sampler": 0, "target": {"node": j, "path": "rotation"}})
            channels.append({"sampler": 1, "target": {"node": j, "path": "translation"}})
        g.doc["animations"].append({"name": "anim%d" % a, "samplers": samplers, "channels": channels})
    return g.save(path)


def f9_envelopes(path, triangles, seed=32):
    rng = random.Random(seed)
    g = Gltf()
    n = triangles * 3
    weights = {}
    def joint_of(i):
        picked = rng.sample(range(255), 4)
        w = [rng.random() + 0.01 for _ in range(4)]
        weights[i] = [x / sum(w) for x in w]
        return picked
    points = [(rng.random(), rng.random(), rng.random()) for _ in range(n)]
    skinned(g, 255, points, joint_of, lambda i: weights[i])
    return g.save(path)


def f9_over_export(path, export, triangles, seed=32):
    """`export` (a .gltf with its .bin beside it) with one primitive added to its first skinned mesh:
    `triangles` triangles whose vertices each weigh 4 random joints of the skin."""
    rng = random.Random(seed)
    g = Gltf()
    with open(export) as f:
        g.doc = json.load(f)
    with open(os.path.join(os.path.dirname(export), g.doc["buffers"][0]["uri"]), "rb") as f:
        g.bin = bytearray(f.read())
    del g.doc["buffers"][0]
    node = next(n for n in g.doc["nodes"] if "skin" in n and "mesh" in n)
    joints = len(g.doc["skins"][node["skin"]]["joints"])
    n = triangles * 3
    js, ws = [], []
    for _ in range(n):
        js += rng.sample(range(joints), 4)
        w = [rng.random() + 0.01 for _ in range(4)]
        ws += [x / sum(w) for x in w]
    attributes = {"POSITION": g.positions([(rng.random(), rng.random(), rng.random()) for _ in range(n)]),
                  "JOINTS_0": g.accessor("B", "VEC4", 5121, js, n), "WEIGHTS_0": g.accessor("f", "VEC4", 5126, ws, n),
                  "TEXCOORD_0": g.accessor("f", "VEC2", 5126, [0.5] * (2 * n), n),
                  "NORMAL": g.accessor("f", "VEC3", 5126, [0.0, 1.0, 0.0] * n, n)}
    g.doc["meshes"][node["mesh"]]["primitives"].append({"attributes": attributes, "material": 0})
    return g.save(path)


def measure(args, cwd):
    """(exit status, wall seconds, peak RSS bytes, last line of the output) of `remodel ARGS`."""
    r = subprocess.run(["/usr/bin/time", "-v"] + args, cwd=cwd, capture_output=True, text=True, errors="replace")
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", r.stderr)
    seconds = (int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))) if wall else -1
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr).group(1)) * 1024
    said = [l for l in (r.stdout + r.stderr).splitlines() if l.startswith(("remodel", "imported"))]
    return r.returncode, seconds, rss, (said[-1] if said else "")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    remodel = os.path.abspath(sys.argv[1])
    samples = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "samples")
    ww_cl = os.path.abspath(os.path.join(samples, "j3d", "ww_cl.bdl"))
    p01ex00 = os.path.abspath(os.path.join(samples, "kh-bbs", "pmo", "p01ex00.pmo"))
    formats = ["pmo", "pam", "pac", "bwm", "bmd", "bdl"]
    with tempfile.TemporaryDirectory() as d:
        inputs = [
            ("F1 60,000-node chain", "f1.gltf", lambda p: f1_chain(p), formats),
            ("F2 one 4096^2 PNG, 64 images", "f2a.gltf", lambda p: f2_images(p, 64, 64), formats),
            ("F2 one 4096^2 PNG, 256 textures", "f2b.gltf", lambda p: f2_images(p, 1, 256), formats),
            ("F3 1,000 primitives sharing a 19,998-vertex accessor", "f3a.gltf", lambda p: f3_primitives(p), formats),
            ("F3 1,000 nodes sharing the mesh", "f3b.gltf", lambda p: f3_primitives(p, 1, 1000), formats),
            ("F3 30 buffers naming one 100 MB .bin", "f3c.gltf", lambda p: f3_buffers(p), formats),
            ("F12 65,535-key accessors shared by 18 animations", "f12.gltf", lambda p: f12_animations(p), formats),
            ("F9 8,000 triangles weighted 4 of 255 joints", "f9.gltf", lambda p: f9_envelopes(p, 8000), ["bmd", "bdl"]),
            ("F9 6,000 such triangles (on ww_cl's 42 joints) --like ww_cl.bdl", "f9like.gltf", lambda p: f9_like(p, 6000), ["like"]),
        ]
        def f9_like(p, triangles):
            export = os.path.join(d, "ww_cl.gltf")
            subprocess.run([remodel, "export", ww_cl, "-o", export], check=True, capture_output=True)
            return f9_over_export(p, export, triangles)
        failed = 0
        print("| input | glTF bytes | output | exit | wall s | peak RSS MB | what it said |")
        print("|---|---|---|---|---|---|---|")
        for what, name, make, outs in inputs:
            path = os.path.join(d, name)
            size = make(path)
            for out in outs:
                if out == "like" or (out == "pam" and name == "f12.gltf"):
                    needed = ww_cl if out == "like" else p01ex00
                    if not os.path.exists(needed):
                        print("| %s | %d | %s | skipped: no %s | | | |" % (what, size, out, needed))
                        continue
                if out == "like":
                    args = [remodel, "import", path, "--like", ww_cl, "-o", os.path.join(d, "out_like.bdl")]
                elif out == "pam" and name == "f12.gltf":
                    args = [remodel, "import", path, "--skeleton", p01ex00, "-o", os.path.join(d, "out.pam")]
                else:
                    args = [remodel, "import", path, "-o", os.path.join(d, "out." + out)]
                status, seconds, rss, said = measure(args, d)
                bad = status not in (0, 1) or seconds >= LIMIT_SECONDS or rss >= LIMIT_BYTES
                failed += bad
                said = said.replace(d + "/", "").replace("|", "/")
                print("| %s | %d | %s | %d | %.2f | %d | %s%s |" % (what, size, " ".join(args[3:-2]) .replace(samples, "") or out, status, seconds,
                                                                   rss >> 20, said[:160], " **OVER**" if bad else ""))
                for f in os.listdir(d):
                    if f.startswith("out"):
                        os.remove(os.path.join(d, f))
            for f in os.listdir(d):
                if not f.startswith("ww_cl"):
                    os.remove(os.path.join(d, f))
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
