#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_format.sh [DIR]: every C/C++ source and header under DIR (default:
# the repository; in a git checkout the tracked files and the untracked ones
# git does not ignore) is formatted as DIR's .clang-format says, by
# clang-format 14 (the pinned major version: Debian 12's, installed by
# scripts/deps.sh; another version formats differently). Lists the files
# that differ, with the command that fixes them, and exits 1. Without
# clang-format 14 it prints a warning and exits 0: formatting is not
# checked there. $CLANG_FORMAT names the binary to use.
set -euo pipefail
pinned=14
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$dir"

cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
  for c in clang-format-$pinned clang-format; do
    if command -v "$c" >/dev/null 2>&1; then cf=$c; break; fi
  done
fi
if [ -z "$cf" ] || ! command -v "$cf" >/dev/null 2>&1; then
  echo "check_format: warning: clang-format not found: formatting NOT checked (scripts/deps.sh installs it)" >&2
  exit 0
fi
major=$("$cf" --version | sed -n 's/.*clang-format version \([0-9]*\).*/\1/p' | head -1)
if [ "$major" != "$pinned" ]; then
  echo "check_format: $cf is version ${major:-unknown}, the check needs clang-format $pinned" \
       "(apt-get install clang-format-$pinned, or set CLANG_FORMAT)" >&2
  exit 1
fi

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files --cached --others --exclude-standard -- '*.c' '*.h' '*.cpp')
else
  files=$(find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) ! -path './build*' |
    sed 's|^\./||' | sort)
fi
differ=()
n=0
for f in $files; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  if ! "$cf" --style=file "$f" | cmp -s - "$f"; then differ+=("$f"); fi
done
if [ "$n" -eq 0 ]; then
  echo "check_format: no C sources found under $dir" >&2
  exit 1
fi
if [ ${#differ[@]} -gt 0 ]; then
  echo "check_format: ${#differ[@]} of $n files differ from .clang-format ($cf):" >&2
  printf '  %s\n' "${differ[@]}" >&2
  echo "fix with: $cf -i ${differ[*]}" >&2
  exit 1
fi
echo "check_format: $n files formatted as .clang-format says ($cf $major)"
