#!/usr/bin/env bash
# Imports a glTF/GLB into Blender (headless), prints its mesh, vertex, joint, material and animation
# counts as one JSON line, and renders a small PNG with a camera framed on the model and a light.
# Not part of CI (Blender is large): `apt-get install blender python3-numpy`.
# REMODEL_BLENDER_ENGINE=BLENDER_EEVEE|BLENDER_WORKBENCH|CYCLES picks the renderer (default CYCLES,
# which needs no GPU).
#   usage: tools/blender_check.sh MODEL.glb OUT.png
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 MODEL.glb|MODEL.gltf OUT.png" >&2
  exit 2
fi
command -v blender >/dev/null || { echo "blender is not installed (apt-get install blender)" >&2; exit 1; }
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! blender -b --factory-startup -noaudio -P "$(dirname "$0")/blender_check.py" -- "$1" "$2" >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
grep -q '^REMODEL_RENDERED ' "$log" || { cat "$log" >&2; exit 1; }
sed -n 's/^REMODEL_COUNTS //p' "$log"
