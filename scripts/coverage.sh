#!/usr/bin/env bash
# Line coverage of our own code after the compress suite:
#   - our new files (plugin/compression_stats, our InnoDB files), all lines;
#   - upstream files our patches change: only the lines the patches add.
# Builds with -DCOMPRESS_COVERAGE=ON (only those objects are instrumented,
# the rest of the build is untouched), runs the suite, writes the report to
# $COMPRESS_CACHE_DIR/coverage/ and prints the summary, then rebuilds the
# normal objects (ccache makes that quick).
set -uo pipefail
. "$(dirname "$0")/common.sh"

out="$COMPRESS_CACHE_DIR/coverage"
mkdir -p "$out"
COMPRESS_COVERAGE=1 bash "$COMPRESS_ROOT/scripts/build.sh" || die "coverage build failed"
find "$BUILD_DIR" -name '*.gcda' -delete
bash "$COMPRESS_ROOT/scripts/mtr.sh" "$@"
mtr_rc=$?

gcovr --root "$SRC_DIR" --object-directory "$BUILD_DIR" \
  --filter "$SRC_DIR/plugin/compression_stats/" --filter "$SRC_DIR/storage/innobase/" \
  --json "$out/coverage.json" \
  > "$out/gcovr.log" 2>&1 || { tail -20 "$out/gcovr.log"; die "gcovr failed"; }
python3 "$COMPRESS_ROOT/scripts/coverage_report.py" "$out/coverage.json" \
  "$PRISTINE_DIR" "$SRC_DIR" "$COMPRESS_ROOT" | tee "$out/summary.txt"

log "restoring the uninstrumented build"
bash "$COMPRESS_ROOT/scripts/build.sh" >/dev/null 2>&1 || log "WARNING: rebuild without coverage failed"
exit $mtr_rc
