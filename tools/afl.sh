#!/usr/bin/env bash
# Builds the fuzz targets with AFL++ (Debian afl++: afl-clang-fast++, ASan + UBSan, AFL++'s
# libFuzzer-compatible driver as $LIB_FUZZING_ENGINE) through .clusterfuzzlite/build.sh, runs
# afl-fuzz on each target for SECONDS (default 60) from its seed corpus and dictionary, and prints
# each one's execs/s and findings. Not run by CI; findings stay in build-afl/findings-<target>/.
# REMODEL_FUZZ_TARGETS="tim2 j3d" runs only those.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
command -v afl-fuzz >/dev/null || { echo "afl.sh: needs AFL++ (apt-get install afl++)"; exit 1; }
work="$(pwd)/build-afl"
out="$work/out"
mkdir -p "$work/src"
ln -sfn "$(pwd)" "$work/src/remodel"
rm -rf "$out"
mkdir -p "$out"
export SRC="$work/src" OUT="$out" CC=afl-clang-fast CXX=afl-clang-fast++
export LIB_FUZZING_ENGINE=/usr/lib/afl/libAFLDriver.a CXXFLAGS="-O1 -g -fno-omit-frame-pointer"
export AFL_USE_ASAN=1 AFL_USE_UBSAN=1 AFL_QUIET=1
if command -v ccache >/dev/null; then export CMAKE_CXX_COMPILER_LAUNCHER=ccache; fi
if ! bash .clusterfuzzlite/build.sh >"$work/build.log" 2>&1; then
  tail -n 40 "$work/build.log"
  echo "afl.sh: build.sh failed (log: $work/build.log)"
  exit 1
fi

# A shared machine: no CPU binding, no core_pattern or governor demands, plain log output.
export AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
run_target() {
  local name="fuzz_$1" seeds="$work/seeds-$1" findings="$work/findings-$1" dict=()
  rm -rf "$seeds" "$findings"
  mkdir -p "$seeds"
  unzip -q "$out/${name}_seed_corpus.zip" -d "$seeds"
  [ -f "$out/$name.dict" ] && dict=(-x "$out/$name.dict")
  local status=0
  afl-fuzz -i "$seeds" -o "$findings" -V "$seconds" -t 10000 "${dict[@]}" -- "$out/$name" \
      >"$work/$name.log" 2>&1 || status=1
  local stats="$findings/default/fuzzer_stats"
  if [ $status -ne 0 ] || [ ! -f "$stats" ]; then
    echo "== $name: afl-fuzz FAILED"
    tail -n 20 "$work/$name.log"
    return 1
  fi
  awk -F' *: *' -v name="$name" '
    { v[$1] = $2 }
    END {
      rate = v["run_time"] > 0 ? v["execs_done"] / v["run_time"] : 0
      printf "== %s: %d execs in %d s = %.0f execs/s, %d paths, %d crashes, %d hangs\n",
             name, v["execs_done"], v["run_time"], rate, v["corpus_count"], v["saved_crashes"], v["saved_hangs"]
      exit (v["saved_crashes"] > 0)
    }' "$stats"
}

all_targets="$(awk '/^[a-z]/ { print $1 }' fuzz/targets.txt)"
read -r -a targets <<<"${REMODEL_FUZZ_TARGETS:-$(echo $all_targets)}"
pids=()
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do sleep 1; done
  run_target "$target" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
