# File › Import and File › Export "remodel (game model)": a game model goes through `remodel export`
# to a temporary .glb and Blender's glTF importer; back through Blender's glTF exporter and
# `remodel import` (over the original with --like, or as a new file). A model inside an archive (RARC,
# Yaz0) goes out with `--member` and back as a new archive with only that member changed.
import os
import shutil
import tempfile

import bpy
from bpy.props import BoolProperty, CollectionProperty, EnumProperty, StringProperty
from bpy.types import Operator, OperatorFileListElement
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import cli, splines

# Custom properties on the collection an import makes: what export needs to find its base. Not on the
# objects: with extras on, Blender's exporter would write those into the glTF remodel reads.
SOURCE = "remodel_source"        # the game file's absolute path (an archive's, when MEMBER is set)
MEMBER = "remodel_member"        # the model's path inside that archive (RARC, Yaz0), as `remodel ls` lists it
FORMAT = "remodel_format"        # its format, as `remodel info` names it
ANIMATIONS = "remodel_animations"  # the PAM or BCK files attached as actions, ";"-separated
SKELETON = "remodel_skeleton"    # a bare MHFU PMO's skeleton
TEXTURES = "remodel_textures"    # a bare MHFU PMO's TMH

# The animation format of each model format (remodel formats names): a J3D model's BCKs are found
# beside it, and export writes an action over its BCK. KH BBS PAMs are chosen by hand (`animations`).
ANIMATION_OF = {"kh-bbs-pmo": "kh-bbs-pam", "j3d": "j3d-anim"}
FOUND_BESIDE = ("j3d",)
# The frame rate of each animation format's frames: a model imported with its animations sets the
# scene's, so Blender's importer keys them on whole frames and its export samples at the file's frames
# (at 24 fps an unedited BCK came back as 12,416 bytes instead of wait.bck's 5,088, and test.pam
# re-encoded 3 rotation channels). KH BBS PAMs play at 30 fps (both samples' records; the spec's rate).
ANIMATION_FPS = {"j3d": 30, "kh-bbs-pmo": 30}

# What a dynamic enum's callback returned last: Blender reads the strings after the call returns.
_target_items = []
_member_items = []
_archive_models = {}  # (executable, path, size, mtime) -> the models `remodel ls` listed, or None

# What the last import or export reported, (level, message) in order: the same messages as the report
# area shows, kept for scripts and the headless tests.
last_reports = []


def executable(context):
    addon = context.preferences.addons.get(__package__)
    return cli.executable_path(addon.preferences.executable if addon else "")


def targets(exe):
    """Export targets, (identifier, label, extension, --format for a new file), from `remodel formats`:
    every kind of file a model is written as, over an original or new. A new file's format otherwise
    comes from its extension, which remodel reads; formats it cannot author yet say so."""
    found = [("AUTO", "From the extension", "", None)]
    for f in cli.formats(exe):
        if f["holds_model"] or f["author"] or f["name"] in ANIMATION_OF.values():
            for kind in (k for k in f["files"] if k.get("authored", True) or f["holds_model"]):
                found.append((kind["name"], f"{kind['label']} ({kind['extension']})", kind["extension"],
                              None if f["by_extension"] else kind["name"]))
    return found


def family(exe, name="", extension=""):
    """The family (kh-bbs, mhfu, j3d, bwm) of the format (or kind of file) so named, else of a file
    with that extension."""
    for f in cli.formats(exe):
        if f["name"] == name:
            return f.get("family")
        for kind in f["files"]:
            if kind["name"] == name or (not name and extension and kind["extension"] == extension.lower()):
                return f.get("family")
    return None


def target_items(self, context):
    _target_items[:] = [(t[0], t[1], "") for t in targets(executable(context))]
    return _target_items


def archive_models(exe, path):
    """The models inside the archive at path (member paths), None when it is no archive remodel reads;
    asked once per file version, as the import dialog redraws."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    if not os.path.isfile(path):
        return None
    key = (exe, path, stat.st_size, stat.st_mtime_ns)
    if key not in _archive_models:
        fmt, _ = cli.info(exe, path)
        _archive_models[key] = cli.members(exe, path)[0] if fmt is not None and cli.is_archive(exe, fmt) else None
    return _archive_models[key]


def member_items(self, context):
    models = archive_models(executable(context), os.path.abspath(bpy.path.abspath(self.filepath))) if self.filepath else None
    if not models:
        _member_items[:] = [("NONE", "(no archive)", "The file is a model itself")]
    elif len(models) == 1:
        _member_items[:] = [(models[0], models[0], "The archive's only model")]
    else:
        _member_items[:] = [("NONE", "Choose a model", f"The archive holds {len(models)} models")] + [(m, m, "") for m in models]
    return _member_items


def file_filter(extensions):
    """A file browser's filter_glob for these extensions, each once."""
    return ";".join(dict.fromkeys("*" + e for e in extensions if e))


def numpy_bool_guard():
    """Blender 3.4's glTF importer uses np.bool, which numpy 1.24 removed: give it the builtin back."""
    try:
        import numpy
    except ImportError:
        return
    if "bool" not in numpy.__dict__:
        numpy.bool = bool


def exporter_reading_corners_by_vertex():
    """Blender 3.4's glTF exporter (io_scene_gltf2's PrimitiveCreator.__get_color_attribute) reads a
    face-corner colour layer, as its importer makes them, at each corner's vertex index instead of
    the corner's own: every colour lands on the wrong vertex. The class when its exporter does, else None."""
    try:
        import inspect

        from io_scene_gltf2.blender.exp import gltf2_blender_gather_primitives_extract as extract
        method = extract.PrimitiveCreator._PrimitiveCreator__get_color_attribute
        source = inspect.getsource(method)
    except (ImportError, AttributeError, OSError, TypeError):
        return None
    corner = source.split('== "CORNER":', 1)[1].split("del colors", 1)[0] if '== "CORNER":' in source else ""
    return extract.PrimitiveCreator if "colors[self.dots['vertex_index']]" in corner else None


class corner_colours_by_corner:
    """While it is entered, the exporter found by exporter_reading_corners_by_vertex reads a corner
    colour layer corner by corner (its per-corner table is in corner order); other domains as before."""

    def __enter__(self):
        self.cls = exporter_reading_corners_by_vertex()
        if self.cls is None:
            return self
        import numpy
        self.original = self.cls._PrimitiveCreator__get_color_attribute
        original = self.original

        def by_corner(creator, attr):
            if attr["blender_domain"] != "CORNER":
                return original(creator, attr)
            mesh = creator.blender_mesh
            colours = numpy.empty(len(mesh.loops) * 4, dtype=numpy.float32)
            mesh.color_attributes[mesh.color_attributes.render_color_index].data.foreach_get("color", colours)
            colours = colours.reshape(-1, 4)
            for i in range(4):
                creator.dots[attr["gltf_attribute_name"] + str(i)] = colours[:, i]

        self.cls._PrimitiveCreator__get_color_attribute = by_corner
        return self

    def __exit__(self, *exc):
        if self.cls is not None:
            self.cls._PrimitiveCreator__get_color_attribute = self.original
        return False


def remodel_collection(context):
    """The collection an import made that holds the active object (or is active itself), else None."""
    obj = getattr(context, "active_object", None)  # a file browser's draw context may have none
    candidates = list(obj.users_collection) if obj else []
    view_layer = getattr(context, "view_layer", None)
    if view_layer is not None:
        candidates.append(view_layer.active_layer_collection.collection)
    for c in candidates:
        if c.get(SOURCE):
            return c
    return None


def find_layer_collection(layer, collection):
    if layer.collection == collection:
        return layer
    for child in layer.children:
        found = find_layer_collection(child, collection)
        if found:
            return found
    return None


def name_actions(actions, objects, animations):
    """Blender's importer names an action "ANIMATION_OBJECT": one an animation file's stem names (a
    BCK's, as `remodel export` names its animation) is renamed to that stem, which export matches."""
    stems = {os.path.splitext(os.path.basename(a))[0] for a in animations}
    for action in actions:
        for obj in objects:
            stem = action.name[:-len(obj.name) - 1] if action.name.endswith("_" + obj.name) else None
            if stem in stems and stem not in bpy.data.actions:
                action.name = stem
                break


class RemodelOperator:
    """What both operators share: reporting, the executable check, a temporary folder."""

    def say(self, level, message):
        last_reports.append((level, message))
        self.report({level}, message)

    def say_all(self, run):
        for level, message in run.reports:
            self.say(level, message)

    def ready(self, context):
        last_reports.clear()
        exe = executable(context)
        ok, message = cli.check_executable(exe)
        if not ok:
            self.say("ERROR", message)
            return None
        return exe

    def execute(self, context):
        exe = self.ready(context)
        if exe is None:
            return {"CANCELLED"}
        work = tempfile.mkdtemp(prefix="remodel-blender-")
        try:
            return self.run(context, exe, work)
        except Exception as e:  # a failure inside Blender's glTF code is reported, never a crash
            self.say("ERROR", f"{self.bl_label}: {type(e).__name__}: {e}")
            return {"CANCELLED"}
        finally:
            shutil.rmtree(work, ignore_errors=True)


class IMPORT_SCENE_OT_remodel(RemodelOperator, Operator, ImportHelper):
    """Import a game model (KH BBS PMO/PMP, MHFU PAC, J3D BMD/BDL, BWM, or one inside a RARC/Yaz0 archive) through remodel"""

    bl_idname = "import_scene.remodel"
    bl_label = "Import game model (remodel)"
    bl_options = {"REGISTER", "UNDO"}

    filter_glob: StringProperty(default="", options={"HIDDEN"})  # set by invoke, from remodel
    animations: StringProperty(
        name="Animations",
        description="KH BBS PAM files to attach to a PMO, or J3D BCK files to a BMD/BDL, as actions, separated by ';'",
        default="")
    beside: BoolProperty(
        name="Animations beside the model",
        description="Attach every BCK in a J3D model's folder that animates as many joints as the model has",
        default=True)
    skeleton: StringProperty(name="MHFU skeleton", description="The skeleton of a bare MHFU PMO", default="", subtype="FILE_PATH")
    textures: StringProperty(name="MHFU textures", description="The TMH texture bank of a bare MHFU PMO", default="", subtype="FILE_PATH")
    member: EnumProperty(
        name="Model",
        description="The model to import from an archive (.arc, .szs): its path inside, as `remodel ls` lists it",
        items=member_items)

    def invoke(self, context, event):
        self.filter_glob = file_filter(cli.import_extensions(executable(context)))
        return ImportHelper.invoke(self, context, event)

    def run(self, context, exe, work):
        source = os.path.abspath(bpy.path.abspath(self.filepath))
        animations = [os.path.abspath(bpy.path.abspath(a.strip())) for a in self.animations.split(";") if a.strip()]
        name = os.path.basename(source)
        model, found = cli.describe(exe, source)
        if model is None:
            self.say_all(found)
            return {"CANCELLED"}
        member = None
        if cli.is_archive(exe, model["format"]):
            member, why = self.chosen_member(exe, source)
            if member is None:
                self.say("ERROR", why)
                return {"CANCELLED"}
            model, found = cli.describe(exe, source, member)
            if model is None:
                self.say_all(found)
                return {"CANCELLED"}
            name = f"{os.path.basename(member)} in {name}"
        fmt = model["format"]
        if self.beside and member is None and fmt in FOUND_BESIDE:
            animations += self.animations_beside(exe, source, model, animations)
        glb = os.path.join(work, os.path.splitext(os.path.basename(member or name))[0] + ".glb")
        args = ["export", source, "-o", glb] + (["--member", member] if member else [])
        for a in animations:
            args += ["--anim", a]
        extra = {}
        for option, value, key in (("--skeleton", self.skeleton, SKELETON), ("--textures", self.textures, TEXTURES)):
            if value:
                extra[key] = os.path.abspath(bpy.path.abspath(value))
                args += [option, extra[key]]
        exported = cli.run(exe, args, hide={glb: name + " as glTF"})
        self.say_all(exported)
        if not exported.ok:
            return {"CANCELLED"}

        numpy_bool_guard()
        if animations and fmt in ANIMATION_FPS and (context.scene.render.fps, context.scene.render.fps_base) != (ANIMATION_FPS[fmt], 1.0):
            context.scene.render.fps, context.scene.render.fps_base = ANIMATION_FPS[fmt], 1.0
            self.say("INFO", f"the scene plays at {ANIMATION_FPS[fmt]} fps, the animations' frame rate")
        splines.sample_splines(glb, context.scene.render.fps / context.scene.render.fps_base)
        collection = bpy.data.collections.new(name)
        context.scene.collection.children.link(collection)
        context.view_layer.active_layer_collection = find_layer_collection(context.view_layer.layer_collection, collection)
        before = set(bpy.data.objects)
        actions_before = set(bpy.data.actions)
        try:
            bpy.ops.import_scene.gltf(filepath=glb)
        except Exception:
            for obj in set(bpy.data.objects) - before:
                bpy.data.objects.remove(obj)
            bpy.data.collections.remove(collection)
            raise
        for obj in set(bpy.data.objects) - before:
            if collection not in obj.users_collection:
                collection.objects.link(obj)
            for other in list(obj.users_collection):
                if other != collection:
                    other.objects.unlink(obj)
        name_actions(set(bpy.data.actions) - actions_before, set(bpy.data.objects) - before, animations)
        collection[SOURCE] = source
        collection[FORMAT] = fmt
        if member:
            collection[MEMBER] = member
        if animations:
            collection[ANIMATIONS] = ";".join(animations)
        for key, value in extra.items():
            collection[key] = value
        self.say("INFO", f"imported {name} ({fmt}) into collection {collection.name}")
        return {"FINISHED"}

    def animations_beside(self, exe, source, model, chosen):
        """The files in the model's folder, in name order and not already chosen, of its animation
        format (by extension, then by `remodel info`) that animate as many joints as it has; an
        unreadable one is skipped with a warning."""
        kind = ANIMATION_OF[model["format"]]
        extensions = {e for f in cli.formats(exe) if f["name"] == kind for e in f["extensions"]}
        folder = os.path.dirname(source)
        try:
            names = sorted(os.listdir(folder))
        except OSError as e:
            self.say("WARNING", f"animations beside the model: {folder} could not be listed: {e}")
            return []
        found = []
        for n in names:
            path = os.path.join(folder, n)
            if os.path.splitext(n)[1].lower() not in extensions or path in chosen or not os.path.isfile(path):
                continue
            anim, done = cli.describe(exe, path)
            if anim is None or anim["format"] != kind:
                why = "; ".join(message for level, message in done.reports if level == "ERROR") or f"it is {anim['format']}"
                self.say("WARNING", f"{n} beside the model is skipped: {why}")
            elif anim.get("joints") != model.get("joints"):
                self.say("INFO", f"{n} beside the model is not attached: it animates {anim.get('joints')} joints, the model has {model.get('joints')}")
            else:
                found.append(path)
        return found

    def chosen_member(self, exe, archive):
        """(the member to import, None) or (None, why not): the one the Model property names, else the
        archive's only model."""
        name = os.path.basename(archive)
        models, listed = cli.members(exe, archive)
        if models is None:
            return None, "; ".join(message for level, message in listed.reports if level == "ERROR") or f"remodel ls could not list {name}"
        if not models:
            return None, f"{name} holds no model remodel reads (`remodel ls {name}` lists its members)"
        if self.member in models:
            return self.member, None
        if len(models) == 1:
            return models[0], None
        return None, f"{name} holds {len(models)} models: choose one under Model ({', '.join(models)})"

    def draw(self, context):
        layout = self.layout
        if self.filepath and archive_models(executable(context), os.path.abspath(bpy.path.abspath(self.filepath))):
            layout.prop(self, "member")
        layout.prop(self, "animations")
        layout.prop(self, "beside")
        layout.prop(self, "skeleton")
        layout.prop(self, "textures")


class EXPORT_SCENE_OT_remodel(RemodelOperator, Operator, ExportHelper):
    """Export to a game model through remodel: over the imported original, or as a new file"""

    bl_idname = "export_scene.remodel"
    bl_label = "Export game model (remodel)"
    bl_options = {"REGISTER"}

    filename_ext = ".pmo"
    check_extension = None  # the target decides the extension (execute), not a fixed one
    filter_glob: StringProperty(default="", options={"HIDDEN"})  # set by invoke, from remodel
    target: EnumProperty(
        name="Format",
        description="The format of a new file (over the original, the original's format is kept)",
        items=target_items,
        default=0)  # "AUTO"
    mode: EnumProperty(
        name="Write",
        items=[("ORIGINAL", "Over the original",
                "Keep everything glTF cannot carry from the imported file (remodel import --like); unedited, "
                "the original's bytes come back"),
               ("NEW", "New file", "Author a new file from what Blender holds")],
        default="ORIGINAL")

    def invoke(self, context, event):
        base = remodel_collection(context)
        if base is not None and not self.filepath:
            self.filepath = base[SOURCE]
        if base is None:
            self.mode = "NEW"
        self.filter_glob = file_filter(t[2] for t in targets(executable(context)))
        return ExportHelper.invoke(self, context, event)

    def chosen(self, exe):
        """The entry of targets(exe) this export's Format names."""
        return next(t for t in targets(exe) if t[0] == self.target)

    def out_path(self, exe, into_archive):
        path = os.path.abspath(bpy.path.abspath(self.filepath))
        ext = self.chosen(exe)[2]
        if ext and not into_archive and os.path.splitext(path)[1].lower() != ext:
            path = os.path.splitext(path)[0] + ext
        return path

    def into_archive(self, base):
        """Whether this export writes a new archive with only the imported member changed."""
        return self.mode == "ORIGINAL" and base is not None and bool(base.get(MEMBER))

    def remodel_args(self, exe, base, glb, out, work):
        """The `remodel import` arguments, or a message saying why there are none."""
        fmt = self.chosen(exe)[3]
        original = self.mode == "ORIGINAL" and base is not None
        if self.target == "kh-bbs-pam":
            if base is None or base.get(FORMAT) != "kh-bbs-pmo":
                return None, "a KH BBS PAM holds animations of a PMO's skeleton: import that PMO (with its PAM) first and select it"
            args = ["import", glb, "--skeleton", base[SOURCE], "-o", out]
            anims = [a for a in base.get(ANIMATIONS, "").split(";") if a]
            if original:
                if not anims:
                    return None, "no PAM was imported with this PMO to write over: choose New file"
                args += ["--like", anims[0]]
            return args, None
        if self.j3d_animation(exe, out):
            return self.bck_args(base, glb, out, original)
        args = ["import", glb, "-o", out]
        if original:
            args += ["--like", base[SOURCE]]
            if base.get(MEMBER):
                args += ["--member", base[MEMBER]]
            if base.get(SKELETON):
                args += ["--skeleton", base[SKELETON]]
        elif fmt:
            args += ["--format", fmt]
        skeleton = None if original else self.game_skeleton(exe, base, out, work)
        if skeleton is False:
            return None, f"{base[MEMBER]} could not be extracted from {os.path.basename(base[SOURCE])} for its skeleton"
        if skeleton:
            args += ["--skeleton", skeleton]
        return args, None

    def j3d_animation(self, exe, out):
        """Whether this export writes a J3D animation: its Format is a kind of the J3D animation format
        (BCK, BCA), or, from the extension, OUT's extension is one of that format's."""
        anim = next((f for f in cli.formats(exe) if f["name"] == ANIMATION_OF["j3d"]), None)
        if anim is None:
            return False
        if self.target != "AUTO":
            return any(kind["name"] == self.target for kind in anim["files"])
        return os.path.splitext(out)[1].lower() in anim["extensions"]

    def bck_args(self, base, glb, out, original):
        """The `remodel import` arguments of a BCK on the imported J3D model's joints: over the
        original, the imported BCK named as the output file (else as the armature's active action),
        whose action the CLI picks by that name; new, the glTF's first animation."""
        if base is None or base.get(FORMAT) != "j3d" or base.get(MEMBER):
            return None, "a J3D BCK animates a BMD/BDL's joints: import that model (with its BCKs) first and select it"
        args = ["import", glb, "--skeleton", base[SOURCE], "-o", out]
        if not original:
            return args, None
        bcks = {os.path.splitext(os.path.basename(a))[0]: a for a in base.get(ANIMATIONS, "").split(";") if a}
        stem = os.path.splitext(os.path.basename(out))[0]
        if stem not in bcks:
            actions = [o.animation_data.action.name for o in base.all_objects
                       if o.type == "ARMATURE" and o.animation_data and o.animation_data.action]
            stem = next((a for a in actions if a in bcks), stem)
        if stem not in bcks:
            return None, (f"no BCK imported with this model is named {stem}: name the file as one of "
                          f"{', '.join(sorted(bcks)) or '(none)'}, or choose New file")
        return args + ["--like", bcks[stem]], None

    def game_skeleton(self, exe, base, out, work):
        """A new file of the imported model's family keeps its game skeleton (remodel import --skeleton):
        the file its armature came from (a bare MHFU PMO's skeleton file; a member extracted from its
        archive into work), when it came with one. False when the member could not be extracted."""
        if base is None or not any(o.type == "ARMATURE" for o in base.all_objects):
            return None
        target = "" if self.target == "AUTO" else self.target
        if family(exe, target, os.path.splitext(out)[1]) != family(exe, base.get(FORMAT, "")):
            return None
        if base.get(MEMBER):
            members = os.path.join(work, "members")
            done = cli.run(exe, ["extract", base[SOURCE], "-o", members])
            path = os.path.join(members, *base[MEMBER].split("/"))
            return path if done.ok and os.path.isfile(path) else False
        return base.get(SKELETON) or base[SOURCE]

    def run(self, context, exe, work):
        base = remodel_collection(context)
        out = self.out_path(exe, self.into_archive(base))
        glb = os.path.join(work, "blender.glb")
        args, why = self.remodel_args(exe, base, glb, out, work)
        if args is None:
            self.say("ERROR", why)
            return {"CANCELLED"}
        if self.mode == "ORIGINAL" and base is None:
            self.say("INFO", "no imported original holds the active object: writing a new file")

        numpy_bool_guard()
        settings = {"filepath": glb, "export_format": "GLB", "export_extras": True}
        view_layer = context.view_layer
        active = view_layer.active_layer_collection
        if base is not None:
            # The imported collection, whatever is selected: the base's objects are what it matches.
            view_layer.active_layer_collection = find_layer_collection(view_layer.layer_collection, base)
            settings["use_active_collection"] = True
        elif context.selected_objects:
            settings["use_selection"] = True
        try:
            with corner_colours_by_corner():
                bpy.ops.export_scene.gltf(**settings)
        finally:
            view_layer.active_layer_collection = active
        done = cli.run(exe, args, hide={glb: "Blender's glTF"})
        self.say_all(done)
        if not done.ok:
            return {"CANCELLED"}
        return {"FINISHED"}

    def draw(self, context):
        layout = self.layout
        base = remodel_collection(context)
        layout.prop(self, "mode")
        if base is not None and base.get(MEMBER):
            layout.label(text=f"Original: {base[MEMBER]} ({base.get(FORMAT, '?')}) in {os.path.basename(base[SOURCE])}")
        elif base is not None:
            layout.label(text=f"Original: {os.path.basename(base[SOURCE])} ({base.get(FORMAT, '?')})")
        else:
            layout.label(text="No imported original: a new file")
        layout.prop(self, "target")


classes = (IMPORT_SCENE_OT_remodel, EXPORT_SCENE_OT_remodel)
