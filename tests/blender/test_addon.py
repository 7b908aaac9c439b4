# The add-on zip installs into a clean Blender profile and registers: its two operators, its File ›
# Import and File › Export entries, its preference; the remodel executable is checked (`--version`)
# with a clear message when it is absent, too old or not remodel; disabling unregisters it.
import os
import sys

import addon_utils
import bpy

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402
from common import check  # noqa: E402

common.part("install the zip into a clean profile and enable it")
common.install_addon()
import remodel_blender  # noqa: E402
from remodel_blender import cli  # noqa: E402

check(remodel_blender.bl_info["blender"] >= (3, 4, 0), "bl_info names Blender 3.4 or newer")
project = common.remodel("--version").stdout.split()[1]
check(".".join(map(str, remodel_blender.bl_info["version"])) == project, f"bl_info's version is the project's ({project})")
check(hasattr(bpy.types, "IMPORT_SCENE_OT_remodel") and hasattr(bpy.types, "EXPORT_SCENE_OT_remodel"), "both operators are registered")
check(bpy.ops.import_scene.remodel.poll() and bpy.ops.export_scene.remodel.poll(), "both operators can run")
for menu, entry in ((bpy.types.TOPBAR_MT_file_import, "menu_import"), (bpy.types.TOPBAR_MT_file_export, "menu_export")):
    draws = [f"{f.__module__}.{f.__name__}" for f in menu._dyn_ui_initialize()]
    check("remodel_blender." + entry in draws, f"{menu.__name__} lists the add-on's entry (has {draws[-3:]})")
from remodel_blender import operators  # noqa: E402
patterns = operators.file_filter(cli.import_extensions(common.REMODEL)).split(";")  # what invoke sets
for ext in (".pmo", ".pmp", ".pac", ".bmd", ".bdl", ".bwm"):
    check("*" + ext in patterns, f"the import filter lists {ext}: {patterns}")

common.part("the executable check")
ok, message = cli.check_executable(common.REMODEL, fresh=True)
check(ok and project in message, f"the project's remodel is accepted with its version {project}: {message}")
absent = os.path.join(common.TMP, "no-such-remodel")
ok, message = cli.check_executable(absent, fresh=True)
check(not ok and "was not found" in message and absent in message, f"an absent executable is named: {message}")
fakes = {"old": "echo 'remodel 0.0.9'", "silent": "exit 2", "other": "echo 'Blender 3.4.1'"}
for name, body in fakes.items():
    path = os.path.join(common.TMP, "remodel-" + name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, 0o755)
    fakes[name] = path
ok, message = cli.check_executable(fakes["old"], fresh=True)
check(not ok and "0.0.9" in message and "too old" in message and "0.1.0 or newer" in message, f"an old remodel is too old: {message}")
for name in ("silent", "other"):
    ok, message = cli.check_executable(fakes[name], fresh=True)
    check(not ok and "did not answer --version" in message, f"a {name} executable is refused: {message}")

common.part("an import with a missing remodel reports it, and changes nothing")
prefs = bpy.context.preferences.addons["remodel_blender"].preferences
prefs.executable = absent
objects = len(bpy.data.objects)
skin = os.path.join(common.CORPUS, "bwm", "skin.bwm")
common.expect_error(lambda: bpy.ops.import_scene.remodel(filepath=skin), "was not found", "an import without remodel")
check(len(bpy.data.objects) == objects, "nothing was imported")
prefs.executable = fakes["old"]
common.expect_error(lambda: bpy.ops.export_scene.remodel(filepath=os.path.join(common.TMP, "x.pmo")), "too old", "an export with an old remodel")
prefs.executable = ""  # remodel on PATH: the report names what was looked for
path = os.environ["PATH"]
os.environ["PATH"] = "/nonexistent"
common.expect_error(lambda: bpy.ops.import_scene.remodel(filepath=skin), "was not found (remodel)", "with an empty preference and remodel not on PATH")
os.environ["PATH"] = path

common.part("disable unregisters")
addon_utils.disable("remodel_blender", default_set=True)
check(not hasattr(bpy.types, "IMPORT_SCENE_OT_remodel"), "disabled, the import operator is gone")
draws = [f"{f.__module__}.{f.__name__}" for f in bpy.types.TOPBAR_MT_file_import._dyn_ui_initialize()]
check("remodel_blender.menu_import" not in draws, f"disabled, the menu entry is gone: {draws}")
common.finish()
