#!/usr/bin/env bash
# The README's test command: check that PATCHES.md matches the patch series,
# build what is needed (incrementally), run the unit tests that need no
# server (scripts/unit-tests.sh), then run the compress mtr suite.
# Ends with "N passed, M failed"; non-zero on failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# PATCHES.md is generated from the patch headers (scripts/patches-doc.sh):
# fail at once, before an hour of building, when it is stale or a header
# breaks the rules. python3 comes with the build dependencies.
command -v python3 >/dev/null || bash "$here/setup-deps.sh"
bash "$here/patches-doc.sh" --check ||
  { echo "run-tests: PATCHES.md check failed (see above)" >&2; exit 1; }
bash "$here/build.sh"
bash "$here/unit-tests.sh" ||
  { echo "run-tests: unit tests failed (see above)" >&2; exit 1; }
exec bash "$here/mtr.sh" "$@"
