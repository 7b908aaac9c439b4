#!/usr/bin/env bash
# Runs one headless Blender test (tests/blender/*.py) in a clean Blender profile of its own (a
# temporary user scripts and config folder, factory settings), so the add-on is installed from its zip
# as a modder's Blender would; exit 77 is a skip (samples absent). ctest runs it (tests/CMakeLists.txt).
#   usage: tests/blender/run.sh TEST.py
#   env: REMODEL_CLI, REMODEL_ADDON_ZIP, REMODEL_CORPUS, REMODEL_DEFAULT_SAMPLES (REMODEL_SAMPLES
#   overrides it), REMODEL_REQUIRE_SAMPLES
set -euo pipefail
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
export BLENDER_USER_SCRIPTS="$profile/scripts" BLENDER_USER_CONFIG="$profile/config"
# The add-on's temporary folders go to TMPDIR: a test checks they are gone, whatever runs beside it.
export REMODEL_TEST_TMP="$profile/work" TMPDIR="$profile/tmp"
mkdir -p "$REMODEL_TEST_TMP" "$TMPDIR"
status=0
blender -b --factory-startup -noaudio --python-exit-code 1 --python "$1" || status=$?
exit "$status"
