#!/bin/sh
# SPDX-License-Identifier: MIT
# check_env.sh SRC_DIR: every environment variable the library, the CLI and
# the test programs read with getenv("NAME") is listed in docs/env.md (as
# `NAME`); lists the missing ones and exits 1.
set -eu
cd "$1"
names=$(grep -rhoE 'getenv\("[A-Za-z_][A-Za-z0-9_]*"\)' lib tools test/lang examples |
  sed 's/getenv("\(.*\)")/\1/' | sort -u)
if [ -z "$names" ]; then
  echo "check_env: no getenv calls found under $1" >&2
  exit 1
fi
missing=0
for n in $names; do
  if ! grep -q "\`$n\`" docs/env.md; then
    echo "check_env: $n is read (getenv) but not listed in docs/env.md" >&2
    missing=$((missing + 1))
  fi
done
[ "$missing" -eq 0 ] || exit 1
echo "check_env: $(echo "$names" | wc -l) variables, all in docs/env.md"
