#!/usr/bin/env bash
# The README's test command: check that PATCHES.md matches the patch series,
# check fetch-upstream.sh's named-file path and refusals
# (scripts/fetch-upstream-tests.sh, seconds), build what is needed
# (incrementally), run the unit tests that need no server
# (scripts/unit-tests.sh), then run the compress mtr suite.
# Ends with "N passed, M failed"; non-zero on failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# PATCHES.md is generated from the patch headers (scripts/patches-doc.sh):
# fail at once, before an hour of building, when it is stale or a header
# breaks the rules. python3 comes with the build dependencies.
command -v python3 >/dev/null || bash "$here/setup-deps.sh"
bash "$here/patches-doc.sh" --check ||
  { echo "run-tests: PATCHES.md check failed (see above)" >&2; exit 1; }
# fetch-upstream.sh: a wrong file refused, apt's failure explained, and the
# named-file path, each in a temporary cache with apt stood in for. The file
# path copies the cache's tarball (or COMPRESS_UPSTREAM_TARBALL's): on a cold
# cache there is none yet, so that part runs once the build has fetched it.
. "$here/common.sh"
fetch_later=""
if [ -z "${COMPRESS_UPSTREAM_TARBALL:-}" ] &&
   [ ! -f "$DL_DIR/${UPSTREAM_PKG}_${UPSTREAM_VER}.orig.tar.gz" ]; then
  fetch_later=1
fi
bash "$here/fetch-upstream-tests.sh" ${fetch_later:+--no-file-path} ||
  { echo "run-tests: fetch-upstream checks failed (see above)" >&2; exit 1; }
bash "$here/build.sh"
if [ -n "$fetch_later" ]; then
  bash "$here/fetch-upstream-tests.sh" --file-path-only ||
    { echo "run-tests: fetch-upstream checks failed (see above)" >&2; exit 1; }
fi
bash "$here/unit-tests.sh" ||
  { echo "run-tests: unit tests failed (see above)" >&2; exit 1; }
exec bash "$here/mtr.sh" "$@"
