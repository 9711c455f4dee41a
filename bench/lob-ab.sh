#!/usr/bin/env bash
# A/B of compressed BLOB reads (issue 27, docs/benchmarks/codecs.md 6k): the same
# Wikipedia bodies in two 8 KB tables, one whose BLOB streams zlib wrote
# ("compression_codec": "zlib") and one whose streams ISA-L wrote ("isal"),
# scanned whole in turn (every body read), under each reader
# (innodb_compression_codec=isal: ISA-L's inflate; zlib: zlib's), after a
# warm-up, everything in a 1 GB buffer pool. Prints and writes one line per
# scan: reader, table, repetition, seconds.
#   bench/lob-ab.sh [ROWS] [REPS]   (default 30000 rows, 5 repetitions)
#   COMPRESS_BENCH_BUILD  build directory of the binaries (a snapshot of
#                         scripts/bench-snapshot.sh), default the build tree
#   output: bench/results/lob-ab/scans.txt (override with LOB_AB_OUT)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"
ROWS="${1:-30000}"; REPS="${2:-5}"
B="${COMPRESS_BENCH_BUILD:-$BUILD_DIR}"
CORPUS="$COMPRESS_CACHE_DIR/bench/wiki/corpus-400mb.tsv"
[ -f "$CORPUS" ] || die "no corpus: run bench/run.sh wiki once (it makes $CORPUS)"
W="$COMPRESS_CACHE_DIR/bench/lob-ab"
OUT="${LOB_AB_OUT:-$COMPRESS_ROOT/bench/results/lob-ab/scans.txt}"
rm -rf "$W"; mkdir -p "$W/srv" "$(dirname "$OUT")"
head -n "$ROWS" "$CORPUS" > "$W/corpus.tsv"
export SRV_DIR="$W/srv" SRV_BIN="$B/runtime_output_directory" SRV_PORT=13377
. "$COMPRESS_ROOT/scripts/server-lib.sh"
MYSQLD="$B/runtime_output_directory/mysqld"
srv_init "$MYSQLD" "$W/data" --lc-messages-dir="$B/share" > /dev/null
srv_start "$MYSQLD" "$W/data" "$W/err.log" --lc-messages-dir="$B/share" \
  --innodb-buffer-pool-size=1G --skip-log-bin --secure-file-priv="$W" > /dev/null
trap srv_stop EXIT
c() { srv_client "$@"; }
c -e "CREATE DATABASE ab; USE ab;
CREATE TABLE src (id INT UNSIGNED NOT NULL PRIMARY KEY, title VARCHAR(255) NOT NULL,
  body MEDIUMTEXT NOT NULL) DEFAULT CHARSET=utf8mb4;
LOAD DATA INFILE '$W/corpus.tsv' INTO TABLE src;
CREATE TABLE wz LIKE src;
ALTER TABLE wz ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 ENGINE_ATTRIBUTE='{\"compression_codec\": \"zlib\"}';
CREATE TABLE wi LIKE src;
ALTER TABLE wi ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 ENGINE_ATTRIBUTE='{\"compression_codec\": \"isal\"}';
INSERT INTO wz SELECT * FROM src; INSERT INTO wi SELECT * FROM src;"
{
  echo "# $(date -u +%Y-%m-%dT%H:%MZ), $ROWS rows of $(basename "$CORPUS"), $("$MYSQLD" --version | head -1)"
  echo "# BLOB streams written by ISA-L: $(c -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_zip_codec_lob_deflate_fast'")"
  echo "# reader table rep seconds"
} > "$OUT"
for reader in isal zlib; do
  c -e "SET GLOBAL innodb_compression_codec = $reader"
  c -e "SELECT SUM(LENGTH(body)) FROM ab.wz; SELECT SUM(LENGTH(body)) FROM ab.wi" > /dev/null
  for rep in $(seq "$REPS"); do
    for t in wz wi; do
      s=$(date +%s%N); c -e "SELECT SUM(LENGTH(body)) FROM ab.$t" > /dev/null; e=$(date +%s%N)
      us=$(( (e - s) / 1000 ))
      printf '%s %s %s %d.%06d\n' "$reader" "$t" "$rep" $((us / 1000000)) $((us % 1000000)) | tee -a "$OUT"
    done
  done
done
# Medians per reader and table.
python3 - "$OUT" <<'PY' | tee -a "$OUT"
import statistics, sys
v = {}
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    reader, table, _, secs = line.split()
    v.setdefault((reader, table), []).append(float(secs))
for (reader, table), xs in sorted(v.items()):
    print("# median %s %s %.3f (%.3f-%.3f)" % (reader, table, statistics.median(xs), min(xs), max(xs)))
PY
