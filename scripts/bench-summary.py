#!/usr/bin/env python3
"""BENCHMARKS.md, the one-page summary, generated from its template
(bench/summary.md.in) and the figures file (bench/results/summary.tsv),
so that no figure of the summary is typed: each is a {{key}} of the
template, and each key's row names the run's output file under
bench/results/ that holds it and a regular expression that finds it there.
  scripts/bench-summary.py            write BENCHMARKS.md
  scripts/bench-summary.py --check    fail if a row's figure is not in its
                                      file, a key is missing, the template
                                      types a figure itself, or
                                      BENCHMARKS.md differs from the render
A typed figure is a number with a decimal point, or a number followed by
"x" or "%", outside {{...}}: the figures runs measure. A setting of a run
(a buffer pool of 2 % of the data) is written {{=2 %}}: rendered as it
is, visibly not a measurement. scripts/unit-tests.sh
runs --check (CI)."""
import csv
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TSV = os.path.join(ROOT, "bench", "results", "summary.tsv")
TEMPLATE = os.path.join(ROOT, "bench", "summary.md.in")
OUT = os.path.join(ROOT, "BENCHMARKS.md")
FIGURE = re.compile(r"(?<![\w.{-])(\d+\.\d+|\d+(?:\.\d+)?\s?(?:x\b|%))")


def load_rows(errors):
    rows = {}
    with open(TSV, encoding="utf-8") as f:
        lines = [l for l in f if l.strip() and not l.startswith("#")]
    for r in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE):
        key, value, source, rx = r["key"], r["value"].strip(), r["source"], r["regex"]
        if key in rows:
            errors.append("%s: key twice" % key)
        path = os.path.join(ROOT, source)
        if not source.startswith("bench/results/") or not os.path.isfile(path):
            errors.append("%s: source %s is not a file under bench/results/" % (key, source))
            continue
        m = re.search(rx, open(path, encoding="utf-8", errors="replace").read(), re.M)
        if not m or m.group(1).strip() != value:
            errors.append("%s: %s not found in %s (regex %s gives %s)" % (
                key, value, source, rx, m.group(1) if m else "no match"))
        rows[key] = value
    return rows


def render(rows, errors):
    text = open(TEMPLATE, encoding="utf-8").read()
    for no, line in enumerate(text.split("\n"), 1):
        bare = re.sub(r"\{\{[^}]*\}\}", "", line)
        bare = re.sub(r"\([^)]*\)|`[^`]*`", "", bare) if line.startswith("[") else bare
        bare = re.sub(r"\]\([^)]*\)", "]", bare)  # link targets
        for fig in FIGURE.findall(bare):
            errors.append("bench/summary.md.in:%d: a typed figure %r: give it a key in summary.tsv" % (no, fig))

    def sub(m):
        key = m.group(1)
        if key.startswith("="):
            return key[1:]
        if key not in rows:
            errors.append("bench/summary.md.in: no row for {{%s}} in summary.tsv" % key)
            return m.group(0)
        return rows[key]
    return re.sub(r"\{\{(=[^}]*|[a-z0-9_]+)\}\}", sub, text)


def main(argv):
    errors = []
    rows = load_rows(errors)
    out = render(rows, errors)
    if argv[:1] == ["--check"]:
        if os.path.exists(OUT) and open(OUT, encoding="utf-8").read() != out:
            errors.append("BENCHMARKS.md differs from its template and summary.tsv: run scripts/bench-summary.py")
        for e in errors:
            print("bench-summary: " + e)
        if errors:
            return 1
        print("bench-summary: BENCHMARKS.md matches, %d figures backed by their runs" % len(rows))
        return 0
    for e in errors:
        print("bench-summary: " + e)
    if errors:
        return 1
    open(OUT, "w", encoding="utf-8").write(out)
    print("bench-summary: BENCHMARKS.md written (%d figures)" % len(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
