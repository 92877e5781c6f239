#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test/package/run.sh BUILD_DIR [SANITIZE_FLAGS] - installs the build into a
# temporary prefix and builds host programs against it as users would:
#   1. the public headers compile alone as C99, C11, C++11, C++17 with
#      -Wall -Wextra -pedantic -Werror,
#   2. a C++ consumer through find_package(ttc) and ttc::ttc (CMake), run,
#   3. the same through pkg-config (ttc.pc), run,
#   4. the installed CLI runs.
# SANITIZE_FLAGS ("-fsanitize=address,undefined" for the sanitizer build)
# go to every compile and link, since the library carries the runtime.
set -euo pipefail
build=$1
san=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
inc=$tmp/prefix/include
for std in c99 c11; do
  cc -std=$std -Wall -Wextra -pedantic -Werror $san -I"$inc" -c "$here/headers.c" -o "$tmp/h_$std.o"
done
for std in c++11 c++17; do
  c++ -std=$std -Wall -Wextra -pedantic -Werror $san -I"$inc" -x c++ -c "$here/headers.c" -o "$tmp/h_$std.o"
done
echo "package: headers compile as C99, C11, C++11, C++17"
cmake -S "$here" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_CXX_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_BUILD_RPATH="$tmp/prefix/lib" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/consumer"
export PKG_CONFIG_PATH=$tmp/prefix/lib/pkgconfig
test "$(pkg-config --modversion ttc)" = "$("$tmp/prefix/bin/ttc" --version | head -1 | cut -d" " -f2)"
# shellcheck disable=SC2046
c++ -std=c++17 -Wall -Wextra -pedantic -Werror $san "$here/consumer.cpp" -o "$tmp/consumer_pc" \
  $(pkg-config --cflags --libs ttc) -Wl,-rpath,"$tmp/prefix/lib"
"$tmp/consumer_pc"
"$tmp/prefix/bin/ttc" --version
echo "package: ok"
