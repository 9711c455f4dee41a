#!/usr/bin/env bash
# Page validation in every mode: runs suites on a build with UNIV_ZIP_DEBUG
# (COMPRESS_VARIANT=zipcheck, the default here, or zipdebug: every page
# compressed is decompressed and compared, and every BLOB stream ISA-L
# writes) under a matrix of
# server configurations, and adds up what each run validated from the
# "Page validation (UNIV_ZIP_DEBUG): N compressed pages and M BLOB streams
# validated since start" line every server of the run logs at shutdown.
#
#   bash scripts/zipdebug-matrix.sh [CONFIG ...]     (default: all)
#   ZIPDEBUG_SUITES="compress innodb_zip:big innodb_stress"  which suites
#                     (suite:big adds --big-test; default: all three)
#
# Each CONFIG is codec,append,rescue,page_size, for example
# isal,ON,ON,16k. The default configurations cover each value of each
# factor (both codecs, append ON and OFF, the three rescue modes, 16 KB and
# 4 KB pages) in five runs rather than all 24 combinations; a test that
# does not support a page size skips itself (mtr says which).
# Writes bench/results/zipdebug/<date>-<series>.txt: one line per run with
# mtr's counts, the pages and BLOB streams validated and the time.
set -uo pipefail
export COMPRESS_VARIANT="${COMPRESS_VARIANT:-zipcheck}"
. "$(dirname "$0")/common.sh"

# innodb_stress's load generator imports mysql.connector, which Debian 12
# does not package: scripts/pyshim maps its calls to PyMySQL
# (bash scripts/setup-deps.sh --stress).
export PYTHONPATH="$COMPRESS_ROOT/scripts/pyshim${PYTHONPATH:+:$PYTHONPATH}"
# The suite runs "python3" from PATH: where that is not Debian's (a pyenv
# or a virtualenv without PyMySQL), run Debian's.
if ! python3 -c 'import pymysql' 2>/dev/null && /usr/bin/python3 -c 'import pymysql' 2>/dev/null; then
  pybin="$COMPRESS_CACHE_DIR/pybin"
  mkdir -p "$pybin"
  ln -sf /usr/bin/python3 "$pybin/python3"
  export PATH="$pybin:$PATH"
fi
[ -x "$BUILD_DIR/runtime_output_directory/mysqld" ] ||
  die "no $COMPRESS_VARIANT build: COMPRESS_VARIANT=$COMPRESS_VARIANT bash scripts/build.sh"

configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
  configs=(isal,OFF,ZLIB_PAGES,16k isal,ON,ON,16k zlib,ON,OFF,16k
           isal,ON,ZLIB_PAGES,4k zlib,OFF,ON,4k)
fi
suites=(${ZIPDEBUG_SUITES:-compress innodb_zip:big innodb_stress})

series=$(cd "$COMPRESS_ROOT" && git rev-parse --short HEAD 2>/dev/null || echo unknown)
out_dir="$COMPRESS_ROOT/bench/results/zipdebug"
mkdir -p "$out_dir"
report="$out_dir/$(date +%Y%m%d)-$series-$COMPRESS_VARIANT.txt"
printf '# %s matrix, %s, series %s (%s)\n' "$COMPRESS_VARIANT" \
  "$(date -u +%FT%TZ)" "$series" "$(uname -m)" >> "$report"
printf '# suite config result pages_validated blobs_validated seconds\n' >> "$report"

rc_all=0
for cfg in "${configs[@]}"; do
  IFS=, read -r codec append rescue psize <<< "$cfg"
  opts=(--mysqld=--innodb-compression-codec="$codec"
        --mysqld=--innodb-compression-append="$append"
        --mysqld=--innodb-compression-zlib-rescue="$rescue")
  if [ "$psize" != 16k ]; then
    # The plugin's SELECTIVE target defaults to 8 KB, which a server with
    # 4 KB pages replaces at install with a warning in its log (mtr's check
    # of the log fails the test for it): set it as a DBA of such a server
    # does.
    tkbs=${psize%k}; [ "$tkbs" -gt 8 ] && tkbs=8
    opts+=(--initialize=--innodb-page-size="$psize"
           --mysqld=--innodb-page-size="$psize"
           --mysqld=--loose-compression-stats-target-key-block-size="$tkbs")
  fi
  for s in "${suites[@]}"; do
    suite=${s%%:big}
    extra=()
    [ "$s" != "$suite" ] && extra+=(--big-test)
    # innodb_stress's tests leave mysqld.1.expect behind (upstream's
    # innodb_stress.inc writes it for every round, crash or not), which
    # mtr's check of the test case reports as a failure of the test.
    [ "$suite" = innodb_stress ] && extra+=(--nocheck-testcases)
    # One directory per run, kept: a failure's server logs stay readable.
    vardir="$COMPRESS_CACHE_DIR/mtr-var-$COMPRESS_VARIANT-matrix/${s//:/-}-${cfg//,/-}"
    rm -rf "$vardir"
    mkdir -p "$(dirname "$vardir")"
    log "suite $s, config $cfg"
    start=$(date +%s)
    out=$(bash "$COMPRESS_ROOT/scripts/mtr.sh" --suite="$suite" --vardir="$vardir" \
            "${extra[@]}" "${opts[@]}" 2>&1)
    rc=$?
    secs=$(( $(date +%s) - start ))
    printf '%s\n' "$out" > "$vardir/mtr-output.txt"   # which test passed, failed, skipped
    result=$(printf '%s\n' "$out" | tail -n 1)
    # Every server of the run logged its counters at shutdown (servers
    # killed by a test log nothing for the time before the kill).
    read -r pages blobs < <(cat "$vardir"/log/*.err "$vardir"/*/log/*.err \
        "$vardir"/mysqld.*/*.err 2>/dev/null |
      sed -n 's/.*Page validation (UNIV_ZIP_DEBUG): \([0-9]*\) compressed pages and \([0-9]*\) BLOB streams.*/\1 \2/p' |
      awk '{p += $1; b += $2} END {print p + 0, b + 0}')
    printf '%s %s "%s" %s %s %s\n' "$s" "$cfg" "$result" "$pages" "$blobs" "$secs" >> "$report"
    log "  $result; $pages pages, $blobs BLOB streams validated; ${secs}s"
    # What a failed check looks like: page_zip_validate() stops the server
    # with an assertion (InnoDB prints which part differed first).
    asserts=$(cat "$vardir"/log/*.err "$vardir"/*/log/*.err 2>/dev/null |
      grep -ac 'Assertion failure: .*page_zip_validate' || true)
    printf '#   page_zip_validate assertions: %s\n' "${asserts:-0}" >> "$report"
    [ "$rc" -eq 0 ] || { rc_all=1; printf '%s\n' "$out" | grep -a '\[ fail \]' >&2; }
  done
done
log "report: $report"
exit $rc_all
