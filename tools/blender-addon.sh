#!/usr/bin/env bash
# Builds the zip Blender's Edit › Preferences › Add-ons › Install takes: remodel_blender/ with the
# add-on's Python files (no caches), from apps/blender/.
#   usage: tools/blender-addon.sh [OUT.zip]   (default: remodel_blender.zip in the current directory)
set -euo pipefail
out="$(realpath -m "${1:-remodel_blender.zip}")"
cd "$(dirname "$0")/../apps/blender"
files=(remodel_blender/*.py)
rm -f "$out.tmp"
cmake -E tar cf "$out.tmp" --format=zip "${files[@]}"
mv "$out.tmp" "$out"
echo "$out"
