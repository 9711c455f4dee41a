#!/usr/bin/env python3
"""The table of docs/page-compression.md, "The file after the conversion",
from the CSVs of scripts/accuracy/page.sh (those with est_file_sparse):
per table and method the file the estimate stated before the conversion
(ALLOCATED_SIZE_SPARSE with innodb_page_compression_sparse=ON,
ALLOCATED_SIZE_NOT_SPARSE with OFF; both the same on KEY_BLOCK_SIZE rows)
against what the converted copy's file allocates (du), in MB, in percent
of the file and in points of savings against the estimate's baseline; then
the counts within the tolerances. Usage:
  scripts/accuracy/file-table.py [--pct 5] [--check DOC] CSV [CSV ...]
With --check the table is not printed: the script fails unless DOC holds it
verbatim (scripts/unit-tests.sh checks docs/page-compression.md so)."""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doctable  # noqa: E402

FS = doctable.FS
NAMES = doctable.NAMES


def main(argv):
    return doctable.run(argv, table, "--pct", 5.0, "file table", "scripts/accuracy/file-table.py")


def table(argv, pct):
    rows = []
    for path in argv:
        rows += [r for r in csv.DictReader(open(path))
                 if r.get("est_file_sparse") not in (None, "", "NULL")]
    print("| file system | sparse | data | table | MB | method | file estimated | file (du) | du - estimate | in points of savings |")
    print("| --- | --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: |")
    groups = {}
    for r in rows:
        sparse = r["sparse"] == "1"
        est = int(r["est_file_sparse"] if sparse else r["est_file_not_sparse"])
        du = int(r["file_alloc"])
        base = int(r["uncompressed_bytes"])
        mb = base / 1048576
        d_pct = 100.0 * (du - est) / du
        d_pts = 100.0 * (est - du) / base
        fs = FS.get(r["fs"], r["fs"])
        print("| %s | %s | %s | %s | %.0f | %s | %.1f MB | %.1f MB | %+.1f %% | %+.1f |" % (
            fs, "ON" if sparse else "OFF", NAMES.get(r["set"], r["set"]), r["table"], mb,
            r["method"].replace("PAGE_", "").lower(), est / 1048576, du / 1048576, d_pct, d_pts))
        kind = "KEY_BLOCK_SIZE" if r["method"].startswith("KEY_BLOCK_SIZE") else "page compression"
        groups.setdefault((fs, "ON" if sparse else "OFF", kind), []).append(d_pct)
    print()
    for (fs, sparse, kind), ds in groups.items():
        n_in = sum(1 for d in ds if abs(d) <= pct)
        print("- %s, sparse %s, %s: %d of %d files within %g %% of the estimate (median |difference| %.1f %%, largest %+.1f %%)" % (
            fs, sparse, kind, n_in, len(ds), pct, statistics.median(abs(d) for d in ds), max(ds, key=abs)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
