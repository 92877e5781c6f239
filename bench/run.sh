#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/run.sh - each workload timed with ttc (build/bin/bench_*) and with
# Triton (bench/triton_*.py) on the same GPU, from the same kernel file under
# examples/; prints one table per workload with the ratio ttc/Triton:
#   vector_add  f32, sizes 2^SIZES                    (GB/s)
#   softmax     f32, 4096 x SOFTMAX_COLS, row softmax (GB/s)
#   matmul      f16 (matmul_bf16: bf16), MATMUL_SIZES square, each of MATMUL_CONFIGS
#               (BMxBNxBK/wW/sS; default bench_matmul's) (TFLOP/s; also
#               Triton's best tutorial config per size, "triton-best")
# Environment: TTC_BUILD (build folder, default <repo>/build), WORKLOADS
# (default "vector_add softmax matmul matmul_bf16"), SIZES (log2, default 20,24,28),
# SOFTMAX_COLS (default 256,1024,4096,16384), MATMUL_SIZES (default
# 1024,2048,4096,8192), PYTHON (default python3), TTC_PTXAS (found if unset).
# Exit status: 0 when every benchmark ran, 1 otherwise. Builds nothing.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TTC_BUILD:-$root/build}
workloads=${WORKLOADS:-vector_add softmax matmul matmul_bf16}
sizes=${SIZES:-20,24,28}
softmax_cols=${SOFTMAX_COLS:-256,1024,4096,16384}
matmul_sizes=${MATMUL_SIZES:-1024,2048,4096,8192}
matmul_configs=${MATMUL_CONFIGS:-128x128x64/w4/s3,128x256x64/w8/s3,64x64x32/w4/s3}
python=${PYTHON:-python3}

# ttc runs ptxas at run time; a GPU machine may have no CUDA toolkit, but
# Triton's wheel carries one.
if [ -z "${TTC_PTXAS:-}" ] && ! command -v ptxas >/dev/null && [ ! -x /usr/local/cuda/bin/ptxas ]; then
  p=$("$python" -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", "ptxas"))' 2>/dev/null)
  if [ -n "$p" ] && [ -x "$p" ]; then export TTC_PTXAS=$p; fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# measure NAME TAG COMMAND...: runs one side of a workload into $tmp/NAME.TAG.
measure() {
  local name=$1 tag=$2
  shift 2
  echo "== $tag $name: $*"
  if "$@" >"$tmp/$name.$tag" 2>"$tmp/$name.$tag.err"; then
    cat "$tmp/$name.$tag" "$tmp/$name.$tag.err"
  else
    cat "$tmp/$name.$tag" "$tmp/$name.$tag.err"
    echo "bench/run.sh: $tag $name failed" >&2
    status=1
  fi
}

# table NAME KEY METRIC: joins the "ttc NAME" and "triton NAME" lines (and
# "triton-best NAME" where present) on field KEY and prints METRIC and ratios.
table() {
  local name=$1 key=$2 metric=$3
  echo
  echo "-- $name ($metric)"
  awk -v name="$name" -v key="$key" -v metric="$metric" '
    function field(f,   i, kv) {
      for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) return kv[2] }
      return ""
    }
    $2 == name && ($1 == "ttc" || $1 == "triton" || $1 == "triton-best") {
      k = field(key)
      if (k == "") next
      keys[k] = 1; v[$1, k] = field(metric)
      if ($1 == "triton-best") { best = 1; cfg[k] = field("config") }
    }
    function cell(tag, k) { return ((tag, k) in v) ? v[tag, k] : "n/a" }
    function ratio(k, tag) {
      return ((("ttc", k) in v) && ((tag, k) in v) && v[tag, k] > 0) ? sprintf("%.3f", v["ttc", k] / v[tag, k]) : "n/a"
    }
    END {
      if (best) {
        printf "%-10s | %10s | %10s | %10s | %15s | %16s | %s\n", key, "ttc", "triton", "ttc/triton", "triton-best", "ttc/triton-best", "best config"
        for (k in keys)
          printf "%-10s | %10s | %10s | %10s | %15s | %16s | %s\n", k, cell("ttc", k), cell("triton", k), ratio(k, "triton"), cell("triton-best", k), ratio(k, "triton-best"), cfg[k]
      } else {
        printf "%-22s | %10s | %10s | %10s\n", key, "ttc", "triton", "ttc/triton"
        for (k in keys)
          printf "%-22s | %10s | %10s | %10s\n", k, cell("ttc", k), cell("triton", k), ratio(k, "triton")
      }
    }' "$tmp/$name.ttc" "$tmp/$name.triton" | { IFS= read -r head; echo "$head"; sort -n; }
}

# best NAME: per size, ttc's fastest configuration against Triton's best
# tutorial configuration ("triton-best" rows).
best() {
  local name=$1
  echo
  echo "-- $name, best configuration per size (tflops)"
  awk -v name="$name" '
    function field(f,   i, kv) {
      for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) return kv[2] }
      return ""
    }
    $2 == name && $1 == "ttc" {
      s = field("size"); t = field("tflops") + 0
      if (!(s in ttc) || t > ttc[s]) { ttc[s] = t; split(field("case"), c, "/"); tcfg[s] = c[2] "/" c[3] "/" c[4] }
    }
    $2 == name && $1 == "triton-best" { s = field("size"); tb[s] = field("tflops") + 0; bcfg[s] = field("config") }
    END {
      printf "%-6s | %8s | %-18s | %11s | %-18s | %9s\n", "size", "ttc", "ttc config", "triton-best", "triton config", "ttc/best"
      for (s in tb)
        printf "%-6s | %8.2f | %-18s | %11.2f | %-18s | %9s\n", s, ttc[s], tcfg[s], tb[s], bcfg[s], ((s in ttc) && tb[s] > 0 ? sprintf("%.3f", ttc[s] / tb[s]) : "n/a")
    }' "$tmp/$name.ttc" "$tmp/$name.triton" | { IFS= read -r head; echo "$head"; sort -n; }
}

for w in $workloads; do
  case $w in
    vector_add)
      measure vector_add ttc "$build/bin/bench_vector_add" -s "$sizes" "$root/examples/vector_add/vector_add.py"
      measure vector_add triton "$python" "$root/bench/triton_vector_add.py" "$sizes" ;;
    softmax)
      measure softmax ttc "$build/bin/bench_softmax" -c "$softmax_cols" "$root/examples/softmax/softmax.py"
      measure softmax triton "$python" "$root/bench/triton_softmax.py" "$softmax_cols" ;;
    matmul)
      measure matmul ttc "$build/bin/bench_matmul" -s "$matmul_sizes" -c "$matmul_configs" "$root/examples/matmul/matmul.py"
      measure matmul triton "$python" "$root/bench/triton_matmul.py" "$matmul_sizes" "$matmul_configs" ;;
    matmul_bf16)
      measure matmul_bf16 ttc "$build/bin/bench_matmul" -t bf16 -s "$matmul_sizes" -c "$matmul_configs" "$root/examples/matmul/matmul.py"
      measure matmul_bf16 triton "$python" "$root/bench/triton_matmul.py" "$matmul_sizes" "$matmul_configs" bf16 ;;
    *)
      echo "bench/run.sh: unknown workload '$w'" >&2
      status=1 ;;
  esac
done

for w in $workloads; do
  case $w in
    vector_add) table vector_add size gbps ;;
    softmax) table softmax cols gbps ;;
    matmul) table matmul case tflops; best matmul ;;
    matmul_bf16) table matmul_bf16 case tflops; best matmul_bf16 ;;
  esac
done
exit $status
