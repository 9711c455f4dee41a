"""Benchmark harness: runs a named experiment against the patched server.

Usage (through bench/run.sh, which installs sysbench and matplotlib first):
  bench/run.sh paper|tuning|overhead|hotpath|sizes|all [--quick] [--out DIR] [--reps N]
  bench/run.sh paper|tuning|wiki --codecs zlib,isal  (both codecs side by side)

Each experiment starts its own mysqld (the build's, or a variant) on a data
directory under $COMPRESS_CACHE_DIR/bench with its own configuration, loads
the TPC-C-like database of bench/tpcc/tpcc.lua once per table layout, keeps
a copy of the loaded data directory, and for every measured run restores
that copy, starts the server, warms up, measures, and stops the server.
Configurations are interleaved within each repetition, so noise shows as
spread between repetitions rather than as a bias between configurations.
Results go to OUT (default $COMPRESS_CACHE_DIR/bench/results/EXPERIMENT/
<timestamp>): runs.csv, one CSV per table, PNG plots and report.md.

Issue 29 (storage profiles, page compression, CHOOSE, where the time goes):
  bench/run.sh paper --data=dbt2 --load-threads 1 --pool-pct 2 \
      --device native,ssd2012,hdd              # the full round (long: see
                                               # docs/notes/issue29-harness.md)
  bench/run.sh paper --data=dbt2 --load-threads 1 --pool-pct 2 \
      --device ssd2012,hdd --only A8,S8,S8m,PZ,PL,CH   # the runs the issue asks for
  bench/run.sh paper --quick --device native,hdd    # smoke check, about 10 min:
      # 1 warehouse; N, A8, S8, PL and CH (PZ only if --only names it); the
      # read mix on the native profile only
  bench/run.sh tuning --device native,ssd2012 --only PZ,PL,CH
  bench/run.sh paper ... --perf --reps 1 --only A8,S8m   # where the CPU goes:
      # perf call stacks of every measured run (STACK_BUCKETS), per tx
  bench/run.sh contention [--reps 3]          # issue 28: the per-update
      # atomics with 64 threads on one compressed table (sysbench
      # oltp_update_non_index), counters on, off, and with the log reserve
  bench/run.sh readmix --data=dbt2 [--pools 64M,256M]   # why the read mix
      # collapses with compressed tables: eviction counters (patch 0024)
  bench/run.sh partitions --data=dbt2 --device native,ssd2012 [--reps 3]
      # issue 48: order_line partitioned by order number; nothing
      # compressed (PN), every partition (PA), SELECTIVE's partitions (PS)
--device: storage profiles (DEVICE_PROFILES: native, ssd2012, hdd): the
measured runs (warm-up and measurement) of each profile run with the
server's reads and writes throttled by the kernel's block I/O controller
(IoThrottle); loads, conversions, estimates and consistency checks run
unthrottled. --pool-pct P: the measured runs' buffer pool is P % of the
uncompressed layout's loaded size (pool_for_pct()). Layouts PZ and PL:
every table COMPRESSION='zlib' / 'lz4'; CH: the uncompressed copy after a
warm-up, converted by compression_advisor.apply(..., 'CHOOSE', 8, 0.10).
COMPRESS_BENCH_PORT other than 13307 (or COMPRESS_BENCH_RUN_DIR) gives a
run its own socket, pid files, log and working data directories
(work_path()), so that it can run beside another.
"""

import argparse
import os
import time

from . import settings
from .device import DEVICE_PROFILES, device_list
from .experiments import EXPERIMENTS
from .paths import BENCH, BIN
from .settings import DATA_CHOICES
from .util import die, log


def main():
    ap = argparse.ArgumentParser(prog="bench/run.sh", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("experiment", choices=list(EXPERIMENTS) + ["all"])
    ap.add_argument("--quick", action="store_true",
                    help="small sizes and short runs, for a smoke check")
    ap.add_argument("--out", help="result directory (default under the cache)")
    ap.add_argument("--reps", type=int, help="repetitions per configuration")
    ap.add_argument("--warehouses", type=int)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--kbs", help="paper: comma-separated KEY_BLOCK_SIZEs "
                    "of the A and S layouts (default 8,4; --quick 8); "
                    "partitions: the one of PA and PS (default 8)")
    ap.add_argument("--only", help="tuning: comma-separated configurations "
                    "to run (none and l1 always run; PZ, PL, CH among them); "
                    "paper: layouts to run besides N (e.g. S8m, PZ, PL, CH), "
                    "reusing kept loads; wiki: layouts to load besides N "
                    "(N, 16K, 8K, 4K, and 8K-l1: 8K at level 1)")
    ap.add_argument("--device", default="native",
                    help="paper, tuning: comma-separated storage profiles "
                    "to run every configuration on: %s (DEVICE_PROFILES; "
                    "the server's I/O throttled during the measured runs by "
                    "a blkio/io cgroup; default native)"
                    % ", ".join(DEVICE_PROFILES))
    ap.add_argument("--pool-pct", type=float,
                    help="paper, tuning: the measured runs' buffer pool as "
                    "this %% of the uncompressed layout's loaded size (at "
                    "least 16 MB, rounded up to 8 MB; the paper: about 2)")
    ap.add_argument("--read-iops", type=int, default=1000,
                    help="wiki: also measure the read curve with the "
                    "server's disk reads throttled to this many per second "
                    "(a blkio/io cgroup; 0: skip; not in --quick)")
    ap.add_argument("--secs", type=int,
                    help="tuning: measured seconds per run (default 25; 8 "
                    "in --quick), e.g. to see whether a rebuilt table keeps "
                    "its throughput once its free space is used; readmix: "
                    "the same (default 30; 15 in --quick), e.g. on --device "
                    "hdd, where 30 s hold a few dozen transactions")
    ap.add_argument("--pools", help="readmix: comma-separated buffer "
                    "pool sizes (default 64M,256M)")
    ap.add_argument("--unzip-policy", help="readmix: also run the "
                    "compressed layouts with innodb_buffer_pool_unzip_lru_"
                    "policy set to each of these (comma-separated, e.g. "
                    "UPSTREAM,LRU)")
    ap.add_argument("--perf", action="store_true",
                    help="paper: a CPU profile (perf, call stacks) of every "
                    "measured run, bucketed per transaction (STACK_BUCKETS); "
                    "wiki: one more load of each layout and one read range "
                    "under perf, no read curve; profiling costs throughput: "
                    "keep its TPM apart")
    ap.add_argument("--callgrind", action="store_true",
                    help="run callgrind in --quick mode too")
    ap.add_argument("--mysqld-before",
                    help="hotpath: the mysqld binary to compare this build with")
    ap.add_argument("--study-data", default=None,
                    help="codecs: the kinds of TPC-C data to study, comma "
                    "separated (default spec,dbt2,aged; spec in --quick)")
    ap.add_argument("--data", choices=DATA_CHOICES, default="spec",
                    help="initial data of the TPC-C-like database (tpcc.lua "
                    "--data): spec (clause 4.3.3.1), dbt2 (DBT-2's "
                    "generator), aged (rows as the transactions write them)")
    ap.add_argument("--codec", choices=("zlib", "isal"),
                    help="innodb_compression_codec of every server of the "
                    "run, loads included (loaded copies are kept per codec)")
    ap.add_argument("--codecs",
                    help="tuning, paper, wiki: run every compressed "
                    "configuration (layout) once per codec of this "
                    "comma-separated list (zlib,isal), side by side in each "
                    "repetition (\"A8@isal\"; CSVs get a codec column)")
    ap.add_argument("--load-threads", type=int, default=2,
                    help="sessions loading the warehouses in parallel "
                    "(default 2)")
    args = ap.parse_args()
    device_list(args.device)
    if args.pool_pct is not None and not 0 < args.pool_pct <= 100:
        ap.error("--pool-pct: a percentage above 0")
    settings.CODEC = args.codec
    settings.CODECS = [c for c in (args.codecs or "").split(",") if c]
    if set(settings.CODECS) - {"zlib", "isal"}:
        ap.error("--codecs: a comma-separated list of zlib and isal")
    settings.DATA = args.data
    settings.LOAD_THREADS = args.load_threads
    if not os.path.exists(os.path.join(BIN, "mysqld")):
        die("mysqld is not built: run scripts/build.sh first")
    # "all": the experiments that need no second binary.
    names = ([n for n in EXPERIMENTS
              if n not in ("hotpath", "sizes", "codecs", "profile",
                           "readmix", "contention")]
             if args.experiment == "all" else [args.experiment])
    stamp = time.strftime("%Y%m%d-%H%M%S")
    t_all = time.time()
    for name in names:
        out = args.out if args.out and len(names) == 1 else os.path.join(
            args.out or os.path.join(BENCH, "results"), name,
            "" if args.out else stamp)
        os.makedirs(out, exist_ok=True)
        t0 = time.time()
        log("experiment %s%s -> %s" % (name, " (quick)" if args.quick else "", out))
        EXPERIMENTS[name](args, out)
        log("experiment %s done in %.1f min; report %s" % (
            name, (time.time() - t0) / 60, os.path.join(out, "report.md")))
    log("all done in %.1f min" % ((time.time() - t_all) / 60))
