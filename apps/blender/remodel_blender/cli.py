# Running the remodel CLI from Blender: finding it, checking its version, running one command and
# turning its output into Blender reports. Nothing here imports bpy, so it is testable on its own.
import json
import os
import re
import shutil
import subprocess

# The oldest remodel whose CLI this add-on drives (`remodel --version` first printed the version then).
MIN_VERSION = (0, 1, 0)
_checked = {}  # executable -> (True, message): a working one is asked `--version` once
_formats = {}  # executable -> what `remodel formats --json` listed: asked once


def executable_path(setting):
    """The executable the preference names, or `remodel` on PATH when it is empty."""
    setting = (setting or "").strip()
    if setting:
        return os.path.abspath(os.path.expanduser(setting))
    return shutil.which("remodel") or "remodel"


def parse_version(text):
    """(major, minor, patch) from `remodel --version` output, or None when it is not remodel's."""
    m = re.fullmatch(r"remodel (\d+)\.(\d+)\.(\d+)\s*", text)
    return tuple(int(g) for g in m.groups()) if m else None


def check_executable(exe, fresh=False):
    """(ok, message): whether `exe --version` answers as a remodel this add-on can drive."""
    if not fresh and exe in _checked:
        return _checked[exe]
    where = "Edit › Preferences › Add-ons › remodel"
    try:
        done = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        result = (False, f"remodel was not found ({exe}): install remodel and put it on PATH, or set its path in {where}")
    except (OSError, subprocess.SubprocessError) as e:
        result = (False, f"remodel ({exe}) could not be run: {e}; set its path in {where}")
    else:
        version = parse_version(done.stdout) if done.returncode == 0 else None
        need = ".".join(map(str, MIN_VERSION))
        if version is None:
            result = (False, f"{exe} did not answer --version as remodel {need} or newer does (exit {done.returncode}): "
                             f"it is too old or not remodel; update it or set its path in {where}")
        elif version < MIN_VERSION:
            result = (False, f"remodel {'.'.join(map(str, version))} ({exe}) is too old: this add-on needs {need} or newer")
        else:
            result = (True, f"remodel {'.'.join(map(str, version))} ({exe})")
    if result[0]:
        _checked[exe] = result
    return result


class Run:
    """One finished remodel command: exit status, and its output as (level, line) reports."""

    def __init__(self, status, reports):
        self.status = status
        self.reports = reports

    @property
    def ok(self):
        return self.status == 0


def run(exe, args, hide=None):
    """Runs `exe args`; every line it printed becomes a report: stderr lines are warnings (when they
    say so) or errors, stdout lines information. hide maps a temporary path to the name shown."""
    try:
        done = subprocess.run([exe, *args], capture_output=True, text=True, errors="replace")
    except (OSError, subprocess.SubprocessError) as e:
        return Run(-1, [("ERROR", f"remodel ({exe}) could not be run: {e}")])

    def shown(line):
        for path, name in (hide or {}).items():
            line = line.replace(path, name)
        return line

    reports = []
    for line in done.stdout.splitlines():
        if line.strip():
            reports.append(("INFO", shown(line)))
    for line in done.stderr.splitlines():
        if line.strip():
            if line.startswith("Run 'remodel"):
                level = "INFO"  # the usage hint after an error
            elif ": warning: " in line or done.returncode == 0:
                level = "WARNING"
            else:
                level = "ERROR"
            reports.append((level, shown(line)))
    if done.returncode != 0 and not any(level == "ERROR" for level, _ in reports):
        reports.append(("ERROR", f"remodel {' '.join(args[:1])} failed with exit status {done.returncode}"))
    return Run(done.returncode, reports)


def describe(exe, path, member=None):
    """(what `remodel info --json` says: format and counts, Run) of the file (or of the archive member
    so named); the dictionary is None when it failed."""
    done = run(exe, ["info", "--json", path] + (["--member", member] if member else []))
    if not done.ok:
        return None, done
    try:
        found = json.loads("\n".join(line for level, line in done.reports if level == "INFO"))
        if isinstance(found, dict) and isinstance(found.get("format"), str):
            return found, done
    except ValueError:
        pass
    return None, Run(1, [("ERROR", f"remodel info gave no format for {path}")])


def info(exe, path, member=None):
    """(format name, Run) from `remodel info --json` (of the archive member so named, if any); the
    format is None when it failed."""
    found, done = describe(exe, path, member)
    return (found["format"] if found else None), done


def members(exe, archive):
    """(models, Run) from `remodel ls --json ARCHIVE`: the paths of the members whose formats hold a
    model, in the archive's order; models is None when it failed (not an archive, or unreadable)."""
    done = run(exe, ["ls", "--json", archive])
    if not done.ok:
        return None, done
    try:
        listed = json.loads("\n".join(line for level, line in done.reports if level == "INFO"))
        models = {f["name"] for f in formats(exe) if f["lift"]}
        return [m["path"] for m in listed if m.get("kind") == "file" and m.get("format") in models], done
    except (ValueError, KeyError, TypeError):
        return None, Run(1, [("ERROR", f"remodel ls gave no members for {archive}")])


def formats(exe):
    """Every format `remodel formats --json` lists (name, extensions, operations, the kinds of file a
    new one is written as), or [] when exe does not answer (the executable check says why)."""
    if exe not in _formats:
        try:
            done = subprocess.run([exe, "formats", "--json"], capture_output=True, text=True, timeout=30)
            listed = json.loads(done.stdout) if done.returncode == 0 else []
        except (OSError, subprocess.SubprocessError, ValueError):
            return []
        if not listed:
            return []
        _formats[exe] = listed
    return _formats[exe]


def is_archive(exe, fmt):
    """Whether the format so named is an archive (RARC, Yaz0): its models are members."""
    return any(f["name"] == fmt and f.get("family") == "archive" for f in formats(exe))


def import_extensions(exe):
    """The extensions File › Import takes: those of every format remodel exports a model from, and of
    the archives that hold them (remodel recognises formats by their bytes, not these names)."""
    found = []
    for f in formats(exe):
        if f["lift"] or f.get("family") == "archive":
            found += [e for e in f["extensions"] if e not in found]
    return tuple(found)
