#!/usr/bin/env bash
# Configures and builds the Release tree in build/ (the CLI is build/remodel): everything, tests and
# benchmarks too; with --cli, the `remodel` CLI alone (the main job).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--cli" ]; then
  # shellcheck disable=SC2086 # the extra arguments are words
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DREMODEL_BENCH=OFF ${REMODEL_CMAKE_ARGS:-} >/dev/null
  cmake --build build -j"$(nproc)" --target remodel
else
  # shellcheck disable=SC2086
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=ON -DREMODEL_BENCH=ON ${REMODEL_CMAKE_ARGS:-} >/dev/null
  cmake --build build -j"$(nproc)"
fi
