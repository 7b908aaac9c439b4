#!/usr/bin/env bash
# Configures and builds the Release tree in build/ (the CLI is build/remodel).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${REMODEL_CMAKE_ARGS:-} >/dev/null
cmake --build build -j"$(nproc)"
