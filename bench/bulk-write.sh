#!/usr/bin/env bash
# The free space the tight bulk load leaves (BENCHMARKS.md, "ALTER TABLE:
# tight bulk load"): writes right after ALTER TABLE ... ROW_FORMAT=COMPRESSED.
# For the TPC-C-like stock table of bench/bulk-load.sh (schema bl_spec or
# bl_words, loaded by it), per configuration (HALF; TIGHT with
# innodb_compression_bulk_free_pct 0, 3, 6): copy the table, compress it at
# KEY_BLOCK_SIZE=8, then run N new-order stock updates (s_quantity, s_ytd,
# s_order_cnt of a random item: in place) and N/10 updates that grow s_data
# by 10 bytes, in one connection, and report the time, the compressions per
# update, the failed compressions and the page splits of the clustered index
# (INNODB_CMP_PER_TABLE_INDEX), and the space savings after the ALTER.
# Configurations alternate, REPS times.
# Usage: bench/bulk-write.sh [schema (bl_spec)] [updates (20000)] [reps (2)]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../scripts/common.sh"
DB="${1:-bl_spec}"
N="${2:-20000}"
REPS="${3:-2}"
OUT="${COMPRESS_BULK_OUT:-$COMPRESS_CACHE_DIR/bulk-load}"
export COMPRESS_SERVER_DIR="${COMPRESS_SERVER_DIR:-$COMPRESS_CACHE_DIR/bulk-server}"
export COMPRESS_SERVER_OPTS="${COMPRESS_SERVER_OPTS:---innodb-buffer-pool-size=512M --innodb-redo-log-capacity=1G}"
mkdir -p "$OUT"
# sql, now, calc, used_pages
. "$HERE/../scripts/server-lib.sh"
bash "$HERE/../scripts/server.sh" start >&2
[ -n "$(sql -e "SHOW TABLES FROM $DB LIKE 'stock'")" ] ||
  die "no $DB.stock: run bench/bulk-load.sh first"
sql "$DB" <<'SQL'
DROP PROCEDURE IF EXISTS bw_run;
DELIMITER //
CREATE PROCEDURE bw_run(n INT)
BEGIN
  DECLARE i INT DEFAULT 0;
  DECLARE item INT;
  DECLARE items INT DEFAULT (SELECT MAX(s_i_id) FROM bw_stock);
  WHILE i < n DO
    SET item = 1 + FLOOR(RAND() * items);
    UPDATE bw_stock SET s_quantity = IF(s_quantity > 10, s_quantity - 5, s_quantity + 86),
           s_ytd = s_ytd + 5, s_order_cnt = s_order_cnt + 1
     WHERE s_w_id = 1 AND s_i_id = item;
    IF i % 10 = 0 THEN
      SET item = 1 + FLOOR(RAND() * items);
      UPDATE bw_stock SET s_data = LEFT(CONCAT(s_data, ' x-updated'), 50)
       WHERE s_w_id = 1 AND s_i_id = item;
    END IF;
    SET i = i + 1;
  END WHILE;
END//
DELIMITER ;
SQL
used_src=$(used_pages "$DB" stock)
csv="$OUT/bulk-write-$DB.csv"
echo "config,rep,ss,updates,secs,compress_per_update,failed,splits" > "$csv"
for rep in $(seq 1 "$REPS"); do
  for cfg in HALF TIGHT-0 TIGHT-3 TIGHT-6; do
    split=${cfg%%-*}; free=${cfg#*-}; [ "$split" = HALF ] && free=3
    sql "$DB" -e "DROP TABLE IF EXISTS bw_stock; CREATE TABLE bw_stock LIKE stock;
                  INSERT INTO bw_stock SELECT * FROM stock;
                  SET GLOBAL innodb_compression_bulk_split = $split;
                  SET GLOBAL innodb_compression_bulk_free_pct = $free;
                  ALTER TABLE bw_stock ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;
                  SET GLOBAL innodb_compression_bulk_split = DEFAULT;
                  SET GLOBAL innodb_compression_bulk_free_pct = DEFAULT"
    used=$(used_pages "$DB" bw_stock)
    q="SELECT COMPRESS_OPS, COMPRESS_OPS - COMPRESS_OPS_OK, ZIP_SPLITS
         FROM information_schema.INNODB_CMP_PER_TABLE_INDEX
        WHERE TABLE_SCHEMA='$DB' AND TABLE_NAME='bw_stock' AND INDEX_TYPE='PRIMARY'"
    read -r o0 f0 s0 < <(sql -e "$q")
    t0=$(now)
    sql "$DB" -e "CALL bw_run($N)"
    t1=$(now)
    read -r o1 f1 s1 < <(sql -e "$q")
    upd=$((N + N / 10))
    echo "$cfg,$rep,$(calc "100 * (1 - $used * 8 / ($used_src * 16))"),$upd,$(calc "$t1 - $t0"),$(calc "($o1 - $o0) / $upd"),$((f1 - f0)),$((s1 - s0))" >> "$csv"
    log "$cfg rep $rep done" >&2
  done
done
sql "$DB" -e "DROP TABLE IF EXISTS bw_stock; DROP PROCEDURE bw_run"
python3 - "$csv" <<'PY'
import csv, sys, statistics as st
rows = list(csv.DictReader(open(sys.argv[1])))
cfgs = []
for r in rows:
    if r["config"] not in cfgs:
        cfgs.append(r["config"])
half = st.median(float(r["secs"]) for r in rows if r["config"] == "HALF")
print("| configuration | SS after ALTER | compressions per update | failed compressions | page splits | time (s, median) | time / HALF |")
print("|---|---:|---:|---:|---:|---:|---:|")
for c in cfgs:
    s = [r for r in rows if r["config"] == c]
    m = lambda k: st.median(float(r[k]) for r in s)
    print("| %s | %.1f | %.3f | %d | %d | %.2f | %.2f |" % (
        c, m("ss"), m("compress_per_update"), m("failed"), m("splits"), m("secs"), m("secs") / half))
PY
