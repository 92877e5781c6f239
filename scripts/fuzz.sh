#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Long fuzzing campaigns with the libFuzzer targets of test/fuzz: builds
# build-fuzz/ (clang, ASan + UBSan, coverage), then runs each target for
# SECONDS (default 3600) with JOBS parallel workers (default 1) over a
# persistent corpus in build-fuzz/campaign/TARGET (seeded from the test
# seeds), and reports per target: executions, coverage (edges and features),
# corpus size and crashes (reproducers in build-fuzz/campaign/artifacts/).
#
# usage: scripts/fuzz.sh [SECONDS] [JOBS] [TARGET...]   (targets: source ir codegen signature)
# replay a crash: build-fuzz/fuzz/fuzz_TARGET build-fuzz/campaign/artifacts/TARGET-crash-...
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-3600}
jobs=${2:-1}
shift $(( $# > 2 ? 2 : $# ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(source ir codegen signature)
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DTTC_FUZZ=ON -DTTC_TESTS=OFF -DTTC_LLVM_STATIC=OFF >/dev/null
cmake --build build-fuzz --target "${targets[@]/#/fuzz_}"
camp=build-fuzz/campaign
mkdir -p "$camp/artifacts"
export TTC_CACHE=0 ASAN_OPTIONS=detect_leaks=0
status=0
for t in "${targets[@]}"; do
  mkdir -p "$camp/$t"
  log="$camp/$t.log"
  before=$(ls "$camp/artifacts" | grep -c "^$t-" || true)
  # -fork keeps going past a crash (each is saved) when several jobs run
  fork=()
  [ "$jobs" -gt 1 ] && fork=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  build-fuzz/fuzz/fuzz_"$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$camp/artifacts/$t-" "${fork[@]}" \
    "$camp/$t" "build-fuzz/test/fuzz/seeds/$t" >"$log" 2>&1 || true
  execs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{s+=$2} END {print s+0}')
  [ "$execs" -gt 0 ] || execs=$(grep -ao '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  cov=$(grep -ao 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
  corpus=$(ls "$camp/$t" | wc -l)
  after=$(ls "$camp/artifacts" | grep -c "^$t-" || true)
  crashes=$((after - before))
  echo "fuzz $t: seconds=$secs jobs=$jobs executions=${execs:-0} ${cov:-cov: ?} corpus=$corpus new_crashes=$crashes (log $log)"
  [ "$crashes" -eq 0 ] || status=1
done
exit $status
