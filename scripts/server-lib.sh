# Helpers to run a throw-away mysqld on a data directory of its own: start,
# clean shutdown, kill -9, initialize, and a client. Sourced (after
# common.sh), not run; used by crash-test.sh and downgrade-check.sh.
#
# The caller sets, before calling any helper:
#   SRV_DIR   directory of the socket, pid file and the server's OS pid
#   SRV_BIN   directory of the mysql and mysqladmin clients
#   SRV_PORT  TCP port (bound to 127.0.0.1 only)
#   SRV_WAIT  optional: half-seconds to wait for a start (default 300)
# Each server runs with --no-defaults, so no option file on the machine
# changes what the scripts measure.

user_opt=(); [ "$(id -u)" -eq 0 ] && user_opt=(--user=root)

srv_sock() { printf '%s/mysqld.sock' "$SRV_DIR"; }

# srv_client [mysql args]: batch mode, no column names.
srv_client() { "$SRV_BIN/mysql" --socket="$(srv_sock)" -uroot -N -B "$@"; }

srv_alive() { "$SRV_BIN/mysqladmin" --socket="$(srv_sock)" -uroot ping >/dev/null 2>&1; }

# srv_init MYSQLD_DIR DATADIR [mysqld options]: mysqld --initialize-insecure;
# dies with the server's log if it fails.
srv_init() {
  local bin=$1 data=$2; shift 2
  "$bin/mysqld" --no-defaults --initialize-insecure "${user_opt[@]}" \
    --datadir="$data" --log-error="$data.init.err" "$@" \
    || { cat "$data.init.err" >&2; die "mysqld --initialize failed ($bin)"; }
}

# srv_start MYSQLD_DIR DATADIR ERRLOG [mysqld options]: starts the server in
# the background and waits until it answers; returns 1 if it exits or does
# not answer in time (the caller decides whether that is an error).
srv_start() {
  local bin=$1 data=$2 err=$3; shift 3
  "$bin/mysqld" --no-defaults "${user_opt[@]}" --datadir="$data" \
    --socket="$(srv_sock)" --port="$SRV_PORT" --bind-address=127.0.0.1 \
    --pid-file="$SRV_DIR/mysqld.pid" --log-error="$err" "$@" \
    > /dev/null 2>&1 &
  echo $! > "$SRV_DIR/mysqld.ospid"
  # Not a job of this shell: no "Killed" report at every kill -9.
  disown
  local i
  for i in $(seq 1 "${SRV_WAIT:-300}"); do
    srv_alive && return 0
    kill -0 "$(cat "$SRV_DIR/mysqld.ospid")" 2>/dev/null || break
    sleep 0.5
  done
  return 1
}

# srv_stop: clean shutdown; waits until the process is gone.
srv_stop() {
  local pid; pid=$(cat "$SRV_DIR/mysqld.ospid")
  "$SRV_BIN/mysqladmin" --socket="$(srv_sock)" -uroot shutdown >/dev/null 2>&1 || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
}

# srv_kill: kill -9, as a crash; waits until the process is gone.
srv_kill() {
  local pid; pid=$(cat "$SRV_DIR/mysqld.ospid")
  kill -9 "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}
