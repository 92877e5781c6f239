#!/bin/sh
# SPDX-License-Identifier: MIT
# roundtrip_all.sh TTC TMPDIR LITDIR: every kernel file under LITDIR whose
# RUN lines compile it (`%ttc %s -k K -s 'SIG'`, not under `not`) round-trips
# at each level it compiles to: print, parse, print gives the same bytes,
# with and without --print-loc. Prints one line per kernel and level.
ttc=$1 tmp=$2 dir=$(cd "$3" && pwd)
mkdir -p "$tmp"
status=0
for f in "$dir"/*/*.py; do
  case "$f" in */diagnostics/*|*/ir/*) continue ;; esac
  grep -E "RUN: +%ttc %s -k [A-Za-z_0-9]+ -s '[^']*'" "$f" | grep -v "RUN: *not " |
    sed -E "s/.*-k ([A-Za-z_0-9]+) -s '([^']*)'.*/\1 \2/" | sort -u |
  while read -r kernel sig; do
    for level in ttir ttgir; do
      for loc in "" --print-loc; do
        a="$tmp/$kernel$loc.$level" b="$tmp/$kernel$loc.again.$level"
        "$ttc" "$f" -k "$kernel" -s "$sig" --emit "$level" $loc -o "$a" 2>/dev/null || continue
        if ! "$ttc" "$a" $loc -o "$b" || ! cmp -s "$a" "$b"; then
          echo "FAILED: $f $kernel $level $loc"
          exit 1
        fi
      done
      echo "ok: $(basename "$f") $kernel $level"
    done
  done || status=1
done
exit $status
