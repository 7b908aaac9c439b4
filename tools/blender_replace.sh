#!/usr/bin/env bash
# A Blender-made replacement of a game model (issue 30's modder workflow): exports GAMEFILE to glTF
# with remodel, then tests/blender/replace.py deletes its meshes in Blender, adds stretched spheres
# along the armature with a new checker material and a colour layer, weights them With Automatic
# Weights and exports OUT.glb at the glTF exporter's defaults (the checker PNG lands beside OUT).
# REMODEL is the CLI (default build/remodel). `apt-get install blender python3-numpy`.
#   usage: tools/blender_replace.sh GAMEFILE OUT.glb [--max-triangles N] [--image PNG]
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 GAMEFILE OUT.glb [--max-triangles N] [--image PNG]" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
command -v blender >/dev/null || { echo "blender is not installed (apt-get install blender)" >&2; exit 1; }
game="$1" out="$2"
shift 2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"${REMODEL:-$here/../build/remodel}" export "$game" -o "$work/exported.glb" >/dev/null
if ! blender -b --factory-startup -noaudio --python-exit-code 1 -P "$here/../tests/blender/replace.py" -- \
    "$work/exported.glb" "$out" "$@" >"$work/log" 2>&1; then
  cat "$work/log" >&2
  exit 1
fi
grep -q '^REMODEL_REPLACED ' "$work/log" || { cat "$work/log" >&2; exit 1; }
grep 'WARNING' "$work/log" >&2 || true
sed -n 's/^REMODEL_REPLACED //p' "$work/log"
