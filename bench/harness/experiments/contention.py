"""Experiment contention: what the per-update atomics of the per-table
counters cost when many threads update one compressed table (issue 28).

Every update of a compressed leaf page adds to the index's ZIP_UPDATES
counter (dict_zip_stat_add(), one relaxed atomic add on a line shared by
every thread that updates the index) and, with the log reserve on, to
zip_log.n_updates (dict_index_zip_log_update()). sysbench's
oltp_update_non_index on one table of KEY_BLOCK_SIZE=8 makes nothing but
such updates. Variants, alternating within each repetition, each on a
fresh copy of one loaded data directory:
  ours     this build (the counters on; the log reserve off, the default);
  reserve  this build with the log reserve on for the table (both atomics);
  off      the same build with the counters compiled out
           (zip_stat_off_binary(): bench/overhead/zip-stat-off.patch).
The result is transactions per second and the spread of the repetitions;
on a 2-core machine a cache line can only move between 2 cores, so the
cost measured here is a lower bound of a many-core server's. With --perf,
each measured run is also sampled (perf, cpu-clock: this VM has no
hardware counters) and the report gives the share of the CPU samples
spent in the counter functions themselves (COUNTER_FUNCS): a contended
atomic stalls on its instruction, so its cost shows there as self time
whatever the throughput noise."""

import os
import re
import subprocess
import tempfile

from . import register
from .overhead import zip_stat_off_binary
from ..datadir import base_datadir, copy_datadir
from ..paths import BENCH
from ..perf import clean_symbol
from ..report import md_table, ratio_spread, spread, write_csv
from ..server import Server
from ..util import die, log

TABLE_SIZE = 200000
OPTS = {"innodb_buffer_pool_size": "1G"}
# The functions the per-update atomics run in (self time), and InnoDB's
# whole update of a compressed record for scale.
COUNTER_FUNCS = ("dict_zip_stat_add", "dict_index_zip_log_update",
                 "dict_index_zip_log_full")


def mysqld_pid(srv):
    """The pid of the mysqld process itself (srv.proc is server-lib.sh's
    wrapper): the one whose command line names the run's socket."""
    r = subprocess.run(["pgrep", "-f", "mysqld .*--socket=" + srv.sock],
                       capture_output=True, text=True)
    pids = [int(p) for p in r.stdout.split()]
    for pid in pids:
        try:
            exe = os.readlink("/proc/%d/exe" % pid)
        except OSError:
            continue
        if os.path.basename(exe).startswith("mysqld"):
            return pid
    die("no mysqld process for socket " + srv.sock)


def perf_self_shares(data, pid):
    """{symbol: share of mysqld's samples} for COUNTER_FUNCS, and mysqld's
    sample count, from a system-wide perf record file (removed)."""
    r = subprocess.run(["perf", "report", "-i", data, "--pid", str(pid),
                        "--no-children", "--sort", "symbol", "--stdio",
                        "--percentage", "relative", "--percent-limit", "0"],
                       capture_output=True, text=True)
    os.remove(data)
    shares = {f: 0.0 for f in COUNTER_FUNCS}
    for line in r.stdout.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(.+)$", line)
        if m and clean_symbol(m.group(2)) in shares:
            shares[clean_symbol(m.group(2))] += float(m.group(1)) / 100
    m = re.search(r"# Samples: (\d+)", r.stdout)
    return shares, int(m.group(1)) if m else 0


def sysbench(srv, args):
    cmd = ["sysbench", "oltp_update_non_index", "--db-driver=mysql",
           "--mysql-user=root", "--mysql-socket=" + srv.sock,
           "--mysql-db=sbtest", "--tables=1",
           "--table-size=%d" % TABLE_SIZE,
           "--mysql-ignore-errors=1213,1205"] + args
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        die("sysbench failed: %s\n%s\n%s" % (" ".join(cmd), r.stdout[-2000:],
                                             r.stderr[-2000:]))
    return r.stdout


def loaded_datadir():
    """One table of TABLE_SIZE rows, KEY_BLOCK_SIZE=8, kept for later runs."""
    d = os.path.join(BENCH, "data", "contention-kbs8-%d" % TABLE_SIZE)
    if os.path.isdir(os.path.join(d, "sbtest")):
        return d
    log("loading sbtest1 (%d rows, KEY_BLOCK_SIZE=8)" % TABLE_SIZE)
    tmp = d + ".tmp"
    copy_datadir(base_datadir(), tmp)
    srv = Server(tmp, OPTS)
    srv.start()
    try:
        srv.sql("CREATE DATABASE sbtest")
        sysbench(srv, ["prepare"])
        srv.sql("ALTER TABLE sbtest.sbtest1 ROW_FORMAT=COMPRESSED "
                "KEY_BLOCK_SIZE=8")
    finally:
        srv.stop()
    os.rename(tmp, d)
    return d


@register("contention")
def exp_contention(args, out):
    quick = args.quick
    reps = args.reps or (1 if quick else 3)
    warm, secs = (5, 10) if quick else (10, args.secs or 30)
    thread_counts = (8, 64)
    off = zip_stat_off_binary()
    src = loaded_datadir()
    live = os.path.join(BENCH, "contention-live")
    variants = [
        ("ours", None, None, "this build: counters on, log reserve off"),
        ("reserve", None, '{"compression_log_reorg_threshold_pct": 10}',
         "this build, log reserve on for the table (both atomics)"),
        ("off", off, None, "counters compiled out (zip-stat-off.patch)"),
    ]
    runs = []
    for rep in range(reps):
        order = variants if rep % 2 == 0 else list(reversed(variants))
        for threads in thread_counts:
            for name, binary, attr, _ in order:
                copy_datadir(src, live)
                srv = Server(live, OPTS, mysqld=binary)
                srv.start()
                try:
                    if attr:
                        srv.sql("ALTER TABLE sbtest.sbtest1 ENGINE_ATTRIBUTE='%s'"
                                % attr)
                    # Warm: every page of the table in the pool.
                    srv.sql("SELECT COUNT(*), SUM(LENGTH(c)) FROM sbtest.sbtest1")
                    sysbench(srv, ["--threads=%d" % threads,
                                   "--time=%d" % warm, "run"])
                    a = srv.status()
                    srv_pid = mysqld_pid(srv)
                    rec = None
                    if args.perf:
                        data = tempfile.mktemp(prefix="perf-", dir=BENCH)
                        # System-wide: `perf record -p` follows only the
                        # threads that exist when it attaches, and
                        # sysbench's connections come after (a first try
                        # got 27 samples in 30 s of 64 threads).
                        rec = subprocess.Popen(
                            ["perf", "record", "-a", "-e", "cpu-clock",
                             "-F", "999", "-o", data, "--",
                             "sleep", str(secs)],
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
                    res = sysbench(srv, ["--threads=%d" % threads,
                                         "--time=%d" % secs, "run"])
                    b = srv.status()
                    if rec is not None:
                        rec.wait()
                finally:
                    srv.stop()
                m = re.search(r"transactions:\s+\d+\s+\(([\d.]+) per sec", res)
                if not m:
                    die("no tps in sysbench output:\n" + res[-2000:])
                d = lambda k: int(b.get(k, 0)) - int(a.get(k, 0))
                row = {"rep": rep + 1, "threads": threads, "variant": name,
                       "tps": float(m.group(1)),
                       "rows_updated": d("Innodb_rows_updated")}
                if rec is not None:
                    shares, n = perf_self_shares(data, srv_pid)
                    row["perf_samples"] = n
                    for f in COUNTER_FUNCS:
                        row["self_" + f] = round(shares[f], 5)
                runs.append(row)
                log("contention rep %d, %d threads, %s: %.0f tps" % (
                    rep + 1, threads, name, row["tps"]))
    write_csv(os.path.join(out, "runs.csv"), runs)

    md = ["# Experiment contention: per-update atomics, many threads, one "
          "compressed table", "",
          "sysbench oltp_update_non_index, 1 table of %d rows, "
          "KEY_BLOCK_SIZE=8, 1 GB pool (cached), %d s warm-up + %d s "
          "measured, %d repetition(s), variants alternating, %d cores. "
          "tps: median (min-max); vs ours: the ratio's median (min-max) "
          "over the repetitions." % (TABLE_SIZE, warm, secs, reps,
                                      os.cpu_count()), ""]
    rows = []
    for threads in thread_counts:
        ours = [r["tps"] for r in runs
                if r["variant"] == "ours" and r["threads"] == threads]
        for name, _, _, desc in variants:
            tp = [r["tps"] for r in runs
                  if r["variant"] == name and r["threads"] == threads]
            rows.append([threads, name, desc, spread(tp),
                         ratio_spread(tp, ours)])
    md += [md_table(["threads", "variant", "what", "tps", "vs ours"], rows), ""]
    if args.perf:
        prow = []
        for threads in thread_counts:
            for name, _, _, _ in variants:
                rs = [r for r in runs
                      if r["variant"] == name and r["threads"] == threads]
                prow.append([threads, name] + [
                    "%.3f %%" % (100 * sorted(r["self_" + f] for r in rs)[
                        len(rs) // 2]) for f in COUNTER_FUNCS] + [
                    "%d" % sum(r["perf_samples"] for r in rs)])
        md += ["## Self time of the counter functions (perf, cpu-clock, "
               "999 Hz, share of all mysqld samples, median over the "
               "repetitions)", "",
               md_table(["threads", "variant"] + list(COUNTER_FUNCS) +
                        ["samples"], prow), ""]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
