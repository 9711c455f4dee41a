"""Experiment overhead: the always-on counters against a build with them
compiled out and upstream's innodb_cmp_per_index_enabled."""

import csv
import hashlib
import os
import re
import shutil
import statistics
import subprocess
import time

from . import register
from ..callgrind import HOTPATH_FILES, callgrind_run, callgrind_self_costs
from ..layouts import Layout, TUNED_TABLES, opts_for
from ..paths import BENCH, BIN, BUILD, ROOT, work_path
from ..plots import bar_plot
from ..report import md_table, med3, ratio_spread, spread, write_csv
from ..tpcc import load, measured_run
from ..util import die, log


# ---------------------------------------------------------------------------
# Experiment: overhead of the always-on counters

def zip_stat_off_binary():
    """mysqld with the per-table counters compiled out, the baseline of the
    overhead experiment. bench/overhead/zip-stat-off.patch is applied to a
    copy of dict0zip_stat.cc (the source the build compiled), the copy is
    compiled with the compile command of the real object, and a second
    mysqld is linked with the link command of the real one, the object
    replaced in a copy of libinnobase.a. The build tree is only read (the
    default mysqld must be built); made once per default binary and patch."""
    dst = os.path.join(BENCH, "bin", "mysqld-zip-stat-off")
    src = os.path.join(BIN, "mysqld")
    stamp = dst + ".for"
    patch = os.path.join(ROOT, "bench", "overhead", "zip-stat-off.patch")
    obj = "storage/innobase/CMakeFiles/innobase.dir/dict/dict0zip_stat.cc.o"
    lib = "storage/innobase/libinnobase.a"
    exe = os.path.relpath(src, BUILD)

    def ident():
        st = os.stat(src)
        with open(patch, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:16]
        return "%d %d %s" % (st.st_size, st.st_mtime_ns, digest)
    if not os.path.exists(src):
        raise RuntimeError("no %s: build the default mysqld first" % src)
    # Made for the current default binary and patch: still good.
    if os.path.exists(dst) and os.path.exists(stamp) and \
            open(stamp).read() == ident():
        return dst

    def own_command(target):
        """The command that builds a target itself (the last of those ninja
        lists for it); reads build.ninja only."""
        out = subprocess.run(["ninja", "-C", BUILD, "-t", "commands", target],
                             check=True, stdout=subprocess.PIPE,
                             text=True).stdout
        lines = [l for l in out.splitlines() if l.strip()]
        if not lines:
            raise RuntimeError("build.ninja has no command for " + target)
        return lines[-1]

    log("building the counters-off mysqld (bench/overhead/zip-stat-off.patch)")
    work = os.path.join(BENCH, "zip-stat-off")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "obj"))
    os.makedirs(os.path.dirname(dst), exist_ok=True)

    # The source of the real object, from its compile command.
    compile_cmd = own_command(obj)
    m = re.search(r" -c (\S+)$", compile_cmd)
    if m is None or " -o %s " % obj not in compile_cmd:
        raise RuntimeError("unexpected compile command for " + obj)
    rel = "storage/innobase/dict/dict0zip_stat.cc"
    copy = os.path.join(work, "src", rel)
    os.makedirs(os.path.dirname(copy))
    shutil.copy2(os.path.join(BUILD, m.group(1)), copy)
    subprocess.run(["patch", "-p1", "--fuzz=0", "--no-backup-if-mismatch",
                    "-s", "-d", os.path.join(work, "src"), "-i", patch],
                   check=True)
    # The same command, on the copy (its file name, which picks the memory
    # key, unchanged), writing into the work directory only.
    off_obj = os.path.join(work, "obj", "dict0zip_stat.cc.o")
    cmd = compile_cmd[:m.start()] + " -c " + copy
    cmd = cmd.replace(" -o %s " % obj, " -o %s " % off_obj)
    cmd = re.sub(r" -MF \S+", " -MF %s.d" % off_obj, cmd)
    cmd = re.sub(r" -MT \S+", " -MT %s" % off_obj, cmd)
    subprocess.run(cmd, shell=True, cwd=BUILD, check=True,
                   stdout=subprocess.DEVNULL)
    # libinnobase.a with the object replaced (ar r replaces the member of
    # the same name), linked as the real mysqld is.
    off_lib = os.path.join(work, "libinnobase.a")
    shutil.copy2(os.path.join(BUILD, lib), off_lib)
    members = subprocess.run(["ar", "t", off_lib], check=True,
                             stdout=subprocess.PIPE, text=True).stdout.split()
    if members.count("dict0zip_stat.cc.o") != 1:
        raise RuntimeError("libinnobase.a does not hold dict0zip_stat.cc.o once")
    subprocess.run(["ar", "r", off_lib, off_obj], check=True)
    link_cmd = own_command(exe)
    if link_cmd.count(" -o %s " % exe) != 1 or " %s " % lib not in link_cmd:
        raise RuntimeError("unexpected link command for " + exe)
    link_cmd = link_cmd.replace(" -o %s " % exe, " -o %s.tmp " % dst)
    link_cmd = link_cmd.replace(" %s " % lib, " %s " % off_lib)
    subprocess.run(link_cmd, shell=True, cwd=BUILD, check=True,
                   stdout=subprocess.DEVNULL)
    os.rename(dst + ".tmp", dst)
    with open(stamp, "w") as f:
        f.write(ident())
    shutil.rmtree(work, ignore_errors=True)
    return dst


@register("overhead")
def exp_overhead(args, out):
    quick = args.quick
    W = args.warehouses or 1
    threads = 8
    warm, secs = (3, 8) if quick else (10, 20)
    reps = args.reps or (1 if quick else 3)
    events = 300
    off = zip_stat_off_binary()
    load_opts = {"innodb_buffer_pool_size": "1G"}
    run_opts = {"innodb_buffer_pool_size": "1G"}
    lay = Layout("l6", opts_for(TUNED_TABLES))
    load("overhead", lay, W, load_opts)
    variants = [
        ("ours", None, {}, "always-on per-table counters (this build)"),
        ("off", off, {}, "the same build, counters compiled out (bench/overhead/zip-stat-off.patch)"),
        ("upstream_cmp", None, {"innodb_cmp_per_index_enabled": "ON"},
         "this build + upstream's innodb_cmp_per_index_enabled=ON (global mutex)"),
    ]
    runs = []
    for rep in range(reps):
        order = variants if rep % 2 == 0 else list(reversed(variants))
        for name, binary, extra, _ in order:
            log("overhead rep %d %s" % (rep + 1, name))
            res, pt = measured_run("overhead", lay, W, dict(run_opts, **extra),
                                   "standard", threads, warm, secs, mysqld=binary)
            res.update({"variant": name, "rep": rep + 1,
                        "compress_ops": sum(v["compress_ops"] for v in pt.values())})
            runs.append(res)
            log("  tpmC %.0f, our COMPRESS_OPS %d" % (res["tpmC"], res["compress_ops"]))
    write_csv(os.path.join(out, "runs.csv"), runs)

    cg = []
    # callgrind takes about a minute per variant even for a few events: the
    # quick mode leaves it out unless --callgrind is given.
    if (args.callgrind or not quick) and not args.no_callgrind:
        cgdir = work_path("callgrind")
        shutil.rmtree(cgdir, ignore_errors=True)
        os.makedirs(cgdir)
        for name, binary, extra, _ in variants:
            log("callgrind %s (%d New-Order/Payment/... events)" % (name, events))
            t0 = time.time()
            ir = callgrind_run("overhead", lay, W, dict(run_opts, **extra),
                               binary, events, os.path.join(cgdir, "cg." + name))
            row = {"variant": name, "events": events, "instructions": ir,
                   "instructions_per_tx": ir / events,
                   "wall_s": time.time() - t0}
            # Self cost of the counter code (our files and InnoDB's
            # lock-free hash, which only the decompression path still uses).
            costs = callgrind_self_costs(os.path.join(cgdir, "cg." + name))
            for f in HOTPATH_FILES:
                row[f] = costs.get(f, 0) / events
            row["ours_per_tx"] = sum(costs.values()) / events
            cg.append(row)
            log("  %.0f instructions per transaction, %.0f in %s" % (
                ir / events, row["ours_per_tx"], "+".join(HOTPATH_FILES)))
        write_csv(os.path.join(out, "callgrind.csv"), cg)

    micro = os.path.join(out, "microbench.csv")
    r = subprocess.run(["bash", os.path.join(ROOT, "bench", "microbench", "run.sh"),
                        micro] + (["--updates=500000", "--reps=1"] if quick else []),
                       capture_output=True, text=True)
    if r.returncode != 0:
        die("micro-benchmark failed: " + r.stderr[-2000:])

    md = ["# Experiment overhead: the always-on per-table counters", "",
          "Measured %s on this build. Cached TPC-C-like standard mix, %d "
          "warehouse(s), %d threads, KEY_BLOCK_SIZE=8 on every table but "
          "warehouse and district (level 6), %d s warm-up + %d s measured, "
          "%d repetitions, order of the variants alternating." % (
              time.strftime("%Y-%m-%d"), W, threads, warm, secs, reps), ""]
    ours = [r["tpmC"] for r in runs if r["variant"] == "ours"]
    rows = []
    for name, _, _, desc in variants:
        tp = [r["tpmC"] for r in runs if r["variant"] == name]
        ops = [r["compress_ops"] for r in runs if r["variant"] == name]
        rows.append([name, desc, spread(tp), ratio_spread(tp, ours),
                     "%d" % statistics.median(ops)])
    md += [md_table(["variant", "what", "tpmC", "vs ours", "COMPRESS_OPS counted"],
                    rows), ""]
    bar_plot(os.path.join(out, "tpmc.png"), "Counter overhead, cached, compressed",
             [v[0] for v in variants],
             {"tpmC": [med3([r["tpmC"] for r in runs if r["variant"] == v[0]])
                       for v in variants]}, "New-Order transactions per minute")
    md += ["![tpmC](tpmc.png)", ""]
    if cg:
        base = next(c for c in cg if c["variant"] == "off")["instructions_per_tx"]
        md += ["## Instructions per transaction (callgrind, all mysqld threads, "
               "%d events, 1 thread, seed 1)" % events, "",
               md_table(["variant", "instructions/tx", "vs off"]
                        + ["%s self/tx" % f for f in HOTPATH_FILES]
                        + ["counter code/tx", "share"],
                        [[c["variant"], "%.0f" % c["instructions_per_tx"],
                          "%+.3f %%" % (100 * (c["instructions_per_tx"] / base - 1))]
                         + ["%.0f" % c[f] for f in HOTPATH_FILES]
                         + ["%.0f" % c["ours_per_tx"],
                            "%.3f %%" % (100 * c["ours_per_tx"] /
                                         c["instructions_per_tx"])]
                         for c in cg]), ""]
    med = {}
    for row in csv.DictReader(open(micro)):
        med.setdefault((row["variant"], int(row["threads"])), []).append(
            float(row["total_mupdates_per_s"]))
    vnames = sorted({v for v, _ in med})
    ths = sorted({t for _, t in med})
    md += ["## Counter update micro-benchmark (million updates/s, all threads, "
           "median)", "",
           md_table(["threads"] + vnames,
                    [[t] + ["%.1f" % statistics.median(med.get((v, t), [0]))
                            for v in vnames] for t in ths]), ""]
    bar_plot(os.path.join(out, "microbench.png"),
             "Counter updates per second (2 cores)", [str(t) for t in ths],
             {v: [med3(med.get((v, t), [0])) for t in ths] for v in vnames
              if v != "none"}, "million updates/s")
    md += ["![micro-benchmark](microbench.png)", ""]
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
