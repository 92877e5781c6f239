#!/usr/bin/env bash
# test/gpu/run.sh - the GPU checks, run on a GPU machine from a carried build
# folder (binaries in build/bin, libttc.so in build/lib; no LLVM or cmake needed):
#   1. examples/vector_add verified on the GPU,
#   2. bench/run.sh (ttc vs Triton on the same kernel file),
#   3. compute-sanitizer memcheck on the vector_add example with -n 100000.
# Prints a PASS/FAIL summary; exits 1 if any step failed. Builds nothing.
# Environment: TTC_BUILD (default <repo>/build), TTC_GPU_LOGS (log folder,
# default a temporary one), TTC_PTXAS, PYTHON, SIZES (passed to bench/run.sh).
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

if [ ! -x "$build/bin/vector_add" ]; then
  echo "test/gpu/run.sh: $build/bin/vector_add is missing: carry a built build folder" >&2
fi

step vector_add "$build/bin/vector_add" "$kernel"
step bench "$root/bench/run.sh"

sanitizer=$(command -v compute-sanitizer 2>/dev/null)
for c in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer \
         $("$python" -c 'import glob, site; print(" ".join(x for p in site.getsitepackages() for x in glob.glob(p + "/nvidia/cuda_sanitizer_api/compute-sanitizer/compute-sanitizer")))' 2>/dev/null); do
  if [ -z "$sanitizer" ] && [ -x "$c" ]; then sanitizer=$c; fi
done
if [ -n "$sanitizer" ]; then
  step memcheck "$sanitizer" --tool memcheck --error-exitcode 1 --leak-check full \
    "$build/bin/vector_add" -n 100000 "$kernel"
else
  skip memcheck "compute-sanitizer not found"
fi

echo
echo "== summary"
printf "%-12s | %s\n" "step" "result"
for i in "${!names[@]}"; do
  printf "%-12s | %s\n" "${names[$i]}" "${results[$i]}"
done
echo "logs: $logs"
exit $failed
