#!/usr/bin/env bash
# Fuzz targets of the compressed-page decompressors (fuzz/README.md).
#
#   scripts/fuzz.sh build [libfuzzer|replay]   compile the targets (default both
#                                  flavours; libfuzzer needs clang-14:
#                                  scripts/setup-deps.sh --fuzz)
#   scripts/fuzz.sh replay [TARGET PATH...]    run the committed corpora and
#                                  regression cases (or the given files and
#                                  directories) through the g++ ASan+UBSan
#                                  build; non-zero on any report. CI runs it.
#   scripts/fuzz.sh run TARGET SECONDS [libFuzzer options]
#                                  fuzz for SECONDS of wall time on the work
#                                  corpus (a copy of the committed one, kept
#                                  between runs); crashes go to
#                                  $FUZZ_DIR/crashes/TARGET; one line per run
#                                  in $FUZZ_DIR/log/runs.tsv
#                                  (page_decompress in libFuzzer's fork mode,
#                                  which goes on after a crash; FUZZ_FORK=0/1)
#   scripts/fuzz.sh triage TARGET  replay the crashes found so far and group
#                                  them by their report
#   scripts/fuzz.sh stats          CPU hours, runs and crashes per target
#                                  from runs.tsv
#   scripts/fuzz.sh stock-compare [PATH...]
#                                  the patched and the upstream page
#                                  decompression (zlib) on the same inputs
#                                  (default: the work corpus, the committed
#                                  corpus and regressions), one process per
#                                  input: same verdict and page, upstream
#                                  stopped where ours refuses, or ours
#                                  refusing a page with damaged records;
#                                  ours accepting what upstream refuses, or
#                                  another page, is listed and fails
#   scripts/fuzz.sh bench [ROUNDS] [REPEATS]
#                                  time page_zip_decompress_low() on the
#                                  seed corpus (real pages), zlib, patched
#                                  against upstream, built -O2 without
#                                  sanitizers, alternated REPEATS times;
#                                  writes bench/results/fuzz/decompress-bench-*
#   scripts/fuzz.sh ibd OUTDIR     start private servers (16, 8 and 4 KB
#                                  pages), create and fill the tables of
#                                  fuzz/seed_tables.sql, copy their .ibd files
#                                  to OUTDIR/<page size>k/, stop the servers
#   scripts/fuzz.sh seed IBD...    write the seed corpora fuzz/corpus/TARGET
#                                  from the compressed pages of .ibd files
#                                  (replacing them; minimized with
#                                  libFuzzer's -merge=1 if built)
#
# Targets: page_decompress (fuzz/fuzz_page_decompress.cc), lob_inflate
# (fuzz/fuzz_lob_inflate.cc).
#
#   FUZZ_SRC_DIR    patched source tree to compile the library from
#                   (default $SRC_DIR)
#   FUZZ_BUILD_DIR  configured build tree, for my_config.h, the generated
#                   headers and InnoDB's compile definitions (default
#                   $BUILD_DIR, the release build)
#   FUZZ_DIR        objects, binaries, work corpora, crashes and logs
#                   (default $COMPRESS_CACHE_DIR/fuzz)
#   FUZZ_PRISTINE=1 build and replay page_decompress against the upstream
#                   tree without our patches (zlib only), to tell whether a
#                   crash is upstream's
set -euo pipefail
. "$(dirname "$0")/common.sh"

FUZZ_SRC_DIR="${FUZZ_SRC_DIR:-$SRC_DIR}"
FUZZ_BUILD_DIR="${FUZZ_BUILD_DIR:-$BUILD_DIR}"
FUZZ_DIR="${FUZZ_DIR:-$COMPRESS_CACHE_DIR/fuzz}"
FUZZ_SRC="$COMPRESS_ROOT/fuzz"
TARGETS=(page_decompress lob_inflate)
EXTRA_DEFS=""
# FUZZ_PRISTINE=1: page_decompress against the unpatched upstream tree
# (zlib only), in FUZZ_DIR/pristine: does a crash need our patches?
if [ "${FUZZ_PRISTINE:-0}" = 1 ]; then
  FUZZ_SRC_DIR="$PRISTINE_DIR"
  FUZZ_DIR="$FUZZ_DIR/pristine"
  TARGETS=(page_decompress)
  EXTRA_DEFS="-DFUZZ_PRISTINE"
fi
CLANG="${FUZZ_CLANG:-clang++-14}"

# The sanitizers' options. UBSan stops at the first report; the one
# upstream pointer computation it may not stop at is listed in
# fuzz/ubsan.supp (fuzz/README.md says why).
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$FUZZ_SRC/ubsan.supp${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"

# Per target: its source, the library sources besides the decompression
# library's, and libFuzzer's -max_len (selector bytes + the largest input).
target_src() { echo "$FUZZ_SRC/fuzz_$1.cc"; }
target_extra() {
  case "$1" in
    page_decompress) ;;
    lob_inflate) echo "storage/innobase/lob/lob0zip_read.cc" ;;
    *) die "unknown target $1 (targets: ${TARGETS[*]})" ;;
  esac
}
target_max_len() {
  case "$1" in
    page_decompress) echo $((1 + 16384)) ;;
    lob_inflate) echo $((4 + 4 * 16384)) ;;
  esac
}
check_target() {
  local t
  for t in "${TARGETS[@]}"; do [ "$t" = "$1" ] && return 0; done
  die "unknown target $1 (targets: ${TARGETS[*]})"
}

# The sources of InnoDB's decompression library (innodb_zipdecompress),
# as the patched tree's CMakeLists.txt lists them.
lib_sources() {
  sed -n '/^SET(INNOBASE_ZIP_DECOMPRESS_SOURCES/,/)/p' \
    "$FUZZ_SRC_DIR/storage/innobase/CMakeLists.txt" |
    sed 's/SET(INNOBASE_ZIP_DECOMPRESS_SOURCES//; s/)//' | tr -s ' \n' '\n' |
    sed '/^$/d; s#^#storage/innobase/#'
}

# The compile definitions and include directories of the library in the
# configured build (its build.ninja), with the include paths pointed at
# FUZZ_SRC_DIR.
lib_flags() {
  local ninja="$FUZZ_BUILD_DIR/build.ninja" line
  [ -f "$ninja" ] || die "$ninja not found: configure the build first (scripts/build.sh)"
  line=$(grep -n '^build storage/innobase/CMakeFiles/innodb_zipdecompress.dir/page/zipdecompress.cc.o:' "$ninja" | cut -d: -f1)
  [ -n "$line" ] || die "no innodb_zipdecompress in $ninja"
  local defs incs
  defs=$(sed -n "$((line + 1)),$((line + 8))p" "$ninja" | sed -n 's/^  DEFINES = //p')
  incs=$(sed -n "$((line + 1)),$((line + 8))p" "$ninja" | sed -n 's/^  INCLUDES = //p')
  incs=${incs//"$SRC_DIR"/"$FUZZ_SRC_DIR"}
  # Release, as the tools are built (NDEBUG: no UNIV_DEBUG, no DBUG).
  printf '%s -DNDEBUG %s' "$defs" "$incs"
}

# build FLAVOUR: write FUZZ_DIR/FLAVOUR/build.ninja and run ninja -j1.
build_flavour() {
  local flavour=$1 out="$FUZZ_DIR/$1" cxx std sanitize link_sanitize main=""
  local common="-O1 -g -fno-omit-frame-pointer -ftrivial-auto-var-init=pattern"
  # Uninitialized stack words become 0xAA.. (clang) or 0xFE.. (g++) instead
  # of whatever was there: reads of them misbehave the same way every run.
  case "$flavour" in
    libfuzzer)
      command -v "$CLANG" >/dev/null ||
        die "$CLANG not found: bash scripts/setup-deps.sh --fuzz"
      cxx=$CLANG std=-std=gnu++2b
      sanitize="-fsanitize=fuzzer-no-link,address,undefined -fsanitize=alignment -fno-sanitize-recover=all -fsanitize-recover=pointer-overflow"
      link_sanitize="-fsanitize=fuzzer,address,undefined"
      ;;
    replay)
      cxx=g++ std=-std=gnu++23
      sanitize="-fsanitize=address,undefined -fsanitize=alignment -fno-sanitize-recover=all -fsanitize-recover=pointer-overflow"
      link_sanitize="-fsanitize=address,undefined"
      main="$FUZZ_SRC/replay_main.cc"
      ;;
    bench)
      # Optimized as the server's release build, without sanitizers: the
      # time of the decompression itself (fuzz.sh bench).
      cxx=g++ std=-std=gnu++23 common="-O2 -g"
      sanitize="" link_sanitize=""
      main="$FUZZ_SRC/bench_main.cc"
      TARGETS=(page_decompress)   # bench_main.cc times page_decompress
      ;;
    *) die "flavour must be libfuzzer, replay or bench, not $flavour" ;;
  esac
  [ -d "$FUZZ_SRC_DIR/storage/innobase" ] || die "$FUZZ_SRC_DIR is not a patched tree: scripts/prepare-tree.sh"
  mkdir -p "$out/obj" "$out/bin"
  local flags
  flags=$(lib_flags)
  local libs="-lz -llz4" zdir="" cc="" zflags=""
  if grep -q -- '-DHAVE_ISAL' <<< "$flags"; then libs="$libs -lisal"; fi
  # libFuzzer sees only instrumented code: with the system's zlib it is
  # blind inside inflate(), so the libfuzzer flavour compiles the zlib
  # that MySQL bundles (extra/zlib) with the same instrumentation
  # (FUZZ_ZLIB=system: the system's, as the server and the replay use).
  if [ "$flavour" = libfuzzer ] && [ "${FUZZ_ZLIB:-bundled}" != system ]; then
    zdir=$(ls -d "$FUZZ_SRC_DIR"/extra/zlib/zlib-*/ 2>/dev/null | head -1)
    zdir=${zdir%/}
    [ -n "$zdir" ] && [ -f "$zdir/inflate.c" ] || die "no bundled zlib in $FUZZ_SRC_DIR/extra/zlib (FUZZ_ZLIB=system to use the system's)"
    cc=${CLANG/clang++/clang}
    zflags="-I$zdir"
    libs="${libs/-lz /}"
  fi
  {
    echo "# generated by scripts/fuzz.sh build $flavour"
    echo "cxx = $cxx"
    echo "cxxflags = $std $common $sanitize $zflags $flags $EXTRA_DEFS -I$FUZZ_SRC"
    echo "ldflags = $link_sanitize"
    echo "libs = $libs"
    echo "rule cxx"
    echo "  command = \$cxx -MMD -MF \$out.d \$cxxflags -c \$in -o \$out"
    echo "  depfile = \$out.d"
    echo "  deps = gcc"
    echo "  description = CXX \$in"
    if [ -n "$zdir" ]; then
      echo "cc = $cc"
      echo "cflags = -O1 -g -fno-omit-frame-pointer $sanitize -I$zdir"
      echo "rule cc"
      echo "  command = \$cc -MMD -MF \$out.d \$cflags -c \$in -o \$out"
      echo "  depfile = \$out.d"
      echo "  deps = gcc"
      echo "  description = CC \$in"
    fi
    echo "rule link"
    echo "  command = \$cxx \$ldflags \$in -o \$out \$libs"
    echo "  description = LINK \$out"
    local s o libobjs=""
    while read -r s; do
      o="obj/lib/${s//\//_}.o"
      echo "build $o: cxx $FUZZ_SRC_DIR/$s"
      libobjs="$libobjs $o"
    done < <(lib_sources)
    if [ -n "$zdir" ]; then
      for s in adler32 compress crc32 deflate inffast inflate inftrees trees uncompr zutil; do
        echo "build obj/zlib/$s.o: cc $zdir/$s.c"
        libobjs="$libobjs obj/zlib/$s.o"
      done
    fi
    if [ -n "$main" ]; then
      echo "build obj/main.o: cxx $main"
    fi
    local t extra eobjs
    for t in "${TARGETS[@]}"; do
      eobjs=""
      for s in $(target_extra "$t"); do
        o="obj/lib/${s//\//_}.o"
        echo "build $o: cxx $FUZZ_SRC_DIR/$s"
        eobjs="$eobjs $o"
      done
      echo "build obj/fuzz_$t.o: cxx $(target_src "$t")"
      echo "build bin/fuzz_$t: link obj/fuzz_$t.o$eobjs$libobjs${main:+ obj/main.o}"
    done
  } > "$out/build.ninja.new"
  cmp -s "$out/build.ninja.new" "$out/build.ninja" 2>/dev/null || mv "$out/build.ninja.new" "$out/build.ninja"
  rm -f "$out/build.ninja.new"
  if ! nice ninja -C "$out" -j1 --quiet 2>&1 | { grep -v '^ninja: no work to do' || true; } >&2; then
    die "build of the $flavour flavour failed"
  fi
}

# replay_dir TARGET DIR: run every file of DIR; prints the count.
replay_dir() {
  local t=$1 d=$2 bin="$FUZZ_DIR/replay/bin/fuzz_$1" out n
  if ! out=$("$bin" "$d" 2>"$FUZZ_DIR/replay/last.err"); then
    cat "$FUZZ_DIR/replay/last.err" >&2
    log "FAILED: $t on $d"
    return 1
  fi
  n=$(sed -n 's/^\([0-9]*\) inputs$/\1/p' <<< "$out")
  echo "${n:-0}"
}

cmd_replay() {
  build_flavour replay
  local status=0 t n m
  if [ $# -gt 0 ]; then
    t=$1; shift
    check_target "$t"
    [ $# -gt 0 ] || die "usage: fuzz.sh replay [TARGET PATH...]"
    for d in "$@"; do
      n=$(replay_dir "$t" "$d") || { status=1; continue; }
      log "$t: $n inputs of $d, no report"
    done
    return $status
  fi
  for t in "${TARGETS[@]}"; do
    n=0 m=0
    if [ -d "$FUZZ_SRC/corpus/$t" ]; then
      n=$(replay_dir "$t" "$FUZZ_SRC/corpus/$t") || { status=1; continue; }
    fi
    if [ -d "$FUZZ_SRC/regressions/$t" ]; then
      m=$(replay_dir "$t" "$FUZZ_SRC/regressions/$t") || { status=1; continue; }
    fi
    echo "[fuzz] $t: $n corpus inputs, $m regression inputs: no sanitizer report"
  done
  return $status
}

cmd_run() {
  [ $# -ge 2 ] || die "usage: fuzz.sh run TARGET SECONDS [libFuzzer options]"
  local t=$1 secs=$2; shift 2
  check_target "$t"
  build_flavour libfuzzer
  local work="$FUZZ_DIR/work/$t" crashes="$FUZZ_DIR/crashes/$t" logdir="$FUZZ_DIR/log"
  mkdir -p "$work" "$crashes" "$logdir"
  # The work corpus: the committed seeds, plus what earlier runs found.
  if [ -d "$FUZZ_SRC/corpus/$t" ]; then cp -n "$FUZZ_SRC/corpus/$t"/* "$work"/ 2>/dev/null || true; fi
  local stamp logf before after cpu
  stamp=$(date -u +%Y%m%dT%H%M%SZ)
  logf="$logdir/$t-$stamp.log"
  before=$(find "$crashes" -type f | wc -l)
  log "fuzzing $t for $secs s: work corpus $work ($(find "$work" -type f | wc -l) files), crashes to $crashes, log $logf"
  # Inputs of known bugs not fixed yet are left out (fuzz/known_bugs.txt).
  local skip
  skip=$(sed -n "s/^\([a-z0-9-]*\)[[:space:]]\{1,\}$t[[:space:]].*/\1/p" "$FUZZ_SRC/known_bugs.txt" 2>/dev/null | paste -sd, -)
  [ -z "$skip" ] || log "leaving out the inputs of known bugs: $skip (fuzz/known_bugs.txt)"
  local rc=0 mode=() fork=0 t0
  t0=$(date +%s)
  # page_decompress runs in fork mode (one worker): a crash ends the job it
  # happened in, not the run, so that upstream's many bugs on damaged pages
  # (README.md) do not stop it; it costs executions (a new job per crash).
  # lob_inflate runs in process, about three times faster. FUZZ_FORK=0/1
  # chooses.
  [ "$t" = page_decompress ] && fork=1
  if [ "${FUZZ_FORK:-$fork}" != 0 ]; then mode=(-fork=1 -ignore_crashes=1); fi
  # CPU seconds of the run (user + system, with the fork mode's jobs),
  # from GNU time.
  /usr/bin/time -f '%U %S' -o "$logf.time" \
    env FUZZ_SKIP="${FUZZ_SKIP-$skip}" nice "$FUZZ_DIR/libfuzzer/bin/fuzz_$t" -max_total_time="$secs" \
      -max_len="$(target_max_len "$t")" -timeout=20 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$crashes/" "${mode[@]}" "$@" "$work" \
      > "$logf" 2>&1 || rc=$?
  local wall=$(( $(date +%s) - t0 ))
  cpu=$(awk 'END {printf "%.0f", $1 + $2}' "$logf.time" 2>/dev/null || echo 0)
  rm -f "$logf.time"
  after=$(find "$crashes" -type f | wc -l)
  local execs cov ft corp last
  # The last stats line: "#N DONE cov: .. ft: .." (in process) or
  # "#N: cov: .. ft: .. corp: .. exec/s: .. oom/timeout/crash: .." (fork).
  last=$(grep -E '^#[0-9]+:?[[:space:]]' "$logf" | tail -1 || true)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logf" | tail -1)
  [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<< "$last")
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")
  corp=$(find "$work" -type f | wc -l)
  [ -z "$last" ] || echo "$last"
  grep -E '^Done [0-9]+ runs|^INFO: exiting' "$logf" || true
  if [ ! -f "$logdir/runs.tsv" ]; then
    printf 'date\ttarget\twall_s\tcpu_s\texecs\tcov\tft\twork_corpus\tnew_crashes\texit\trevision\tsource_tree\n' > "$logdir/runs.tsv"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$stamp" "$t" "$wall" "$cpu" \
    "${execs:-0}" "${cov:-}" "${ft:-}" "$corp" "$((after - before))" "$rc" \
    "$(git -C "$COMPRESS_ROOT" rev-parse --short HEAD 2>/dev/null || echo -)" "$FUZZ_SRC_DIR" >> "$logdir/runs.tsv"
  log "$t: ${execs:-0} executions in $wall s ($cpu CPU s), $((after - before)) new crash(es) in $crashes, exit $rc"
  if [ "$rc" -ne 0 ]; then
    grep -E 'ERROR: |SUMMARY: |MISMATCH|Assertion failure|runtime error' "$logf" | head -5 >&2 || true
  fi
  return "$rc"
}

# triage TARGET: replay each crash of FUZZ_DIR/crashes/TARGET with the
# replay build and group them by the first line of their report.
cmd_triage() {
  [ $# -eq 1 ] || die "usage: fuzz.sh triage TARGET"
  local t=$1 f sig
  check_target "$t"
  build_flavour replay
  for f in "$FUZZ_DIR/crashes/$t"/*; do
    [ -f "$f" ] || continue
    sig=$("$FUZZ_DIR/replay/bin/fuzz_$t" "$f" 2>&1 >/dev/null |
      grep -m1 -E 'SUMMARY: |MISMATCH|Failing assertion|runtime error' |
      sed 's/0x[0-9a-f]*/ADDR/g; s/==[0-9]*==//' || true)
    printf '%s\t%s\n' "${sig:-no report on replay}" "$f"
  done | sort | awk -F'\t' '$1 != prev { print ""; print $1; prev = $1 } { print "    " $2 }'
}

cmd_stats() {
  local f="$FUZZ_DIR/log/runs.tsv"
  [ -f "$f" ] || die "no runs logged yet ($f)"
  case "${1:-}" in
    --markdown)
      # The table of fuzz/README.md, "Hours run": one line per run, then
      # the totals per target.
      printf '| run (UTC) | target | wall s | CPU s | executions | coverage | new crashes | series |\n'
      printf '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n'
      awk -F'\t' 'NR > 1 { printf "| %s | `%s` | %s | %s | %s | %s | %s | `%s` |\n", $1, $2, $3, $4, $5, $6, $9, $11 }' "$f"
      awk -F'\t' 'NR > 1 { cpu[$2] += $4; ex[$2] += $5; n[$2]++; cr[$2] += $9 }
        END { for (t in cpu) printf "| total | `%s` | %d runs | %.2f CPU hours | %d | | %d | |\n", t, n[t], cpu[t] / 3600, ex[t], cr[t] }' "$f" | sort
      ;;
    --update-readme)
      # Replace the generated table between its markers in fuzz/README.md.
      local readme="$FUZZ_SRC/README.md" table
      table=$(cmd_stats --markdown)
      python3 - "$readme" "$table" <<'PY'
import sys
path, table = sys.argv[1], sys.argv[2]
s = open(path).read()
a, b = "<!-- fuzz.sh stats: start -->", "<!-- fuzz.sh stats: end -->"
i, j = s.index(a) + len(a), s.index(b)
open(path, "w").write(s[:i] + "\n" + table + "\n" + s[j:])
PY
      log "fuzz/README.md: the runs table updated from $f"
      ;;
    *)
      awk -F'\t' 'NR > 1 { cpu[$2] += $4; ex[$2] += $5; n[$2]++; cr[$2] += $9 }
        END { for (t in cpu) printf "%s: %d runs, %.2f CPU hours, %d executions, %d crashes\n", t, n[t], cpu[t] / 3600, ex[t], cr[t] }' "$f" | sort
      ;;
  esac
}

cmd_seed() {
  [ $# -ge 1 ] || die "usage: fuzz.sh seed IBD..."
  local stage
  stage=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-seed.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$stage'" RETURN
  python3 "$FUZZ_SRC/seed.py" --out "$stage" "$@"
  local t have_fuzzer=0
  if command -v "$CLANG" >/dev/null; then build_flavour libfuzzer; have_fuzzer=1; fi
  for t in "${TARGETS[@]}"; do
    local dest="$FUZZ_SRC/corpus/$t"
    rm -rf "$dest.new"
    mkdir -p "$dest.new"
    if [ "$have_fuzzer" = 1 ] && [ -n "$(ls -A "$stage/$t" 2>/dev/null)" ]; then
      # Keep the inputs that add coverage, smallest first.
      "$FUZZ_DIR/libfuzzer/bin/fuzz_$t" -merge=1 -max_len="$(target_max_len "$t")" \
        "$dest.new" "$stage/$t" > "$stage/$t.merge.log" 2>&1 ||
        { tail -20 "$stage/$t.merge.log" >&2; die "merge of $t failed"; }
    else
      cp "$stage/$t"/* "$dest.new"/ 2>/dev/null || true
    fi
    # The budget of a committed corpus (fuzz/README.md).
    python3 "$FUZZ_SRC/seed.py" --trim "$dest.new" --max-files "${FUZZ_SEED_MAX_FILES:-48}" \
      --max-bytes "${FUZZ_SEED_MAX_BYTES:-196608}"
    rm -rf "$dest"
    mv "$dest.new" "$dest"
    log "$t: $(find "$dest" -type f | wc -l) seeds, $(du -sb "$dest" | cut -f1) bytes in $dest"
  done
}

cmd_stock_compare() {
  [ "${FUZZ_PRISTINE:-0}" = 1 ] && die "stock-compare builds both trees itself"
  build_flavour replay
  FUZZ_PRISTINE=1 bash "$0" build replay >&2
  local ours="$FUZZ_DIR/replay/bin/fuzz_page_decompress"
  local stock="$FUZZ_DIR/pristine/replay/bin/fuzz_page_decompress"
  local paths=("$@")
  if [ ${#paths[@]} -eq 0 ]; then
    paths=("$FUZZ_SRC/corpus/page_decompress" "$FUZZ_SRC/regressions/page_decompress")
    [ -d "$FUZZ_DIR/work/page_decompress" ] && paths+=("$FUZZ_DIR/work/page_decompress")
  fi
  local same=0 ok_same=0 stock_crash=0 stricter=0 differ=0 n=0 f a b
  local out="$COMPRESS_ROOT/bench/results/fuzz/stock-compare-$(date +%Y%m%d-%H%M).txt"
  mkdir -p "$(dirname "$out")"
  {
    echo "# scripts/fuzz.sh stock-compare, $(date -u +%FT%TZ), series $(git -C "$COMPRESS_ROOT" rev-parse --short HEAD)"
    echo "# input, ours (patched tree), upstream 9.7.2 (pristine tree), zlib"
  } > "$out"
  while IFS= read -r f; do
    n=$((n + 1))
    a=$(FUZZ_VERDICT=1 "$ours" "$f" 2>/dev/null | head -1) || true
    b=$(FUZZ_VERDICT=1 "$stock" "$f" 2>/dev/null | head -1) || true
    [ -n "$a" ] || a="stopped"
    [ -n "$b" ] || b="stopped"
    if [ "$a" = "$b" ]; then
      same=$((same + 1))
      case "$a" in ok*) ok_same=$((ok_same + 1)) ;; esac
    elif [ "$a" = refused ] && [ "$b" = stopped ]; then
      stock_crash=$((stock_crash + 1))
      printf '%s\trefused\tstopped by a sanitizer or an assertion\n' "$(basename "$f")" >> "$out"
    elif [ "$a" = refused ]; then
      # 0034's and 0035's checks refuse pages whose records overlap or whose headers
      # neither the stream nor the log wrote, which upstream returns with
      # records made of other records' bytes (fuzz/README.md).
      stricter=$((stricter + 1))
      printf '%s\trefused\t%s\tstricter\n' "$(basename "$f")" "$b" >> "$out"
    else
      differ=$((differ + 1))
      printf '%s\t%s\t%s\tDIFFER\n' "$(basename "$f")" "$a" "$b" >> "$out"
    fi
  done < <(find "${paths[@]}" -type f | sort)
  printf 'inputs %d: same verdict %d (both decompressed, same page: %d); upstream stopped (sanitizer, assertion) where ours refuses: %d; ours refuses a page upstream returns with damaged records: %d; other differences: %d\n' \
    "$n" "$same" "$ok_same" "$stock_crash" "$stricter" "$differ" | tee -a "$out"
  log "written $out"
  [ "$differ" = 0 ]
}

# bench [ROUNDS] [REPEATS]: the decompression of the seed corpus (real
# pages), zlib, by the patched and the upstream library (or the tree
# FUZZ_BENCH_BASE_SRC) built -O2 without sanitizers, alternated REPEATS
# times; the medians and their ratios go to
# bench/results/fuzz/decompress-bench-<date>.txt.
cmd_bench() {
  [ "${FUZZ_PRISTINE:-0}" = 1 ] && die "bench builds both trees itself"
  local rounds=${1:-200} repeats=${2:-7} i a b
  TARGETS=(page_decompress)
  build_flavour bench
  local ours="$FUZZ_DIR/bench/bin/fuzz_page_decompress" stock against
  if [ -n "${FUZZ_BENCH_BASE_SRC:-}" ]; then
    # Another patched tree (for example without the last patches of the
    # series) instead of upstream's.
    FUZZ_SRC_DIR="$FUZZ_BENCH_BASE_SRC" FUZZ_DIR="$FUZZ_DIR/base" bash "$0" build bench >&2
    stock="$FUZZ_DIR/base/bench/bin/fuzz_page_decompress"
    against="the tree $FUZZ_BENCH_BASE_SRC (FUZZ_BENCH_BASE_SRC)"
  else
    FUZZ_PRISTINE=1 bash "$0" build bench >&2
    stock="$FUZZ_DIR/pristine/bench/bin/fuzz_page_decompress"
    against="upstream 9.7.2 (the pristine tree)"
  fi
  local corpus="$FUZZ_SRC/corpus/page_decompress"
  local out="$COMPRESS_ROOT/bench/results/fuzz/decompress-bench-$(date +%Y%m%d-%H%M%S).txt"
  mkdir -p "$(dirname "$out")"
  {
    echo "# scripts/fuzz.sh bench $rounds $repeats, $(date -u +%FT%TZ), series $(git -C "$COMPRESS_ROOT" rev-parse --short HEAD), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "# page_zip_decompress_low() on the seed corpus (fuzz/corpus/page_decompress, real pages), zlib, g++ -O2, no sanitizers"
    echo "# ours: the patched tree $FUZZ_SRC_DIR; base: $against"
    echo "# repeat, library, inputs, decompressions, pages returned, ns per decompression"
  } > "$out"
  for i in $(seq 1 "$repeats"); do
    for lib in ours base; do
      if [ $lib = ours ]; then a=$("$ours" "$rounds" "$corpus"); else a=$("$stock" "$rounds" "$corpus"); fi
      set -- $a
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$lib" "$2" "$4" "$6" "${10}" >> "$out"
    done
  done
  awk -F'\t' '!/^#/ { v[$2] = v[$2] " " $6; ret[$2] = $5; if ($2 == "ours") o = $6; else r = r " " o / $6 }
    function median(s,   a, n, i, j, t) { n = split(s, a, " ");
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    function range(s,   a, n, i, lo, hi) { n = split(s, a, " "); lo = hi = a[1];
      for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
      return lo "-" hi }
    END { mo = median(v["ours"]); ms = median(v["base"]);
      printf "median ns per decompression: ours %.1f (range %s), base %.1f (range %s); ratio of the medians %.3f; median of the %d paired ratios (each run of ours over the base run after it) %.3f (range %s); pages returned in a run: ours %s, base %s\n",
        mo, range(v["ours"]), ms, range(v["base"]), mo / ms, split(r, tmp, " "), median(r), range(r), ret["ours"], ret["base"] }' "$out" | tee -a "$out"
  # Instructions, which the machine's load does not change: both libraries
  # under callgrind, counted inside page_zip_decompress_low() only (5
  # rounds and the uncounted warm-up round, which callgrind counts too).
  if command -v valgrind >/dev/null; then
    local ir_ours ir_base cg="$FUZZ_DIR/bench/callgrind"
    mkdir -p "$cg"
    for lib in ours base; do
      if [ $lib = ours ]; then a=$ours; else a=$stock; fi
      valgrind --tool=callgrind --callgrind-out-file="$cg/$lib.out" \
        --toggle-collect='page_zip_decompress_low*' "$a" 5 "$corpus" > "$cg/$lib.txt" 2>&1
      set -- $(grep '^inputs' "$cg/$lib.txt")
      local n=$(( $4 / 5 * 6 ))
      local ir; ir=$(sed -n 's/^totals: //p' "$cg/$lib.out")
      if [ $lib = ours ]; then ir_ours=$((ir / n)); else ir_base=$((ir / n)); fi
    done
    awk -v o="$ir_ours" -v b="$ir_base" 'BEGIN { printf "instructions per decompression (callgrind, inside page_zip_decompress_low()): ours %d, base %d; ours/base %.4f\n", o, b, o / b }' | tee -a "$out"
  fi
  log "written $out"
}

cmd_ibd() {
  [ $# -eq 1 ] || die "usage: fuzz.sh ibd OUTDIR"
  bash "$FUZZ_SRC/make_ibd.sh" "$1"
}

# The whole command runs from main(), parsed before it starts: a long
# `run` is not disturbed by an edit of this file.
main() {
  case "${1:-}" in
    build)
      shift
      if [ $# -eq 0 ]; then
        build_flavour replay
        if command -v "$CLANG" >/dev/null; then build_flavour libfuzzer
        else log "$CLANG not found: only the replay flavour built (bash scripts/setup-deps.sh --fuzz)"; fi
      else
        build_flavour "$1"
      fi
      log "built in $FUZZ_DIR"
      ;;
    replay) shift; cmd_replay "$@" ;;
    run) shift; cmd_run "$@" ;;
    stats) shift; cmd_stats "$@" ;;
    triage) shift; cmd_triage "$@" ;;
    seed) shift; cmd_seed "$@" ;;
    ibd) shift; cmd_ibd "$@" ;;
    stock-compare) shift; cmd_stock_compare "$@" ;;
    bench) shift; cmd_bench "$@" ;;
    *)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
      exit 2
      ;;
  esac
}

main "$@"; exit $?
