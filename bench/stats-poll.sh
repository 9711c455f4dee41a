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
#   COMPRESS_POLL_OPTS extra mysqld options
#   COMPRESS_POLL_DIR  server directory (default $COMPRESS_CACHE_DIR/stats-poll;
#                      the tables are kept there and reused by the next run)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../scripts/common.sh"

N="${1:-10000}"
export COMPRESS_SERVER_DIR="${COMPRESS_POLL_DIR:-$COMPRESS_CACHE_DIR/stats-poll}"
export COMPRESS_SERVER_PORT="${COMPRESS_POLL_PORT:-13326}"
export COMPRESS_SERVER_OPTS="--innodb-buffer-pool-size=128M --table-definition-cache=2000 --table-open-cache=2000 ${COMPRESS_POLL_OPTS:-}"
SRV="$HERE/../scripts/server.sh"
OUT="$HERE/results/stats-poll"
mkdir -p "$OUT"
q() { bash "$SRV" client -N -B -e "$1"; }

bash "$SRV" start
have=$(q "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'poll'")
if [ "$have" -ne "$N" ]; then
  log "creating $N tables in schema poll (takes a while; kept for later runs)"
  q "DROP DATABASE IF EXISTS poll; CREATE DATABASE poll"
  python3 - "$N" <<'EOF' | bash "$SRV" client poll
import sys
n = int(sys.argv[1])
for i in range(n):
    fmt = ["ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8",
           "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4", "", ""][i % 4]
    print("CREATE TABLE t%05d (id INT PRIMARY KEY, v VARCHAR(200), KEY kv (v(20))) ENGINE=InnoDB %s;" % (i, fmt))
    print("INSERT INTO t%05d VALUES (1, REPEAT('a', 150)), (2, REPEAT('b', 150)), (3, REPEAT('c', 150));" % i)
EOF
fi

run() {  # label, SQL
  local label=$1 sql=$2 r0 b0 r1 b1 t0 t1 rows
  r0=$(q "SHOW GLOBAL STATUS LIKE 'Innodb_pages_read'" | cut -f2)
  b0=$(q "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_reads'" | cut -f2)
  t0=$(date +%s.%N)
  rows=$(q "$sql" | wc -l)
  t1=$(date +%s.%N)
  r1=$(q "SHOW GLOBAL STATUS LIKE 'Innodb_pages_read'" | cut -f2)
  b1=$(q "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_reads'" | cut -f2)
  printf '%s\t%d\t%.2f\t%d\t%d\n' "$label" "$rows" \
    "$(awk -v a="$t0" -v b="$t1" 'BEGIN{print b - a}')" $((r1 - r0)) $((b1 - b0))
}

res="$OUT/stats-poll-$(date +%Y%m%d-%H%M%S).tsv"
{
  echo "# $N tables in schema poll; buffer pool cold after a restart; $(nproc) cores"
  printf 'query\trows\tseconds\tInnodb_pages_read\tInnodb_buffer_pool_reads\n'
  bash "$SRV" stop >/dev/null 2>&1
  bash "$SRV" start >/dev/null 2>&1
  run "all tables, cold (first poll after the start)" \
    "SELECT TABLE_NAME, COMPRESS_OPS, ALLOCATED_PAGES FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'poll'"
  run "all tables, second poll" \
    "SELECT TABLE_NAME, COMPRESS_OPS, ALLOCATED_PAGES FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'poll'"
  run "one table by name" \
    "SELECT TABLE_NAME, COMPRESS_OPS, ALLOCATED_PAGES FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'poll' AND TABLE_NAME = 't04242'"
  run "same table, INFORMATION_SCHEMA.TABLES for comparison" \
    "SELECT TABLE_NAME, DATA_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'poll' AND TABLE_NAME = 't04242'"
  run "all tables, INFORMATION_SCHEMA.TABLES for comparison" \
    "SELECT TABLE_NAME, DATA_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'poll'"
  pages=$(q "SELECT COUNT(*) FROM information_schema.INNODB_BUFFER_PAGE WHERE TABLE_NAME LIKE '\`poll\`.%'")
  echo "# pages of the poll tables in the buffer pool after the polls: $pages"
} | tee "$res"
bash "$SRV" stop >/dev/null 2>&1
log "figures in $res"
