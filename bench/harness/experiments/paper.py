"""Experiment paper (Lee 2015): N, A and SELECTIVE at 8 and 4 KB, I/O bound,
both mixes; --device, --pool-pct, layouts PZ, PL, CH, --perf."""

import json
import os
import re
import statistics
import time

from . import register
from .. import settings
from ..device import (device_list, pool_for_pct, pool_option, profile_text,
                      usable_devices)
from ..layouts import (COMPRESSED, Layout, choose_layout, codec_field,
                       codec_layouts, codec_names, codec_opts, page_layouts)
from ..paths import BENCH
from ..perf import STACK_BUCKETS, STACK_REST
from ..plots import bar_plot, stacked_plot
from ..report import (md_table, med3, med_of, ratio_spread, spread,
                      time_split_table, write_csv)
from ..settings import DB, TABLES
from ..tpcc import (CHOOSE_CALL, CHOOSE_MIN_WARM, alter_sizes, load,
                    make_choose, measured_run, selective_tables)
from ..util import die, log
from .sizes import size_report


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
        return "A%d" % kbss[0] + ("@" + settings.CODECS[0] if settings.CODECS else "")
    return None


@register("paper")
def exp_paper(args, out):
    quick = args.quick
    W = args.warehouses or (1 if quick else 4)
    bp_run = "24M" if quick else "64M"
    kbss = ([int(k) for k in args.kbs.split(",")] if args.kbs
            else [8] if quick else [8, 4])
    if any(k not in (1, 2, 4, 8) for k in kbss):
        die("--kbs: KEY_BLOCK_SIZEs of 1, 2, 4 or 8")
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
    # (cs_advice.cc, delta_close()): it only gets there because its
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
    if settings.CODECS:
        report["codecs"] = settings.CODECS
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
    for k in settings.CODECS or [None]:
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


def skipped_pct(rs):
    """Median share of Delivery's districts skipped for want of an
    undelivered order, '-' for runs of an older tpcc.lua."""
    v = [100.0 * r["districts_skipped"] /
         max(r["districts_delivered"] + r["districts_skipped"], 1)
         for r in rs if "districts_skipped" in r]
    return "%.1f" % statistics.median(v) if v else "-"


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
              time.strftime("%Y-%m-%d"), settings.DATA, W, threads, pool, warm, secs,
              reps) + (
              " Every compressed layout once per codec (--codecs %s: "
              "\"A8@%s\"), side by side; SELECTIVE on measured SS by the "
              "sizes of %s." % (",".join(settings.CODECS), settings.CODECS[-1], settings.CODECS[0])
              if settings.CODECS else ""),
          "",
          "Storage profiles (--device): %s. A throttled profile limits the "
          "server's reads and writes to its disk with the kernel's block I/O "
          "controller during the warm-up and the measurement "
          "(bench/harness/device.py DEVICE_PROFILES, IoThrottle); loading, "
          "the CHOOSE conversion, the estimates, the consistency check and the "
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
                    skipped_pct(rs),
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
                             "file I/O ms/tx", "reads/s",
                             "Delivery districts skipped %", "consistency"],
                            rows), ""]
            if any(r.get("districts_skipped", 0) > 0.01 * max(
                    r.get("districts_delivered", 0) +
                    r.get("districts_skipped", 0), 1)
                   for lay in run_layouts for r in by[lay.name]):
                md += ["More than 1 % of Delivery's districts were skipped "
                       "(new_orders ran empty) in some runs: TPC-C allows "
                       "1 % (clause 2.7.4.2). There a Delivery is ten empty "
                       "locking reads, so their transactions per minute "
                       "count less work than those of runs without skips.",
                       ""]
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
          "sample counts in the first bucket of bench/harness/perf.py "
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
