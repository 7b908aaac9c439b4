#!/usr/bin/env bash
# Line coverage of the readers and writers from replaying corpora: builds the replay targets with
# clang's source coverage, runs each over CORPUS_ROOT/corpus-<target> (default: build-fuzz), the
# committed seeds and the samples, and prints llvm-cov's report for lib/.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus_root="${1:-build-fuzz}"
samples="${REMODEL_SAMPLES:-$(pwd)/../shared/samples}"
cmake -S . -B build-cov -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-14 -DREMODEL_BENCH=OFF \
      -DREMODEL_COVERAGE=ON >/dev/null
# The game-format targets of fuzz/targets.txt (those with a samples folder other than glTF's), each
# with its samples folder.
declare -A folder
targets=()
while read -r name samples _; do
  targets+=("$name")
  folder[$name]="$samples"
done < <(awk '/^[a-z]/ && $2 != "-" && $2 != "gltf"' fuzz/targets.txt)
cmake --build build-cov -j"$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null
rm -f build-cov/*.profraw
objects=()
for t in "${targets[@]}"; do
  dirs=("fuzz/corpus/$t")
  [ -d "$corpus_root/corpus-$t" ] && dirs+=("$corpus_root/corpus-$t")
  [ -d "$samples/${folder[$t]}" ] && dirs+=("$samples/${folder[$t]}")
  LLVM_PROFILE_FILE="build-cov/$t.profraw" "build-cov/fuzz/fuzz_$t" "${dirs[@]}" >/dev/null
  objects+=(-object "build-cov/fuzz/fuzz_$t")
done
llvm-profdata-14 merge -sparse build-cov/*.profraw -o build-cov/all.profdata
llvm-cov-14 report "${objects[@]:1}" -instr-profile=build-cov/all.profdata "$(pwd)/lib/reader" "$(pwd)/lib/writer" \
  | sed "s|$(pwd)/||"
