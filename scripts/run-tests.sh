#!/usr/bin/env bash
# The README's test command: build what is needed (incrementally), then run
# the compress mtr suite. Ends with "N passed, M failed"; non-zero on failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/build.sh"
exec bash "$here/mtr.sh" "$@"
