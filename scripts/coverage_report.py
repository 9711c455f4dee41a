#!/usr/bin/env python3
"""Summarize gcovr JSON for our own code only.

Usage: coverage_report.py coverage.json PRISTINE_DIR SRC_DIR REPO_ROOT

Our new files (present in the repository, absent upstream) count with all
their instrumented lines; upstream files changed by the patch series count
only with the lines the patches add (computed by diffing pristine against
the patched tree)."""
import json
import os
import subprocess
import sys

cov_json, pristine, src, repo = sys.argv[1:5]
data = json.load(open(cov_json))

ours = set()
for top in ("plugin", "storage", "include", "sql", "components"):
    d = os.path.join(repo, top)
    for root, dirs, files in os.walk(d):
        if "patches" in root.split(os.sep):
            continue
        for f in files:
            if f.endswith((".cc", ".h", ".ic")):
                ours.add(os.path.relpath(os.path.join(root, f), repo))


def added_lines(rel):
    """Line numbers (in the patched file) that the patches add."""
    p = subprocess.run(["diff", "-U0", os.path.join(pristine, rel),
                        os.path.join(src, rel)], capture_output=True, text=True)
    lines, new_no = set(), 0
    for line in p.stdout.splitlines():
        if line.startswith("@@"):
            plus = line.split()[2]  # +start,count
            start = int(plus[1:].split(",")[0])
            new_no = start
        elif line.startswith("+") and not line.startswith("+++"):
            lines.add(new_no)
            new_no += 1
        elif line.startswith(" "):
            new_no += 1
    return lines


rows, tot_cov, tot_all = [], 0, 0
for f in data["files"]:
    rel = f["file"]
    if os.path.isabs(rel):
        rel = os.path.relpath(rel, src)
    lines = [l for l in f["lines"] if not l.get("gcovr/noncode")]
    if rel in ours:
        kind = "new"
        sel = lines
    elif os.path.exists(os.path.join(pristine, rel)):
        add = added_lines(rel)
        if not add:
            continue
        kind = "patched (added lines)"
        sel = [l for l in lines if l["line_number"] in add]
    else:
        continue
    if not sel:
        continue
    covered = sum(1 for l in sel if l["count"] > 0)
    rows.append((rel, kind, covered, len(sel)))
    tot_cov += covered
    tot_all += len(sel)

print(f"{'file':62} {'kind':22} {'lines':>11} {'pct':>6}")
for rel, kind, c, n in sorted(rows):
    print(f"{rel:62} {kind:22} {c:>5}/{n:<5} {100.0 * c / n:5.1f}%")
pct = 100.0 * tot_cov / tot_all if tot_all else 0.0
print(f"TOTAL our code: {tot_cov}/{tot_all} lines covered = {pct:.1f}%")
