"""Experiment hotpath: callgrind of the same transactions on two mysqld
binaries (--mysqld-before and this build)."""

import os

from . import register
from .. import settings
from ..callgrind import (HOTPATH_FILES, callgrind_object_costs,
                         callgrind_run, callgrind_self_costs)
from ..layouts import Layout, TUNED_TABLES, codec_layouts, codec_opts, opts_for
from ..paths import work_path
from ..report import md_table, write_csv
from ..tpcc import load
from ..util import log


@register("hotpath")
def exp_hotpath(args, out):
    """callgrind of the same transactions on two mysqld binaries: the one
    given with --mysqld-before and this build, on tables that carry
    ENGINE_ATTRIBUTE options (the old code looked options up in a hash only
    once some table had them). With --codecs (issue 27): this build only,
    the same tables loaded and run once per codec, beside the uncompressed
    tables, with the instructions spent in each codec's library and in
    InnoDB's page compression files."""
    codecs = settings.CODECS
    if not args.mysqld_before and not codecs:
        log("hotpath: no --mysqld-before PATH given, measuring this build only")
    W = args.warehouses or 1
    events = 300
    reps = args.reps or 2
    opts = {"innodb_buffer_pool_size": "1G"}
    lay = Layout("l6own", opts_for(TUNED_TABLES, level=6))
    # (variant, mysqld binary, layout, server options)
    if codecs:
        none = Layout("none")
        variants = [("none", None, none, opts)] + [
            ("after@" + l2.codec, None, l2, codec_opts(opts, l2.codec))
            for l2 in codec_layouts([lay])]
    else:
        variants = ([("before", args.mysqld_before, lay, opts)]
                    if args.mysqld_before else []) + [("after", None, lay, opts)]
    loaded = set()
    for _, _, l2, o in variants:
        if l2.name not in loaded:
            load("hotpath", l2, W, o)
            loaded.add(l2.name)
    cgdir = work_path("callgrind-hotpath")
    rows = []
    for rep in range(reps):
        for name, binary, l2, o in variants:
            # Each variant's files of the last repetition stay for
            # callgrind_annotate.
            os.makedirs(cgdir, exist_ok=True)
            for f in os.listdir(cgdir):
                if f.startswith("cg." + name):
                    os.remove(os.path.join(cgdir, f))
            log("hotpath rep %d: callgrind %s (%d events)" % (rep + 1, name, events))
            prefix = os.path.join(cgdir, "cg." + name)
            ir = callgrind_run("hotpath", l2, W, o, binary, events, prefix)
            costs = callgrind_self_costs(prefix)
            row = {"variant": name, "rep": rep + 1, "events": events,
                   "instructions_per_tx": ir / events}
            for f in HOTPATH_FILES:
                row[f] = costs.get(f, 0) / events
            row["ours_per_tx"] = sum(costs.values()) / events
            if codecs:
                lib = callgrind_object_costs(prefix)
                for k in ("zlib", "isal", "page_zip"):
                    row[k + "_per_tx"] = lib.get(k, 0) / events
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
    if codecs:
        base = [r["instructions_per_tx"] for r in rows if r["variant"] == "none"]
        md += ["## Per codec (issue 27)", "",
               "The same %d transactions of the standard mix on %s, "
               "uncompressed (none) and compressed with each codec "
               "(innodb_compression_codec at load and run). Library: self "
               "instructions in libz / libisal; page_zip: InnoDB's "
               "page0zip.cc, zipdecompress.cc and the codec layer." %
               (events, ", ".join(TUNED_TABLES)), "",
               md_table(["variant", "rep", "instructions/tx", "vs none",
                         "zlib library/tx", "ISA-L library/tx",
                         "page_zip files/tx"],
                        [[r["variant"], r["rep"],
                          "%.0f" % r["instructions_per_tx"],
                          "%.2fx" % (r["instructions_per_tx"] / min(base))
                          if base else "-",
                          "%.0f" % r["zlib_per_tx"], "%.0f" % r["isal_per_tx"],
                          "%.0f" % r["page_zip_per_tx"]] for r in rows]), ""]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
