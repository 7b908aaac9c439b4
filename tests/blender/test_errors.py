# Errors reach the user and Blender survives: a corrupted model's import reports remodel's message
# (its field and byte offset) and imports nothing; an export whose original is gone reports remodel's
# read error; a PAM asked for without its PMO says what is needed; the temporary folders are removed
# each time; after all that an import still works.
import os
import re
import sys

import bpy

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.install_addon()
common.clear_scene()

common.part("a truncated PMO")
demo = os.path.join(common.TMP, "demo.pmo")
check(common.remodel("demo", demo).returncode == 0, "remodel demo writes a PMO")
with open(demo, "rb") as f:
    data = f.read()
truncated = os.path.join(common.TMP, "truncated.pmo")
with open(truncated, "wb") as f:
    f.write(data[:300])
cli = common.remodel("info", truncated)
match = re.search(r"truncated\.pmo: (\S+ at 0x[0-9a-f]+: .*)", cli.stderr)
check(cli.returncode == 1 and match, f"remodel names the field and offset: {cli.stderr}")
message = match.group(1) if match else "?"
error = common.expect_error(lambda: bpy.ops.import_scene.remodel(filepath=truncated), message, "importing a truncated PMO")
check(" at 0x" in error, f"the report gives the offset: {error}")
check(len(bpy.data.objects) == 0 and len(bpy.data.collections) == 0, "nothing was imported")

common.part("a PMO whose mesh offset points past the end")
corrupt = os.path.join(common.TMP, "corrupt.pmo")
with open(corrupt, "wb") as f:
    f.write(data[:0x10] + b"\xff\xff\xff\x7f" + data[0x14:])
cli = common.remodel("info", corrupt)
message = cli.stderr.strip().split(": ", 2)[-1]
check(cli.returncode == 1 and " at 0x" in message, f"remodel names the field and offset: {cli.stderr}")
common.expect_error(lambda: bpy.ops.import_scene.remodel(filepath=corrupt), message, "importing a corrupted PMO")
check(len(bpy.data.objects) == 0, "nothing was imported")

common.part("exporting over an original that is gone")
copy = os.path.join(common.TMP, "copy.pmo")
with open(copy, "wb") as f:
    f.write(data)
check(bpy.ops.import_scene.remodel(filepath=copy) == {"FINISHED"}, f"the demo PMO imports: {common.reports()}")
os.remove(copy)
common.expect_error(lambda: bpy.ops.export_scene.remodel(filepath=os.path.join(common.TMP, "out.pmo"), mode="ORIGINAL"),
                    copy, "exporting over a removed original")
check(not os.path.exists(os.path.join(common.TMP, "out.pmo")), "nothing was written")

common.part("a PAM without its PMO")
common.clear_scene()
bpy.ops.mesh.primitive_cube_add()
common.expect_error(lambda: bpy.ops.export_scene.remodel(filepath=os.path.join(common.TMP, "x.pam"), mode="NEW", target="kh-bbs-pam"),
                    "import that PMO", "a PAM with no PMO imported")

common.part("the temporary folders are gone, and Blender still imports")
check(not [f for f in os.listdir(os.environ["TMPDIR"]) if f.startswith("remodel-blender-")], "no temporary folder is left")
common.clear_scene()
check(bpy.ops.import_scene.remodel(filepath=demo) == {"FINISHED"}, f"an import after the errors works: {common.reports()}")
common.finish()
