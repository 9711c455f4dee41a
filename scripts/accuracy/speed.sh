#!/usr/bin/env bash
# Speed of the savings estimator against ALTER TABLE (docs/benchmarks/estimator.md 8b).
# Usage: scripts/accuracy/speed.sh [stock|docs] [copies]
#   stock  N copies (default 30, about 1.2 GiB) of the TPC-C-like stock table
#          of the spec set, one per warehouse id: in-page rows, 1 index;
#   docs   N copies (default: as many as make about 1.1 GiB; the corpus of
#          text_corpus.py depends on the source tree: 22 copies of 56 MB
#          on 2026-11-27) of the English documents of the docs set (8-64 KB
#          bodies stored off-page), ids renumbered.
# It rebuilds the big table uncompressed, then, for each codec and
# repetition (interleaved), times COMPRESSION_STATS_ESTIMATE() with the
# default sample (128) and a larger one (1024), and ALTER TABLE ...
# ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 on the same table; the ALTER's
# actual savings are measured on the copy (a sample of 1024 pages; a full
# scan of a compressed 1 GB table takes over ten minutes here), which is
# then rebuilt uncompressed (not timed) for the next round.
#   COMPRESS_SPEED_CODECS  innodb_compression_codec values to compare,
#                          e.g. "zlib isal" (default: the server's own, as
#                          it runs)
#   COMPRESS_SPEED_REPS    repetitions of each codec (default 1)
# Output: $OUT/speed-<set>.csv (one row per codec, repetition and run) and a
# Markdown table of the medians on stdout. Loads the data set (schema
# acc_spec / acc_docs, 1 warehouse) if scripts/accuracy/run.sh has not.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../common.sh"
. "$COMPRESS_ROOT/scripts/server-lib.sh"
SET="${1:-stock}"
case "$SET" in
  stock) DB=acc_spec; N="${2:-30}"; SRC=stock; DATASET=spec ;;
  docs)  DB=acc_docs; N="${2:-}"; SRC=text_blob; DATASET=docs ;;
  *) echo "usage: $0 [stock|docs] [copies]" >&2; exit 2 ;;
esac
REPS="${COMPRESS_SPEED_REPS:-1}"
OUT="${COMPRESS_ACCURACY_OUT:-$COMPRESS_CACHE_DIR/accuracy}"
mkdir -p "$OUT"
CSV="$OUT/speed-$SET.csv"
calc2() { awk "BEGIN { printf \"%.2f\", $1 }"; }

bash "$HERE/../server.sh" start >&2
sql -e "INSTALL PLUGIN compression_stats SONAME 'compression_stats.so'" 2>/dev/null || true
CODECS="${COMPRESS_SPEED_CODECS:-$(sql -e "SELECT @@GLOBAL.innodb_compression_codec")}"
for c in $CODECS; do
  case "$c" in zlib|isal) ;; *) die "unknown codec '$c' (zlib or isal)" ;; esac
done
if [ "$(sql -e "SELECT COUNT(*) FROM information_schema.TABLES
                WHERE TABLE_SCHEMA = '$DB' AND TABLE_NAME = '$SRC'")" != 1 ]; then
  load_set "$DATASET" "$DB"
fi
if [ "$SET" = stock ]; then
  sql "$DB" -e "DROP TABLE IF EXISTS big; CREATE TABLE big LIKE stock"
  for w in $(seq 1 "$N"); do
    sql "$DB" -e "INSERT INTO big SELECT s_i_id, $w, s_quantity, s_dist_01,
      s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07,
      s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, s_remote_cnt, s_data
      FROM stock WHERE s_w_id = 1"
  done
else
  if [ -z "$N" ]; then
    one=$(sql "$DB" -e "SELECT SUM(LENGTH(body)) FROM text_blob")
    N=$(( (1181116006 + one - 1) / one ))
  fi
  sql "$DB" -e "DROP TABLE IF EXISTS big; CREATE TABLE big LIKE text_blob"
  max=$(sql "$DB" -e "SELECT MAX(id) FROM text_blob")
  for c in $(seq 0 $((N - 1))); do
    sql "$DB" -e "INSERT INTO big SELECT id + $c * $max, title, body FROM text_blob"
  done
fi
sql "$DB" -e "ALTER TABLE big FORCE"
bytes=$(sql -e "SELECT FILE_SIZE FROM information_schema.INNODB_TABLESPACES WHERE NAME = '$DB/big'")
log "$DB.big: $bytes bytes; codecs: $CODECS; $REPS repetition(s)" >&2

est() { sql -e "SELECT $1 FROM information_schema.COMPRESSION_ESTIMATES WHERE TABLE_SCHEMA = '$DB' AND TABLE_NAME = 'big' AND KEY_BLOCK_SIZE = 8"; }
echo "codec,rep,what,seconds,ss_8" > "$CSV"
old_codec=$(sql -e "SELECT @@GLOBAL.innodb_compression_codec")
for rep in $(seq 1 "$REPS"); do
  for codec in $CODECS; do
    sql -e "SET GLOBAL innodb_compression_codec = '$codec'"
    for s in 128 1024; do
      t0=$(now); sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$DB', 'big', $s)" >/dev/null; t1=$(now)
      echo "$codec,$rep,estimate sample $s,$(calc2 "$t1 - $t0"),$(est SPACE_SAVINGS)" >> "$CSV"
    done
    t0=$(now); sql "$DB" -e "ALTER TABLE big ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8"; t1=$(now)
    sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$DB', 'big', 1024)" >/dev/null
    echo "$codec,$rep,ALTER TABLE ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8,$(calc2 "$t1 - $t0"),$(est SPACE_SAVINGS)" >> "$CSV"
    log "$codec rep $rep: $(tail -3 "$CSV" | cut -d, -f3- | tr '\n' ';')" >&2
    sql "$DB" -e "ALTER TABLE big ROW_FORMAT=DYNAMIC KEY_BLOCK_SIZE=0"
  done
done
sql -e "SET GLOBAL innodb_compression_codec = '$old_codec'"
sql "$DB" -e "DROP TABLE big"
echo "$SET: $bytes bytes ($(calc2 "$bytes / 1073741824") GiB), $N copies, $REPS repetition(s); medians (range)"
echo
echo "| codec | run | seconds | share of the ALTER | SS at 8K |"
echo "|---|---|---:|---:|---:|"
python3 - "$CSV" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keys = []
for r in rows:
    if (r["codec"], r["what"]) not in keys:
        keys.append((r["codec"], r["what"]))
med = {}
for codec, what in keys:
    sec = [float(r["seconds"]) for r in rows if (r["codec"], r["what"]) == (codec, what)]
    ss = [float(r["ss_8"]) for r in rows if (r["codec"], r["what"]) == (codec, what)]
    med[codec, what] = (statistics.median(sec), min(sec), max(sec), statistics.median(ss))
for codec, what in keys:
    m, lo, hi, ss = med[codec, what]
    alter = [v for (c, w), v in med.items() if c == codec and w.startswith("ALTER")][0][0]
    rng = f" ({lo:.2f}-{hi:.2f})" if lo != hi else ""
    print(f"| {codec} | {what} | {m:.2f}{rng} | {100 * m / alter:.1f} % | {ss:.1f} |")
EOF
