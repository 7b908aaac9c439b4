#!/usr/bin/env bash
# Runs .clusterfuzzlite/build.sh as ClusterFuzzLite / OSS-Fuzz would, without Docker, in the
# environment tools/oss-fuzz-env.sh sets, into a temporary $OUT. Checks that each target in
# fuzz/targets.txt came with its seed corpus zip, options and dictionary, then runs each for SECONDS
# (default 10) on its unzipped seeds with its options, and the samples of its family
# (../shared/samples/<family>, read only) as further seeds; fuzz_gltf on seeds made from every
# family's samples.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
samples="${REMODEL_SAMPLES:-$(pwd)/../shared/samples}"
. tools/oss-fuzz-env.sh
work="$fuzz_work"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
export OUT="$out"
if ! bash .clusterfuzzlite/build.sh >"$work/build.log" 2>&1; then
  tail -n 40 "$work/build.log"
  echo "oss-fuzz-check: build.sh failed (log: $work/build.log)"
  exit 1
fi

# fuzz_gltf reads no files beside the input: its seeds are made from the samples by make_seeds --gltf
# (every glTF with its files embedded, and every model of every family's folder exported to .glb).
gltf_seeds="$out/gltf-seeds"
families=()
while read -r target family _; do
  case "$target" in '' | '#'*) continue ;; esac
  [ "$family" != "-" ] && [ -d "$samples/$family" ] && [[ " ${families[*]} " != *" $samples/$family "* ]] && families+=("$samples/$family")
done <fuzz/targets.txt
if [ ${#families[@]} -gt 0 ]; then
  cmake --build "$SRC/remodel-build" -j"$(nproc)" --target make_seeds >>"$work/build.log" 2>&1 &&
    ASAN_OPTIONS=detect_leaks=0 "$SRC/remodel-build/fuzz/make_seeds" --gltf "$gltf_seeds" "${families[@]}" >"$work/gltf-seeds.log" 2>&1 ||
    echo "oss-fuzz-check: make_seeds --gltf failed (log: $work/gltf-seeds.log); fuzz_gltf runs on the samples as they are"
fi

run_target() {
  local name="fuzz_$1" family="$2" dict="$3" corpus="$out/corpus-$1" log="$work/fuzz_$1.log" flags=() seeds=()
  if [ "$1" = gltf ] && [ -d "$gltf_seeds" ]; then
    seeds+=("$gltf_seeds")
  elif [ "$family" != "-" ] && [ -d "$samples/$family" ]; then
    seeds+=("$samples/$family")
  fi
  for f in "$out/$name" "$out/${name}_seed_corpus.zip" "$out/$name.options"; do
    [ -f "$f" ] || { echo "== $name: FAILED, build.sh did not write $(basename "$f")"; return 1; }
  done
  if [ "$dict" != "-" ] && [ ! -f "$out/$name.dict" ]; then
    echo "== $name: FAILED, build.sh did not write $name.dict"
    return 1
  fi
  # The options file's [libfuzzer] lines are what the service passes: key = value becomes -key=value.
  while IFS=' =' read -r key value; do
    case "$key" in '' | '['*) continue ;; dict) value="$out/$value" ;; esac
    flags+=("-$key=$value")
  done <"$out/$name.options"
  mkdir -p "$corpus"
  unzip -q -o "$out/${name}_seed_corpus.zip" -d "$corpus"
  local status=0
  "$out/$name" "$corpus" "${seeds[@]}" "${flags[@]}" -max_total_time="$seconds" -rss_limit_mb=2560 \
      -print_final_stats=1 -artifact_prefix="$work/artifacts/$name-" >"$log" 2>&1 || status=1
  echo "== $name (${seconds}s, $(ls "$corpus" | wc -l) corpus files): $([ $status -eq 0 ] && echo ok || echo FAILED)" \
       "$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$') execs/s"
  [ $status -eq 0 ] || tail -n 30 "$log"
  return $status
}

# As many targets at a time as there are cores; each prints its own line.
pids=()
while read -r target family dict; do
  case "$target" in '' | '#'*) continue ;; esac
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do sleep 1; done
  run_target "$target" "$family" "$dict" &
  pids+=($!)
done <fuzz/targets.txt
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
exit $status
