#!/usr/bin/env bash
# What one monitoring poll of INFORMATION_SCHEMA.COMPRESSION_STATS costs on an
# instance with many tables: creates N tables (default 10,000: a quarter
# compressed at 8 KB, a quarter at 4 KB, half uncompressed, each with a few
# rows), restarts the server so that the buffer pool is cold, then times
# queries and counts the pages InnoDB read for them (Innodb_pages_read and
# Innodb_buffer_pool_reads) and the pages of the polled tables that ended up
# in the buffer pool.
#
#   bench/stats-poll.sh [N]            figures to bench/results/stats-poll/
#   COMPRESS_POLL_COLS extra INT columns per table (default 0: 3 columns;
#                      38 gives the 40-column tables of issue 28)
#   COMPRESS_POLL_SCHEMAS schemas the tables are spread over (default 1:
#                      schema poll; more: poll, poll01, poll02, ...); the
#                      "full read" query then walks every schema, as a poll
#                      without a TABLE_SCHEMA condition does
#   COMPRESS_POLL_OPTS extra mysqld options
#   COMPRESS_POLL_DIR  server directory (default $COMPRESS_CACHE_DIR/stats-poll;
#                      the tables are kept there and reused by the next run)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../scripts/common.sh"

N="${1:-10000}"
COLS="${COMPRESS_POLL_COLS:-0}"
SCHEMAS="${COMPRESS_POLL_SCHEMAS:-1}"
export COMPRESS_SERVER_DIR="${COMPRESS_POLL_DIR:-$COMPRESS_CACHE_DIR/stats-poll}"
export COMPRESS_SERVER_PORT="${COMPRESS_POLL_PORT:-13326}"
export COMPRESS_SERVER_OPTS="--innodb-buffer-pool-size=128M --table-definition-cache=2000 --table-open-cache=2000 ${COMPRESS_POLL_OPTS:-}"
SRV="$HERE/../scripts/server.sh"
OUT="$HERE/results/stats-poll"
mkdir -p "$OUT"
q() { bash "$SRV" client -N -B -e "$1"; }

bash "$SRV" start
schema_of() { [ "$1" -eq 0 ] && echo poll || printf 'poll%02d' "$1"; }
have=$(q "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'poll' OR TABLE_SCHEMA REGEXP '^poll[0-9][0-9]\$'")
shape=$(q "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'poll' AND TABLE_NAME = 't00000'")
if [ "$have" -ne "$N" ] || [ "$shape" -ne $((COLS + 2)) ]; then
  log "creating $N tables of $((COLS + 2)) columns in $SCHEMAS schema(s) poll... (takes a while; kept for later runs)"
  for ((k = 0; k < 100; k++)); do q "DROP DATABASE IF EXISTS $(schema_of $k)"; done
  for ((k = 0; k < SCHEMAS; k++)); do q "CREATE DATABASE $(schema_of $k)"; done
  python3 - "$N" "$COLS" "$SCHEMAS" <<'EOF' | bash "$SRV" client
import sys
n, cols, schemas = (int(a) for a in sys.argv[1:4])
extra = "".join(", c%d INT NOT NULL DEFAULT 0" % c for c in range(cols))
for i in range(n):
    k = i % schemas
    db = "poll" if k == 0 else "poll%02d" % k
    fmt = ["ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8",
           "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4", "", ""][i % 4]
    print("CREATE TABLE %s.t%05d (id INT PRIMARY KEY, v VARCHAR(200)%s, KEY kv (v(20))) ENGINE=InnoDB %s;" % (db, i, extra, fmt))
    print("INSERT INTO %s.t%05d (id, v) VALUES (1, REPEAT('a', 150)), (2, REPEAT('b', 150)), (3, REPEAT('c', 150));" % (db, i))
EOF
fi

run() {  # label, SQL
  local label=$1 sql=$2 r0 b0 r1 b1 t0 t1 rows out hw
  r0=$(q "SHOW GLOBAL STATUS LIKE 'Innodb_pages_read'" | cut -f2)
  b0=$(q "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_reads'" | cut -f2)
  t0=$(date +%s.%N)
  # The query and, in the same connection, the high-water marks of its
  # memory (performance_schema, every memory instrument of the thread):
  # their sum bounds what the connection held at its peak.
  out=$(q "$sql; SELECT CONCAT('#hw ', SUM(HIGH_NUMBER_OF_BYTES_USED)) FROM performance_schema.memory_summary_by_thread_by_event_name WHERE THREAD_ID = PS_CURRENT_THREAD_ID()")
  t1=$(date +%s.%N)
  rows=$(printf '%s\n' "$out" | grep -vc '^#hw ' || true)
  hw=$(printf '%s\n' "$out" | sed -n 's/^#hw //p')
  r1=$(q "SHOW GLOBAL STATUS LIKE 'Innodb_pages_read'" | cut -f2)
  b1=$(q "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_reads'" | cut -f2)
  printf '%s\t%d\t%.2f\t%d\t%d\t%.1f\n' "$label" "$rows" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b - a}')" $((r1 - r0)) $((b1 - b0)) \
    "$(awk -v h="${hw:-0}" 'BEGIN{print h / 1048576}')"
}

res="$OUT/stats-poll-$(date +%Y%m%d-%H%M%S).tsv"
{
  echo "# $N tables of $((COLS + 2)) columns in $SCHEMAS schema(s) poll...; buffer pool cold after a restart; $(nproc) cores"
  printf 'query\trows\tseconds\tInnodb_pages_read\tInnodb_buffer_pool_reads\tconnection_memory_high_water_MB\n'
  bash "$SRV" stop >/dev/null 2>&1
  bash "$SRV" start >/dev/null 2>&1
  run "all tables, cold (first poll after the start)" \
    "SELECT TABLE_NAME, COMPRESS_OPS, ALLOCATED_PAGES FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'poll'"
  run "all tables, second poll" \
    "SELECT TABLE_NAME, COMPRESS_OPS, ALLOCATED_PAGES FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'poll'"
  run "one table by name" \
    "SELECT TABLE_NAME, COMPRESS_OPS, ALLOCATED_PAGES FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'poll' AND TABLE_NAME = 't04240'"
  run "same table, INFORMATION_SCHEMA.TABLES for comparison" \
    "SELECT TABLE_NAME, DATA_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'poll' AND TABLE_NAME = 't04240'"
  run "all tables, INFORMATION_SCHEMA.TABLES for comparison" \
    "SELECT TABLE_NAME, DATA_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'poll'"
  if [ "$SCHEMAS" -gt 1 ]; then
    run "every schema, no TABLE_SCHEMA condition (a full read)" \
      "SELECT TABLE_SCHEMA, TABLE_NAME, COMPRESS_OPS, ALLOCATED_PAGES FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA LIKE 'poll%'"
    run "every schema, INFORMATION_SCHEMA.TABLES for comparison" \
      "SELECT TABLE_SCHEMA, TABLE_NAME, DATA_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA LIKE 'poll%'"
  fi
  pages=$(q "SELECT COUNT(*) FROM information_schema.INNODB_BUFFER_PAGE WHERE TABLE_NAME LIKE '\`poll\`.%'")
  echo "# pages of the poll tables in the buffer pool after the polls: $pages"
  if [ "$SCHEMAS" -gt 1 ]; then
    # Which instruments make the full read's high-water mark: the read again
    # after a restart, then in the same connection its largest instruments.
    # Memory that other threads free (InnoDB's master thread evicting the
    # tables the read loaded) stays charged to this connection, so the
    # global figure of the same instrument is given beside it.
    echo "# the full read again after a restart; the polling connection's largest memory instruments (high-water MB / current MB / allocations / global current MB):"
    bash "$SRV" stop >/dev/null 2>&1
    bash "$SRV" start >/dev/null 2>&1
    q "SELECT COUNT(*) INTO @n FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA LIKE 'poll%'; SELECT CONCAT('# ', t.EVENT_NAME), ROUND(t.HIGH_NUMBER_OF_BYTES_USED / 1048576, 1), ROUND(t.CURRENT_NUMBER_OF_BYTES_USED / 1048576, 1), t.COUNT_ALLOC, ROUND(g.CURRENT_NUMBER_OF_BYTES_USED / 1048576, 1) FROM performance_schema.memory_summary_by_thread_by_event_name t JOIN performance_schema.memory_summary_global_by_event_name g USING (EVENT_NAME) WHERE t.THREAD_ID = PS_CURRENT_THREAD_ID() ORDER BY t.HIGH_NUMBER_OF_BYTES_USED DESC LIMIT 6"
  fi
} | tee "$res"
bash "$SRV" stop >/dev/null 2>&1
log "figures in $res"
