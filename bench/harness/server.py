"""Server control. Every mysqld of the harness is started, stopped and
queried through scripts/server-lib.sh, the one implementation of the
server's command line, initialize, start, ping, stop, kill -9 and client
(shared with scripts/server.sh, crash-test.sh and downgrade-check.sh),
run as a command (`bash scripts/server-lib.sh COMMAND`):

  run     mysqld in place of the command (exec), so that the harness owns
          the process: its pid for the I/O throttle, perf and callgrind,
          a session of its own, a valgrind wrapper (SRV_WRAPPER)
  wait    until the server answers a ping or its process has exited
  stop    mysqladmin shutdown, then until the process is gone (a kill -9
          after SRV_STOP_WAIT seconds)
  init    mysqld --initialize-insecure
  client-cmd  the batch client's command, asked once per server, so that a
          query (some are timed) costs no extra shell

One server at a time per run: its socket, pid files and error log are in
work_path("run") (SRV_DIR)."""

import os
import subprocess

from . import settings
from .paths import BIN, LUA, PLUGIN_DIR, PORT, SERVER_LIB, work_path
from .settings import DB
from .util import die


def lib_env(rundir=None, env=None):
    """The environment of server-lib.sh for the server whose socket and pid
    files are in rundir (default work_path("run")), with the clients of
    this build; env: more variables of the helper."""
    return dict(os.environ, SRV_DIR=rundir or work_path("run"), SRV_BIN=BIN,
                SRV_PORT=str(PORT), **(env or {}))


def server_lib(command, args=(), rundir=None, env=None, **kw):
    """bash scripts/server-lib.sh COMMAND ARGS (subprocess.run)."""
    return subprocess.run(["bash", SERVER_LIB, command] + list(args),
                          env=lib_env(rundir, env), **kw)


def initialize(datadir, opts=()):
    """mysqld --initialize-insecure of this build into datadir (the log in
    datadir.init.err); an exception if it fails."""
    server_lib("init", [BIN, datadir] + list(opts), check=True)


class Server:
    """One mysqld: the options of srv_exec (--no-defaults, the run's socket,
    port, pid file, error log, --user=root as root), then options()."""

    def __init__(self, datadir, opts, mysqld=None, wrapper=None):
        self.datadir = datadir
        # Another binary brings its own plugin: a compression_stats.so next
        # to it is loaded instead of this build's (the service it uses may
        # differ between versions).
        self.plugin_dir = PLUGIN_DIR
        if mysqld and os.path.exists(os.path.join(os.path.dirname(mysqld),
                                                  "compression_stats.so")):
            self.plugin_dir = os.path.dirname(os.path.abspath(mysqld))
        self.rundir = work_path("run")
        os.makedirs(self.rundir, exist_ok=True)
        # srv_sock of server-lib.sh
        self.sock = os.path.join(self.rundir, "mysqld.sock")
        self.err = os.path.join(self.rundir, "mysqld.err")
        self.mysqld = mysqld or os.path.join(BIN, "mysqld")
        self.wrapper = wrapper or []
        self.opts = opts
        self.proc = None
        self.client = None

    def options(self):
        """mysqld's options besides srv_exec's: the benchmark's settings,
        then the run's and the caller's (opts)."""
        args = ["--plugin-dir=%s" % self.plugin_dir,
                "--plugin-load-add=compression_stats.so",
                "--skip-log-bin",
                "--innodb_flush_method=O_DIRECT",
                "--innodb_redo_log_capacity=1G",
                "--innodb_flush_log_at_trx_commit=2",
                "--innodb_doublewrite=ON",
                "--max_connections=200",
                "--performance_schema=ON",
                "--performance-schema-instrument=wait/synch/sxlock/innodb/index_tree_rw_lock=ON",
                "--performance-schema-instrument=wait/synch/mutex/innodb/page_zip_stat_per_index_mutex=ON",
                ]
        opts = dict(self.opts)
        # --codec: every server of this run compresses with that codec,
        # unless a configuration names its own (--codecs).
        if settings.CODEC and "innodb_compression_codec" not in opts:
            opts["innodb_compression_codec"] = settings.CODEC
        for k, v in opts.items():
            args.append("--%s=%s" % (k, v) if v is not None else "--" + k)
        return args

    def start(self, timeout=600):
        if os.path.exists(self.err):
            os.remove(self.err)
        env = {"SRV_WRAPPER": "\n".join(self.wrapper),
               "SRV_WAIT": str(2 * timeout)}
        self.proc = subprocess.Popen(
            ["bash", SERVER_LIB, "run", self.mysqld, self.datadir,
             self.err] + self.options(),
            env=lib_env(self.rundir, env),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        if server_lib("wait", [str(self.proc.pid)], self.rundir,
                      env).returncode == 0:
            return
        tail = open(self.err).read()[-3000:] if os.path.exists(self.err) else ""
        die("mysqld did not start:\n" + tail)

    def stop(self):
        if self.proc is None:
            return
        server_lib("stop", rundir=self.rundir, env={"SRV_STOP_WAIT": "600"},
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.proc.wait()
        self.proc = None

    def client_cmd(self):
        """The batch client's command (srv_client of server-lib.sh)."""
        if self.client is None:
            r = server_lib("client-cmd", rundir=self.rundir,
                           capture_output=True, text=True, check=True)
            self.client = r.stdout.split("\0")[:-1]
        return self.client

    def sql(self, query, db=None):
        """Rows of the last result, as lists of strings."""
        cmd = self.client_cmd() + ["-e", query]
        if db:
            cmd.append(db)
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            die("SQL failed: %s\n%s" % (query[:200], r.stderr))
        return [l.split("\t") for l in r.stdout.splitlines()]

    def source(self, path, db=None):
        cmd = list(self.client_cmd())
        if db:
            cmd.append(db)
        with open(path) as f:
            r = subprocess.run(cmd, stdin=f, capture_output=True, text=True)
        if r.returncode != 0:
            die("sourcing %s failed: %s" % (path, r.stderr))

    def status(self):
        return {r[0]: r[1] for r in self.sql("SHOW GLOBAL STATUS")}

    def sysbench(self, args, warehouses, extra_env=None):
        cmd = ["sysbench", LUA, "--db-driver=mysql", "--mysql-user=root",
               "--mysql-socket=" + self.sock, "--mysql-db=" + DB,
               "--mysql-ignore-errors=1213,1205",
               "--warehouses=%d" % warehouses] + args
        r = subprocess.run(cmd, capture_output=True, text=True,
                           env=dict(os.environ, **(extra_env or {})))
        if r.returncode != 0:
            die("sysbench failed: %s\n%s\n%s" % (" ".join(cmd), r.stdout[-3000:],
                                                 r.stderr[-3000:]))
        return r.stdout
