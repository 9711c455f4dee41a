#!/usr/bin/env bash
# What innodb_page_compression_sparse costs (issue 47; BENCHMARKS.md,
# "Page compression: sparse files"). On the file system of
# $COMPRESS_SERVER_DIR (scripts/loopfs.sh mounts XFS or ext4 images), for a
# page-compressed table (COMPRESSION='lz4') of SIZE_MB, each repetition
# and each setting of the variable (OFF, ON; the order alternates):
#   load   CREATE TABLE ... COMPRESSION='lz4' and INSERT ... SELECT of the
#          source table (uncompressed, SIZE_MB, loaded once): the time, and
#          the file's size and allocation (du) once its pages are written;
#   churn  DELETE of every other block of 1,000 rows (half the table), purge,
#          and one checkpoint: the pages the B-tree frees, punched with the
#          variable ON by the master thread; the time to the end of the
#          purge, the time until the pages noted are punched, the pages
#          freed and punched (counters), du and the file's extents after;
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
FS=$(stat -f -c %T "$COMPRESS_SERVER_DIR" | sed 's#ext2/ext3#ext4#')
OUT="${OUT:-$COMPRESS_ROOT/bench/results/sparse-cost-$FS-$(date +%Y%m%d)}"
mkdir -p "$OUT"
bash "$HERE/../scripts/server.sh" start >&2
DATADIR=$(sql -e "SELECT @@datadir")
sql -e "CREATE DATABASE IF NOT EXISTS sc"

# The source: ~400-byte rows of words and digests (lz4 keeps about half).
rows=$(( SIZE_MB * 1024 * 1024 / 520 ))
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
extents() { filefrag "$DATADIR/sc/t.ibd" | sed -n 's/.*: \([0-9]*\) extents\? found/\1/p'; }
wait_purge() {
  local i
  for ((i = 0; i < 600; i++)); do
    [ "$(sql -e "SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME='trx_rseg_history_len'")" -le 20 ] && return 0
    sleep 0.5
  done
}

csv="$OUT/sparse-cost.csv"
echo "rep,sparse,fs,size_mb,load_s,file_mb,alloc_after_load_mb,churn_s,punch_wait_s,pages_freed,pages_punched,alloc_after_churn_mb,extents,drop_s" > "$csv"
for ((rep = 1; rep <= REPS; rep++)); do
  order="OFF ON"; [ $((rep % 2)) = 0 ] && order="ON OFF"
  for sparse in $order; do
    sql -e "SET GLOBAL innodb_page_compression_sparse = $sparse;
            SET GLOBAL innodb_monitor_enable = 'module_file'"
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
    wait_purge
    t3=$(now)
    # A checkpoint passes the frees; the master thread punches within a second
    # or so of it: wait until the punched count stops moving.
    sql -e "SET GLOBAL innodb_log_checkpoint_now = ON" 2>/dev/null || sql sc -e "FLUSH TABLES t FOR EXPORT; UNLOCK TABLES"
    sql sc -e "FLUSH TABLES t FOR EXPORT; UNLOCK TABLES"
    last=-1
    for ((i = 0; i < 120; i++)); do
      p=$(counter file_sparse_pages_punched)
      [ "$p" = "$last" ] && [ "$sparse" = OFF -o "$p" != "$punched0" ] && break
      last=$p; sleep 1
    done
    t4=$(now)
    freed=$(( $(counter file_sparse_pages_freed) - freed0 ))
    punched=$(( $(counter file_sparse_pages_punched) - punched0 ))
    a2=$(alloc); ext=$(extents)
    sync
    t5=$(now)
    sql sc -e "DROP TABLE t"
    t6=$(now)
    row=$(awk -v r="$rep" -v s="$sparse" -v fs="$FS" -v mb="$SIZE_MB" -v t0="$t0" -v t1="$t1" \
      -v t2="$t2" -v t3="$t3" -v t4="$t4" -v t5="$t5" -v t6="$t6" -v fm="$file_mb" -v a1="$a1" \
      -v a2="$a2" -v fr="$freed" -v pu="$punched" -v ex="$ext" 'BEGIN {
        printf "%d,%s,%s,%d,%.2f,%s,%.1f,%.2f,%.2f,%d,%d,%.1f,%s,%.3f",
          r, s, fs, mb, t1 - t0, fm, a1 / 1048576, t3 - t2, t4 - t3, fr, pu, a2 / 1048576, ex, t6 - t5 }')
    echo "$row" >> "$csv"
    log "$row" >&2
  done
done
python3 - "$csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cols = ["load_s", "file_mb", "alloc_after_load_mb", "churn_s", "punch_wait_s", "pages_freed",
        "pages_punched", "alloc_after_churn_mb", "extents", "drop_s"]
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
