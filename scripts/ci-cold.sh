#!/usr/bin/env bash
# Times CI from a cold start, as the 90-minute limit needs it: a clean clone
# of HEAD into a new directory, COMPRESS_CACHE_DIR on an empty directory
# (no source tree, no build tree, no ccache), and `bash .ci/run` (the
# README's test command) in a clean environment, so that nothing of this
# machine's caches reaches it (CCACHE_DIR and the other variables
# scripts/common.sh exports are not passed on). Writes the time and the
# result to bench/results/ci-cold/<date>-<series>.txt.
#
#   bash scripts/ci-cold.sh
#   COMPRESS_CI_COLD_DIR  work directory (default: a new /tmp/ci-cold.XXXXXX;
#                         removed at the end unless set)
#
# Needs about 15 GB of disk and both cores for 70-90 minutes: run it alone,
# or the time says nothing. Not part of CI.
set -uo pipefail
. "$(dirname "$0")/common.sh"

series=$(git -C "$COMPRESS_ROOT" rev-parse --short HEAD)
dirty=$(git -C "$COMPRESS_ROOT" status --porcelain --untracked-files=no | head -n 1)
[ -z "$dirty" ] || log "uncommitted changes are not in the clone: it runs $series as committed"
keep=${COMPRESS_CI_COLD_DIR:+1}
work=${COMPRESS_CI_COLD_DIR:-$(mktemp -d /tmp/ci-cold.XXXXXX)}
[ ! -e "$work/clone" ] || die "$work/clone exists: not a cold start"
mkdir -p "$work/cache"
git clone -q "$COMPRESS_ROOT" "$work/clone" || die "git clone failed"

out_dir="$COMPRESS_ROOT/bench/results/ci-cold"
mkdir -p "$out_dir"
report="$out_dir/$(date -u +%Y%m%d)-$series.txt"
log "cold CI of $series in $work (log: $work/ci.log)"
start=$(date +%s)
(cd "$work/clone" &&
  env -i HOME="$HOME" PATH="$PATH" LANG=C.UTF-8 TERM=dumb \
    COMPRESS_CACHE_DIR="$work/cache" bash .ci/run) > "$work/ci.log" 2>&1
rc=$?
secs=$(( $(date +%s) - start ))
{
  echo "# Cold CI run: clean clone, empty cache, bash .ci/run"
  echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
  echo "series: $series"
  echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GB"
  echo "exit status: $rc"
  printf 'time: %d s (%d min %d s); the limit is 90 min\n' "$secs" $((secs / 60)) $((secs % 60))
  echo
  echo "## build and test times the log reports"
  grep -aE 'build finished in|passed, [0-9]+ failed|ccache\]|run-tests' "$work/ci.log" | tail -n 20
  echo
  echo "## the end of the log"
  tail -n 15 "$work/ci.log"
} > "$report"
cat "$report"
[ -n "$keep" ] || rm -rf "$work"
exit $rc
