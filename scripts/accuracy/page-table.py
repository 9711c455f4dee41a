#!/usr/bin/env python3
"""The accuracy table of docs/page-compression.md from the CSVs of
scripts/accuracy/page.sh, one per file system: per table and method the
estimate, what the converted copy's pages in use take, and what its whole
file takes (du), each as savings against the estimate's baseline, with the
differences; then the counts within the tolerance. Usage:
  scripts/accuracy/page-table.py [--points 3] [--check DOC] CSV [CSV ...]
With --check the table is not printed: the script fails unless DOC holds it
verbatim (scripts/unit-tests.sh checks docs/page-compression.md so)."""
import csv
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doctable  # noqa: E402

# stat -f names ext4 by its magic number, which ext2 and ext3 share.
FS = doctable.FS
NAMES = doctable.NAMES


def main(argv):
    return doctable.run(argv, table, "--points", 3.0, "accuracy table", "scripts/accuracy/page-table.py")


def table(argv, points):
    rows = []
    for path in argv:
        # The KEY_BLOCK_SIZE rows (COMPRESS_ACCURACY_KBS) are file-table.py's.
        rows += [r for r in csv.DictReader(open(path))
                 if r["method"].startswith("PAGE_")]
    print("| file system | data | table | MB | method | estimated | pages in use | whole file (du) | du - estimate (points) | du - pages in use (points) | file on disk: uncompressed rebuild -> converted |")
    print("| --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    within = {}
    for r in rows:
        mb = int(r["uncompressed_bytes"]) / 1048576
        d = float(r["du_diff"]) if r["du_diff"] not in ("NULL", "") else None
        print("| %s | %s | %s | %.0f | %s | %s %% | %s %% | %s %% | %s | %+.1f | %.1f -> %.1f MB |" % (
            FS.get(r["fs"], r["fs"]), NAMES.get(r["set"], r["set"]), r["table"], mb, r["method"].replace("PAGE_", "").lower(),
            r["est_ss"], r["real_ss"], r["du_ss"], "%+.1f" % -d if d is not None else "NULL",
            float(r["du_ss"]) - float(r["real_ss"]), int(r["file_alloc_plain"]) / 1048576, int(r["file_alloc"]) / 1048576))
        within.setdefault(FS.get(r["fs"], r["fs"]), []).append(
            (mb, d, float(r["du_ss"]) - float(r["real_ss"])))
    print()
    for fs, ds in within.items():
        for label, floor in (("all tables", 0), ("tables of 10 MB or more", 10)):
            ok = [d for mb, d, _ in ds if d is not None and mb >= floor]
            file_part = [f for mb, _, f in ds if mb >= floor]
            if not ok:
                continue
            n_in = sum(1 for d in ok if abs(d) <= points)
            print("- %s, %s: %d of %d rows with du within %g points of the estimate (median |difference| %.1f points, largest %+.1f); du against the pages in use: %+.1f to %+.1f points" % (
                fs, label, n_in, len(ok), points, statistics.median(abs(d) for d in ok), -max(ok, key=abs),
                min(file_part), max(file_part)))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
