#!/usr/bin/env bash
# The long run of the differential twins (docs/testing.md, "Differential
# twins"): starts a private patched server with an 8 MB buffer pool and
# change buffering on, runs mysql-test/suite/compress/include/twins.py for
# a given time with each seed in turn (an uncompressed reference table and
# 13 compressed twins: every twin must hold exactly the reference's rows at
# every checkpoint), writes bench/results/twins-<date>.txt and stops the
# server. Not part of CI (the mtr test compress.twins_short is the short
# run). Exits 1 if any seed found a twin that differs (its tables, prefixed
# tw<seed>_, are kept in the server's data directory), 2 on an error.
#
#   scripts/twins.sh [minutes per seed] [seed...]   (default 10; seeds 1 2 3)
#   COMPRESS_TWINS_CONNECTIONS  connections of the generator (default 3)
#   COMPRESS_TWINS_ROWS         rows each connection keeps (default 1500)
#   COMPRESS_TWINS_CHECKPOINT   statements between checkpoints (default 600)
#   COMPRESS_TWINS_PORT         the server's port (default 13336)
#   COMPRESS_TWINS_OPTS         more mysqld options
#   COMPRESS_TWINS_REPORT       the report file (default
#                               bench/results/twins-YYYYMMDD-HHMM.txt)
set -euo pipefail
. "$(dirname "$0")/common.sh"

minutes="${1:-10}"
shift || true
seeds=("$@")
[ ${#seeds[@]} -gt 0 ] || seeds=(1 2 3)
conns="${COMPRESS_TWINS_CONNECTIONS:-3}"
rows="${COMPRESS_TWINS_ROWS:-1500}"
every="${COMPRESS_TWINS_CHECKPOINT:-600}"
BIN="$BUILD_DIR/runtime_output_directory"
[ -x "$BIN/mysqld" ] || die "mysqld is not built: run scripts/build.sh"

export COMPRESS_SERVER_DIR="$COMPRESS_CACHE_DIR/twins-server"
export COMPRESS_SERVER_PORT="${COMPRESS_TWINS_PORT:-13336}"
export COMPRESS_SERVER_OPTS="--innodb-buffer-pool-size=8M --innodb-change-buffering=all ${COMPRESS_TWINS_OPTS:-}"
server() { bash "$COMPRESS_ROOT/scripts/server.sh" "$@"; }
sock="$COMPRESS_SERVER_DIR/mysqld.sock"

stamp=$(date +%Y%m%d-%H%M)
report="${COMPRESS_TWINS_REPORT:-$COMPRESS_ROOT/bench/results/twins-$stamp.txt}"
mkdir -p "$(dirname "$report")"
runs=$(mktemp "${TMPDIR:-/tmp}/twins-runs.XXXXXX")
trap 'rm -f "$runs"' EXIT

# A server left running by an earlier run may have other options: restart.
if server status >/dev/null 2>&1; then server stop; fi
server start
trap 'rm -f "$runs"; server stop || true' EXIT
server client -e "CREATE DATABASE IF NOT EXISTS twins"

commit=$(git -C "$COMPRESS_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$COMPRESS_ROOT" status --porcelain --untracked-files=no 2>/dev/null | grep -c . || true)
rc=0
t_start=$SECONDS
for seed in "${seeds[@]}"; do
  log "seed $seed: $minutes minutes, $conns connections"
  set +e
  python3 "$COMPRESS_ROOT/mysql-test/suite/compress/include/twins.py" \
    --socket="$sock" --user=root --database=twins --prefix="tw${seed}_" \
    --seed="$seed" --duration=$((minutes * 60)) --connections="$conns" \
    --rows="$rows" --checkpoint-every="$every" --report="$runs" --report-append
  r=$?
  set -e
  log "seed $seed: exit status $r"
  [ "$r" -gt "$rc" ] && rc=$r
done
secs=$((SECONDS - t_start))

{
  echo "# scripts/twins.sh, $(date '+%Y-%m-%d %H:%M'), commit $commit$([ "$dirty" != 0 ] && echo " (+$dirty modified tracked files)")"
  echo "# mysqld: $BIN/mysqld ($(basename "$BUILD_DIR")), options: $COMPRESS_SERVER_OPTS"
  echo "# $minutes minutes per seed, seeds ${seeds[*]}, $conns connections, $rows rows per connection, a checkpoint every $every statements"
  echo
  echo "total: seconds $secs"
  awk '/^summary:/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[2] ~ /^[0-9.]+$/) s[kv[1]] += kv[2] } }
       END { printf "total:"; n = 0
             split("statements rows_inserted rows_updated rows_deleted checkpoints compress_ops compress_ops_ok uncompress_ops codec_compress_isal codec_compress_zlib codec_compress_appended codec_compress_rescued codec_checks codec_check_failures buffer_pool_reads change_buffer_merges", k, " ")
             for (i = 1; k[i] != ""; i++) printf " %s %d%s", k[i], s[k[i]], (k[i+1] != "" ? "," : "\n") }' "$runs"
  grep -h '^seed:\|^result:' "$runs" | paste - - | sed 's/^/run: /'
  echo "result: $([ "$rc" = 0 ] && echo "OK, every twin equal to the reference at every checkpoint" || echo "FAILED (exit status $rc)")"
  echo
  cat "$runs"
} > "$report"
log "report: $report"
sed -n '1,12p' "$report" >&2
exit "$rc"
