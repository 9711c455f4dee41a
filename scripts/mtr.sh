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
log_file="$COMPRESS_CACHE_DIR/mtr-last.log"
args=(--suite=compress --force --max-test-fail=0 --retry=0
      --parallel="${COMPRESS_MTR_PARALLEL:-2}" --vardir="$MTR_VARDIR"
      --testcase-timeout=30 --suite-timeout=120 --report-unstable-tests)
[ "$(id -u)" -eq 0 ] && args+=(--mysqld=--user=root)

cd "$mtr_dir" || exit 2
perl mysql-test-run.pl "${args[@]}" "$@" 2>&1 | tee "$log_file"
rc=${PIPESTATUS[0]}

# shutdown_report is mtr's own check of the servers, not a test.
# --record writes into the prepared tree: bring new results back home.
for a in "$@"; do
  if [ "$a" = "--record" ]; then
    for r in "$SRC_DIR/mysql-test/suite/compress/r/"*.result; do
      dst="$COMPRESS_ROOT/mysql-test/suite/compress/r/$(basename "$r")"
      cmp -s "$r" "$dst" || { cp "$r" "$dst"; log "recorded $(basename "$r")"; }
    done
  fi
done

passed=$(grep -E '\[ pass \]' "$log_file" | grep -vc 'shutdown_report')
failed=$(grep -cE '\[ fail \]' "$log_file")
skipped=$(grep -cE '\[ skipped \]' "$log_file")
echo
echo "$passed passed, $failed failed, $skipped skipped"
if [ "$rc" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  exit 1
fi
exit 0
