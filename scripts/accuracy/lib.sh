# Helpers of the measurement scripts (scripts/accuracy/run.sh,
# bench/bulk-load.sh, bench/bulk-write.sh), sourced after scripts/common.sh.
# They talk to the server of scripts/server.sh (COMPRESS_SERVER_DIR).
sql() { bash "$COMPRESS_ROOT/scripts/server.sh" client -N -B "$@"; }
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }
# used_pages DB TABLE: pages in use by the table's B-trees (USED_PAGES of a
# one-page COMPRESSION_STATS_ESTIMATE(); the plugin must be installed).
used_pages() {
  sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$1', '$2', 1)" >/dev/null
  sql -e "SELECT MAX(USED_PAGES) FROM information_schema.COMPRESSION_ESTIMATES
          WHERE TABLE_SCHEMA='$1' AND TABLE_NAME='$2'"
}
