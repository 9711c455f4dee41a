"""Experiment partitions (issue 48): SELECTIVE partition by partition.

order_line, the largest table, partitioned by order number as a table
partitioned by time is: p_old holds the loaded orders 1-2100 (delivered,
their lines' ol_delivery_d set and ol_amount 0: settled history), p_new the
undelivered 2101-3000 and every order New-Order inserts (3001 on), which
Delivery later updates. Three layouts side by side, in each repetition:

  PN  nothing compressed (order_line partitioned so);
  PA  every table and every partition at KEY_BLOCK_SIZE (ALL);
  PS  made from PN's copy by the advisor, as a DBA would:
      estimate_all(), then apply(schema, 'SELECTIVE', kbs, 0.10, FALSE):
      the delta-close tables compressed whole, and order_line, whose
      partitions may disagree, one partition at a time
      (ALTER TABLE ... REBUILD PARTITION p ROW_FORMAT=COMPRESSED ...);
  PT  PS's copy with order_line then compressed as a whole (ALTER TABLE
      order_line ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=kbs): what a DBA
      could do without a page size per partition, besides leaving it.

Measured: the bytes allocated to the files after the load (or the
conversion) and after each run, per partition of order_line, and the
standard mix's throughput, on each --device profile, --reps times.
"""

import hashlib
import json
import os
import time

from . import register
from ..datadir import (IN_USE, copy_datadir, ibd_alloc, ibd_alloc_parts,
                       ibd_split)
from ..device import device_list, pool_for_pct, pool_option, usable_devices
from ..layouts import COMPRESSED, Layout
from ..metrics import table_sizes
from ..paths import ADVISOR, BENCH, work_path
from ..report import md_table, ratio_spread, spread, write_csv
from ..server import Server
from ..settings import DB
from ..tpcc import (REBUILD_SEGMENT_RESERVE, estimate_schema, load,
                    measured_run)
from ..util import die, log

# p_old: the orders the loader delivers (1-2100 of each district's 3000,
# tpcc_load.sql); p_new: the rest and the inserts. The partitioning column
# is in order_line's primary key, as MySQL requires.
PARTITIONING = ("PARTITION BY RANGE (ol_o_id) ("
                "PARTITION p_old VALUES LESS THAN (2101), "
                "PARTITION p_new VALUES LESS THAN MAXVALUE)")
DELTA = 0.10
APPLY_CALL = ("CALL compression_advisor.apply('%s', 'SELECTIVE', %d, %s, "
              "FALSE, NULL, NULL)")


def layouts_for(kbs):
    """PN and PA, loaded by tpcc.lua prepare; PS and PT, made by
    make_selective() and make_whole()."""
    z = COMPRESSED % kbs
    return [
        Layout("PN", "order_line:" + PARTITIONING, kind="none",
               note="nothing compressed; order_line partitioned"),
        Layout("PA", "*:%s;order_line:%s %s" % (z, z, PARTITIONING),
               kind="zip", note="ALL: every table and partition at %d KB" % kbs),
        Layout("PS", kind="selective",
               note="SELECTIVE at %d KB, delta %.2f, applied by the "
               "advisor to PN's copy" % (kbs, DELTA)),
        Layout("PT", kind="selective",
               note="PS, then order_line compressed whole at %d KB" % kbs),
    ]


def selective_dir(base, kbs):
    """Where the PS copy is kept: named by the PN copy it is made from, the
    size, delta and the advisor's text (a changed advisor makes it anew)."""
    h = hashlib.sha1()
    h.update(("%s|%d|%s|%s" % (os.path.basename(base.saved), kbs, DELTA,
                               REBUILD_SEGMENT_RESERVE)).encode())
    h.update(open(ADVISOR, "rb").read())
    return os.path.join(BENCH, "data", "PS-%s" % h.hexdigest()[:10])


def converted_copy(lay, src, saved, load_opts, convert, reuse=True):
    """A copy of the kept data directory src converted by convert(srv),
    kept at saved (reused if there): sets lay.saved, lay.alloc, lay.split
    and the attributes of convert's dict (besides "secs", the conversion's
    seconds); returns (the conversion's seconds, table sizes)."""
    lay.saved = saved
    meta = saved + ".json"
    if reuse and os.path.exists(meta) and os.path.isdir(saved):
        os.utime(meta)
        IN_USE.add(os.path.abspath(saved))
        m = json.load(open(meta))
        log("reusing the %s copy (%s)" % (lay.name, os.path.basename(saved)))
    else:
        if os.path.exists(meta):
            os.remove(meta)
        copy_datadir(src, saved, allocation=True)
        srv = Server(saved, load_opts)
        srv.start()
        try:
            # The rebuilt trees keep the reserve the loads' trees keep.
            srv.sql("SET GLOBAL innodb_segment_reserve_factor = %s"
                    % REBUILD_SEGMENT_RESERVE)
            m = convert(srv)
            srv.sql("SET GLOBAL innodb_segment_reserve_factor = DEFAULT")
            m["sizes"] = table_sizes(srv)
        finally:
            srv.stop()
        m["alloc"], m["split"] = ibd_alloc(saved), ibd_split(saved)
        log("%s: converted in %.1f s, %.1f MB allocated" % (
            lay.name, m["secs"], sum(m["alloc"].values()) / 2**20))
        with open(meta, "w") as f:
            json.dump(m, f)
        IN_USE.add(os.path.abspath(saved))
    for k, v in m.items():
        if k not in ("secs", "sizes"):
            setattr(lay, k, v)
    return m["secs"], m["sizes"]


def make_selective(lay, base, kbs, load_opts):
    """PS: PN's copy, every table estimated, then SELECTIVE applied by the
    advisor. Sets lay.choices (COMPRESSION_STATS' verdicts: table,
    partition, SPACE_SAVINGS, SELECTIVE_VERDICT) and lay.applied (apply()'s
    rows: table, partition, action, statement, outcome, seconds)."""
    def convert(srv):
        srv.source(ADVISOR)
        est_s = estimate_schema(srv, "PS")
        choices = srv.sql(
            "SET SESSION compression_stats_target_key_block_size = %d; "
            "SET SESSION compression_stats_delta = %s; "
            "SELECT TABLE_NAME, IFNULL(PARTITION_NAME, ''), "
            "IFNULL(ROUND(SPACE_SAVINGS, 1), ''), SELECTIVE_VERDICT "
            "FROM information_schema.COMPRESSION_STATS "
            "WHERE TABLE_SCHEMA = '%s' ORDER BY TABLE_NAME, PARTITION_NAME"
            % (kbs, DELTA, DB))
        t0 = time.time()
        # apply(): TABLE_SCHEMA, TABLE_NAME, PARTITION_NAME, ACTION,
        # SPACE_SAVINGS, STATEMENT, OUTCOME, SECONDS per statement.
        applied = [[r[1], "" if r[2] == "NULL" else r[2], r[3], r[5], r[6],
                    r[7]] for r in srv.sql(APPLY_CALL % (DB, kbs, DELTA))
                   if len(r) >= 8]
        secs = time.time() - t0
        failed = [a for a in applied if not a[4].startswith("DONE")]
        if failed:
            die("PS: apply() failed: %s" % failed)
        return {"secs": secs, "estimate_s": est_s, "choices": choices,
                "applied": applied}
    return converted_copy(lay, base.saved, selective_dir(base, kbs),
                          load_opts, convert)


def make_whole(lay, ps, kbs, load_opts):
    """PT: PS's copy with order_line compressed as a whole (a table-level
    pair, which every partition takes)."""
    def convert(srv):
        t0 = time.time()
        srv.sql("ALTER TABLE %s.order_line %s" % (DB, COMPRESSED % kbs))
        return {"secs": time.time() - t0}
    return converted_copy(lay, ps.saved, ps.saved + "-PT", load_opts,
                          convert)


@register("partitions")
def exp_partitions(args, out):
    quick = args.quick
    W = args.warehouses or (1 if quick else 4)
    kbs = args.kbs or "8"
    if kbs not in ("1", "2", "4", "8"):
        die("--kbs: one KEY_BLOCK_SIZE of 1, 2, 4 or 8")
    kbs = int(kbs)
    threads = 8
    warm, secs = (3, 8) if quick else (10, args.secs or 30)
    reps = args.reps or (1 if quick else 3)
    mix = "standard"
    load_opts = {"innodb_buffer_pool_size": "1G"}
    devices, skipped = usable_devices(device_list(args.device), BENCH)
    if not devices:
        die("--device: no profile can run here")
    pn, pa, ps, pt = layouts_for(kbs)
    loads = {"PN": load("partitions", pn, W, load_opts, reuse=True),
             "PA": load("partitions", pa, W, load_opts, reuse=True)}
    # PS and PT: the seconds of their conversions (PT's after PS's).
    loads["PS"] = make_selective(ps, pn, kbs, load_opts)
    loads["PT"] = make_whole(pt, ps, kbs, load_opts)
    bp_run = "24M" if quick else "64M"
    if args.pool_pct:
        bp_run = pool_option(pool_for_pct(args.pool_pct,
                                          sum(loads["PN"][1].values())))
    run_opts = {"innodb_buffer_pool_size": bp_run}
    layouts = [pn, pa, ps, pt]
    load_parts = {l.name: ibd_alloc_parts(l.saved, "order_line")
                  for l in layouts}

    runs = []
    for rep in range(reps):
        for dev in devices:
            for lay in layouts:
                log("partitions rep %d %s %s" % (rep + 1, dev, lay.name))
                res, per_table = measured_run(
                    "partitions", lay, W, run_opts, mix, threads, warm, secs,
                    device=dev, sizes_after=True,
                    check=(rep == reps - 1 and dev == devices[0]))
                parts = ibd_alloc_parts(work_path("live-datadir"),
                                        "order_line")
                res.update({"layout": lay.name, "device": dev, "rep": rep + 1})
                # order_line's page compressions in the run, all partitions.
                ol = per_table.get("order_line", {})
                res["ol_compress_ops"] = ol.get("compress_ops", 0)
                res["ol_compress_failures"] = ol.get("failures", 0)
                res.update({"ol_%s_MB_after" % p: b / 2**20
                            for p, b in parts.items()})
                runs.append(res)
                log("  tpmC %.0f, %.1f MB allocated after" % (
                    res["tpmC"], res["alloc_MB_after"]))
    write_csv(os.path.join(out, "runs.csv"), runs)

    n_alloc = sum(pn.alloc.values())
    load_rows = []
    for lay in layouts:
        alloc = sum(lay.alloc.values())
        row = {"layout": lay.name, "note": lay.note,
               "load_s": loads[lay.name][0], "alloc_MB": alloc / 2**20,
               "alloc_SS": 100 * (1 - alloc / n_alloc) if n_alloc else 0,
               "order_line_MB": lay.alloc.get("order_line", 0) / 2**20}
        row.update({"ol_%s_MB" % p: b / 2**20
                    for p, b in load_parts[lay.name].items()})
        load_rows.append(row)
    write_csv(os.path.join(out, "loads.csv"), load_rows)
    write_csv(os.path.join(out, "selective.csv"),
              [dict(zip(("table", "partition", "SPACE_SAVINGS",
                         "SELECTIVE_VERDICT"), c)) for c in ps.choices])
    write_csv(os.path.join(out, "applied.csv"),
              [dict(zip(("table", "partition", "action", "statement",
                         "outcome", "seconds"), a)) for a in ps.applied])

    md = ["# Experiment partitions: SELECTIVE partition by partition",
          "",
          "Measured %s on this build. Data %s, %d warehouses, %d threads, "
          "buffer pool %s during the runs (1G while loading), %d s warm-up "
          "+ %d s of the %s mix per run, %d repetition(s), layouts "
          "interleaved; devices %s%s." % (
              time.strftime("%Y-%m-%d"), args.data, W, threads, bp_run, warm,
              secs, mix, reps, ", ".join(devices),
              " (skipped: %s)" % ", ".join(skipped) if skipped else ""),
          "", "order_line: `%s`." % PARTITIONING, "",
          "## What SELECTIVE said and did (PS)", "",
          md_table(["table", "partition", "SPACE_SAVINGS at %d KB" % kbs,
                    "verdict"], ps.choices), "",
          md_table(["table", "partition", "action", "statement", "outcome",
                    "seconds"], ps.applied), "",
          "## Space (bytes allocated to the files)", "",
          md_table(["layout", "what is compressed",
                    "load s (PS: apply, PT: its ALTER)",
                    "MB", "saved vs PN %", "order_line MB",
                    "p_old MB", "p_new MB"],
                   [[r["layout"], r["note"], "%.1f" % r["load_s"],
                     "%.1f" % r["alloc_MB"], "%.1f" % r["alloc_SS"],
                     "%.1f" % r["order_line_MB"],
                     "%.1f" % r.get("ol_p_old_MB", 0),
                     "%.1f" % r.get("ol_p_new_MB", 0)] for r in load_rows]),
          "", "## Throughput of the %s mix" % mix, ""]
    for dev in devices:
        rs = {l.name: [r for r in runs if r["layout"] == l.name and
                       r["device"] == dev] for l in layouts}
        tab = []
        for lay in layouts:
            r = rs[lay.name]
            tab.append([lay.name, spread([x["tpmC"] for x in r]),
                        ratio_spread([x["tpmC"] for x in r],
                                     [x["tpmC"] for x in rs["PN"]]),
                        ratio_spread([x["tpmC"] for x in r],
                                     [x["tpmC"] for x in rs["PA"]]),
                        spread([x["alloc_MB_after"] for x in r]),
                        spread([x.get("ol_p_new_MB_after", 0) for x in r]),
                        spread([x["ol_compress_ops"] for x in r]),
                        spread([x["ol_compress_failures"] for x in r]),
                        ", ".join(sorted({x.get("consistency", "")
                                          for x in r} - {""})) or "-"])
        md += ["Device profile %s:" % dev, "",
               md_table(["layout", "tpmC median (min-max)", "vs PN", "vs PA",
                         "MB allocated after the run", "p_new MB after",
                         "order_line compressions", "of which failed",
                         "consistency check"], tab), ""]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump({"warehouses": W, "threads": threads, "warm": warm,
                   "secs": secs, "reps": reps, "devices": devices,
                   "devices_skipped": skipped, "buffer_pool": bp_run,
                   "kbs": kbs, "delta": DELTA, "partitioning": PARTITIONING,
                   "choices": ps.choices, "applied": ps.applied}, f, indent=1)
