#!/bin/sh
# SPDX-License-Identifier: MIT
# check_spdx.sh DIR: every source file under DIR (C, C++, headers, X-macro
# tables, CMake, shell, Python, lit tests, IR test files, the linker map)
# carries an "SPDX-License-Identifier: MIT" comment line; lists the files
# that do not and exits 1. In a git checkout the files are the tracked ones
# plus untracked ones git does not ignore; elsewhere, everything under DIR.
set -eu
dir=$1
cd "$dir"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list() { git ls-files --cached --others --exclude-standard; }
else
  list() { find . -type f ! -path './build*' ! -path './.git/*' | sed 's|^\./||'; }
fi
missing=0
checked=0
for f in $(list); do
  [ -f "$f" ] || continue # deleted but still in the index
  case "$f" in
  docs/*) continue ;;
  *.c | *.h | *.cpp | *.def | *.map | *.sh | *.cmake | *.in | *CMakeLists.txt | *.py | *.test | \
    *.ttir | *.ttgir | .ci/run) ;;
  *) continue ;;
  esac
  checked=$((checked + 1))
  if ! grep -Eq '^(#|//|/\*) SPDX-License-Identifier: MIT( \*/)?$' "$f"; then
    echo "check_spdx: $f: no 'SPDX-License-Identifier: MIT' line" >&2
    missing=$((missing + 1))
  fi
done
if [ "$checked" -eq 0 ]; then
  echo "check_spdx: no source files found under $dir" >&2
  exit 1
fi
if [ "$missing" -ne 0 ]; then
  echo "check_spdx: $missing of $checked source files lack the license line" >&2
  exit 1
fi
echo "check_spdx: $checked source files carry the license line"
