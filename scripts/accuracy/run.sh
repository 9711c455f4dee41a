#!/usr/bin/env bash
# Accuracy of the savings estimator (docs/estimator.md, "Accuracy and speed").
# For every data set (lib.sh load_set: spec, words, text, docs, random, small) it loads
# the tables into the local server (scripts/server.sh) and, for every table
# of more than 1 MB as it was loaded (not rebuilt first: a DBA compares the
# table as it is now with what it becomes):
#   1. estimates it with COMPRESSION_STATS_ESTIMATE() (default sample, then
#      'FULL');
#   2. builds a compressed copy per KEY_BLOCK_SIZE with ALTER TABLE ...
#      ROW_FORMAT=COMPRESSED (the way a DBA compresses a table) and counts
#      its pages;
#   3. compares CURRENT_SIZE_SAVINGS (the estimate of "size now vs size
#      after") with the copy against the table now, and reads the copy's
#      MEASURED SPACE_SAVINGS with the default sample and with 'FULL'.
# Pages are pages in use by the indexes, BLOB pages included. Output: Markdown on stdout,
# $OUT/accuracy.csv (one row per table and size).
# Usage: scripts/accuracy/run.sh [warehouses (1)] [sample_pages (128)]
#   COMPRESS_ACCURACY_SETS   data sets (default "spec words text docs random small")
#   COMPRESS_ACCURACY_SIZES  KEY_BLOCK_SIZEs (default "16 8 4 2 1")
#   COMPRESS_ACCURACY_MIN_MB tables at least this big (default 1)
#   COMPRESS_ACCURACY_RELOAD=0 reuse loaded schemas
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../common.sh"
W="${1:-1}"
SAMPLE="${2:-128}"
SETS="${COMPRESS_ACCURACY_SETS:-spec words text docs random small}"
SIZES="${COMPRESS_ACCURACY_SIZES:-16 8 4 2 1}"
. "$HERE/lib.sh"
acc_setup

# est DB TABLE KBS: CURRENT_SIZE_SAVINGS SPACE_SAVINGS INSERTED_SPACE_SAVINGS
# of the last estimate of the table at that size.
est() {
  sql -e "SELECT IFNULL(ROUND(CURRENT_SIZE_SAVINGS, 2), 'NULL'),
                 IFNULL(ROUND(SPACE_SAVINGS, 2), 'NULL'),
                 IFNULL(ROUND(INSERTED_SPACE_SAVINGS, 2), 'NULL')
          FROM information_schema.COMPRESSION_ESTIMATES
          WHERE TABLE_SCHEMA='$1' AND TABLE_NAME='$2' AND KEY_BLOCK_SIZE=$3"
}
# measured DB TABLE KBS SAMPLE: MEASURED SPACE_SAVINGS of a compressed table.
measured() {
  sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$1', '$2', $4)" >/dev/null
  sql -e "SELECT IFNULL(ROUND(SPACE_SAVINGS, 2), 'NULL')
          FROM information_schema.COMPRESSION_ESTIMATES
          WHERE TABLE_SCHEMA='$1' AND TABLE_NAME='$2' AND KEY_BLOCK_SIZE=$3"
}

csv="$OUT/accuracy.csv"
echo "set,table,kbs,used_pages,est_now,est_now_full,actual_now,est_ss,est_inserted,measured_ss,measured_ss_full,estimate_s,alter_s" > "$csv"
for set in $SETS; do
  db="acc_$set"
  if [ "${COMPRESS_ACCURACY_RELOAD:-1}" = 1 ] || [ -z "$(sql -e "SHOW DATABASES LIKE '$db'")" ]; then
    W="$W" load_set "$set" "$db"
  fi
  for t in $(sql -e "SELECT TABLE_NAME FROM information_schema.TABLES
                     WHERE TABLE_SCHEMA='$db' AND TABLE_NAME NOT LIKE '%\\_c%'
                     ORDER BY TABLE_NAME"); do
    used=$(used_pages "$db" "$t")
    if [ "$used" -lt "$MIN_PAGES" ]; then
      log "$db.$t: $used pages, below ${COMPRESS_ACCURACY_MIN_MB:-1} MB: skipped" >&2
      continue
    fi
    sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$db', '$t', 'FULL')" >/dev/null
    declare -A full=()
    for k in $SIZES; do
      read -r full[$k] _ _ < <(est "$db" "$t" "$k")
    done
    t0=$(now)
    sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$db', '$t', $SAMPLE)" >/dev/null
    t1=$(now)
    for k in $SIZES; do
      read -r enow ess eins < <(est "$db" "$t" "$k")
      c="${t}_c$k"
      sql "$db" -e "DROP TABLE IF EXISTS $c; CREATE TABLE $c LIKE $t;
                    ALTER TABLE $c ROW_FORMAT=DYNAMIC KEY_BLOCK_SIZE=0;
                    INSERT INTO $c SELECT * FROM $t"
      a0=$(now)
      if ! sql "$db" -e "ALTER TABLE $c ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=$k"; then
        # InnoDB refuses the size (a record does not fit, ER_TOO_BIG_ROWSIZE):
        # a row with no actual figures.
        sql "$db" -e "DROP TABLE $c"
        echo "$set,$t,$k,$used,$enow,${full[$k]},NULL,$ess,$eins,NULL,NULL,$(calc "$t1 - $t0"),NULL" >> "$csv"
        continue
      fi
      a1=$(now)
      cu=$(used_pages "$db" "$c")
      actual=$(calc "100 * (1 - $cu * $k / ($used * 16))")
      mss=$(measured "$db" "$c" "$k" "$SAMPLE")
      mssf=$(measured "$db" "$c" "$k" "'FULL'")
      sql "$db" -e "DROP TABLE $c"
      echo "$set,$t,$k,$used,$enow,${full[$k]},$actual,$ess,$eins,$mss,$mssf,$(calc "$t1 - $t0"),$(calc "$a1 - $a0")" >> "$csv"
    done
    log "$db.$t done" >&2
  done
done
python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
num = lambda v: None if v in ("NULL", "") else float(v)
print("| set | table | MB now | KB | est. size now→after | actual | diff | full-scan est. | SPACE_SAVINGS | key-ordered inserts | measured SS of copy: sample / FULL | estimate s | ALTER s |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
worst = 0.0
for r in rows:
    e, a = num(r["est_now"]), num(r["actual_now"])
    d = None if e is None or a is None else e - a
    if d is not None:
        worst = max(worst, abs(d))
    f = lambda v: "NULL" if num(v) is None else "%.1f" % num(v)
    print("| %s | %s | %.1f | %s | %s | %s | %s | %s | %s | %s | %s / %s | %.2f | %s |" % (
        r["set"], r["table"], float(r["used_pages"]) * 16 / 1024, r["kbs"], f(r["est_now"]),
        "refused" if a is None else "%.1f" % a,
        "NULL" if d is None else "%+.1f" % d, f(r["est_now_full"]), f(r["est_ss"]),
        f(r["est_inserted"]), f(r["measured_ss"]), f(r["measured_ss_full"]),
        float(r["estimate_s"]), f(r["alter_s"])))
print()
print("largest |estimate - actual|: %.1f points over %d table/size pairs" % (worst, len(rows)))
PY
