"""Metrics of a run: tpcc.lua's summary, the table sizes, the compression
counters, performance_schema's waits and file I/O, INNODB_METRICS, and the
per-run figures between two snapshots."""

import re

from .settings import DB, TABLES, TX_TYPES
from .util import die


def parse_tpcc(out):
    """tpmC, tpm, seconds and per-type latencies from tpcc.lua's summary."""
    res = {}
    for line in out.splitlines():
        m = re.match(r"tpcc: seconds ([\d.]+) tpmC ([\d.]+) tpm ([\d.]+)", line)
        if m:
            res["seconds"] = float(m.group(1))
            res["tpmC"] = float(m.group(2))
            res["tpm"] = float(m.group(3))
        m = re.match(r"tpcc: delivery districts delivered (\d+) skipped "
                     r"(\d+)", line)
        if m:
            res["districts_delivered"] = int(m.group(1))
            res["districts_skipped"] = int(m.group(2))
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
        c = {"compress_ops": int(r[1]), "compress_ok": int(r[2]),
             "compress_usecs": int(r[3]), "uncompress_ops": int(r[4]),
             "uncompress_usecs": int(r[5]), "splits": int(r[6]),
             "pad": int(r[7]), "hint": r[8], "pad_bytes": int(r[9]),
             "log_full": int(r[10]), "updates": int(r[11]),
             "log_reserve": int(r[12]), "reorgs": int(r[13])}
        # A partitioned table has a row per partition: its counters are
        # the sum (the padding and its hint: the first partition's).
        t = out.get(r[0])
        if t is None:
            out[r[0]] = c
        else:
            for k, v in c.items():
                if k not in ("pad", "hint", "pad_bytes"):
                    t[k] += v
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
