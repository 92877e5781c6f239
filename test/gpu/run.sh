#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test/gpu/run.sh - the GPU checks, run on a GPU machine from a carried build
# folder (binaries in build/bin; libttc.so.0.1, the SONAME they load, and the
# libttc.so link to it in build/lib; no LLVM or cmake needed):
#   1. the examples verified on the GPU: vector_add; softmax (the tutorial's
#      1823 x 781, and 4096 x 16384 with 16 warps); matmul (512^3, and
#      100 x 72 x 40, which needs every edge mask; the SASS of three
#      tilings holds HGMMA/HMMA and no spills); attention (head dim 64, and
#      128 causal),
#   2. bench/run.sh (ttc vs Triton on the same kernel files: vector_add,
#      softmax; WORKLOADS picks), bench/compare_softmax.py and
#      bench/compare_vector_add.py (both compilers in one process and one
#      timing loop), bench/compare_matmul.py
#      (matmul f16 and bf16, and the persistent kernel, ttc and Triton on
#      the same tensors)
#      and bench/triton_attention.py (flash attention, with tile sweeps),
#   3. compute-sanitizer memcheck on each example with small, ragged shapes,
#      and line info: an out-of-bounds store reported at its .py line,
#   4. the language suite: run_lang --compare (GPU against the interpreter)
#      and test/gpu/compare_triton.py (ttc against Triton, same kernel files);
#      test/gpu/flatten_diff.py (random flattened loop nests through
#      tritongpu-fuse-nested-loops against the default pipeline, bit for bit),
#      bench/descriptor_matmul.py and descriptor_attention.py --check-only
#      (host tensor descriptors, against Triton's TMA kernels),
#   5. test/gpu/jit.sh: kernel functions, the disk cache, autotuning and the
#      AOT example, with Triton's warm-cache first call (its own table),
#   6. kernelgen --gpu: random valid kernels (test/fuzz/kernelgen.c) as
#      cubins at -O0 and -O3 and several num_warps against the interpreter
#      (KERNELGEN_SEEDS, default 500; kernels that differ are kept in the
#      logs' kernelgen/ folder).
# Prints a PASS/FAIL summary; exits 1 if any step failed. Builds nothing.
# Environment: TTC_BUILD (default <repo>/build), TTC_GPU_LOGS (log folder,
# default a temporary one), TTC_PTXAS, PYTHON; WORKLOADS (default "vector_add
# softmax"), SIZES, SOFTMAX_COLS and MATMUL_SIZES are passed to bench/run.sh;
# SKIP_DOT_BENCH=1 leaves out the matmul and attention benchmarks;
# KERNELGEN_SEEDS: how many random kernels step 6 runs.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${TTC_BUILD:-$root/build}
export TTC_BUILD=$build
python=${PYTHON:-python3}
kernel=$root/examples/vector_add/vector_add.py
logs=${TTC_GPU_LOGS:-$(mktemp -d)}
mkdir -p "$logs"

# ttc runs ptxas at run time; without a CUDA toolkit use the one in Triton's wheel.
if [ -z "${TTC_PTXAS:-}" ] && ! command -v ptxas >/dev/null && [ ! -x /usr/local/cuda/bin/ptxas ]; then
  p=$("$python" -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas"))' 2>/dev/null)
  if [ -n "$p" ] && [ -x "$p" ]; then export TTC_PTXAS=$p; fi
fi

echo "== test/gpu/run.sh: repo $root, build $build, logs $logs"
command -v nvidia-smi >/dev/null && nvidia-smi -L
echo "ptxas: ${TTC_PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}"

names=()
results=()
failed=0

# step NAME COMMAND...: runs the command, its output shown and kept in a log.
step() {
  local name=$1 log=$logs/$1.log rc
  shift
  echo
  echo "== $name: $*"
  "$@" >"$log" 2>&1
  rc=$?
  cat "$log"
  names+=("$name")
  if [ $rc -eq 0 ]; then
    results+=("PASS")
  else
    results+=("FAIL (exit $rc)")
    failed=1
  fi
}

skip() {
  echo
  echo "== $1: skipped: $2"
  names+=("$1")
  results+=("SKIP ($2)")
}

for b in vector_add softmax matmul attention bench_vector_add bench_softmax bench_matmul kernelgen; do
  if [ ! -x "$build/bin/$b" ]; then
    echo "test/gpu/run.sh: $build/bin/$b is missing: carry a built build folder" >&2
  fi
done
softmax_kernel=$root/examples/softmax/softmax.py
matmul_kernel=$root/examples/matmul/matmul.py

step vector_add "$build/bin/vector_add" "$kernel"
step softmax "$build/bin/softmax" "$softmax_kernel"
step softmax_wide "$build/bin/softmax" -r 4096 -c 16384 "$softmax_kernel"
step matmul "$build/bin/matmul" "$matmul_kernel"
# sass_check ARCH WARPS BM BN BK OP: the matmul example's cubin for that
# tiling holds the tensor-core instruction OP (HGMMA, HMMA) and no
# local-memory traffic (LDL/STL: spills).
sass_check() {
  local arch=$1 warps=$2 out=$logs/matmul_$1_$3x$4x$5_w$2
  "$build/bin/ttc" "$matmul_kernel" -k matmul_kernel --no-cache --arch "$arch" -w "$warps" --emit cubin \
    -s "*fp16:16,*fp16:16,*fp16:16,i32:16,i32:16,i32:16,i32:16,1,i32:16,1,i32:16,1,$3,$4,$5,8" \
    -o "$out.cubin" || return 1
  "$cuobjdump" -sass "$out.cubin" >"$out.sass" || return 1
  local mma spill
  mma=$(grep -c "$6" "$out.sass")
  spill=$(grep -cE "\b(LDL|STL)" "$out.sass")
  echo "$arch $3x$4x$5 $warps warps: $mma $6, $spill LDL/STL"
  [ "$mma" -gt 0 ] && [ "$spill" -eq 0 ]
}
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
if [ -x "$cuobjdump" ]; then
  step sass_wgmma sass_check sm_90a 4 128 128 64 HGMMA
  step sass_wgmma_w8 sass_check sm_90a 8 128 256 64 HGMMA
  step sass_mma sass_check sm_80 4 64 64 32 HMMA
else
  skip sass "cuobjdump not found"
fi
step matmul_edges "$build/bin/matmul" -m 100 -n 72 -k 40 "$matmul_kernel"
step matmul_bf16 "$build/bin/matmul" -t bf16 -c 128x128x64w4 -m 2048 -n 2048 -k 2048 "$matmul_kernel"
step matmul_persistent "$build/bin/matmul" -p -c 128x256x64w8 -m 4096 -n 4096 -k 4096 "$matmul_kernel"
# edge tiles with several tiles per program: 2016 tiles over (132 SMs x the
# programs that fit) programs, and 144 tiles over 132 programs
step matmul_persistent_edges "$build/bin/matmul" -p -c 64x64x32w4 -m 4000 -n 2000 -k 200 "$matmul_kernel"
step matmul_persistent_p1 "$build/bin/matmul" -p1 -c 64x64x32w4 -m 1000 -n 520 -k 200 "$matmul_kernel"
step attention "$build/bin/attention" -b 8 -n 1024 -d 64 "$root/examples/attention/attention.py"
step attention_causal "$build/bin/attention" -b 4 -n 1024 -d 128 -c "$root/examples/attention/attention.py"
step lang_compare "$build/bin/run_lang" --compare
step compare_triton "$python" "$root/test/gpu/compare_triton.py" -j 8
# host tensor descriptors against Triton's TMA kernel, at shapes whose rows
# end inside a 16-byte copy (the pipeliner's bounded copies)
step descriptor_matmul "$python" "$root/bench/descriptor_matmul.py" --check-only \
  --sizes 1000x1000x1000,200x136x72,257x250x1001,256x256x256 --configs 128x128x64/w4/s3,64x64x32/w4/s4,128x256x64/w8/s3
# attention through host descriptors (K loaded and transposed with .T)
step descriptor_attention "$python" "$root/bench/descriptor_attention.py" --check-only --ctx 1024
step flatten_diff "$python" "$root/test/gpu/flatten_diff.py" --seeds 1-120
step bench env WORKLOADS="${WORKLOADS:-vector_add softmax}" "$root/bench/run.sh"
step compare_softmax "$python" "$root/bench/compare_softmax.py"
step compare_vector_add "$python" "$root/bench/compare_vector_add.py"
if [ -z "${SKIP_DOT_BENCH:-}" ]; then
  step compare_matmul "$python" "$root/bench/compare_matmul.py" --dtype f16 --persistent
  step compare_matmul_bf16 "$python" "$root/bench/compare_matmul.py" --dtype bf16
  step attention_bench "$python" "$root/bench/triton_attention.py" --stages 3,4 \
    --tiles 128x128w8,64x64w4
fi
step jit "$root/test/gpu/jit.sh"
step kernelgen "$build/bin/kernelgen" --gpu -n "${KERNELGEN_SEEDS:-500}" -o "$logs/kernelgen"

sanitizer=$(command -v compute-sanitizer 2>/dev/null)
for c in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer \
         $("$python" -c 'import glob, site; print(" ".join(x for p in site.getsitepackages() for x in glob.glob(p + "/nvidia/cuda_sanitizer_api/compute-sanitizer/compute-sanitizer")))' 2>/dev/null); do
  if [ -z "$sanitizer" ] && [ -x "$c" ]; then sanitizer=$c; fi
done
if [ -n "$sanitizer" ]; then
  memcheck() { "$sanitizer" --tool memcheck --error-exitcode 1 --leak-check full "$@"; }
  step memcheck "$sanitizer" --tool memcheck --error-exitcode 1 --leak-check full \
    "$build/bin/vector_add" -n 100000 "$kernel"
  step memcheck_softmax memcheck "$build/bin/softmax" -r 37 -c 1000 "$softmax_kernel"
  step memcheck_matmul memcheck "$build/bin/matmul" -m 100 -n 72 -k 40 "$matmul_kernel"
  # line info: an out-of-bounds store is reported at its line of the .py
  lineinfo_check() {
    local out
    out=$("$sanitizer" --tool memcheck "$build/bin/vector_add" -n 1000 "$root/test/gpu/oob_store.py" 2>&1)
    echo "$out" | head -20
    echo "$out" | grep -q "Invalid __global__ write" && echo "$out" | grep -q "oob_store.py:14"
  }
  step lineinfo lineinfo_check
else
  skip memcheck "compute-sanitizer not found"
fi

echo
echo "== summary"
printf "%-16s | %s\n" "step" "result"
for i in "${!names[@]}"; do
  printf "%-16s | %s\n" "${names[$i]}" "${results[$i]}"
done
echo "logs: $logs"
exit $failed
