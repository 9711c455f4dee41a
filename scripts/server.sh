#!/usr/bin/env bash
# Runs the patched server on a local data directory, for the demo and for
# experiments. Usage: scripts/server.sh start|stop|status|client [mysql args]
#   COMPRESS_SERVER_DIR  data, socket and log (default $COMPRESS_CACHE_DIR/server)
#   COMPRESS_SERVER_PORT TCP port (default 13306)
#   COMPRESS_SERVER_OPTS extra mysqld options
# Start, stop and the client are those of server-lib.sh.
set -euo pipefail
. "$(dirname "$0")/common.sh"

SDIR="${COMPRESS_SERVER_DIR:-$COMPRESS_CACHE_DIR/server}"
BIN="$BUILD_DIR/runtime_output_directory"
PLUGIN_DIR="$BUILD_DIR/plugin_output_directory"
SRV_DIR="$SDIR"; SRV_BIN="$BIN"; SRV_PORT="${COMPRESS_SERVER_PORT:-13306}"
SRV_WAIT=240  # half-seconds
. "$(dirname "$0")/server-lib.sh"
SOCK="$(srv_sock)"

case "${1:-}" in
  start)
    [ -x "$BIN/mysqld" ] || die "mysqld is not built: run scripts/build.sh"
    if srv_alive; then log "server already running (socket $SOCK)"; exit 0; fi
    mkdir -p "$SDIR"
    if [ ! -d "$SDIR/data/mysql" ]; then
      log "initializing $SDIR/data"
      rm -rf "$SDIR/data"
      srv_init "$BIN" "$SDIR/data"
    fi
    # shellcheck disable=SC2086
    if srv_start "$BIN" "$SDIR/data" "$SDIR/mysqld.err" \
         --plugin-dir="$PLUGIN_DIR" --plugin-load-add=compression_stats.so \
         --innodb-buffer-pool-size=256M --skip-log-bin \
         ${COMPRESS_SERVER_OPTS:-}; then
      log "server running: socket $SOCK, error log $SDIR/mysqld.err"
      exit 0
    fi
    tail -20 "$SDIR/mysqld.err" >&2
    die "server did not start"
    ;;
  stop)
    if srv_alive; then srv_stop; log "server stopped"; else log "server not running"; fi
    ;;
  status)
    if srv_alive; then echo "running (socket $SOCK)"; else echo "stopped"; exit 1; fi
    ;;
  client)
    shift; srv_mysql "$@"
    ;;
  *)
    echo "usage: $0 start|stop|status|client [mysql args]" >&2; exit 2
    ;;
esac
