#!/usr/bin/env bash
# Builds the libFuzzer targets (clang 14, ASan+UBSan) and runs each for SECONDS (default 60) on the
# committed seeds plus the samples. A crash fails the run and prints the input as hex.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
samples="${REMODEL_SAMPLES:-$(pwd)/../shared/samples}"
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
      -DREMODEL_FUZZ=ON -DREMODEL_BENCH=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target fuzz_kh_bbs_pmo fuzz_kh_bbs_pmp fuzz_tim2 fuzz_kh_bbs_pam
status=0
for target in kh_bbs_pmo kh_bbs_pmp tim2 kh_bbs_pam; do
  work="build-fuzz/corpus-$target"
  mkdir -p "$work" "build-fuzz/artifacts-$target"
  cp -n fuzz/corpus/$target/* "$work"/ 2>/dev/null || true
  extra=()
  [ -d "$samples/kh-bbs" ] && extra+=("$samples/kh-bbs")
  echo "== fuzz_$target for ${seconds}s"
  if ! build-fuzz/fuzz/fuzz_$target "$work" "${extra[@]}" -dict=fuzz/kh_bbs.dict -max_total_time="$seconds" \
        -rss_limit_mb=2048 -timeout=10 -max_len=262144 -print_final_stats=1 \
        -artifact_prefix="build-fuzz/artifacts-$target/" 2>"build-fuzz/fuzz-$target.log"; then
    status=1
    tail -n 40 "build-fuzz/fuzz-$target.log"
    for f in build-fuzz/artifacts-$target/*; do
      [ -f "$f" ] || continue
      echo "reproducing input $f:"
      xxd "$f" | head -n 64
    done
  fi
  grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" "build-fuzz/fuzz-$target.log" || true
  echo "corpus: $(ls "$work" | wc -l) files"
done
exit $status
