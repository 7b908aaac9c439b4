# remodel for Blender: File › Import and File › Export "remodel (game model)" for KH BBS PMO/PMP/PAM,
# MHFU PAC/PMO, J3D BMD/BDL and BWM (also inside RARC/Yaz0 archives), driving the remodel CLI (which
# must be installed).
bl_info = {
    "name": "remodel (game model)",
    "author": "remodel",
    "version": (0, 1, 0),  # the project's version (CMakeLists.txt; tests/blender/test_addon.py checks)
    "blender": (3, 4, 0),
    "location": "File › Import / Export › remodel (game model)",
    "description": "Import and export PSP, GameCube/Wii and PC game models byte-exactly through the remodel CLI",
    "category": "Import-Export",
}

import bpy  # noqa: E402
from bpy.props import StringProperty  # noqa: E402

from . import cli, operators  # noqa: E402


class RemodelPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    executable: StringProperty(
        name="remodel executable",
        description="The remodel program; empty: `remodel` on PATH",
        default="",
        subtype="FILE_PATH")

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "executable")
        ok, message = cli.check_executable(cli.executable_path(self.executable), fresh=True)
        layout.label(text=message, icon="CHECKMARK" if ok else "ERROR")


def menu_import(self, context):
    self.layout.operator(operators.IMPORT_SCENE_OT_remodel.bl_idname, text="remodel (game model)")


def menu_export(self, context):
    self.layout.operator(operators.EXPORT_SCENE_OT_remodel.bl_idname, text="remodel (game model)")


def register():
    bpy.utils.register_class(RemodelPreferences)
    for c in operators.classes:
        bpy.utils.register_class(c)
    bpy.types.TOPBAR_MT_file_import.append(menu_import)
    bpy.types.TOPBAR_MT_file_export.append(menu_export)
    # The executable is checked now so a missing or old remodel shows at once (on the console and in
    # the add-on's preferences), and again by every import and export.
    addon = bpy.context.preferences.addons.get(__package__)
    ok, message = cli.check_executable(cli.executable_path(addon.preferences.executable if addon else ""), fresh=True)
    print(("remodel add-on: " if ok else "remodel add-on: warning: ") + message)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(menu_import)
    for c in reversed(operators.classes):
        bpy.utils.unregister_class(c)
    bpy.utils.unregister_class(RemodelPreferences)
