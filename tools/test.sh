#!/usr/bin/env bash
# Every test: install, build with g++ and run ctest, build and run the package's consumer
# (tests/consumer) against `cmake --install` output; then build with clang 14 + ASan/UBSan and run
# ctest again, so the hostile-input loops and corpus replays run under the sanitizers; then build
# every fuzz target as a fuzzing service does and run each for a few seconds.
# REMODEL_CMAKE_ARGS is added to both configurations, e.g.
#   REMODEL_CMAKE_ARGS=-DCMAKE_CXX_COMPILER_LAUNCHER=ccache bash tools/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh --tests
REMODEL_CMAKE_ARGS="-DREMODEL_WERROR=ON ${REMODEL_CMAKE_ARGS:-}" bash tools/build.sh
(cd build && ctest --output-on-failure -j"$(nproc)")
# The installed package as another project uses it: install into build/stage, build tests/consumer
# against it (find_package(remodel)), and read, write back and compare a few project-built files, once
# directly and once through a .glb (docs/example.cpp).
# The package is relocatable: it names no library by an absolute path, and it is used from
# build/stage-moved, where it was not installed.
rm -rf build/stage build/stage-moved
cmake --install build --prefix build/stage >/dev/null
if grep -rEn '(^|[";])/[^";]*\.(so|a)([";]|$)' build/stage/lib/cmake/remodel; then
  echo "the installed package names a library by an absolute path" >&2
  exit 1
fi
mv build/stage build/stage-moved
cmake -S tests/consumer -B build/consumer -DCMAKE_PREFIX_PATH="$PWD/build/stage-moved" >/dev/null
cmake --build build/consumer >/dev/null
for f in fuzz/corpus/kh_bbs_pmo/demo.pmo fuzz/corpus/j3d/demo.bmd fuzz/corpus/bwm/skin.bwm; do
  build/consumer/remodel_consumer "$f" build/consumer/written
  build/consumer/remodel_example "$f" build/consumer/example_written
  cmp "$f" build/consumer/example_written
done
# The sanitizer tests are built in the fuzz targets' own tree with the fuzzing service's flags
# (tools/oss-fuzz-env.sh: clang 14, ASan + UBSan, -O1, line tables): the library compiles once, and
# oss-fuzz-check's build.sh only adds the fuzz targets to it.
. tools/oss-fuzz-env.sh
# shellcheck disable=SC2086 # the extra arguments are words
cmake -S "$SRC/remodel" -B "$SRC/remodel-build" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER="$CXX" \
      -DCMAKE_CXX_FLAGS="$CXXFLAGS" -DREMODEL_FUZZ_ENGINE= -DBUILD_TESTING=ON -DREMODEL_BENCH=OFF \
      -DREMODEL_WERROR=ON ${REMODEL_CMAKE_ARGS:-} >/dev/null
cmake --build "$SRC/remodel-build" -j"$(nproc)"
(cd "$SRC/remodel-build" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
   ctest --output-on-failure -j"$(nproc)")
# Every fuzz target built by .clusterfuzzlite/build.sh and run for REMODEL_FUZZ_SECONDS (default 10).
bash tools/oss-fuzz-check.sh "${REMODEL_FUZZ_SECONDS:-10}"
