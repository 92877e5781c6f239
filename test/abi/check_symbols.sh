#!/bin/sh
# SPDX-License-Identifier: MIT
# check_symbols.sh LIBTTC_SO LIBTTC_A SONAME: libttc.so exports only ttc_*
# symbols and carries the versioned SONAME; libttc.a defines no global
# symbol but ttc_* (its internal functions are local), so neither clashes
# with a host's symbols. Lists offenders and exits 1.
set -eu
so=$1
a=$2
soname=$3
bad=0
check() { # what, the defined global symbols one a line
  what=$1
  syms=$2
  n=$(printf '%s\n' "$syms" | grep -c '^ttc_' || true)
  if [ "$n" -lt 50 ]; then
    echo "check_symbols: $what: only $n ttc_ symbols (expected the whole API)" >&2
    bad=1
  fi
  others=$(printf '%s\n' "$syms" | grep -v '^ttc_' | grep -v '^$' || true)
  if [ -n "$others" ]; then
    echo "check_symbols: $what exports symbols without the ttc_ prefix:" >&2
    printf '%s\n' "$others" | head -20 >&2
    bad=1
  fi
}
check "$so" "$(nm -D --defined-only "$so" | awk 'NF >= 3 { print $3 }')"
check "$a" "$(nm -g --defined-only "$a" | awk 'NF >= 3 { print $3 }')"
got=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
if [ "$got" != "$soname" ]; then
  echo "check_symbols: $so: SONAME '$got', expected '$soname'" >&2
  bad=1
fi
[ "$bad" -eq 0 ] || exit 1
echo "check_symbols: $so ($soname) and $a export only ttc_* symbols"
