"""Experiment profile: a CPU profile (perf, each function's own time) per
configuration of the tuning workload, zlib and ISA-L side by side."""

import os
import re
import statistics
import subprocess
import time

from . import register
from ..datadir import copy_datadir
from ..layouts import Layout, TUNED_TABLES, opts_for
from ..metrics import parse_tpcc
from ..paths import work_path
from ..report import md_table, write_csv
from ..server import Server
from ..settings import TX_TYPES
from ..tpcc import load
from ..util import log


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


@register("profile")
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
          "function's own time, grouped by name "
          "(bench/harness/experiments/profile.py PROFILE_BUCKETS). CPU ms "
          "per transaction = samples x 2 ms / commits (2 cores sampled)."
          % (time.strftime("%Y-%m-%d"), secs, W, warm, reps), ""]
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
