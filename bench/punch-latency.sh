#!/usr/bin/env bash
# What the punching of freed pages costs the writers of the same table
# (issue 60: the step holds the tablespace's X-latch while it punches, and
# a page allocation needs that latch). A page-compressed table
# (COMPRESSION='lz4') of SIZE_MB; per repetition and setting of
# innodb_page_compression_punch_freed (OFF, ON; the order alternates):
#   one client inserts single rows at the end of the table, autocommitted,
#   for SECS seconds; 5 seconds in, a DELETE of every other block of 1,000
#   rows (half the table) whose purge frees pages, which ON punches once
#   the checkpoint of 30 seconds ago has passed them (at most 4,096 pages
#   and 256 fallocate() calls per second and tablespace);
#   the latency of each insert from performance_schema
#   (events_statements_history_long of the client's thread): p50, p99,
#   p99.9 and max over the whole run and over the seconds in which pages
#   were punched (from the first punch to the last, by the counter sampled
#   each second), the inserts done, the pages freed and punched.
# Output: $OUT/punch-latency.csv and a Markdown table of the medians.
# Usage: bench/punch-latency.sh [SIZE_MB (256)] [REPS (3)] [SECS (120)]
#   COMPRESS_SERVER_DIR  the server's directory (default $COMPRESS_CACHE_DIR/punch-server)
#   OUT                  results (default bench/results/punch-latency-<date>)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../scripts/common.sh"
SIZE_MB="${1:-256}"
REPS="${2:-3}"
SECS="${3:-120}"
export COMPRESS_SERVER_DIR="${COMPRESS_SERVER_DIR:-$COMPRESS_CACHE_DIR/punch-server}"
export COMPRESS_SERVER_OPTS="${COMPRESS_SERVER_OPTS:---innodb-buffer-pool-size=256M --innodb-redo-log-capacity=1G --performance-schema-events-statements-history-long-size=1000000 --innodb-page-compression-sparse=ON}"
SRV_DIR="$COMPRESS_SERVER_DIR"; SRV_BIN="$BUILD_DIR/runtime_output_directory"
SRV_PORT="${COMPRESS_SERVER_PORT:-13306}"
. "$HERE/../scripts/server-lib.sh"
OUT="${OUT:-$COMPRESS_ROOT/bench/results/punch-latency-$(date +%Y%m%d)}"
mkdir -p "$OUT" "$COMPRESS_SERVER_DIR"
bash "$HERE/../scripts/server.sh" start >&2
BIN="$SRV_BIN"
sql -e "CREATE DATABASE IF NOT EXISTS pl;
  UPDATE performance_schema.setup_consumers SET ENABLED = 'YES'
    WHERE NAME IN ('events_statements_history_long');"
counter() { sql -e "SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME='$1'"; }

rows=$(( SIZE_MB * 1024 * 1024 / 330 ))
have=$(sql -e "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='pl' AND TABLE_NAME='src'")
if [ "$have" = 0 ]; then
  log "loading pl.src: $rows rows" >&2
  sql pl -e "CREATE TABLE src (id INT PRIMARY KEY, k INT NOT NULL, body VARCHAR(500) NOT NULL)"
  for ((lo = 0; lo < rows; lo += 200000)); do
    sql pl -e "SET SESSION cte_max_recursion_depth = 300000;
      INSERT INTO src WITH RECURSIVE s(n) AS
        (SELECT $lo UNION ALL SELECT n + 1 FROM s WHERE n < LEAST($lo + 199999, $rows - 1))
      SELECT n, n % 1009, CONCAT('order ', n, ' of customer ', n % 7919, ': ',
             REPEAT('paid in full, delivered on time; ', 4), SHA2(n, 256)) FROM s"
  done
fi

csv="$OUT/punch-latency.csv"
echo "rep,punch_freed,inserts,p50_us,p99_us,p999_us,max_us,win_inserts,win_p50_us,win_p99_us,win_p999_us,win_max_us,punch_secs,pages_freed,pages_punched" > "$csv"
for ((rep = 1; rep <= REPS; rep++)); do
  order="OFF ON"; [ $((rep % 2)) = 0 ] && order="ON OFF"
  for punch in $order; do
    sql -e "SET GLOBAL innodb_page_compression_punch_freed = $punch"
    sql pl -e "DROP TABLE IF EXISTS t; CREATE TABLE t LIKE src; ALTER TABLE t COMPRESSION='lz4';
      INSERT INTO t SELECT * FROM src; FLUSH TABLES t FOR EXPORT; UNLOCK TABLES"
    sql -e "TRUNCATE performance_schema.events_statements_history_long"
    freed0=$(counter file_sparse_pages_freed); punched0=$(counter file_sparse_pages_punched)
    # The inserting client: its thread id first, then the inserts.
    start_id=$((rows + rep * 10000000))
    ( { echo "SELECT 'thread', PS_CURRENT_THREAD_ID();"
        for ((i = 0; ; i++)); do
          echo "INSERT INTO t VALUES ($((start_id + i)), $((i % 1009)), CONCAT('new order ', $i, ': ', REPEAT('paid in full; ', 8)));"
        done; } | "$BIN/mysql" --socket="$(srv_sock)" -uroot -N -B --unbuffered pl > "$OUT/client.out" 2>/dev/null || true ) &
    cpid=$!
    # Seconds at which the punched counter moved.
    t0=$(date +%s)
    : > "$OUT/punch-secs.txt"
    deleted=0
    while [ $(( $(date +%s) - t0 )) -lt "$SECS" ]; do
      if [ "$deleted" = 0 ] && [ $(( $(date +%s) - t0 )) -ge 5 ]; then
        ( sql pl -e "DELETE FROM t WHERE id < $rows AND id DIV 1000 % 2 = 1" ) &
        deleted=1
      fi
      echo "$(( $(date +%s) - t0 )) $(counter file_sparse_pages_punched)" >> "$OUT/punch-secs.txt"
      sleep 1
    done
    pkill -P "$cpid" mysql 2>/dev/null || true
    kill "$cpid" 2>/dev/null || true
    wait "$cpid" 2>/dev/null || true
    wait || true
    tid=$(awk '$1 == "thread" { print $2 }' "$OUT/client.out")
    # The window: the seconds in which the counter moved (relative to t0),
    # mapped to performance_schema's timer with the client's first insert.
    read -r w0 w1 < <(awk -v p0="$punched0" 'NR > 1 && $2 > prev { if (!a) a = $1 - 1; b = $1 } { prev = $2 } END { print a + 0, b + 0 }' "$OUT/punch-secs.txt")
    stats=$(sql -e "
      WITH s AS (SELECT TIMER_WAIT / 1000000 AS us,
                        (TIMER_START - MIN(TIMER_START) OVER ()) / 1e12 AS at_s
                 FROM performance_schema.events_statements_history_long
                 WHERE THREAD_ID = $tid AND SQL_TEXT LIKE 'INSERT INTO t VALUES%'),
           r AS (SELECT us, at_s, PERCENT_RANK() OVER (ORDER BY us) AS pr FROM s),
           w AS (SELECT us, PERCENT_RANK() OVER (ORDER BY us) AS pr FROM s
                 WHERE at_s BETWEEN $w0 AND $w1)
      SELECT (SELECT COUNT(*) FROM r),
             (SELECT MIN(us) FROM r WHERE pr >= 0.5), (SELECT MIN(us) FROM r WHERE pr >= 0.99),
             (SELECT MIN(us) FROM r WHERE pr >= 0.999), (SELECT MAX(us) FROM r),
             (SELECT COUNT(*) FROM w),
             (SELECT MIN(us) FROM w WHERE pr >= 0.5), (SELECT MIN(us) FROM w WHERE pr >= 0.99),
             (SELECT MIN(us) FROM w WHERE pr >= 0.999), (SELECT MAX(us) FROM w)" | tr '\t' ',')
    freed=$(( $(counter file_sparse_pages_freed) - freed0 ))
    punched=$(( $(counter file_sparse_pages_punched) - punched0 ))
    row="$rep,$punch,$stats,$((w1 - w0)),$freed,$punched"
    echo "$row" >> "$csv"
    log "$row" >&2
  done
done
python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cols = ["inserts", "p50_us", "p99_us", "p999_us", "max_us", "win_inserts", "win_p99_us",
        "win_p999_us", "win_max_us", "punch_secs", "pages_freed", "pages_punched"]
print("| punch_freed | reps | " + " | ".join(cols) + " |")
print("| --- | ---: |" + " ---: |" * len(cols))
for s in ("OFF", "ON"):
    rs = [r for r in rows if r["punch_freed"] == s]
    if not rs:
        continue
    def f(r, c):
        try:
            return float(r[c])
        except (TypeError, ValueError):
            return 0.0
    med = [statistics.median(f(r, c) for r in rs) for c in cols]
    lo = [min(f(r, c) for r in rs) for c in cols]
    hi = [max(f(r, c) for r in rs) for c in cols]
    print(f"| {s} | {len(rs)} | " + " | ".join(f"{m:g} ({a:g}-{b:g})" for m, a, b in zip(med, lo, hi)) + " |")
PY
log "CSV: $csv" >&2
