#!/usr/bin/env python3
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
  bench/run.sh readmix --data=dbt2 [--pools 64M,256M]   # why the read mix
      # collapses with compressed tables: eviction counters (patch 0024)
--device: storage profiles (DEVICE_PROFILES: native, ssd2012, hdd): the
measured runs (warm-up and measurement) of each profile run with the
server's reads and writes throttled by the kernel's block I/O controller
(IoThrottle); loads, conversions, estimates and consistency checks run
unthrottled. --pool-pct P: the measured runs' buffer pool is P % of the
uncompressed layout's loaded size (pool_for_pct()). Layouts PZ and PL:
every table COMPRESSION='zlib' / 'lz4'; CH: the uncompressed copy after a
warm-up, converted by compression_advisor.apply(..., 'CHOOSE', 8, 0.10).
COMPRESS_BENCH_PORT other than 13307 (or COMPRESS_BENCH_RUN_DIR) gives a
run its own socket, option file, log and working data directories
(work_path()), so that it can run beside another.
"""

import argparse
import csv
import hashlib
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.environ.get("COMPRESS_CACHE_DIR",
                       os.path.expanduser("~/.cache/mysql-compress"))
# COMPRESS_BENCH_BUILD: a copy of the build's binaries to run instead
# (scripts/bench-snapshot.sh), so that a rebuild does not replace the server
# a long run restarts.
BUILD = os.environ.get("COMPRESS_BENCH_BUILD") or os.path.join(CACHE, "build")
BIN = os.path.join(BUILD, "runtime_output_directory")
PLUGIN_DIR = os.path.join(BUILD, "plugin_output_directory")
BENCH = os.path.join(CACHE, "bench")
LUA = os.path.join(ROOT, "bench", "tpcc", "tpcc.lua")
ADVISOR = os.path.join(ROOT, "plugin", "compression_stats",
                       "compression_advisor.sql")
PORT = int(os.environ.get("COMPRESS_BENCH_PORT", "13307"))
DEFAULT_PORT = 13307
# Where a run keeps what only one server at a time may use: its socket,
# option file and error log (run/) and its working copies of data
# directories (live-datadir, codecs-datadir). The default port keeps them
# directly under BENCH, as always; another port (COMPRESS_BENCH_PORT) gets
# BENCH/port-<PORT>/, or COMPRESS_BENCH_RUN_DIR if set, so that a second
# run cannot overwrite the first one's files. Kept loaded copies
# (BENCH/data) and the base data directory are shared.
RUN_ROOT = os.environ.get("COMPRESS_BENCH_RUN_DIR") or (
    BENCH if PORT == DEFAULT_PORT else os.path.join(BENCH, "port-%d" % PORT))


def work_path(name):
    """A working directory of this run (see RUN_ROOT)."""
    return os.path.join(RUN_ROOT, name)


DB = "tpcc"
TABLES = ["warehouse", "district", "customer", "history", "new_orders",
          "orders", "order_line", "item", "stock"]
TX_TYPES = ["new_order", "payment", "order_status", "delivery", "stock_level"]


def log(msg):
    print("[bench %s] %s" % (time.strftime("%H:%M:%S"), msg), flush=True)


def die(msg):
    log("ERROR: " + msg)
    sys.exit(1)


# ---------------------------------------------------------------------------
# Server control


class Server:
    """One mysqld with a generated option file."""

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
        self.sock = os.path.join(self.rundir, "mysqld.sock")
        self.err = os.path.join(self.rundir, "mysqld.err")
        self.cnf = os.path.join(self.rundir, "my.cnf")
        self.mysqld = mysqld or os.path.join(BIN, "mysqld")
        self.wrapper = wrapper or []
        self.opts = opts
        self.proc = None

    def write_cnf(self):
        lines = ["[mysqld]",
                 "datadir=%s" % self.datadir,
                 "socket=%s" % self.sock,
                 "port=%d" % PORT,
                 "bind-address=127.0.0.1",
                 "pid-file=%s" % os.path.join(self.rundir, "mysqld.pid"),
                 "log-error=%s" % self.err,
                 "plugin-dir=%s" % self.plugin_dir,
                 "plugin-load-add=compression_stats.so",
                 "skip-log-bin",
                 "innodb_flush_method=O_DIRECT",
                 "innodb_redo_log_capacity=1G",
                 "innodb_flush_log_at_trx_commit=2",
                 "innodb_doublewrite=ON",
                 "max_connections=200",
                 "performance_schema=ON",
                 "performance-schema-instrument='wait/synch/sxlock/innodb/index_tree_rw_lock=ON'",
                 "performance-schema-instrument='wait/synch/mutex/innodb/page_zip_stat_per_index_mutex=ON'",
                 ]
        if os.getuid() == 0:
            lines.append("user=root")
        opts = dict(self.opts)
        # --codec: every server of this run compresses with that codec,
        # unless a configuration names its own (--codecs).
        if CODEC and "innodb_compression_codec" not in opts:
            opts["innodb_compression_codec"] = CODEC
        for k, v in opts.items():
            lines.append("%s=%s" % (k, v) if v is not None else k)
        with open(self.cnf, "w") as f:
            f.write("\n".join(lines) + "\n")

    def start(self, timeout=600):
        self.write_cnf()
        if os.path.exists(self.err):
            os.remove(self.err)
        cmd = self.wrapper + [self.mysqld, "--defaults-file=" + self.cnf]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        t0 = time.time()
        while time.time() - t0 < timeout:
            if self.proc.poll() is not None:
                break
            if self.ping():
                return
            time.sleep(0.5)
        tail = open(self.err).read()[-3000:] if os.path.exists(self.err) else ""
        die("mysqld did not start:\n" + tail)

    def ping(self):
        return subprocess.run([os.path.join(BIN, "mysqladmin"), "-uroot",
                               "--socket=" + self.sock, "ping"],
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL).returncode == 0

    def stop(self):
        if self.proc is None:
            return
        subprocess.run([os.path.join(BIN, "mysqladmin"), "-uroot",
                        "--socket=" + self.sock, "shutdown"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self.proc.wait(timeout=600)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def sql(self, query, db=None):
        """Rows of the last result, as lists of strings."""
        cmd = [os.path.join(BIN, "mysql"), "-uroot", "--socket=" + self.sock,
               "-N", "-B", "-e", query]
        if db:
            cmd.append(db)
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            die("SQL failed: %s\n%s" % (query[:200], r.stderr))
        return [l.split("\t") for l in r.stdout.splitlines()]

    def source(self, path, db=None):
        cmd = [os.path.join(BIN, "mysql"), "-uroot", "--socket=" + self.sock]
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


def base_datadir():
    """An initialized, empty data directory, made once and copied."""
    d = os.path.join(BENCH, "base-datadir")
    if os.path.isdir(os.path.join(d, "mysql")):
        return d
    shutil.rmtree(d, ignore_errors=True)
    log("initializing the base data directory")
    args = [os.path.join(BIN, "mysqld"), "--no-defaults",
            "--initialize-insecure", "--datadir=" + d,
            "--innodb-redo-log-capacity=1G",
            "--log-error=" + os.path.join(BENCH, "init.err")]
    if os.getuid() == 0:
        args.append("--user=root")
    os.makedirs(BENCH, exist_ok=True)
    subprocess.run(args, check=True)
    return d


# Kept copies of loaded layouts (BENCH/data) are a cache: each is about
# 1.3 GB (the 1 GB redo log included), and `all` alone makes about 25.
# Before a copy is made, the least recently used kept copies that this run
# has not used are deleted until FREE_SPACE_MIN bytes are free.
FREE_SPACE_MIN = 8 * 2**30
IN_USE = set()


def make_room():
    data = os.path.join(BENCH, "data")
    while shutil.disk_usage(BENCH).free < FREE_SPACE_MIN:
        kept = []
        for n in os.listdir(data) if os.path.isdir(data) else []:
            d = os.path.join(data, n)
            if os.path.isdir(d) and d not in IN_USE:
                meta = d + ".json"
                kept.append((os.path.getmtime(meta if os.path.exists(meta)
                                              else d), d))
        if not kept:
            die("less than %d GB free under %s and no kept copy left to "
                "delete" % (FREE_SPACE_MIN // 2**30, BENCH))
        _, victim = min(kept)
        log("freeing disk space: deleting the kept copy %s"
            % os.path.basename(victim))
        if os.path.exists(victim + ".json"):
            os.remove(victim + ".json")
        shutil.rmtree(victim, ignore_errors=True)


def copy_datadir(src, dst, allocation=False):
    """cp -a src dst; allocation: then give the copy's .ibd files of the
    benchmark's schema the extents of their sources (copy_allocation())."""
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    IN_USE.add(os.path.abspath(src))
    make_room()
    subprocess.run(["cp", "-a", src, dst], check=True)
    if os.path.dirname(os.path.abspath(dst)) == os.path.join(BENCH, "data"):
        IN_USE.add(os.path.abspath(dst))
    if allocation:
        copy_allocation(os.path.join(src, DB), os.path.join(dst, DB))


# ---------------------------------------------------------------------------
# Bytes on disk (what du counts)
#
# DATA_LENGTH + INDEX_LENGTH counts pages at the physical page size: it does
# not see the holes page compression punches, nor the free pages a file
# keeps allocated. The blocks allocated to each .ibd file do. cp -a keeps a
# file's holes but also turns the extents InnoDB preallocated with
# fallocate() and never wrote (unwritten extents, which SEEK_DATA reports
# as holes) into holes: a copy is smaller on disk than its source.
# copy_allocation() gives the copy its source's extents back, so that the
# allocated bytes of a measured run's copy start where the load left them.

FS_IOC_FIEMAP = 0xC020660B
FIEMAP_FLAG_SYNC = 1
FIEMAP_EXTENT_LAST = 1
FALLOC_FL_KEEP_SIZE = 1


def file_extents(path):
    """The extents (offset, length) allocated to a file, unwritten ones
    included (the FIEMAP ioctl); None where the file system cannot say."""
    import fcntl
    import struct
    out = []
    start = 0
    n = 256
    with open(path, "rb") as f:
        while True:
            buf = bytearray(struct.pack("=QQLLLL", start, 2**64 - 1 - start,
                                        FIEMAP_FLAG_SYNC, 0, n, 0)
                            + bytes(56 * n))
            try:
                fcntl.ioctl(f.fileno(), FS_IOC_FIEMAP, buf)
            except OSError:
                return None
            mapped = struct.unpack_from("=L", buf, 20)[0]
            if mapped == 0:
                break
            last = False
            for i in range(mapped):
                lo, _, ln = struct.unpack_from("=QQQ", buf, 32 + 56 * i)
                flags = struct.unpack_from("=L", buf, 32 + 56 * i + 40)[0]
                out.append((lo, ln))
                last = last or bool(flags & FIEMAP_EXTENT_LAST)
            start = lo + ln
            if last:
                break
    return out


_FALLOCATE = []


def copy_allocation(src_dir, dst_dir):
    """Allocate in each .ibd file of dst_dir (a cp -a copy of src_dir) the
    extents its source has allocated (fallocate KEEP_SIZE: data already
    copied stays; holes of the source stay holes). Logs once and does
    nothing where FIEMAP or fallocate() is missing."""
    if _FALLOCATE == [None] or not os.path.isdir(src_dir):
        return
    if not _FALLOCATE:
        import ctypes
        import ctypes.util
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
            fa = libc.fallocate
            fa.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64,
                           ctypes.c_int64]
            _FALLOCATE.append(fa)
        except (OSError, AttributeError):
            _FALLOCATE.append(None)
            log("no fallocate(): copies keep cp's allocation (preallocated "
                "free extents not counted after the runs)")
            return
    for name in sorted(os.listdir(src_dir)):
        if not name.endswith(".ibd"):
            continue
        ext = file_extents(os.path.join(src_dir, name))
        if ext is None:
            _FALLOCATE[:] = [None]
            log("no FIEMAP on this file system: copies keep cp's allocation "
                "(preallocated free extents not counted after the runs)")
            return
        fd = os.open(os.path.join(dst_dir, name), os.O_WRONLY)
        try:
            for off, ln in ext:
                if _FALLOCATE[0](fd, FALLOC_FL_KEEP_SIZE, off, ln) != 0:
                    log("fallocate failed on %s: the copy's allocation is "
                        "cp's" % name)
                    break
        finally:
            os.close(fd)


def ibd_alloc(datadir):
    """{table: bytes allocated to its .ibd file} of the benchmark's schema
    (os.stat st_blocks * 512, what du counts)."""
    d = os.path.join(datadir, DB)
    out = {}
    for t in TABLES:
        p = os.path.join(d, t + ".ibd")
        if os.path.exists(p):
            out[t] = os.stat(p).st_blocks * 512
    return out


IBD_ALLOC = os.path.join(ROOT, "mysql-test", "suite", "compress", "include",
                         "ibd_alloc.py")


def physical_page_size(path):
    """The page size of an .ibd file's pages on disk, from its FSP flags:
    KEY_BLOCK_SIZE for ROW_FORMAT=COMPRESSED (ZIP_SSIZE, bits 1-4 of
    FSP_SPACE_FLAGS at byte 38 + 16 of page 0), else 16 KB."""
    with open(path, "rb") as f:
        f.seek(54)
        flags = int.from_bytes(f.read(4), "big")
    ssize = (flags >> 1) & 15
    return 512 << ssize if ssize else 16384


def ibd_split(datadir):
    """Allocated bytes of the schema's .ibd files split page by page by
    ibd_alloc.py: {"in_use": B-tree and BLOB pages, "free": pages never used
    or freed, "other": file header, bitmaps, inodes, SDI,
    "compressed_pages": pages written page-compressed}, summed over the
    tables; {} if the tool fails."""
    out = {"in_use": 0, "free": 0, "other": 0, "compressed_pages": 0}
    d = os.path.join(datadir, DB)
    for t in TABLES:
        p = os.path.join(d, t + ".ibd")
        if not os.path.exists(p):
            continue
        r = subprocess.run([sys.executable, IBD_ALLOC, p,
                            str(physical_page_size(p))],
                           capture_output=True, text=True)
        if r.returncode != 0:
            log("ibd_alloc.py failed on %s: %s" % (p, r.stderr[-300:]))
            return {}
        kv = dict(x.split("=") for x in r.stdout.split())
        for k in ("in_use", "free", "other"):
            out[k] += int(kv[k + "_bytes"])
        out["compressed_pages"] += int(kv["compressed_pages"])
    return out


# ---------------------------------------------------------------------------
# Storage profiles (--device)

# The limits IoThrottle puts on the server's reads and writes to the disk
# of its data directory during the measured runs of each profile (warm-up
# and measurement). Operations per second (riops, wiops) and bytes per
# second (rbps, wbps; MB = 10^6 bytes, as the vendors count); None: not
# throttled. The paper's Tables 2 and 3 (the sequential and random
# bandwidths of Lee's SSD and HDD) were not available to us, so the values
# are derived from vendor figures of drives of the kind it names, for
# InnoDB's pattern with the paper's 20 connections: 16 KB pages read one at
# a time by each waiting thread (O_DIRECT), so a few requests in flight,
# not the queue depth of 32 of the data sheets.
DEVICE_PROFILES = {
    # This machine's own disk, unthrottled (about 11,000 random page reads
    # per second, BENCHMARKS.md 1b).
    "native": None,
    # A 2012 SATA SSD. Vendor figures of the Intel 520 (240 GB, 2012):
    # 50,000 random 4 KB read and 80,000 write IOPS at queue depth 32,
    # 550 MB/s sequential read and 520 MB/s write. At low queue depth a
    # SATA SSD of that generation completes a random read in roughly
    # 100-200 us (a few thousand to 10,000 per second with a few requests
    # in flight): 8,000 reads/s. Writes at low queue depth, on a drive
    # kept full by a database (garbage collection), sustain less: 5,000.
    # Bandwidth: about half the sequential figures, what 16 KB transfers
    # reach (250 MB/s read, 200 MB/s write). Derived, not measured; the
    # read rate is below but near this machine's own disk.
    "ssd2012": {"riops": 8000, "wiops": 5000,
                "rbps": 250 * 10**6, "wbps": 200 * 10**6},
    # A 7,200 rpm disk. Seagate Barracuda 7200.14 (2012): 8.5 ms average
    # access (about 118 random accesses per second; a few requests queued
    # by NCQ shorten the seeks: 150, the usual figure for 7,200 rpm), up
    # to 210 MB/s sustained on the outer tracks, 156 MB/s on average: 150
    # MB/s. A disk shares its 150 operations between reads and writes; the
    # kernel's throttle limits each direction on its own, so a mixed load
    # can get up to 300: the profile flatters the disk under writes.
    "hdd": {"riops": 150, "wiops": 150,
            "rbps": 150 * 10**6, "wbps": 150 * 10**6},
}


def device_list(spec):
    """--device: the storage profiles of a run, in order."""
    devs = [d for d in (spec or "native").split(",") if d]
    unknown = [d for d in devs if d not in DEVICE_PROFILES]
    if unknown:
        die("--device: no profile %s (profiles: %s)" % (
            ", ".join(unknown), ", ".join(DEVICE_PROFILES)))
    return list(dict.fromkeys(devs))


def usable_devices(devs, path):
    """The profiles that can run here: native always, a throttled one only
    where IoThrottle can write a cgroup; the others are logged and
    returned as skipped (the report says so)."""
    ok, skipped = [], []
    for d in devs:
        if DEVICE_PROFILES[d] is None or IoThrottle(path, DEVICE_PROFILES[d]).available():
            ok.append(d)
        else:
            log("--device %s: no writable blkio (cgroup v1) or io (cgroup v2) "
                "controller for the disk of %s here: profile skipped" % (d, path))
            skipped.append(d)
    return ok, skipped


class IoThrottle:
    """A slower disk for one process: the kernel's block I/O throttle limits
    the reads and writes per second and the bytes per second the process
    may issue to the disk that holds a path (cgroup v1
    blkio.throttle.{read,write}_{iops,bps}_device, or v2 io.max riops,
    wiops, rbps, wbps), as given by a profile (DEVICE_PROFILES; a key left
    out is not limited). InnoDB reads and writes its data files with
    O_DIRECT, so every page read and write counts. Writes the kernel's
    flusher threads make for the process (the redo log, written through the
    page cache with innodb_flush_log_at_trx_commit=2) escape cgroup v1's
    throttle; those the server's own threads make, fsync included, do not.
    available() is False where neither interface can be written, or the
    path is on no block device (then the profile is skipped, and the
    report says so)."""

    V1 = "/sys/fs/cgroup/blkio"
    V2 = "/sys/fs/cgroup"
    KEYS = ("riops", "wiops", "rbps", "wbps")
    V1_FILES = {"riops": "blkio.throttle.read_iops_device",
                "wiops": "blkio.throttle.write_iops_device",
                "rbps": "blkio.throttle.read_bps_device",
                "wbps": "blkio.throttle.write_bps_device"}

    def __init__(self, path, profile):
        self.profile = dict(profile or {})
        self.dev = self.disk_of(path)
        self.dir = None
        self.home = None

    @staticmethod
    def disk_of(path):
        st = os.stat(path)
        dev = "%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev))
        sysdev = "/sys/dev/block/" + dev
        # Throttling applies to whole disks: a partition's parent.
        if os.path.exists(os.path.join(sysdev, "partition")):
            dev = open(os.path.join(os.path.realpath(sysdev), "..", "dev")
                       ).read().strip()
        return dev

    @classmethod
    def v1(cls):
        return os.access(os.path.join(cls.V1, "tasks"), os.W_OK)

    def available(self):
        if not os.path.exists("/sys/dev/block/" + self.dev):
            return False
        if self.v1():
            return True
        c = os.path.join(self.V2, "cgroup.controllers")
        return (os.path.exists(c) and "io" in open(c).read().split() and
                os.access(os.path.join(self.V2, "cgroup.subtree_control"),
                          os.W_OK))

    def group_name(self):
        # One group per run (port), so that two runs do not share limits.
        return "compress_bench_%d" % PORT

    @staticmethod
    def cgroup_of(pid, v1):
        """The process's group (v1: of the blkio hierarchy), to go back to."""
        for line in open("/proc/%d/cgroup" % pid):
            _, ctl, path = line.rstrip("\n").split(":", 2)
            if (v1 and "blkio" in ctl.split(",")) or (not v1 and ctl == ""):
                return path
        return "/"

    def attach(self, pid):
        p = self.profile
        if self.v1():
            self.home = os.path.join(self.V1, self.cgroup_of(pid, True).lstrip("/"))
            self.dir = os.path.join(self.V1, self.group_name())
            os.makedirs(self.dir, exist_ok=True)
            # Every key written: 0 removes a limit a previous profile left.
            for k in self.KEYS:
                with open(os.path.join(self.dir, self.V1_FILES[k]), "w") as f:
                    f.write("%s %d\n" % (self.dev, p.get(k) or 0))
        else:
            self.home = os.path.join(self.V2, self.cgroup_of(pid, False).lstrip("/"))
            with open(os.path.join(self.V2, "cgroup.subtree_control"), "w") as f:
                f.write("+io\n")
            self.dir = os.path.join(self.V2, self.group_name())
            os.makedirs(self.dir, exist_ok=True)
            with open(os.path.join(self.dir, "io.max"), "w") as f:
                f.write("%s %s\n" % (self.dev, " ".join(
                    "%s=%s" % (k, p[k] if p.get(k) else "max")
                    for k in self.KEYS)))
        with open(os.path.join(self.dir, "cgroup.procs"), "w") as f:
            f.write("%d\n" % pid)

    def release(self, pid):
        """Move the process back to its own group: what it does next (its
        shutdown's flush, a consistency check) runs on the real disk."""
        if not self.dir or not self.home:
            return
        try:
            with open(os.path.join(self.home, "cgroup.procs"), "w") as f:
                f.write("%d\n" % pid)
        except OSError as e:
            log("could not move mysqld %d out of the throttled group: %s"
                % (pid, e))

    def detach(self):
        """After the process has left the group or exited: remove it."""
        if self.dir:
            for _ in range(20):
                try:
                    os.rmdir(self.dir)
                    break
                except OSError:
                    time.sleep(0.5)
            self.dir = None


# ---------------------------------------------------------------------------
# Buffer pool in the paper's proportion (--pool-pct)

POOL_MIN = 16 * 2**20
POOL_ROUND = 8 * 2**20


def pool_for_pct(pct, n_bytes):
    """--pool-pct P: the measured runs' innodb_buffer_pool_size, P % of the
    uncompressed layout's loaded size (n_bytes, DATA_LENGTH + INDEX_LENGTH
    of its tables), at least POOL_MIN, rounded up to POOL_ROUND. The paper
    ran a 2 GB pool over about 100 GB of data (1,000 warehouses): about
    2 %. We scale the pool, not the warehouses."""
    b = max(POOL_MIN, n_bytes * pct / 100.0)
    return int(-(-b // POOL_ROUND)) * POOL_ROUND


def pool_option(nbytes):
    """innodb_buffer_pool_size as the option files write it ("24M")."""
    return "%dM" % (nbytes // 2**20)


# ---------------------------------------------------------------------------
# Loading and measuring


def parse_tpcc(out):
    """tpmC, tpm, seconds and per-type latencies from tpcc.lua's summary."""
    res = {}
    for line in out.splitlines():
        m = re.match(r"tpcc: seconds ([\d.]+) tpmC ([\d.]+) tpm ([\d.]+)", line)
        if m:
            res["seconds"] = float(m.group(1))
            res["tpmC"] = float(m.group(2))
            res["tpm"] = float(m.group(3))
        m = re.match(r"tpcc: (\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)$",
                     line)
        if m and m.group(1) in TX_TYPES:
            t = m.group(1)
            res[t + "_commits"] = int(m.group(2))
            res[t + "_retries"] = int(m.group(4))
            res[t + "_avg_ms"] = float(m.group(5))
            res[t + "_p95_ms"] = float(m.group(6))
    if "tpmC" not in res:
        die("no tpcc summary in sysbench output:\n" + out[-2000:])
    return res


def table_sizes(srv):
    """Bytes the B-trees of each table take (data_length + index_length
    after ANALYZE: allocated pages times the physical page size)."""
    srv.sql("ANALYZE TABLE " + ", ".join(TABLES), db=DB)
    rows = srv.sql("SELECT TABLE_NAME, DATA_LENGTH + INDEX_LENGTH "
                   "FROM information_schema.TABLES WHERE TABLE_SCHEMA='%s'" % DB)
    return {r[0]: int(r[1]) for r in rows if r[0] in TABLES}


def zip_counters(srv):
    """Per-table compression counters from COMPRESSION_STATS."""
    rows = srv.sql(
        "SELECT TABLE_NAME, COMPRESS_OPS, COMPRESS_OPS_OK, COMPRESS_USECS, "
        "UNCOMPRESS_OPS, UNCOMPRESS_USECS, ZIP_SPLITS, COMPRESS_PADDING, "
        "IFNULL(PADDING_HINT, ''), IFNULL(PADDING_COLUMN_BYTES, 0), "
        "IFNULL(ZIP_REORGS_LOG_FULL, 0), IFNULL(ZIP_UPDATES, 0), "
        "IFNULL(COMPRESS_LOG_RESERVE, 0), ZIP_REORGS "
        "FROM information_schema.COMPRESSION_STATS "
        "WHERE TABLE_SCHEMA='%s'" % DB)
    out = {}
    for r in rows:
        out[r[0]] = {"compress_ops": int(r[1]), "compress_ok": int(r[2]),
                     "compress_usecs": int(r[3]), "uncompress_ops": int(r[4]),
                     "uncompress_usecs": int(r[5]), "splits": int(r[6]),
                     "pad": int(r[7]), "hint": r[8], "pad_bytes": int(r[9]),
                     "log_full": int(r[10]), "updates": int(r[11]),
                     "log_reserve": int(r[12]), "reorgs": int(r[13])}
    return out


def pfs_waits(srv):
    rows = srv.sql(
        "SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT FROM "
        "performance_schema.events_waits_summary_global_by_event_name "
        "WHERE EVENT_NAME IN ('wait/synch/sxlock/innodb/index_tree_rw_lock',"
        "'wait/synch/mutex/innodb/page_zip_stat_per_index_mutex')")
    return {r[0].split("/")[-1]: (int(r[1]), int(r[2])) for r in rows}


def pfs_file_io(srv):
    """InnoDB's file I/O from performance_schema, all threads (user
    threads' synchronous page reads, page cleaners' writes, the redo log):
    {read|write|misc|all: (operations, picoseconds waited)}. With page
    compression (COMPRESSION='zlib'/'lz4') a page is compressed on its way
    to the file and decompressed on its way back inside these waits."""
    r = srv.sql(
        "SELECT IFNULL(SUM(COUNT_READ), 0), IFNULL(SUM(SUM_TIMER_READ), 0), "
        "IFNULL(SUM(COUNT_WRITE), 0), IFNULL(SUM(SUM_TIMER_WRITE), 0), "
        "IFNULL(SUM(COUNT_MISC), 0), IFNULL(SUM(SUM_TIMER_MISC), 0), "
        "IFNULL(SUM(COUNT_STAR), 0), IFNULL(SUM(SUM_TIMER_WAIT), 0) "
        "FROM performance_schema.file_summary_by_event_name "
        "WHERE EVENT_NAME LIKE 'wait/io/file/innodb/%'")[0]
    v = [int(x) for x in r]
    return {"read": (v[0], v[1]), "write": (v[2], v[3]),
            "misc": (v[4], v[5]), "all": (v[6], v[7])}


def snapshot(srv):
    st = srv.status()
    return {"status": st, "zip": zip_counters(srv), "waits": pfs_waits(srv),
            "file_io": pfs_file_io(srv), "metrics": lru_metrics(srv)}


def lru_metrics(srv):
    """The enabled INNODB_METRICS counters of the buffer pool's LRU
    (buffer_LRU_*: off by default; the readmix experiment enables them,
    patch 0024 adds the unzip_LRU ones): {name: count}."""
    return {r[0]: int(r[1]) for r in srv.sql(
        "SELECT NAME, COUNT FROM information_schema.INNODB_METRICS "
        "WHERE NAME LIKE 'buffer\\_LRU\\_%' AND STATUS = 'enabled'")}


def diff_snapshots(a, b, commits):
    """Per-run figures from two snapshots around the measured run."""
    sa, sb = a["status"], b["status"]

    def d(name):
        return int(sb.get(name, 0)) - int(sa.get(name, 0))
    res = {
        "redo_bytes": d("Innodb_os_log_written"),
        "zip_log_image_bytes": d("Innodb_zip_log_page_image_bytes"),
        "data_reads": d("Innodb_data_reads"),
        "data_writes": d("Innodb_data_writes"),
        "row_lock_time_ms": d("Innodb_row_lock_time"),
    }
    n = max(commits, 1)
    for k, (cnt, ps) in b["waits"].items():
        c0, p0 = a["waits"].get(k, (0, 0))
        res[k + "_waits"] = cnt - c0
        res[k + "_ms_per_tx"] = (ps - p0) / 1e9 / n
    res["row_lock_ms_per_tx"] = res["row_lock_time_ms"] / n
    zc = zu = 0
    per_table = {}
    for t, z in b["zip"].items():
        z0 = a["zip"].get(t, {})
        ops = z["compress_ops"] - z0.get("compress_ops", 0)
        ok = z["compress_ok"] - z0.get("compress_ok", 0)
        zc += z["compress_usecs"] - z0.get("compress_usecs", 0)
        zu += z["uncompress_usecs"] - z0.get("uncompress_usecs", 0)
        per_table[t] = {"compress_ops": ops, "failures": ops - ok,
                        "splits": z["splits"] - z0.get("splits", 0),
                        "pad": z["pad"], "hint": z["hint"],
                        "pad_bytes": z["pad_bytes"],
                        "log_full": z["log_full"] - z0.get("log_full", 0),
                        "updates": z["updates"] - z0.get("updates", 0),
                        "reorgs": z["reorgs"] - z0.get("reorgs", 0),
                        "log_reserve": z["log_reserve"]}
    res["compress_ms_per_tx"] = zc / 1000 / n
    res["uncompress_ms_per_tx"] = zu / 1000 / n
    # The paper's Table 5: where a transaction's time goes. Compression:
    # COMPRESS_USECS + UNCOMPRESS_USECS of COMPRESSION_STATS (ROW_FORMAT=
    # COMPRESSED pages; page compression is in the file I/O time). File
    # I/O: performance_schema's wait time on InnoDB's files, all threads.
    res["compression_ms_per_tx"] = (zc + zu) / 1000 / n
    for k, (cnt, ps) in b.get("file_io", {}).items():
        c0, p0 = a.get("file_io", {}).get(k, (0, 0))
        name = "file_io" if k == "all" else "file_%s" % k
        res[name + "_ops"] = cnt - c0
        res[name + "_ms_per_tx"] = (ps - p0) / 1e9 / n
    res["redo_bytes_per_tx"] = res["redo_bytes"] / n
    for k, v in b.get("metrics", {}).items():
        res["m:" + k] = v - a.get("metrics", {}).get(k, 0)
    for t, z in b["zip"].items():
        per_table[t]["uncompress_ops"] = (
            z["uncompress_ops"] - a["zip"].get(t, {}).get("uncompress_ops", 0))
    res["uncompress_ops"] = sum(v["uncompress_ops"] for v in per_table.values())
    res["buffer_pool_wait_free"] = d("Innodb_buffer_pool_wait_free")
    res["buffer_pool_read_requests"] = d("Innodb_buffer_pool_read_requests")
    return res, per_table


# The initial data of tpcc.lua prepare (--data; BENCHMARKS.md "Data"):
# spec, dbt2 or aged. Set once by main() for the whole run.
DATA = "spec"
DATA_CHOICES = ("spec", "dbt2", "aged")
# Sessions that load the warehouses in parallel (tpcc.lua prepare
# --threads; --load-threads). Each session inserts its warehouses in key
# order, so with 2 or more the inserts of a table go to several places.
LOAD_THREADS = 2
# --codec: the page codec of every server of the run (None: the default);
# --codecs: tuning, paper and wiki run each compressed configuration with
# each of these (codec_names()).
CODEC = None
CODECS = []


class Layout:
    """A table layout: what tpcc.lua prepare gets, and its loaded copy.
    rebuild_free_pct: after the load, rebuild every compressed table with
    ALTER TABLE ... FORCE (the tight bulk load of patches 0015-0017) leaving
    this % of each compressed page free (innodb_compression_bulk_free_pct)."""

    def __init__(self, name, table_options="", padding="", note="",
                 rebuild_free_pct=None, codec=None, kind=None):
        self.name = name
        # "none" (uncompressed), "zip" (ROW_FORMAT=COMPRESSED tables),
        # "page" (page compression, COMPRESSION=...: the codec does not
        # apply), "choose" (CH: made from the uncompressed copy by
        # make_choose(), not loaded).
        self.kind = kind or ("zip" if table_options else "none")
        # The page codec the layout is loaded with (innodb_compression_codec);
        # None: the run's (--codec), else the server's default.
        self.codec = codec
        self.table_options = table_options
        self.padding = padding
        self.note = note
        self.rebuild_free_pct = rebuild_free_pct
        self.saved = None
        # After load(): bytes allocated per table (ibd_alloc()) and the
        # split of ibd_split(); CH: the advisor's choices.
        self.alloc = {}
        self.split = {}
        self.choices = []


def codec_names(name, compressed):
    """--codecs zlib,isal: the (name, codec) pairs a configuration runs as,
    a compressed one once per codec, side by side ("A8@zlib", "A8@isal"),
    an uncompressed one, or any without --codecs, once as itself (codec
    None: the run's, --codec, else the server's default)."""
    if not (CODECS and compressed):
        return [(name, None)]
    return [("%s@%s" % (name, k), k) for k in CODECS]


def codec_layouts(layouts):
    """codec_names() of table layouts: each variant a Layout of its own,
    loaded with its codec (the experiment runs it with codec_opts())."""
    return [lay if k is None else
            Layout(n, lay.table_options, lay.padding, lay.note,
                   lay.rebuild_free_pct, codec=k, kind=lay.kind)
            for lay in layouts
            for n, k in codec_names(lay.name, lay.kind == "zip")]


def codec_opts(opts, codec):
    """Server options with innodb_compression_codec = codec (if not None):
    the tables have no codec of their own, they follow the variable."""
    return dict(opts, innodb_compression_codec=codec) if codec else opts


def codec_field(codec):
    """The codec column of a result row under --codecs ("" for an
    uncompressed configuration); without --codecs, none."""
    return {"codec": codec or ""} if CODECS else {}


def layout_dir(layout, warehouses):
    """Where the loaded copy of a layout is kept: named by a digest of all
    that makes it (warehouses, options, padding, the loader)."""
    h = hashlib.sha1()
    h.update(("%d|%s|%s" % (warehouses, layout.table_options,
                            layout.padding)).encode())
    if layout.rebuild_free_pct is not None:
        h.update(("|rebuild %d|segment reserve %s" % (
            layout.rebuild_free_pct, REBUILD_SEGMENT_RESERVE)).encode())
    if DATA != "spec":
        h.update(("|data %s" % DATA).encode())
    if LOAD_THREADS != 2:
        h.update(("|load threads %d" % LOAD_THREADS).encode())
    codec = layout.codec or CODEC
    if codec and layout.kind == "zip":
        h.update(("|codec %s" % codec).encode())
    for f in ("tpcc_schema_dbt2.sql" if DATA == "dbt2" else "tpcc_schema.sql",
              "tpcc_load.sql"):
        h.update(open(os.path.join(ROOT, "scripts", "accuracy", f), "rb").read())
    return os.path.join(BENCH, "data", "%s-%s-%dwh-%s" % (
        layout.name, DATA, warehouses, h.hexdigest()[:10]))


def load(exp, layout, warehouses, load_opts, reuse=True):
    """Load the database for a layout into a fresh data directory and keep
    it (a kept copy of the same layout is reused unless reuse is False).
    Returns load seconds and the table sizes."""
    saved = layout_dir(layout, warehouses)
    layout.saved = saved
    meta = os.path.join(saved + ".json")
    if reuse and os.path.exists(meta) and os.path.isdir(saved):
        os.utime(meta)
        IN_USE.add(os.path.abspath(saved))
        m = json.load(open(meta))
        log("reusing the loaded %s (%s)" % (layout.name, os.path.basename(saved)))
        # Copies kept before the allocated bytes were recorded: measured
        # now (the kept copy is the loaded data directory itself).
        if "alloc" not in m:
            m["alloc"], m["split"] = ibd_alloc(saved), ibd_split(saved)
            with open(meta, "w") as f:
                json.dump(m, f)
        layout.alloc, layout.split = m["alloc"], m["split"]
        return m["secs"], m["sizes"]
    if os.path.exists(meta):
        os.remove(meta)
    copy_datadir(base_datadir(), saved)
    srv = Server(saved, codec_opts(load_opts, layout.codec))
    srv.start()
    try:
        srv.sql("CREATE DATABASE %s" % DB)
        srv.source(ADVISOR)
        t0 = time.time()
        out = srv.sysbench(["--threads=%d" % LOAD_THREADS,
                            "--table-options=" + layout.table_options,
                            "--padding=" + layout.padding, "--data=" + DATA,
                            "prepare"], warehouses)
        secs = time.time() - t0
        if layout.rebuild_free_pct is not None:
            rebuild(srv, layout.rebuild_free_pct)
        sizes = table_sizes(srv)
    finally:
        srv.stop()
    layout.alloc, layout.split = ibd_alloc(saved), ibd_split(saved)
    log("loaded %s/%s: %.1f s, %.1f MB, %.1f MB allocated" % (
        exp, layout.name, secs, sum(sizes.values()) / 2**20,
        sum(layout.alloc.values()) / 2**20))
    del out
    with open(meta, "w") as f:
        json.dump({"secs": secs, "sizes": sizes, "alloc": layout.alloc,
                   "split": layout.split}, f)
    return secs, sizes


# The CHOOSE layout (CH) as a DBA would make it: the advisor's strategy
# CHOOSE (docs/page-compression.md) at 8 KB, delta 0.10, applied to the
# uncompressed copy after the workload ran on it, so that
# performance_schema has each table's row operations (CHOOSE weighs reads
# against writes). The conversion's ALTERs run with the segment reserve at
# REBUILD_SEGMENT_RESERVE, as the harness's other rebuilds.
CHOOSE_CALL = "CALL compression_advisor.apply('%s', 'CHOOSE', 8, 0.10, FALSE, NULL, NULL)"
CHOOSE_MIN_WARM = 10


def choose_dir(base, mix, threads, warm):
    """Where a CH copy is kept: named by the uncompressed copy it was made
    from, the mix and warm-up that fed performance_schema, the advisor."""
    h = hashlib.sha1()
    h.update(("%s|%s|%d|%d|%s|%s" % (os.path.basename(base.saved), mix,
                                     threads, warm, REBUILD_SEGMENT_RESERVE,
                                     CODEC)).encode())
    h.update(open(ADVISOR, "rb").read())
    return os.path.join(BENCH, "data", "CH-%s-%s" % (mix, h.hexdigest()[:10]))


def make_choose(exp, lay, base, warehouses, load_opts, mix, threads, warm,
                reuse=True):
    """Make (or reuse) the CH copy for a mix: copy the loaded uncompressed
    layout base, run the mix for max(warm, CHOOSE_MIN_WARM) s unthrottled
    (performance_schema counts each table's row operations), estimate every
    table, record CHOOSE's method per table and apply it. Sets lay.saved,
    lay.alloc, lay.split and lay.choices ([table, method, verdict, row
    operations, row writes, outcome, table options after]); returns (load
    seconds: the base's load plus the conversion, table sizes), as load()."""
    saved = choose_dir(base, mix, threads, warm)
    lay.saved = saved
    meta = saved + ".json"
    base_secs = json.load(open(base.saved + ".json"))["secs"]
    if reuse and os.path.exists(meta) and os.path.isdir(saved):
        os.utime(meta)
        IN_USE.add(os.path.abspath(saved))
        m = json.load(open(meta))
        log("reusing the CHOOSE copy for the %s mix (%s)" % (
            mix, os.path.basename(saved)))
        lay.alloc, lay.split, lay.choices = m["alloc"], m["split"], m["choices"]
        return base_secs + m["convert_s"], m["sizes"]
    if os.path.exists(meta):
        os.remove(meta)
    copy_datadir(base.saved, saved, allocation=True)
    srv = Server(saved, load_opts)
    srv.start()
    try:
        # The kept uncompressed copy may predate the advisor's last change.
        srv.source(ADVISOR)
        srv.sysbench(["--threads=%d" % threads,
                      "--time=%d" % max(warm, CHOOSE_MIN_WARM),
                      "--mix=" + mix, "run"], warehouses)
        t0 = time.time()
        for r in srv.sql("CALL compression_advisor.estimate_all('%s', NULL)"
                         % DB):
            if len(r) >= 3 and r[2].startswith("ERROR"):
                log("CHOOSE: estimating %s: %s" % (r[1], r[2]))
        est_s = time.time() - t0
        # The verdicts apply() acts on: table_choices at its size and delta.
        verdicts = srv.sql(
            "SET SESSION compression_stats_target_key_block_size = 8; "
            "SET SESSION compression_stats_delta = 0.10; "
            "SELECT TABLE_NAME, CHOOSE_METHOD, CHOOSE_VERDICT, "
            "IFNULL(ROW_OPERATIONS, 0), IFNULL(ROW_WRITES, 0) "
            "FROM compression_advisor.table_choices "
            "WHERE TABLE_SCHEMA = '%s' ORDER BY TABLE_NAME" % DB)
        srv.sql("SET GLOBAL innodb_segment_reserve_factor = %s"
                % REBUILD_SEGMENT_RESERVE)
        t0 = time.time()
        applied = srv.sql(CHOOSE_CALL % DB)
        convert_s = time.time() - t0
        srv.sql("SET GLOBAL innodb_segment_reserve_factor = DEFAULT")
        outcome = {r[1]: r[5] for r in applied if len(r) >= 6}
        got = {r[0]: r[1] for r in srv.sql(
            "SELECT TABLE_NAME, CONCAT(ROW_FORMAT, ' ', CREATE_OPTIONS) "
            "FROM information_schema.TABLES WHERE TABLE_SCHEMA = '%s'" % DB)}
        sizes = table_sizes(srv)
    finally:
        srv.stop()
    lay.choices = [[r[0], r[1], r[2], int(r[3]), int(r[4]),
                    outcome.get(r[0], "no statement"), got.get(r[0], "")]
                   for r in verdicts]
    failed = [c[0] for c in lay.choices if c[5].startswith("FAILED")]
    if failed:
        log("CHOOSE: the ALTER of %s failed (see the report)" % ", ".join(failed))
    lay.alloc, lay.split = ibd_alloc(saved), ibd_split(saved)
    log("CHOOSE for the %s mix: %s; estimates %.1f s, conversion %.1f s, "
        "%.1f MB allocated" % (mix, ", ".join(
            "%s %s" % (c[0], c[1]) for c in lay.choices), est_s, convert_s,
            sum(lay.alloc.values()) / 2**20))
    with open(meta, "w") as f:
        json.dump({"convert_s": convert_s, "estimate_s": est_s,
                   "sizes": sizes, "alloc": lay.alloc, "split": lay.split,
                   "choices": lay.choices}, f)
    IN_USE.add(os.path.abspath(saved))
    return base_secs + convert_s, sizes


# A B-tree built by ALTER TABLE gets its pages without a page hint, so
# InnoDB keeps innodb_segment_reserve_factor (12.5 % by default) of each of
# its segments' pages allocated but empty, for the segment to grow into:
# the table is that much bigger on disk than the pages it uses, where the
# same rows inserted in key order leave almost none (BENCHMARKS.md, 1b).
# The rebuilds below use the minimum, as a DBA who compresses a table to
# save space would; later page splits allocate what they need.
REBUILD_SEGMENT_RESERVE = "0.03"


def rebuild(srv, free_pct):
    """ALTER TABLE ... FORCE of every compressed table: the tight bulk load
    rebuilds it leaving free_pct % of each compressed page free."""
    srv.sql("SET GLOBAL innodb_compression_bulk_free_pct = %d" % free_pct)
    srv.sql("SET GLOBAL innodb_segment_reserve_factor = %s"
            % REBUILD_SEGMENT_RESERVE)
    t0 = time.time()
    for (t,) in srv.sql("SELECT TABLE_NAME FROM information_schema.TABLES "
                        "WHERE TABLE_SCHEMA = '%s' AND ROW_FORMAT = "
                        "'Compressed'" % DB):
        srv.sql("ALTER TABLE %s FORCE" % t, db=DB)
    srv.sql("SET GLOBAL innodb_compression_bulk_free_pct = DEFAULT")
    srv.sql("SET GLOBAL innodb_segment_reserve_factor = DEFAULT")
    log("rebuilt the compressed tables with %d %% free in %.1f s" % (
        free_pct, time.time() - t0))


def measured_run(exp, layout, warehouses, run_opts, mix, threads, warm, secs,
                 mysqld=None, check=False, device=None, sizes_after=False,
                 perf_out=None):
    """Restore the layout's copy, start, warm up, measure, stop. device: a
    storage profile (DEVICE_PROFILES): the warm-up and the measurement run
    throttled, the start, the consistency check and the shutdown not.
    Records the bytes allocated to the schema's files after the run
    (alloc_MB_after; the copy starts with the load's allocation,
    copy_allocation()) and, with sizes_after, DATA_LENGTH + INDEX_LENGTH
    after ANALYZE (size_MB_after). perf_out: a CPU profile of the server
    during the measurement (perf_record_stacks(); perf_out.txt, and per
    STACK_BUCKETS bucket the CPU ms per transaction as "cpu:<bucket>")."""
    saved = layout.saved
    live = work_path("live-datadir")
    copy_datadir(saved, live, allocation=True)
    alloc0 = sum(ibd_alloc(live).values())
    srv = Server(live, run_opts, mysqld=mysqld)
    srv.start()
    profile = DEVICE_PROFILES.get(device) if device else None
    throttle = IoThrottle(live, profile) if profile else None
    try:
        if throttle:
            throttle.attach(srv.proc.pid)
        try:
            if warm > 0:
                srv.sysbench(["--threads=%d" % threads, "--time=%d" % warm,
                              "--mix=" + mix, "run"], warehouses)
            a = snapshot(srv)
            prof = None
            if perf_out:
                import threading
                prof = threading.Thread(target=perf_record_stacks, args=(
                    srv.proc.pid, secs, perf_out + ".data"))
                prof.start()
            out = srv.sysbench(["--threads=%d" % threads, "--time=%d" % secs,
                                "--mix=" + mix, "run"], warehouses)
            if prof:
                prof.join()
            b = snapshot(srv)
        finally:
            if throttle:
                throttle.release(srv.proc.pid)
        res = parse_tpcc(out)
        commits = sum(res.get(t + "_commits", 0) for t in TX_TYPES)
        extra, per_table = diff_snapshots(a, b, commits)
        res.update(extra)
        res["commits"] = commits
        # The mean time a committed transaction took, retries and all
        # (threads x seconds / commits): what the Table 5 split divides.
        res["elapsed_ms_per_tx"] = (threads * res["seconds"] * 1000.0 /
                                    max(commits, 1))
        if check:
            chk = srv.sysbench(["check"], warehouses)
            res["consistency"] = "OK" if "FAILED" not in chk else "FAILED"
        if sizes_after:
            res["size_MB_after"] = sum(table_sizes(srv).values()) / 2**20
    finally:
        srv.stop()
        if throttle:
            throttle.detach()
    if perf_out:
        # Unwound after the server stopped, so that it costs no run.
        cpu = perf_stack_buckets(perf_out + ".data", perf_out + ".txt")
        for b, s in cpu.items():
            res["cpu:" + b] = 1000.0 * s / max(commits, 1)
        res["cpu_ms_per_tx"] = 1000.0 * sum(cpu.values()) / max(commits, 1)
    alloc = ibd_alloc(live)
    split = ibd_split(live)
    res["alloc_MB_load"] = alloc0 / 2**20
    res["alloc_MB_after"] = sum(alloc.values()) / 2**20
    if split:
        res["in_use_MB_after"] = split["in_use"] / 2**20
        res["free_MB_after"] = split["free"] / 2**20
    if device:
        res["device"] = device
    return res, per_table


# ---------------------------------------------------------------------------
# Output helpers


def write_csv(path, rows, fields=None):
    if not rows:
        return
    fields = fields or list(dict.fromkeys(k for r in rows for k in r))
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def md_table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "| " + " | ".join("---" if i == 0 else "---:"
                             for i in range(len(header))) + " |"]
    for r in rows:
        out.append("| " + " | ".join(str(x) for x in r) + " |")
    return "\n".join(out)


def spread(values):
    """median (min-max) of a list."""
    if not values:
        return "-"
    med = statistics.median(values)
    if len(values) == 1:
        return "%.0f" % med
    return "%.0f (%.0f-%.0f)" % (med, min(values), max(values))


def ratio_spread(num, den):
    """Median ratio and its range over the repetitions (paired by rep)."""
    rs = [n / d for n, d in zip(num, den) if d > 0]
    if not rs:
        return "-"
    if len(rs) == 1:
        return "%.2fx" % rs[0]
    return "%.2fx (%.2f-%.2f)" % (statistics.median(rs), min(rs), max(rs))


def bar_plot(path, title, labels, series, ylabel):
    """series: {name: [values per label]} -> grouped bars with error bars
    given as (median, min, max) tuples."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib missing: no plot " + path)
        return
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(labels) * len(series)), 4))
    width = 0.8 / max(len(series), 1)
    for i, (name, vals) in enumerate(series.items()):
        xs = [j + i * width for j in range(len(labels))]
        med = [v[0] for v in vals]
        err = [[v[0] - v[1] for v in vals], [v[2] - v[0] for v in vals]]
        ax.bar(xs, med, width, yerr=err, capsize=3, label=name)
    ax.set_xticks([j + width * (len(series) - 1) / 2 for j in range(len(labels))])
    ax.set_xticklabels(labels, rotation=20, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def med3(values):
    if not values:
        return (0, 0, 0)
    return (statistics.median(values), min(values), max(values))


# ---------------------------------------------------------------------------
# Experiment: paper (Lee 2015: N, A and S at 8 KB and 4 KB, I/O bound)

COMPRESSED = "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=%d"
PAPER_SS = {"stock": 34, "order_line": 49, "customer": 27, "orders": 50,
            "history": 50, "new_orders": 43, "item": 33, "district": 44,
            "warehouse": 35}


def selective_tables(base, kbs, load_opts):
    """Estimate every table of the N layout with the plugin and return the
    tables whose SELECTIVE verdict is COMPRESS at this KEY_BLOCK_SIZE (delta
    0.10), plus the estimated SS of every table at 8 and 4 KB."""
    saved = base.saved
    live = work_path("live-datadir")
    copy_datadir(saved, live)
    srv = Server(live, load_opts)
    srv.start()
    try:
        srv.sql("SET GLOBAL compression_stats_target_key_block_size = %d" % kbs)
        srv.sql("SET GLOBAL compression_stats_delta = 0.10")
        srv.sql("CALL compression_advisor.estimate_all('%s', NULL)" % DB)
        chosen = [r[0] for r in srv.sql(
            "SELECT TABLE_NAME FROM information_schema.COMPRESSION_STATS "
            "WHERE TABLE_SCHEMA = '%s' AND SELECTIVE_VERDICT = 'COMPRESS' "
            "ORDER BY TABLE_NAME" % DB)]
        est = {}
        for r in srv.sql("SELECT TABLE_NAME, KEY_BLOCK_SIZE, SPACE_SAVINGS "
                         "FROM information_schema.COMPRESSION_ESTIMATES "
                         "WHERE KEY_BLOCK_SIZE IS NOT NULL AND TABLE_SCHEMA = '%s'" % DB):
            if r[2] != "NULL":
                est.setdefault(r[0], {})[int(r[1])] = float(r[2])
        verdicts = {r[0]: (r[1], r[2]) for r in srv.sql(
            "SELECT TABLE_NAME, SELECTIVE_VERDICT, IFNULL(SPACE_SAVINGS, '') "
            "FROM information_schema.COMPRESSION_STATS "
            "WHERE TABLE_SCHEMA = '%s'" % DB)}
    finally:
        srv.stop()
    return chosen, est, verdicts


def alter_sizes(base, kbss, load_opts):
    """ALTER TABLE every table of a copy of the N layout to each
    KEY_BLOCK_SIZE in turn (the way a DBA compresses an existing table; the
    tight bulk load of patches 0016-0017 with its defaults) and return, per
    size, the table sizes (table_sizes(), as for the loaded layouts), the
    seconds of each ALTER and CURRENT_SIZE_SAVINGS estimated before. The
    ALTERs run with innodb_segment_reserve_factor at REBUILD_SEGMENT_RESERVE,
    so the sizes count the pages the rebuilt trees use, as for the loads."""
    live = work_path("live-datadir")
    copy_datadir(base.saved, live)
    srv = Server(live, dict(load_opts, innodb_segment_reserve_factor=
                            REBUILD_SEGMENT_RESERVE))
    srv.start()
    sizes, secs, css = {}, {}, {}
    try:
        srv.sql("CALL compression_advisor.estimate_all('%s', NULL)" % DB)
        for r in srv.sql("SELECT TABLE_NAME, KEY_BLOCK_SIZE, "
                         "IFNULL(CURRENT_SIZE_SAVINGS, '') "
                         "FROM information_schema.COMPRESSION_ESTIMATES "
                         "WHERE KEY_BLOCK_SIZE IS NOT NULL AND TABLE_SCHEMA = '%s'" % DB):
            if r[2] != "":
                css.setdefault(r[0], {})[int(r[1])] = float(r[2])
        for k in kbss:
            secs[k] = {}
            for t in TABLES:
                t0 = time.time()
                srv.sql("ALTER TABLE %s ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=%d"
                        % (t, k), db=DB)
                secs[k][t] = time.time() - t0
            sizes[k] = table_sizes(srv)
            log("ALTER TABLE at %d KB: %.1f MB in %.1f s" % (
                k, sum(sizes[k].values()) / 2**20, sum(secs[k].values())))
    finally:
        srv.stop()
    return sizes, secs, css


def size_report(loads, est, alter, css, kbss):
    """Rows of the per-table savings table (the paper's Table 4): loaded
    into compressed tables (A layouts), ALTER TABLE of the loaded N copy,
    and the estimates on the N copy. Returns CSV rows and Markdown."""
    size_rows = []
    n_sizes = loads["N"][1]
    for t in TABLES:
        row = {"table": t, "N_MB": n_sizes.get(t, 0) / 2**20}
        for k in kbss:
            a = loads["A%d" % k][1].get(t, 0) if "A%d" % k in loads else None
            row["A%d_MB" % k] = None if a is None else a / 2**20
            row["SS%d" % k] = (100 * (1 - a / n_sizes[t])
                               if a is not None and n_sizes.get(t) else None)
            al = alter.get(k, {}).get(t)
            row["ALTER%d_MB" % k] = None if al is None else al / 2**20
            row["ALTER_SS%d" % k] = (100 * (1 - al / n_sizes[t])
                                     if al is not None and n_sizes.get(t) else None)
            row["est_SS%d" % k] = est.get(t, {}).get(k)
            row["est_CSS%d" % k] = css.get(t, {}).get(k)
        size_rows.append(row)
    f = lambda v: "-" if v is None else "%.1f" % v
    hdr = ["table", "uncompressed MB"]
    for k in kbss:
        hdr += ["SS %d KB loaded" % k, "SS %d KB ALTER" % k,
                "est. size now->after %d KB" % k, "est. SPACE_SAVINGS %d KB" % k]
    hdr += ["paper SS 8 KB"]
    rows = []
    for r in size_rows:
        row = [r["table"], "%.1f" % r["N_MB"]]
        for k in kbss:
            row += [f(r["SS%d" % k]), f(r["ALTER_SS%d" % k]),
                    f(r["est_CSS%d" % k]), f(r["est_SS%d" % k])]
        row += ["%d" % PAPER_SS[r["table"]]]
        rows.append(row)
    tot = ["**all**", "%.1f" % (sum(n_sizes.values()) / 2**20)]
    n_all = sum(n_sizes.get(t, 0) for t in TABLES)
    for k in kbss:
        a_all = (sum(loads["A%d" % k][1].get(t, 0) for t in TABLES)
                 if "A%d" % k in loads else None)
        al_all = sum(alter[k].get(t, 0) for t in TABLES) if k in alter else None
        tot += [f(None if a_all is None else 100 * (1 - a_all / n_all)),
                f(None if al_all is None else 100 * (1 - al_all / n_all)), "", ""]
    tot += ["37.6"]
    rows.append(tot)
    return size_rows, md_table(hdr, rows)


def exp_sizes(args, out):
    """The per-table savings alone (no throughput runs): N, A8 and A4
    loaded (kept copies reused), estimates and ALTER TABLE of the N copy."""
    W = args.warehouses or (1 if args.quick else 4)
    kbss = [8] if args.quick else [8, 4]
    load_opts = {"innodb_buffer_pool_size": "1G"}
    loads = {}
    base = Layout("N", "", note="no compression")
    loads["N"] = load("sizes", base, W, load_opts, reuse=True)
    est = {}
    for k in kbss:
        _, est, _ = selective_tables(base, k, load_opts)
        lay = Layout("A%d" % k, "*:" + COMPRESSED % k)
        loads[lay.name] = load("sizes", lay, W, load_opts, reuse=True)
    alter, alter_secs, css = alter_sizes(base, kbss, load_opts)
    size_rows, table = size_report(loads, est, alter, css, kbss)
    write_csv(os.path.join(out, "sizes.csv"), size_rows)
    md = ["# Space savings per table: loaded, ALTER TABLE, estimated", "",
          "Measured %s on this build, data %s, %d warehouses. MB are "
          "DATA_LENGTH + "
          "INDEX_LENGTH after ANALYZE TABLE. *Loaded*: the database loaded "
          "into compressed tables. *ALTER*: ALTER TABLE ... "
          "ROW_FORMAT=COMPRESSED of the loaded uncompressed copy, with "
          "innodb_segment_reserve_factor=%s (the default 12.5 keeps that "
          "share of the rebuilt tree's pages allocated but empty). Estimates "
          "on the uncompressed copy (default sample): CURRENT_SIZE_SAVINGS "
          "(size now vs after the ALTER) and SPACE_SAVINGS (the SELECTIVE "
          "T_ss, against full pages)." % (time.strftime("%Y-%m-%d"), DATA,
                                           W, REBUILD_SEGMENT_RESERVE), "",
          table, "",
          "ALTER seconds: " + "; ".join(
              "%d KB %.1f" % (k, sum(alter_secs[k].values())) for k in kbss), ""]
    with open(os.path.join(out, "report.md"), "w") as fh:
        fh.write("\n".join(md) + "\n")


# Page compression beside ROW_FORMAT=COMPRESSED (issue 29): every table
# COMPRESSION='zlib' (PZ) or 'lz4' (PL), loaded so (tpcc.lua
# --table-options); the page codec (--codec, --codecs) does not apply.
PAGE_LAYOUTS = [("PZ", "zlib"), ("PL", "lz4")]


def page_layouts():
    return [Layout(n, "*:COMPRESSION='%s'" % c, kind="page",
                   note="every table COMPRESSION='%s' (page compression)" % c)
            for n, c in PAGE_LAYOUTS]


def choose_layout():
    """The CH layout before make_choose() makes it (one per mix)."""
    return Layout("CH", kind="choose",
                  note="CHOOSE at 8 KB, delta 0.10, on the uncompressed copy")


def select_layouts(layouts, only, quick):
    """--only: N and the layouts named (under --codecs "S8m" names every
    codec's, "S8m@isal" one); without it every layout, but --quick leaves
    out PZ (PL stands for page compression). Dies on an unknown name."""
    if only:
        wanted = set(only.split(",")) | {"N"}
        known = {n for l in layouts for n in (l.name, l.name.split("@")[0])}
        unknown = wanted - known
        # S8m exists only where the measured rule picks other tables than
        # the estimator: otherwise S8 is it.
        for u in sorted(unknown):
            if re.match(r"S\d+m$", u) and u[:-1] in known:
                log("--only %s: the measured rule picks S%s's tables; "
                    "running %s" % (u, u[1:-1], u[:-1]))
                wanted.add(u[:-1])
                unknown.discard(u)
        if unknown:
            die("--only: no layout %s in this run (layouts: %s)" % (
                ", ".join(sorted(unknown)), ", ".join(l.name for l in layouts)))
        return [l for l in layouts if l.name in wanted or
                l.name.split("@")[0] in wanted]
    if quick:
        return [l for l in layouts if l.name != "PZ"]
    return layouts


def a_for(lay, kbss):
    """The ALL layout a layout is compared with ("vs A"): S8, S8m -> A8
    (same codec); PZ, PL, CH -> A at the first size; N, A: none."""
    base, at, codec = lay.name.partition("@")
    if lay.kind == "zip" and base.startswith("S"):
        return "A" + base[1:].rstrip("m") + at + codec
    if lay.kind in ("page", "choose"):
        return "A%d" % kbss[0] + ("@" + CODECS[0] if CODECS else "")
    return None


def med_of(rs, key, fmt="%.2f"):
    """The median of a field over result rows, formatted; "-" if none."""
    v = [r[key] for r in rs if r.get(key) is not None and r.get(key) != ""]
    return fmt % statistics.median(v) if v else "-"


def time_split_table(rows_by_layout, names):
    """The paper's Table 5 for one profile and mix: per layout, the mean
    elapsed time of a transaction and the waits in it, ms per transaction
    (medians over the repetitions)."""
    tab = []
    for n in names:
        rs = rows_by_layout.get(n, [])
        if not rs:
            continue
        tab.append([n, med_of(rs, "elapsed_ms_per_tx"),
                    med_of(rs, "row_lock_ms_per_tx"),
                    med_of(rs, "index_tree_rw_lock_ms_per_tx"),
                    med_of(rs, "file_io_ms_per_tx"),
                    med_of(rs, "file_read_ms_per_tx"),
                    med_of(rs, "file_write_ms_per_tx"),
                    med_of(rs, "compression_ms_per_tx")])
    return md_table(["layout", "elapsed ms/tx", "row lock wait",
                     "index latch wait", "file I/O (all threads)",
                     "of which reads", "of which writes",
                     "(de)compression"], tab)


def stacked_plot(path, title, labels, series, ylabel):
    """series: {part: [value per label]} -> one stacked bar per label."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib missing: no plot " + path)
        return
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(labels)), 4))
    bottom = [0.0] * len(labels)
    for name, vals in series.items():
        ax.bar(labels, vals, bottom=bottom, label=name)
        bottom = [a + b for a, b in zip(bottom, vals)]
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def exp_paper(args, out):
    quick = args.quick
    W = args.warehouses or (1 if quick else 4)
    bp_run = "24M" if quick else "64M"
    kbss = [8] if quick else [8, 4]
    mixes = ["standard", "read"]
    threads = 8
    warm, secs = (3, 8) if quick else (10, 30)
    reps = args.reps or (1 if quick else 2)
    load_opts = {"innodb_buffer_pool_size": "1G"}
    # The full run measures loading and always loads afresh; the quick one
    # and a run of some layouts (--only) reuse kept copies (their recorded
    # load times).
    fresh = not quick and not args.only
    # --device: the storage profiles the runs are repeated on; --quick
    # runs the read mix on the first profile only.
    devices, skipped = usable_devices(device_list(args.device), BENCH)
    if not devices:
        die("--device: no profile can run here")

    def mixes_for(dev):
        return mixes if not quick or dev == devices[0] else ["standard"]

    layouts = [Layout("N", "", note="no compression")]
    report = {"warehouses": W, "threads": threads, "warm": warm,
              "secs": secs, "reps": reps, "devices": devices,
              "devices_skipped": skipped, "perf": bool(args.perf)}
    loads = {}
    # The paper experiment measures loading: it always loads afresh.
    loads["N"] = load("paper", layouts[0], W, load_opts, reuse=not fresh)
    # --pool-pct: the pool in the paper's proportion to the data.
    if args.pool_pct:
        n_bytes = sum(loads["N"][1].values())
        bp_run = pool_option(pool_for_pct(args.pool_pct, n_bytes))
        log("buffer pool for the runs: %s (%.1f %% of N's %.1f MB, "
            "--pool-pct)" % (bp_run, args.pool_pct, n_bytes / 2**20))
        report["pool_pct"] = args.pool_pct
    report["buffer_pool"] = bp_run
    run_opts = {"innodb_buffer_pool_size": bp_run}
    est = {}
    chosen = {}
    for k in kbss:
        chosen[k], est, verdicts = selective_tables(layouts[0], k, load_opts)
        report["verdicts_%d" % k] = verdicts
        log("SELECTIVE at %d KB compresses: %s" % (k, chosen[k] or "nothing"))
        layouts.append(Layout("A%d" % k, "*:" + COMPRESSED % k,
                              note="all tables at %d KB" % k))
        layouts.append(Layout(
            "S%d" % k,
            ";".join("%s:%s" % (t, COMPRESSED % k) for t in chosen[k]),
            note="SELECTIVE at %d KB: %s" % (k, ", ".join(chosen[k]) or "none")))
    report["chosen"] = chosen
    report["estimates"] = est
    # --codecs: every compressed layout once per codec ("A8@isal").
    layouts = codec_layouts(layouts)
    for lay in layouts[1:]:
        loads[lay.name] = load("paper", lay, W, load_opts, reuse=not fresh)
    # The paper's own method: T_ss measured by loading the database both
    # ways, the rule (1 - delta) * CP_ss <= T_ss applied to that. A table
    # measured above CP_ss counts as close, as in the plugin's verdict
    # (cs_estimates.cc, delta_close()): it only gets there because its
    # uncompressed copy's pages are less full than its compressed ones.
    # --codecs: measured with the first codec, so that every codec runs
    # the same tables.
    measured = {}
    for k in kbss:
        cp = 100.0 * (1 - k / 16)
        n_sz = loads["N"][1]
        a_sz = loads[codec_names("A%d" % k, True)[0][0]][1]
        measured[k] = sorted(
            t for t in TABLES if n_sz.get(t) and
            0.9 * cp <= 100 * (1 - a_sz[t] / n_sz[t]))
        log("SELECTIVE on measured SS at %d KB compresses: %s" % (
            k, measured[k] or "nothing"))
        if measured[k] != chosen[k] and not quick:
            lay = Layout("S%dm" % k,
                         ";".join("%s:%s" % (t, COMPRESSED % k) for t in measured[k]),
                         note="SELECTIVE on measured SS at %d KB: %s" % (
                             k, ", ".join(measured[k]) or "none"))
            for l in codec_layouts([lay]):
                layouts.append(l)
                loads[l.name] = load("paper", l, W, load_opts, reuse=not fresh)
    report["chosen_measured"] = measured
    if CODECS:
        report["codecs"] = CODECS
    # Page compression and CHOOSE: loaded (made) only if they run.
    layouts += page_layouts() + [choose_layout()]

    # --only: run N and these layouts (the ROW_FORMAT=COMPRESSED ones are
    # loaded, or reused, for the sizes and the measured rule anyway); under
    # --codecs, "S8m" runs it with every codec, "S8m@isal" with that one.
    run_layouts = select_layouts(layouts, args.only, quick)
    report["layouts_run"] = [l.name for l in run_layouts]
    for lay in run_layouts:
        if lay.kind == "page" and lay.name not in loads:
            loads[lay.name] = load("paper", lay, W, load_opts, reuse=not fresh)
    # CH: one copy per mix, each converted after its own mix ran.
    ch = {}
    if any(l.kind == "choose" for l in run_layouts):
        for mix in mixes:
            if any(mix in mixes_for(d) for d in devices):
                ch[mix] = choose_layout()
                loads["CH (%s)" % mix] = make_choose(
                    "paper", ch[mix], layouts[0], W, load_opts, mix, threads,
                    warm, reuse=not fresh)
        report["choices"] = {m: l.choices for m, l in ch.items()}

    runs = []
    for rep in range(reps):
        for dev in devices:
            for mix in mixes_for(dev):
                for lay in run_layouts:
                    rl = ch[mix] if lay.kind == "choose" else lay
                    log("paper rep %d %s %s %s" % (rep + 1, dev, mix, lay.name))
                    res, _ = measured_run(
                        "paper", rl, W, codec_opts(run_opts, lay.codec), mix,
                        threads, warm, secs, device=dev, sizes_after=True,
                        check=(rep == reps - 1 and mix == "standard" and
                               dev == devices[0]),
                        perf_out=os.path.join(out, "perf-%s-%s-%s-%d" % (
                            dev, mix, lay.name.replace("@", "-"), rep + 1))
                        if args.perf else None)
                    res.update({"layout": lay.name, **codec_field(lay.codec),
                                "device": dev, "mix": mix, "rep": rep + 1})
                    runs.append(res)
                    log("  tpmC %.0f tpm %.0f, %.1f MB allocated after" % (
                        res["tpmC"], res["tpm"], res["alloc_MB_after"]))
    write_csv(os.path.join(out, "runs.csv"), runs)

    # Table 4: sizes, loaded and by ALTER TABLE of the N copy; --codecs: one
    # table per codec, its loads and its ALTERs.
    size_rows, size_md = [], []
    for k in CODECS or [None]:
        alter, _, css = alter_sizes(layouts[0], kbss, codec_opts(load_opts, k))
        k_rows, k_md = size_report({n.split("@")[0]: v
                                    for n, v in loads.items()
                                    if n.partition("@")[2] in ("", k)},
                                   est, alter, css, kbss)
        size_rows += [dict(r, **codec_field(k)) for r in k_rows]
        size_md += (["Codec %s:" % k, ""] if k else []) + [k_md, ""]
    write_csv(os.path.join(out, "sizes.csv"), size_rows)
    load_rows = paper_load_rows(layouts, loads, ch)
    write_csv(os.path.join(out, "loads.csv"), load_rows)
    md = paper_report(report, layouts, run_layouts, runs, load_rows, size_md,
                      ch, devices, skipped, mixes_for, kbss, out, W, bp_run)
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(report, f, indent=1, default=str)


def paper_load_rows(layouts, loads, ch):
    """One row per loaded layout (CH once per mix): load seconds, DATA_LENGTH
    + INDEX_LENGTH and the bytes allocated to the files (the measure by which
    page compression and ROW_FORMAT=COMPRESSED are compared), with their
    savings against N."""
    n_total = sum(loads["N"][1].values())
    n_alloc = sum(layouts[0].alloc.values())
    items = [(l.name, l) for l in layouts if l.name in loads]
    items += [("CH (%s)" % m, l) for m, l in ch.items()]
    rows = []
    for name, l in items:
        secs, sizes = loads[name]
        total = sum(sizes.values())
        alloc = sum(l.alloc.values())
        rows.append({
            "layout": name, **codec_field(l.codec), "kind": l.kind,
            "note": l.note, "load_s": secs, "MB": total / 2**20,
            "SS_total": 100 * (1 - total / n_total) if n_total else 0,
            "alloc_MB": alloc / 2**20,
            "alloc_SS": 100 * (1 - alloc / n_alloc) if n_alloc else 0,
            "in_use_MB": l.split.get("in_use", 0) / 2**20 if l.split else "",
            "free_MB": l.split.get("free", 0) / 2**20 if l.split else "",
            "compressed_pages": l.split.get("compressed_pages", "")
            if l.split else ""})
    return rows


def paper_report(report, layouts, run_layouts, runs, load_rows, size_md, ch,
                 devices, skipped, mixes_for, kbss, out, W, bp_run):
    """report.md of exp_paper, as lines."""
    threads, warm, secs, reps = (report["threads"], report["warm"],
                                 report["secs"], report["reps"])
    pool = bp_run
    if report.get("pool_pct"):
        pool = "%s (%.1f %% of N's loaded DATA_LENGTH + INDEX_LENGTH, at " \
               "least 16 MB, rounded up to 8 MB: --pool-pct)" % (
                   bp_run, report["pool_pct"])
    md = ["# Experiment paper: N, A and S (Lee 2015)", "",
          "Measured %s on this build. Data %s (tpcc.lua --data), %d "
          "warehouses, %d threads, buffer pool "
          "%s during the runs (1G while loading), O_DIRECT, binary log off, "
          "%d s warm-up + %d s measured per run, %d repetition(s), "
          "configurations interleaved." % (
              time.strftime("%Y-%m-%d"), DATA, W, threads, pool, warm, secs,
              reps) + (
              " Every compressed layout once per codec (--codecs %s: "
              "\"A8@%s\"), side by side; SELECTIVE on measured SS by the "
              "sizes of %s." % (",".join(CODECS), CODECS[-1], CODECS[0])
              if CODECS else ""),
          "",
          "Storage profiles (--device): %s. A throttled profile limits the "
          "server's reads and writes to its disk with the kernel's block I/O "
          "controller during the warm-up and the measurement "
          "(bench/harness.py DEVICE_PROFILES, IoThrottle); loading, the "
          "CHOOSE conversion, the estimates, the consistency check and the "
          "server's shutdown run unthrottled.%s" % (
              "; ".join("%s (%s)" % (d, profile_text(d)) for d in devices),
              (" Not run: %s (no writable blkio/io cgroup here)."
               % ", ".join(skipped)) if skipped else ""),
          "", "## Space savings per table (the paper's Table 4)", "",
          "DATA_LENGTH + INDEX_LENGTH, as the paper measured; page "
          "compression does not show there (its holes are not in "
          "DATA_LENGTH): compare it in the allocated column of the next "
          "table.", ""]
    md += size_md
    n_load = load_rows[0]["load_s"] or 1
    md += ["## Loading and bytes on disk", "",
           "MB: DATA_LENGTH + INDEX_LENGTH after ANALYZE TABLE. Allocated: "
           "the blocks allocated to the tables' .ibd files (st_blocks x 512, "
           "what du counts) after the load; **savings between page "
           "compression and ROW_FORMAT=COMPRESSED are the allocated "
           "column**. In use / free: the allocated bytes of B-tree and BLOB "
           "pages and of free pages (mysql-test/suite/compress/include/"
           "ibd_alloc.py). CH's load time is N's load plus the CHOOSE "
           "conversion (ALTER TABLEs); its copy also holds the warm-up's "
           "transactions.", "",
           md_table(["layout", "tables compressed", "load s", "MB",
                     "SS %", "allocated MB", "SS % allocated",
                     "in use MB", "free MB", "load time vs N"],
                    [[l["layout"], l["note"], "%.1f" % l["load_s"],
                      "%.1f" % l["MB"], "%.1f" % l["SS_total"],
                      "%.1f" % l["alloc_MB"], "%.1f" % l["alloc_SS"],
                      "%.1f" % l["in_use_MB"] if l["in_use_MB"] != "" else "-",
                      "%.1f" % l["free_MB"] if l["free_MB"] != "" else "-",
                      "%.2fx" % (l["load_s"] / n_load)]
                     for l in load_rows]), ""]
    alloc_ss = {l["layout"]: l["alloc_SS"] for l in load_rows}
    names = [l.name for l in run_layouts]
    targets = []
    for dev in devices:
        for mix in mixes_for(dev):
            md += ["## Throughput, %s mix, %s" % (mix, dev), ""]
            key = "tpmC" if mix == "standard" else "tpm"
            by = {n: [r for r in runs if r["layout"] == n and r["mix"] == mix
                      and r["device"] == dev] for n in names}
            n_tpm = [r[key] for r in by["N"]]
            rows = []
            for lay in run_layouts:
                rs = by[lay.name]
                metric = [r[key] for r in rs]
                a_name = a_for(lay, kbss)
                vs_a = "-"
                if a_name in by and by[a_name]:
                    vs_a = ratio_spread(metric, [r[key] for r in by[a_name]])
                ss = alloc_ss.get("CH (%s)" % mix if lay.kind == "choose"
                                  else lay.name)
                rows.append([
                    lay.name, spread(metric), ratio_spread(metric, n_tpm), vs_a,
                    "%.1f" % ss if ss is not None else "-",
                    med_of(rs, "alloc_MB_after", "%.1f"),
                    med_of(rs, "size_MB_after", "%.1f"),
                    med_of(rs, "index_tree_rw_lock_ms_per_tx"),
                    med_of(rs, "row_lock_ms_per_tx"),
                    med_of(rs, "compression_ms_per_tx"),
                    med_of(rs, "file_io_ms_per_tx"),
                    "%.0f" % statistics.median(r["data_reads"] / max(r["seconds"], 1)
                                               for r in rs) if rs else "-",
                    rs[-1].get("consistency", "") if rs else ""])
                if lay.kind in ("zip", "choose") and lay.name[0] in "SC" \
                        and mix == "standard" and rs and n_tpm:
                    targets.append((dev, lay.name, ratio_spread(metric, n_tpm),
                                    ss, vs_a))
            md += [md_table(["layout", "tpmC" if mix == "standard" else
                             "tpm (all tx)", "vs N", "vs A",
                             "SS % allocated (load)", "allocated MB after",
                             "MB after (DATA_LENGTH)", "index latch wait ms/tx",
                             "row lock ms/tx", "(de)compression ms/tx",
                             "file I/O ms/tx", "reads/s", "consistency"],
                            rows), ""]
            suffix = mix if dev == "native" else "%s_%s" % (dev, mix)
            bar_plot(os.path.join(out, "tpm_%s.png" % suffix),
                     "TPC-C-like %s mix, %d warehouses, buffer pool %s, %s" % (
                         mix, W, bp_run, dev),
                     names, {key: [med3([r[key] for r in by[n]]) for n in names]},
                     "transactions per minute")
            md += ["![%s mix, %s](tpm_%s.png)" % (mix, dev, suffix), ""]
    md += ["## Where a transaction's time goes (the paper's Table 5)", "",
           "Medians over the repetitions, ms per committed transaction. "
           "Elapsed: threads x measured seconds / commits (retries "
           "included). Row lock wait: Innodb_row_lock_time; index latch "
           "wait: performance_schema's index_tree_rw_lock; file I/O: "
           "performance_schema file_summary_by_event_name, "
           "wait/io/file/innodb/%, every thread (page cleaners' writes "
           "and the redo log included, so it can exceed a transaction's "
           "share; page compression's own CPU time is inside these waits); "
           "(de)compression: COMPRESS_USECS + UNCOMPRESS_USECS of "
           "information_schema.COMPRESSION_STATS (ROW_FORMAT=COMPRESSED "
           "pages). The parts overlap (a thread waiting for a lock waits "
           "for another's I/O) and do not add up to the elapsed time.", ""]
    parts = [("row lock", "row_lock_ms_per_tx"),
             ("index latch", "index_tree_rw_lock_ms_per_tx"),
             ("file reads", "file_read_ms_per_tx"),
             ("(de)compression", "compression_ms_per_tx")]
    for dev in devices:
        for mix in mixes_for(dev):
            by = {n: [r for r in runs if r["layout"] == n and r["mix"] == mix
                      and r["device"] == dev] for n in names}
            md += ["%s mix, %s:" % (mix.capitalize(), dev), "",
                   time_split_table(by, names), ""]
            suffix = mix if dev == "native" else "%s_%s" % (dev, mix)
            stacked_plot(os.path.join(out, "time_%s.png" % suffix),
                         "Waits per transaction, %s mix, %s" % (mix, dev),
                         names, {p: [statistics.median(r.get(k, 0) for r in by[n])
                                     if by[n] else 0 for n in names]
                                 for p, k in parts}, "ms per transaction")
            md += ["![time split, %s mix, %s](time_%s.png)" % (mix, dev, suffix),
                   ""]
    if report.get("perf"):
        md += cpu_profile_section(runs, names, devices, mixes_for, out)
    if targets:
        md += ["## The paper's targets (standard mix)", "",
               "S (and CH) against N and A, by profile: the issue's targets "
               "on the SSD profile are S >= 1.1x the TPM of N with >= 15 % "
               "total savings, and >= 1.5x the TPM of A; on the HDD the "
               "paper found A and S close. Savings: allocated bytes after "
               "the load.", "",
               md_table(["profile", "layout", "vs N", "SS % allocated",
                         "vs A"],
                        [[d, n, vn, "%.1f" % ss if ss is not None else "-", va]
                         for d, n, vn, ss, va in targets]), ""]
    if ch:
        md += ["## CHOOSE's choices (CH)", "",
               "compression_advisor.estimate_all() on the uncompressed copy "
               "after %d s of the mix (max of the warm-up and %d s), then %s: "
               "the method of compression_advisor.table_choices per table "
               "(compression_stats_target_key_block_size 8, delta 0.10), the "
               "row operations performance_schema counted, the statement's "
               "outcome and the table's options afterwards." % (
                   max(warm, CHOOSE_MIN_WARM), CHOOSE_MIN_WARM,
                   CHOOSE_CALL % DB), ""]
        for mix, l in ch.items():
            md += ["%s mix:" % mix.capitalize(), "",
                   md_table(["table", "method", "verdict", "row operations",
                             "writes %", "outcome", "after"],
                            [[c[0], c[1], c[2], c[3],
                              "%.0f" % (100.0 * c[4] / c[3]) if c[3] else "-",
                              c[5], c[6]] for c in l.choices]), ""]
    md += ["## SELECTIVE verdicts", ""]
    for k in kbss:
        v = report["verdicts_%d" % k]
        md += ["At %d KB (delta 0.10): " % k + ", ".join(
            "%s %s (estimated SS %s)" % (t, v[t][0], ("%.1f" % float(v[t][1])) if v[t][1] else "-")
            for t in TABLES if t in v), ""]
    return md


def cpu_profile_section(runs, names, devices, mixes_for, out):
    """--perf: per profile and mix, the server's CPU ms per committed
    transaction by STACK_BUCKETS bucket beside the off-CPU waits
    performance_schema measured, a stacked bar each."""
    buckets = [b for b, _, _ in STACK_BUCKETS] + [STACK_REST]
    md = ["## Where the CPU goes (perf, --perf)", "",
          "perf record -e cpu-clock at 99 Hz with call stacks (DWARF "
          "unwinding) of mysqld during each measured run, every thread; a "
          "sample counts in the first bucket of bench/harness.py "
          "STACK_BUCKETS its stack matches (compression: under "
          "page_zip_compress*; decompression: under page_zip_decompress*; "
          "splits and reorganizations: under btr_page_split_and_insert, "
          "btr_page_reorganize*, btr_compress and the like, their own "
          "(de)compression excluded; latch spins and waits, file I/O system "
          "calls: the innermost frames). CPU ms per transaction = samples / "
          "99 Hz / commits; 2 cores, so 2 x 60000 ms / TPM (all "
          "transactions) is the most the server can spend. The off-CPU "
          "columns are performance_schema's waits of the same runs "
          "(Table 5). Profiling costs throughput: the TPM of a --perf run "
          "is not the throughput figure. perf-<profile>-<mix>-<layout>-"
          "<rep>.txt: each bucket's top leaf functions.", ""]
    for dev in devices:
        for mix in mixes_for(dev):
            by = {n: [r for r in runs if r["layout"] == n and r["mix"] == mix
                      and r["device"] == dev and r.get("cpu_ms_per_tx")]
                  for n in names}
            labels = [n for n in names if by[n]]
            if not labels:
                continue
            key = "tpmC" if mix == "standard" else "tpm"
            tab = []
            for n in labels:
                rs = by[n]
                tab.append([n, med_of(rs, key, "%.0f")] +
                           [med_of(rs, "cpu:" + b) for b in buckets] +
                           [med_of(rs, "cpu_ms_per_tx"),
                            med_of(rs, "row_lock_ms_per_tx"),
                            med_of(rs, "index_tree_rw_lock_ms_per_tx"),
                            med_of(rs, "file_io_ms_per_tx")])
            md += ["%s mix, %s (CPU ms per transaction):" % (
                mix.capitalize(), dev), "",
                md_table(["layout", key] + buckets +
                         ["CPU total", "row lock wait", "index latch wait",
                          "file I/O wait"], tab), ""]
            suffix = mix if dev == "native" else "%s_%s" % (dev, mix)
            stacked_plot(os.path.join(out, "cpu_%s.png" % suffix),
                         "CPU per transaction, %s mix, %s" % (mix, dev),
                         labels, {b: [statistics.median(r.get("cpu:" + b, 0)
                                                        for r in by[n])
                                      for n in labels] for b in buckets},
                         "CPU ms per transaction")
            md += ["![CPU, %s mix, %s](cpu_%s.png)" % (mix, dev, suffix), ""]
    return md


def exp_readmix(args, out):
    """Why the read mix collapses when order_line is compressed (issue 29
    section 3): N, A8 and S8m (the paper's measured rule) on the read mix
    with the paper experiment's pool (--pools, default 64M) and a larger
    one, INNODB_METRICS' buffer_LRU_* counters on (patch 0024's unzip_LRU
    decisions and evictions among them): per transaction the page reads,
    the decompressions per table, the uncompressed frames freed and the
    compressed pages evicted, the policy's decisions, the waits for a free
    block, the row lock and index latch waits."""
    W = args.warehouses or 4
    threads = 8
    warm, secs = (5, 15) if args.quick else (10, 30)
    reps = args.reps or (1 if args.quick else 2)
    pools = (args.pools or "64M,256M").split(",")
    load_opts = {"innodb_buffer_pool_size": "1G"}
    n = Layout("N", "", note="no compression")
    a8 = Layout("A8", "*:" + COMPRESSED % 8, note="all tables at 8 KB")
    _, n_sz = load("readmix", n, W, load_opts)
    _, a_sz = load("readmix", a8, W, load_opts)
    cp = 50.0
    measured = sorted(t for t in TABLES if n_sz.get(t) and
                      0.9 * cp <= 100 * (1 - a_sz[t] / n_sz[t]))
    s8m = Layout("S8m", ";".join("%s:%s" % (t, COMPRESSED % 8)
                                 for t in measured),
                 note="SELECTIVE on measured SS at 8 KB: " + ", ".join(measured))
    load("readmix", s8m, W, load_opts)
    layouts = [n, a8, s8m]
    if args.only:
        keep = set(args.only.split(",")) | {"N"}
        layouts = [l for l in layouts if l.name in keep]
    variants = [("default", {})]
    if args.unzip_policy:
        # a policy of patch 0025 beside upstream's (default)
        variants.append((args.unzip_policy,
                         {"innodb_buffer_pool_unzip_lru_policy":
                          args.unzip_policy}))
    rows, tables = [], []
    for rep in range(reps):
        for pool in pools:
            for vname, vopts in variants:
                for lay in layouts:
                    if vname != "default" and lay.kind != "zip":
                        continue
                    opts = dict({"innodb_buffer_pool_size": pool,
                                 "innodb_monitor_enable": "buffer_LRU%"},
                                **vopts)
                    log("readmix rep %d pool %s %s %s" % (rep + 1, pool,
                                                           vname, lay.name))
                    res, per_table = measured_run("readmix", lay, W, opts,
                                                  "read", threads, warm, secs)
                    res.update({"layout": lay.name, "pool": pool,
                                "policy": vname, "rep": rep + 1})
                    rows.append(res)
                    for t, v in per_table.items():
                        tables.append({"layout": lay.name, "pool": pool,
                                       "policy": vname, "rep": rep + 1,
                                       "table": t, **v})
                    log("  tpm %.0f, reads/tx %.1f, decompressions/tx %.1f" % (
                        res["tpm"], res["data_reads"] / max(res["commits"], 1),
                        res["uncompress_ops"] / max(res["commits"], 1)))
    write_csv(os.path.join(out, "runs.csv"), rows)
    write_csv(os.path.join(out, "tables.csv"), tables)
    md = readmix_report(rows, tables, layouts, pools, variants, W, threads,
                        warm, secs, reps)
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")


def readmix_report(rows, tables, layouts, pools, variants, W, threads, warm,
                   secs, reps):
    """report.md of exp_readmix, as lines."""
    def per_tx(rs, key):
        v = [r.get(key, 0) / max(r["commits"], 1) for r in rs]
        return "%.2f" % statistics.median(v) if v else "-"
    md = ["# Experiment readmix: the read mix with compressed tables", "",
          "Measured %s. Data %s, %d warehouses, %d threads, read mix "
          "(tpcc.lua --mix=read), %d s warm-up + %d s measured, %d "
          "repetition(s), medians; INNODB_METRICS buffer_LRU%% enabled "
          "(innodb_monitor_enable). Per committed transaction: page reads "
          "(Innodb_data_reads), decompressions (UNCOMPRESS_OPS of "
          "COMPRESSION_STATS), uncompressed frames freed with the compressed "
          "page kept (buffer_LRU_unzip_frames_evicted), compressed pages "
          "evicted entirely (buffer_LRU_zip_pages_evicted), the policy's "
          "decisions (buffer_LRU_unzip_decide_*: unzip = free a frame, cpu "
          "= evict from the common LRU because decompressions outnumber "
          "50 x the I/O, slack = the unzip_LRU holds at most 10 %% of the "
          "LRU), the waits of user threads for a free block "
          "(Innodb_buffer_pool_wait_free, per 1000 transactions)." % (
              time.strftime("%Y-%m-%d"), DATA, W, threads, warm, secs, reps),
          ""]
    tab = []
    for pool in pools:
        for vname, _ in variants:
            for lay in layouts:
                rs = [r for r in rows if r["layout"] == lay.name and
                      r["pool"] == pool and r["policy"] == vname]
                if not rs:
                    continue
                n_rs = [r for r in rows if r["layout"] == "N" and
                        r["pool"] == pool]
                tab.append([
                    lay.name + ("" if vname == "default" else " (%s)" % vname),
                    pool, spread([r["tpm"] for r in rs]),
                    ratio_spread([r["tpm"] for r in rs],
                                 [r["tpm"] for r in n_rs]),
                    per_tx(rs, "data_reads"), per_tx(rs, "uncompress_ops"),
                    per_tx(rs, "m:buffer_LRU_unzip_frames_evicted"),
                    per_tx(rs, "m:buffer_LRU_zip_pages_evicted"),
                    per_tx(rs, "m:buffer_LRU_unzip_decide_unzip"),
                    per_tx(rs, "m:buffer_LRU_unzip_decide_lru_cpu"),
                    per_tx(rs, "m:buffer_LRU_unzip_decide_lru_slack"),
                    "%.1f" % statistics.median(
                        1000.0 * r["buffer_pool_wait_free"] /
                        max(r["commits"], 1) for r in rs),
                    med_of(rs, "row_lock_ms_per_tx"),
                    med_of(rs, "index_tree_rw_lock_ms_per_tx"),
                    med_of(rs, "uncompress_ms_per_tx"),
                    med_of(rs, "compress_ms_per_tx")])
    md += [md_table(["layout", "pool", "tpm", "vs N", "page reads/tx",
                     "decompressions/tx", "frames freed/tx",
                     "compressed pages evicted/tx", "decide unzip/tx",
                     "decide LRU (cpu)/tx", "decide LRU (slack)/tx",
                     "free-block waits/1000 tx", "row lock ms/tx",
                     "index latch ms/tx", "decompression ms/tx",
                     "compression ms/tx"], tab), ""]
    md += ["Decompressions per transaction by table (medians):", ""]
    ttab = []
    for pool in pools:
        for vname, _ in variants:
            for lay in layouts:
                if lay.kind != "zip":
                    continue
                rs = [r for r in rows if r["layout"] == lay.name and
                      r["pool"] == pool and r["policy"] == vname]
                if not rs:
                    continue
                commits = {r["rep"]: max(r["commits"], 1) for r in rs}
                row = [lay.name + ("" if vname == "default" else
                                   " (%s)" % vname), pool]
                for t in TABLES:
                    v = [x["uncompress_ops"] / commits[x["rep"]]
                         for x in tables if x["layout"] == lay.name and
                         x["pool"] == pool and x["policy"] == vname and
                         x["table"] == t and x["rep"] in commits]
                    row.append("%.1f" % statistics.median(v) if v else "-")
                ttab.append(row)
    md += [md_table(["layout", "pool"] + TABLES, ttab), ""]
    return md


def profile_text(dev):
    """A storage profile's limits in words."""
    p = DEVICE_PROFILES.get(dev)
    if not p:
        return "this machine's disk, unthrottled"
    return "%d read / %d write IOPS, %.0f / %.0f MB/s" % (
        p["riops"], p["wiops"], p["rbps"] / 1e6, p["wbps"] / 1e6)



# ---------------------------------------------------------------------------
# Experiment: tuning (Callaghan: level, padding, page logging; cached)

CALLAGHAN = [("no compression", 54331), ("level 6", 2511), ("level 1", 3262),
             ("padding + level 6", 11916), ("padding + level 1", 16923),
             ("partitioning + padding + level 1", 26150),
             ("+ no compressed-page logging", 27417)]
# Tables Callaghan compressed: every one but warehouse and district.
TUNED_TABLES = ["customer", "history", "new_orders", "orders", "order_line",
                "item", "stock"]


def opts_for(tables, kbs=8, level=None, threshold=None):
    attr = {}
    if level is not None:
        attr["compression_level"] = level
    if threshold is not None:
        attr["compression_failure_threshold_pct"] = threshold
    o = COMPRESSED % kbs
    if attr:
        o += " ENGINE_ATTRIBUTE='%s'" % json.dumps(attr)
    return ";".join("%s:%s" % (t, o) for t in tables)


def codec_variants(configs):
    """--codecs zlib,isal: every compressed configuration once per codec,
    side by side in each repetition ("l1@isal"), each loaded and run with
    its codec; "none" once (codec_layouts())."""
    return [(name, lay, extra, desc) if l2 is lay else
            (name + "@" + l2.codec, l2, codec_opts(extra, l2.codec),
             desc + " [%s]" % l2.codec)
            for name, lay, extra, desc in configs
            for l2 in codec_layouts([lay])]


def exp_tuning(args, out):
    quick = args.quick
    W = args.warehouses or (1 if quick else 2)
    threads = 8
    warm, secs = (3, 8) if quick else (10, 25)
    secs = args.secs or secs
    reps = args.reps or (1 if quick else 2)
    load_opts = {"innodb_buffer_pool_size": "1G"}
    base_run = {"innodb_buffer_pool_size": "2G",
                "innodb_compression_level": 6}
    # --device: every configuration on each storage profile.
    devices, skipped = usable_devices(device_list(args.device), BENCH)
    if not devices:
        die("--device: no profile can run here")
    # (name, layout, extra server options, description)
    configs = [
        ("none", Layout("none"), {}, "no compression"),
        ("l6_nopad", Layout("l6_nopad", opts_for(TUNED_TABLES, threshold=0)),
         {}, "level 6, adaptive padding off (threshold 0): Callaghan's 'level 6'"),
        ("l6", Layout("l6", opts_for(TUNED_TABLES)), {},
         "level 6, InnoDB's adaptive padding (threshold 5 %, the default)"),
        ("l1", Layout("l1", opts_for(TUNED_TABLES, level=1)), {},
         "level 1 per table (ENGINE_ATTRIBUTE), adaptive padding"),
    ]
    # What a DBA would pick instead (issue 29): page compression of every
    # table (at the server's innodb_compression_level, 6, for zlib), and
    # the advisor's CHOOSE applied to the uncompressed copy after the
    # standard mix ran on it.
    configs += [(l.name, l, {}, l.note) for l in page_layouts()]
    ch_lay = choose_layout()
    configs.append(("CH", ch_lay, {}, "compression_advisor CHOOSE at 8 KB, "
                    "delta 0.10, after the standard mix"))
    if quick:
        configs = [c for c in configs if c[0] not in ("l6_nopad", "l6", "PZ")]
    # --only: a subset; "none" (the ratios) and "l1" (the padding hint's
    # calibration) always run.
    only = set(args.only.split(",")) | {"none", "l1"} if args.only else None
    if only:
        configs = [c for c in configs if c[0] in only]
    configs = codec_variants(configs)
    layouts_loaded = {}
    runs = []
    per_table_rows = []
    hints = {}
    # "none" first: the pool of --pool-pct and CH are made from it.
    layouts_loaded["none"] = load("tuning", configs[0][1], W, load_opts)
    bp_run = base_run["innodb_buffer_pool_size"]
    if args.pool_pct:
        n_bytes = sum(layouts_loaded["none"][1].values())
        bp_run = pool_option(pool_for_pct(args.pool_pct, n_bytes))
        base_run = dict(base_run, innodb_buffer_pool_size=bp_run)
        log("buffer pool for the runs: %s (%.1f %% of none's %.1f MB, "
            "--pool-pct)" % (bp_run, args.pool_pct, n_bytes / 2**20))

    def run_config(rep, c, dev):
        name, lay, extra, _ = c
        if lay.name not in layouts_loaded:
            if lay.kind == "choose":
                layouts_loaded[lay.name] = make_choose(
                    "tuning", lay, configs[0][1], W, load_opts, "standard",
                    threads, warm)
            else:
                layouts_loaded[lay.name] = load("tuning", lay, W, load_opts)
        log("tuning rep %d %s %s" % (rep + 1, dev, name))
        res, per_table = measured_run("tuning", lay, W, dict(base_run, **extra),
                                      "standard", threads, warm, secs,
                                      check=(rep == reps - 1 and
                                             dev == devices[0]),
                                      device=dev)
        res.update({"config": name, "device": dev, "rep": rep + 1})
        runs.append(res)
        for t, v in per_table.items():
            per_table_rows.append(dict(v, config=name, device=dev,
                                       rep=rep + 1, table=t))
        log("  tpmC %.0f, redo %.0f bytes/tx, failures %d" % (
            res["tpmC"], res["redo_bytes_per_tx"],
            sum(v["failures"] for v in per_table.values())))
        return per_table

    # Rep 1 of level 1 also calibrates the padding hint (on the first
    # profile).
    for c in configs:
        for dev in devices:
            pt = run_config(0, c, dev)
            if c[0].split("@")[0] == "l1" and dev == devices[0]:
                for t, v in pt.items():
                    if v["hint"] == "ADD_PADDING_COLUMN" and v["pad_bytes"] > 0:
                        hints[t] = v["pad_bytes"]
    log("padding hint after the level 1 run: %s" % (hints or "none"))
    padding = ";".join("%s:%d" % (t, b) for t, b in sorted(hints.items()))
    # One layout, two server configurations.
    l1_pad = Layout("l1_pad", opts_for(TUNED_TABLES, level=1), padding)
    more = [
        ("l1_pad", l1_pad,
         {}, "level 1 + the static padding columns of PADDING_HINT"),
        ("l1_pad_nolog", l1_pad,
         {"innodb_log_compressed_pages": "OFF"},
         "level 1 + padding columns + innodb_log_compressed_pages=OFF"),
    ]
    # The tuned set: SELECTIVE's choice at 8 KB (from the estimator on the
    # uncompressed copy) with level 1, the padding hint and no page logging.
    chosen, _, _ = selective_tables(configs[0][1], 8, load_opts)
    sel_pad = ";".join("%s:%d" % (t, b) for t, b in sorted(hints.items())
                       if t in chosen)
    more.append(("tuned_selective",
                 Layout("tuned_selective", opts_for(chosen, level=1), sel_pad),
                 {"innodb_log_compressed_pages": "OFF"},
                 "SELECTIVE's tables (%s) at level 1 + padding + no page logging"
                 % (", ".join(chosen) or "none")))
    # The modification-log reserve (patch 0019) on top of level 1 + padding:
    # adaptive up to its default maximum (25 % of the page) and capped at
    # 10 % and 5 % (an almost static reserve: the threshold of 1 keeps it
    # at its cap while the log is the cost).
    for cap in (25, 10, 5):
        more.append(("l1_pad_log%d" % cap, l1_pad,
                     {"innodb_compression_log_reorg_threshold_pct": 1,
                      "innodb_compression_log_reserve_pct_max": cap},
                     "level 1 + padding columns + log reserve (threshold "
                     "1 %%, at most %d %% of the page)" % cap))
    # Room for the modification log on pages the load filled (issue 11):
    # the compressed tables rebuilt by ALTER TABLE ... FORCE, the tight bulk
    # load leaving its default 3 % free (issue 12: savings and throughput
    # right after the ALTER) or 12, 15 and 20 %; the last also with the
    # adaptive reserve, which then keeps later inserts from filling pages.
    for free in (3, 12, 15, 20):
        lay = Layout("l1_pad_alter%d" % free, opts_for(TUNED_TABLES, level=1),
                     padding, rebuild_free_pct=free)
        more.append(("l1_pad_alter%d" % free, lay, {},
                     "level 1 + padding columns, rebuilt by ALTER TABLE "
                     "with %d %% of each compressed page free" % free))
        if free == 20:
            more.append(("l1_pad_alter20_log", lay,
                         {"innodb_compression_log_reorg_threshold_pct": 1,
                          "innodb_compression_log_reserve_pct_max": 25},
                         "the same + log reserve (threshold 1 %, at most "
                         "25 % of the page)"))
    if only:
        more = [c for c in more if c[0] in only]
    # (codec variants of these are made below)
    elif quick:
        # The smoke check runs one configuration of each kind.
        more = [c for c in more if c[0] in ("l1_pad", "tuned_selective",
                                            "l1_pad_log25", "l1_pad_alter12")]
    more = codec_variants(more)
    for c in more:
        for dev in devices:
            run_config(0, c, dev)
    configs += more
    # The loads of l1_pad and l1_pad_nolog are the same layout.
    for rep in range(1, reps):
        for dev in devices:
            for c in configs:
                run_config(rep, c, dev)
    write_csv(os.path.join(out, "runs.csv"), runs)
    write_csv(os.path.join(out, "tables.csv"), per_table_rows)

    none_sz = sum(layouts_loaded["none"][1].values())
    none_alloc = sum(configs[0][1].alloc.values())
    pool = ("%s (%.1f %% of the uncompressed copy's DATA_LENGTH + "
            "INDEX_LENGTH, --pool-pct)" % (bp_run, args.pool_pct)
            if args.pool_pct else "2G (the data is cached)")
    md = ["# Experiment tuning: compressed tables under a write-heavy, cached "
          "TPC-C-like load (Callaghan)", "",
          "Measured %s on this build. Data %s (tpcc.lua --data), %d "
          "warehouses, %d threads, standard mix, "
          "buffer pool %s, O_DIRECT, binary log off, "
          "%d s warm-up + %d s measured, %d repetition(s), configurations "
          "interleaved after the first. KEY_BLOCK_SIZE=8 on every table but "
          "warehouse and district, as Callaghan did, unless said otherwise; "
          "PZ and PL compress every table's pages (COMPRESSION=)." %
          (time.strftime("%Y-%m-%d"), DATA, W, threads, pool, warm, secs,
           reps), "",
          "Storage profiles (--device): %s; throttled during the warm-up and "
          "the measurement only (loads unthrottled).%s" % (
              "; ".join("%s (%s)" % (d, profile_text(d)) for d in devices),
              (" Not run: %s (no writable blkio/io cgroup here)."
               % ", ".join(skipped)) if skipped else ""), "",
          "Padding hint (PADDING_COLUMN_BYTES of COMPRESSION_STATS after the "
          "first level-1 run): " + (", ".join("%s %d bytes" % kv for kv in
                                              sorted(hints.items())) or "none"),
          "", "SS %: DATA_LENGTH + INDEX_LENGTH against none; SS % allocated: "
          "the blocks allocated to the .ibd files (what du counts), the "
          "measure by which page compression and ROW_FORMAT=COMPRESSED "
          "compare.", ""]
    for dev in devices:
        md += tuning_device_report(dev, devices, configs, runs, per_table_rows,
                                   layouts_loaded, none_sz, none_alloc, W, out)
    if ch_lay.choices:
        md += ["## CHOOSE's choices (CH)", "",
               "compression_advisor.estimate_all() on the uncompressed copy "
               "after %d s of the standard mix, then %s." % (
                   max(warm, CHOOSE_MIN_WARM), CHOOSE_CALL % DB), "",
               md_table(["table", "method", "verdict", "row operations",
                         "writes %", "outcome", "after"],
                        [[c[0], c[1], c[2], c[3],
                          "%.0f" % (100.0 * c[4] / c[3]) if c[3] else "-",
                          c[5], c[6]] for c in ch_lay.choices]), ""]
    md += ["## Callaghan's figures (tpcc-mysql, 20 warehouses, 64 clients)", "",
           md_table(["configuration", "TpmC", "vs no compression"],
                    [[n, v, "%.2fx" % (v / CALLAGHAN[0][1])] for n, v in CALLAGHAN]),
           ""]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")


def tuning_device_report(dev, devices, configs, runs, per_table_rows,
                         layouts_loaded, none_sz, none_alloc, W, out):
    """The tables of exp_tuning's report for one storage profile."""
    runs = [r for r in runs if r.get("device", "native") == dev]
    per_table_rows = [p for p in per_table_rows
                      if p.get("device", "native") == dev]
    md = ["## Profile %s" % dev, ""] if len(devices) > 1 or dev != "native" \
        else []
    rows = []
    n_tpm = [r["tpmC"] for r in runs if r["config"] == "none"]
    for name, lay, extra, desc in configs:
        rs = [r for r in runs if r["config"] == name]
        if not rs:
            continue
        tp = [r["tpmC"] for r in rs]
        sz = sum(layouts_loaded[lay.name][1].values())
        al = sum(lay.alloc.values())
        fails = [sum(p["failures"] for p in per_table_rows
                     if p["config"] == name and p["rep"] == r["rep"]) for r in rs]
        ops = [sum(p["compress_ops"] for p in per_table_rows
                   if p["config"] == name and p["rep"] == r["rep"]) for r in rs]
        commits = [max(sum(r[t + "_commits"] for t in TX_TYPES), 1) for r in rs]
        logfull = [sum(p["log_full"] for p in per_table_rows
                       if p["config"] == name and p["rep"] == r["rep"])
                   for r in rs]
        upd = [sum(p["updates"] for p in per_table_rows
                   if p["config"] == name and p["rep"] == r["rep"]) for r in rs]
        rows.append([name, desc, spread(tp), ratio_spread(tp, n_tpm),
                     "%.1f" % (100 * (1 - sz / none_sz)) if sz else "-",
                     "%.1f" % (100 * (1 - al / none_alloc))
                     if al and none_alloc else "-",
                     med_of(rs, "alloc_MB_after", "%.1f"),
                     "%.0f" % statistics.median(fails),
                     "%.1f" % (100 * sum(fails) / max(sum(ops), 1)),
                     "%.0f" % statistics.median(r["redo_bytes_per_tx"] for r in rs),
                     "%.0f" % statistics.median(r["zip_log_image_bytes"] / max(
                         sum(r[t + "_commits"] for t in TX_TYPES), 1) for r in rs),
                     "%.2f" % statistics.median(l / c for l, c in
                                                zip(logfull, commits)),
                     "%.1f" % (sum(upd) / sum(logfull)) if sum(logfull) else "-",
                     rs[-1].get("consistency", "")])
    md += [md_table(["config", "what", "tpmC", "vs none", "total SS %",
                     "SS % allocated", "allocated MB after",
                     "compression failures", "failure %", "redo bytes/tx",
                     "page-image redo bytes/tx", "log-full recompressions/tx",
                     "updates per log-full recompression", "consistency"],
                    rows), ""]
    names = [c[0] for c in configs if any(r["config"] == c[0] for r in runs)]
    png = "tpmc.png" if dev == "native" else "tpmc_%s.png" % dev
    bar_plot(os.path.join(out, png),
             "TPC-C-like standard mix, %d warehouses, %s" % (W, dev), names,
             {"tpmC": [med3([r["tpmC"] for r in runs if r["config"] == n])
                       for n in names]}, "New-Order transactions per minute")
    md += ["![tpmC](%s)" % png, "",
           "Where a transaction's time goes (the paper's Table 5; medians, "
           "ms per transaction; file I/O counts every thread, the parts "
           "overlap; see the paper experiment's report):", "",
           time_split_table({n: [r for r in runs if r["config"] == n]
                             for n in names}, names), "",
           "Compression failures per table (last repetition):", ""]
    last = {}
    for p in per_table_rows:
        last[(p["config"], p["table"])] = p
    trows = []
    for name, *_ in configs:
        for t in TABLES:
            p = last.get((name, t))
            if p and p["compress_ops"] > 0:
                trows.append([name, t, p["compress_ops"], p["failures"],
                              "%.1f" % (100 * p["failures"] / p["compress_ops"]),
                              p["splits"], p["pad"], p["reorgs"],
                              p["log_full"], p["updates"], p["log_reserve"],
                              p["hint"]])
    md += [md_table(["config", "table", "compress ops", "failures", "failure %",
                     "splits", "pad bytes", "recompressions", "log-full",
                     "updates", "log reserve bytes", "PADDING_HINT"], trows),
           ""]
    return md


# ---------------------------------------------------------------------------
# Experiment: overhead of the always-on counters

def zip_stat_off_binary():
    """mysqld with the per-table counters compiled out, the baseline of the
    overhead experiment. bench/overhead/zip-stat-off.patch is applied to a
    copy of dict0zip_stat.cc (the source the build compiled), the copy is
    compiled with the compile command of the real object, and a second
    mysqld is linked with the link command of the real one, the object
    replaced in a copy of libinnobase.a. The build tree is only read (the
    default mysqld must be built); made once per default binary and patch."""
    dst = os.path.join(BENCH, "bin", "mysqld-zip-stat-off")
    src = os.path.join(BIN, "mysqld")
    stamp = dst + ".for"
    patch = os.path.join(ROOT, "bench", "overhead", "zip-stat-off.patch")
    obj = "storage/innobase/CMakeFiles/innobase.dir/dict/dict0zip_stat.cc.o"
    lib = "storage/innobase/libinnobase.a"
    exe = os.path.relpath(src, BUILD)

    def ident():
        st = os.stat(src)
        with open(patch, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:16]
        return "%d %d %s" % (st.st_size, st.st_mtime_ns, digest)
    if not os.path.exists(src):
        raise RuntimeError("no %s: build the default mysqld first" % src)
    # Made for the current default binary and patch: still good.
    if os.path.exists(dst) and os.path.exists(stamp) and \
            open(stamp).read() == ident():
        return dst

    def own_command(target):
        """The command that builds a target itself (the last of those ninja
        lists for it); reads build.ninja only."""
        out = subprocess.run(["ninja", "-C", BUILD, "-t", "commands", target],
                             check=True, stdout=subprocess.PIPE,
                             text=True).stdout
        lines = [l for l in out.splitlines() if l.strip()]
        if not lines:
            raise RuntimeError("build.ninja has no command for " + target)
        return lines[-1]

    log("building the counters-off mysqld (bench/overhead/zip-stat-off.patch)")
    work = os.path.join(BENCH, "zip-stat-off")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "obj"))
    os.makedirs(os.path.dirname(dst), exist_ok=True)

    # The source of the real object, from its compile command.
    compile_cmd = own_command(obj)
    m = re.search(r" -c (\S+)$", compile_cmd)
    if m is None or " -o %s " % obj not in compile_cmd:
        raise RuntimeError("unexpected compile command for " + obj)
    rel = "storage/innobase/dict/dict0zip_stat.cc"
    copy = os.path.join(work, "src", rel)
    os.makedirs(os.path.dirname(copy))
    shutil.copy2(os.path.join(BUILD, m.group(1)), copy)
    subprocess.run(["patch", "-p1", "--fuzz=0", "--no-backup-if-mismatch",
                    "-s", "-d", os.path.join(work, "src"), "-i", patch],
                   check=True)
    # The same command, on the copy (its file name, which picks the memory
    # key, unchanged), writing into the work directory only.
    off_obj = os.path.join(work, "obj", "dict0zip_stat.cc.o")
    cmd = compile_cmd[:m.start()] + " -c " + copy
    cmd = cmd.replace(" -o %s " % obj, " -o %s " % off_obj)
    cmd = re.sub(r" -MF \S+", " -MF %s.d" % off_obj, cmd)
    cmd = re.sub(r" -MT \S+", " -MT %s" % off_obj, cmd)
    subprocess.run(cmd, shell=True, cwd=BUILD, check=True,
                   stdout=subprocess.DEVNULL)
    # libinnobase.a with the object replaced (ar r replaces the member of
    # the same name), linked as the real mysqld is.
    off_lib = os.path.join(work, "libinnobase.a")
    shutil.copy2(os.path.join(BUILD, lib), off_lib)
    members = subprocess.run(["ar", "t", off_lib], check=True,
                             stdout=subprocess.PIPE, text=True).stdout.split()
    if members.count("dict0zip_stat.cc.o") != 1:
        raise RuntimeError("libinnobase.a does not hold dict0zip_stat.cc.o once")
    subprocess.run(["ar", "r", off_lib, off_obj], check=True)
    link_cmd = own_command(exe)
    if link_cmd.count(" -o %s " % exe) != 1 or " %s " % lib not in link_cmd:
        raise RuntimeError("unexpected link command for " + exe)
    link_cmd = link_cmd.replace(" -o %s " % exe, " -o %s.tmp " % dst)
    link_cmd = link_cmd.replace(" %s " % lib, " %s " % off_lib)
    subprocess.run(link_cmd, shell=True, cwd=BUILD, check=True,
                   stdout=subprocess.DEVNULL)
    os.rename(dst + ".tmp", dst)
    with open(stamp, "w") as f:
        f.write(ident())
    shutil.rmtree(work, ignore_errors=True)
    return dst


def callgrind_run(exp, lay, W, opts, mysqld, events, outfile):
    """Instructions executed by mysqld (all its threads) while sysbench runs
    a fixed number of events with a fixed seed, under callgrind."""
    saved = lay.saved
    live = work_path("live-datadir")
    copy_datadir(saved, live)
    wrapper = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
               "--callgrind-out-file=" + outfile]
    srv = Server(live, opts, mysqld=mysqld, wrapper=wrapper)
    srv.start(timeout=1200)
    try:
        pid = srv.proc.pid
        subprocess.run(["callgrind_control", "-i", "on", str(pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        srv.sysbench(["--threads=1", "--events=%d" % events, "--time=0",
                      "--rand-seed=1", "--mix=standard", "run"], W)
        subprocess.run(["callgrind_control", "-i", "off", str(pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        srv.stop()
    total = 0
    for f in os.listdir(os.path.dirname(outfile)):
        if f.startswith(os.path.basename(outfile)):
            for line in open(os.path.join(os.path.dirname(outfile), f)):
                # "summary:" counts from the start; with --instr-atstart=no
                # only "totals:" holds what was collected.
                if line.startswith("totals:"):
                    total += int(line.split()[1])
                    break
    return total


def exp_overhead(args, out):
    quick = args.quick
    W = args.warehouses or 1
    threads = 8
    warm, secs = (3, 8) if quick else (10, 20)
    reps = args.reps or (1 if quick else 3)
    events = 300
    off = zip_stat_off_binary()
    load_opts = {"innodb_buffer_pool_size": "1G"}
    run_opts = {"innodb_buffer_pool_size": "1G"}
    lay = Layout("l6", opts_for(TUNED_TABLES))
    load("overhead", lay, W, load_opts)
    variants = [
        ("ours", None, {}, "always-on per-table counters (this build)"),
        ("off", off, {}, "the same build, counters compiled out (patch 0013)"),
        ("upstream_cmp", None, {"innodb_cmp_per_index_enabled": "ON"},
         "this build + upstream's innodb_cmp_per_index_enabled=ON (global mutex)"),
    ]
    runs = []
    for rep in range(reps):
        order = variants if rep % 2 == 0 else list(reversed(variants))
        for name, binary, extra, _ in order:
            log("overhead rep %d %s" % (rep + 1, name))
            res, pt = measured_run("overhead", lay, W, dict(run_opts, **extra),
                                   "standard", threads, warm, secs, mysqld=binary)
            res.update({"variant": name, "rep": rep + 1,
                        "compress_ops": sum(v["compress_ops"] for v in pt.values())})
            runs.append(res)
            log("  tpmC %.0f, our COMPRESS_OPS %d" % (res["tpmC"], res["compress_ops"]))
    write_csv(os.path.join(out, "runs.csv"), runs)

    cg = []
    # callgrind takes about a minute per variant even for a few events: the
    # quick mode leaves it out unless --callgrind is given.
    if (args.callgrind or not quick) and not args.no_callgrind:
        cgdir = work_path("callgrind")
        shutil.rmtree(cgdir, ignore_errors=True)
        os.makedirs(cgdir)
        for name, binary, extra, _ in variants:
            log("callgrind %s (%d New-Order/Payment/... events)" % (name, events))
            t0 = time.time()
            ir = callgrind_run("overhead", lay, W, dict(run_opts, **extra),
                               binary, events, os.path.join(cgdir, "cg." + name))
            row = {"variant": name, "events": events, "instructions": ir,
                   "instructions_per_tx": ir / events,
                   "wall_s": time.time() - t0}
            # Self cost of the counter code (our files and InnoDB's
            # lock-free hash, which only the decompression path still uses).
            costs = callgrind_self_costs(os.path.join(cgdir, "cg." + name))
            for f in HOTPATH_FILES:
                row[f] = costs.get(f, 0) / events
            row["ours_per_tx"] = sum(costs.values()) / events
            cg.append(row)
            log("  %.0f instructions per transaction, %.0f in %s" % (
                ir / events, row["ours_per_tx"], "+".join(HOTPATH_FILES)))
        write_csv(os.path.join(out, "callgrind.csv"), cg)

    micro = os.path.join(out, "microbench.csv")
    r = subprocess.run(["bash", os.path.join(ROOT, "bench", "microbench", "run.sh"),
                        micro] + (["--updates=500000", "--reps=1"] if quick else []),
                       capture_output=True, text=True)
    if r.returncode != 0:
        die("micro-benchmark failed: " + r.stderr[-2000:])

    md = ["# Experiment overhead: the always-on per-table counters", "",
          "Measured %s on this build. Cached TPC-C-like standard mix, %d "
          "warehouse(s), %d threads, KEY_BLOCK_SIZE=8 on every table but "
          "warehouse and district (level 6), %d s warm-up + %d s measured, "
          "%d repetitions, order of the variants alternating." % (
              time.strftime("%Y-%m-%d"), W, threads, warm, secs, reps), ""]
    ours = [r["tpmC"] for r in runs if r["variant"] == "ours"]
    rows = []
    for name, _, _, desc in variants:
        tp = [r["tpmC"] for r in runs if r["variant"] == name]
        ops = [r["compress_ops"] for r in runs if r["variant"] == name]
        rows.append([name, desc, spread(tp), ratio_spread(tp, ours),
                     "%d" % statistics.median(ops)])
    md += [md_table(["variant", "what", "tpmC", "vs ours", "COMPRESS_OPS counted"],
                    rows), ""]
    bar_plot(os.path.join(out, "tpmc.png"), "Counter overhead, cached, compressed",
             [v[0] for v in variants],
             {"tpmC": [med3([r["tpmC"] for r in runs if r["variant"] == v[0]])
                       for v in variants]}, "New-Order transactions per minute")
    md += ["![tpmC](tpmc.png)", ""]
    if cg:
        base = next(c for c in cg if c["variant"] == "off")["instructions_per_tx"]
        md += ["## Instructions per transaction (callgrind, all mysqld threads, "
               "%d events, 1 thread, seed 1)" % events, "",
               md_table(["variant", "instructions/tx", "vs off"]
                        + ["%s self/tx" % f for f in HOTPATH_FILES]
                        + ["counter code/tx", "share"],
                        [[c["variant"], "%.0f" % c["instructions_per_tx"],
                          "%+.3f %%" % (100 * (c["instructions_per_tx"] / base - 1))]
                         + ["%.0f" % c[f] for f in HOTPATH_FILES]
                         + ["%.0f" % c["ours_per_tx"],
                            "%.3f %%" % (100 * c["ours_per_tx"] /
                                         c["instructions_per_tx"])]
                         for c in cg]), ""]
    med = {}
    for row in csv.DictReader(open(micro)):
        med.setdefault((row["variant"], int(row["threads"])), []).append(
            float(row["total_mupdates_per_s"]))
    vnames = sorted({v for v, _ in med})
    ths = sorted({t for _, t in med})
    md += ["## Counter update micro-benchmark (million updates/s, all threads, "
           "median)", "",
           md_table(["threads"] + vnames,
                    [[t] + ["%.1f" % statistics.median(med.get((v, t), [0]))
                            for v in vnames] for t in ths]), ""]
    bar_plot(os.path.join(out, "microbench.png"),
             "Counter updates per second (2 cores)", [str(t) for t in ths],
             {v: [med3(med.get((v, t), [0])) for t in ths] for v in vnames
              if v != "none"}, "million updates/s")
    md += ["![micro-benchmark](microbench.png)", ""]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")


# ---------------------------------------------------------------------------
# Experiment: instructions of the compression hot path, before and after a
# change (issue 13 moved the options and counters onto dict_table_t and
# dict_index_t: one load instead of hash look-ups)

# Our code on the hot path, and the lock-free hash it used to look up.
HOTPATH_FILES = ("dict0zip_stat.cc", "dict0zip_opt.cc", "ut0lock_free_hash.h")


def callgrind_self_costs(outfile_prefix):
    """Self cost (instructions executed in the function itself) per source
    file, summed over the callgrind output files of one run."""
    costs = {}
    d = os.path.dirname(outfile_prefix)
    for f in sorted(os.listdir(d)):
        if not f.startswith(os.path.basename(outfile_prefix)):
            continue
        out = subprocess.run(["callgrind_annotate", "--inclusive=no",
                              "--threshold=100", os.path.join(d, f)],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(\S+?):(\S.*)$", line)
            if not m:
                continue
            src = os.path.basename(m.group(2))
            if src in HOTPATH_FILES:
                costs[src] = costs.get(src, 0) + int(m.group(1).replace(",", ""))
    return costs


def exp_hotpath(args, out):
    """callgrind of the same transactions on two mysqld binaries: the one
    given with --mysqld-before and this build, on tables that carry
    ENGINE_ATTRIBUTE options (the old code looked options up in a hash only
    once some table had them)."""
    if not args.mysqld_before:
        log("hotpath: no --mysqld-before PATH given, measuring this build only")
    W = args.warehouses or 1
    events = 300
    reps = args.reps or 2
    opts = {"innodb_buffer_pool_size": "1G"}
    lay = Layout("l6own", opts_for(TUNED_TABLES, level=6))
    load("hotpath", lay, W, opts)
    cgdir = work_path("callgrind-hotpath")
    rows = []
    for rep in range(reps):
        variants = ([("before", args.mysqld_before)] if args.mysqld_before
                    else []) + [("after", None)]
        for name, binary in variants:
            shutil.rmtree(cgdir, ignore_errors=True)
            os.makedirs(cgdir)
            log("hotpath rep %d: callgrind %s (%d events)" % (rep + 1, name, events))
            prefix = os.path.join(cgdir, "cg." + name)
            ir = callgrind_run("hotpath", lay, W, opts, binary, events, prefix)
            costs = callgrind_self_costs(prefix)
            row = {"variant": name, "rep": rep + 1, "events": events,
                   "instructions_per_tx": ir / events}
            for f in HOTPATH_FILES:
                row[f] = costs.get(f, 0) / events
            row["ours_per_tx"] = sum(costs.values()) / events
            rows.append(row)
            log("  %.0f instructions/tx, %.0f in %s" % (
                row["instructions_per_tx"], row["ours_per_tx"],
                "+".join(HOTPATH_FILES)))
    write_csv(os.path.join(out, "callgrind.csv"), rows)
    md = ["# Hot path before and after (callgrind, %d events, 1 thread, seed 1)"
          % events, "",
          "Tables with ENGINE_ATTRIBUTE compression_level 6, KEY_BLOCK_SIZE=8; "
          "before: %s" % (args.mysqld_before or "not measured"), "",
          md_table(["variant", "rep", "instructions/tx (whole server)"]
                   + ["%s self/tx" % f for f in HOTPATH_FILES]
                   + ["ours/tx"],
                   [[r["variant"], r["rep"], "%.0f" % r["instructions_per_tx"]]
                    + ["%.0f" % r[f] for f in HOTPATH_FILES]
                    + ["%.0f" % r["ours_per_tx"]] for r in rows]), ""]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")


# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# wiki: the two Wikipedia measurements of the background (bulk-load
# footprint; read curve in three zones) on a natural-text table


WIKI_DIR = os.path.join(ROOT, "bench", "wiki")
WIKI_LAYOUTS = [("N", ""), ("16K", COMPRESSED % 16), ("8K", COMPRESSED % 8),
                ("4K", COMPRESSED % 4)]
WIKI_TABLE = ("CREATE TABLE wiki (id INT UNSIGNED NOT NULL PRIMARY KEY, "
              "title VARCHAR(255) NOT NULL, body MEDIUMTEXT NOT NULL) "
              "ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 %s")


def wiki_corpus(size_mb):
    """The corpus file of make_corpus.py, made once per size and kept."""
    d = os.path.join(BENCH, "wiki")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "corpus-%dmb.tsv" % size_mb)
    if not (os.path.exists(path) and os.path.exists(path + ".manifest")):
        log("making the %d MB text corpus" % size_mb)
        subprocess.run([sys.executable, os.path.join(WIKI_DIR, "make_corpus.py"),
                        "--out", path, "--size-mb", str(size_mb)], check=True)
    man = dict(l.split(" ", 1) for l in open(path + ".manifest").read().splitlines())
    return path, man


def wiki_load(layout, opts, tsv, man, load_opts, keep, codec=None):
    """Loads the corpus into table wiki.wiki of a fresh data directory (with
    codec, the layout's under --codecs, else the run's); returns (seconds,
    bytes of DATA_LENGTH + INDEX_LENGTH, .ibd bytes, compression counters,
    the data directory)."""
    k = codec or CODEC
    name = "wiki-%s-%s" % (layout, hashlib.sha1(
        (man["sha256"] + opts + ("|codec %s" % k if k and opts
                                 else "")).encode()).hexdigest()[:10])
    saved = os.path.join(BENCH, "data", name)
    copy_datadir(base_datadir(), saved)
    o = dict(codec_opts(load_opts, codec),
             **{"secure-file-priv": os.path.dirname(tsv)})
    srv = Server(saved, o)
    srv.start()
    try:
        srv.sql("CREATE DATABASE wiki")
        srv.sql(WIKI_TABLE % opts, db="wiki")
        t0 = time.time()
        srv.sql("LOAD DATA INFILE '%s' INTO TABLE wiki CHARACTER SET utf8mb4 "
                "(id, title, body)" % tsv, db="wiki")
        # Loading ends when the pages are on disk, as it would for a DBA
        # who loads and then relies on the data being there.
        srv.sql("SET GLOBAL innodb_max_dirty_pages_pct = 0")
        while int(srv.status().get("Innodb_buffer_pool_pages_dirty", "0")) > 0:
            time.sleep(0.5)
        secs = time.time() - t0
        srv.sql("SET GLOBAL innodb_max_dirty_pages_pct = 90")
        srv.sql("ANALYZE TABLE wiki", db="wiki")
        size = int(srv.sql("SELECT DATA_LENGTH + INDEX_LENGTH FROM "
                           "information_schema.TABLES WHERE TABLE_SCHEMA = "
                           "'wiki' AND TABLE_NAME = 'wiki'")[0][0])
        cs = srv.sql("SELECT COMPRESS_OPS, COMPRESS_OPS_OK, ZIP_SPLITS FROM "
                     "information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA "
                     "= 'wiki' AND TABLE_NAME = 'wiki'")
    finally:
        srv.stop()
    ibd = os.path.getsize(os.path.join(saved, "wiki", "wiki.ibd"))
    if not keep:
        shutil.rmtree(saved, ignore_errors=True)
    return secs, size, ibd, (cs[0] if cs else ["0", "0", "0"]), saved


def wiki_read_curve(layout, datadir, points, bp, threads, warm, secs,
                    read_iops=0, codec=None):
    """Random point reads over a growing id range on one server: for each
    range, warm up, then measure. Returns rows of the curve. read_iops > 0
    runs the server on a disk throttled to that many reads per second;
    codec: the layout's (--codecs)."""
    live = work_path("live-datadir")
    copy_datadir(datadir, live)
    srv = Server(live, codec_opts({"innodb_buffer_pool_size": bp,
                                   "innodb_buffer_pool_chunk_size": bp}, codec))
    srv.start()
    throttle = None
    if read_iops:
        throttle = IoThrottle(live, {"riops": read_iops})
        throttle.attach(srv.proc.pid)
    rows = []
    try:
        n = int(srv.sql("SELECT MAX(id) FROM wiki.wiki")[0][0])
        for frac in points:
            rng = max(1, int(n * frac))
            base = ["sysbench", os.path.join(WIKI_DIR, "pointread.lua"),
                    "--db-driver=mysql", "--mysql-user=root",
                    "--mysql-socket=" + srv.sock, "--mysql-db=wiki",
                    "--threads=%d" % threads, "--range=%d" % rng]
            subprocess.run(base + ["--time=%d" % warm, "run"], check=True,
                           capture_output=True)
            a = srv.status()
            r = subprocess.run(base + ["--time=%d" % secs, "run"], check=True,
                               capture_output=True, text=True)
            b = srv.status()
            # sysbench 1.0.20 reports a Lua script's events as
            # "transactions: N (X per sec.)"; newer ones also as events/s.
            m = (re.search(r"events/s \(eps\):\s+([\d.]+)", r.stdout) or
                 re.search(r"transactions:\s+\d+\s+\(([\d.]+) per sec",
                           r.stdout))
            if not m:
                die("no events/s in pointread output:\n" + r.stdout[-2000:])
            d = lambda k: int(b.get(k, 0)) - int(a.get(k, 0))
            reads = float(m.group(1))
            rows.append({"layout": layout, **codec_field(codec),
                         "read_iops": read_iops,
                         "range_frac": frac, "range_ids": rng,
                         "reads_per_s": reads,
                         "page_reads_per_read": round(
                             d("Innodb_buffer_pool_reads") / max(1, reads * secs), 3)})
            log("wiki read %s%s range %.2f (%d ids): %.0f reads/s" % (
                layout, " (%d read IOPS)" % read_iops if read_iops else "",
                frac, rng, reads))
    finally:
        srv.stop()
        if throttle:
            throttle.detach()
    return rows


def exp_wiki(args, out):
    quick = args.quick
    size_mb = 40 if quick else 400
    reps = args.reps or (1 if quick else 3)
    bp_load = "128M" if quick else "256M"
    bp_read_mb = 16 if quick else 96
    threads = 4
    warm, secs = (3, 4) if quick else (12, 15)
    tsv, man = wiki_corpus(size_mb)
    load_opts = {"innodb_buffer_pool_size": bp_load}
    # --codecs: every compressed layout once per codec ("8K@isal").
    layouts = [(n, opts, k) for lay, opts in WIKI_LAYOUTS
               for n, k in codec_names(lay, opts)]
    codec_of = {n: k for n, _, k in layouts}
    # 1. Bulk-load footprint: every layout, interleaved per repetition.
    loads, kept = [], {}
    for rep in range(reps):
        for lay, opts, codec in layouts:
            keep = lay.split("@")[0] in ("N", "8K") and rep == reps - 1
            s, size, ibd, cs, d = wiki_load(lay, opts, tsv, man, load_opts,
                                            keep, codec)
            if keep:
                kept[lay] = (d, size)
            loads.append({"rep": rep, "layout": lay, **codec_field(codec),
                          "load_s": round(s, 1),
                          "size_mb": round(size / 2**20, 1),
                          "ibd_mb": round(ibd / 2**20, 1),
                          "compress_ops": cs[0], "compress_ok": cs[1],
                          "zip_splits": cs[2]})
            log("wiki load %s rep %d: %.1f s, %.1f MB" % (lay, rep, s, size / 2**20))
    write_csv(os.path.join(out, "loads.csv"), loads)
    n_size = statistics.median(r["size_mb"] for r in loads if r["layout"] == "N")
    n_secs = [r["load_s"] for r in loads if r["layout"] == "N"]
    load_rows = []
    for lay, _, _ in layouts:
        rs = [r for r in loads if r["layout"] == lay]
        size = statistics.median(r["size_mb"] for r in rs)
        load_rows.append([lay, "%.1f" % size, "%.1f" % statistics.median(
            r["ibd_mb"] for r in rs), "%.1f" % (100 * (1 - size / n_size)),
            spread([r["load_s"] for r in rs]),
            ratio_spread([r["load_s"] for r in rs], n_secs)])
    # 2. Read curve: N and 8K, the range grown from a quarter of the buffer
    # pool to the whole table (multiples of the buffer pool in uncompressed
    # data): on this machine's disk, and on the same disk throttled to
    # --read-iops reads per second (a slow disk, as in the published
    # measurement). --codecs: 8K once per codec.
    u_mb = kept["N"][1] / 2**20
    c_mbs = {lay: size / 2**20 for lay, (_, size) in kept.items() if lay != "N"}
    mults = ([0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6] if quick else
             [0.5, 1, 1.25, 1.5, 2, 3, 6])
    points = sorted({min(1.0, round(m * bp_read_mb / u_mb, 3)) for m in mults})
    disks = [0]
    iops = 0 if quick else args.read_iops
    if iops:
        if IoThrottle(kept["N"][0], {"riops": iops}).available():
            disks.append(iops)
        else:
            log("wiki: no writable blkio/io cgroup here: the curve on a "
                "throttled disk is not measured")
    curve = []
    for d in disks:
        for lay in ["N"] + list(c_mbs):
            curve += wiki_read_curve(lay, kept[lay][0], points,
                                     "%dM" % bp_read_mb, threads, warm, secs,
                                     read_iops=d, codec=codec_of[lay])
    write_csv(os.path.join(out, "read_curve.csv"), curve)
    curve_plot(os.path.join(out, "read_curve.png"), curve, u_mb, c_mbs,
               bp_read_mb, disks)
    curve_tables = []
    for d in disks:
        for c, c_mb in c_mbs.items():
            cr = []
            for frac in points:
                nr = next(r for r in curve if r["layout"] == "N" and
                          r["range_frac"] == frac and r["read_iops"] == d)
                cz = next(r for r in curve if r["layout"] == c and
                          r["range_frac"] == frac and r["read_iops"] == d)
                zone = ("both fit" if frac * u_mb <= bp_read_mb else
                        "only compressed fits" if frac * c_mb <= bp_read_mb
                        else "neither fits")
                cr.append(["%.0f" % (frac * u_mb), "%.0f" % (frac * c_mb),
                           zone, "%.0f" % nr["reads_per_s"],
                           "%.0f" % cz["reads_per_s"],
                           "%.2fx" % (cz["reads_per_s"] /
                                      max(nr["reads_per_s"], 1)),
                           nr["page_reads_per_read"], cz["page_reads_per_read"]])
            curve_tables += [
                "Disk: %s." % ("this machine's, unthrottled" if d == 0 else
                               "the same, throttled to %d page reads per "
                               "second (blkio cgroup of the server)" % d), "",
                md_table(["range MB (N)", "range MB (%s)" % c, "zone",
                          "N reads/s", "%s reads/s" % c, "%s vs N" % c,
                          "N page reads/read", "%s page reads/read" % c],
                         cr), ""]
    md = ["# wiki: bulk-load footprint and read curve of a natural-text table", "",
          "Measured %s on this build. Corpus: %s rows, %.0f MB of article "
          "text (bench/wiki/make_corpus.py, sha256 %s...). Load: LOAD DATA "
          "into an empty table, buffer pool %s, until no dirty page is "
          "left; MB is DATA_LENGTH + INDEX_LENGTH after ANALYZE TABLE; %d "
          "repetition(s)." % (time.strftime("%Y-%m-%d"), man["rows"],
                              int(man["body_bytes"]) / 2**20,
                              man["sha256"][:12], bp_load, reps) + (
              " Every compressed layout once per codec (--codecs %s: "
              "\"8K@%s\"), side by side." % (",".join(CODECS), CODECS[-1])
              if CODECS else ""), "",
          md_table(["layout", "MB", ".ibd MB", "SS %", "load s", "load vs N"],
                   load_rows), "",
          "Read curve: buffer pool %d MB, %d threads of random point reads "
          "by primary key over ids 1..range, %d s warm-up and %d s measured "
          "per range, the range grown on one running server. Range MB is the "
          "share of the table's size (uncompressed N, compressed 8K)." % (
              bp_read_mb, threads, warm, secs), "",
          ] + curve_tables + ["![read curve](read_curve.png)", ""]
    with open(os.path.join(out, "report.md"), "w") as fh:
        fh.write("\n".join(md) + "\n")


def curve_plot(path, curve, u_mb, c_mbs, bp_mb, disks=(0,)):
    """c_mbs: {compressed layout ("8K", or "8K@isal" under --codecs): MB}."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib missing: no plot " + path)
        return
    fig, axes = plt.subplots(1, len(disks), figsize=(7 * len(disks), 4),
                             squeeze=False)
    for ax, d in zip(axes[0], disks):
        for lay, label in [("N", "uncompressed")] + [
                (c, "compressed 8 KB" + (" (%s)" % c.partition("@")[2]
                                         if "@" in c else ""))
                for c in c_mbs]:
            rs = [r for r in curve if r["layout"] == lay and r["read_iops"] == d]
            ax.plot([r["range_frac"] * u_mb for r in rs],
                    [r["reads_per_s"] for r in rs], marker="o", label=label)
        ax.axvline(bp_mb, color="grey", ls="--")
        ax.text(bp_mb, ax.get_ylim()[1] * 0.95, " pool = range (N)", fontsize=8)
        for i, (c, c_mb) in enumerate(c_mbs.items()):
            ax.axvline(bp_mb * u_mb / c_mb, color="grey", ls=":")
            ax.text(bp_mb * u_mb / c_mb, ax.get_ylim()[1] * (0.85 - 0.1 * i),
                    " pool = range (%s)" % c, fontsize=8)
        ax.set_xlabel("key range, MB of uncompressed data")
        ax.set_ylabel("point reads/s")
        ax.set_title("Buffer pool %d MB, %s" % (
            bp_mb, "this disk" if d == 0 else "disk throttled to %d reads/s" % d))
        ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ---------------------------------------------------------------------------
# Experiment: codecs (Percona's compression-methods study, on InnoDB's own
# pages and InnoDB's own functions)

# (codec, table level): zlib at 1, 6 and 9; ISA-L at the table levels that
# map to its levels 1, 2 and 3 (docs/codec.md).
CODEC_POINTS = [("zlib", 1), ("zlib", 6), ("zlib", 9),
                ("isal", 1), ("isal", 6), ("isal", 9)]
STUDY_TABLES = ["stock", "order_line", "customer"]


def exp_codecs(args, out):
    """For each codec and level, on real pages of the benchmark's tables
    (spec, DBT-2 and aged TPC-C data, each loaded by tpcc.lua), English
    text and random bytes: page_zip_compress() and page_zip_decompress()
    themselves, timed by InnoDB's per-table counters (microseconds per page,
    compressed bytes), and the share of full pages that fit each
    KEY_BLOCK_SIZE (the estimator's trials, which call page_zip_compress()
    on copies of the real pages). Each kind of TPC-C data has its own
    server (its own loaded copy); text and random bytes are measured with
    the first."""
    global DATA
    quick = args.quick
    W = args.warehouses or 1
    reps = args.reps or (1 if quick else 3)
    text_mb = 10 if quick else 40
    kinds = [d for d in (args.study_data or ("spec" if quick else
                                             "spec,dbt2,aged")).split(",") if d]
    for d in kinds:
        if d not in DATA_CHOICES:
            sys.exit("--study-data: %s is not one of %s" % (d, DATA_CHOICES))
    load_opts = {"innodb_buffer_pool_size": "1G"}
    tsv, _ = wiki_corpus(text_mb)
    opts = {"innodb_buffer_pool_size": "2G",
            "innodb_buffer_pool_load_at_startup": "OFF",
            "innodb_buffer_pool_dump_at_shutdown": "OFF",
            "secure-file-priv": os.path.dirname(tsv)}
    rows, fit_rows, sources_all = [], [], []
    keep = DATA
    try:
        for i, d in enumerate(kinds):
            DATA = d
            base = Layout("N", "", note="no compression")
            load("codecs", base, W, load_opts)
            live = work_path("codecs-datadir")
            copy_datadir(base.saved, live)
            srv = Server(live, opts)
            srv.start()
            try:
                sources = codecs_measure(srv, opts, W, reps, quick, tsv,
                                         i == 0, rows, fit_rows)
                sources_all += sources
            finally:
                srv.stop()
    finally:
        DATA = keep
    codecs_report(out, rows, fit_rows, sources_all, reps, W, kinds, text_mb)


def codecs_measure(srv, opts, W, reps, quick, tsv, extra, rows, fit_rows):
    """The measurements of exp_codecs on its running server: the TPC-C
    tables of the loaded data (DATA), and if extra, English text and random
    bytes. Appends to rows and fit_rows; returns the sources measured."""
    srv.sql("DROP DATABASE IF EXISTS study")
    srv.sql("CREATE DATABASE study")
    if extra:
        codecs_study_tables(srv, quick, tsv)
    sources = [("%s.%s" % (DB, t), "%s (%s)" % (t, DATA)) for t in STUDY_TABLES]
    if extra:
        sources += [("study.text_docs", "English text"),
                    ("study.random_rows", "random bytes")]
    for rep in range(reps):
        for codec, level in CODEC_POINTS:
            codecs_measure_point(srv, opts, sources, rep, codec, level, rows,
                                 fit_rows)
            log("codecs %s rep %d %s level %d done" % (DATA, rep + 1, codec,
                                                       level))
    return sources


def codecs_study_tables(srv, quick, tsv):
    """English text and random bytes, in the B-tree pages."""
    srv.sql("CREATE TABLE study.docs (id INT PRIMARY KEY, title "
            "VARCHAR(255), body MEDIUMTEXT) CHARACTER SET utf8mb4")
    srv.sql("LOAD DATA INFILE '%s' INTO TABLE study.docs CHARACTER SET "
            "utf8mb4 (id, title, body)" % tsv)
    # The documents cut into rows of 700 characters, so that the text is in
    # the B-tree pages (a whole document would go to BLOB pages, which
    # stay on zlib whatever the codec).
    srv.sql("CREATE TABLE study.seq (n INT PRIMARY KEY)")
    srv.sql("SET SESSION cte_max_recursion_depth = 1000000; "
            "INSERT INTO study.seq WITH RECURSIVE s(n) AS (SELECT 0 UNION "
            "ALL SELECT n + 1 FROM s WHERE n < 2000) SELECT n FROM s")
    srv.sql("CREATE TABLE study.text_docs (doc INT, part INT, txt "
            "VARCHAR(700), PRIMARY KEY (doc, part)) CHARACTER SET utf8mb4")
    srv.sql("INSERT INTO study.text_docs SELECT d.id, s.n, SUBSTRING(d.body, "
            "s.n * 700 + 1, 700) FROM study.docs d JOIN study.seq s ON "
            "s.n * 700 < CHAR_LENGTH(d.body)")
    srv.sql("DROP TABLE study.docs, study.seq")
    srv.sql("CREATE TABLE study.random_rows (id INT PRIMARY KEY, "
            "b VARBINARY(300))")
    srv.sql("SET SESSION cte_max_recursion_depth = 1000000; "
            "INSERT INTO study.random_rows WITH RECURSIVE s(n) AS (SELECT 1 "
            "UNION ALL SELECT n + 1 FROM s WHERE n < %d) SELECT n, "
            "RANDOM_BYTES(40 + n %% 200) FROM s" % (20000 if quick else 100000))


def codecs_measure_point(srv, opts, sources, rep, codec, level, rows,
                         fit_rows):
    """One codec and level, one repetition, every source."""
    attr = json.dumps({"compression_codec": codec,
                       "compression_level": level})
    first = len(rows)
    for src, label in sources:
        dst = "study.c_" + src.split(".")[1]
        srv.sql("DROP TABLE IF EXISTS %s" % dst)
        srv.sql("CREATE TABLE %s LIKE %s" % (dst, src))
        srv.sql("ALTER TABLE %s ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 "
                "ENGINE_ATTRIBUTE='%s'" % (dst, attr))
        # Rows in key order: each page is compressed as it fills
        # (and when a record no longer fits), as inserts do.
        srv.sql("INSERT INTO %s SELECT * FROM %s ORDER BY 1" % (dst, src))
        # Sizes from the index statistics, recounted now.
        srv.sql("ANALYZE TABLE %s" % dst)
        c = srv.sql(
            "SELECT COMPRESS_OPS, COMPRESS_OPS_OK, COMPRESS_USECS, "
            "DATA_LENGTH + INDEX_LENGTH FROM information_schema."
            "COMPRESSION_STATS s JOIN information_schema.TABLES t "
            "USING (TABLE_SCHEMA, TABLE_NAME) WHERE s.TABLE_SCHEMA = "
            "'study' AND s.TABLE_NAME = '%s'" % dst.split(".")[1])[0]
        # Leaf pages in use (exact, from ANALYZE), not the extents
        # allocated: the difference between codecs is in how many rows a
        # page holds before its compression fails.
        leaf = srv.sql(
            "SELECT SUM(stat_value) FROM mysql.innodb_index_stats WHERE "
            "database_name = 'study' AND table_name = '%s' AND stat_name = "
            "'n_leaf_pages'" % dst.split(".")[1])[0][0]
        rows.append({"rep": rep + 1, "codec": codec, "level": level,
                     "data": label, "dst": dst, "compress_ops": int(c[0]),
                     "compress_ok": int(c[1]),
                     "compress_us": int(c[2]) / max(int(c[0]), 1),
                     "bytes": int(leaf) * 8192,
                     "allocated_bytes": int(c[3])})
    # Decompression: a restart empties the buffer pool; every page
    # is read back by a full scan, once with each inflate.
    for inflate in ("zlib", "isal"):
        srv.opts = dict(opts, innodb_compression_codec=inflate)
        srv.stop()
        srv.start()
        for r in rows[first:]:
            srv.sql("CHECKSUM TABLE %s" % r["dst"])
            d = srv.sql("SELECT UNCOMPRESS_OPS, UNCOMPRESS_USECS FROM "
                        "information_schema.COMPRESSION_STATS WHERE "
                        "TABLE_SCHEMA = 'study' AND TABLE_NAME = '%s'"
                        % r["dst"].split(".")[1])[0]
            r["decompress_us_" + inflate] = int(d[1]) / max(int(d[0]), 1)
            r["decompress_ops_" + inflate] = int(d[0])
    srv.opts = opts
    # The share of full pages that fit each size, from the
    # estimator's trials of the uncompressed tables (first rep).
    if rep == 0:
        srv.sql("SET GLOBAL innodb_compression_codec = %s" % codec)
        srv.sql("SET GLOBAL innodb_compression_level = %d" % level)
        for src, label in sources:
            sch, tab = src.split(".")
            t0 = time.time()
            srv.sql("SELECT COMPRESSION_STATS_ESTIMATE('%s', '%s', 256)"
                    % (sch, tab))
            secs = time.time() - t0
            for kbs, fail, est in srv.sql(
                    "SELECT KEY_BLOCK_SIZE, ESTIMATED_FAILURE_PCT, "
                    "ESTIMATED_BYTES FROM information_schema."
                    "COMPRESSION_ESTIMATES WHERE KEY_BLOCK_SIZE IS NOT NULL AND TABLE_SCHEMA = '%s' "
                    "AND TABLE_NAME = '%s'" % (sch, tab)):
                fit_rows.append({
                    "codec": codec, "level": level, "data": label,
                    "kbs": int(kbs),
                    "fit_pct": 100 - float(fail) if fail != "NULL" else "",
                    "estimated_bytes": int(est), "estimate_s": secs})
        srv.sql("SET GLOBAL innodb_compression_codec = DEFAULT")
        srv.sql("SET GLOBAL innodb_compression_level = DEFAULT")


def codecs_report(out, rows, fit_rows, sources, reps, W, kinds, text_mb):
    """pages.csv, fit.csv, report.md and the plot of exp_codecs."""
    write_csv(os.path.join(out, "pages.csv"), rows)
    write_csv(os.path.join(out, "fit.csv"), fit_rows)

    # Report: medians over the repetitions, ratios against zlib level 6.
    def med(data, codec, level, key):
        v = [r[key] for r in rows if r["data"] == data and r["codec"] == codec
             and r["level"] == level and key in r]
        return statistics.median(v) if v else float("nan")
    md = ["# Experiment codecs: zlib and ISA-L on InnoDB's own pages", "",
          "Measured %s. page_zip_compress() of rows inserted in key order "
          "into KEY_BLOCK_SIZE=8 copies, timed by COMPRESS_USECS / "
          "COMPRESS_OPS (failed attempts included); page_zip_decompress() of "
          "every page after a restart, by UNCOMPRESS_USECS / UNCOMPRESS_OPS, "
          "with zlib's inflate and ISA-L's; %d repetition(s), medians. "
          "Bytes: the leaf pages in use (mysql.innodb_index_stats "
          "n_leaf_pages after ANALYZE) times 8 KB. "
          "Data: %d warehouse(s) of TPC-C data from each generator (%s), "
          "%d MB of English text (bench/wiki), random bytes." % (
              time.strftime("%Y-%m-%d"), reps, W, ", ".join(kinds), text_mb),
          ""]
    hdr = ["data", "codec", "level", "compress us/page", "vs zlib 6",
           "bytes", "bytes vs zlib 6", "fail %", "inflate zlib us",
           "inflate isal us", "inflate speed-up"]
    tab = []
    for src, label in sources:
        z6c = med(label, "zlib", 6, "compress_us")
        z6b = med(label, "zlib", 6, "bytes")
        for codec, level in CODEC_POINTS:
            cu = med(label, codec, level, "compress_us")
            b = med(label, codec, level, "bytes")
            ops = med(label, codec, level, "compress_ops")
            ok = med(label, codec, level, "compress_ok")
            dz = med(label, codec, level, "decompress_us_zlib")
            di = med(label, codec, level, "decompress_us_isal")
            tab.append([label, codec, level, "%.1f" % cu, "%.2fx" % (z6c / cu),
                        "%.0f" % b, "%+.1f %%" % (100 * (b / z6b - 1)),
                        "%.1f" % (100 * (1 - ok / max(ops, 1))),
                        "%.1f" % dz, "%.1f" % di, "%.2fx" % (dz / di)])
    md += [md_table(hdr, tab), "", "## Share of full pages that fit", "",
           "From the estimator's trials of the uncompressed tables (256 "
           "sampled leaf pages per index): % of full 16 KB pages that "
           "compress into each size.", ""]
    ftab = []
    for src, label in sources:
        for codec, level in CODEC_POINTS:
            f = {r["kbs"]: r for r in fit_rows if r["data"] == label and
                 r["codec"] == codec and r["level"] == level}
            ftab.append([label, codec, level] + [
                ("%.0f" % f[k]["fit_pct"]) if k in f and f[k]["fit_pct"] != ""
                else "-" for k in (16, 8, 4, 2, 1)] + [
                "%.2f" % f[8]["estimate_s"] if 8 in f else "-"])
    md += [md_table(["data", "codec", "level", "16K", "8K", "4K", "2K", "1K",
                     "estimate s"], ftab), ""]
    codecs_plot(os.path.join(out, "codecs.png"), rows, sources, med)
    md += ["![compression time against bytes](codecs.png)", ""]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")


def codecs_plot(path, rows, sources, med):
    """The study's plot, as Percona's study draws it: time per page against
    compressed size, one marker per codec and level, one colour per data."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        log("matplotlib missing: no plot " + path)
        return
    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    marks = {"zlib": "o", "isal": "s"}
    for n, (src, label) in enumerate(sources):
        colour = "C%d" % (n % 10)
        z6b = med(label, "zlib", 6, "bytes")
        for codec, level in CODEC_POINTS:
            b = 100.0 * med(label, codec, level, "bytes") / z6b
            axes[0].scatter(med(label, codec, level, "compress_us"), b,
                            marker=marks[codec], color=colour,
                            label=label if (codec, level) == ("zlib", 6) else None)
            axes[0].annotate("%s %d" % (codec, level),
                             (med(label, codec, level, "compress_us"), b),
                             fontsize=6)
            for inflate, m in (("zlib", "o"), ("isal", "s")):
                axes[1].scatter(med(label, codec, level,
                                    "decompress_us_" + inflate), n,
                                marker=m, color=colour)
    axes[0].set_xscale("log")
    axes[0].set_xlabel("page_zip_compress() us per page (log)")
    axes[0].set_ylabel("bytes on disk, % of zlib level 6")
    axes[0].set_title("compression: circles zlib, squares ISA-L")
    axes[0].legend(fontsize=7)
    axes[1].set_yticks(range(len(sources)))
    axes[1].set_yticklabels([l for _, l in sources], fontsize=7)
    axes[1].set_xlabel("page_zip_decompress() us per page")
    axes[1].set_title("decompression: circles zlib, squares ISA-L")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)




# ---------------------------------------------------------------------------
# Experiment: profile (where the CPU time of a compressed configuration goes)

# Buckets of the CPU profile, by the function a sample is in (its own time):
# the first pattern that matches names the bucket.
PROFILE_BUCKETS = [
    ("zlib/ISA-L library", r"^\[codec library\]$"),
    ("compression", r"^(deflate|_tr_|longest_match|fill_window|compress_block|"
     r"build_tree|send_tree|scan_tree|pqdownheap|gen_bitlen|gen_codes|"
     r"slide_hash|isal_deflate|isal_adler|isal_update_histogram|"
     r"isal_create_hufftables|create_hufftables|gen_huff|encode_deflate|"
     r"adler32|page_zip_compress|page_zip_deflate|isal_write|"
     r"write_huffman|deflate_|isal_|igzip|encode_)"),
    ("decompression", r"^(inflate|page_zip_decompress|page_zip_apply_log|"
     r"page_zip_inflate|decode_huffman|isal_inflate|read_header|"
     r"setup_dynamic|make_inflate|inflate_)"),
    ("page reorganize and split", r"^(btr_page_reorganize|btr_page_split|"
     r"page_copy_rec_list|page_zip_reorganize|page_zip_copy_recs|"
     r"btr_compress|page_delete_rec_list)"),
    ("memory allocation", r"^(malloc|free|_int_malloc|_int_free|calloc|"
     r"realloc|mem_heap_|ut_allocator|sysmalloc|systrim|__libc_|"
     r"malloc_consolidate|unlink_chunk|_int_realloc|__memset|mmap|munmap|"
     r"madvise)"),
    ("latches and waits", r"^(ut_delay|sync_array|os_event|rw_lock|"
     r"mutex|PolicyMutex|TTASEventMutex|pthread_|futex|__lll|"
     r"sched_yield|syscall)"),
    ("memcpy/memmove", r"^(__memmove|__memcpy|memcpy|memmove)"),
    ("redo log", r"^(log_|mtr_|mlog_|Log_|log0)"),
]


def perf_profile(pid, secs, outfile):
    """perf record (cpu-clock: this VM has no hardware counters) of a
    process for secs seconds; returns {symbol: samples}."""
    data = outfile + ".data"
    subprocess.run(["perf", "record", "-e", "cpu-clock", "-F", "499", "-g",
                    "-p", str(pid), "-o", data, "--", "sleep", str(secs)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    r = subprocess.run(["perf", "report", "-i", data, "--stdio",
                        "--no-children", "--sort", "dso,symbol", "-F",
                        "overhead,sample,dso,symbol", "-g", "none"],
                       capture_output=True, text=True)
    with open(outfile + ".txt", "w") as f:
        f.write(r.stdout)
    # Inclusive time (children included) of the functions that own a
    # bucket: zlib's and ISA-L's own functions have no symbols here
    # (stripped libraries), so compression and decompression are counted
    # as the time under page_zip_compress_fit() and page_zip_decompress().
    c = subprocess.run(["perf", "report", "-i", data, "--stdio",
                        "--children", "--sort", "symbol", "-g", "none"],
                       capture_output=True, text=True)
    with open(outfile + ".children.txt", "w") as f:
        f.write(c.stdout)
    os.remove(data)
    return perf_symbols(r.stdout)


def perf_symbols(text):
    """{function name: samples} of a perf report --stdio listing (the
    name without its class, namespace, arguments or the IPC columns)."""
    syms = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\d+)\s+(\S+)\s+\[[.kHu]\]\s+(.*)$",
                     line)
        if m:
            dso = m.group(3)
            if dso.startswith("libz.so") or dso.startswith("libisal.so"):
                # The codec libraries are stripped: their time, both
                # directions, is one bucket.
                syms["[codec library]"] = syms.get("[codec library]", 0) + \
                    int(m.group(2))
                continue
            sym = re.split(r"\s{2,}", m.group(4).strip())[0]
            sym = re.sub(r"\(.*$", "", sym)
            sym = re.sub(r"<[^<>]*>", "", sym).split("::")[-1].strip()
            syms[sym] = syms.get(sym, 0) + int(m.group(2))
    return syms


# Buckets by inclusive time: (bucket, functions whose time with their
# callees it is). A sample under both (a reorganization that recompresses)
# counts in the first.
PROFILE_INCLUSIVE = [
    ("compression", ["page_zip_compress_fit", "page_zip_compress"]),
    ("decompression", ["page_zip_decompress", "page_zip_decompress_low"]),
]


def inclusive_shares(text):
    """{function: % of samples with it on the stack} from a perf report
    --children listing."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+([\d.]+)%\s+\[[.kHu]\]\s+(.*)$",
                     line)
        if m:
            sym = re.split(r"\s{2,}", m.group(3).strip())[0]
            sym = re.sub(r"\(.*$", "", sym).split("::")[-1].strip()
            out[sym] = max(out.get(sym, 0.0), float(m.group(1)))
    return out


# Buckets of a CPU sample by its whole call stack (perf record
# --call-graph dwarf: mysqld and the codec libraries have no frame
# pointers, their .eh_frame unwinds them): the first bucket a frame of the
# stack matches, in this order, so that a split's recompression counts as
# compression and the split's own work (moving records, allocating the new
# page) as the split. "latch spins and waits" and "file I/O system calls"
# are matched on the innermost frames (the leaf and its callers up to the
# first InnoDB function), the rest by any frame.
STACK_BUCKETS = [
    ("compression", "any", r"^(page_zip_compress|page_zip_compress_fit|"
     r"page_zip_compress_deflate|page_zip_codec_compress|page_zip_deflate)"),
    ("decompression", "any", r"^(page_zip_decompress|"
     r"page_zip_decompress_low|page_zip_codec_inflate|page_zip_inflate)"),
    ("splits and reorganizations", "any", r"^(btr_page_split_and_insert|"
     r"btr_root_raise_and_insert|btr_page_reorganize|btr_page_reorganize_low|"
     r"btr_page_reorganize_block|page_zip_reorganize|btr_compress|"
     r"btr_lift_page_up|btr_insert_into_right_sibling)"),
    ("latch spins and waits", "leaf", r"^(ut_delay|sync_array|os_event|"
     r"rw_lock|PolicyMutex|TTASEventMutex|pthread_mutex|pthread_cond|"
     r"pthread_rwlock|futex|__lll|sched_yield|__futex|do_futex|"
     r"futex_wait|futex_wake)"),
    ("file I/O system calls", "leaf", r"^(pread|pwrite|__pread|__pwrite|"
     r"fsync|fdatasync|__fsync|io_submit|io_getevents|os_file_io|"
     r"os_file_pread|os_file_pwrite|ksys_pread|ksys_pwrite|vfs_read|"
     r"vfs_write|blkdev_|iomap_|ext4_|xfs_)"),
]
STACK_REST = "the rest (SQL layer, B-tree search, rows, locks, redo)"


def clean_symbol(sym):
    """A perf symbol without its arguments, templates, namespaces and
    offset."""
    sym = re.sub(r"\+0x[0-9a-f]+$", "", sym.strip())
    sym = re.sub(r"\(.*$", "", sym)
    sym = re.sub(r"<[^<>]*>", "", sym)
    sym = re.sub(r"<[^<>]*>", "", sym)
    return sym.split("::")[-1].strip()


def perf_record_stacks(pid, secs, data, freq=99):
    """perf record of a process for secs seconds, cpu-clock (this VM has
    no hardware counters), call stacks by DWARF unwinding."""
    subprocess.run(["perf", "record", "-e", "cpu-clock", "-F", str(freq),
                    "--call-graph", "dwarf,8192", "-p", str(pid), "-o", data,
                    "--", "sleep", str(secs)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def perf_stack_buckets(data, outfile, freq=99):
    """Sort the samples of a perf record --call-graph file into
    STACK_BUCKETS; writes outfile (per bucket its top leaf functions) and
    returns {bucket: CPU seconds}. The data file is removed."""
    r = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym",
                        "--no-inline"], capture_output=True, text=True)
    counts = {b: 0 for b, _, _ in STACK_BUCKETS}
    counts[STACK_REST] = 0
    leaves = {b: {} for b in counts}
    pats = [(b, where, re.compile(p)) for b, where, p in STACK_BUCKETS]

    def classify(frames):
        # innermost frames: the leaf and its callers up to (and with) the
        # first InnoDB-looking function
        inner = []
        for f in frames:
            inner.append(f)
            if re.match(r"^(os_|buf_|fil_|btr_|row_|srv_|log_|trx_|lock_|"
                        r"page_|mtr_|dict_|ha_innobase|Fil_)", f):
                break
        for b, where, pat in pats:
            if any(pat.match(f) for f in (frames if where == "any" else inner)):
                return b
        return STACK_REST

    def flush(frames):
        if not frames:
            return
        b = classify(frames)
        counts[b] += 1
        leaves[b][frames[0]] = leaves[b].get(frames[0], 0) + 1

    frames = []
    for line in r.stdout.splitlines():
        line = line.strip()
        if not line:
            flush(frames)
            frames = []
            continue
        parts = line.split(None, 1)
        if len(parts) == 2 and re.match(r"^[0-9a-f]+$", parts[0]):
            frames.append(clean_symbol(parts[1]))
        else:
            flush(frames)
            frames = []
    flush(frames)
    total = sum(counts.values())
    with open(outfile, "w") as f:
        f.write("# %d samples at %d Hz (perf record -e cpu-clock "
                "--call-graph dwarf), by bucket (bench/harness.py "
                "STACK_BUCKETS) and leaf function\n" % (total, freq))
        for b, n in counts.items():
            f.write("\n%s: %d samples (%.1f %%)\n" % (
                b, n, 100.0 * n / max(total, 1)))
            for sym, m in sorted(leaves[b].items(), key=lambda x: -x[1])[:12]:
                f.write("  %6d  %s\n" % (m, sym))
    try:
        os.remove(data)
    except OSError:
        pass
    return {b: n / float(freq) for b, n in counts.items()}


def bucket_profile(syms):
    out = {b: 0 for b, _ in PROFILE_BUCKETS}
    out["rest"] = 0
    for sym, n in syms.items():
        for b, pat in PROFILE_BUCKETS:
            if re.match(pat, sym):
                out[b] += n
                break
        else:
            out["rest"] += n
    return out


def exp_profile(args, out):
    """A CPU profile per configuration of the tuning experiment's workload
    (standard mix, cached), zlib and ISA-L side by side: the share of the
    server's CPU in compression, decompression, reorganizations and splits,
    allocation, latches, the redo log and the rest; samples per
    transaction."""
    W = args.warehouses or 2
    threads = 8
    warm, secs = 10, 20
    reps = args.reps or 2
    load_opts = {"innodb_buffer_pool_size": "1G"}
    run_opts = {"innodb_buffer_pool_size": "2G"}
    configs = [("none", Layout("none"), {}),
               ("l1@zlib", Layout("l1@zlib", opts_for(TUNED_TABLES, level=1),
                                  codec="zlib"),
                {"innodb_compression_codec": "zlib"}),
               ("l1@isal", Layout("l1@isal", opts_for(TUNED_TABLES, level=1),
                                  codec="isal"),
                {"innodb_compression_codec": "isal"}),
               ("l6@zlib", Layout("l6@zlib", opts_for(TUNED_TABLES),
                                  codec="zlib"),
                {"innodb_compression_codec": "zlib"}),
               ("l6@isal", Layout("l6@isal", opts_for(TUNED_TABLES),
                                  codec="isal"),
                {"innodb_compression_codec": "isal"})]
    for _, lay, _ in configs:
        load("profile", lay, W, load_opts)
    rows = []
    for rep in range(reps):
        for name, lay, extra in configs:
            live = work_path("live-datadir")
            copy_datadir(lay.saved, live)
            srv = Server(live, dict(run_opts, **extra))
            srv.start()
            try:
                srv.sysbench(["--threads=%d" % threads, "--time=%d" % warm,
                              "--mix=standard", "run"], W)
                pid = int(open(os.path.join(srv.rundir, "mysqld.pid")).read())
                holder = {}

                def prof():
                    holder["syms"] = perf_profile(
                        pid, secs, os.path.join(out, "perf-%s-%d" % (
                            name.replace("@", "-"), rep + 1)))
                import threading
                t = threading.Thread(target=prof)
                t.start()
                o = srv.sysbench(["--threads=%d" % threads, "--time=%d" % secs,
                                  "--mix=standard", "run"], W)
                t.join()
            finally:
                srv.stop()
            res = parse_tpcc(o)
            commits = sum(res.get(tx + "_commits", 0) for tx in TX_TYPES)
            b = bucket_profile(holder["syms"])
            total = sum(b.values())
            # (The inclusive view, perf-*.children.txt, is kept for
            # reading: call chains through the stripped libraries are
            # incomplete, so the buckets use each function's own time.)
            row = {"config": name, "rep": rep + 1, "tpmC": res["tpmC"],
                   "commits": commits, "samples": total}
            for k, v in b.items():
                row[k] = v
            rows.append(row)
            log("profile rep %d %s: tpmC %.0f, %s" % (
                rep + 1, name, res["tpmC"], ", ".join(
                    "%s %.0f %%" % (k, 100.0 * v / max(total, 1))
                    for k, v in b.items())))
    write_csv(os.path.join(out, "profile.csv"), rows)
    buckets = [b for b, _ in PROFILE_BUCKETS] + ["rest"]
    md = ["# Experiment profile: where the CPU time goes", "",
          "Measured %s. perf record -e cpu-clock at 499 Hz of mysqld during "
          "%d s of the standard mix (8 threads, %d warehouses, buffer pool "
          "2G, after %d s of warm-up), %d repetition(s); samples are the "
          "function's own time, grouped by name (bench/harness.py "
          "PROFILE_BUCKETS). CPU ms per transaction = samples x 2 ms / "
          "commits (2 cores sampled)." % (time.strftime("%Y-%m-%d"), secs, W,
                                          warm, reps), ""]
    tab = []
    for name, _, _ in configs:
        rs = [r for r in rows if r["config"] == name]
        tp = statistics.median(r["tpmC"] for r in rs)
        per_tx = {k: statistics.median(2.0 * r[k] / max(r["commits"], 1)
                                       for r in rs) for k in buckets}
        tab.append([name, "%.0f" % tp] + ["%.2f" % per_tx[k] for k in buckets]
                   + ["%.2f" % sum(per_tx.values())])
    md += [md_table(["config", "tpmC"] + ["%s ms/tx" % b for b in buckets]
                    + ["CPU ms/tx"], tab), ""]
    series = {}
    for k in buckets:
        series[k] = [float(r[2 + buckets.index(k)]) for r in tab]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(8, 4.5))
        bottom = [0.0] * len(tab)
        for k in buckets:
            ax.bar([r[0] for r in tab], series[k], bottom=bottom, label=k)
            bottom = [a + b for a, b in zip(bottom, series[k])]
        ax.set_ylabel("CPU ms per transaction")
        ax.set_title("Where the CPU goes (standard mix, cached)")
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "profile.png"), dpi=90)
        md += ["![profile](profile.png)", ""]
    except ImportError:
        pass
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")



EXPERIMENTS = {"paper": exp_paper, "tuning": exp_tuning, "overhead": exp_overhead,
               "hotpath": exp_hotpath, "sizes": exp_sizes, "wiki": exp_wiki,
               "codecs": exp_codecs, "profile": exp_profile,
               "readmix": exp_readmix}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("experiment", choices=list(EXPERIMENTS) + ["all"])
    ap.add_argument("--quick", action="store_true",
                    help="small sizes and short runs, for a smoke check")
    ap.add_argument("--out", help="result directory (default under the cache)")
    ap.add_argument("--reps", type=int, help="repetitions per configuration")
    ap.add_argument("--warehouses", type=int)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--only", help="tuning: comma-separated configurations "
                    "to run (none and l1 always run; PZ, PL, CH among them); "
                    "paper: layouts to run besides N (e.g. S8m, PZ, PL, CH), "
                    "reusing kept loads")
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
                    "its throughput once its free space is used")
    ap.add_argument("--pools", help="readmix: comma-separated buffer "
                    "pool sizes (default 64M,256M)")
    ap.add_argument("--unzip-policy", help="readmix: also run the "
                    "compressed layouts with innodb_buffer_pool_unzip_lru_"
                    "policy set to this")
    ap.add_argument("--perf", action="store_true",
                    help="paper: a CPU profile (perf, call stacks) of every "
                    "measured run, bucketed per transaction (STACK_BUCKETS); "
                    "profiling costs throughput: keep its TPM apart")
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
    global DATA, LOAD_THREADS, CODEC, CODECS
    CODEC = args.codec
    CODECS = [c for c in (args.codecs or "").split(",") if c]
    if set(CODECS) - {"zlib", "isal"}:
        ap.error("--codecs: a comma-separated list of zlib and isal")
    DATA = args.data
    LOAD_THREADS = args.load_threads
    if not os.path.exists(os.path.join(BIN, "mysqld")):
        die("mysqld is not built: run scripts/build.sh first")
    # "all": the experiments that need no second binary.
    names = ([n for n in EXPERIMENTS
              if n not in ("hotpath", "sizes", "codecs", "profile",
                           "readmix")]
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


if __name__ == "__main__":
    main()
