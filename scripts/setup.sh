#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One command from a fresh Debian 12 machine: install dependencies, build ttc
# (release, LLVM linked statically into build/lib/libttc.so), show the
# vector-add kernel at every IR level, and run the vector-add example: on the
# GPU when there is one, else on ttc's CPU interpreter (it says which), with
# the result verified either way.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DTTC_TESTS=OFF >/dev/null
cmake --build build
k=examples/vector_add/vector_add.py
sig='*fp32:16,*fp32:16,*fp32:16,i32:16,1024'
for level in ttir ttgir llir ptx; do
  build/bin/ttc "$k" -k add_kernel -s "$sig" --emit "$level" -o "build/add.$level"
done
build/bin/ttc "$k" -k add_kernel -s "$sig" --emit cubin -o build/add.cubin
echo "setup: wrote build/add.{ttir,ttgir,llir,ptx,cubin} and build/add.cubin.json"
build/bin/vector_add
