#!/usr/bin/env bash
# Build the counter micro-benchmark into
# $COMPRESS_CACHE_DIR/bench/bin/zip_stat_counter_bench. Compiled against the
# patched source tree's InnoDB headers with the defines and include paths of
# dict/dict0zip_stat.cc in the server's build.ninja (the build tree has no
# compile_commands.json), at -O2 -g -fno-omit-frame-pointer like the server's
# RelWithDebInfo build, but -std=c++20 (server: gnu++23); linked with the real
# ut/ut0rnd.cc. Reads the source and build trees, never writes to them.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../../scripts/common.sh"

OUT_DIR="$COMPRESS_CACHE_DIR/bench/bin"
OUT="$OUT_DIR/zip_stat_counter_bench"
CXX="${CXX:-g++}"

[ -f "$SRC_DIR/storage/innobase/include/ut0lock_free_hash.h" ] ||
  die "no patched source tree at $SRC_DIR (scripts/prepare-tree.sh)"
[ -f "$BUILD_DIR/include/my_config.h" ] ||
  die "no configured build tree at $BUILD_DIR (scripts/build.sh)"
mkdir -p "$OUT_DIR"

# From build.ninja, target dict0zip_stat.cc.o (less the feature macros that
# no header used here reads).
DEFINES=(
  -DBOOST_NO_CXX98_FUNCTION_BASE -DCOMPILER_HINTS -DHAVE_EXT_BACKTRACE
  -DHAVE_IB_GCC_ATOMIC_THREAD_FENCE=1 -DHAVE_IB_GCC_SYNC_SYNCHRONISE=1
  -DHAVE_IB_LINUX_FUTEX=1 -DHAVE_SCHED_GETCPU=1 '-DLOG_SUBSYSTEM_TAG="InnoDB"'
  -DMUTEX_EVENT -DMYSQL_SERVER -DPFS_DIRECT_CALL -DUNIV_LINUX
  -D_FILE_OFFSET_BITS=64 -D_GNU_SOURCE -D__STDC_FORMAT_MACROS
  -D__STDC_LIMIT_MACROS -DNDEBUG
)
INCLUDES=(
  -I"$BUILD_DIR" -I"$BUILD_DIR/include" -I"$SRC_DIR" -I"$SRC_DIR/include"
  -I"$SRC_DIR/libs" -I"$SRC_DIR/storage/innobase"
  -I"$SRC_DIR/storage/innobase/include" -I"$SRC_DIR/storage/innobase/handler"
  -I"$SRC_DIR/sql" -I"$SRC_DIR/sql/auth"
  -isystem "$SRC_DIR/extra/unordered_dense/unordered_dense-4.4.0/include"
  -isystem "$SRC_DIR/extra/rapidjson/include"
  -isystem "$SRC_DIR/extra/boost/boost_1_87_0"
)

log "building $OUT"
"$CXX" -O2 -g -std=c++20 -pthread -Wall -Wextra -fno-omit-frame-pointer \
  "${DEFINES[@]}" "${INCLUDES[@]}" \
  "$HERE/zip_stat_counter_bench.cc" "$SRC_DIR/storage/innobase/ut/ut0rnd.cc" \
  -o "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
