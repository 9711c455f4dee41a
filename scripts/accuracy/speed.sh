#!/usr/bin/env bash
# Speed of the savings estimator against ALTER TABLE (README.md, "Estimator
# speed"): builds acc.stock_big, N copies of the TPC-C-like stock table of
# scripts/accuracy/run.sh (one per warehouse id; default 30, about 1.1 GB),
# rebuilds it uncompressed, then times COMPRESSION_STATS_ESTIMATE() with the
# default sample and a larger one, and ALTER TABLE ... ROW_FORMAT=COMPRESSED
# KEY_BLOCK_SIZE=8 on the same table. Output: $OUT/speed.csv and a Markdown
# table on stdout. Needs scripts/accuracy/run.sh to have loaded schema acc.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../common.sh"
N="${1:-30}"
OUT="${COMPRESS_ACCURACY_OUT:-$COMPRESS_CACHE_DIR/accuracy}"
mkdir -p "$OUT"
sql() { bash "$HERE/../server.sh" client -N -B acc "$@"; }
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }

bash "$HERE/../server.sh" start >&2
sql -e "DROP TABLE IF EXISTS stock_big; CREATE TABLE stock_big LIKE stock"
for w in $(seq 1 "$N"); do
  sql -e "INSERT INTO stock_big SELECT s_i_id, $w, s_quantity, s_dist_01,
    s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08,
    s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data FROM stock
    WHERE s_w_id = 1"
done
sql -e "ALTER TABLE stock_big FORCE"
bytes=$(sql -e "SELECT FILE_SIZE FROM information_schema.INNODB_TABLESPACES WHERE NAME = 'acc/stock_big'")
log "stock_big: $bytes bytes" >&2

echo "what,seconds,ss_8" > "$OUT/speed.csv"
for s in 128 1024; do
  t0=$(now); sql -e "SELECT COMPRESSION_STATS_ESTIMATE('acc', 'stock_big', $s)" >/dev/null; t1=$(now)
  ss=$(sql -e "SELECT SPACE_SAVINGS FROM information_schema.COMPRESSION_ESTIMATES WHERE TABLE_NAME = 'stock_big' AND KEY_BLOCK_SIZE = 8")
  used=$(sql -e "SELECT USED_PAGES FROM information_schema.COMPRESSION_ESTIMATES WHERE TABLE_NAME = 'stock_big' AND KEY_BLOCK_SIZE = 8")
  echo "estimate sample $s,$(calc "$t1 - $t0"),$ss" >> "$OUT/speed.csv"
done
t0=$(now); sql -e "ALTER TABLE stock_big ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8"; t1=$(now)
sql -e "SELECT COMPRESSION_STATS_ESTIMATE('acc', 'stock_big', 1)" >/dev/null
cu=$(sql -e "SELECT USED_PAGES FROM information_schema.COMPRESSION_ESTIMATES WHERE TABLE_NAME = 'stock_big' AND KEY_BLOCK_SIZE = 8")
echo "ALTER TABLE ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8,$(calc "$t1 - $t0"),$(calc "100 * (1 - $cu * 8 / ($used * 16))")" >> "$OUT/speed.csv"
sql -e "DROP TABLE stock_big"
echo "table: $bytes bytes ($(calc "$bytes / 1073741824") GiB), $N copies of stock"
echo
echo "| run | seconds | SS at 8K |"
echo "|---|---:|---:|"
tail -n +2 "$OUT/speed.csv" | awk -F, '{ printf "| %s | %s | %.1f |\n", $1, $2, $3 }'
