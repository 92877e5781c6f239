#!/usr/bin/env bash
# bench/run.sh - vector add timed with ttc (build/bin/bench_vector_add) and with
# Triton (bench/triton_vector_add.py) on the same GPU, from the same kernel file
# examples/vector_add/vector_add.py; prints size | ttc GB/s | triton GB/s | ttc/triton.
# Environment: TTC_BUILD (build folder, default <repo>/build), SIZES (log2 sizes,
# default 20,24,28), PYTHON (default python3), TTC_PTXAS (found if unset).
# Exit status: 0 when both benchmarks ran, 1 otherwise. Builds nothing.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TTC_BUILD:-$root/build}
sizes=${SIZES:-20,24,28}
python=${PYTHON:-python3}
kernel=$root/examples/vector_add/vector_add.py

# ttc runs ptxas at run time; a GPU machine may have no CUDA toolkit, but
# Triton's wheel carries one.
if [ -z "${TTC_PTXAS:-}" ] && ! command -v ptxas >/dev/null && [ ! -x /usr/local/cuda/bin/ptxas ]; then
  p=$("$python" -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas"))' 2>/dev/null)
  if [ -n "$p" ] && [ -x "$p" ]; then export TTC_PTXAS=$p; fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

echo "== ttc: $build/bin/bench_vector_add"
if "$build/bin/bench_vector_add" -s "$sizes" "$kernel" >"$tmp/ttc" 2>"$tmp/ttc.err"; then
  cat "$tmp/ttc" "$tmp/ttc.err"
else
  cat "$tmp/ttc" "$tmp/ttc.err"
  echo "bench/run.sh: bench_vector_add failed" >&2
  status=1
fi

echo "== triton: bench/triton_vector_add.py"
if "$python" "$root/bench/triton_vector_add.py" "$sizes" >"$tmp/triton" 2>"$tmp/triton.err"; then
  cat "$tmp/triton"
else
  cat "$tmp/triton" "$tmp/triton.err"
  echo "bench/run.sh: triton_vector_add.py failed" >&2
  status=1
fi

echo
printf "%-10s | %9s | %11s | %10s\n" "size" "ttc GB/s" "triton GB/s" "ttc/triton"
awk '
  function field(name,   i, kv) {
    for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) return kv[2] }
    return ""
  }
  $2 == "vector_add" && $1 == "ttc" { ttc[field("size")] = field("gbps"); sizes[field("size")] = 1 }
  $2 == "vector_add" && $1 == "triton" { tri[field("size")] = field("gbps"); sizes[field("size")] = 1 }
  END {
    for (s in sizes) {
      t = (s in ttc) ? ttc[s] : "n/a"; r = (s in tri) ? tri[s] : "n/a"
      ratio = (s in ttc && s in tri && tri[s] > 0) ? sprintf("%.3f", ttc[s] / tri[s]) : "n/a"
      printf "%-10s | %9s | %11s | %10s\n", s, t, r, ratio
    }
  }' "$tmp/ttc" "$tmp/triton" | sort -n
exit $status
