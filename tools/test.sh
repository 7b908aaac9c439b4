#!/usr/bin/env bash
# Every test: install, build with g++ and run ctest; then build with clang 14 + ASan/UBSan and run
# ctest again, so the hostile-input loops and corpus replays run under the sanitizers.
# REMODEL_CMAKE_ARGS is added to both configurations, e.g.
#   REMODEL_CMAKE_ARGS=-DCMAKE_CXX_COMPILER_LAUNCHER=ccache bash tools/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
REMODEL_CMAKE_ARGS="-DREMODEL_WERROR=ON ${REMODEL_CMAKE_ARGS:-}" bash tools/build.sh
(cd build && ctest --output-on-failure -j"$(nproc)")
# shellcheck disable=SC2086 # the extra arguments are words
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
      -DREMODEL_SANITIZE=ON -DREMODEL_BENCH=OFF -DREMODEL_WERROR=ON ${REMODEL_CMAKE_ARGS:-} >/dev/null
cmake --build build-asan -j"$(nproc)"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
   ctest --output-on-failure -j"$(nproc)")
