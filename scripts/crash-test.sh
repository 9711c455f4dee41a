#!/usr/bin/env bash
# Crash test at scale: kill -9 the patched server while 4 writers commit
# transactions into compressed tables, restart it, and check that every
# transaction the server acknowledged as committed is there, whole, and
# that CHECK TABLE finds nothing. Not part of the CI run (it takes about
# 10 minutes for 20 cycles); see docs/operations.md, "Crash test at scale".
#
#   scripts/crash-test.sh [cycles]          (default 20)
#   COMPRESS_CRASH_DIR   work directory (default $COMPRESS_CACHE_DIR/crash-test)
#   COMPRESS_CRASH_WRITE seconds of writing before each kill (default 6-14,
#                        random per cycle; a number fixes it)
#   COMPRESS_CRASH_OPTS  extra mysqld options
#   COMPRESS_CRASH_CODECS  codecs the restarts take in turn, for example
#                        "isal zlib": each restart (recovery included) runs
#                        under the next one, so pages one codec wrote are
#                        recovered and written by the other (default: the
#                        server's default codec throughout)
#   COMPRESS_CRASH_FAKE_ACK=1  add an acknowledgement of a transaction that
#                        never ran, to see the check fail (lost 4: its row in
#                        each table)
#
# Tables (all ROW_FORMAT=COMPRESSED):
#   t8   KEY_BLOCK_SIZE=8, text with a secondary index, updated rows
#   t4   KEY_BLOCK_SIZE=4 with its own level (ENGINE_ATTRIBUTE
#        compression_level 1), updated rows
#   t1k  KEY_BLOCK_SIZE=1, short rows, deleted rows
#   tp   KEY_BLOCK_SIZE=8, partitioned (HASH, 4 partitions), BLOBs
# Each transaction of a writer inserts one row (conn, n) into each table,
# updates row n-5 of t8 and t4 and deletes row n-7 of t1k, then commits;
# the client prints an acknowledgement line only after COMMIT returned OK,
# so the acknowledgement files list transactions the server confirmed.
# innodb_log_compressed_pages alternates ON/OFF from cycle to cycle.
# Writes the per-cycle figures to $COMPRESS_CRASH_DIR/report.txt and ends
# with "cycles N, acknowledged transactions verified T, lost L, bad C".
set -euo pipefail
. "$(dirname "$0")/common.sh"

cycles="${1:-20}"
W="${COMPRESS_CRASH_DIR:-$COMPRESS_CACHE_DIR/crash-test}"
BIN="$BUILD_DIR/runtime_output_directory"
WRITERS=4
[ -x "$BIN/mysqld" ] || die "mysqld is not built: run scripts/build.sh"

SRV_DIR="$W"; SRV_BIN="$BIN"; SRV_PORT="${COMPRESS_CRASH_PORT:-13316}"
. "$(dirname "$0")/server-lib.sh"
client() { srv_client "$@"; }

read -r -a CODECS <<< "${COMPRESS_CRASH_CODECS:-}"
codec_opt() {
  [ ${#CODECS[@]} -gt 0 ] || return 0
  printf -- '--innodb-compression-codec=%s' "${CODECS[$(( $1 % ${#CODECS[@]} ))]}"
}

start_server() {
  # shellcheck disable=SC2086
  srv_start "$BIN" "$W/data" "$W/mysqld.err" --innodb-buffer-pool-size=32M \
    --innodb-log-compressed-pages="$1" --innodb-compression-level=6 \
    $(codec_opt "${2:-0}") ${COMPRESS_CRASH_OPTS:-} && return 0
  tail -30 "$W/mysqld.err" >&2
  die "the server did not start (see $W/mysqld.err)"
}

# SQL of one writer: endless transactions, an acknowledgement after each
# COMMIT. The mysql client stops at the first error (the kill).
writer_sql() {
  python3 - "$1" "$2" <<'EOF'
import sys, hashlib
conn, start = int(sys.argv[1]), int(sys.argv[2])
out = sys.stdout
i = start
try:
    while True:
        c = ("row%d conn%d " % (i % 97, conn)) * (1 + i % 25)
        s = "tiny %d %d" % (conn, i % 13)
        b = hashlib.sha256(str(i).encode()).hexdigest() * (1 + i % 30)
        out.write(
            "START TRANSACTION;\n"
            "INSERT INTO t8 VALUES (%d,%d,'%s',CRC32('%s'));\n"
            "INSERT INTO t4 VALUES (%d,%d,'%s',CRC32('%s'));\n"
            "INSERT INTO t1k VALUES (%d,%d,'%s',CRC32('%s'));\n"
            "INSERT INTO tp VALUES (%d,%d,'%s',CRC32('%s'));\n"
            "UPDATE t8 SET c = CONCAT(c, 'u'), crc = CRC32(c) WHERE conn = %d AND n = %d;\n"
            "UPDATE t4 SET c = CONCAT(c, 'u'), crc = CRC32(c) WHERE conn = %d AND n = %d;\n"
            "DELETE FROM t1k WHERE conn = %d AND n = %d;\n"
            "COMMIT;\n"
            "SELECT %d, %d;\n"
            % (conn, i, c, c, conn, i, c, c, conn, i, s, s, conn, i, b, b,
               conn, i - 5, conn, i - 5, conn, i - 7, conn, i))
        i += 1
except BrokenPipeError:
    pass
EOF
}

SCHEMA="
CREATE DATABASE crash;
USE crash;
CREATE TABLE t8 (conn INT, n INT, c VARCHAR(600), crc INT UNSIGNED,
  PRIMARY KEY (conn, n), KEY k (c(20)))
  ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;
CREATE TABLE t4 (conn INT, n INT, c VARCHAR(600), crc INT UNSIGNED,
  PRIMARY KEY (conn, n), KEY k (c(20)))
  ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4
  ENGINE_ATTRIBUTE='{\"compression_level\": 1}';
CREATE TABLE t1k (conn INT, n INT, c VARCHAR(40), crc INT UNSIGNED,
  PRIMARY KEY (conn, n))
  ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=1;
CREATE TABLE tp (conn INT, n INT, b BLOB, crc INT UNSIGNED,
  PRIMARY KEY (conn, n))
  ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8
  PARTITION BY HASH (conn) PARTITIONS 4;
CREATE TABLE acks (conn INT, n INT, PRIMARY KEY (conn, n)) ENGINE=InnoDB;
"

# Load the acknowledgements of the last cycle, then check everything. A
# row of t1k may be missing only if the transaction that deletes it (n+7)
# committed, which its row in t8 shows (it may not be acknowledged).
# Prints: acknowledged lost_t8 lost_t4 lost_t1k lost_tp lost_updates
#         resurrected_deletes bad_crc check_errors
verify() {
  local f
  for f in "$W"/ack.*; do
    [ -s "$f" ] || continue
    awk 'BEGIN{printf "INSERT IGNORE INTO acks VALUES "} NR>1{printf ","} {printf "(%d,%d)", $1, $2} END{print ";"}' "$f" \
      | client crash
    rm -f "$f"
  done
  client crash -e "
SELECT (SELECT COUNT(*) FROM acks),
 (SELECT COUNT(*) FROM acks a LEFT JOIN t8 USING (conn, n) WHERE t8.n IS NULL),
 (SELECT COUNT(*) FROM acks a LEFT JOIN t4 USING (conn, n) WHERE t4.n IS NULL),
 (SELECT COUNT(*) FROM acks a LEFT JOIN t1k USING (conn, n) WHERE t1k.n IS NULL
    AND NOT EXISTS (SELECT 1 FROM t8 d WHERE d.conn = a.conn AND d.n = a.n + 7)),
 (SELECT COUNT(*) FROM acks a LEFT JOIN tp USING (conn, n) WHERE tp.n IS NULL),
 (SELECT COUNT(*) FROM acks a JOIN t8 ON t8.conn = a.conn AND t8.n = a.n - 5 WHERE t8.c NOT LIKE '%u')
 + (SELECT COUNT(*) FROM acks a JOIN t4 ON t4.conn = a.conn AND t4.n = a.n - 5 WHERE t4.c NOT LIKE '%u'),
 (SELECT COUNT(*) FROM acks a JOIN t1k ON t1k.conn = a.conn AND t1k.n = a.n - 7),
 (SELECT COUNT(*) FROM t8 WHERE crc <> CRC32(c)) + (SELECT COUNT(*) FROM t4 WHERE crc <> CRC32(c))
 + (SELECT COUNT(*) FROM t1k WHERE crc <> CRC32(c)) + (SELECT COUNT(*) FROM tp WHERE crc <> CRC32(b));" \
    | tr '\n' ' '
  client crash -e "CHECK TABLE t8, t4, t1k, tp, acks EXTENDED;" \
    | awk '$3 != "status" || $4 != "OK" {bad++} END {print bad + 0}'
}

rm -rf "$W"
mkdir -p "$W"
log "initializing $W/data"
# shellcheck disable=SC2086
srv_init "$BIN" "$W/data" ${COMPRESS_CRASH_OPTS:-}
start_server ON
client -e "$SCHEMA"

report="$W/report.txt"
# log_compressed_pages: the setting of the restart that recovered the
# cycle; the cycle's own writes ran with the other value.
echo "# cycle log_compressed_pages write_s recovery_s acknowledged lost_t8 lost_t4 lost_t1k lost_tp lost_updates resurrected_deletes bad_crc check_errors" > "$report"
total_lost=0
total_bad=0
logpages=ON
for cycle in $(seq 1 "$cycles"); do
  secs="${COMPRESS_CRASH_WRITE:-$((6 + RANDOM % 9))}"
  pids=()
  for w in $(seq 1 "$WRITERS"); do
    ( writer_sql "$w" $((cycle * 1000000)) \
        | "$BIN/mysql" --socket="$(srv_sock)" -uroot -N -B --unbuffered crash \
        > "$W/ack.$cycle.$w" 2> "$W/writer.$w.err" || true ) &
    pids+=($!)
  done
  sleep "$secs"
  srv_kill
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [ "${COMPRESS_CRASH_FAKE_ACK:-0}" = 1 ] && [ "$cycle" = 1 ]; then
    printf '1\t%d\n' $((cycle * 1000000 + 999999)) >> "$W/ack.$cycle.1"
  fi
  # Alternate redo logging of compressed page images.
  if [ "$logpages" = ON ]; then logpages=OFF; else logpages=ON; fi
  t0=$(date +%s.%N)
  start_server "$logpages" "$cycle"
  t1=$(date +%s.%N)
  line=$(verify)
  rec=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')
  echo "$cycle $logpages $secs $rec $line" >> "$report"
  read -r acked l8 l4 l1 lp lu rd bc ce <<< "$line"
  lost=$((l8 + l4 + l1 + lp + lu + rd))
  bad=$((bc + ce))
  total_lost=$((total_lost + lost))
  total_bad=$((total_bad + bad))
  log "cycle $cycle: recovered in ${rec}s with innodb_log_compressed_pages=$logpages${CODECS:+ $(codec_opt "$cycle")}; $acked acknowledged transactions verified, $lost lost, $bad bad"
done
client -e "SELECT TABLE_NAME, PARTITION_NAME, KEY_BLOCK_SIZE, COMPRESS_OPS, COMPRESS_FAILURE_PCT
  FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'crash'" > "$W/compression_stats.txt" 2>/dev/null || true
srv_stop
acked=$(tail -n 1 "$report" | awk '{print $5}')
summary="cycles $cycles, acknowledged transactions verified $acked, lost $total_lost, bad $total_bad"
echo "# $summary" >> "$report"
echo "$summary"
[ "$total_lost" -eq 0 ] && [ "$total_bad" -eq 0 ]
