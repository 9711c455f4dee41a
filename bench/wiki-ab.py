#!/usr/bin/env python3
"""The Wikipedia load, two builds side by side (A/B), on one machine in one
run: the uncompressed load (N, build B) and the compressed load with build
A and with build B, interleaved, repeated; the compressed loads read back
by build B after a restart (one decompression per page). With
--callgrind, instead: the instructions of the LOAD DATA of the first MB of
the corpus, under callgrind, for N (build B), A and B, and the inclusive
cost of the functions of the compression path. With --scan-callgrind, the
instructions of a full scan after a restart (a decompression per page) of
the same data directory (the first MB of the corpus loaded by build B)
by build A and by build B.

  bench/wiki-ab.py --a A_MYSQLD [--b B_MYSQLD] [--reps 3] [--layout 8K]
  bench/wiki-ab.py --a A_MYSQLD --callgrind 25
  bench/wiki-ab.py --a A_MYSQLD --scan-callgrind 25

A_MYSQLD is typically a snapshot of an earlier build
(scripts/bench-snapshot.sh NAME prints its directory; the binary is
runtime_output_directory/mysqld); B defaults to this build's. Results:
bench/results/wiki-ab-<date>/ (runs.csv, callgrind.csv, scan-callgrind.csv; the callgrind
files themselves stay in the work directory, wiki-ab/callgrind-<variant>.out,
for callgrind_annotate). Uses the corpus
of bench/run.sh wiki (made once, 400 MB) and its table."""

import argparse
import csv
import datetime
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.harness.datadir import base_datadir, copy_datadir  # noqa: E402
from bench.harness.experiments.wiki import (WIKI_TABLE,  # noqa: E402
                                            wiki_corpus)
from bench.harness.paths import BENCH, BIN, work_path  # noqa: E402
from bench.harness.server import Server  # noqa: E402

LAYOUTS = {"N": "", "16K": "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=16",
           "8K": "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8",
           "4K": "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4"}
STATS = ("COMPRESS_OPS", "COMPRESS_OPS_OK", "COMPRESS_USECS", "ZIP_REORGS",
         "ZIP_REORGS_LOG_FULL", "ZIP_REORG_USECS_LOG_FULL")
# Inclusive instructions of these functions (callgrind_annotate).
# ... and of a scan's decompressions.
SCAN_FUNCS = ("page_zip_decompress_low", "isal_inflate_stateless", "inflate",
              "inflateInit2_", "page_zip_zalloc", "page_zip_inflate_zalloc",
              "mem_heap_add_block")
FUNCS = ("page_zip_compress_fit", "page_zip_reorganize", "page_create_zip",
         "btr_page_split_and_insert", "page_zip_lob_deflate",
         "isal_deflate", "create_hufftables_icf", "deflate")


def server_cpu_s(pid):
    f = open("/proc/%d/stat" % pid).read().split(")")[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def load(mysqld, layout, tsv, datadir, wrapper=None, cg_out=None, opts=None):
    """Loads tsv into a fresh data directory; returns a dict of figures.
    opts: more server options (--a-opt, --b-opt)."""
    copy_datadir(base_datadir(), datadir)
    srv = Server(datadir, dict({"innodb_buffer_pool_size": "256M",
                                "secure-file-priv": os.path.dirname(tsv)},
                               **(opts or {})),
                 mysqld=mysqld, wrapper=wrapper or [])
    srv.start(timeout=1200)
    r = {}
    try:
        srv.sql("CREATE DATABASE wiki")
        srv.sql(WIKI_TABLE % LAYOUTS[layout], db="wiki")
        if cg_out:
            subprocess.run(["callgrind_control", "-i", "on",
                            str(srv.proc.pid)], check=True,
                           stdout=subprocess.DEVNULL)
        cpu0 = server_cpu_s(srv.proc.pid)
        t0 = time.time()
        srv.sql("LOAD DATA INFILE '%s' INTO TABLE wiki CHARACTER SET utf8mb4 "
                "(id, title, body)" % tsv, db="wiki")
        r["load_s"] = round(time.time() - t0, 2)
        if cg_out:
            subprocess.run(["callgrind_control", "-i", "off",
                            str(srv.proc.pid)], check=True,
                           stdout=subprocess.DEVNULL)
        else:
            # Loading ends when the pages are on disk (bench/run.sh wiki).
            srv.sql("SET GLOBAL innodb_max_dirty_pages_pct = 0")
            while int(srv.status().get("Innodb_buffer_pool_pages_dirty",
                                       "0")) > 0:
                time.sleep(0.5)
            r["flushed_s"] = round(time.time() - t0, 2)
            r["server_cpu_s"] = round(server_cpu_s(srv.proc.pid) - cpu0, 2)
            # The table's file once flushed: what the load saves.
            r["file_size"] = int(srv.sql(
                "SELECT FILE_SIZE FROM information_schema.INNODB_TABLESPACES"
                " WHERE NAME = 'wiki/wiki'")[0][0])
            # The bytes of the pages the table uses (BLOB pages included),
            # finer than the file, which grows by whole extents.
            srv.sql("ANALYZE TABLE wiki", db="wiki")
            r["bytes_in_use"] = int(srv.sql(
                "SELECT DATA_LENGTH + INDEX_LENGTH FROM information_schema."
                "TABLES WHERE TABLE_SCHEMA = 'wiki' AND TABLE_NAME = 'wiki'"
            )[0][0])
        if layout != "N":
            row = srv.sql("SELECT %s FROM information_schema.COMPRESSION_STATS "
                          "WHERE TABLE_SCHEMA = 'wiki'" % ", ".join(STATS))[0]
            r.update({k.lower(): int(v) for k, v in zip(STATS, row)})
            st = srv.status()
            r["reorg_in_place"] = int(st.get("Innodb_zip_reorganize_in_place",
                                             "-1"))
            # Patch 0031; -1 on a build without it.
            r["appended"] = int(st.get("Innodb_zip_codec_compress_appended",
                                       "-1"))
    finally:
        srv.stop()
    return r


def readback(mysqld, datadir):
    """Decompressions of a full scan after a restart, and their time."""
    srv = Server(datadir, {"innodb_buffer_pool_size": "256M"}, mysqld=mysqld)
    srv.start()
    try:
        q = ("SELECT UNCOMPRESS_OPS, UNCOMPRESS_USECS FROM "
             "information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA='wiki'")
        u0 = srv.sql(q)[0]
        t0 = time.time()
        srv.sql("SELECT SUM(LENGTH(title)) FROM wiki.wiki")
        secs = time.time() - t0
        u1 = srv.sql(q)[0]
    finally:
        srv.stop()
    ops = int(u1[0]) - int(u0[0])
    return {"scan_s": round(secs, 2), "decompressions": ops,
            "us_per_decompression": round((int(u1[1]) - int(u0[1])) /
                                          max(ops, 1), 2)}


def corpus_head(tsv, mb, out_dir):
    """The first mb MB of the corpus, whole lines."""
    path = os.path.join(out_dir, "corpus-%dmb.tsv" % mb)
    with open(tsv, "rb") as f:
        d = f.read(mb * 1000 * 1000)
    with open(path, "wb") as f:
        f.write(d[:d.rfind(b"\n") + 1])
    return path


def callgrind_funcs(out, funcs=FUNCS):
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes",
                           "--threshold=100", out],
                          capture_output=True, text=True).stdout
    costs = {}
    for line in text.splitlines():
        m = re.match(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S+):(\S[^(\[]*)", line)
        if not m:
            continue
        name = m.group(3).strip().split("::")[-1]
        if name in funcs and "[" in line:
            costs[name] = max(costs.get(name, 0),
                              int(m.group(1).replace(",", "")))
    total = 0
    for line in open(out):
        if line.startswith("totals:"):
            total = int(line.split()[1])
    return total, costs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", required=True, help="mysqld of build A")
    ap.add_argument("--b", default=os.path.join(BIN, "mysqld"),
                    help="mysqld of build B (default: this build)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--layout", default="8K", choices=sorted(LAYOUTS))
    ap.add_argument("--callgrind", type=int, default=0, metavar="MB",
                    help="instructions of a load of the corpus' first MB")
    ap.add_argument("--scan-callgrind", type=int, default=0, metavar="MB",
                    help="instructions of a scan after a restart, A and B")
    ap.add_argument("--corpus", default=None, metavar="TSV",
                    help="another corpus of the same columns (id, title, "
                    "body), e.g. random strings (bench/wiki/make_random.py); "
                    "results then go to wiki-ab-<date>-<corpus name>/")
    ap.add_argument("--a-opt", action="append", default=[],
                    metavar="NAME=VALUE",
                    help="a server option of build A's compressed loads")
    ap.add_argument("--b-opt", action="append", default=[],
                    metavar="NAME=VALUE",
                    help="a server option of build B's compressed loads, "
                    "e.g. innodb_compression_append=ON (docs/benchmarks/codecs.md 6n)")
    ap.add_argument("--tag", default=None,
                    help="results go to wiki-ab-<date>[-<corpus>]-<tag>/")
    args = ap.parse_args()

    out_dir = os.path.join(ROOT, "bench", "results", "wiki-ab-%s" %
                           datetime.date.today().strftime("%Y%m%d"))
    if args.corpus:
        tsv = os.path.abspath(args.corpus)
        out_dir += "-" + os.path.splitext(os.path.basename(tsv))[0]
    else:
        tsv, _ = wiki_corpus(400)
    if args.tag:
        out_dir += "-" + args.tag
    os.makedirs(out_dir, exist_ok=True)
    datadir = os.path.join(BENCH, "data", "wiki-ab")
    variants = [("N", args.b, "N"), ("A", args.a, args.layout),
                ("B", args.b, args.layout)]
    opts = {"N": {},
            "A": dict(o.split("=", 1) for o in args.a_opt),
            "B": dict(o.split("=", 1) for o in args.b_opt)}

    if args.scan_callgrind:
        tmp = work_path("wiki-ab")
        os.makedirs(tmp, exist_ok=True)
        head = corpus_head(tsv, args.scan_callgrind, tmp)
        load(args.b, args.layout, head, datadir, opts=opts["B"])
        rows = []
        for name, mysqld in (("A", args.a), ("B", args.b)):
            live = datadir + "-scan"
            copy_datadir(datadir, live)
            cg = os.path.join(tmp, "scan-callgrind-%s.out" % name)
            for f in os.listdir(tmp):
                if f.startswith(os.path.basename(cg)):
                    os.remove(os.path.join(tmp, f))
            srv = Server(live, {"innodb_buffer_pool_size": "256M"},
                         mysqld=mysqld,
                         wrapper=["valgrind", "--tool=callgrind",
                                  "--instr-atstart=no",
                                  "--callgrind-out-file=" + cg])
            srv.start(timeout=1200)
            try:
                subprocess.run(["callgrind_control", "-i", "on",
                                str(srv.proc.pid)], check=True,
                               stdout=subprocess.DEVNULL)
                srv.sql("SELECT SUM(LENGTH(title)) FROM wiki.wiki")
                subprocess.run(["callgrind_control", "-i", "off",
                                str(srv.proc.pid)], check=True,
                               stdout=subprocess.DEVNULL)
                ops = int(srv.sql(
                    "SELECT UNCOMPRESS_OPS FROM information_schema."
                    "COMPRESSION_STATS WHERE TABLE_SCHEMA = 'wiki'")[0][0])
            finally:
                srv.stop()
            total, costs = callgrind_funcs(cg, SCAN_FUNCS)
            row = dict(variant=name, layout=args.layout,
                       mb=args.scan_callgrind, instructions=total,
                       decompressions=ops)
            row.update({"incl:" + k: costs.get(k, 0) for k in SCAN_FUNCS})
            rows.append(row)
            print(row, flush=True)
            shutil.rmtree(live, ignore_errors=True)
        with open(os.path.join(out_dir, "scan-callgrind.csv"), "w") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        shutil.rmtree(datadir, ignore_errors=True)
        return

    if args.callgrind:
        tmp = work_path("wiki-ab")
        os.makedirs(tmp, exist_ok=True)
        head = corpus_head(tsv, args.callgrind, tmp)
        rows = []
        for name, mysqld, layout in variants:
            cg = os.path.join(tmp, "callgrind-%s.out" % name)
            for f in os.listdir(tmp):
                if f.startswith(os.path.basename(cg)):
                    os.remove(os.path.join(tmp, f))
            r = load(mysqld, layout, head, datadir,
                     wrapper=["valgrind", "--tool=callgrind",
                              "--instr-atstart=no",
                              "--callgrind-out-file=" + cg], cg_out=cg,
                     opts=opts[name])
            total, costs = callgrind_funcs(cg)
            row = dict(variant=name, layout=layout, mb=args.callgrind,
                       instructions=total, **r)
            row.update({"incl:" + k: costs.get(k, 0) for k in FUNCS})
            rows.append(row)
            print(row, flush=True)
        keys = sorted({k for r in rows for k in r},
                      key=lambda k: (not k.startswith("variant"), k))
        with open(os.path.join(out_dir, "callgrind.csv"), "w") as f:
            w = csv.DictWriter(f, fieldnames=keys)
            w.writeheader()
            w.writerows(rows)
        shutil.rmtree(datadir, ignore_errors=True)
        return

    path = os.path.join(out_dir, "runs.csv")
    new = not os.path.exists(path)
    fields = ["rep", "variant", "layout", "mysqld", "load_s", "flushed_s",
              "server_cpu_s", "file_size", "bytes_in_use"] + [
                  s.lower() for s in STATS] + [
                  "reorg_in_place", "appended", "scan_s", "decompressions",
                  "us_per_decompression"]
    with open(path, "a") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        if new:
            w.writeheader()
        for rep in range(args.reps):
            for name, mysqld, layout in variants:
                r = load(mysqld, layout, tsv, datadir, opts=opts[name])
                if layout != "N":
                    r.update(readback(args.b, datadir))
                row = dict(rep=rep, variant=name, layout=layout,
                           mysqld=mysqld, **r)
                w.writerow(row)
                f.flush()
                print(row, flush=True)
    shutil.rmtree(datadir, ignore_errors=True)


if __name__ == "__main__":
    main()
