#!/usr/bin/env bash
# Installs the Debian packages remodel needs, only those missing; safe to run again.
set -euo pipefail
packages=(build-essential cmake g++ clang-14 libclang-rt-14-dev llvm-14 libgtest-dev libgmock-dev
          libbenchmark-dev libtinygltf-dev nlohmann-json3-dev libstb-dev libimagequant-dev libsquish-dev libboost-dev libboost-program-options-dev xxd)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
