# Helpers of the accuracy scripts (scripts/accuracy/run.sh, page.sh),
# sourced after scripts/common.sh. They talk to the server of
# scripts/server.sh (COMPRESS_SERVER_DIR). sql, now, calc, used_pages and
# load_set (the data sets) are in scripts/server-lib.sh, shared with
# bench/bulk-load.sh and bench/bulk-write.sh.
. "$COMPRESS_ROOT/scripts/server-lib.sh"

# acc_setup: what the accuracy scripts share: the output directory
# ($COMPRESS_ACCURACY_OUT, default $COMPRESS_CACHE_DIR/accuracy, in OUT),
# the size floor (COMPRESS_ACCURACY_MIN_MB, default 1 MB, in MIN_PAGES), the
# local server started and the plugin installed.
acc_setup() {
  OUT="${COMPRESS_ACCURACY_OUT:-$COMPRESS_CACHE_DIR/accuracy}"
  MIN_PAGES=$(( ${COMPRESS_ACCURACY_MIN_MB:-1} * 64 ))
  mkdir -p "$OUT"
  bash "$COMPRESS_ROOT/scripts/server.sh" start >&2
  sql -e "INSTALL PLUGIN compression_stats SONAME 'compression_stats.so'" 2>/dev/null || true
}
