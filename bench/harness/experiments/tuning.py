"""Experiment tuning (Callaghan): level 6 / 1, padding, page logging, the log
reserve, tight rebuilds, PZ, PL, CH; cached, write-heavy."""

import os
import statistics
import time

from . import register
from .. import settings
from ..device import (device_list, pool_for_pct, pool_option, profile_text,
                      usable_devices)
from ..layouts import (Layout, TUNED_TABLES, choose_layout, codec_layouts,
                       codec_opts, opts_for, page_layouts)
from ..paths import BENCH
from ..plots import bar_plot
from ..report import (md_table, med3, med_of, ratio_spread, spread,
                      time_split_table, write_csv)
from ..settings import DB, TABLES, TX_TYPES
from ..tpcc import (CHOOSE_CALL, CHOOSE_MIN_WARM, load, make_choose,
                    measured_run, selective_tables)
from ..util import die, log


# ---------------------------------------------------------------------------
# Experiment: tuning (Callaghan: level, padding, page logging; cached)

CALLAGHAN = [("no compression", 54331), ("level 6", 2511), ("level 1", 3262),
             ("padding + level 6", 11916), ("padding + level 1", 16923),
             ("partitioning + padding + level 1", 26150),
             ("+ no compressed-page logging", 27417)]


def codec_variants(configs):
    """--codecs zlib,isal: every compressed configuration once per codec,
    side by side in each repetition ("l1@isal"), each loaded and run with
    its codec; "none" once (codec_layouts())."""
    return [(name, lay, extra, desc) if l2 is lay else
            (name + "@" + l2.codec, l2, codec_opts(extra, l2.codec),
             desc + " [%s]" % l2.codec)
            for name, lay, extra, desc in configs
            for l2 in codec_layouts([lay])]


@register("tuning")
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
          (time.strftime("%Y-%m-%d"), settings.DATA, W, threads, pool, warm, secs,
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
