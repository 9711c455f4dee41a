#!/usr/bin/env bash
# A full file system under a sparse page-compressed file (issue 47). The
# table's file lives on a small ext4 image (DATA DIRECTORY, scripts/loopfs.sh),
# the rest of the server on the cache disk. The file system is filled up
# to its last blocks, then the table is written so that its pages need
# blocks again: inserts that extend the file (with
# innodb_page_compression_sparse=ON the extension is a hole and succeeds;
# OFF, posix_fallocate() fails at once) and updates that make compressed
# pages less compressible (their punched tails need blocks again, as in
# upstream's page compression). For each setting it records what the
# statements and the server did (errors, the error log, whether the server
# stayed up), tries a restart while the file system is still full (does
# the server come back before space is freed?), frees the space, restarts,
# and checks that every row a statement acknowledged is there (CHECK
# TABLE, counts). Four modes (issue 60): innodb_page_compression_sparse
# ON and OFF with the doublewrite buffer ON, and sparse ON with
# innodb_doublewrite=DETECT_ONLY and OFF (no copy to restore a page a
# short write at ENOSPC tore).
# Usage: scripts/sparse-full-fs.sh [image size (96M)]
# Output: $OUT/report.txt (default bench/results/sparse-full-fs-<date>)
set -uo pipefail
. "$(dirname "$0")/common.sh"
SIZE="${1:-96M}"
W="$COMPRESS_CACHE_DIR/sparse-full-fs"
SMALL=/mnt/sparse-small
OUT="${OUT:-$COMPRESS_ROOT/bench/results/sparse-full-fs-$(date +%Y%m%d)}"
PBIN="$BUILD_DIR/runtime_output_directory"
mkdir -p "$OUT"; rm -rf "$W"; mkdir -p "$W"
REPORT="$OUT/report.txt"; : > "$REPORT"
say() { printf '%s\n' "$*" | tee -a "$REPORT"; }
SRV_DIR="$W"; SRV_BIN="$PBIN"; SRV_PORT=13336; SRV_WAIT=240
. "$(dirname "$0")/server-lib.sh"
client() { srv_client "$@"; }
start() {
  srv_start "$PBIN" "$W/data" "$W/mysqld.err" --innodb-buffer-pool-size=64M \
    --skip-log-bin --innodb-directories="$SMALL" "$@"
}
mountpoint -q "$SMALL" && bash "$COMPRESS_ROOT/scripts/loopfs.sh" umount "$SMALL"
bash "$COMPRESS_ROOT/scripts/loopfs.sh" mount ext4 "$SIZE" "$SMALL" || exit 2
srv_init "$PBIN" "$W/data"
start || die "server did not start"
say "# A full file system under a page-compressed file, $(date -u +%Y-%m-%dT%H:%MZ)"
say "server: $("$PBIN/mysqld" --version | head -1); table file system: ext4 of $SIZE on a loop device"

for mode in "OFF ON" "ON ON" "ON DETECT_ONLY" "ON OFF"; do
  read -r sparse dw <<< "$mode"
  say ""
  say "## innodb_page_compression_sparse=$sparse, innodb_doublewrite=$dw"
  srv_alive && srv_stop
  start --innodb-doublewrite="$dw" || die "server did not start in mode $mode"
  client -e "SET GLOBAL innodb_page_compression_sparse = $sparse; DROP DATABASE IF EXISTS ff; CREATE DATABASE ff;
    CREATE TABLE ff.t (id INT PRIMARY KEY, c VARCHAR(2000) NOT NULL)
      COMPRESSION='lz4' DATA DIRECTORY='$SMALL';
    "
  # 30,000 rows of text that lz4 keeps at about a third.
  client -e "SET SESSION cte_max_recursion_depth = 100000;
    INSERT INTO ff.t WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 30000)
      SELECT n, REPEAT(CONCAT('row ', n, ' of the full disk test '), 40) FROM s;
    FLUSH TABLES ff.t FOR EXPORT; UNLOCK TABLES"
  f="$SMALL/ff/t.ibd"
  say "file: $(stat -c %s "$f") bytes, $(( $(stat -c %b "$f") * $(stat -c %B "$f") )) allocated; file system free: $(df -B1 --output=avail "$SMALL" | tail -1) bytes"
  # Fill the file system up to its last blocks.
  fallocate -l "$(( $(df -B1 --output=avail "$SMALL" | tail -1) - 4096 ))" "$SMALL/filler" 2>/dev/null
  dd if=/dev/zero of="$SMALL/filler2" bs=4k status=none 2>/dev/null
  say "filled: file system free $(df -B1 --output=avail "$SMALL" | tail -1) bytes"
  : > "$W/acks-$sparse.txt"
  # Inserts, one row per autocommitted statement; the client prints the
  # acknowledgement only when the statement succeeded (ROW_COUNT() is -1
  # after an error). Then an update to incompressible text.
  for ((i = 30001; i <= 36000; i++)); do
    echo "INSERT INTO ff.t VALUES ($i, REPEAT(CONCAT('row ', $i, ' of the full disk test '), 40)); SELECT 'ack', $i FROM DUAL WHERE ROW_COUNT() = 1;"
  done | "$PBIN/mysql" --socket="$(srv_sock)" -uroot -N -B --force > "$W/ins-$sparse.out" 2> "$W/ins-$sparse.err"
  ins_ok=$(grep -c '^ack' "$W/ins-$sparse.out"); ins_err=$(sed 's/ at line [0-9]*//' "$W/ins-$sparse.err" | sort | uniq -c | sort -rn | head -3 | tr '\n' ' ')
  ack_sum=$(awk '$1 == "ack" { s += $2 } END { print s + 0 }' "$W/ins-$sparse.out")
  say "inserts: $ins_ok of 6,000 acknowledged; errors: ${ins_err:-none}"
  client -e "UPDATE ff.t SET c = CONCAT(TO_BASE64(RANDOM_BYTES(1024)), TO_BASE64(RANDOM_BYTES(400))) WHERE id <= 20000" > "$W/upd-$sparse.out" 2>&1
  say "update of 20,000 rows to incompressible text (base64 of random bytes): $(tr '\n' ' ' < "$W/upd-$sparse.out" | cut -c1-200)"
  client -e "FLUSH TABLES ff.t FOR EXPORT; UNLOCK TABLES" > "$W/flush-$sparse.out" 2>&1
  sleep 10
  if srv_alive; then alive=up; else alive=down; fi
  say "server after the writes were flushed: $alive"
  say "error log (new lines, first 8 distinct):"
  grep -E '\[(ERROR|Warning)\]' "$W/mysqld.err" | sed -E 's/^[^ ]+ [0-9]+ //' | grep -v "^\[Warning\] \[MY-010" | sort | uniq -c | sort -rn | head -8 | sed 's/^/    /' | tee -a "$REPORT"
  : > "$W/mysqld.err.seen"; cat "$W/mysqld.err" >> "$W/mysqld.err.seen"; : > "$W/mysqld.err"
  if [ "$alive" = down ]; then
    # A restart while the file system is still full: recovery (and the
    # doublewrite buffer's restore) writes the same pages again.
    SRV_WAIT=120 start --innodb-doublewrite="$dw" >/dev/null 2>&1 || true
    if srv_alive; then full_restart=up; srv_kill; else full_restart=down; fi
    say "restart with the file system still full: $full_restart"
    grep -E '\[ERROR\]' "$W/mysqld.err" | sed -E 's/^[^ ]+ [0-9]+ //' | sort | uniq -c | sort -rn | head -4 | sed 's/^/    full restart: /' | tee -a "$REPORT"
    cat "$W/mysqld.err" >> "$W/mysqld.err.seen"; : > "$W/mysqld.err"
  fi
  rm -f "$SMALL/filler" "$SMALL/filler2"
  # The rows are checked as read from disk: a restart (clean if the server
  # is up) after the space is freed.
  if srv_alive; then srv_stop; fi
  start --innodb-doublewrite="$dw" || true
  say "restart after freeing the space: $(srv_alive && echo up || echo down)"
  if ! srv_alive; then
    grep -E '\[ERROR\]' "$W/mysqld.err" | sed -E 's/^[^ ]+ [0-9]+ //' | sort | uniq -c | head -5 | sed 's/^/    restart: /' | tee -a "$REPORT"
    say "the server does not come back: nothing to check in this mode"
    rm -rf "$W/data" "$SMALL/ff"; srv_init "$PBIN" "$W/data"
    continue
  fi
  grep -E '\[ERROR\]' "$W/mysqld.err" | sed -E 's/^[^ ]+ [0-9]+ //' | sort | uniq -c | head -5 | sed 's/^/    restart: /' | tee -a "$REPORT"
  read -r have have_sum < <(client -e "SELECT COUNT(*), IFNULL(SUM(id), 0) FROM ff.t WHERE id > 30000")
  bad=$(client -e "CHECK TABLE ff.t" | grep -v $'\tstatus\tOK$')
  [ "$have" = "$ins_ok" ] && [ "$have_sum" = "$ack_sum" ] && same=yes || same=NO
  say "after the restart: $have rows inserted, the acknowledged ones exactly: $same; CHECK TABLE: ${bad:-OK}"
  upd=$(client -e "SELECT SUM(c NOT LIKE 'row %'), SUM(c = REPEAT(CONCAT('row ', id, ' of the full disk test '), 40)) FROM ff.t WHERE id <= 20000")
  say "rows 1-20,000: updated, unchanged: $upd (all of one kind: the update is atomic)"
done
srv_stop
bash "$COMPRESS_ROOT/scripts/loopfs.sh" umount "$SMALL"
say ""
say "report: $REPORT"
