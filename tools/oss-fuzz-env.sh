# Sourced by tools/oss-fuzz-check.sh and tools/test.sh, from the repository's root: the environment a
# fuzzing service gives .clusterfuzzlite/build.sh (clang 14, libFuzzer, ASan + UBSan; libstdc++ here,
# the service uses its own clang and libc++), with the sources at $SRC/remodel and its build tree at
# $SRC/remodel-build. test.sh builds its sanitizer tests in that same tree with these same flags, so
# the library compiles once for the tests and the fuzz targets.
fuzz_work="$(pwd)/build-ossfuzz"  # kept between runs, so builds are incremental
mkdir -p "$fuzz_work/src" "$fuzz_work/artifacts"
ln -sfn "$(pwd)" "$fuzz_work/src/remodel"
export SRC="$fuzz_work/src" CC=clang-14 CXX=clang++-14 LIB_FUZZING_ENGINE=-fsanitize=fuzzer
export CXXFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
-fsanitize=address,undefined -fsanitize-address-use-after-scope -fno-sanitize-recover=undefined \
-fsanitize=fuzzer-no-link"
if command -v ccache >/dev/null; then export CMAKE_CXX_COMPILER_LAUNCHER=ccache; fi
