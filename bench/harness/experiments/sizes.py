"""Experiment sizes: the per-table savings alone (the paper's Table 4):
loaded, ALTER TABLE, estimated."""

import os
import time

from . import register
from .. import settings
from ..layouts import COMPRESSED, Layout
from ..report import md_table, write_csv
from ..settings import TABLES
from ..tpcc import REBUILD_SEGMENT_RESERVE, alter_sizes, load, selective_tables


PAPER_SS = {"stock": 34, "order_line": 49, "customer": 27, "orders": 50,
            "history": 50, "new_orders": 43, "item": 33, "district": 44,
            "warehouse": 35}


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


@register("sizes")
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
          "T_ss, against full pages)." % (time.strftime("%Y-%m-%d"), settings.DATA,
                                           W, REBUILD_SEGMENT_RESERVE), "",
          table, "",
          "ALTER seconds: " + "; ".join(
              "%d KB %.1f" % (k, sum(alter_secs[k].values())) for k in kbss), ""]
    with open(os.path.join(out, "report.md"), "w") as fh:
        fh.write("\n".join(md) + "\n")
