#!/usr/bin/env bash
# Speed of the savings estimator against ALTER TABLE (README.md, "Estimator
# speed"). Usage: scripts/accuracy/speed.sh [stock|docs] [copies]
#   stock  N copies (default 30, about 1.2 GiB) of the TPC-C-like stock table
#          of the spec set, one per warehouse id: in-page rows, 1 index;
#   docs   N copies (default 80, about 1.1 GiB) of the English documents of
#          the docs set (8-64 KB bodies stored off-page), ids renumbered.
# It rebuilds the big table uncompressed, then times COMPRESSION_STATS_ESTIMATE()
# with the default sample (128) and a larger one (1024), and ALTER TABLE ...
# ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 on the same table; the ALTER's actual
# savings are measured on the copy (a sample of 1024 pages; a full scan of a
# compressed 1 GB table takes over ten minutes here). Output:
# $OUT/speed-<set>.csv and a Markdown table on stdout. Needs
# scripts/accuracy/run.sh to have loaded the set (schema acc_spec / acc_docs).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../common.sh"
SET="${1:-stock}"
case "$SET" in
  stock) DB=acc_spec; N="${2:-30}" ;;
  docs)  DB=acc_docs; N="${2:-80}" ;;
  *) echo "usage: $0 [stock|docs] [copies]" >&2; exit 2 ;;
esac
OUT="${COMPRESS_ACCURACY_OUT:-$COMPRESS_CACHE_DIR/accuracy}"
mkdir -p "$OUT"
CSV="$OUT/speed-$SET.csv"
sql() { bash "$HERE/../server.sh" client -N -B "$DB" "$@"; }
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }

bash "$HERE/../server.sh" start >&2
if [ "$SET" = stock ]; then
  sql -e "DROP TABLE IF EXISTS big; CREATE TABLE big LIKE stock"
  for w in $(seq 1 "$N"); do
    sql -e "INSERT INTO big SELECT s_i_id, $w, s_quantity, s_dist_01,
      s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07,
      s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data
      FROM stock WHERE s_w_id = 1"
  done
else
  sql -e "DROP TABLE IF EXISTS big; CREATE TABLE big LIKE text_blob"
  max=$(sql -e "SELECT MAX(id) FROM text_blob")
  for c in $(seq 0 $((N - 1))); do
    sql -e "INSERT INTO big SELECT id + $c * $max, title, body FROM text_blob"
  done
fi
sql -e "ALTER TABLE big FORCE"
bytes=$(sql -e "SELECT FILE_SIZE FROM information_schema.INNODB_TABLESPACES WHERE NAME = '$DB/big'")
log "$DB.big: $bytes bytes" >&2

est() { sql -e "SELECT $1 FROM information_schema.COMPRESSION_ESTIMATES WHERE TABLE_SCHEMA = '$DB' AND TABLE_NAME = 'big' AND KEY_BLOCK_SIZE = 8"; }
echo "what,seconds,ss_8" > "$CSV"
for s in 128 1024; do
  t0=$(now); sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$DB', 'big', $s)" >/dev/null; t1=$(now)
  echo "estimate sample $s,$(calc "$t1 - $t0"),$(est SPACE_SAVINGS)" >> "$CSV"
done
t0=$(now); sql -e "ALTER TABLE big ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8"; t1=$(now)
sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$DB', 'big', 1024)" >/dev/null
echo "ALTER TABLE ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8,$(calc "$t1 - $t0"),$(est SPACE_SAVINGS)" >> "$CSV"
sql -e "DROP TABLE big"
echo "$SET: $bytes bytes ($(calc "$bytes / 1073741824") GiB), $N copies"
echo
echo "| run | seconds | SS at 8K |"
echo "|---|---:|---:|"
tail -n +2 "$CSV" | awk -F, '{ printf "| %s | %s | %.1f |\n", $1, $2, $3 }'
