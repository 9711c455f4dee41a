"""Experiment wiki: a natural-text table's bulk-load footprint at 16/8/4 KB
and its read curve (Wikipedia)."""

import hashlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

from . import register
from .. import settings
from ..datadir import base_datadir, copy_datadir
from ..device import IoThrottle
from ..layouts import COMPRESSED, codec_field, codec_names, codec_opts
from ..paths import BENCH, ROOT, work_path
from ..perf import STACK_BUCKETS, STACK_REST, PerfRecorder
from ..plots import curve_plot
from ..report import md_table, ratio_spread, spread, write_csv
from ..server import Server
from ..util import die, log


# ---------------------------------------------------------------------------
# wiki: the two Wikipedia measurements of the background (bulk-load
# footprint; read curve in three zones) on a natural-text table


WIKI_DIR = os.path.join(ROOT, "bench", "wiki")
WIKI_LAYOUTS = [("N", ""), ("16K", COMPRESSED % 16), ("8K", COMPRESSED % 8),
                ("4K", COMPRESSED % 4)]
# Layouts that run only when --only names them: 8 KB at level 1 (ISA-L's
# level 1, zlib's 1), the load's cheapest compression.
WIKI_EXTRA_LAYOUTS = [("8K-l1", COMPRESSED % 8 +
                       " ENGINE_ATTRIBUTE='{\"compression_level\": 1}'")]
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


def wiki_load(layout, opts, tsv, man, load_opts, keep, codec=None,
              perf_out=None):
    """Loads the corpus into table wiki.wiki of a fresh data directory (with
    codec, the layout's under --codecs, else the run's); returns (seconds,
    bytes of DATA_LENGTH + INDEX_LENGTH, .ibd bytes, compression counters,
    the data directory). perf_out: a CPU profile of the server from the
    LOAD DATA to the last page written (PerfRecorder), its buckets written
    there and returned in place of the compression counters."""
    k = codec or settings.CODEC
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
        rec = PerfRecorder(srv.proc.pid, perf_out + ".data") if perf_out else None
        t0 = time.time()
        srv.sql("LOAD DATA INFILE '%s' INTO TABLE wiki CHARACTER SET utf8mb4 "
                "(id, title, body)" % tsv, db="wiki")
        # Loading ends when the pages are on disk, as it would for a DBA
        # who loads and then relies on the data being there.
        srv.sql("SET GLOBAL innodb_max_dirty_pages_pct = 0")
        while int(srv.status().get("Innodb_buffer_pool_pages_dirty", "0")) > 0:
            time.sleep(0.5)
        secs = time.time() - t0
        if rec:
            buckets = rec.stop(perf_out + ".txt")
        srv.sql("SET GLOBAL innodb_max_dirty_pages_pct = 90")
        srv.sql("ANALYZE TABLE wiki", db="wiki")
        size = int(srv.sql("SELECT DATA_LENGTH + INDEX_LENGTH FROM "
                           "information_schema.TABLES WHERE TABLE_SCHEMA = "
                           "'wiki' AND TABLE_NAME = 'wiki'")[0][0])
        cs = srv.sql("SELECT COMPRESS_OPS, COMPRESS_OPS_OK, ZIP_SPLITS, "
                     "ZIP_REORGS, ZIP_REORGS_LOG_FULL FROM "
                     "information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA "
                     "= 'wiki' AND TABLE_NAME = 'wiki'")
    finally:
        srv.stop()
    ibd = os.path.getsize(os.path.join(saved, "wiki", "wiki.ibd"))
    if not keep:
        shutil.rmtree(saved, ignore_errors=True)
    if perf_out:
        return secs, size, ibd, buckets, saved
    return secs, size, ibd, (cs[0] if cs else ["0"] * 5), saved


def wiki_read_curve(layout, datadir, points, bp, threads, warm, secs,
                    read_iops=0, codec=None, perf_out=None):
    """Random point reads over a growing id range on one server: for each
    range, warm up, then measure. Returns rows of the curve. read_iops > 0
    runs the server on a disk throttled to that many reads per second;
    codec: the layout's (--codecs). perf_out: each measured range under
    perf (PerfRecorder), CPU ms per read by bucket in the row ("cpu:" +
    bucket)."""
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
            rec = (PerfRecorder(srv.proc.pid, "%s-%s.data" % (perf_out, frac))
                   if perf_out else None)
            r = subprocess.run(base + ["--time=%d" % secs, "run"], check=True,
                               capture_output=True, text=True)
            buckets = (rec.stop("%s-%s.txt" % (perf_out, frac)) if rec
                       else {})
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
                             d("Innodb_buffer_pool_reads") / max(1, reads * secs), 3),
                         **{"cpu:" + k: 1000.0 * v / max(1, reads * secs)
                            for k, v in buckets.items()}})
            log("wiki read %s%s range %.2f (%d ids): %.0f reads/s" % (
                layout, " (%d read IOPS)" % read_iops if read_iops else "",
                frac, rng, reads))
    finally:
        srv.stop()
        if throttle:
            throttle.detach()
    return rows


PERF_COLS = [b for b, _, _ in STACK_BUCKETS] + [STACK_REST]


def perf_section(perf_rows):
    return ["## Where a load's CPU goes (--perf)", "",
            "Each layout loaded once more under perf record (system-wide, "
            "cpu-clock, 99 Hz, DWARF call stacks, the server's samples only), "
            "from LOAD DATA to the last page written; CPU seconds of the "
            "server by the first bucket of bench/harness/perf.py its stack "
            "matches. perf-load-<layout>.txt has each bucket's top leaf "
            "functions.", "",
            md_table(["layout", "load s (profiled)"] + PERF_COLS + ["CPU s"],
                     perf_rows), ""]


@register("wiki")
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
    # --only: the layouts named (N always, the reference), among them the
    # extra ones.
    base = WIKI_LAYOUTS
    if args.only:
        names = set(args.only.split(",")) | {"N"}
        base = [l for l in WIKI_LAYOUTS + WIKI_EXTRA_LAYOUTS if l[0] in names]
    layouts = [(n, opts, k) for lay, opts in base
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
                          "zip_splits": cs[2], "zip_reorgs": cs[3],
                          "zip_reorgs_log_full": cs[4]})
            log("wiki load %s rep %d: %.1f s, %.1f MB" % (lay, rep, s, size / 2**20))
    write_csv(os.path.join(out, "loads.csv"), loads)
    # --perf: each layout loaded once more, under perf (not timed with the
    # repetitions above: profiling costs time), CPU seconds by bucket.
    perf_rows = []
    if args.perf:
        for lay, opts, codec in layouts:
            po = os.path.join(out, "perf-load-%s" % lay)
            # The same data directory as the timed load of this layout: keep
            # it where the read profile below needs it (as the timed loads
            # kept it).
            s, _, _, buckets, _ = wiki_load(lay, opts, tsv, man, load_opts,
                                            lay in kept, codec, perf_out=po)
            perf_rows.append([lay, "%.1f" % s] +
                             ["%.2f" % buckets.get(b, 0) for b in PERF_COLS] +
                             ["%.2f" % sum(buckets.values())])
            log("wiki load %s under perf: %.1f s, %.1f CPU s" % (
                lay, s, sum(buckets.values())))
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
    if args.perf:
        # --perf: where the time of a load and of a read goes; one range of
        # the read curve, where both the compressed table and its
        # uncompressed frames fit (nothing is read from disk or
        # decompressed after the warm-up), N and 8K, under perf.
        u_mb = kept["N"][1] / 2**20
        frac = round(0.5 * bp_read_mb / u_mb, 3)
        read_rows = []
        for lay in ["N"] + [l for l in kept if l != "N"]:
            rr = wiki_read_curve(lay, kept[lay][0], [frac], "%dM" % bp_read_mb,
                                 threads, warm, secs, codec=codec_of[lay],
                                 perf_out=os.path.join(out, "perf-read-" + lay))
            read_rows += rr
        write_csv(os.path.join(out, "perf_reads.csv"), read_rows)
        n_rate = read_rows[0]["reads_per_s"]
        read_md = [[r["layout"], "%.0f" % r["reads_per_s"],
                    "%.2fx" % (r["reads_per_s"] / max(n_rate, 1))] +
                   ["%.1f" % (1000 * r.get("cpu:" + b, 0)) for b in PERF_COLS] +
                   ["%.1f" % (1000 * sum(r.get("cpu:" + b, 0)
                                         for b in PERF_COLS))]
                   for r in read_rows]
        perf_reads_md = [
            "## Where a read's CPU goes (--perf)", "",
            "Random point reads by primary key over the first %.0f MB of N "
            "(half the %d MB buffer pool; both the compressed table and its "
            "uncompressed frames fit), %d threads, %d s warm-up, %d s under "
            "perf; CPU microseconds of the server per read by bucket "
            "(perf-read-<layout>-<range>.txt: each bucket's top leaf "
            "functions)." % (frac * u_mb, bp_read_mb, threads, warm, secs), "",
            md_table(["layout", "reads/s (profiled)", "vs N"] +
                     ["%s us/read" % b for b in PERF_COLS] + ["CPU us/read"],
                     read_md), ""]
        md = ["# wiki: bulk loads under perf", "",
              "Measured %s on this build. Corpus: %s rows, %.0f MB of article "
              "text (sha256 %s...). Load: LOAD DATA into an empty table, buffer "
              "pool %s, until no dirty page is left; %d timed repetition(s), "
              "then one profiled load per layout; one read range under perf, "
              "no read curve (--perf)." % (
                  time.strftime("%Y-%m-%d"), man["rows"],
                  int(man["body_bytes"]) / 2**20, man["sha256"][:12], bp_load,
                  reps), "",
              md_table(["layout", "MB", ".ibd MB", "SS %", "load s",
                        "load vs N"], load_rows), ""]
        md += perf_section(perf_rows) + perf_reads_md
        with open(os.path.join(out, "report.md"), "w") as fh:
            fh.write("\n".join(md) + "\n")
        return
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
              "\"8K@%s\"), side by side." % (",".join(settings.CODECS), settings.CODECS[-1])
              if settings.CODECS else ""), "",
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
