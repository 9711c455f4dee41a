#!/usr/bin/env bash
# Accuracy of the page compression estimate (docs/estimates.md, "Page
# compression"; issue 30). For every data set (lib.sh load_set) and every
# table of more than 1 MB it:
#   1. estimates the table with COMPRESSION_STATS_ESTIMATE() (default
#      sample): SPACE_SAVINGS of the PAGE_ZLIB and PAGE_LZ4 rows of
#      COMPRESSION_ESTIMATES, against the records in full pages
#      (UNCOMPRESSED_BYTES);
#   2. converts a copy the way a DBA does: ALTER TABLE ... COMPRESSION=...;
#      OPTIMIZE TABLE (the rebuild that compresses the pages written before);
#   3. measures what the copy's file really occupies: the blocks allocated
#      to its B-tree and BLOB pages, page by page (mysql-test/suite/compress/
#      include/ibd_alloc.py: SEEK_DATA
#      and SEEK_HOLE, what du counts), and the savings they give against the
#      same baseline. The whole file (du) is reported beside it: a rebuilt
#      file also keeps free pages allocated, the same with and without
#      compression (the "file" columns, against an uncompressed rebuild).
# Output: Markdown on stdout, $OUT/page-accuracy.csv.
# Usage: scripts/accuracy/page.sh [warehouses (1)] [sample_pages (128)]
#   COMPRESS_ACCURACY_SETS   data sets (default "random spec dbt2 text docs")
#   COMPRESS_ACCURACY_MIN_MB tables at least this big (default 1)
#   COMPRESS_ACCURACY_RELOAD=0 reuse loaded schemas
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../common.sh"
W="${1:-1}"
SAMPLE="${2:-128}"
SETS="${COMPRESS_ACCURACY_SETS:-random spec dbt2 text docs}"
. "$HERE/lib.sh"
acc_setup
DATADIR=$(sql -e "SELECT @@datadir")

# ibd DB TABLE: ibd_alloc.py's figures of the table's file.
ibd() { python3 "$COMPRESS_ROOT/mysql-test/suite/compress/include/ibd_alloc.py" "$DATADIR/$1/$2.ibd"; }
# field NAME "k=v k=v ...": the value of NAME.
field() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }

csv="$OUT/page-accuracy.csv"
echo "set,table,method,uncompressed_bytes,est_bytes,est_ss,real_bytes,real_ss,diff_points,whole_pct,file_bytes_plain,file_alloc_plain,file_alloc,file_ss,estimate_s" > "$csv"
printf '| data | table | method | estimated savings | real savings (pages in use) | difference | pages whole (est.) | file on disk: uncompressed rebuild -> converted |\n'
printf '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |\n'
for set in $SETS; do
  db="pacc_$set"
  if [ "${COMPRESS_ACCURACY_RELOAD:-1}" = 1 ] || [ -z "$(sql -e "SHOW DATABASES LIKE '$db'")" ]; then
    W="$W" load_set "$set" "$db"
  fi
  for t in $(sql -e "SELECT TABLE_NAME FROM information_schema.TABLES
                     WHERE TABLE_SCHEMA='$db' AND TABLE_NAME NOT LIKE '%\\_pc%'
                     ORDER BY TABLE_NAME"); do
    used=$(used_pages "$db" "$t")
    if [ "$used" -lt "$MIN_PAGES" ]; then
      log "$db.$t: $used pages, below ${COMPRESS_ACCURACY_MIN_MB:-1} MB: skipped" >&2
      continue
    fi
    t0=$(now)
    sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$db', '$t', $SAMPLE)" >/dev/null
    t1=$(now)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    # The copy rebuilt uncompressed: the file a conversion starts from.
    c="${t}_pc"
    sql "$db" -e "DROP TABLE IF EXISTS $c; CREATE TABLE $c LIKE $t;
                  INSERT INTO $c SELECT * FROM $t; OPTIMIZE TABLE $c" >/dev/null
    plain=$(ibd "$db" "$c")
    for method in zlib lz4; do
      M=$(echo "PAGE_$method" | tr a-z A-Z)
      read -r ubytes ebytes ess whole < <(sql -e "
        SELECT UNCOMPRESSED_BYTES, IFNULL(ESTIMATED_BYTES, 'NULL'),
               IFNULL(ROUND(SPACE_SAVINGS, 2), 'NULL'),
               IFNULL(ROUND(ESTIMATED_FAILURE_PCT, 1), 'NULL')
        FROM information_schema.COMPRESSION_ESTIMATES
        WHERE TABLE_SCHEMA='$db' AND TABLE_NAME='$t' AND METHOD='$M'")
      sql "$db" -e "ALTER TABLE $c COMPRESSION='$method'; OPTIMIZE TABLE $c" >/dev/null
      sync
      conv=$(ibd "$db" "$c")
      real=$(field in_use_bytes "$conv")
      read -r rss diff fss < <(awk -v u="$ubytes" -v r="$real" -v e="$ess" \
          -v fa="$(field allocated_bytes "$conv")" \
          -v fp="$(field allocated_bytes "$plain")" 'BEGIN {
            rs = 100 * (1 - r / u);
            d = (e == "NULL") ? "NULL" : sprintf("%+.2f", e - rs);
            printf "%.2f %s %.1f\n", rs, d, 100 * (1 - fa / fp) }')
      echo "$set,$t,$M,$ubytes,$ebytes,$ess,$real,$rss,$diff,$whole,$(field file_bytes "$plain"),$(field allocated_bytes "$plain"),$(field allocated_bytes "$conv"),$fss,$secs" >> "$csv"
      printf '| %s | %s | %s | %s %% | %s %% | %s | %s %% | %.1f -> %.1f MB (%s %%) |\n' \
        "$set" "$t" "$M" "$ess" "$rss" "$diff" "$whole" \
        "$(awk -v b="$(field allocated_bytes "$plain")" 'BEGIN { print b / 1048576 }')" \
        "$(awk -v b="$(field allocated_bytes "$conv")" 'BEGIN { print b / 1048576 }')" "-$fss"
    done
    sql "$db" -e "DROP TABLE $c"
  done
done
log "CSV: $csv" >&2
