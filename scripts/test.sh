#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The test command: checks the formatting (scripts/check_format.sh, a warning
# and no check without clang-format), then builds ttc twice and runs every
# test in both builds:
#  build/       release, warnings as errors, LLVM static (what users get)
#  build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer, LLVM shared
# Each runs the cmocka unit tests and the lit tests (which run ptxas).
#  build-fuzz/  clang with libFuzzer: each fuzz target for a few seconds
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${TTC_JOBS:-$(nproc)}
scripts/check_format.sh
run() {
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
  ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}
run build -DCMAKE_BUILD_TYPE=Release -DTTC_WERROR=ON -DTTC_TESTS=ON
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run build-asan -DCMAKE_BUILD_TYPE=Debug -DTTC_WERROR=ON -DTTC_TESTS=ON -DTTC_SANITIZE=ON -DTTC_LLVM_STATIC=OFF
# Coverage-guided fuzzing: the libFuzzer targets (clang, ASan + UBSan), a
# short bounded run of each from its seeds (test/fuzz; scripts/fuzz.sh for
# long campaigns).
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DTTC_FUZZ=ON -DTTC_TESTS=OFF -DTTC_LLVM_STATIC=OFF >/dev/null
cmake --build build-fuzz -j "$jobs" --target fuzz_source fuzz_ir fuzz_codegen fuzz_signature
ctest --test-dir build-fuzz --output-on-failure -L fuzz-short
echo "test: all tests passed in build/, build-asan/ and build-fuzz/"
