#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian 12 packages ttc needs to build and test. The CUDA
# toolkit (ptxas, cuda.h) is expected in /usr/local/cuda (or $TTC_CUDA_HOME).
set -euo pipefail
# clang-format-14: the version scripts/check_format.sh pins (Debian 12's);
# clang and libclang-rt-14-dev (libFuzzer): the fuzz targets scripts/test.sh builds
pkgs=(build-essential cmake ninja-build llvm-22-dev llvm-22-tools libzstd-dev zlib1g-dev
      libcmocka-dev python3 pkg-config clang-format-14 clang libclang-rt-14-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
cuda=${TTC_CUDA_HOME:-/usr/local/cuda}
if [ ! -x "$cuda/bin/ptxas" ]; then
  echo "deps: warning: no ptxas in $cuda/bin: install the CUDA toolkit (cubin output and the PTX tests need it)" >&2
fi
