#!/bin/bash -eu
# Builds every fuzz target under the OSS-Fuzz / ClusterFuzzLite contract: the service's $CXX,
# $CXXFLAGS (sanitizers included) and $LIB_FUZZING_ENGINE, sources in $SRC/remodel, and in $OUT each
# target beside its <target>_seed_corpus.zip, <target>.dict and <target>.options.
# tools/oss-fuzz-check.sh runs it without Docker, tools/afl.sh with AFL++.
set -euo pipefail
src="$SRC/remodel"
build="$SRC/remodel-build"
targets=()
dicts=()
while read -r target _ dict; do
  case "$target" in '' | '#'*) continue ;; esac
  targets+=("$target")
  dicts+=("$dict")
done <"$src/fuzz/targets.txt"

cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER="$CXX" \
      -DCMAKE_CXX_FLAGS="$CXXFLAGS" -DREMODEL_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
      -DREMODEL_BENCH=OFF -DBUILD_TESTING=OFF
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

for i in "${!targets[@]}"; do
  name="fuzz_${targets[$i]}"
  cp "$build/fuzz/$name" "$OUT/"
  # The committed seeds and the kept findings (never a game file: the service stores what it finds);
  # a finding whose one execution takes far longer than a mutation's (regressions/<target>/replay-only/)
  # is replayed by ctest only.
  rm -f "$OUT/${name}_seed_corpus.zip"
  inputs=("$src/fuzz/corpus/${targets[$i]}")
  [ -d "$src/fuzz/regressions/${targets[$i]}" ] && inputs+=("$src/fuzz/regressions/${targets[$i]}")
  find "${inputs[@]}" -type f -not -path '*/replay-only/*' | zip -q -j "$OUT/${name}_seed_corpus.zip" -@
  # fuzz/<target>.options: the target's own libFuzzer options (key = value lines; # comments); a
  # max_len there replaces the default (the service's parser refuses a key given twice).
  own="$src/fuzz/${targets[$i]}.options"
  options="[libfuzzer]\ntimeout = 10\n"
  grep -q '^max_len' "$own" 2>/dev/null || options+="max_len = 262144\n"
  if [ "${dicts[$i]}" != "-" ]; then
    cp "$src/fuzz/${dicts[$i]}" "$OUT/$name.dict"
    options+="dict = $name.dict\n"
  fi
  [ -f "$own" ] && options+="$(grep -v '^#' "$own")\n"
  printf "$options" >"$OUT/$name.options"
done
