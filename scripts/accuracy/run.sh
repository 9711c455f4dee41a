#!/usr/bin/env bash
# Accuracy of the savings estimator (README.md, "Estimator accuracy"):
# loads a TPC-C-like database (W warehouses, default 1) and a table of
# natural-language text into the local server (scripts/server.sh), rebuilds
# every table uncompressed, estimates it with COMPRESSION_STATS_ESTIMATE(),
# then builds compressed copies at 8 KB and 4 KB with ALTER TABLE (the way a
# DBA compresses a table) and compares the estimated space savings with the
# savings of the real copies. Pages are pages in use by the B-trees.
# Output: Markdown table on stdout and $OUT/accuracy.csv.
# Usage: scripts/accuracy/run.sh [warehouses] [sample_pages]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../common.sh"
W="${1:-1}"
SAMPLE="${2:-128}"
OUT="${COMPRESS_ACCURACY_OUT:-$COMPRESS_CACHE_DIR/accuracy}"
mkdir -p "$OUT"
DB=acc
. "$HERE/lib.sh"

bash "$HERE/../server.sh" start >&2
if [ "${COMPRESS_ACCURACY_RELOAD:-1}" = 1 ]; then
  log "loading $W warehouse(s) and the text table into schema $DB" >&2
  sql -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB"
  sql "$DB" < "$HERE/tpcc_schema.sql"
  sql "$DB" < "$HERE/tpcc_load.sql"
  sql "$DB" -e "CALL tpcc_load($W)"
  sql "$DB" -e "CREATE TABLE text_doc (id INT AUTO_INCREMENT PRIMARY KEY,
    source VARCHAR(64) NOT NULL, body TEXT NOT NULL, KEY (source))"
  python3 "$HERE/text_corpus.py" "$SRC_DIR" 2>&2 | sql "$DB"
fi
TABLES="warehouse district customer history new_orders orders order_line item stock text_doc"

echo "table,uncompressed_pages,est_ss_8,actual_ss_8,est_ss_4,actual_ss_4,estimate_s,alter8_s,alter4_s,sampled_pages,leaf_pages" > "$OUT/accuracy.csv"
for t in $TABLES; do
  sql "$DB" -e "ALTER TABLE $t FORCE"
  t0=$(now)
  sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$DB', '$t', $SAMPLE)" >/dev/null
  t1=$(now)
  read -r used e8 e4 sp lp < <(sql -e "SELECT MAX(USED_PAGES),
      MAX(IF(KEY_BLOCK_SIZE=8, SPACE_SAVINGS, NULL)),
      MAX(IF(KEY_BLOCK_SIZE=4, SPACE_SAVINGS, NULL)),
      MAX(SAMPLED_PAGES), MAX(LEAF_PAGES)
      FROM information_schema.COMPRESSION_ESTIMATES
      WHERE TABLE_SCHEMA='$DB' AND TABLE_NAME='$t'")
  declare -A act secs
  for k in 8 4; do
    sql "$DB" -e "DROP TABLE IF EXISTS ${t}_c$k; CREATE TABLE ${t}_c$k LIKE $t;
                  INSERT INTO ${t}_c$k SELECT * FROM $t"
    a0=$(now)
    sql "$DB" -e "ALTER TABLE ${t}_c$k ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=$k"
    a1=$(now)
    secs[$k]=$(calc "$a1 - $a0")
    cu=$(used_pages "$DB" "${t}_c$k")
    act[$k]=$(calc "100 * (1 - $cu * $k / ($used * 16))")
    sql "$DB" -e "DROP TABLE ${t}_c$k"
  done
  echo "$t,$used,$e8,${act[8]},$e4,${act[4]},$(calc "$t1 - $t0"),${secs[8]},${secs[4]},$sp,$lp" >> "$OUT/accuracy.csv"
  log "$t done" >&2
done
python3 - "$OUT/accuracy.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| table | uncompressed MB | est. SS 8K | actual SS 8K | diff | est. SS 4K | actual SS 4K | diff | estimate s | ALTER 8K s |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for r in rows:
    f = lambda k: float(r[k])
    print("| %s | %.1f | %.1f | %.1f | %+.1f | %.1f | %.1f | %+.1f | %.2f | %.2f |" % (
        r["table"], f("uncompressed_pages") * 16 / 1024, f("est_ss_8"), f("actual_ss_8"),
        f("est_ss_8") - f("actual_ss_8"), f("est_ss_4"), f("actual_ss_4"),
        f("est_ss_4") - f("actual_ss_4"), f("estimate_s"), f("alter8_s")))
PY
