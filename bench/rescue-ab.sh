#!/usr/bin/env bash
# ISA-L with and without innodb_compression_zlib_rescue (patch 0032), and
# zlib, side by side: DBT-2's order_line, stock and customer (1 warehouse,
# scripts/accuracy's generator) copied in key order into 8 KB compressed
# tables, as a load fills them. Per variant and repetition (interleaved):
# the seconds of each INSERT ... SELECT, COMPRESS_OPS and _OK (failures),
# COMPRESS_USECS, the bytes in use after ANALYZE TABLE, the pad, and the
# rescues counted; then one UPDATE of every row (order_line: the delivery
# date set, which grows its NULL ones; stock: three counters): its seconds,
# the compressions, COMPRESS_USECS and rescues it made, and the bytes in use
# after it. Uses the server of scripts/server.sh (schema acc_dbt2,
# loaded if missing). docs/benchmarks/codecs.md 6p.
# Variants (RESCUE_AB_VARIANTS, default "isal-rescue isal zlib"): the load
# and the update under ISA-L with the rescue ON, OFF, under zlib; also
# zlib-isal, zlib-isal-zp and zlib-isal-rescue: loaded under zlib, updated
# under ISA-L with the rescue OFF / ZLIB_PAGES / ON (a table of a zlib
# server after an upgrade). isal-rescue, isal-zp and isal load and update
# under ISA-L with ON, ZLIB_PAGES and OFF.
# Usage: bench/rescue-ab.sh [reps (3); 0: report only] [out dir (bench/results/rescue-ab-DATE)]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../scripts/common.sh"
. "$COMPRESS_ROOT/scripts/server-lib.sh"
REPS="${1:-3}"
# Variants, interleaved in each repetition; zlib (the reference) must be one.
VARIANTS="${RESCUE_AB_VARIANTS:-isal-rescue isal zlib}"
OUT="${2:-$COMPRESS_ROOT/bench/results/rescue-ab-$(date +%Y%m%d)}"
mkdir -p "$OUT"
CSV="$OUT/runs.csv"
bash "$COMPRESS_ROOT/scripts/server.sh" start >&2
sql -e "INSTALL PLUGIN compression_stats SONAME 'compression_stats.so'" 2>/dev/null || true
if [ "$(sql -e "SELECT COUNT(*) FROM information_schema.TABLES
                WHERE TABLE_SCHEMA = 'acc_dbt2' AND TABLE_NAME = 'order_line'")" != 1 ]; then
  W=1 load_set dbt2 acc_dbt2
fi
codec0=$(sql -e "SELECT @@GLOBAL.innodb_compression_codec")
rescue0=$(sql -e "SELECT @@GLOBAL.innodb_compression_zlib_rescue")
# reps 0: only the report of the CSV already in the out dir.
[ "$REPS" = 0 ] || echo "rep,variant,table,insert_s,compress_ops,compress_ops_ok,fail_pct,compress_usecs,bytes_in_use,padding,rescued,bytes_after_update,update_s,update_ops,update_usecs,update_rescued" > "$CSV"
for rep in $(seq 1 "$REPS"); do
  for v in $VARIANTS; do
    # The load's codec; zlib-isal* load under zlib and update under ISA-L
    # (an upgrade from a zlib server, or a change of the table's codec).
    case "$v" in
      isal-rescue) sql -e "SET GLOBAL innodb_compression_codec = isal; SET GLOBAL innodb_compression_zlib_rescue = ON" ;;
      isal) sql -e "SET GLOBAL innodb_compression_codec = isal; SET GLOBAL innodb_compression_zlib_rescue = OFF" ;;
      isal-zp) sql -e "SET GLOBAL innodb_compression_codec = isal; SET GLOBAL innodb_compression_zlib_rescue = ZLIB_PAGES" ;;
      zlib|zlib-isal|zlib-isal-zp|zlib-isal-rescue) sql -e "SET GLOBAL innodb_compression_codec = zlib" ;;
      *) echo "rescue-ab: unknown variant $v" >&2; exit 1 ;;
    esac
    for t in order_line stock customer; do
      sql acc_dbt2 -e "DROP TABLE IF EXISTS z_$t; CREATE TABLE z_$t LIKE $t;
        ALTER TABLE z_$t ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8"
      r0=$(sql -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_zip_codec_compress_rescued'")
      t0=$(now)
      sql acc_dbt2 -e "INSERT INTO z_$t SELECT * FROM $t ORDER BY 1, 2, 3, 4"
      t1=$(now)
      r1=$(sql -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_zip_codec_compress_rescued'")
      sql acc_dbt2 -e "ANALYZE TABLE z_$t" >/dev/null
      row=$(sql -e "SELECT c.COMPRESS_OPS, c.COMPRESS_OPS_OK,
          ROUND(100 * (c.COMPRESS_OPS - c.COMPRESS_OPS_OK) / c.COMPRESS_OPS, 2),
          c.COMPRESS_USECS, t.DATA_LENGTH + t.INDEX_LENGTH, c.COMPRESS_PADDING
        FROM information_schema.COMPRESSION_STATS c JOIN information_schema.TABLES t
          ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME
        WHERE c.TABLE_SCHEMA = 'acc_dbt2' AND c.TABLE_NAME = 'z_$t'" | tr '\t' ',')
      case "$t" in
        order_line) upd="ol_delivery_d = '2026-11-27 12:00:00', ol_amount = ol_amount + 1" ;;
        stock) upd="s_quantity = s_quantity + 1, s_ytd = s_ytd + 7, s_order_cnt = s_order_cnt + 1" ;;
        customer) upd="c_balance = c_balance - 10, c_payment_cnt = c_payment_cnt + 1" ;;
      esac
      ops="SELECT CONCAT(COMPRESS_OPS, ' ', COMPRESS_USECS) FROM information_schema.COMPRESSION_STATS
        WHERE TABLE_SCHEMA = 'acc_dbt2' AND TABLE_NAME = 'z_$t'"
      read -r o0 u0 <<< "$(sql -e "$ops")"
      case "$v" in
        zlib-isal) sql -e "SET GLOBAL innodb_compression_codec = isal; SET GLOBAL innodb_compression_zlib_rescue = OFF" ;;
        zlib-isal-zp) sql -e "SET GLOBAL innodb_compression_codec = isal; SET GLOBAL innodb_compression_zlib_rescue = ZLIB_PAGES" ;;
        zlib-isal-rescue) sql -e "SET GLOBAL innodb_compression_codec = isal; SET GLOBAL innodb_compression_zlib_rescue = ON" ;;
      esac
      t2=$(now)
      sql acc_dbt2 -e "UPDATE z_$t SET $upd"
      t3=$(now)
      r2=$(sql -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_zip_codec_compress_rescued'")
      read -r o1 u1 <<< "$(sql -e "$ops")"
      sql acc_dbt2 -e "ANALYZE TABLE z_$t" >/dev/null
      after=$(sql -e "SELECT DATA_LENGTH + INDEX_LENGTH FROM information_schema.TABLES
        WHERE TABLE_SCHEMA = 'acc_dbt2' AND TABLE_NAME = 'z_$t'")
      echo "$rep,$v,$t,$(awk "BEGIN { printf \"%.3f\", $t1 - $t0 }"),$row,$((r1 - r0)),$after,$(awk "BEGIN { printf \"%.3f\", $t3 - $t2 }"),$((o1 - o0)),$((u1 - u0)),$((r2 - r1))" >> "$CSV"
      sql acc_dbt2 -e "DROP TABLE z_$t"
      case "$v" in zlib-isal*) sql -e "SET GLOBAL innodb_compression_codec = zlib" ;; esac
    done
    log "rep $rep $v done" >&2
  done
done
sql -e "SET GLOBAL innodb_compression_codec = $codec0; SET GLOBAL innodb_compression_zlib_rescue = $rescue0"
python3 - "$CSV" "$VARIANTS" <<'PY' | tee "$OUT/report.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
base = "isal" if "isal" in sys.argv[2].split() else "zlib"
print("| table | variant | failures % | bytes in use | vs zlib | COMPRESS_USECS s | vs " + base + " | insert s | rescued | bytes after an UPDATE of every row | vs zlib | UPDATE s | its compressions | its COMPRESS_USECS s | its rescues |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
def med(t, v, k):
    return statistics.median(float(r[k]) for r in rows if r["table"] == t and r["variant"] == v)
for t in ["order_line", "stock", "customer", "all"]:
    for v in sys.argv[2].split():
        ts = ["order_line", "stock", "customer"] if t == "all" else [t]
        b = sum(med(x, v, "bytes_in_use") for x in ts)
        bz = sum(med(x, "zlib", "bytes_in_use") for x in ts)
        u = sum(med(x, v, "compress_usecs") for x in ts) / 1e6
        ui = sum(med(x, base, "compress_usecs") for x in ts) / 1e6
        s = sum(med(x, v, "insert_s") for x in ts)
        f = "" if t == "all" else "%.2f" % med(t, v, "fail_pct")
        resc = sum(med(x, v, "rescued") for x in ts)
        a = sum(med(x, v, "bytes_after_update") for x in ts)
        az = sum(med(x, "zlib", "bytes_after_update") for x in ts)
        us = sum(med(x, v, "update_s") for x in ts)
        uo = sum(med(x, v, "update_ops") for x in ts)
        uu = sum(med(x, v, "update_usecs") for x in ts) / 1e6
        ur = sum(med(x, v, "update_rescued") for x in ts)
        print("| %s | %s | %s | %d | %+.1f %% | %.2f | %.2fx | %.2f | %d | %d | %+.1f %% | %.2f | %d | %.2f | %d |" % (
            t, v, f, b, 100 * (b / bz - 1), u, u / ui, s, resc, a, 100 * (a / az - 1), us, uo, uu, ur))
PY
