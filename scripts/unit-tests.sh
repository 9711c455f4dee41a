#!/usr/bin/env bash
# Unit tests that need no server: the plugin's advice arithmetic
# (plugin/compression_stats/unittest/cs_advice-t.cc against cs_advice.cc),
# the benchmark harness's self-check (bench/harness/selfcheck.py) and the
# replay of the fuzz corpora (scripts/fuzz.sh replay).
# A plain program compiled with the system compiler and the upstream headers
# of the patched tree (the server's build has WITH_UNIT_TESTS=OFF, so no
# googletest). Prints TAP lines; non-zero on a failed check.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ -d "$SRC_DIR/include/mysql" ] || bash "$COMPRESS_ROOT/scripts/prepare-tree.sh"
out="$BUILD_DIR/compress-unittest"
mkdir -p "$out"
plugin="$COMPRESS_ROOT/plugin/compression_stats"
g++ -std=gnu++20 -O1 -g -Wall -Wextra -Werror \
  -I"$COMPRESS_ROOT" -I"$COMPRESS_ROOT/include" -I"$SRC_DIR/include" \
  "$plugin/cs_advice.cc" "$plugin/unittest/cs_advice-t.cc" -o "$out/cs_advice-t"
"$out/cs_advice-t" > "$out/cs_advice-t.tap" || { cat "$out/cs_advice-t.tap"; exit 1; }
tail -1 "$out/cs_advice-t.tap" | sed 's/^# /[unit-tests] cs_advice: /'
# The benchmark harness without a server: its modules, experiments and
# flags, and the sorting of perf samples into buckets (bench/harness/selfcheck.py).
PYTHONPATH="$COMPRESS_ROOT/bench" python3 -m harness.selfcheck | sed 's/^/[unit-tests] harness: /'
test "${PIPESTATUS[0]}" -eq 0
# The fuzz targets' committed corpora and regression cases (fuzz/README.md),
# replayed by a g++ ASan+UBSan build of InnoDB's decompression library: no
# clang needed.
bash "$COMPRESS_ROOT/scripts/fuzz.sh" replay | sed 's/^\[fuzz\] /[unit-tests] fuzz: /'
test "${PIPESTATUS[0]}" -eq 0
# The accuracy table of docs/page-compression.md is the one its CSVs give
# (scripts/accuracy/page-table.py; issue 47).
python3 "$COMPRESS_ROOT/scripts/accuracy/page-table.py" --check "$COMPRESS_ROOT/docs/page-compression.md" \
  "$COMPRESS_ROOT"/bench/results/page-accuracy/{ext4,xfs,ext4-large,xfs-large}-20261128/page-accuracy.csv |
  sed 's/^/[unit-tests] page accuracy: /'
test "${PIPESTATUS[0]}" -eq 0
# The suite's inventory in docs/testing.md (the number of tests, the
# debug-only ones, those without the plugin, a row per test) is generated,
# not typed: scripts/suite-inventory.py.
python3 "$COMPRESS_ROOT/scripts/suite-inventory.py" --check | sed 's/^/[unit-tests] /'
test "${PIPESTATUS[0]}" -eq 0
# Every relative link between the Markdown files resolves, anchors included
# (scripts/doc-links.py).
python3 "$COMPRESS_ROOT/scripts/doc-links.py" | sed 's/^/[unit-tests] /'
test "${PIPESTATUS[0]}" -eq 0
# A query the docs give a DBA is the one a test runs
# (scripts/doc-queries.py).
python3 "$COMPRESS_ROOT/scripts/doc-queries.py" | sed 's/^/[unit-tests] /'
test "${PIPESTATUS[0]}" -eq 0
# BENCHMARKS.md is generated from bench/summary.md.in and the figures of
# bench/results/summary.tsv, each found in the run's output it names
# (scripts/bench-summary.py): a figure no run backs fails here.
python3 "$COMPRESS_ROOT/scripts/bench-summary.py" --check | sed 's/^/[unit-tests] /'
test "${PIPESTATUS[0]}" -eq 0
# The file table of docs/page-compression.md ("Accuracy of the file") is the
# one its CSVs give (scripts/accuracy/file-table.py; issue 47, part 2).
python3 "$COMPRESS_ROOT/scripts/accuracy/file-table.py" --check "$COMPRESS_ROOT/docs/page-compression.md" \
  "$COMPRESS_ROOT"/bench/results/page-accuracy/file-{ext4,xfs}-{on,off}-20261206/page-accuracy.csv |
  sed 's/^/[unit-tests] file accuracy: /'
test "${PIPESTATUS[0]}" -eq 0
