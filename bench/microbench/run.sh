#!/usr/bin/env bash
# Run the counter micro-benchmark (zip_stat_counter_bench.cc): variants none,
# ours, ours_index, upstream and their _single_index forms at 1, 2, 4, 8 and
# 16 threads, 2,000,000 updates per thread, 3 repetitions. Builds it first if
# the binary is missing or older than its sources.
# Usage: run.sh [CSV path, default stdout] [benchmark options, e.g.
# --updates=N --reps=N --threads=1,2 --variants=ours,upstream]
# The table of medians goes to stderr. About 1.5 minutes on 2 cores.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../../scripts/common.sh"

BIN="$COMPRESS_CACHE_DIR/bench/bin/zip_stat_counter_bench"
if [ ! -x "$BIN" ] || [ "$HERE/zip_stat_counter_bench.cc" -nt "$BIN" ] ||
   [ "$HERE/build.sh" -nt "$BIN" ]; then
  bash "$HERE/build.sh"
fi

OUT="${1:--}"
shift || true
if [ "$OUT" = "-" ]; then
  "$BIN" "$@"
else
  mkdir -p "$(dirname "$OUT")"
  "$BIN" "$@" >"$OUT.tmp"
  mv "$OUT.tmp" "$OUT"
  log "CSV: $OUT"
fi
