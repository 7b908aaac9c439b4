#!/usr/bin/env bash
# The main job on an input the project makes itself: install what the CLI needs, build the CLI alone, write the demo PMO from code,
# show it and prove it round-trips byte for byte, then export it to glTF (.glb) and validate that with
# the Khronos glTF-Validator.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
bash tools/build.sh --cli
mkdir -p out
build/remodel demo out/demo.pmo
build/remodel info out/demo.pmo
build/remodel check out/demo.pmo
build/remodel export out/demo.pmo -o out/demo.glb
node tools/gltf-validate.mjs out/demo.glb
