"""callgrind of mysqld: instructions executed for a fixed number of
transactions, and the self cost of our files (experiments overhead and
hotpath)."""

import os
import re
import subprocess

from .datadir import copy_datadir
from .paths import work_path
from .server import Server


# The instructions of the compression hot path, before and after a change
# (experiment hotpath: issue 13 moved the options and counters onto
# dict_table_t and dict_index_t: one load instead of hash look-ups).
# Our code on the hot path, and the lock-free hash it used to look up.
HOTPATH_FILES = ("dict0zip_stat.cc", "dict0zip_opt.cc", "ut0lock_free_hash.h")


def callgrind_self_costs(outfile_prefix):
    """Self cost (instructions executed in the function itself) per source
    file, summed over the callgrind output files of one run."""
    costs = {}
    d = os.path.dirname(outfile_prefix)
    for f in sorted(os.listdir(d)):
        if not f.startswith(os.path.basename(outfile_prefix)):
            continue
        # Instructions only, also when the run counted branches
        # (COMPRESS_CALLGRIND_BRANCH_SIM).
        out = subprocess.run(["callgrind_annotate", "--inclusive=no",
                              "--show=Ir", "--threshold=100",
                              os.path.join(d, f)],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(\S+?):(\S.*)$", line)
            if not m:
                continue
            src = os.path.basename(m.group(2))
            if src in HOTPATH_FILES:
                costs[src] = costs.get(src, 0) + int(m.group(1).replace(",", ""))
    return costs


# The libraries a compressed page goes through, by callgrind's object
# name (hotpath --codecs: instructions of each codec per transaction).
CODEC_OBJECTS = (("zlib", "libz.so"), ("isal", "libisal.so"))
# InnoDB's work around the codec: the page (de)compression functions and
# the codec layer (page0zip_codec.cc, page0zip_inflate.cc).
PAGE_ZIP_FILES = ("page0zip.cc", "zipdecompress.cc", "page0zip_codec.cc",
                  "page0zip_inflate.cc")


def callgrind_object_costs(outfile_prefix):
    """Self cost per library (CODEC_OBJECTS: "zlib", "isal") and of the
    page compression files of InnoDB ("page_zip"), summed over the
    callgrind output files of one run."""
    costs = {}
    d = os.path.dirname(outfile_prefix)
    for f in sorted(os.listdir(d)):
        if not f.startswith(os.path.basename(outfile_prefix)):
            continue
        out = subprocess.run(["callgrind_annotate", "--inclusive=no",
                              "--threshold=100", os.path.join(d, f)],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            m = re.match(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(\S+?):(\S.*)$", line)
            if not m:
                continue
            n = int(m.group(1).replace(",", ""))
            obj = re.search(r"\[([^\]]+)\]\s*$", line)
            obj = os.path.basename(obj.group(1)) if obj else ""
            for key, lib in CODEC_OBJECTS:
                if obj.startswith(lib):
                    costs[key] = costs.get(key, 0) + n
            if os.path.basename(m.group(2)) in PAGE_ZIP_FILES:
                costs["page_zip"] = costs.get("page_zip", 0) + n
    return costs


def callgrind_run(exp, lay, W, opts, mysqld, events, outfile):
    """Instructions executed by mysqld (all its threads) while sysbench runs
    a fixed number of events with a fixed seed, under callgrind."""
    saved = lay.saved
    live = work_path("live-datadir")
    copy_datadir(saved, live)
    wrapper = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
               "--callgrind-out-file=" + outfile]
    if os.environ.get("COMPRESS_CALLGRIND_BRANCH_SIM"):
        # Also count conditional branches and their mispredictions (Bc,
        # Bcm), which instructions alone do not show.
        wrapper.append("--branch-sim=yes")
    srv = Server(live, opts, mysqld=mysqld, wrapper=wrapper)
    srv.start(timeout=1200)
    try:
        pid = srv.proc.pid
        subprocess.run(["callgrind_control", "-i", "on", str(pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        srv.sysbench(["--threads=1", "--events=%d" % events, "--time=0",
                      "--rand-seed=1", "--mix=standard", "run"], W)
        subprocess.run(["callgrind_control", "-i", "off", str(pid)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        srv.stop()
    total = 0
    for f in os.listdir(os.path.dirname(outfile)):
        if f.startswith(os.path.basename(outfile)):
            for line in open(os.path.join(os.path.dirname(outfile), f)):
                # "summary:" counts from the start; with --instr-atstart=no
                # only "totals:" holds what was collected.
                if line.startswith("totals:"):
                    total += int(line.split()[1])
                    break
    return total
