#!/usr/bin/env bash
# Installs the build dependencies, then runs the superbuild (CMakeLists.txt):
# fetch and verify upstream, prepare the patched tree, configure once, build
# incrementally. Everything heavy lives in $COMPRESS_CACHE_DIR.
#   COMPRESS_COVERAGE=1 scripts/build.sh   instrument our code with gcov
#   COMPRESS_VARIANT=debug|zipdebug|zipcheck|asan|debug-asan|zipdebug-asan scripts/build.sh
#                                          a debug and/or sanitizer build in its
#                                          own tree (see scripts/common.sh)
set -euo pipefail
. "$(dirname "$0")/common.sh"

bash "$COMPRESS_ROOT/scripts/setup-deps.sh"
bash "$COMPRESS_ROOT/scripts/fetch-upstream.sh"

cov=OFF
[ "${COMPRESS_COVERAGE:-0}" = 1 ] && cov=ON
# The superbuild directory belongs to one checkout (CMake records its source
# path); it holds no build products (the MySQL build and its stamps live in
# build/ and build-stamp/), so another clone simply regenerates it.
if [ -f "$SUPER_DIR/CMakeCache.txt" ] &&
   ! grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$COMPRESS_ROOT" "$SUPER_DIR/CMakeCache.txt"; then
  log "superbuild was generated for another checkout: regenerating $SUPER_DIR"
  rm -rf "$SUPER_DIR"
fi
mkdir -p "$SUPER_DIR" "$CCACHE_DIR"
cmake -S "$COMPRESS_ROOT" -B "$SUPER_DIR" -G Ninja \
  -DCOMPRESS_CACHE_DIR="$COMPRESS_CACHE_DIR" -DCOMPRESS_COVERAGE=$cov \
  -DCOMPRESS_VARIANT="$COMPRESS_VARIANT" > "$SUPER_DIR.configure.log" 2>&1 \
  || { cat "$SUPER_DIR.configure.log"; die "superbuild configure failed"; }

start=$(date +%s)
cmake --build "$SUPER_DIR" --target mysql
log "build finished in $(( $(date +%s) - start )) s (coverage $cov${COMPRESS_VARIANT:+, variant $COMPRESS_VARIANT})"
ccache -s 2>/dev/null | grep -E "Hits|Misses|Cache size" | sed 's/^/[ccache] /' >&2 || true
