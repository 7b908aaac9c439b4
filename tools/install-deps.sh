#!/usr/bin/env bash
# Installs the Debian packages remodel needs, only those missing; safe to run again. Without
# arguments, what the main job needs (the `remodel` CLI and the glTF-Validator); with --tests, also
# what the test command needs (clang 14 and its sanitizers, GoogleTest, Google Benchmark, tinygltf,
# Blender for the add-on's headless tests).
set -euo pipefail
packages=(build-essential cmake g++ nlohmann-json3-dev libstb-dev libimagequant-dev libsquish-dev libmeshoptimizer-dev
          libboost-dev libboost-program-options-dev)
if [ "${1:-}" = "--tests" ]; then
  packages+=(clang-14 libclang-rt-14-dev llvm-14 libgtest-dev libgmock-dev libbenchmark-dev libtinygltf-dev xxd
             blender python3-numpy)  # Blender runs the add-on's headless tests (tests/blender)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js runs the glTF-Validator; Debian's nodejs and npm only when no node/npm is on the PATH.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The Khronos glTF-Validator (npm package, pinned in tools/package.json) for the glTF export tests and
# tools/gltf-validate.mjs: installed into tools/node_modules (ignored by git) only when missing.
tools_dir="$(cd "$(dirname "$0")" && pwd)"
want="$(sed -n 's/.*"gltf-validator": "\(.*\)".*/\1/p' "$tools_dir/package.json")"
have="$(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$tools_dir/node_modules/gltf-validator/package.json" 2>/dev/null | head -1 || true)"
if [ "$have" != "$want" ]; then
  echo "installing gltf-validator $want into tools/node_modules"
  (cd "$tools_dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
