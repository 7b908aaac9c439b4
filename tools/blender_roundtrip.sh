#!/usr/bin/env bash
# The round trip modders make: remodel export -> Blender import -> Blender glTF export unchanged ->
# remodel import --like the original, then remodel diff against the original. Runs Blender's exporter
# twice: with its defaults (extras dropped) and with export_extras=True. Not in CI (Blender is large:
# `apt-get install blender python3-numpy`).
#   usage: tools/blender_roundtrip.sh MODEL [remodel export options, e.g. --anim test.pam]
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 MODEL [export options]" >&2
  exit 2
fi
here="$(cd "$(dirname "$0")" && pwd)"
remodel="${REMODEL:-$here/../build/remodel}"
command -v blender >/dev/null || { echo "blender is not installed (apt-get install blender)" >&2; exit 1; }
model="$1"
shift
name="$(basename "$model")"
ext="${name##*.}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$remodel" export "$model" "$@" -o "$work/exported.glb" >/dev/null
for extras in 0 1; do
  label=$([ $extras = 1 ] && echo "export_extras=True" || echo "defaults")
  if ! blender -b --factory-startup -noaudio -P "$here/blender_roundtrip.py" -- \
      "$work/exported.glb" "$work/blender_$extras.glb" "$extras" >"$work/blender_$extras.log" 2>&1; then
    tail -n 20 "$work/blender_$extras.log" >&2
    exit 1
  fi
  echo "== $name through Blender ($label)"
  if "$remodel" import "$work/blender_$extras.glb" --like "$model" -o "$work/out_$extras.$ext" 2>"$work/import_$extras.err"; then
    sed 's/^/  import: /' "$work/import_$extras.err" | head -n 20
    if cmp -s "$model" "$work/out_$extras.$ext"; then
      echo "  identical bytes"
    else
      "$remodel" diff "$model" "$work/out_$extras.$ext" | sed 's/^/  /' | tail -n 40 || true
    fi
  else
    echo "  import failed:"
    sed 's/^/  /' "$work/import_$extras.err"
  fi
done
