# A model inside an archive through the add-on (issue 34): File › Import takes the Galaxy archive
# (Yaz0 around a RARC), imports its one model and remembers archive and member; File › Export over
# the original writes a whole archive, Yaz0 again, whose members are the original's (unedited) or
# differ only in that model (one vertex moved). An archive of several models needs the Model choice.
import os
import shutil
import sys

import bpy

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.install_addon()
import remodel_blender.operators as operators  # noqa: E402  (installed by install_addon)


def members(archive, name):
    """{member path: bytes} of an archive, through `remodel extract`."""
    folder = os.path.join(common.TMP, name)
    shutil.rmtree(folder, ignore_errors=True)
    done = common.remodel("extract", archive, "-o", folder)
    check(done.returncode == 0, f"{name}: remodel extract: {done.stderr}")
    out = {}
    for root, _, files in os.walk(folder):
        for f in files:
            with open(os.path.join(root, f), "rb") as data:
                out[os.path.relpath(os.path.join(root, f), folder)] = data.read()
    return out


ARCHIVE = common.sample("archives/smg_LavaRotatePlanet.arc")
MEMBER = "lavarotateplanet.bdl"
if ARCHIVE is not None:
    original = members(ARCHIVE, "original")
    check(MEMBER in original, f"the archive holds {MEMBER}: {sorted(original)}")

    common.part("smg_LavaRotatePlanet.arc: import its one model, export over the original unedited")
    common.clear_scene()
    check(bpy.ops.import_scene.remodel(filepath=ARCHIVE) == {"FINISHED"}, f"imported ({common.reports()})")
    collection = next((c for c in bpy.data.collections if c.get(operators.SOURCE)), None)
    if check(collection is not None, "the import made a collection that remembers its original"):
        check(os.path.realpath(collection[operators.SOURCE]) == os.path.realpath(ARCHIVE) and collection.get(operators.MEMBER) == MEMBER and collection[operators.FORMAT] == "j3d",
              f"it remembers the archive, the member and its format: {dict(collection)}")
    check(any(o.type == "MESH" for o in bpy.data.objects), "the model's meshes are in the scene")
    out = os.path.join(common.TMP, "unedited.arc")
    check(bpy.ops.export_scene.remodel(filepath=out, mode="ORIGINAL") == {"FINISHED"}, f"exported ({common.reports()})")
    if check(os.path.isfile(out), "the archive was written"):
        with open(out, "rb") as f:
            check(f.read(4) == b"Yaz0", "the written archive is Yaz0-compressed, as the original is")
        written = members(out, "unedited")
        check(sorted(written) == sorted(original), f"the same members: {sorted(written)}")
        check(written == original, "every member, the model too, has the original's bytes (decompressed)")
        check(common.same_bytes(out, ARCHIVE), "the compressed archive has the original's bytes (remodel's Yaz0 is Nintendo's)")
        check(common.remodel("check", out).returncode == 0, "remodel check passes on the written archive")

    common.part("smg_LavaRotatePlanet.arc: one vertex moved, only the model changes")
    obj = max((o for o in bpy.data.objects if o.type == "MESH"), key=lambda o: len(o.data.vertices))
    mesh = obj.data
    moved = mesh.vertices[len(mesh.vertices) // 2]
    moved.co = moved.co * 0.9  # toward the model's origin: inside its stored range
    edited = os.path.join(common.TMP, "edited.arc")
    check(bpy.ops.export_scene.remodel(filepath=edited, mode="ORIGINAL") == {"FINISHED"}, f"exported ({common.reports()})")
    if check(os.path.isfile(edited), "the edited archive was written"):
        written = members(edited, "edited")
        check(sorted(written) == sorted(original), f"the same members: {sorted(written)}")
        check(written.get(MEMBER) != original[MEMBER], "the model member changed")
        others = [m for m in original if m != MEMBER]
        check(others and all(written.get(m) == original[m] for m in others), f"every other member is byte-identical: {others}")
        check(common.remodel("check", edited).returncode == 0, "remodel check passes on the edited archive")

# An archive of several models: without a choice the import says which there are; with one it imports it.
PIKMIN = common.sample("archives/meltytool_goldens/yaz0/pikis/input/pikis.yaz0")
if PIKMIN is not None:
    common.part("pikis.yaz0: several models, one chosen")
    common.clear_scene()
    models = operators.archive_models(common.REMODEL, PIKMIN)
    check(models is not None and len(models) > 1, f"the archive lists several models: {models}")
    message = common.expect_error(lambda: bpy.ops.import_scene.remodel(filepath=PIKMIN), "choose one under Model", "pikis.yaz0 without a model")
    check(models is not None and models[0] in message, f"the error names the models: {message}")
    if models:
        check(bpy.ops.import_scene.remodel(filepath=PIKMIN, member=models[-1]) == {"FINISHED"}, f"the chosen model imported ({common.reports()})")
        collection = next((c for c in bpy.data.collections if c.get(operators.SOURCE)), None)
        check(collection is not None and collection.get(operators.MEMBER) == models[-1], "the import remembers the chosen member")

common.finish()
