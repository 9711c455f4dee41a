#!/usr/bin/env bash
# Runs a benchmark experiment against the patched server (see BENCHMARKS.md).
# Usage: bench/run.sh paper|tuning|overhead|hotpath|sizes|all [--quick] [--out DIR]
#                     [--reps N] [--warehouses N] [--no-callgrind] [--only CONFIGS]
#        bench/run.sh paper|tuning|wiki --codecs zlib,isal [...]  (each compressed
#                     layout once per codec, side by side: "A8@isal")
#        bench/run.sh paper|tuning --device native,ssd2012,hdd [--pool-pct 2]
#                     (every run on each storage profile, issue 29; see
#                     bench/harness/cli.py's docstring)
#        bench/run.sh paper --perf [...]  (a CPU profile of every measured run)
#        bench/run.sh readmix --data=dbt2 [--pools 64M,256M] [--unzip-policy P,...]
#                     [--device native,ssd2012,hdd]
#                     (the read mix with compressed tables, eviction counters)
# Needs the build of scripts/build.sh (README's first command does it);
# installs sysbench, valgrind and matplotlib from Debian if missing.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../scripts/common.sh"
bash "$HERE/../scripts/setup-deps.sh" --bench
# Debian's python3: python3-matplotlib is installed for it. The harness is
# the package bench/harness (cli.py; paths from scripts/common.sh).
PYTHONPATH="$HERE${PYTHONPATH:+:$PYTHONPATH}" exec /usr/bin/python3 -m harness "$@"
