#!/usr/bin/env bash
# Imports a glTF/GLB into Blender (headless), or a game model through the remodel add-on (installed
# from its zip into a temporary Blender profile, with KH BBS PAMs as actions, posed at the middle
# frame), prints its mesh, vertex, joint, material and animation counts as one JSON line, and renders
# a small PNG with a camera framed on the model and a light. `apt-get install blender python3-numpy`.
# REMODEL_BLENDER_ENGINE=BLENDER_EEVEE|BLENDER_WORKBENCH|CYCLES picks the renderer (default CYCLES,
# which needs no GPU); REMODEL is the CLI the add-on runs (default build/remodel).
#   usage: tools/blender_check.sh MODEL OUT.png [PAM...]
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 MODEL.glb|MODEL.gltf|GAME-MODEL OUT.png [PAM...]" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
command -v blender >/dev/null || { echo "blender is not installed (apt-get install blender)" >&2; exit 1; }
work="$(mktemp -d)"
log="$work/log"
trap 'rm -rf "$work"' EXIT
case "$1" in
  *.glb|*.gltf) ;;
  *)
    export REMODEL_CLI="$(realpath "${REMODEL:-$here/../build/remodel}")" REMODEL_ADDON_ZIP="$work/remodel_blender.zip"
    export BLENDER_USER_SCRIPTS="$work/scripts" BLENDER_USER_CONFIG="$work/config"
    bash "$here/blender-addon.sh" "$REMODEL_ADDON_ZIP" >/dev/null ;;
esac
if ! blender -b --factory-startup -noaudio -P "$here/blender_check.py" -- "$@" >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
grep -q '^REMODEL_RENDERED ' "$log" || { cat "$log" >&2; exit 1; }
sed -n 's/^REMODEL_COUNTS //p' "$log"
