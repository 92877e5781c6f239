#!/bin/sh
# SPDX-License-Identifier: MIT
# roundtrip.sh TTC TMPDIR FILE KERNEL SIGNATURE [LEVELS]: for each level
# (default "ttir ttgir"), with and without --print-loc, prints the kernel's
# IR, parses and prints it again, and fails unless the two are byte-identical.
set -e
ttc=$1 tmp=$2 file=$3 kernel=$4 sig=$5 levels=${6:-"ttir ttgir"}
mkdir -p "$tmp"
for level in $levels; do
  for loc in "" --print-loc; do
    a="$tmp/$kernel$loc.$level" b="$tmp/$kernel$loc.again.$level"
    "$ttc" "$file" -k "$kernel" -s "$sig" --emit "$level" $loc -o "$a"
    "$ttc" "$a" $loc -o "$b"
    if ! cmp -s "$a" "$b"; then
      echo "round trip differs: $kernel $level $loc" >&2
      diff "$a" "$b" >&2 || true
      exit 1
    fi
    # The same text parses and prints as ttgir input when named so.
    cp "$a" "$a.ttgir"
    "$ttc" "$a.ttgir" $loc | cmp -s - "$a" || { echo "differs as .ttgir: $kernel $level" >&2; exit 1; }
  done
done
echo "round trip ok: $kernel"
