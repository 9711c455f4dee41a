# The one implementation of a mysqld on a data directory of its own: its
# command line, initialize, start, ping, clean shutdown, kill -9 and the
# client. Used by scripts/server.sh (the demo's and the measurement
# scripts' server), crash-test.sh, downgrade-check.sh and the benchmark
# harness (bench/harness/server.py).
#
# Sourced (after common.sh) by a script, which calls the srv_* functions;
# or run as a command by a program in another language (the harness):
#   bash scripts/server-lib.sh COMMAND [ARGS]
#     init MYSQLD DATADIR [mysqld options]          srv_init
#     start MYSQLD DATADIR ERRLOG [mysqld options]  srv_start, then prints
#                                                   the server's OS pid
#     run MYSQLD DATADIR ERRLOG [mysqld options]    srv_exec: mysqld in place
#                      of this command (same pid), for a caller that keeps
#                      the process as its child; then `wait PID`
#     wait [PID]       srv_wait; alive: srv_alive; stop: srv_stop;
#                      kill: srv_kill
#     client [mysql args]  srv_client; mysql [mysql args]: srv_mysql
#     client-cmd       srv_client's command, NUL-separated, for a caller that
#                      runs many queries without a shell each
#   with the variables below in the environment.
#
# The caller sets, before calling any helper:
#   SRV_DIR   directory of the socket, pid file and the server's OS pid
#   SRV_BIN   directory of the mysql and mysqladmin clients
#   SRV_PORT  TCP port (bound to 127.0.0.1 only)
#   SRV_WAIT  optional: half-seconds to wait for a start (default 300)
#   SRV_STOP_WAIT optional: seconds srv_stop waits for a clean shutdown
#             before a kill -9 (default: as long as it takes)
#   SRV_WRAPPER optional: a program and its arguments, one a line, that
#             mysqld runs under (valgrind)
# MYSQLD is the directory of mysqld or the mysqld binary itself. Each server
# runs with --no-defaults, so no option file on the machine changes what the
# scripts measure.

user_opt=(); [ "$(id -u)" -eq 0 ] && user_opt=(--user=root)

srv_sock() { printf '%s/mysqld.sock' "$SRV_DIR"; }

# srv_pid: the OS pid of the server last started in SRV_DIR (empty if none).
srv_pid() { cat "$SRV_DIR/mysqld.ospid" 2>/dev/null || true; }

# srv_mysqld MYSQLD: the binary of a directory or a binary.
srv_mysqld() { if [ -d "$1" ]; then printf '%s/mysqld' "$1"; else printf '%s' "$1"; fi; }

# srv_client_cmd [batch]: sets the array SRV_CLIENT to the client's command
# (mysql on the socket, as root; batch: batch mode, no column names).
srv_client_cmd() {
  SRV_CLIENT=("$SRV_BIN/mysql" --socket="$(srv_sock)" -uroot)
  if [ "${1:-}" = batch ]; then SRV_CLIENT+=(-N -B); fi
}

# srv_mysql [mysql args]: the client as it is (a prompt, --table, a script).
srv_mysql() { local -a SRV_CLIENT; srv_client_cmd; "${SRV_CLIENT[@]}" "$@"; }

# srv_client [mysql args]: batch mode, no column names.
srv_client() { local -a SRV_CLIENT; srv_client_cmd batch; "${SRV_CLIENT[@]}" "$@"; }

srv_alive() { "$SRV_BIN/mysqladmin" --socket="$(srv_sock)" -uroot ping >/dev/null 2>&1; }

# srv_running PID: the process is there and has not exited (a zombie has:
# a server whose parent does not reap it stays one).
srv_running() {
  [ -n "$1" ] && kill -0 "$1" 2>/dev/null &&
    ! grep -qs '^State:[[:space:]]*Z' "/proc/$1/status"
}

# srv_init MYSQLD DATADIR [mysqld options]: mysqld --initialize-insecure;
# dies with the server's log (DATADIR.init.err) if it fails.
srv_init() {
  local bin data=$2; bin=$(srv_mysqld "$1"); shift 2
  "$bin" --no-defaults --initialize-insecure "${user_opt[@]}" \
    --datadir="$data" --log-error="$data.init.err" "$@" \
    || { cat "$data.init.err" >&2; die "mysqld --initialize failed ($bin)"; }
}

# srv_exec MYSQLD DATADIR ERRLOG [mysqld options]: replaces the calling
# shell (exec) by the server, under SRV_WRAPPER if set.
srv_exec() {
  local bin data=$2 err=$3; bin=$(srv_mysqld "$1"); shift 3
  local -a wrap=()
  if [ -n "${SRV_WRAPPER:-}" ]; then mapfile -t wrap <<< "$SRV_WRAPPER"; fi
  exec "${wrap[@]}" "$bin" --no-defaults "${user_opt[@]}" --datadir="$data" \
    --socket="$(srv_sock)" --port="$SRV_PORT" --bind-address=127.0.0.1 \
    --pid-file="$SRV_DIR/mysqld.pid" --log-error="$err" "$@"
}

# srv_wait [PID]: waits until the server answers (returns 0), its process
# (PID, default srv_pid) exits or SRV_WAIT half-seconds pass (returns 1).
srv_wait() {
  local pid=${1:-$(srv_pid)} i
  for i in $(seq 1 "${SRV_WAIT:-300}"); do
    srv_alive && return 0
    srv_running "$pid" || break
    sleep 0.5
  done
  return 1
}

# srv_start MYSQLD DATADIR ERRLOG [mysqld options]: starts the server in
# the background and waits until it answers; returns 1 if it exits or does
# not answer in time (the caller decides whether that is an error).
srv_start() {
  srv_exec "$@" > /dev/null 2>&1 &
  echo $! > "$SRV_DIR/mysqld.ospid"
  # Not a job of this shell: no "Killed" report at every kill -9.
  disown
  srv_wait
}

# srv_stop: clean shutdown; waits until the process is gone (a kill -9
# after SRV_STOP_WAIT seconds, if set).
srv_stop() {
  local pid t0=$SECONDS; pid=$(srv_pid)
  "$SRV_BIN/mysqladmin" --socket="$(srv_sock)" -uroot shutdown >/dev/null 2>&1 || true
  while srv_running "$pid"; do
    if [ -n "${SRV_STOP_WAIT:-}" ] && [ $((SECONDS - t0)) -ge "$SRV_STOP_WAIT" ]; then
      srv_kill
      return 0
    fi
    sleep 0.2
  done
}

# srv_kill: kill -9, as a crash; waits until the process is gone.
srv_kill() {
  local pid; pid=$(srv_pid)
  [ -n "$pid" ] || return 0
  kill -9 "$pid" 2>/dev/null || true
  while srv_running "$pid"; do sleep 0.1; done
}

# ---------------------------------------------------------------------------
# Helpers of the measurement scripts that use the server of scripts/server.sh
# (COMPRESS_SERVER_DIR): scripts/accuracy/ (through its lib.sh) and
# bench/bulk-load.sh, bench/bulk-write.sh.

sql() { bash "$COMPRESS_ROOT/scripts/server.sh" client -N -B "$@"; }
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }
# used_pages DB TABLE: pages in use by the table's B-trees (USED_PAGES of a
# one-page COMPRESSION_STATS_ESTIMATE(); the plugin must be installed).
used_pages() {
  sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$1', '$2', 1)" >/dev/null
  sql -e "SELECT MAX(USED_PAGES) FROM information_schema.COMPRESSION_ESTIMATES
          WHERE TABLE_SCHEMA='$1' AND TABLE_NAME='$2'"
}
# load_set SET DB: load a data set into schema DB (dropped first); the
# generators are those of scripts/accuracy/.
#   spec    TPC-C-like, specification-conformant random a-strings ($W
#           warehouses)
#   words   the same schema and rules, a-strings of English words
#           (@tpcc_data = 'words'): compresses well
#   dbt2    DBT-2's schema and generator (@tpcc_data = 'dbt2')
#   text    40,812 paragraphs of English prose (text_corpus.py)
#   docs    the same prose as documents of 8 to 64 KB (text_corpus.py
#           --docs): columns stored off-page
#   random  25,000 rows of 200 random bytes (RANDOM_BYTES): nothing to save
#   small   300,000 small records (id, a = id mod 7, KEY (a)): hundreds of
#           records per page, where at 1-2 KB a failed compression often
#           stops before it can measure (issue 28's case)
load_set() {
  local acc="$COMPRESS_ROOT/scripts/accuracy"
  log "loading data set $1 into schema $2" >&2
  sql -e "DROP DATABASE IF EXISTS $2; CREATE DATABASE $2"
  case "$1" in
    spec|words)
      sql "$2" < "$acc/tpcc_schema.sql"
      sql "$2" < "$acc/tpcc_load.sql"
      sql "$2" -e "SET @tpcc_data = '$1'; CALL tpcc_load(${W:-1}); DROP TABLE IF EXISTS tpcc_seq" ;;
    dbt2)
      sql "$2" < "$acc/tpcc_schema_dbt2.sql"
      sql "$2" < "$acc/tpcc_load.sql"
      sql "$2" -e "SET @tpcc_data = 'dbt2'; CALL tpcc_load(${W:-1}); DROP TABLE IF EXISTS tpcc_seq" ;;
    text)
      sql "$2" -e "CREATE TABLE text_doc (id INT AUTO_INCREMENT PRIMARY KEY,
        source VARCHAR(64) NOT NULL, body TEXT NOT NULL, KEY (source))"
      python3 "$acc/text_corpus.py" "$SRC_DIR" | sql "$2" ;;
    docs)
      sql "$2" -e "CREATE TABLE text_blob (id INT AUTO_INCREMENT PRIMARY KEY,
        title VARCHAR(64) NOT NULL, body MEDIUMTEXT NOT NULL)"
      python3 "$acc/text_corpus.py" --docs "$SRC_DIR" | sql "$2" ;;
    random)
      sql "$2" -e "SET SESSION cte_max_recursion_depth = 100000;
        CREATE TABLE random_bytes (id INT PRIMARY KEY, n INT NOT NULL,
                                   b VARBINARY(255) NOT NULL);
        INSERT INTO random_bytes WITH RECURSIVE s(i) AS
          (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 25000)
          SELECT i, i, RANDOM_BYTES(200) FROM s" ;;
    small)
      sql "$2" -e "SET SESSION cte_max_recursion_depth = 300000;
        CREATE TABLE small_rows (id INT PRIMARY KEY, a INT, KEY (a));
        INSERT INTO small_rows WITH RECURSIVE s(i) AS
          (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 300000)
          SELECT i, i % 7 FROM s" ;;
    *) die "unknown data set $1" ;;
  esac
}

# ---------------------------------------------------------------------------
# Run as a command (see the top).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  . "$(dirname "${BASH_SOURCE[0]}")/common.sh"
  : "${SRV_DIR:?set SRV_DIR}" "${SRV_BIN:?set SRV_BIN}"
  cmd=${1:-}; shift || true
  case "$cmd" in
    init) srv_init "$@" ;;
    start) SRV_PORT=${SRV_PORT:?set SRV_PORT}; srv_start "$@"; srv_pid ;;
    run) SRV_PORT=${SRV_PORT:?set SRV_PORT}; echo $$ > "$SRV_DIR/mysqld.ospid"; srv_exec "$@" ;;
    wait) srv_wait "$@" ;;
    alive) srv_alive ;;
    stop) srv_stop ;;
    kill) srv_kill ;;
    client) srv_client "$@" ;;
    mysql) srv_mysql "$@" ;;
    client-cmd) srv_client_cmd batch; printf '%s\0' "${SRV_CLIENT[@]}" ;;
    *) echo "usage: SRV_DIR=... SRV_BIN=... [SRV_PORT=...] bash $0 init|start|run|wait|alive|stop|kill|client|mysql|client-cmd [args]" >&2; exit 2 ;;
  esac
fi
