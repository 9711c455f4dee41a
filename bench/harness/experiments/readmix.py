"""Experiment readmix: the read mix with compressed tables (N, A8, S8m),
eviction counters of INNODB_METRICS (patch 0024)."""

import os
import statistics
import time

from . import register
from .. import settings
from ..device import device_list, usable_devices
from ..layouts import COMPRESSED, Layout
from ..paths import BENCH
from ..report import md_table, med_of, ratio_spread, spread, write_csv
from ..settings import TABLES
from ..tpcc import load, measured_run
from ..util import die, log


@register("readmix")
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
    if args.secs:
        # A slow profile (hdd) completes a few dozen transactions in 30 s.
        secs = args.secs
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
    for policy in (args.unzip_policy or "").split(","):
        # policies of patches 0025 and 0036 beside the default (AUTO)
        if policy:
            variants.append((policy,
                             {"innodb_buffer_pool_unzip_lru_policy": policy}))
    # --device: the storage profiles the runs are repeated on (issue 46:
    # where reads are slow the frame-freeing side must win).
    devices, skipped = usable_devices(device_list(args.device), BENCH)
    if not devices:
        die("--device: no profile can run here")
    rows, tables = [], []
    for rep, device in ((r, d) for r in range(reps) for d in devices):
        # Each repetition starts the policies at another one (a rotation),
        # so that an order effect (a warmer host cache for the later runs)
        # does not favour one policy in every repetition.
        k = rep % len(variants)
        order = variants[k:] + variants[:k]
        for pool in pools:
            for vname, vopts in order:
                for lay in layouts:
                    if vname != "default" and lay.kind != "zip":
                        continue
                    opts = dict({"innodb_buffer_pool_size": pool,
                                 "innodb_monitor_enable": "buffer_LRU%"},
                                **vopts)
                    log("readmix rep %d %s pool %s %s %s" % (
                        rep + 1, device, pool, vname, lay.name))
                    res, per_table = measured_run(
                        "readmix", lay, W, opts, "read", threads, warm, secs,
                        device=None if device == "native" else device)
                    res.update({"layout": lay.name, "pool": pool,
                                "policy": vname, "rep": rep + 1,
                                "device": device})
                    rows.append(res)
                    for t, v in per_table.items():
                        tables.append({"layout": lay.name, "pool": pool,
                                       "policy": vname, "rep": rep + 1,
                                       "device": device,
                                       "table": t, **v})
                    log("  tpm %.0f, reads/tx %.1f, decompressions/tx %.1f, "
                        "districts delivered %d skipped %d" % (
                        res["tpm"], res["data_reads"] / max(res["commits"], 1),
                        res["uncompress_ops"] / max(res["commits"], 1),
                        res.get("districts_delivered", 0),
                        res.get("districts_skipped", 0)))
    write_csv(os.path.join(out, "runs.csv"), rows)
    write_csv(os.path.join(out, "tables.csv"), tables)
    md = []
    for device in devices:
        if len(devices) > 1 or device != "native":
            md += ["## Storage profile: %s" % device, ""]
        md += readmix_report([r for r in rows if r["device"] == device],
                             [t for t in tables if t["device"] == device],
                             layouts, pools, variants, W, threads, warm,
                             secs, reps)
    if skipped:
        md += ["Profiles that cannot run here (no writable cgroup): %s" %
               ", ".join(skipped), ""]
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
          "= evict from the common LRU because the load is judged "
          "CPU-bound: with AUTO, patch 0036, the decompressions of freed "
          "frames took more time than the page reads threads waited for, "
          "weighed by the CPUs' idle share; "
          "with UPSTREAM decompressions outnumber 50 x the I/O; slack = "
          "the unzip_LRU holds at most 10 %% of the LRU), the waits of user threads for a free block "
          "(Innodb_buffer_pool_wait_free, per 1000 transactions). "
          "Districts delivered and skipped: a Delivery visits the 10 "
          "districts of a warehouse and skips a district without an "
          "undelivered order (TPC-C clause 2.7.4.2 allows at most 1 %% "
          "skipped); with 1 %% New-Orders the read mix can empty "
          "new_orders, after which a Delivery is ten empty locking reads, "
          "so compare layouts by districts delivered, not by tpm, where "
          "skips are above 1 %%." % (
              time.strftime("%Y-%m-%d"), settings.DATA, W, threads, warm, secs, reps),
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
                    "%.0f" % statistics.median(
                        60.0 * r.get("districts_delivered", 0) /
                        max(r["seconds"], 1) for r in rs),
                    "%.1f" % statistics.median(
                        100.0 * r.get("districts_skipped", 0) /
                        max(r.get("districts_delivered", 0) +
                            r.get("districts_skipped", 0), 1) for r in rs),
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
    md += [md_table(["layout", "pool", "tpm", "vs N",
                     "districts delivered/min", "districts skipped %",
                     "page reads/tx",
                     "decompressions/tx", "frames freed/tx",
                     "compressed pages evicted/tx", "decide unzip/tx",
                     "decide LRU (cpu)/tx", "decide LRU (slack)/tx",
                     "free-block waits/1000 tx", "row lock ms/tx",
                     "index latch ms/tx", "decompression ms/tx",
                     "compression ms/tx"], tab), ""]
    md += policy_comparison(rows, layouts, pools, variants)
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


def policy_comparison(rows, layouts, pools, variants):
    """Issue 46's table: per pool and compressed layout, the districts
    delivered per minute of each unzip_LRU policy, AUTO's ratio to UPSTREAM
    and to the best fixed policy (UNZIP or LRU), paired by repetition (the
    policies of a repetition ran one after the other on the same load)."""
    names = [v for v, _ in variants]
    if len(names) < 2:
        return []

    def dpm(r):
        return 60.0 * r.get("districts_delivered", 0) / max(r["seconds"], 1)

    tab = []
    for pool in pools:
        for lay in layouts:
            if lay.kind != "zip":
                continue
            by = {v: {r["rep"]: dpm(r) for r in rows
                      if r["layout"] == lay.name and r["pool"] == pool and
                      r["policy"] == v} for v in names}
            if not by["default"]:
                continue
            reps = sorted(by["default"])

            def ratio(other):
                pairs = [(by["default"][k], by[other][k]) for k in reps
                         if k in by.get(other, {})]
                return ratio_spread([a for a, _ in pairs],
                                    [b for _, b in pairs])

            fixed = [v for v in ("UNZIP", "LRU") if by.get(v)]
            best = ratio_spread(
                [by["default"][k] for k in reps
                 if all(k in by[v] for v in fixed)],
                [max(by[v][k] for v in fixed) for k in reps
                 if all(k in by[v] for v in fixed)]) if fixed else "-"
            tab.append([lay.name, pool] +
                       [spread(list(by[v].values())) for v in names] +
                       [ratio("UPSTREAM") if by.get("UPSTREAM") else "-",
                        best])
    if not tab:
        return []
    head = ["layout", "pool"] + [
        "AUTO" if v == "default" else v for v in names] + [
        "AUTO vs UPSTREAM", "AUTO vs the better of UNZIP and LRU"]
    return ["The unzip_LRU policies side by side (issue 46): districts "
            "delivered per minute, median (min-max) over the repetitions; "
            "ratios paired by repetition, median (min-max). AUTO is the "
            "default (patch 0036).", "", md_table(head, tab), ""]
