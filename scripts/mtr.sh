#!/usr/bin/env bash
# Runs the compress mtr suite against the built tree and ends with the line
# "N passed, M failed". Exits non-zero if any test failed or none ran.
# Extra arguments go to mysql-test-run.pl (for example a test name).
set -uo pipefail
. "$(dirname "$0")/common.sh"

mtr_dir="$BUILD_DIR/mysql-test"
[ -x "$BUILD_DIR/runtime_output_directory/mysqld" ] || die "mysqld is not built: run scripts/build.sh"
[ -f "$mtr_dir/mysql-test-run.pl" ] || die "no mysql-test-run.pl in $mtr_dir"

mkdir -p "$MTR_VARDIR"
# One log per run (two runs at once, e.g. two variants, must not share it);
# the newest is also copied to mtr-last.log.
log_file=$(mktemp "$COMPRESS_CACHE_DIR/mtr-run.XXXXXX.log")
trap 'cp -f "$log_file" "$COMPRESS_CACHE_DIR/mtr-last.log" 2>/dev/null; rm -f "$log_file"' EXIT
args=(--suite=compress --force --max-test-fail=0 --retry=0
      --parallel="${COMPRESS_MTR_PARALLEL:-2}" --vardir="$MTR_VARDIR"
      --testcase-timeout=30 --suite-timeout=120 --report-unstable-tests)
[ "$(id -u)" -eq 0 ] && args+=(--mysqld=--user=root)
# Sanitizer builds: mtr's --sanitize sets ASAN/UBSAN/LSAN options (UBSAN
# halts on the first error, upstream's suppressions for perl and the
# tools), doubles the timeouts and fails a test whose server log reports a
# sanitizer error.
case "$COMPRESS_VARIANT" in *asan*) args+=(--sanitize) ;; esac

cd "$mtr_dir" || exit 2
perl mysql-test-run.pl "${args[@]}" "$@" 2>&1 | tee "$log_file"
rc=${PIPESTATUS[0]}

# --record writes into the prepared tree: bring new results back home.
for a in "$@"; do
  if [ "$a" = "--record" ]; then
    for r in "$SRC_DIR/mysql-test/suite/compress/r/"*.result; do
      dst="$COMPRESS_ROOT/mysql-test/suite/compress/r/$(basename "$r")"
      cmp -s "$r" "$dst" || { cp "$r" "$dst"; log "recorded $(basename "$r")"; }
    done
  fi
done

# The counts of mtr's own report, so that both say the same: "Completed:
# All 25 tests were successful." or "Completed: Failed 2/25 tests, 92.00%
# were successful.", and "3 tests were skipped, ...". mtr counts its check
# of the servers at shutdown (shutdown_report) as one test. Without a
# report (mtr stopped early), count the [ fail ] lines and nothing passed.
report=$(grep -aE '(All [0-9]+ tests were successful|Failed [0-9]+/[0-9]+ tests, )' \
         "$log_file" | tail -n 1)
if [[ $report =~ All\ ([0-9]+)\ tests\ were\ successful ]]; then
  passed=${BASH_REMATCH[1]}
  failed=0
elif [[ $report =~ Failed\ ([0-9]+)/([0-9]+)\ tests ]]; then
  failed=${BASH_REMATCH[1]}
  passed=$(( BASH_REMATCH[2] - BASH_REMATCH[1] ))
else
  passed=0
  failed=$(grep -acE '\[ fail \]' "$log_file")
fi
skipped=$(grep -aE '^[0-9]+ tests were skipped' "$log_file" | tail -n 1 | cut -d' ' -f1)
skipped=${skipped:-0}
echo
echo "$passed passed, $failed failed, $skipped skipped"
if [ "$rc" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
exit 0
