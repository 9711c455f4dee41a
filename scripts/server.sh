#!/usr/bin/env bash
# Runs the patched server on a local data directory, for the demo and for
# experiments. Usage: scripts/server.sh start|stop|status|client [mysql args]
#   COMPRESS_SERVER_DIR  data, socket and log (default $COMPRESS_CACHE_DIR/server)
#   COMPRESS_SERVER_OPTS extra mysqld options
set -euo pipefail
. "$(dirname "$0")/common.sh"

SDIR="${COMPRESS_SERVER_DIR:-$COMPRESS_CACHE_DIR/server}"
BIN="$BUILD_DIR/runtime_output_directory"
PLUGIN_DIR="$BUILD_DIR/plugin_output_directory"
SOCK="$SDIR/mysqld.sock"
user_opt=(); [ "$(id -u)" -eq 0 ] && user_opt=(--user=root)

client() { "$BIN/mysql" --socket="$SOCK" -uroot "$@"; }
alive() { "$BIN/mysqladmin" --socket="$SOCK" -uroot ping >/dev/null 2>&1; }

case "${1:-}" in
  start)
    [ -x "$BIN/mysqld" ] || die "mysqld is not built: run scripts/build.sh"
    if alive; then log "server already running (socket $SOCK)"; exit 0; fi
    mkdir -p "$SDIR"
    if [ ! -d "$SDIR/data/mysql" ]; then
      log "initializing $SDIR/data"
      rm -rf "$SDIR/data"
      "$BIN/mysqld" --no-defaults --initialize-insecure "${user_opt[@]}" \
        --datadir="$SDIR/data" --log-error="$SDIR/init.err" \
        || { cat "$SDIR/init.err"; die "mysqld --initialize failed"; }
    fi
    "$BIN/mysqld" --no-defaults "${user_opt[@]}" --datadir="$SDIR/data" \
      --socket="$SOCK" --port="${COMPRESS_SERVER_PORT:-13306}" --bind-address=127.0.0.1 \
      --pid-file="$SDIR/mysqld.pid" --log-error="$SDIR/mysqld.err" \
      --plugin-dir="$PLUGIN_DIR" --plugin-load-add=compression_stats.so \
      --innodb-buffer-pool-size=256M --skip-log-bin \
      ${COMPRESS_SERVER_OPTS:-} > /dev/null 2>&1 &
    for _ in $(seq 1 120); do
      alive && { log "server running: socket $SOCK, error log $SDIR/mysqld.err"; exit 0; }
      sleep 1
    done
    tail -20 "$SDIR/mysqld.err" >&2
    die "server did not start"
    ;;
  stop)
    if alive; then "$BIN/mysqladmin" --socket="$SOCK" -uroot shutdown; log "server stopped"; else log "server not running"; fi
    ;;
  status)
    if alive; then echo "running (socket $SOCK)"; else echo "stopped"; exit 1; fi
    ;;
  client)
    shift; client "$@"
    ;;
  *)
    echo "usage: $0 start|stop|status|client [mysql args]" >&2; exit 2
    ;;
esac
