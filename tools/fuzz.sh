#!/usr/bin/env bash
# Builds the libFuzzer targets (clang 14, ASan+UBSan) and runs each for SECONDS (default 60) on the
# committed seeds plus the samples, as many at a time as there are cores. A crash fails the run and
# prints the input as hex. REMODEL_FUZZ_TARGETS="tim2 j3d" runs only those.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
samples="${REMODEL_SAMPLES:-$(pwd)/../shared/samples}"
all_targets="$(awk '/^[a-z]/ { print $1 }' fuzz/targets.txt)"
read -r -a targets <<<"${REMODEL_FUZZ_TARGETS:-$(echo $all_targets)}"  # a subset: REMODEL_FUZZ_TARGETS="tim2 tmh"
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
      -DREMODEL_FUZZ=ON -DREMODEL_BENCH=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${targets[@]/#/fuzz_}"

run_target() {
  local target="$1" family dict
  read -r family dict < <(awk -v t="$target" '$1 == t { print $2, $3 }' fuzz/targets.txt)
  [ "$family" = "-" ] && family=""
  if [ "$dict" = "-" ]; then dict=""; else dict="fuzz/$dict"; fi
  local work="build-fuzz/corpus-$target" artifacts="build-fuzz/artifacts-$target" log="build-fuzz/fuzz-$target.log"
  mkdir -p "$work" "$artifacts"
  cp -n fuzz/corpus/$target/* "$work"/ 2>/dev/null || true
  cp -n fuzz/regressions/$target/* "$work"/ 2>/dev/null || true
  local extra=()
  [ -n "$family" ] && [ -d "$samples/$family" ] && extra+=("$samples/$family")
  [ -n "$dict" ] && extra+=("-dict=$dict")
  local status=0
  build-fuzz/fuzz/fuzz_$target "$work" "${extra[@]}" -max_total_time="$seconds" \
      -rss_limit_mb=2048 -timeout=10 -max_len=262144 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" 2>"$log" || status=1
  {
    echo "== fuzz_$target (${seconds}s): $( [ $status -eq 0 ] && echo ok || echo FAILED )"
    grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" "$log" || true
    echo "corpus: $(ls "$work" | wc -l) files"
    if [ $status -ne 0 ]; then
      tail -n 40 "$log"
      for f in "$artifacts"/*; do
        [ -f "$f" ] || continue
        echo "reproducing input $f:"
        xxd "$f" | head -n 64
      done
    fi
  } > "build-fuzz/report-$target.txt"
  return $status
}

pids=()
for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do sleep 1; done
  run_target "$target" &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for target in "${targets[@]}"; do cat "build-fuzz/report-$target.txt"; done
exit $status
