#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test/gpu/jit.sh - the GPU checks of kernel functions, the disk cache,
# autotuning and AOT launchers (issue 10), run on a GPU machine from a
# carried build folder (build/bin, build/lib; no LLVM or cmake needed):
#   first      bench_jit first: a new process's device open (context
#              creation) and, apart, function create + first launch +
#              sync, cold (compiles) then 5 times with the warm cache;
#              Triton's first call of the same kernel file with a warm
#              cache in the same run (bench/triton_first_call.py)
#   launch     bench_launch: host time per launch, raw cuLaunchKernel vs
#              ttc_module_launch vs ttc_function_launch
#   check      bench_jit check: derived specializations give the PTX of the
#              hand-written signatures
#   autotune   bench_jit autotune: examples/matmul/matmul_autotune.py with
#              Triton's tutorial configs, the choice against every config
#              timed again; then a second process (--expect-cached)
#   aot        build/bin/aot_vector_add: the launcher `ttc --aot` generated
#   memcheck   compute-sanitizer on bench_jit first (when found)
# Ends with a table; exits 1 if a step failed. Environment: TTC_BUILD
# (default <repo>/build), PYTHON, TTC_PTXAS, MATMUL_SIZE (default 2048).
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${TTC_BUILD:-$root/build}
python=${PYTHON:-python3}
size=${MATMUL_SIZE:-2048}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TTC_CACHE_DIR=$tmp/ttc-cache TRITON_CACHE_DIR=$tmp/triton-cache
unset TTC_INTERPRET TTC_CACHE

if [ -z "${TTC_PTXAS:-}" ] && ! command -v ptxas >/dev/null && [ ! -x /usr/local/cuda/bin/ptxas ]; then
  p=$("$python" -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas"))' 2>/dev/null)
  if [ -n "$p" ] && [ -x "$p" ]; then export TTC_PTXAS=$p; fi
fi
echo "== test/gpu/jit.sh: build $build, ptxas ${TTC_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}"
command -v nvidia-smi >/dev/null && nvidia-smi -L

# status CODE: PASS or FAIL; field KEY: every value of KEY=VALUE in the input.
status() { if [ "$1" = 0 ]; then echo PASS; else echo "FAIL ($1)"; fi; }
field() { awk -v k="$1" '{ for (i = 1; i <= NF; i++) { n = index($i, "="); if (n && substr($i, 1, n - 1) == k) print substr($i, n + 1) } }'; }
median() { sort -g | awk '{v[NR]=$1} END {print (NR ? v[int((NR+1)/2)] : "n/a")}'; }
ms_now() { date +%s%N | awk '{printf "%.1f", $1 / 1e6}'; }

echo; echo "== first launch (cold, then warm cache x5)"
"$build/bin/bench_jit" first | tee "$tmp/first_cold"
r_first=${PIPESTATUS[0]}
for i in 1 2 3 4 5; do
  t0=$(ms_now)
  "$build/bin/bench_jit" first >>"$tmp/first_warm" || r_first=1
  t1=$(ms_now)
  echo "$t0 $t1" | awk '{printf "process_ms=%.1f\n", $2 - $1}' >>"$tmp/first_proc"
done
cat "$tmp/first_warm"
ctx=$(field ctx_ms <"$tmp/first_warm" | median)
jit=$(field jit_ms <"$tmp/first_warm" | median)
cold=$(field jit_ms <"$tmp/first_cold")
proc=$(cut -d= -f2 "$tmp/first_proc" | median)
grep -q 'source=compiled' "$tmp/first_cold" && [ "$(grep -c 'source=cache' "$tmp/first_warm")" = 5 ] || r_first=1

echo; echo "== Triton's first call (warm cache: second run)"
"$python" "$root/bench/triton_first_call.py" >"$tmp/triton_cold" 2>&1
t0=$(ms_now)
"$python" "$root/bench/triton_first_call.py" >"$tmp/triton_warm" 2>&1
r_triton=$?
t1=$(ms_now)
cat "$tmp/triton_warm"
tri_first=$(field first_call_ms <"$tmp/triton_warm")
tri_ctx=$(field ctx_ms <"$tmp/triton_warm")
tri_import=$(field import_ms <"$tmp/triton_warm")
tri_proc=$(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}')

echo; echo "== warm launch overhead"
"$build/bin/bench_launch" | tee "$tmp/launch"
r_launch=${PIPESTATUS[0]}
raw=$(grep '^launch raw' "$tmp/launch" | field us)
mod=$(grep '^launch ttc' "$tmp/launch" | field ratio)
fun=$(grep '^launch function' "$tmp/launch" | field ratio)
fun_us=$(grep '^launch function' "$tmp/launch" | field us)

echo; echo "== specialization: derived vs written signature, PTX"
"$build/bin/bench_jit" check | tee "$tmp/check"
r_check=${PIPESTATUS[0]}

echo; echo "== autotune: matmul ${size}^3, Triton's tutorial configs"
TTC_PRINT_AUTOTUNING=1 "$build/bin/bench_jit" autotune -s "$size" | tee "$tmp/tune"
r_tune=${PIPESTATUS[0]}
"$build/bin/bench_jit" autotune -s "$size" --expect-cached | tee "$tmp/tune2"
r_tune2=${PIPESTATUS[0]}
ratio=$(grep '^autotune chosen_ms' "$tmp/tune" | field ratio)
tune_ms=$(grep '^autotune first_launch_ms' "$tmp/tune" | field first_launch_ms)
tune2_ms=$(grep '^autotune first_launch_ms' "$tmp/tune2" | field first_launch_ms)
runs2=$(grep '^autotune second_process' "$tmp/tune2" | field timed_runs)

echo; echo "== AOT example"
"$build/bin/aot_vector_add" | tee "$tmp/aot"
r_aot=${PIPESTATUS[0]}
aot_us=$(field us <"$tmp/aot")

sanitizer=$(command -v compute-sanitizer 2>/dev/null)
for c in /usr/local/cuda/bin/compute-sanitizer $("$python" -c 'import glob, site; print(" ".join(x for p in site.getsitepackages() for x in glob.glob(p + "/nvidia/cuda_sanitizer_api/compute-sanitizer/compute-sanitizer")))' 2>/dev/null); do
  if [ -z "$sanitizer" ] && [ -x "$c" ]; then sanitizer=$c; fi
done
r_mem=skip
if [ -n "$sanitizer" ]; then
  echo; echo "== memcheck"
  "$sanitizer" --tool memcheck --error-exitcode 1 "$build/bin/bench_jit" first && r_mem=0 || r_mem=1
  "$sanitizer" --tool memcheck --error-exitcode 1 "$build/bin/aot_vector_add" -n 4096 || r_mem=1
fi

failed=0
for r in "$r_first" "$r_triton" "$r_launch" "$r_check" "$r_tune" "$r_tune2" "$r_aot" "$r_mem"; do
  if [ "$r" != 0 ] && [ "$r" != skip ]; then failed=1; fi
done

# meets VALUE OP LIMIT: "meets" or "misses" a target (n/a without a value).
meets() { awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN { if (v == "" || v == "n/a") print "n/a"; else if ((op == "<=" && v + 0 <= l + 0)) print "meets"; else print "misses" }'; }

echo
echo "== summary (issue 10)"
printf "%-36s | %-50s | %s\n" "what" "measured" "result"
printf "%-36s | %-50s | %s\n" "first launch, warm cache (median 5)" "jit ${jit} ms beside ctx ${ctx} ms (cold ${cold} ms)" "$(status $r_first), $(meets "$jit" "<=" 2) jit <= 2 ms"
printf "%-36s | %-50s | %s\n" "  whole process, warm cache" "ttc ${proc} ms; python+torch+triton ${tri_proc} ms" ""
printf "%-36s | %-50s | %s\n" "Triton's first call, warm cache" "call ${tri_first} ms beside ctx ${tri_ctx} ms (import ${tri_import} ms)" "$(status $r_triton)"
printf "%-36s | %-50s | %s\n" "warm launch vs raw cuLaunchKernel" "raw ${raw} us; module x${mod}; function ${fun_us} us x${fun}" "$(status $r_launch), $(meets "$fun" "<=" 1.1) function <= 1.1x"
printf "%-36s | %-50s | %s\n" "derived specialization = written" "$(grep -c 'ptx=same' "$tmp/check") of $(grep -c '^specialization' "$tmp/check") kernels, same PTX" "$(status $r_check)"
printf "%-36s | %-50s | %s\n" "autotune choice vs fastest" "chosen/fastest ${ratio} (tuning launch ${tune_ms} ms)" "$(status $r_tune), $(meets "$ratio" "<=" 1.03) <= 1.03"
printf "%-36s | %-50s | %s\n" "autotune, second process" "timed runs ${runs2}, first launch ${tune2_ms} ms" "$(status $r_tune2)"
printf "%-36s | %-50s | %s\n" "AOT example (aot_vector_add)" "$(grep -c verified "$tmp/aot") runs verified, launcher ${aot_us} us/launch" "$(status $r_aot)"
if [ "$r_mem" = skip ]; then
  printf "%-36s | %-50s | %s\n" "compute-sanitizer memcheck" "not found" "SKIP"
else
  printf "%-36s | %-50s | %s\n" "compute-sanitizer memcheck" "bench_jit first, aot_vector_add" "$(status $r_mem)"
fi
exit $failed
