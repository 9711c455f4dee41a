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
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print("ok: %d modules, experiments %s, %d flags" % (
        len(names), ", ".join(EXPERIMENTS), len(FLAGS)))


if __name__ == "__main__":
    main()
