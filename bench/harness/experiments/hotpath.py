"""Experiment hotpath: callgrind of the same transactions on two mysqld
binaries (--mysqld-before and this build)."""

import os
import shutil

from . import register
from ..callgrind import HOTPATH_FILES, callgrind_run, callgrind_self_costs
from ..layouts import Layout, TUNED_TABLES, opts_for
from ..paths import work_path
from ..report import md_table, write_csv
from ..tpcc import load
from ..util import log


@register("hotpath")
def exp_hotpath(args, out):
    """callgrind of the same transactions on two mysqld binaries: the one
    given with --mysqld-before and this build, on tables that carry
    ENGINE_ATTRIBUTE options (the old code looked options up in a hash only
    once some table had them)."""
    if not args.mysqld_before:
        log("hotpath: no --mysqld-before PATH given, measuring this build only")
    W = args.warehouses or 1
    events = 300
    reps = args.reps or 2
    opts = {"innodb_buffer_pool_size": "1G"}
    lay = Layout("l6own", opts_for(TUNED_TABLES, level=6))
    load("hotpath", lay, W, opts)
    cgdir = work_path("callgrind-hotpath")
    rows = []
    for rep in range(reps):
        variants = ([("before", args.mysqld_before)] if args.mysqld_before
                    else []) + [("after", None)]
        for name, binary in variants:
            shutil.rmtree(cgdir, ignore_errors=True)
            os.makedirs(cgdir)
            log("hotpath rep %d: callgrind %s (%d events)" % (rep + 1, name, events))
            prefix = os.path.join(cgdir, "cg." + name)
            ir = callgrind_run("hotpath", lay, W, opts, binary, events, prefix)
            costs = callgrind_self_costs(prefix)
            row = {"variant": name, "rep": rep + 1, "events": events,
                   "instructions_per_tx": ir / events}
            for f in HOTPATH_FILES:
                row[f] = costs.get(f, 0) / events
            row["ours_per_tx"] = sum(costs.values()) / events
            rows.append(row)
            log("  %.0f instructions/tx, %.0f in %s" % (
                row["instructions_per_tx"], row["ours_per_tx"],
                "+".join(HOTPATH_FILES)))
    write_csv(os.path.join(out, "callgrind.csv"), rows)
    md = ["# Hot path before and after (callgrind, %d events, 1 thread, seed 1)"
          % events, "",
          "Tables with ENGINE_ATTRIBUTE compression_level 6, KEY_BLOCK_SIZE=8; "
          "before: %s" % (args.mysqld_before or "not measured"), "",
          md_table(["variant", "rep", "instructions/tx (whole server)"]
                   + ["%s self/tx" % f for f in HOTPATH_FILES]
                   + ["ours/tx"],
                   [[r["variant"], r["rep"], "%.0f" % r["instructions_per_tx"]]
                    + ["%.0f" % r[f] for f in HOTPATH_FILES]
                    + ["%.0f" % r["ours_per_tx"]] for r in rows]), ""]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
