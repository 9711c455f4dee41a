#!/usr/bin/env bash
# innodb_compression_zlib_rescue on random bytes (docs/benchmarks/codecs.md 6p): three
# 8 KB twins of 40,000 rows of 200 random bytes and a counter, loaded in key
# order under zlib; two switched to isal in place; every row's counter and
# bytes rewritten (same size) under ISA-L with the rescue OFF and ZLIB_PAGES,
# and under zlib. Records the rescues and the bytes in use after ANALYZE.
# Uses the server of scripts/server.sh. Usage: bench/rescue-random.sh [out dir]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../scripts/common.sh"
. "$COMPRESS_ROOT/scripts/server-lib.sh"
OUT="${1:-$COMPRESS_ROOT/bench/results/rescue-random-$(date +%Y%m%d)}"
mkdir -p "$OUT"
bash "$COMPRESS_ROOT/scripts/server.sh" start >&2
codec0=$(sql -e "SELECT @@GLOBAL.innodb_compression_codec")
rescue0=$(sql -e "SELECT @@GLOBAL.innodb_compression_zlib_rescue")
rescued() { sql -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_zip_codec_compress_rescued'"; }
bytes() { sql rr -e "ANALYZE TABLE $1" > /dev/null
  sql -e "SELECT DATA_LENGTH + INDEX_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'rr' AND TABLE_NAME = '$1'"; }
sql -e "DROP DATABASE IF EXISTS rr; CREATE DATABASE rr"
sql rr -e "SET SESSION cte_max_recursion_depth = 100000;
  CREATE TABLE z (id INT PRIMARY KEY, n INT, b VARBINARY(200)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8
    ENGINE_ATTRIBUTE='{\"compression_codec\": \"zlib\"}';
  CREATE TABLE off LIKE z; CREATE TABLE zp LIKE z;
  INSERT INTO z WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 40000)
    SELECT i, i, RANDOM_BYTES(200) FROM s;
  INSERT INTO off SELECT * FROM z ORDER BY id; INSERT INTO zp SELECT * FROM z ORDER BY id;
  ALTER TABLE off ENGINE_ATTRIBUTE='{\"compression_codec\": \"isal\"}', ALGORITHM=INPLACE;
  ALTER TABLE zp ENGINE_ATTRIBUTE='{\"compression_codec\": \"isal\"}', ALGORITHM=INPLACE"
echo "table,updated_under,bytes_loaded,bytes_after,rescued,update_s" > "$OUT/runs.csv"
for t in z off zp; do
  case $t in
    off) sql -e "SET GLOBAL innodb_compression_zlib_rescue = OFF" ;;
    *) sql -e "SET GLOBAL innodb_compression_zlib_rescue = ZLIB_PAGES" ;;
  esac
  b0=$(bytes $t); r0=$(rescued); t0=$(now)
  sql rr -e "UPDATE $t SET n = n + 1, b = RANDOM_BYTES(200)"
  t1=$(now); r1=$(rescued); b1=$(bytes $t)
  under=$([ $t = z ] && echo zlib || echo "isal/$(sql -e "SELECT @@GLOBAL.innodb_compression_zlib_rescue")")
  echo "$t,$under,$b0,$b1,$((r1 - r0)),$(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }")" >> "$OUT/runs.csv"
done
sql -e "SET GLOBAL innodb_compression_codec = $codec0; SET GLOBAL innodb_compression_zlib_rescue = $rescue0; DROP DATABASE rr"
cat "$OUT/runs.csv"
