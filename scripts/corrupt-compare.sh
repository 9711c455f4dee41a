#!/usr/bin/env bash
# Damaged compressed pages read by the patched server and by stock MySQL
# 9.7.2: the same bytes must get the same answer (issue 45, part 3, "end to
# end"). The fuzzer (fuzz/) drives the decompressors directly; this drives
# the servers.
#
# The patched server writes one-page compressed tables (20 rows, rebuilt so
# that the records are in the stream and not in the modification log) with
# each codec (isal, zlib) at KEY_BLOCK_SIZE 8 and 2. After a clean shutdown
# the root page (page 4) of each table is damaged in one of the ways below
# and its checksum made valid again (innochecksum --write=crc32), as a
# damaged disk, backup or imported tablespace can present it. Then three
# readers each read every table (SELECT COUNT, SUM and a SHA2 of all rows)
# on a copy of those files: the patched server with ISA-L's inflate, the
# patched server with zlib's, and stock. The outcome of each read is one
# of "rows: ...", "error: ..." (the statement failed, the server lives) or
# "stopped: ..." (the server died; the [ERROR] lines of its log, with the
# numbers taken out). A server that stops is started again for the next
# table. The report lists every read and counts, for each patched reader,
# the reads with the same outcome as stock's and those that differ.
#
# Not part of CI: it needs a stock build (scripts/build-stock.sh).
#
#   scripts/corrupt-compare.sh [REPORT]   (default: bench/results/corrupt/DATE-SERIES.txt)
#   COMPRESS_STOCK_BIN   stock programs (default $COMPRESS_CACHE_DIR/stock/bin)
#   COMPRESS_CORRUPT_DIR work directory (default $COMPRESS_CACHE_DIR/corrupt)
# Exits 1 if a patched reader returned rows that are not the intact rows
# where stock did not return them too, hung, or refused a page whose rows
# stock returns intact. Other differences are counted and listed: stricter
# (ours refuses where stock stops elsewhere or returns wrong rows), both
# refuse with other messages, ours returns the intact rows where stock
# refuses.
set -uo pipefail
. "$(dirname "$0")/common.sh"

W="${COMPRESS_CORRUPT_DIR:-$COMPRESS_CACHE_DIR/corrupt}"
STOCK="${COMPRESS_STOCK_BIN:-$COMPRESS_CACHE_DIR/stock/bin}"
PBIN="$BUILD_DIR/runtime_output_directory"
MSG_DIR="$BUILD_DIR/share"
[ -x "$PBIN/mysqld" ] || die "the patched mysqld is not built: run scripts/build.sh"
[ -x "$STOCK/mysqld" ] || die "no stock mysqld in $STOCK: run scripts/build-stock.sh"
# (grep -c, not -q: with pipefail nm's SIGPIPE would fail the test.)
[ "$(nm -C "$PBIN/mysqld" 2>/dev/null | grep -c dict_zip_stat_add)" -gt 0 ] ||
  die "$PBIN/mysqld is not the patched server (scripts/build-stock.sh still running?)"
series=$(git -C "$COMPRESS_ROOT" rev-parse --short HEAD)
REPORT="${1:-$COMPRESS_ROOT/bench/results/corrupt/$(date -u +%Y%m%d)-$series.txt}"
mkdir -p "$(dirname "$REPORT")"

rm -rf "$W"; mkdir -p "$W"
SRV_DIR="$W"; SRV_BIN="$PBIN"; SRV_PORT=13327; SRV_WAIT=240
. "$(dirname "$0")/server-lib.sh"
trap 'srv_kill' EXIT   # no server left behind by a failure
# No buffer pool dump or load: a page read before a stop must not be read
# again at the next start.
OPTS=(--lc-messages-dir="$MSG_DIR" --innodb-buffer-pool-size=32M --skip-log-bin
      --innodb-buffer-pool-dump-at-shutdown=OFF --innodb-buffer-pool-load-at-startup=OFF
      --innodb-redo-log-capacity=16M)

# The damages: NAME and what it does to the page at byte P of a file whose
# pages are Z bytes (perl; $f is the open file). PAGE_HEADER is at 38, the
# stream at PAGE_DATA = 94, the dense directory at the end of the page
# (slot 0 in its last 2 bytes).
CASES="stream_data stream_head stream_zeros n_heap_big n_heap_small n_recs
       n_dir_slots heap_top level dir_slot_header dir_slot_far trx_area"
damage_perl() {
  cat <<'EOF'
use strict;
my ($file, $z, $case) = @ARGV;
open(my $f, '+<:raw', $file) or die "open $file: $!";
my $p = 4 * $z;
sub rd2 { my ($o) = @_; seek($f, $p + $o, 0); read($f, my $b, 2) == 2 or die; return unpack('n', $b); }
sub wr2 { my ($o, $v) = @_; seek($f, $p + $o, 0); print $f pack('n', $v); }
sub xor1 { my ($o) = @_; seek($f, $p + $o, 0); read($f, my $b, 1) == 1 or die;
           seek($f, $p + $o, 0); print $f chr(ord($b) ^ 0x5a); }
if    ($case eq 'stream_data')  { xor1(94 + 60); }
elsif ($case eq 'stream_head')  { xor1(94 + 3); }
elsif ($case eq 'stream_zeros') { seek($f, $p + 94 + 24, 0); print $f "\0" x 48; }
elsif ($case eq 'n_heap_big')   { wr2(38 + 4, rd2(38 + 4) + 30); }
elsif ($case eq 'n_heap_small') { wr2(38 + 4, 0x8000 | 3); }
elsif ($case eq 'n_recs')       { wr2(38 + 16, 200); }
elsif ($case eq 'n_dir_slots')  { wr2(38 + 0, 0xff); }
elsif ($case eq 'heap_top')     { wr2(38 + 2, 0x3fff); }
elsif ($case eq 'level')        { wr2(38 + 26, 1); }
elsif ($case eq 'dir_slot_header') { wr2($z - 2, (rd2($z - 2) & 0xc000) | 0x30); }
elsif ($case eq 'dir_slot_far') { wr2($z - 2, (rd2($z - 2) & 0xc000) | 0x3ff0); }
elsif ($case eq 'trx_area')     { xor1($z - 40 - 100); }
else { die "unknown case $case"; }
close($f) or die;
EOF
}

log "writing the tables with the patched server ($series)"
D0="$W/data0"
srv_init "$PBIN" "$D0" --lc-messages-dir="$MSG_DIR" --innodb-redo-log-capacity=16M
srv_start "$PBIN" "$D0" "$W/write.err" "${OPTS[@]}" || die "the patched server did not start: $(tail -5 "$W/write.err")"
srv_client -e "CREATE DATABASE test" || die "CREATE DATABASE failed"
tables=()
for c in $CASES; do
  for codec in isal zlib; do
    for kbs in 8 2; do
      t="${c}_${codec}_$kbs"; tables+=("$t")
      srv_client -e "SET SESSION cte_max_recursion_depth = 100;
        CREATE TABLE test.$t (id INT PRIMARY KEY, b VARCHAR(100))
          ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=$kbs
          ENGINE_ATTRIBUTE='{\"compression_codec\": \"$codec\"}';
        INSERT INTO test.$t WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 20)
          SELECT n, CONCAT('row ', n, ' ', REPEAT('text ', n % 7)) FROM s;
        ALTER TABLE test.$t FORCE" || die "creating $t failed"
    done
  done
done
# What each table holds, undamaged.
for t in "${tables[@]}"; do
  printf '%s\t%s\n' "$t" "$(srv_client -e "SELECT COUNT(*), SUM(id), SHA2(GROUP_CONCAT(id, b ORDER BY id), 256) FROM test.$t" | tr '\t' ' ')"
done > "$W/intact.txt"
srv_stop

perl_file="$W/damage.pl"; damage_perl > "$perl_file"
for t in "${tables[@]}"; do
  c=${t%_*_*}; kbs=${t##*_}
  perl "$perl_file" "$D0/test/$t.ibd" $((kbs * 1024)) "$c" || die "damaging $t failed"
  "$PBIN/innochecksum" --no-check --write=crc32 "$D0/test/$t.ibd" >/dev/null 2>&1 \
    || die "innochecksum --write failed on $t"
done

# outcome ERRLOG: reads every table, one outcome line per table.
norm() { sed -E -e 's/^[^ ]+ [0-9]+ //' -e 's/[0-9]+/N/g' -e 's/0xN[0-9a-fA-FN]*/0xN/g' | tr '\n' ' '; }
read_all() {  # read_all NAME BIN [mysqld options]
  local name=$1 bin=$2; shift 2
  local d="$W/data-$name" err="$W/$name.err" t out rc before
  cp -a "$D0" "$d"
  : > "$err"
  srv_start "$bin" "$d" "$err" "${OPTS[@]}" "$@" || die "$name did not start: $(tail -5 "$err")"
  for t in "${tables[@]}"; do
    before=$(wc -l < "$err")
    out=$(timeout 120 "$PBIN/mysql" --socket="$(srv_sock)" -uroot -N -B -e \
      "SELECT COUNT(*), SUM(id), SHA2(GROUP_CONCAT(id, b ORDER BY id), 256) FROM test.$t" 2>&1)
    rc=$?
    if [ $rc -eq 124 ]; then
      printf '%s\thung\n' "$t"; srv_kill
    elif srv_alive; then
      if [ $rc -eq 0 ]; then printf '%s\trows: %s\n' "$t" "$(printf '%s' "$out" | tr '\t' ' ')"
      else printf '%s\terror: %s\n' "$t" "$(printf '%s' "$out" | norm)"; fi
    else
      srv_wait "$(srv_pid)" >/dev/null 2>&1 || true
      sleep 1
      printf '%s\tstopped: %s\n' "$t" \
        "$(tail -n +"$((before + 1))" "$err" | grep -E '\[ERROR\]' | norm)"
    fi
    if ! srv_alive; then
      srv_kill
      srv_start "$bin" "$d" "$err" "${OPTS[@]}" "$@" || die "$name did not start again: $(tail -5 "$err")"
    fi
  done > "$W/$name.txt"
  srv_stop
}
log "reading with the patched server, ISA-L's inflate"
read_all patched-isal "$PBIN" --innodb-compression-codec=isal
log "reading with the patched server, zlib's inflate"
read_all patched-zlib "$PBIN" --innodb-compression-codec=zlib
log "reading with stock"
SRV_BIN_SAVE=$SRV_BIN
read_all stock "$STOCK/mysqld"
SRV_BIN=$SRV_BIN_SAVE

# The report.
bad=0
{
  echo "# Damaged compressed pages read by the patched server and by stock, $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "series: $series"
  echo "patched: $("$PBIN/mysqld" --version 2>&1 | head -1)"
  echo "stock:   $(cat "$STOCK/VERSION" 2>/dev/null || "$STOCK/mysqld" --version 2>&1 | head -1)"
  echo "tables: ${#tables[@]} (cases: $(echo $CASES | wc -w); codecs isal, zlib; KEY_BLOCK_SIZE 8, 2)"
  echo
  for r in patched-isal patched-zlib; do
    same=0; stricter=0; lenient=0; both_refuse=0; bad_n=0
    while IFS=$'\t' read -r t ours; do
      theirs=$(grep -P "^$t\t" "$W/stock.txt" | cut -f2-)
      intact="rows: $(grep -P "^$t\t" "$W/intact.txt" | cut -f2-)"
      if [ "$ours" = "$theirs" ]; then same=$((same + 1)); v=same
      elif [ "$ours" = hung ]; then bad_n=$((bad_n + 1)); v=HUNG
      elif [[ $ours = rows:* ]]; then
        # Ours returns rows where stock does not: the intact rows (the
        # damage did not touch what they are made of) or wrong ones.
        if [ "$ours" = "$intact" ]; then lenient=$((lenient + 1)); v=intact-rows
        else bad_n=$((bad_n + 1)); v=WRONG-ROWS; fi
      elif [[ $theirs = stopped:* || ( $theirs = rows:* && $theirs != "$intact" ) ]]; then
        # Ours refuses (an error or upstream's stop after a failed
        # decompression) where stock stops elsewhere or returns wrong rows.
        stricter=$((stricter + 1)); v=stricter
      elif [ "$theirs" = "$intact" ]; then bad_n=$((bad_n + 1)); v=REFUSED-INTACT
      else both_refuse=$((both_refuse + 1)); v=both-refuse
      fi
      printf '%s %s %s\n' "$r" "$t" "$v" >> "$W/verdicts.txt"
    done < "$W/$r.txt"
    echo "$r against stock: $same same, $stricter stricter, $both_refuse refused with another message, $lenient returned the intact rows where stock did not, $bad_n bad (wrong rows, hung, or refused rows stock reads intact)"
    [ $bad_n -eq 0 ] || bad=1
  done
  stock_hung=$(grep -c $'\thung$' "$W/stock.txt" || true)
  echo "stock hung on: $stock_hung"
  echo
  echo "## Each read (table: intact | patched-isal | patched-zlib | stock; verdicts)"
  for t in "${tables[@]}"; do
    echo "$t"
    echo "  intact:       $(grep -P "^$t\t" "$W/intact.txt" | cut -f2-)"
    for r in patched-isal patched-zlib stock; do
      printf '  %-13s %s\n' "$r:" "$(grep -P "^$t\t" "$W/$r.txt" | cut -f2- | cut -c1-400)"
    done
    echo "  verdicts:     $(grep " $t " "$W/verdicts.txt" | awk '{print $1 "=" $3}' | tr '\n' ' ')"
  done
} > "$REPORT"
head -n 9 "$REPORT"
log "report: $REPORT"
exit $bad
