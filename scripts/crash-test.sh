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
#                        each table; 6 with COMPRESS_CRASH_PAGECOMP=1)
#   COMPRESS_CRASH_PAGECOMP=1  issue 65's scenario: transparent page
#                        compression, range deletes, DDL and a rotation of
#                        doublewrite, sparse files and punching during the
#                        run (see below; default 0: none of it)
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
#
# COMPRESS_CRASH_PAGECOMP=1 (issue 65) adds, in the same database:
#   pl   COMPRESSION='lz4', pz COMPRESSION='zlib' (DYNAMIC, transparent page
#        compression), the columns and index of t8, 60,000 rows preloaded
#        (conn 0, n 1-60000); each writer transaction also inserts its row
#        into both (the data of t8's), so the check covers them
#   pp   partitioned (RANGE on n), p0 ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=2
#        (a page size of its own), p1 the table's DYNAMIC; 900 rows
#        preloaded in p0, never written afterwards
# and, each cycle, beside the writers (all killed with the server):
#   a range deleter: one client deleting preloaded rows of pl and pz 1,500
#        at a time by range of n, a pause between two ranges, from where the
#        last cycle stopped ($W/range-deleter.pos: its acknowledgements), so
#        pages are freed and purged while the server runs and is killed;
#        once all 60,000 are gone it does nothing
#   a DDL loop, one client per statement, in turn: OPTIMIZE TABLE pz (a
#        rebuild through an intermediate #sql-ib table), DROP INDEX k of pl,
#        REBUILD PARTITION p0 of pp as DYNAMIC, OPTIMIZE again, ADD INDEX k,
#        REBUILD PARTITION p0 as COMPRESSED KEY_BLOCK_SIZE=2 (resumed across
#        cycles from $W/ddl.next); an error (the index a crash left there
#        or took away) is logged in $W/ddl.CYCLE.log and the loop goes on
# The server then runs with --innodb-redo-log-capacity=16M and a 48 MB
# buffer pool (32 MB otherwise), and each start (the initial one as cycle
# 0, then the restart that recovers cycle N) takes, from N, with periods
# that differ from each other and from innodb_log_compressed_pages' 2:
#   innodb_doublewrite                   DETECT_ONLY if N % 3 == 1, else ON
#   innodb_page_compression_sparse       OFF if N % 5 == 0, else ON
#   innodb_page_compression_punch_freed  ON if N % 4 < 2, else OFF (not
#        N % 2: that would always match innodb_log_compressed_pages)
# A freed page is punched only once the checkpoint of 30 seconds ago has
# passed its free (and never in a run that had DETECT_ONLY), so punching
# during the writes needs COMPRESS_CRASH_WRITE above 30.
# The check adds lost_pl and lost_pz (acknowledged rows missing),
# preloaded_errors (preloaded rows of pl, pz and pp missing although no
# DELETE was ever sent for them, or still there although the deleter had
# its DELETE acknowledged) and bad_crc_pc (checksums of pl, pz and pp),
# and CHECK TABLE covers pl, pz and pp too (in check_errors). The report
# line also gives the restart's three settings. A restart that fails is
# written to the report ("cycle N: FAILED START") with the end of the
# error log in $W/failed-starts.txt, and ends the run; the summary then
# reads "cycles N, acknowledged transactions verified T, lost L, bad C,
# failed starts F" and the exit status is 1 if any of L, C, F is not 0.
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

PAGECOMP="${COMPRESS_CRASH_PAGECOMP:-0}"
case "$PAGECOMP" in
  0|1) ;;
  *) die "COMPRESS_CRASH_PAGECOMP must be 0 or 1, not $PAGECOMP" ;;
esac
# COMPRESS_CRASH_PAGECOMP=1: preloaded rows of pl and pz (n 1..PRELOAD_ROWS)
# and of pp's first partition; the range deleter's rows per DELETE and its
# pause between two ranges (seconds), which makes it last for about 16
# cycles of 6-14 s instead of deleting everything in the first one.
PRELOAD_ROWS=60000
PRELOAD_PP=900
DELETE_BATCH=1500
DELETE_PAUSE=4

read -r -a CODECS <<< "${COMPRESS_CRASH_CODECS:-}"
codec_opt() {
  [ ${#CODECS[@]} -gt 0 ] || return 0
  printf -- '--innodb-compression-codec=%s' "${CODECS[$(( $1 % ${#CODECS[@]} ))]}"
}

# The rotation of COMPRESS_CRASH_PAGECOMP=1 (see the top): the setting of
# the start for cycle N (0: the initial start).
pc_doublewrite() { if [ $(($1 % 3)) -eq 1 ]; then echo DETECT_ONLY; else echo ON; fi; }
pc_sparse() { if [ $(($1 % 5)) -eq 0 ]; then echo OFF; else echo ON; fi; }
pc_punch() { if [ $(($1 % 4)) -lt 2 ]; then echo ON; else echo OFF; fi; }

# start_server LOG_COMPRESSED_PAGES [CYCLE [may-fail]]: dies if the server
# does not start, unless may-fail (then returns 1: the caller records it).
start_server() {
  local bp=32M
  local -a pc=()
  if [ "$PAGECOMP" = 1 ]; then
    bp=48M
    pc=(--innodb-redo-log-capacity=16M
        --innodb-doublewrite="$(pc_doublewrite "${2:-0}")"
        --innodb-page-compression-sparse="$(pc_sparse "${2:-0}")"
        --innodb-page-compression-punch-freed="$(pc_punch "${2:-0}")")
  fi
  # shellcheck disable=SC2046,SC2086
  srv_start "$BIN" "$W/data" "$W/mysqld.err" --innodb-buffer-pool-size="$bp" \
    --innodb-log-compressed-pages="$1" --innodb-compression-level=6 \
    $(codec_opt "${2:-0}") "${pc[@]}" ${COMPRESS_CRASH_OPTS:-} && return 0
  if [ "${3:-}" = may-fail ]; then return 1; fi
  tail -30 "$W/mysqld.err" >&2
  die "the server did not start (see $W/mysqld.err)"
}

# SQL of one writer: endless transactions, an acknowledgement after each
# COMMIT. The mysql client stops at the first error (the kill).
# writer_sql CONN START [PAGECOMP]: PAGECOMP 1 adds the row to pl and pz
# (0: the same SQL as before the mode existed).
writer_sql() {
  python3 - "$1" "$2" "${3:-0}" <<'EOF'
import sys, hashlib
conn, start = int(sys.argv[1]), int(sys.argv[2])
pagecomp = sys.argv[3] == "1"
out = sys.stdout
i = start
try:
    while True:
        c = ("row%d conn%d " % (i % 97, conn)) * (1 + i % 25)
        s = "tiny %d %d" % (conn, i % 13)
        b = hashlib.sha256(str(i).encode()).hexdigest() * (1 + i % 30)
        pc = ("INSERT INTO pl VALUES (%d,%d,'%s',CRC32('%s'));\n"
              "INSERT INTO pz VALUES (%d,%d,'%s',CRC32('%s'));\n"
              % (conn, i, c, c, conn, i, c, c)) if pagecomp else ""
        out.write(
            "START TRANSACTION;\n"
            "INSERT INTO t8 VALUES (%d,%d,'%s',CRC32('%s'));\n"
            "INSERT INTO t4 VALUES (%d,%d,'%s',CRC32('%s'));\n"
            "INSERT INTO t1k VALUES (%d,%d,'%s',CRC32('%s'));\n"
            "INSERT INTO tp VALUES (%d,%d,'%s',CRC32('%s'));\n"
            "%s"
            "UPDATE t8 SET c = CONCAT(c, 'u'), crc = CRC32(c) WHERE conn = %d AND n = %d;\n"
            "UPDATE t4 SET c = CONCAT(c, 'u'), crc = CRC32(c) WHERE conn = %d AND n = %d;\n"
            "DELETE FROM t1k WHERE conn = %d AND n = %d;\n"
            "COMMIT;\n"
            "SELECT %d, %d;\n"
            % (conn, i, c, c, conn, i, c, c, conn, i, s, s, conn, i, b, b, pc,
               conn, i - 5, conn, i - 5, conn, i - 7, conn, i))
        i += 1
except BrokenPipeError:
    pass
EOF
}

# range_deleter_sql FROM: the range deleter's SQL (COMPRESS_CRASH_PAGECOMP=1),
# from preloaded row FROM to the last: each range of DELETE_BATCH rows out of
# pl, then out of pz (autocommit: each DELETE commits alone), then its
# acknowledgement, the first n of the next range, printed once both DELETEs
# returned. So the last acknowledgement is where the next cycle starts, and
# no DELETE was ever sent for a row from there + DELETE_BATCH on. Written
# at once (a few KB, less than a pipe holds); the pause is the server's
# (DO SLEEP), and the client stops at the first error (the kill).
range_deleter_sql() {
  local a
  for ((a = $1; a <= PRELOAD_ROWS; a += DELETE_BATCH)); do
    printf 'DELETE FROM pl WHERE conn = 0 AND n >= %d AND n < %d;\n' "$a" $((a + DELETE_BATCH))
    printf 'DELETE FROM pz WHERE conn = 0 AND n >= %d AND n < %d;\n' "$a" $((a + DELETE_BATCH))
    printf 'SELECT %d;\n' $((a + DELETE_BATCH))
    printf 'DO SLEEP(%d);\n' "$DELETE_PAUSE"
  done
}

# The DDL loop's statements (COMPRESS_CRASH_PAGECOMP=1), taken in turn.
DDL_STMTS=(
  "OPTIMIZE TABLE crash.pz"
  "ALTER TABLE crash.pl DROP INDEX k, ALGORITHM=INPLACE"
  "ALTER TABLE crash.pp REBUILD PARTITION p0 ROW_FORMAT=DYNAMIC"
  "OPTIMIZE TABLE crash.pz"
  "ALTER TABLE crash.pl ADD INDEX k (c(20)), ALGORITHM=INPLACE"
  "ALTER TABLE crash.pp REBUILD PARTITION p0 ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=2"
)

# ddl_loop LOG: runs DDL_STMTS in turn from the one in $W/ddl.next, one
# client per statement, so that an error of a statement (DROP INDEX of an
# index a crash left out, ADD INDEX of one it left in) is logged and
# tolerated. It returns when a statement fails and the server does not
# answer: the kill, which also ended the statement in flight, so the next
# cycle starts again with that statement.
ddl_loop() {
  local log=$1 i
  i=$(cat "$W/ddl.next")
  while :; do
    printf '%s %s\n' "$(date +%T.%N)" "${DDL_STMTS[i]}" >> "$log"
    if client -e "${DDL_STMTS[i]}" >> "$log" 2>&1; then
      printf '%s ok\n' "$(date +%T.%N)" >> "$log"
    elif srv_alive; then
      printf '%s failed, tolerated\n' "$(date +%T.%N)" >> "$log"
      sleep 1   # no busy loop if a statement keeps failing at once
    else
      printf '%s the server is gone\n' "$(date +%T.%N)" >> "$log"
      return 0
    fi
    i=$(( (i + 1) % ${#DDL_STMTS[@]} ))
    echo "$i" > "$W/ddl.next"
  done
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

# The tables of COMPRESS_CRASH_PAGECOMP=1 (see the top); the preloaded rows
# have the writers' text for conn 0, and pz gets pl's rows.
SCHEMA_PAGECOMP="
USE crash;
SET SESSION cte_max_recursion_depth = 100000;
CREATE TABLE pl (conn INT, n INT, c VARCHAR(600), crc INT UNSIGNED,
  PRIMARY KEY (conn, n), KEY k (c(20)))
  ENGINE=InnoDB ROW_FORMAT=DYNAMIC COMPRESSION='lz4';
CREATE TABLE pz (conn INT, n INT, c VARCHAR(600), crc INT UNSIGNED,
  PRIMARY KEY (conn, n), KEY k (c(20)))
  ENGINE=InnoDB ROW_FORMAT=DYNAMIC COMPRESSION='zlib';
CREATE TABLE pp (conn INT, n INT, c VARCHAR(600), crc INT UNSIGNED,
  PRIMARY KEY (conn, n)) ENGINE=InnoDB
  PARTITION BY RANGE (n) (
    PARTITION p0 VALUES LESS THAN (1000) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=2,
    PARTITION p1 VALUES LESS THAN MAXVALUE);
INSERT INTO pl (conn, n, c, crc)
  WITH RECURSIVE s(i) AS
    (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < $PRELOAD_ROWS)
  SELECT 0, i, c, CRC32(c) FROM
    (SELECT i, REPEAT(CONCAT('row', i % 97, ' conn0 '), 1 + i % 25) AS c FROM s) d;
INSERT INTO pz SELECT * FROM pl;
INSERT INTO pp (conn, n, c, crc)
  WITH RECURSIVE s(i) AS
    (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < $PRELOAD_PP)
  SELECT 0, i, c, CRC32(c) FROM
    (SELECT i, REPEAT(CONCAT('row', i % 97, ' conn0 '), 1 + i % 25) AS c FROM s) d;
"

# Load the acknowledgements of the last cycle, then check everything. A
# row of t1k may be missing only if the transaction that deletes it (n+7)
# committed, which its row in t8 shows (it may not be acknowledged).
# Prints: acknowledged lost_t8 lost_t4 lost_t1k lost_tp lost_updates
#         resurrected_deletes bad_crc check_errors
# and with COMPRESS_CRASH_PAGECOMP=1, before check_errors (which then
# covers pl, pz and pp too): lost_pl lost_pz preloaded_errors bad_crc_pc.
# A preloaded row (conn 0) is never acknowledged, so the range deleter's
# rows are not in lost_pl/lost_pz; preloaded_errors counts, from the
# deleter's last acknowledgement `from`, the rows of n >= from +
# DELETE_BATCH (no DELETE sent) missing in pl or pz, those of n < from
# (DELETE acknowledged) still there, and pp's preloaded rows missing.
verify() {
  local f pc_sql="" tables="t8, t4, t1k, tp"
  if [ "$PAGECOMP" = 1 ]; then
    local from keep left
    from=$(tail -n 1 "$W/range-deleter.pos")
    keep=$((from + DELETE_BATCH))
    left=$((PRELOAD_ROWS + 1 - keep)); [ "$left" -ge 0 ] || left=0
    pc_sql=",
 (SELECT COUNT(*) FROM acks a LEFT JOIN pl USING (conn, n) WHERE pl.n IS NULL),
 (SELECT COUNT(*) FROM acks a LEFT JOIN pz USING (conn, n) WHERE pz.n IS NULL),
 2 * $left - (SELECT COUNT(*) FROM pl WHERE conn = 0 AND n >= $keep)
 - (SELECT COUNT(*) FROM pz WHERE conn = 0 AND n >= $keep)
 + (SELECT COUNT(*) FROM pl WHERE conn = 0 AND n < $from)
 + (SELECT COUNT(*) FROM pz WHERE conn = 0 AND n < $from)
 + $PRELOAD_PP - (SELECT COUNT(*) FROM pp WHERE conn = 0),
 (SELECT COUNT(*) FROM pl WHERE crc <> CRC32(c)) + (SELECT COUNT(*) FROM pz WHERE crc <> CRC32(c))
 + (SELECT COUNT(*) FROM pp WHERE crc <> CRC32(c))"
    tables="$tables, pl, pz, pp"
  fi
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
 + (SELECT COUNT(*) FROM t1k WHERE crc <> CRC32(c)) + (SELECT COUNT(*) FROM tp WHERE crc <> CRC32(b))$pc_sql;" \
    | tr '\n' ' '
  client crash -e "CHECK TABLE $tables, acks EXTENDED;" \
    | awk '$3 != "status" || $4 != "OK" {bad++} END {print bad + 0}'
}

rm -rf "$W"
mkdir -p "$W"
log "initializing $W/data"
# shellcheck disable=SC2086
srv_init "$BIN" "$W/data" ${COMPRESS_CRASH_OPTS:-}
start_server ON
client -e "$SCHEMA"
if [ "$PAGECOMP" = 1 ]; then
  log "creating pl, pz and pp (COMPRESS_CRASH_PAGECOMP=1)"
  client -e "$SCHEMA_PAGECOMP"
  echo 1 > "$W/range-deleter.pos"
  echo 0 > "$W/ddl.next"
fi

report="$W/report.txt"
# log_compressed_pages: the setting of the restart that recovered the
# cycle; the cycle's own writes ran with the other value. The same for
# doublewrite, sparse and punch_freed (COMPRESS_CRASH_PAGECOMP=1): the
# restart's settings, the cycle's writes ran under the previous ones.
header="# cycle log_compressed_pages write_s recovery_s acknowledged lost_t8 lost_t4 lost_t1k lost_tp lost_updates resurrected_deletes bad_crc check_errors"
if [ "$PAGECOMP" = 1 ]; then
  header="$header doublewrite sparse punch_freed lost_pl lost_pz preloaded_errors bad_crc_pc (COMPRESS_CRASH_PAGECOMP=1: the last 7 columns, and check_errors covers pl, pz, pp)"
fi
echo "$header" > "$report"
total_lost=0
total_bad=0
failed_starts=0
settings=""
acked=0
ran=0
logpages=ON
for cycle in $(seq 1 "$cycles"); do
  ran=$cycle
  secs="${COMPRESS_CRASH_WRITE:-$((6 + RANDOM % 9))}"
  pids=()
  for w in $(seq 1 "$WRITERS"); do
    ( writer_sql "$w" $((cycle * 1000000)) "$PAGECOMP" \
        | "$BIN/mysql" --socket="$(srv_sock)" -uroot -N -B --unbuffered crash \
        > "$W/ack.$cycle.$w" 2> "$W/writer.$w.err" || true ) &
    pids+=($!)
  done
  if [ "$PAGECOMP" = 1 ]; then
    # The range deleter, from its last acknowledged range; its
    # acknowledgements are appended to the position file.
    from=$(tail -n 1 "$W/range-deleter.pos")
    ( range_deleter_sql "$from" \
        | "$BIN/mysql" --socket="$(srv_sock)" -uroot -N -B --unbuffered crash \
        >> "$W/range-deleter.pos" 2> "$W/range-deleter.err" || true ) &
    pids+=($!)
    ( ddl_loop "$W/ddl.$cycle.log" || true ) &
    pids+=($!)
  fi
  sleep "$secs"
  srv_kill
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [ "${COMPRESS_CRASH_FAKE_ACK:-0}" = 1 ] && [ "$cycle" = 1 ]; then
    printf '1\t%d\n' $((cycle * 1000000 + 999999)) >> "$W/ack.$cycle.1"
  fi
  # Alternate redo logging of compressed page images.
  if [ "$logpages" = ON ]; then logpages=OFF; else logpages=ON; fi
  t0=$(date +%s.%N)
  if [ "$PAGECOMP" = 1 ]; then
    settings="doublewrite=$(pc_doublewrite "$cycle") sparse=$(pc_sparse "$cycle") punch_freed=$(pc_punch "$cycle")"
    if ! start_server "$logpages" "$cycle" may-fail; then
      # Nothing to check without a server: record it and stop the run.
      failed_starts=$((failed_starts + 1))
      echo "cycle $cycle: FAILED START (log_compressed_pages=$logpages $settings${CODECS:+ $(codec_opt "$cycle")}; see failed-starts.txt)" >> "$report"
      { echo "== cycle $cycle: log_compressed_pages=$logpages $settings${CODECS:+ $(codec_opt "$cycle")}; the last 20 lines of $W/mysqld.err:"
        tail -n 20 "$W/mysqld.err"; } >> "$W/failed-starts.txt"
      # A server still recovering when srv_start gave up: kill it, so
      # that srv_stop below does not wait for it.
      srv_kill
      log "cycle $cycle: the server did not start ($settings); run stopped, see $W/failed-starts.txt"
      break
    fi
  else
    start_server "$logpages" "$cycle"
  fi
  t1=$(date +%s.%N)
  line=$(verify)
  rec=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}')
  if [ "$PAGECOMP" = 1 ]; then
    read -r acked l8 l4 l1 lp lu rd bc lpl lpz pre bcp ce <<< "$line"
    echo "$cycle $logpages $secs $rec $acked $l8 $l4 $l1 $lp $lu $rd $bc $ce $(pc_doublewrite "$cycle") $(pc_sparse "$cycle") $(pc_punch "$cycle") $lpl $lpz $pre $bcp" >> "$report"
    lost=$((l8 + l4 + l1 + lp + lu + rd + lpl + lpz + pre))
    bad=$((bc + bcp + ce))
  else
    echo "$cycle $logpages $secs $rec $line" >> "$report"
    read -r acked l8 l4 l1 lp lu rd bc ce <<< "$line"
    lost=$((l8 + l4 + l1 + lp + lu + rd))
    bad=$((bc + ce))
  fi
  total_lost=$((total_lost + lost))
  total_bad=$((total_bad + bad))
  log "cycle $cycle: recovered in ${rec}s with innodb_log_compressed_pages=$logpages${CODECS:+ $(codec_opt "$cycle")}${settings:+ $settings}; $acked acknowledged transactions verified, $lost lost, $bad bad"
done
client -e "SELECT TABLE_NAME, PARTITION_NAME, KEY_BLOCK_SIZE, COMPRESS_OPS, COMPRESS_FAILURE_PCT
  FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'crash'" > "$W/compression_stats.txt" 2>/dev/null || true
srv_stop
if [ "$PAGECOMP" = 1 ]; then
  # acked: that of the last cycle verified (the acks table keeps them all);
  # ran: the cycles run, a failed start's included.
  summary="cycles $ran, acknowledged transactions verified $acked, lost $total_lost, bad $total_bad, failed starts $failed_starts"
else
  acked=$(tail -n 1 "$report" | awk '{print $5}')
  summary="cycles $cycles, acknowledged transactions verified $acked, lost $total_lost, bad $total_bad"
fi
echo "# $summary" >> "$report"
echo "$summary"
[ "$total_lost" -eq 0 ] && [ "$total_bad" -eq 0 ] && [ "$failed_starts" -eq 0 ]
