#!/usr/bin/env bash
# What innodb_page_compression_sparse costs (issue 47; BENCHMARKS.md,
# "Page compression: sparse files"). On the file system of
# $COMPRESS_SERVER_DIR (scripts/loopfs.sh mounts XFS or ext4 images), for a
# page-compressed table (COMPRESSION='lz4') of SIZE_MB, each repetition
# and each setting of the variable (OFF, ON; the order alternates):
#   load   CREATE TABLE ... COMPRESSION='lz4' and INSERT ... SELECT of the
#          source table (uncompressed, SIZE_MB, loaded once): the time, and
#          the file's size and allocation (du) once its pages are written;
#   churn  DELETE of every other block of 1,000 rows (half the table): the
#          statement's time and the purge's (the pages the B-tree frees are
#          noted by the free paths with the variable ON); then the time until
#          the master thread has punched every page noted (a checkpoint has
#          to pass the frees first), the pages freed and punched (counters),
#          du and the file's extents (FIEMAP, filefrag -v) after;
#   refill the deleted rows inserted again: their pages are written into
#          the punched ranges, which need blocks again (the write path's
#          cost of the holes), and du after;
#   drop   DROP TABLE: the time (the file's extents are what a file system
#          has to free; hole-punched files were reported slow to unlink on
#          XFS).
# Output: $OUT/sparse-cost.csv (one row per repetition and setting) and a
# Markdown table of the medians on stdout.
# Usage: bench/sparse-cost.sh [SIZE_MB (1024)] [REPS (3)]
#   COMPRESS_SERVER_DIR  the server's directory (default $COMPRESS_CACHE_DIR/sparse-server)
#   OUT                  results (default bench/results/sparse-cost-<fs>-<date>)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../scripts/common.sh"
SIZE_MB="${1:-1024}"
REPS="${2:-3}"
export COMPRESS_SERVER_DIR="${COMPRESS_SERVER_DIR:-$COMPRESS_CACHE_DIR/sparse-server}"
export COMPRESS_SERVER_OPTS="${COMPRESS_SERVER_OPTS:---innodb-buffer-pool-size=512M --innodb-redo-log-capacity=1G}"
# sql, now
. "$HERE/../scripts/server-lib.sh"
mkdir -p "$COMPRESS_SERVER_DIR"
FS=$(df --output=fstype "$COMPRESS_SERVER_DIR" | tail -1)
OUT="${OUT:-$COMPRESS_ROOT/bench/results/sparse-cost-$FS-$(date +%Y%m%d)}"
mkdir -p "$OUT"
bash "$HERE/../scripts/server.sh" start >&2
DATADIR=$(sql -e "SELECT @@datadir")
sql -e "CREATE DATABASE IF NOT EXISTS sc"

# The source: rows of words and digests, about 330 bytes a row in the
# table (lz4 keeps about half).
rows=$(( SIZE_MB * 1024 * 1024 / 330 ))
have=$(sql -e "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA='sc' AND TABLE_NAME='src'")
if [ "$have" = 0 ] || [ "$(sql -e "SELECT COUNT(*) FROM sc.src")" -lt "$rows" ]; then
  log "loading sc.src: $rows rows" >&2
  sql sc -e "DROP TABLE IF EXISTS src;
    CREATE TABLE src (id INT PRIMARY KEY, k INT NOT NULL, body VARCHAR(500) NOT NULL)"
  for ((lo = 0; lo < rows; lo += 200000)); do
    sql sc -e "SET SESSION cte_max_recursion_depth = 300000;
      INSERT INTO src WITH RECURSIVE s(n) AS
        (SELECT $lo UNION ALL SELECT n + 1 FROM s WHERE n < LEAST($lo + 199999, $rows - 1))
      SELECT n, n % 1009, CONCAT(ELT(1 + n % 5, 'order ', 'invoice ', 'shipment ', 'return ', 'payment '),
             n, ' of customer ', n % 7919, ' at ', ELT(1 + n % 4, 'Berlin', 'Lyon', 'Porto', 'Oslo'), ': ',
             REPEAT(ELT(1 + n % 3, 'paid in full, delivered on time; ', 'partly delivered, balance open; ',
                        'cancelled by the customer; '), 4),
             SHA2(n, 256), ' ', LEFT(SHA2(n + 1, 256), 40)) FROM s"
  done
fi

# counter NAME: value of an INNODB_METRICS counter.
counter() { sql -e "SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME='$1'"; }
# alloc: st_blocks*512 of the table's file; extents: its FIEMAP extents.
alloc() { stat -c '%b %B' "$DATADIR/sc/t.ibd" | awk '{ print $1 * $2 }'; }
extents() { filefrag -v "$DATADIR/sc/t.ibd" | grep -c '^ *[0-9][0-9]*:'; }
# wait_purge: until the history list is empty (the DELETE is one
# transaction, one entry: it leaves the list once purged) and the purge's
# count of deleted records purged has stopped moving for a second.
wait_purge() {
  local i last=-1 n
  for ((i = 0; i < 1200; i++)); do
    n=$(sql -e "SELECT SUM(COUNT) FROM information_schema.INNODB_METRICS WHERE NAME IN ('trx_rseg_history_len', 'purge_del_mark_records')")
    if [ "$(sql -e "SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME='trx_rseg_history_len'")" = 0 ] &&
       [ "$n" = "$last" ]; then
      return 0
    fi
    last=$n; sleep 1
  done
}

csv="$OUT/sparse-cost.csv"
echo "rep,sparse,fs,size_mb,load_s,file_mb,alloc_after_load_mb,delete_s,purge_s,punch_wait_s,pages_freed,pages_punched,alloc_after_churn_mb,extents,refill_s,alloc_after_refill_mb,drop_s" > "$csv"
for ((rep = 1; rep <= REPS; rep++)); do
  order="OFF ON"; [ $((rep % 2)) = 0 ] && order="ON OFF"
  for sparse in $order; do
    sql -e "SET GLOBAL innodb_page_compression_sparse = $sparse;
            SET GLOBAL innodb_monitor_enable = 'module_file';
            SET GLOBAL innodb_monitor_enable = 'module_purge'"
    sql sc -e "DROP TABLE IF EXISTS t"
    t0=$(now)
    sql sc -e "CREATE TABLE t LIKE src; ALTER TABLE t COMPRESSION='lz4'; INSERT INTO t SELECT * FROM src"
    t1=$(now)
    sql sc -e "FLUSH TABLES t FOR EXPORT; UNLOCK TABLES"
    file_mb=$(stat -c %s "$DATADIR/sc/t.ibd" | awk '{ printf "%.1f", $1 / 1048576 }')
    a1=$(alloc)
    freed0=$(counter file_sparse_pages_freed); punched0=$(counter file_sparse_pages_punched)
    t2=$(now)
    sql sc -e "DELETE FROM t WHERE id DIV 1000 % 2 = 1"
    td=$(now)
    wait_purge
    t3=$(now)
    # A checkpoint passes the frees (the page cleaner flushes the pages,
    # FLUSH ... FOR EXPORT here), then the master thread punches at most
    # 4,096 pages a second: wait until every page noted is punched.
    sql sc -e "FLUSH TABLES t FOR EXPORT; UNLOCK TABLES"
    freed=$(( $(counter file_sparse_pages_freed) - freed0 ))
    for ((i = 0; i < 300 && freed > 0; i++)); do
      [ $(( $(counter file_sparse_pages_punched) - punched0 )) -ge "$freed" ] && break
      sleep 0.5
    done
    t4=$(now)
    punched=$(( $(counter file_sparse_pages_punched) - punched0 ))
    a2=$(alloc); ext=$(extents)
    t7=$(now)
    sql sc -e "INSERT INTO t SELECT * FROM src WHERE id DIV 1000 % 2 = 1; FLUSH TABLES t FOR EXPORT; UNLOCK TABLES"
    t8=$(now)
    a3=$(alloc)
    sync
    t5=$(now)
    sql sc -e "DROP TABLE t"
    t6=$(now)
    row=$(awk -v r="$rep" -v s="$sparse" -v fs="$FS" -v mb="$SIZE_MB" -v t0="$t0" -v t1="$t1" \
      -v t2="$t2" -v td="$td" -v t3="$t3" -v t4="$t4" -v t5="$t5" -v t6="$t6" -v t7="$t7" -v t8="$t8" \
      -v fm="$file_mb" -v a1="$a1" -v a2="$a2" -v a3="$a3" -v fr="$freed" -v pu="$punched" -v ex="$ext" 'BEGIN {
        printf "%d,%s,%s,%d,%.2f,%s,%.1f,%.2f,%.2f,%.2f,%d,%d,%.1f,%s,%.2f,%.1f,%.3f",
          r, s, fs, mb, t1 - t0, fm, a1 / 1048576, td - t2, t3 - td, t4 - t3, fr, pu, a2 / 1048576, ex,
          t8 - t7, a3 / 1048576, t6 - t5 }')
    echo "$row" >> "$csv"
    log "$row" >&2
  done
done
python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cols = ["load_s", "file_mb", "alloc_after_load_mb", "delete_s", "purge_s", "punch_wait_s",
        "pages_freed", "pages_punched", "alloc_after_churn_mb", "extents", "refill_s",
        "alloc_after_refill_mb", "drop_s"]
print("| sparse | reps | " + " | ".join(cols) + " |")
print("| --- | ---: |" + " ---: |" * len(cols))
for s in ("OFF", "ON"):
    rs = [r for r in rows if r["sparse"] == s]
    if not rs:
        continue
    med = [statistics.median(float(r[c]) for r in rs) for c in cols]
    spread = [max(float(r[c]) for r in rs) - min(float(r[c]) for r in rs) for c in cols]
    print(f"| {s} | {len(rs)} | " + " | ".join(f"{m:g} (±{d / 2:g})" for m, d in zip(med, spread)) + " |")
PY
log "CSV: $csv" >&2
