#!/usr/bin/env bash
# The tight bulk load (BENCHMARKS.md, "ALTER TABLE: tight bulk load"): space
# savings and ALTER TABLE time of innodb_compression_bulk_split=TIGHT against
# HALF (upstream's split) and against key-ordered INSERTs into the compressed
# table, for every table above 1 MB of three data sets, at KEY_BLOCK_SIZE 8
# and 4:
#   spec   TPC-C-like, specification-conformant random a-strings
#          (scripts/accuracy/tpcc_load.sql), W warehouses
#   words  the same schema and rules, a-strings of English words
#          (@tpcc_data = 'words'): compresses well
#   text   paragraphs of English prose (scripts/accuracy/text_corpus.py)
#   random 25,000 rows of 200 random bytes (RANDOM_BYTES): nothing to save
# Savings = 1 - (pages in use by the B-trees x KEY_BLOCK_SIZE) / (pages in use
# of the uncompressed table, rebuilt, x 16 KB); pages in use are USED_PAGES of
# a one-page COMPRESSION_STATS_ESTIMATE(), as in scripts/accuracy/run.sh.
# ALTER times of HALF and TIGHT alternate, REPS times each, on copies of the
# same table in one server run; the ratio is TIGHT / HALF of the medians.
# CHECK TABLE runs on every TIGHT copy.
# Usage: bench/bulk-load.sh [warehouses (1)] [reps (2)]
#   COMPRESS_BULK_OUT      result directory (default $COMPRESS_CACHE_DIR/bulk-load)
#   COMPRESS_BULK_RELOAD=0 reuse the loaded schemas
#   COMPRESS_BULK_SETS     data sets (default "spec words text random")
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../scripts/common.sh"
W="${1:-1}"
REPS="${2:-2}"
OUT="${COMPRESS_BULK_OUT:-$COMPRESS_CACHE_DIR/bulk-load}"
SETS="${COMPRESS_BULK_SETS:-spec words text random}"
export COMPRESS_SERVER_DIR="${COMPRESS_SERVER_DIR:-$COMPRESS_CACHE_DIR/bulk-server}"
export COMPRESS_SERVER_OPTS="${COMPRESS_SERVER_OPTS:---innodb-buffer-pool-size=512M --innodb-redo-log-capacity=1G}"
mkdir -p "$OUT"
# sql, now, calc, used_pages, load_set (the data sets of scripts/accuracy/)
. "$HERE/../scripts/server-lib.sh"

bash "$HERE/../scripts/server.sh" start >&2
sql -e "INSTALL PLUGIN compression_stats SONAME 'compression_stats.so'" 2>/dev/null || true
sql -e "SELECT @@innodb_compression_bulk_split" >/dev/null ||
  die "this server has no innodb_compression_bulk_split (patch 0015)"

csv="$OUT/bulk-load.csv"
echo "set,table,kbs,uncompressed_pages,half_pages,tight_pages,ordered_pages,ss_half,ss_tight,ss_ordered,half_s,tight_s,time_ratio,check" > "$csv"
for set in $SETS; do
  db="bl_$set"
  if [ "${COMPRESS_BULK_RELOAD:-1}" = 1 ] || [ -z "$(sql -e "SHOW DATABASES LIKE '$db'")" ]; then
    load_set "$set" "$db"
  fi
  for t in $(sql -e "SELECT TABLE_NAME FROM information_schema.TABLES
                     WHERE TABLE_SCHEMA='$db' AND TABLE_NAME NOT LIKE 'bl\\_%'
                     ORDER BY TABLE_NAME"); do
    sql "$db" -e "ALTER TABLE $t ROW_FORMAT=DYNAMIC KEY_BLOCK_SIZE=0, FORCE"
    used=$(used_pages "$db" "$t")
    if [ "$((used * 16))" -le 1024 ]; then
      log "$set.$t: $used pages, not above 1 MB, skipped" >&2
      continue
    fi
    for k in 8 4; do
      declare -A pages=() times=()
      chk=OK
      for rep in $(seq 1 "$REPS"); do
        for mode in HALF TIGHT; do
          sql "$db" -e "DROP TABLE IF EXISTS bl_c; CREATE TABLE bl_c LIKE $t;
                        INSERT INTO bl_c SELECT * FROM $t"
          sql -e "SET GLOBAL innodb_compression_bulk_split = $mode"
          a0=$(now)
          sql "$db" -e "ALTER TABLE bl_c ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=$k"
          a1=$(now)
          times[$mode]="${times[$mode]:-} $(calc "$a1 - $a0")"
          if [ "$rep" = 1 ]; then
            pages[$mode]=$(used_pages "$db" bl_c)
            if [ "$mode" = TIGHT ]; then
              c=$(sql "$db" -e "CHECK TABLE bl_c" | awk '{print $NF}' | tail -1)
              [ "$c" = OK ] || chk="$c"
            fi
          fi
        done
      done
      sql -e "SET GLOBAL innodb_compression_bulk_split = DEFAULT"
      sql "$db" -e "DROP TABLE IF EXISTS bl_c; CREATE TABLE bl_c LIKE $t;
                    ALTER TABLE bl_c ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=$k;
                    INSERT INTO bl_c SELECT * FROM $t; DROP TABLE IF EXISTS bl_o;"
      ordered=$(used_pages "$db" bl_c)
      sql "$db" -e "DROP TABLE bl_c"
      med() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
      hs=$(echo "${times[HALF]}" | med); ts=$(echo "${times[TIGHT]}" | med)
      ss() { calc "100 * (1 - $1 * $k / ($used * 16))"; }
      echo "$set,$t,$k,$used,${pages[HALF]},${pages[TIGHT]},$ordered,$(ss "${pages[HALF]}"),$(ss "${pages[TIGHT]}"),$(ss "$ordered"),$hs,$ts,$(calc "$ts / $hs"),$chk" >> "$csv"
      log "$set.$t KEY_BLOCK_SIZE=$k done" >&2
      unset pages times
    done
  done
done

python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| data | table | KBS | MB | SS HALF | SS TIGHT | SS key-ordered INSERT | TIGHT - ordered | ALTER s HALF | ALTER s TIGHT | time TIGHT/HALF | CHECK |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for r in rows:
    f = lambda k: float(r[k])
    print("| %s | %s | %s | %.1f | %.1f | %.1f | %.1f | %+.1f | %.2f | %.2f | %.2f | %s |" % (
        r["set"], r["table"], r["kbs"], f("uncompressed_pages") * 16 / 1024,
        f("ss_half"), f("ss_tight"), f("ss_ordered"), f("ss_tight") - f("ss_ordered"),
        f("half_s"), f("tight_s"), f("time_ratio"), r["check"]))
for k in ("8", "4"):
    sel = [r for r in rows if r["kbs"] == k]
    if not sel:
        continue
    gap = [float(r["ss_tight"]) - float(r["ss_ordered"]) for r in sel]
    tr = [float(r["time_ratio"]) for r in sel]
    print("\nKEY_BLOCK_SIZE=%s: TIGHT - ordered from %+.1f to %+.1f points (%d tables), "
          "time TIGHT/HALF from %.2f to %.2f" % (k, min(gap), max(gap), len(sel), min(tr), max(tr)))
PY
