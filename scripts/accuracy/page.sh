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
#      same baseline. The whole file (du) is reported beside it: upstream
#      (and with innodb_page_compression_sparse=OFF) a rebuilt file also
#      keeps its free pages allocated, the same with and without
#      compression (the "file" columns, against an uncompressed rebuild);
#      with the variable ON they are holes, and du_ss, the whole file's
#      savings against the same baseline as the estimate, is what a DBA
#      compares with the estimate (du_diff the difference).
#   4. the whole file against what the estimate said it would be:
#      ALLOCATED_SIZE_SPARSE and ALLOCATED_SIZE_NOT_SPARSE (est_file_sparse,
#      est_file_not_sparse), the one of the server's setting against du
#      (scripts/accuracy/file-table.py).
# Output: Markdown on stdout, $OUT/page-accuracy.csv.
# Usage: scripts/accuracy/page.sh [warehouses (1)] [sample_pages (128)]
#   COMPRESS_ACCURACY_SETS   data sets (default "random spec dbt2 text docs")
#   COMPRESS_ACCURACY_MIN_MB tables at least this big (default 1)
#   COMPRESS_ACCURACY_RELOAD=0 reuse loaded schemas
#   COMPRESS_ACCURACY_ONLY   only the tables whose name matches this regex
#   COMPRESS_ACCURACY_KBS    also convert the copy to ROW_FORMAT=COMPRESSED
#                            at this KEY_BLOCK_SIZE (a row of its own: the
#                            file against ALLOCATED_SIZE_* of its estimate)
#   COMPRESS_ACCURACY_GROW_MB grow each table measured to at least this size
#                            first, doubling its rows (the first integer
#                            column of the primary key shifted past its
#                            maximum): the large tables of issue 47
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

# grow_table DB TABLE MB: double the rows of DB.TABLE until its pages in use
# reach MB, the first integer column of its primary key shifted past its
# maximum in each copy.
grow_table() {
  local pk cols off
  pk=$(sql -e "SELECT k.COLUMN_NAME FROM information_schema.KEY_COLUMN_USAGE k
               JOIN information_schema.COLUMNS c USING (TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME)
               WHERE k.TABLE_SCHEMA='$1' AND k.TABLE_NAME='$2' AND k.CONSTRAINT_NAME='PRIMARY'
                 AND c.DATA_TYPE IN ('int', 'bigint', 'smallint', 'mediumint')
               ORDER BY k.ORDINAL_POSITION LIMIT 1")
  [ -n "$pk" ] || die "$1.$2: no integer column in its primary key to grow it by"
  while [ "$(used_pages "$1" "$2")" -lt $(( $3 * 64 )) ]; do
    off=$(sql -e "SELECT MAX(\`$pk\`) FROM \`$1\`.\`$2\`")
    cols=$(sql -e "SELECT GROUP_CONCAT(IF(COLUMN_NAME = '$pk',
                     CONCAT('\`', COLUMN_NAME, '\` + $off'), CONCAT('\`', COLUMN_NAME, '\`'))
                     ORDER BY ORDINAL_POSITION)
                   FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='$1' AND TABLE_NAME='$2'")
    log "$1.$2: $(used_pages "$1" "$2") pages, doubling it" >&2
    sql "$1" -e "INSERT INTO \`$2\` SELECT $cols FROM \`$2\`"
  done
}

csv="$OUT/page-accuracy.csv"
SPARSE=$(sql -e "SELECT @@GLOBAL.innodb_page_compression_sparse")
FS=$(df --output=fstype "$DATADIR" | tail -1)
log "innodb_page_compression_sparse=$SPARSE, file system $FS" >&2
echo "set,table,method,uncompressed_bytes,est_bytes,est_ss,real_bytes,real_ss,diff_points,whole_pct,file_bytes_plain,file_alloc_plain,file_alloc,file_ss,estimate_s,sparse,fs,du_ss,du_diff,in_use_pages_plain,free_pages_plain,est_file_sparse,est_file_not_sparse" > "$csv"
printf '| data | table | method | estimated savings | real savings (pages in use) | difference | whole file (du) savings | difference | pages whole (est.) | file on disk: uncompressed rebuild -> converted |\n'
printf '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n'
for set in $SETS; do
  db="pacc_$set"
  if [ "${COMPRESS_ACCURACY_RELOAD:-1}" = 1 ] || [ -z "$(sql -e "SHOW DATABASES LIKE '$db'")" ]; then
    W="$W" load_set "$set" "$db"
  fi
  for t in $(sql -e "SELECT TABLE_NAME FROM information_schema.TABLES
                     WHERE TABLE_SCHEMA='$db' AND TABLE_NAME NOT LIKE '%\\_pc%'
                     AND TABLE_NAME REGEXP '${COMPRESS_ACCURACY_ONLY:-.}'
                     ORDER BY TABLE_NAME"); do
    if [ -n "${COMPRESS_ACCURACY_GROW_MB:-}" ]; then
      grow_table "$db" "$t" "$COMPRESS_ACCURACY_GROW_MB"
    fi
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
    for method in zlib lz4 ${COMPRESS_ACCURACY_KBS:+kbs}; do
      if [ "$method" = kbs ]; then
        M="KEY_BLOCK_SIZE=$COMPRESS_ACCURACY_KBS"
        alter="COMPRESSION='none' ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=$COMPRESS_ACCURACY_KBS"
      else
        M=$(echo "PAGE_$method" | tr a-z A-Z)
        alter="COMPRESSION='$method'"
      fi
      read -r ubytes ebytes ess whole efs efn < <(sql -e "
        SELECT UNCOMPRESSED_BYTES, IFNULL(ESTIMATED_BYTES, 'NULL'),
               IFNULL(ROUND(SPACE_SAVINGS, 2), 'NULL'),
               IFNULL(ROUND(ESTIMATED_FAILURE_PCT, 1), 'NULL'),
               IFNULL(ALLOCATED_SIZE_SPARSE, 'NULL'),
               IFNULL(ALLOCATED_SIZE_NOT_SPARSE, 'NULL')
        FROM information_schema.COMPRESSION_ESTIMATES
        WHERE TABLE_SCHEMA='$db' AND TABLE_NAME='$t' AND METHOD='$M'")
      sql "$db" -e "ALTER TABLE $c $alter; OPTIMIZE TABLE $c" >/dev/null
      sync
      conv=$(ibd "$db" "$c")
      real=$(field in_use_bytes "$conv")
      read -r rss diff fss dss ddiff < <(awk -v u="$ubytes" -v r="$real" -v e="$ess" \
          -v fa="$(field allocated_bytes "$conv")" \
          -v fp="$(field allocated_bytes "$plain")" 'BEGIN {
            rs = 100 * (1 - r / u);
            d = (e == "NULL") ? "NULL" : sprintf("%+.2f", e - rs);
            ds = 100 * (1 - fa / u);
            dd = (e == "NULL") ? "NULL" : sprintf("%+.2f", e - ds);
            printf "%.2f %s %.1f %.2f %s\n", rs, d, 100 * (1 - fa / fp), ds, dd }')
      echo "$set,$t,$M,$ubytes,$ebytes,$ess,$real,$rss,$diff,$whole,$(field file_bytes "$plain"),$(field allocated_bytes "$plain"),$(field allocated_bytes "$conv"),$fss,$secs,$SPARSE,$FS,$dss,$ddiff,$(field in_use_pages "$plain"),$(field free_pages "$plain"),$efs,$efn" >> "$csv"
      printf '| %s | %s | %s | %s %% | %s %% | %s | %s %% | %s | %s %% | %.1f -> %.1f MB (%s %%) |\n' \
        "$set" "$t" "$M" "$ess" "$rss" "$diff" "$dss" "$ddiff" "$whole" \
        "$(awk -v b="$(field allocated_bytes "$plain")" 'BEGIN { print b / 1048576 }')" \
        "$(awk -v b="$(field allocated_bytes "$conv")" 'BEGIN { print b / 1048576 }')" "-$fss"
    done
    sql "$db" -e "DROP TABLE $c"
  done
done
log "CSV: $csv" >&2
