# Blender 3.4's glTF importer keeps a CUBICSPLINE channel's values and drops its tangents
# (io_scene_gltf2's BlenderNodeAnim: "TODO manage tangent?"), so between keys its curve is not the
# file's: a J3D BCK's translation and scale splines came back off by up to 0.41 (Link's walk.bck).
# Before the import, every CUBICSPLINE sampler of the .glb is sampled at every frame of the scene rate
# (and at its own key times) as glTF defines the spline, and written as LINEAR: Blender then holds the
# file's values at every frame, which its export samples.
import json
import struct

import numpy

GLB_MAGIC, JSON_CHUNK, BIN_CHUNK = 0x46546C67, 0x4E4F534A, 0x004E4942
COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}
FLOAT = 5126


def read_glb(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, _, _ = struct.unpack_from("<III", data, 0)
    if magic != GLB_MAGIC:
        raise ValueError(f"{path} is no .glb")
    gltf, binary, at = None, b"", 12
    while at + 8 <= len(data):
        length, kind = struct.unpack_from("<II", data, at)
        chunk = data[at + 8:at + 8 + length]
        if kind == JSON_CHUNK:
            gltf = json.loads(chunk)
        elif kind == BIN_CHUNK:
            binary = chunk
        at += 8 + length
    return gltf, bytearray(binary)


def write_glb(path, gltf, binary):
    text = json.dumps(gltf, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    binary = bytes(binary) + bytes(-len(binary) % 4)
    total = 12 + 8 + len(text) + 8 + len(binary)
    with open(path, "wb") as f:
        f.write(struct.pack("<III", GLB_MAGIC, 2, total))
        f.write(struct.pack("<II", len(text), JSON_CHUNK) + text)
        f.write(struct.pack("<II", len(binary), BIN_CHUNK) + binary)


def floats(gltf, binary, index):
    """A float accessor's elements as an (count, components) array."""
    accessor = gltf["accessors"][index]
    if accessor.get("componentType") != FLOAT or "bufferView" not in accessor or "sparse" in accessor:
        return None
    view = gltf["bufferViews"][accessor["bufferView"]]
    width = COMPONENTS[accessor["type"]]
    stride = view.get("byteStride", 4 * width)
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    count = accessor["count"]
    raw = numpy.frombuffer(bytes(binary[start:start + stride * (count - 1) + 4 * width]) if count else b"", dtype="<f4")
    return numpy.lib.stride_tricks.as_strided(raw, (count, width), (stride, 4)).copy() if count else numpy.zeros((0, width), "<f4")


def append_floats(gltf, binary, values, kind):
    """A new accessor of `values` ((count, components) float32) at the end of the binary chunk."""
    binary.extend(bytes(-len(binary) % 4))
    offset = len(binary)
    data = numpy.ascontiguousarray(values, dtype="<f4")
    binary.extend(data.tobytes())
    gltf["bufferViews"].append({"buffer": 0, "byteOffset": offset, "byteLength": data.nbytes})
    gltf["accessors"].append({"bufferView": len(gltf["bufferViews"]) - 1, "componentType": FLOAT, "count": len(data), "type": kind,
                              "min": data.min(axis=0).tolist(), "max": data.max(axis=0).tolist()})
    return len(gltf["accessors"]) - 1


def hermite(times, keys, t):
    """The glTF CUBICSPLINE at times t: keys is (count, 3, components) of (in tangent, value, out tangent)."""
    k = numpy.clip(numpy.searchsorted(times, t, side="right") - 1, 0, len(times) - 2)
    t0, t1 = times[k], times[k + 1]
    span = (t1 - t0)[:, None]
    s = numpy.clip((t - t0) / (t1 - t0), 0.0, 1.0)[:, None]
    s2, s3 = s * s, s * s * s
    return ((2 * s3 - 3 * s2 + 1) * keys[k, 1] + (s3 - 2 * s2 + s) * span * keys[k, 2] +
            (-2 * s3 + 3 * s2) * keys[k + 1, 1] + (s3 - s2) * span * keys[k + 1, 0])


def sample_splines(path, fps):
    """Rewrites the .glb at path with each CUBICSPLINE sampler as LINEAR keys at every frame of `fps`
    from its first key to its last, and at its key times; returns how many samplers changed."""
    gltf, binary = read_glb(path)
    if "buffers" not in gltf or not gltf["buffers"]:
        return 0
    changed = 0
    for animation in gltf.get("animations", []):
        for sampler in animation.get("samplers", []):
            if sampler.get("interpolation") != "CUBICSPLINE":
                continue
            times = floats(gltf, binary, sampler["input"])
            values = floats(gltf, binary, sampler["output"])
            if times is None or values is None or len(times) < 2 or len(values) != 3 * len(times):
                continue
            times = times[:, 0].astype(numpy.float64)
            keys = values.reshape(len(times), 3, -1).astype(numpy.float64)
            frames = numpy.arange(numpy.ceil(times[0] * fps - 1e-4), numpy.floor(times[-1] * fps + 1e-4) + 1) / fps
            at = numpy.unique(numpy.concatenate([times, frames]))
            at = at[numpy.concatenate([[True], numpy.diff(at) > 1e-6])]  # a frame at a key's time once
            sampled = hermite(times, keys, at)
            if sampled.shape[1] == 4:
                sampled /= numpy.linalg.norm(sampled, axis=1, keepdims=True)
            kind = {3: "VEC3", 4: "VEC4"}.get(sampled.shape[1], "SCALAR")
            sampler["input"] = append_floats(gltf, binary, at[:, None], "SCALAR")
            sampler["output"] = append_floats(gltf, binary, sampled, kind)
            sampler["interpolation"] = "LINEAR"
            changed += 1
    if changed:
        gltf["buffers"][0]["byteLength"] = len(binary) + (-len(binary) % 4)
        write_glb(path, gltf, binary)
    return changed
