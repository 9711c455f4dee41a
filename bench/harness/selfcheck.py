"""A check of the package that starts no server:
  PYTHONPATH=bench python3 -m harness.selfcheck
imports every module, checks that each experiment module registers its
experiment (in EXPERIMENTS' order, as a function of (args, out)) and that
the command line still offers every experiment and flag. Prints "ok" or
exits 1 with what is wrong."""

import contextlib
import importlib
import inspect
import io
import pkgutil
import sys

import harness
from harness.experiments import EXPERIMENTS, ORDER

# The command line of bench/run.sh (before the package: bench/harness.py).
FLAGS = ["--quick", "--out", "--reps", "--warehouses", "--no-callgrind",
         "--only", "--device", "--pool-pct", "--read-iops", "--secs",
         "--pools", "--unzip-policy", "--perf", "--callgrind",
         "--mysqld-before", "--study-data", "--data", "--codec", "--codecs",
         "--load-threads"]


# perf script -F ip,sym,dso of four samples, and the bucket of each
# (bench/harness/perf.py): an ISA-L leaf whose stack stops in the library
# (its assembly has no unwind information), a zlib stack that reaches
# page_zip_compress(), a latch spin, zlib under an off-page column's read
# (not the page codec's), and a row search; the first two also by part
# (perf.py part_of).
PERF_SAMPLES = [
    ("decompression", ["rec_get_offsets() (/x/mysqld)",
                       "page_zip_decompress_low() (/x/mysqld)",
                       "page_zip_decompress() (/x/mysqld)",
                       "buf_zip_decompress() (/x/mysqld)"]),
    ("decompression", ["decode_huffman_code_block_stateless_04 "
                       "(/usr/lib/x86_64-linux-gnu/libisal.so.2.0.30)",
                       "[unknown] (/usr/lib/x86_64-linux-gnu/libisal.so.2.0.30)"]),
    ("compression", ["[unknown] (/usr/lib/x86_64-linux-gnu/libz.so.1.2.13)",
                     "deflate (/usr/lib/x86_64-linux-gnu/libz.so.1.2.13)",
                     "page_zip_compress(page_zip_des_t*, page_t const*, "
                     "dict_index_t*, unsigned long, mtr_t*) (/x/mysqld)",
                     "btr_page_split_and_insert(unsigned int) (/x/mysqld)"]),
    ("latch spins and waits", ["ut_delay(unsigned long) (/x/mysqld)",
                               "rw_lock_x_lock_func(rw_lock_t*) (/x/mysqld)",
                               "btr_cur_search_to_nth_level() (/x/mysqld)"]),
    ("off-page columns (lob::)",
     ["inflate (/usr/lib/x86_64-linux-gnu/libz.so.1.2.13)",
      "lob::zReader::fetch_page() (/x/mysqld)",
      "lob::zReader::fetch() (/x/mysqld)",
      "row_sel_store_mysql_rec() (/x/mysqld)"]),
    ("the rest (SQL layer, B-tree search, rows, locks, redo)",
     ["page_cur_search_with_match() (/x/mysqld)",
      "row_search_mvcc() (/x/mysqld)"]),
]


def check_perf_buckets():
    from harness.perf import stack_counts
    text = "\n".join("\n".join("%x %s" % (0x1000 + i, f)
                               for i, f in enumerate(frames)) + "\n"
                    for _, frames in PERF_SAMPLES)
    parts = {}
    counts, _ = stack_counts(text, parts)
    want = {}
    for b, _ in PERF_SAMPLES:
        want[b] = want.get(b, 0) + 1
    bad = ["perf bucket %s: %d samples, want %d" % (b, counts.get(b, 0), n)
           for b, n in want.items() if counts.get(b, 0) != n]
    want_parts = {"decompression": {"library libisal": 1,
                                    "rec_get_offsets": 1},
                  "compression": {"library libz": 1}}
    if parts != want_parts:
        bad.append("perf parts %s, want %s" % (parts, want_parts))
    return bad


def main():
    bad = []
    names = [m.name for m in pkgutil.walk_packages(harness.__path__,
                                                    "harness.")]
    for n in names:
        if n in ("harness.__main__", __name__):
            continue
        importlib.import_module(n)
    if list(EXPERIMENTS) != list(ORDER):
        bad.append("EXPERIMENTS %s, ORDER %s" % (list(EXPERIMENTS), ORDER))
    for n, fn in EXPERIMENTS.items():
        if fn.__module__ != "harness.experiments." + n:
            bad.append("%s registered by %s" % (n, fn.__module__))
        if list(inspect.signature(fn).parameters) != ["args", "out"]:
            bad.append("%s: not a function of (args, out)" % n)
        if "harness.experiments." + n not in names:
            bad.append("no module experiments/%s.py" % n)
    from harness import cli
    buf = io.StringIO()
    argv = sys.argv
    sys.argv = ["bench/run.sh", "--help"]
    try:
        with contextlib.redirect_stdout(buf):
            cli.main()
    except SystemExit as e:
        if e.code not in (0, None):
            bad.append("--help exits %s" % e.code)
    finally:
        sys.argv = argv
    text = buf.getvalue()
    choices = "{%s}" % ",".join(list(EXPERIMENTS) + ["all"])
    if choices not in text:
        bad.append("--help does not offer %s" % choices)
    for f in FLAGS:
        if f not in text:
            bad.append("--help lacks " + f)
    bad += check_perf_buckets()
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print("ok: %d modules, experiments %s, %d flags" % (
        len(names), ", ".join(EXPERIMENTS), len(FLAGS)))


if __name__ == "__main__":
    main()
