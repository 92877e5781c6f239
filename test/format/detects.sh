#!/bin/sh
# SPDX-License-Identifier: MIT
# detects.sh CHECK_FORMAT CLANG_FORMAT_FILE: the format check fails on a tree
# holding a file that differs from .clang-format and passes once the file is
# formatted. Exit 77 (skipped) without clang-format 14.
set -eu
check=$1
style=$2
command -v clang-format-14 >/dev/null 2>&1 ||
  { clang-format --version 2>/dev/null | grep -q 'version 14\.'; } || exit 77
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cp "$style" "$d/.clang-format"
printf 'int  f( int x ){return x+1;}\n' > "$d/a.c"
if bash "$check" "$d" 2>/dev/null; then
  echo "detects: the check passed a misformatted file" >&2
  exit 1
fi
cf=clang-format-14
command -v "$cf" >/dev/null 2>&1 || cf=clang-format
(cd "$d" && "$cf" -i a.c)
bash "$check" "$d"
