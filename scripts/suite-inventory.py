#!/usr/bin/env python3
"""The compress suite's inventory, generated from mysql-test/suite/compress/t
instead of typed: the number of tests, the ones that need a debug build
(they source include/have_debug.inc) and the ones that run without the
plugin (they do not source include/have_compression_stats_plugin.inc).
Usage:
  scripts/suite-inventory.py           print the sentences docs/testing.md holds
  scripts/suite-inventory.py --check   fail unless docs/testing.md holds them
                                       verbatim and has a row for every test
  scripts/suite-inventory.py --write   put them into docs/testing.md (the
                                       rows of new tests are written by hand)
scripts/unit-tests.sh runs --check."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
T = os.path.join(ROOT, "mysql-test", "suite", "compress", "t")
DOC = os.path.join(ROOT, "docs", "testing.md")


def tests():
    out = {}
    for f in sorted(os.listdir(T)):
        if f.endswith(".test"):
            out[f[:-5]] = open(os.path.join(T, f)).read()
    return out


def names(ns):
    ns = ["`%s`" % n for n in ns]
    return ", ".join(ns[:-1]) + " and " + ns[-1] if len(ns) > 1 else "".join(ns)


def sentences(ts):
    debug = [n for n, s in ts.items() if "include/have_debug.inc" in s]
    free = [n for n, s in ts.items() if "have_compression_stats_plugin.inc" not in s]
    return [
        "`mysql-test/suite/compress/t` holds %d tests (this count and the lists "
        "below are checked by `scripts/suite-inventory.py --check`). %d of them, "
        "%s, need a debug build and are skipped on the default one." % (len(ts), len(debug), names(debug)),
        "%d tests do not use the plugin and run without it: %s." % (len(free), names(free)),
    ]


def main(argv):
    ts = tests()
    ss = sentences(ts)
    if argv[:1] == ["--write"]:
        doc = open(DOC).read()
        doc = re.sub(r"`mysql-test/suite/compress/t` holds \d+ tests \(this count.*?skipped on the default one\.",
                     lambda m: ss[0], doc, count=1, flags=re.S)
        doc = re.sub(r"\d+ tests do not use the plugin and run without it: .*?\.\n",
                     lambda m: ss[1] + "\n", doc, count=1, flags=re.S)
        open(DOC, "w").write(doc)
        argv = ["--check"]
    if argv[:1] != ["--check"]:
        print("\n\n".join(ss))
        return 0
    doc = re.sub(r"\s+", " ", open(DOC).read())
    bad = [s for s in ss if s not in doc]
    for s in bad:
        print("suite-inventory: docs/testing.md lacks (or has another count than): %s" % s)
    rows = set()
    for line in open(DOC):
        if line.startswith("| `"):
            rows.update(re.findall(r"`([a-z0-9_]+)`", line.split(" | ")[0]))
    missing = [n for n in ts if n not in rows]
    for n in missing:
        print("suite-inventory: docs/testing.md has no row for the test `%s`" % n)
    if bad or missing:
        return 1
    print("suite-inventory: docs/testing.md matches the %d tests of the suite" % len(ts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
