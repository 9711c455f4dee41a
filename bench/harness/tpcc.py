"""The TPC-C-like database: loading a layout (kept copies), the CHOOSE
conversion, rebuilds, the estimates and ALTER TABLE of the uncompressed
copy, and the measured run."""

import hashlib
import json
import os
import time

from . import settings
from .datadir import (IN_USE, base_datadir, copy_datadir, ibd_alloc,
                      ibd_split)
from .device import DEVICE_PROFILES, IoThrottle
from .layouts import codec_opts
from .metrics import diff_snapshots, parse_tpcc, snapshot, table_sizes
from .paths import ADVISOR, BENCH, ROOT, work_path
from .perf import perf_record_stacks, perf_stack_buckets
from .server import Server
from .settings import DB, TABLES, TX_TYPES
from .util import log


def layout_dir(layout, warehouses):
    """Where the loaded copy of a layout is kept: named by a digest of all
    that makes it (warehouses, options, padding, the loader)."""
    h = hashlib.sha1()
    h.update(("%d|%s|%s" % (warehouses, layout.table_options,
                            layout.padding)).encode())
    if layout.rebuild_free_pct is not None:
        h.update(("|rebuild %d|segment reserve %s" % (
            layout.rebuild_free_pct, REBUILD_SEGMENT_RESERVE)).encode())
    if settings.DATA != "spec":
        h.update(("|data %s" % settings.DATA).encode())
    if settings.LOAD_THREADS != 2:
        h.update(("|load threads %d" % settings.LOAD_THREADS).encode())
    codec = layout.codec or settings.CODEC
    if codec and layout.kind == "zip":
        h.update(("|codec %s" % codec).encode())
    for f in ("tpcc_schema_dbt2.sql" if settings.DATA == "dbt2" else "tpcc_schema.sql",
              "tpcc_load.sql"):
        h.update(open(os.path.join(ROOT, "scripts", "accuracy", f), "rb").read())
    return os.path.join(BENCH, "data", "%s-%s-%dwh-%s" % (
        layout.name, settings.DATA, warehouses, h.hexdigest()[:10]))


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
        out = srv.sysbench(["--threads=%d" % settings.LOAD_THREADS,
                            "--table-options=" + layout.table_options,
                            "--padding=" + layout.padding, "--data=" + settings.DATA,
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
                                     settings.CODEC)).encode())
    h.update(open(ADVISOR, "rb").read())
    return os.path.join(BENCH, "data", "CH-%s-%s" % (mix, h.hexdigest()[:10]))


def estimate_schema(srv, who):
    """compression_advisor.estimate_all() of the benchmark's schema; logs
    a table it could not estimate; returns the seconds it took."""
    t0 = time.time()
    for r in srv.sql("CALL compression_advisor.estimate_all('%s', NULL)"
                     % DB):
        if len(r) >= 3 and r[2].startswith("ERROR"):
            log("%s: estimating %s: %s" % (who, r[1], r[2]))
    return time.time() - t0


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
        est_s = estimate_schema(srv, "CHOOSE")
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
# same rows inserted in key order leave almost none (docs/benchmarks/paper.md, 1b).
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
