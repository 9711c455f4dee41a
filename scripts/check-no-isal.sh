#!/usr/bin/env bash
# Check that InnoDB builds, links and runs WITHOUT Intel ISA-L (the optional
# library of innodb_compression_codec=isal), without a second full build.
#
# What it does: every InnoDB object that could differ without ISA-L (those
# whose compile dependencies, as ninja recorded them, include
# page0zip_codec.h or a file that tests HAVE_ISAL) is compiled again with
# the build's own compile command minus -DHAVE_ISAL and -DHAVE_ISAL_VERSION;
# the objects replace theirs in copies of libinnobase.a and
# libinnodb_zipdecompress.a; mysqld, innochecksum and ibd2sdi are linked
# again with the build's own link commands minus libisal. Then:
#   1. innodb_isal.cmake's three outcomes (ISA-L found, not found,
#      WITH_INNODB_ISAL=OFF), in a tiny CMake project that includes it;
#   2. the binaries: no libisal in ldd/readelf, no ISA-L symbol (nm), no
#      ISA-L version string; the build's own binaries as the control;
#   3. the no-ISA-L mysqld on a fresh data directory: default codec zlib,
#      'isal' refused by SET GLOBAL and by ENGINE_ATTRIBUTE, the start-up
#      warning MY-049012 when --innodb-compression-codec=isal is given,
#      compressed tables of KEY_BLOCK_SIZE 8 and 4 written and checked;
#   4. pages written by the ISA-L build (the build tree's mysqld, default
#      codec isal) read by the no-ISA-L build: CHECK TABLE EXTENDED and
#      CHECKSUM TABLE equal, ibd2sdi and innochecksum without ISA-L on its
#      files, writes by the no-ISA-L build read back by the ISA-L one;
#   5. a kill -9 of the ISA-L build (innodb_log_compressed_pages=OFF)
#      recovered by the no-ISA-L build;
#   6. (recorded, not judged) a data directory where the ISA-L build did
#      SET PERSIST innodb_compression_codec='isal', started by the
#      no-ISA-L build with its persisted options loaded.
#
# What it does NOT prove: CMake's configure of the whole tree with
# WITH_INNODB_ISAL=OFF (or without libisal-dev) is not rerun; the objects
# are compiled with the flags of the ISA-L configuration minus the two
# defines (the same flags a configure without ISA-L produces, as
# innodb_isal.cmake only adds those defines, the include directory and the
# library, which section 1 checks). Targets that are not linked here (unit
# tests, other tools) are not relinked. The build tree must be up to date
# (run scripts/build.sh first): an object older than its sources is reported
# as a warning, and such a mix proves less.
#
#   scripts/check-no-isal.sh
#   COMPRESS_NOISAL_DIR   work directory (default $COMPRESS_CACHE_DIR/no-isal;
#                         emptied at each run)
#   COMPRESS_NOISAL_PORT  TCP port of its servers (default 13399)
#   COMPRESS_NOISAL_JOBS  parallel compiles (default 2)
#   COMPRESS_NOISAL_CCACHE=0  compile without ccache (by default an object
#                         whose preprocessed source does not change without
#                         HAVE_ISAL comes from the ISA-L build's cache entry)
#
# The build trees are only read: nothing is written under $BUILD_DIR (ccache
# is used, so a second run compiles from the cache). Prints each check as
# "ok", "FAIL" or "warn", ends with "RESULT: PASS" or "RESULT: FAIL" and
# exits 1 on a failure; the report goes to
# bench/results/no-isal/report-<date>.txt.
set -euo pipefail
. "$(dirname "$0")/common.sh"

W="${COMPRESS_NOISAL_DIR:-$COMPRESS_CACHE_DIR/no-isal}"
JOBS="${COMPRESS_NOISAL_JOBS:-2}"
[ "${COMPRESS_NOISAL_CCACHE:-1}" != 0 ] || export CCACHE_DISABLE=1
BIN="$BUILD_DIR/runtime_output_directory"
MSG_DIR="$BUILD_DIR/share"
PLUGIN_DIR="$BUILD_DIR/plugin_output_directory"
RESULTS="$COMPRESS_ROOT/bench/results/no-isal"
REPORT="$RESULTS/report-$(date +%Y%m%d)${COMPRESS_VARIANT:+-$COMPRESS_VARIANT}.txt"
NEW="$W/bin"                 # the binaries linked without ISA-L
INNO=storage/innobase
LIB_INNOBASE=$INNO/libinnobase.a
LIB_ZIPDEC=$INNO/libinnodb_zipdecompress.a

[ -f "$BUILD_DIR/build.ninja" ] || die "no build tree in $BUILD_DIR: run scripts/build.sh"
for f in mysqld mysql mysqladmin innochecksum ibd2sdi; do
  [ -x "$BIN/$f" ] || die "$BIN/$f is not built: run scripts/build.sh"
done
for p in ninja ar nm ldd readelf cmake python3; do
  command -v "$p" >/dev/null || die "$p is not installed"
done

mkdir -p "$RESULTS"
: > "$REPORT"
T0=$SECONDS
npass=0 nfail=0 nwarn=0 finished=0
say() { printf '%s\n' "$*" | tee -a "$REPORT"; }
# check NAME DETAIL COMMAND [ARGS]: "ok" if COMMAND succeeds, else "FAIL".
check() {
  local name=$1 detail=$2; shift 2
  if "$@"; then npass=$((npass + 1)); say "ok    $name${detail:+ ($detail)}"
  else nfail=$((nfail + 1)); say "FAIL  $name${detail:+ ($detail)}"; fi
}
warn() { nwarn=$((nwarn + 1)); say "warn  $*"; }
note() { say "note  $*"; }
none() { ! "$@"; }                        # none COMMAND: COMMAND fails
eq() { [ "$1" = "$2" ]; }
gt() { [ "${1:-0}" -gt "${2:-0}" ]; }
has() { grep -q -e "$2" <<< "$1"; }       # has TEXT REGEX
die() {
  log "ERROR: $*"
  printf 'ABORTED: %s\n' "$*" >> "$REPORT"
  exit 1
}
trap 'die "line $LINENO: command failed: $BASH_COMMAND"' ERR

# ---------------------------------------------------------------------------
# Servers: one at a time, in $W/run, on a port of this script's own.
SRV_DIR="$W/run"; SRV_BIN="$BIN"; SRV_PORT="${COMPRESS_NOISAL_PORT:-13399}"
SRV_WAIT=240 SRV_STOP_WAIT=120
. "$(dirname "$0")/server-lib.sh"
client() { srv_client "$@"; }
writer_pid=
cleanup() {
  local rc=$?
  trap - ERR
  set +e
  [ -z "$writer_pid" ] || kill "$writer_pid" 2>/dev/null
  local p; for p in $(jobs -p); do kill "$p" 2>/dev/null; done
  if [ -d "$SRV_DIR" ]; then
    if srv_alive; then srv_stop; elif srv_running "$(srv_pid)"; then srv_kill; fi
  fi
  if [ "$finished" = 0 ]; then
    say ""
    say "RESULT: FAIL (aborted after $((SECONDS - T0)) s; $npass ok, $nfail failed before the abort; see $W)"
    [ "$rc" -ne 0 ] || rc=1
  fi
  exit "$rc"
}
trap cleanup EXIT
# start MYSQLD DATADIR ERRLOG [mysqld options]; returns 1 if it does not start
start() {
  local bin=$1 data=$2 err=$3; shift 3
  rm -f "$err"
  srv_start "$bin" "$data" "$err" --lc-messages-dir="$MSG_DIR" \
    --innodb-buffer-pool-size=64M --skip-log-bin "$@"
}
stop() { srv_stop; }
errors_in() { grep -E '\[ERROR\]' "$1" || true; }
codec() { client -e "SELECT @@innodb_compression_codec"; }
status() { client -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = '$1'"; }
check_tables() {  # check_tables DB T...: the lines of CHECK TABLE EXTENDED that are not OK
  local db=$1 t; shift
  for t in "$@"; do client -e "CHECK TABLE $db.$t EXTENDED" | grep -v $'\tstatus\tOK$' || true; done
}
sums() {  # sums DB T...: "table checksum" lines
  local db=$1 t; shift
  for t in "$@"; do client -e "CHECKSUM TABLE $db.$t" | awk '{print $1, $2}'; done
}
# try SQL: runs SQL with --force (on stdin: with -e the client stops at the
# first error); sets OUT (stdout and stderr) and RC.
try() { RC=0; OUT=$(printf '%s\n' "$1" | client --force 2>&1) || RC=$?; }
fill() {  # fill TABLE N FIRST: N rows of compressible text from id FIRST
  client -e "SET SESSION cte_max_recursion_depth = 1000000;
    INSERT INTO $1 WITH RECURSIVE s(n) AS (SELECT $3 UNION ALL SELECT n + 1 FROM s WHERE n < $3 + $2 - 1)
    SELECT n, n % 997, CONCAT(SHA2(n, 256), REPEAT(' order line item', n % 30)) FROM s"
}
mins() { printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); }
# own_command TARGET: the command that builds TARGET itself (build.ninja is only read)
own_command() { ninja -C "$BUILD_DIR" -t commands "$1" | tail -n 1; }
# count TEXT STRING: occurrences of a fixed string
count() { grep -oF -e "$2" <<< "$1" | wc -l; }
# tag OBJ: a file name for an object's logs (target.member: two targets
# have a page0zip_inflate.cc.o and a zipdecompress.cc.o)
tag() { local t=${1#"$INNO/CMakeFiles/"}; printf '%s.%s' "${t%%.dir/*}" "$(basename "$1")"; }

log "work directory $W, report $REPORT"
case "$W" in /|"$HOME"|"$COMPRESS_CACHE_DIR") die "refusing to empty $W" ;; esac
rm -rf "$W"
mkdir -p "$W/obj" "$W/lib" "$NEW" "$W/cmd" "$W/log" "$SRV_DIR"

say "# Build without ISA-L: scripts/check-no-isal.sh, $(date -u +%Y-%m-%dT%H:%MZ)"
say "work tree: $(git -C "$COMPRESS_ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$COMPRESS_ROOT" diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
say "build tree: $BUILD_DIR ($(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$BUILD_DIR/CMakeCache.txt"))"
say "mysqld: $("$BIN/mysqld" --version 2>&1 | head -1)"
ISAL_LIB=$(sed -n 's/^INNODB_ISAL_LIBRARY:FILEPATH=//p' "$BUILD_DIR/CMakeCache.txt")
ISAL_INC=$(sed -n 's/^INNODB_ISAL_INCLUDE_DIR:PATH=//p' "$BUILD_DIR/CMakeCache.txt")
say "the build's ISA-L: library ${ISAL_LIB:-none}, headers ${ISAL_INC:-none}"
case "$ISAL_LIB" in
  ''|*NOTFOUND) die "the build tree was configured without ISA-L: nothing to take out (this check needs an ISA-L build)" ;;
esac
[ -f "$ISAL_LIB" ] || die "the build's ISA-L library $ISAL_LIB does not exist"
# Every function libisal exports: the symbols that must not be referenced.
nm -D --defined-only "$ISAL_LIB" | awk '$2 ~ /^[TWiV]$/ {sub(/@.*/, "", $3); print $3}' | sort -u > "$W/isal-exports.txt"
say "libisal exports $(wc -l < "$W/isal-exports.txt") functions"
# isal_refs FILE...: the ISA-L functions an object, archive or binary
# references or defines (its whole symbol table, not only the dynamic one)
isal_refs() {
  { nm -A "$@" 2>/dev/null; nm -D -A "$@" 2>/dev/null; } |
    awk '{print $NF}' | sed 's/@.*//' | sort -u | grep -xF -f "$W/isal-exports.txt" || true
}

# ---------------------------------------------------------------------------
say ""
say "## 1. CMake: the three outcomes of innodb_isal.cmake (a project that includes it; the tree's configure is not rerun)"
cmk="$W/cmake"
mkdir -p "$cmk/empty"
cat > "$cmk/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(x NONE)
include("$SRC_DIR/$INNO/innodb_isal.cmake")
get_directory_property(defs COMPILE_DEFINITIONS)
message(STATUS "check: libraries=[\${INNODB_ISAL_LIBRARIES}] definitions=[\${defs}]")
EOF
cmp -s "$SRC_DIR/$INNO/innodb_isal.cmake" "$COMPRESS_ROOT/$INNO/innodb_isal.cmake" ||
  warn "$SRC_DIR/$INNO/innodb_isal.cmake differs from the work tree's (run scripts/prepare-tree.sh)"
cmake_case() {  # cmake_case NAME [env and cmake arguments]: the status lines
  local name=$1; shift
  env "$@" > "$cmk/$name.log" 2>&1 || die "cmake ($name) failed: $(tail -5 "$cmk/$name.log")"
  grep -E '^-- (InnoDB compressed pages|check:)' "$cmk/$name.log" | sed 's/^/      /' | tee -a "$REPORT"
}
out=$(cmake_case found cmake -S "$cmk" -B "$cmk/found")
ver=$(sed -n 's/.*ISA-L \(.*\) (.*isal available$/\1/p' <<< "$out" | head -1)
check "ISA-L installed: 'ISA-L <version> (<library>): innodb_compression_codec=isal available'" "version ${ver:-?}" \
  has "$out" "InnoDB compressed pages: ISA-L .* (.*libisal.*): innodb_compression_codec=isal available"
check "  ... with libisal to link and HAVE_ISAL, HAVE_ISAL_VERSION defined" "" \
  has "$out" 'libraries=\[/.*libisal[^]]*\] definitions=\[HAVE_ISAL;HAVE_ISAL_VERSION="'
# ISA-L hidden: the searches rooted in an empty directory, pkg-config
# looking only there.
out=$(cmake_case notfound PKG_CONFIG_LIBDIR="$cmk/empty" cmake -S "$cmk" -B "$cmk/notfound" \
  -DCMAKE_FIND_ROOT_PATH="$cmk/empty" -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY \
  -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY)
check "ISA-L not installed: 'ISA-L not found (install libisal-dev): only innodb_compression_codec=zlib is built'" "" \
  has "$out" "InnoDB compressed pages: ISA-L not found (install libisal-dev): only innodb_compression_codec=zlib is built"
check "  ... with no library and no definition" "" has "$out" 'libraries=\[\] definitions=\[\]'
out=$(cmake_case off cmake -S "$cmk" -B "$cmk/off" -DWITH_INNODB_ISAL=OFF)
check "-DWITH_INNODB_ISAL=OFF: 'WITH_INNODB_ISAL=OFF: only innodb_compression_codec=zlib is built'" "" \
  has "$out" "InnoDB compressed pages: WITH_INNODB_ISAL=OFF: only innodb_compression_codec=zlib is built"
check "  ... with no library and no definition" "" has "$out" 'libraries=\[\] definitions=\[\]'

# ---------------------------------------------------------------------------
say ""
say "## 2. The objects that could differ without ISA-L"
# The targets compiled with -DHAVE_ISAL (build.ninja's DEFINES): only
# InnoDB's two libraries may be, as those are the ones relinked here.
awk '/^build [^ ]*\.o: /{obj=$2; sub(/:$/, "", obj)} /^  DEFINES = .*-DHAVE_ISAL( |$)/{print obj}' \
  "$BUILD_DIR/build.ninja" | sort -u > "$W/objects-with-define.txt"
targets=$(sed -E 's#^(.*)/CMakeFiles/([^/]*)\.dir/.*#\1/\2#' "$W/objects-with-define.txt" | sort -u | tr '\n' ' ')
say "targets compiled with -DHAVE_ISAL: $targets($(wc -l < "$W/objects-with-define.txt") objects)"
check "only InnoDB's libraries (innobase, innodb_zipdecompress) are compiled with -DHAVE_ISAL" "" \
  eq "$targets" "$INNO/innobase $INNO/innodb_zipdecompress "
# The files whose content depends on ISA-L: page0zip_codec.h (the codec's
# interface) and every InnoDB file that tests HAVE_ISAL.
[ -f "$SRC_DIR/$INNO/include/page0zip_codec.h" ] || die "no $INNO/include/page0zip_codec.h in $SRC_DIR"
{ echo "$SRC_DIR/$INNO/include/page0zip_codec.h"
  grep -rlE '^[[:space:]]*#[[:space:]]*(if|ifdef|ifndef|elif)\b.*HAVE_ISAL|HAVE_ISAL_VERSION' "$SRC_DIR/$INNO" \
    --include='*.cc' --include='*.h' --include='*.ic' --include='*.c' || true
} | sort -u > "$W/isal-files.txt"
say "files that depend on ISA-L: $(sed "s#^$SRC_DIR/##" "$W/isal-files.txt" | tr '\n' ' ')"
# Every object of those targets, with its dependencies as the compiler
# recorded them (ninja's deps log): one that includes any of those files.
mapfile -t all_objs < "$W/objects-with-define.txt"
ninja -C "$BUILD_DIR" -t deps "${all_objs[@]}" > "$W/deps.txt"
# Objects compiled since ccache runs with CCACHE_BASEDIR (scripts/common.sh)
# record their dependencies relative to the build directory: make them
# absolute, as the others are.
python3 - "$W/deps.txt" "$BUILD_DIR" <<'PY'
import os, sys
path, build = sys.argv[1], sys.argv[2]
out = []
for line in open(path):
    if line.startswith("    ") and not line.startswith("    /"):
        line = "    " + os.path.normpath(os.path.join(build, line.strip())) + "\n"
    out.append(line)
open(path, "w").writelines(out)
PY
nodeps=$(grep -E '^[^ ].*: #deps' "$W/deps.txt" | grep -vc '(VALID)$' || true)
ndeps=$(grep -cE '^[^ ].*: #deps' "$W/deps.txt" || true)
check "ninja has the dependencies of every one of them (VALID)" "$ndeps of ${#all_objs[@]}" \
  eq "$ndeps/$nodeps" "${#all_objs[@]}/0"
awk 'NR == FNR {f[$0] = 1; next}
     /^[^ ].*: #deps/ {obj = $1; sub(/:$/, "", obj); next}
     ($1 in f) {print obj}' "$W/isal-files.txt" "$W/deps.txt" | sort -u > "$W/objects.txt"
# Longest compile first (ha_innodb.cc), so that the others fill around it.
mapfile -t objs < <(grep 'ha_innodb' "$W/objects.txt"; grep -v 'ha_innodb' "$W/objects.txt")
build_ver=$(own_command "${objs[0]}" | grep -oE 'HAVE_ISAL_VERSION=\\"[^"\\]*' | sed 's/.*"//' || true)
check "the build's -DHAVE_ISAL_VERSION is the version the CMake check found" "build $build_ver, CMake check ${ver:-?}" \
  eq "$build_ver" "$ver"
say "objects to recompile (${#objs[@]}):"
sed 's/^/      /' "$W/objects.txt" | tee -a "$REPORT"
for o in innobase.dir/page/page0zip_codec.cc.o innobase.dir/page/page0zip_inflate.cc.o \
         innobase.dir/handler/ha_innodb.cc.o innodb_zipdecompress.dir/page/page0zip_inflate.cc.o; do
  grep -qx "$INNO/CMakeFiles/$o" "$W/objects.txt" || die "$o is not among the objects found: the dependency search is wrong"
done
# An object older than one of its dependencies: the build tree is not up to
# date, and the objects compiled here would mix with older ones.
stale=0
for o in "${objs[@]}"; do
  newer=$(awk -v o="$o" '/^[^ ].*: #deps/ {cur = $1; sub(/:$/, "", cur); next} cur == o {print $1}' "$W/deps.txt" |
    while read -r d; do if [ "$d" -nt "$BUILD_DIR/$o" ]; then echo "$d"; fi; done | head -3 | tr '\n' ' ' || true)
  if [ -n "$newer" ]; then warn "$o is older than $newer: the build tree is not up to date"; stale=1; fi
done
[ "$stale" = 1 ] || say "the build's objects are newer than all their dependencies"

# ---------------------------------------------------------------------------
say ""
say "## 3. Compile them without -DHAVE_ISAL (the build's own commands${CCACHE_DISABLE:+, ccache disabled})"
# no_isal_compile OBJ: the object's compile command without the defines,
# writing into $W/obj; dies if the command does not have the expected shape.
no_isal_compile() {
  local obj=$1 cmd new out
  cmd=$(own_command "$obj")
  out="$W/obj/${obj#"$INNO/CMakeFiles/"}"
  [ "$(count "$cmd" " -o $obj ")" = 1 ] && [ "$(count "$cmd" " -MF $obj.d ")" = 1 ] &&
    [ "$(count "$cmd" " -MT $obj ")" = 1 ] && [[ $cmd =~ \ -c\ "$SRC_DIR"/[^\ ]+$ ]] ||
    die "unexpected compile command for $obj (no single -o/-MF/-MT/-c): $cmd"
  # build.ninja writes the version define as -DHAVE_ISAL_VERSION=\"2.30.0\"
  # (the shell passes the quotes on), or, for a version with a space (CMake's
  # "unknown version"), as -DHAVE_ISAL_VERSION="\"unknown version\"".
  local vre=' -DHAVE_ISAL_VERSION=(\\"[^" ]*\\"|"\\"[^"\\]*\\"")( |$)'
  [ "$(grep -oE ' -DHAVE_ISAL( |$)' <<< "$cmd" | wc -l)" = 1 ] ||
    die "unexpected compile command for $obj: not one -DHAVE_ISAL: $cmd"
  [ "$(grep -oE "$vre" <<< "$cmd" | wc -l)" = 1 ] ||
    die "unexpected compile command for $obj: not one -DHAVE_ISAL_VERSION=\\\"...\\\": $(grep -oE '.{0,20}HAVE_ISAL_VERSION.{0,30}' <<< "$cmd")"
  new=$(sed -E "s/ -DHAVE_ISAL( |\$)/\\1/; s/$vre/\\2/" <<< "$cmd")
  # ISA-L's include directory, if it is not a system one CMake leaves out
  if [ -n "$ISAL_INC" ] && [ "$ISAL_INC" != /usr/include ]; then
    new=${new// -isystem $ISAL_INC / }; new=${new// -I$ISAL_INC / }
  fi
  case "$new" in *HAVE_ISAL*|*isal*|*ISAL*) die "ISA-L still in the compile command of $obj: $new" ;; esac
  new=${new/ -o $obj / -o $out }
  new=${new/ -MF $obj.d / -MF $out.d }
  new=${new/ -MT $obj / -MT $out }
  mkdir -p "$(dirname "$out")"
  printf '%s\n' "$new" > "$W/cmd/$(tag "$obj").sh"
  local t0=$SECONDS
  if (cd "$BUILD_DIR" && sh -c "$new") > "$W/log/$(tag "$obj").log" 2>&1; then
    echo "$((SECONDS - t0))" > "$out.seconds"
  else
    echo failed > "$out.seconds"
  fi
}
# A pool of JOBS compiles; each one leaves OBJ.seconds (or "failed").
for o in "${objs[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
  log "compiling $o without HAVE_ISAL"
  no_isal_compile "$o" &
done
wait
compile_total=0 nchanged=0
for o in "${objs[@]}"; do
  out="$W/obj/${o#"$INNO/CMakeFiles/"}"
  s=$(cat "$out.seconds" 2>/dev/null || echo failed)
  [ "$s" != failed ] && [ -s "$out" ] ||
    die "compiling $o without HAVE_ISAL failed: $(tail -20 "$W/log/$(tag "$o").log" 2>/dev/null)"
  compile_total=$((compile_total + s))
  before=$(isal_refs "$BUILD_DIR/$o" | wc -l); after=$(isal_refs "$out" | wc -l)
  if cmp -s "$BUILD_DIR/$o" "$out"; then same="identical to the build's"; else same="differs"; nchanged=$((nchanged + 1)); fi
  check "${o#"$INNO/CMakeFiles/"}: compiled, no ISA-L function referenced" \
    "${s} s; $same; ISA-L functions before $before, after $after" eq "$after" 0
done
say "removed from each compile command: -DHAVE_ISAL -DHAVE_ISAL_VERSION=\\\"$build_ver\\\""
say "compile time: $(mins "$compile_total") in all ($JOBS at a time${CCACHE_DISABLE:+, ccache disabled}); $nchanged of ${#objs[@]} objects differ from the build's"

# ---------------------------------------------------------------------------
say ""
say "## 4. libinnobase.a and libinnodb_zipdecompress.a with the objects replaced; mysqld, innochecksum, ibd2sdi linked without libisal"
# replace_in LIB TARGET: a copy of LIB with the objects of TARGET replaced
replace_in() {
  local lib=$1 target=$2 copy o m n
  copy="$W/lib/$(basename "$1")"
  cp "$BUILD_DIR/$lib" "$copy"
  head -c 8 "$copy" | grep -q '^!<arch>$' || die "$lib is not a plain ar archive (thin?)"
  n=$(ar t "$copy" | wc -l)
  for o in "${objs[@]}"; do
    [[ $o == "$INNO/CMakeFiles/$target.dir/"* ]] || continue
    m=$(basename "$o")
    [ "$(ar t "$copy" | grep -cxF "$m")" = 1 ] || die "$lib does not hold $m exactly once: ar r would be ambiguous"
    ar r "$copy" "$W/obj/${o#"$INNO/CMakeFiles/"}"
  done
  [ "$(ar t "$copy" | wc -l)" = "$n" ] || die "the copy of $lib changed its number of members"
  before=$(isal_refs "$BUILD_DIR/$lib" | wc -l); after=$(isal_refs "$copy" | wc -l)
  check "$(basename "$lib"): no member references an ISA-L function" "the build's references $before, the copy $after" \
    eq "$after" 0
}
replace_in "$LIB_INNOBASE" innobase
replace_in "$LIB_ZIPDEC" innodb_zipdecompress
# no_isal_link EXE LIB: EXE's link command with LIB replaced by its copy,
# libisal (an absolute path to libisal.so/.a or -lisal) removed and the
# output in $NEW.
no_isal_link() {
  local exe=$1 lib=$2 cmd new removed prev t0
  cmd=$(own_command "$exe")
  [ "$(count "$cmd" " -o $exe ")" = 1 ] && [ "$(count "$cmd" " $lib ")" -ge 1 ] ||
    die "unexpected link command for $exe (no single -o $exe or no $lib): $cmd"
  removed=$(tr ' ' '\n' <<< "$cmd" | grep -E '^(-lisal|-l:libisal\..*|.*/libisal\.(so|a)(\.[0-9.]+)?)$' | tr '\n' ' ' || true)
  [ -n "$removed" ] || die "the link command of $exe names no libisal: unexpected for an ISA-L build: $cmd"
  new=" $cmd "
  prev=
  while [ "$new" != "$prev" ]; do
    prev=$new
    new=$(sed -E 's/ (-lisal|-l:libisal\.[^ ]*|[^ ]*\/libisal\.(so|a)(\.[0-9.]+)?) / /g' <<< "$new")
  done
  # (checked before the work directory, "no-isal", enters the command)
  case "$new" in *isal*|*ISAL*) die "ISA-L still in the link command of $exe: $new" ;; esac
  local pat with
  pat=" $lib "; with=" $W/lib/$(basename "$lib") "
  new=${new//"$pat"/"$with"}
  [ "$(count "$new" "$pat")" = 0 ] || die "$lib is still in the link command of $exe"
  pat=" -o $exe "; with=" -o $NEW/$(basename "$exe").tmp "
  new=${new/"$pat"/"$with"}
  printf '%s\n' "$new" > "$W/cmd/link-$(basename "$exe").sh"
  t0=$SECONDS
  (cd "$BUILD_DIR" && sh -c "$new") > "$W/log/link-$(basename "$exe").log" 2>&1 ||
    die "linking $exe without libisal failed: $(grep -E 'undefined reference|error' "$W/log/link-$(basename "$exe").log" | head -10)"
  mv "$NEW/$(basename "$exe").tmp" "$NEW/$(basename "$exe")"
  say "      $exe: linked in $((SECONDS - t0)) s; removed from its link line: $removed; $lib -> \$W/lib/$(basename "$lib")"
}
no_isal_link runtime_output_directory/mysqld "$LIB_INNOBASE"
no_isal_link runtime_output_directory/innochecksum "$LIB_ZIPDEC"
no_isal_link runtime_output_directory/ibd2sdi "$LIB_ZIPDEC"
check "mysqld, innochecksum and ibd2sdi link without libisal (no undefined reference)" "" true

# ---------------------------------------------------------------------------
say ""
say "## 5. The binaries"
isal_version="ISA-L $build_ver (igzip)"
for b in mysqld innochecksum ibd2sdi; do
  l=$(ldd "$NEW/$b")
  check "$b: ldd lists no libisal" "" none has "$l" 'libisal'
  check "$b: ldd finds every library" "" none has "$l" 'not found'
  check "$b: no libisal in its NEEDED entries" "" none has "$(readelf -d "$NEW/$b")" 'libisal'
  u=$(nm -D --undefined-only "$NEW/$b" | awk '{print $NF}')
  check "$b: nm -D --undefined-only has no isal_ symbol" "" none has "$u" '^isal_'
  r=$(isal_refs "$NEW/$b" | tr '\n' ' ')
  check "$b: its whole symbol table has no function of libisal's" "$r" eq "$r" ""
  # the control: the build's own binary, where the same checks find ISA-L
  # (a program that calls no ISA-L function does not need libisal: the
  # linker runs with --as-needed, Debian's default)
  nb=$(isal_refs "$BIN/$b" | wc -l); lb=$(ldd "$BIN/$b" | grep -c libisal || true)
  if [ "$nb" -gt 0 ]; then
    check "  control: the build's $b has libisal (ldd) and references ISA-L functions" \
      "$nb functions: $(isal_refs "$BIN/$b" | tr '\n' ' ')" eq "$lb" 1
  else
    note "the build's $b calls no ISA-L function either (libisal in its ldd: $lb): no page decompression of ours is linked into it"
  fi
done
other=$(nm -D --undefined-only "$NEW/mysqld" | awk '{print $NF}' | grep -i 'isal' | tr '\n' ' ' || true)
note "symbols of the no-ISA-L mysqld containing 'isal' (nm -D --undefined-only): ${other:-none} (glibc's, not ISA-L's)"
check "mysqld: the string '$isal_version' is gone" "" none grep -qaF "$isal_version" "$NEW/mysqld"
check "  control: the build's mysqld has it" "" grep -qaF "$isal_version" "$BIN/mysqld"
hv=$("$NEW/mysqld" --no-defaults --help --verbose --lc-messages-dir="$MSG_DIR" 2>/dev/null | awk '$1 == "innodb-compression-codec" {print $2}')
hb=$("$BIN/mysqld" --no-defaults --help --verbose --lc-messages-dir="$MSG_DIR" 2>/dev/null | awk '$1 == "innodb-compression-codec" {print $2}')
check "mysqld --help --verbose: default innodb-compression-codec zlib (the build's: isal)" "$hv; $hb" eq "$hv/$hb" "zlib/isal"
v1=$("$NEW/mysqld" --version | cut -d' ' -f2-); v2=$("$BIN/mysqld" --version | cut -d' ' -f2-)
check "mysqld --version: the same as the build's" "$v1" eq "$v1" "$v2"

# ---------------------------------------------------------------------------
say ""
say "## 6. The no-ISA-L mysqld on a fresh data directory"
D1="$W/data-noisal"
srv_init "$NEW/mysqld" "$D1" --lc-messages-dir="$MSG_DIR"
check "mysqld --initialize-insecure" "" true
start "$NEW/mysqld" "$D1" "$W/noisal-1.err" --plugin-dir="$PLUGIN_DIR" \
  --plugin-load-add=compression_stats.so || die "the no-ISA-L server did not start: $(tail -5 "$W/noisal-1.err")"
check "it starts" "" true
c=$(codec); check "SELECT @@innodb_compression_codec" "$c" eq "$c" zlib
check "no MY-049012 at start-up (nothing asked for isal)" "" none grep -q 'MY-049012' "$W/noisal-1.err"
e=$(errors_in "$W/noisal-1.err"); check "no [ERROR] in its error log" "$e" eq "$e" ""
try "SET GLOBAL innodb_compression_codec = 'isal'; SHOW WARNINGS"
check "SET GLOBAL innodb_compression_codec='isal' fails (ER_WRONG_VALUE_FOR_VAR)" "$(grep ERROR <<< "$OUT")" \
  has "$OUT" "ERROR 1231 .*Variable 'innodb_compression_codec' can't be set to the value of 'isal'"
check "  ... with the warning that says why (SHOW WARNINGS)" "$(grep '^Warning' <<< "$OUT" | tr '\t' ' ')" \
  has "$OUT" "^Warning.1210.InnoDB: innodb_compression_codec=isal needs a build with ISA-L (libisal-dev); this one has zlib only"
try "SET GLOBAL innodb_compression_codec = 1"
check "SET GLOBAL innodb_compression_codec=1 (isal's number) fails too" "$OUT" has "$OUT" "ERROR 1231"
c=$(codec); check "  ... and the codec is still zlib" "$c" eq "$c" zlib
try "SET GLOBAL innodb_compression_codec = 'zlib'"
check "SET GLOBAL innodb_compression_codec='zlib' works" "$OUT" eq "$RC" 0
client -e "CREATE DATABASE ni;
  CREATE TABLE ni.t8 (id INT PRIMARY KEY, k INT, c VARCHAR(600), KEY (k)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;
  CREATE TABLE ni.t4 (id INT PRIMARY KEY, k INT, c VARCHAR(600), KEY (k)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4"
fill ni.t8 5000 1
fill ni.t4 5000 1
client -e "UPDATE ni.t8 SET c = CONCAT(c, ' updated') WHERE id % 7 = 0; DELETE FROM ni.t4 WHERE id % 11 = 0"
n=$(client -e "SELECT (SELECT COUNT(*) FROM ni.t8), (SELECT COUNT(*) FROM ni.t4)" | tr '\t' ' ')
check "ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 and 4: 5,000 rows each (INSERT ... SELECT of a recursive CTE), updates, deletes" \
  "rows $n" eq "$n" "5000 4546"
bad=$(check_tables ni t8 t4); check "CHECK TABLE ... EXTENDED: OK" "$bad" eq "$bad" ""
s=$(sums ni t8 t4 | tr '\n' ' ')
check "CHECKSUM TABLE works" "$s" has "$s" '^ni.t8 [1-9][0-9]* ni.t4 [1-9][0-9]* $'
z=$(status Innodb_zip_codec_compress_zlib); i=$(status Innodb_zip_codec_compress_isal); f=$(status Innodb_zip_codec_inflate_fast)
check "pages compressed by zlib, none by ISA-L, no fast inflate" "compress_zlib $z, compress_isal $i, inflate_fast $f" \
  eq "$(gt "$z" 100 && echo y)/$i/$f" "y/0/0"
try "CREATE TABLE ni.ta (id INT PRIMARY KEY, c VARCHAR(100)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 ENGINE_ATTRIBUTE='{\"compression_codec\": \"isal\"}'"
check "CREATE TABLE ... ENGINE_ATTRIBUTE='{\"compression_codec\": \"isal\"}' is refused (ER_ILLEGAL_HA_CREATE_OPTION)" \
  "$(grep ERROR <<< "$OUT")" has "$OUT" 'ERROR 1478 .*ENGINE_ATTRIBUTE "compression_codec": "isal" needs a build with ISA-L (libisal-dev); this one has zlib only'
n=$(client -e "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ni' AND TABLE_NAME = 'ta'")
check "  ... and the table is not created" "" eq "$n" 0
try "ALTER TABLE ni.t8 ENGINE_ATTRIBUTE='{\"compression_codec\": \"isal\"}'"
check "ALTER TABLE ... ENGINE_ATTRIBUTE='{\"compression_codec\": \"isal\"}' is refused" "$(grep ERROR <<< "$OUT")" \
  has "$OUT" 'ERROR 1478 .*needs a build with ISA-L'
check "  ... and the table keeps no attribute" "" none has "$(client -e "SHOW CREATE TABLE ni.t8")" 'ENGINE_ATTRIBUTE'
try "CREATE TABLE ni.tz (id INT PRIMARY KEY, k INT, c VARCHAR(600)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 ENGINE_ATTRIBUTE='{\"compression_codec\": \"zlib\"}'"
check "  control: ENGINE_ATTRIBUTE='{\"compression_codec\": \"zlib\"}' is accepted" "$OUT" eq "$RC" 0
ec=$(client -e "SELECT EFFECTIVE_COMPRESSION_CODEC FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'ni' AND TABLE_NAME = 'tz'")
check "  ... COMPRESSION_STATS (plugin) shows its codec" "$ec" eq "$ec" zlib
stop
start "$NEW/mysqld" "$D1" "$W/noisal-2.err" --innodb-compression-codec=isal ||
  die "the no-ISA-L server did not start with --innodb-compression-codec=isal: $(tail -5 "$W/noisal-2.err")"
check "it starts with --innodb-compression-codec=isal" "" true
l=$(grep 'MY-049012' "$W/noisal-2.err" | sed -E 's/^[^ ]+ //' || true)
check "  ... and its error log says so (MY-049012)" "$l" \
  has "$l" 'Warning.*MY-049012.*innodb_compression_codec=isal is not in this build (InnoDB was built without ISA-L): compressing pages with zlib.'
c=$(codec); check "  ... and compresses with zlib" "@@innodb_compression_codec $c" eq "$c" zlib
e=$(errors_in "$W/noisal-2.err"); check "  ... no [ERROR] in its error log" "$e" eq "$e" ""
fill ni.t8 2000 100001
bad=$(check_tables ni t8 t4 tz); check "  ... writes; CHECK TABLE ... EXTENDED: OK" "$bad" eq "$bad" ""
stop

# ---------------------------------------------------------------------------
say ""
say "## 7. Pages written by the ISA-L build (the build's mysqld), read by the no-ISA-L build"
D2="$W/data-isal"
TABLES=(x8 x4 xa xb)
srv_init "$BIN/mysqld" "$D2" --lc-messages-dir="$MSG_DIR"
start "$BIN/mysqld" "$D2" "$W/isal-1.err" --plugin-dir="$PLUGIN_DIR" --plugin-load-add=compression_stats.so ||
  die "the build's server did not start: $(tail -5 "$W/isal-1.err")"
c=$(codec); check "the build's server: @@innodb_compression_codec" "$c" eq "$c" isal
client -e "CREATE DATABASE xi;
  CREATE TABLE xi.x8 (id INT PRIMARY KEY, k INT, c VARCHAR(600), KEY (k)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;
  CREATE TABLE xi.x4 (id INT PRIMARY KEY, k INT, c VARCHAR(600), KEY (k)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4;
  CREATE TABLE xi.xa (id INT PRIMARY KEY, k INT, c VARCHAR(600), KEY (k)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8
    ENGINE_ATTRIBUTE='{\"compression_codec\": \"isal\", \"compression_level\": 9}';
  CREATE TABLE xi.xb (id INT PRIMARY KEY, k INT, c MEDIUMTEXT) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8"
fill xi.x8 20000 1
fill xi.x4 20000 1
fill xi.xa 5000 1
client -e "SET SESSION cte_max_recursion_depth = 10000;
  INSERT INTO xi.xb WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 500)
    SELECT n, n, REPEAT(CONCAT(SHA2(n, 256), ' blob text '), 20 + n % 200) FROM s;
  UPDATE xi.x8 SET c = CONCAT(c, ' updated') WHERE id % 7 = 0; DELETE FROM xi.x4 WHERE id % 11 = 0"
i=$(status Innodb_zip_codec_compress_isal); z=$(status Innodb_zip_codec_compress_zlib)
check "the build's server compressed the pages with ISA-L" "compress_isal $i, compress_zlib $z" gt "$i" 1000
ec=$(client -e "SELECT EFFECTIVE_COMPRESSION_CODEC FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'xi' AND TABLE_NAME = 'xa'")
check "  xi.xa (ENGINE_ATTRIBUTE compression_codec isal): COMPRESSION_STATS shows isal" "$ec" eq "$ec" isal
bad=$(check_tables xi "${TABLES[@]}"); check "  CHECK TABLE ... EXTENDED on the build's server: OK" "$bad" eq "$bad" ""
sums xi "${TABLES[@]}" > "$W/sums-isal.txt"
stop
check "  clean shutdown" "" none srv_running "$(srv_pid)"
# The tools on the files the ISA-L build wrote (offline).
for t in x8 x4 xb; do
  rc1=0; "$BIN/innochecksum" "$D2/xi/$t.ibd" > "$W/innochecksum-isal-$t.txt" 2>&1 || rc1=$?
  rc2=0; "$NEW/innochecksum" "$D2/xi/$t.ibd" > "$W/innochecksum-noisal-$t.txt" 2>&1 || rc2=$?
  check "innochecksum without ISA-L on $t.ibd: no error, as the build's" "exit $rc2, build's $rc1" eq "$rc2/$rc1" 0/0
done
rc1=0; "$BIN/ibd2sdi" "$D2/xi/x8.ibd" > "$W/ibd2sdi-isal.json" 2>"$W/ibd2sdi-isal.err" || rc1=$?
rc2=0; "$NEW/ibd2sdi" "$D2/xi/x8.ibd" > "$W/ibd2sdi-noisal.json" 2>"$W/ibd2sdi-noisal.err" || rc2=$?
same=differ; cmp -s "$W/ibd2sdi-isal.json" "$W/ibd2sdi-noisal.json" && same=same
named=no; grep -q '"name": "x8"' "$W/ibd2sdi-noisal.json" && named=yes
check "ibd2sdi without ISA-L on x8.ibd (its SDI pages are compressed): the table's SDI, the same output as the build's" \
  "exit $rc2, build's $rc1; output $same, $(wc -c < "$W/ibd2sdi-noisal.json") bytes, names x8: $named" \
  eq "$rc2/$rc1/$same/$named" "0/0/same/yes"
start "$NEW/mysqld" "$D2" "$W/noisal-3.err" --plugin-dir="$PLUGIN_DIR" --plugin-load-add=compression_stats.so ||
  die "the no-ISA-L server did not start on the ISA-L build's data directory: $(tail -5 "$W/noisal-3.err")"
e=$(errors_in "$W/noisal-3.err"); check "the no-ISA-L server starts on it, no [ERROR]" "$e" eq "$e" ""
bad=$(check_tables xi "${TABLES[@]}"); check "CHECK TABLE ... EXTENDED: OK (4 tables)" "$bad" eq "$bad" ""
sums xi "${TABLES[@]}" > "$W/sums-noisal.txt"
check "CHECKSUM TABLE equal to the ISA-L server's" "$(tr '\n' ' ' < "$W/sums-noisal.txt")" \
  cmp -s "$W/sums-isal.txt" "$W/sums-noisal.txt"
n=$(client -e "SELECT COUNT(*), SUM(LENGTH(c)) FROM xi.xb" | tr '\t' ' ')
check "the off-page columns (xi.xb, compressed BLOB pages) read back" "$n" has "$n" '^500 [1-9]'
ec=$(client -e "SELECT EFFECTIVE_COMPRESSION_CODEC FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'xi' AND TABLE_NAME = 'xa'")
check "xi.xa (created with compression_codec isal): its effective codec is zlib here" "$ec" eq "$ec" zlib
fill xi.xa 3000 100001
fill xi.x4 3000 100001
client -e "UPDATE xi.x8 SET c = CONCAT(c, ' no-isal') WHERE id % 5 = 0"
i=$(status Innodb_zip_codec_compress_isal); z=$(status Innodb_zip_codec_compress_zlib)
check "writes into them (xi.xa included) are compressed by zlib" "compress_zlib $z, compress_isal $i" \
  eq "$(gt "$z" 100 && echo y)/$i" "y/0"
check "  ... and xi.xa keeps its ENGINE_ATTRIBUTE" "" has "$(client -e "SHOW CREATE TABLE xi.xa")" '"compression_codec": "isal"'
bad=$(check_tables xi "${TABLES[@]}"); check "  CHECK TABLE ... EXTENDED after the writes: OK" "$bad" eq "$bad" ""
sums xi "${TABLES[@]}" > "$W/sums-noisal-after.txt"
stop
start "$BIN/mysqld" "$D2" "$W/isal-2.err" || die "the build's server did not start again: $(tail -5 "$W/isal-2.err")"
bad=$(check_tables xi "${TABLES[@]}"); check "back on the ISA-L build: CHECK TABLE ... EXTENDED OK" "$bad" eq "$bad" ""
sums xi "${TABLES[@]}" > "$W/sums-isal-after.txt"
check "  CHECKSUM TABLE equal to what the no-ISA-L server left" "" cmp -s "$W/sums-noisal-after.txt" "$W/sums-isal-after.txt"
stop

# ---------------------------------------------------------------------------
say ""
say "## 8. A kill -9 of the ISA-L build (innodb_log_compressed_pages=OFF), recovered by the no-ISA-L build"
start "$BIN/mysqld" "$D2" "$W/isal-3.err" --innodb-log-compressed-pages=OFF ||
  die "the build's server did not start: $(tail -5 "$W/isal-3.err")"
client -e "CREATE TABLE xi.w (id INT PRIMARY KEY, c VARCHAR(600), KEY (c(20))) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4"
# Each INSERT commits on its own; the acknowledgement comes after it returned.
python3 - > "$W/writes.sql" <<'EOF'
import hashlib
for i in range(1, 200001):
    h = hashlib.sha256(str(i).encode()).hexdigest()
    print(f"INSERT INTO xi.w VALUES ({i}, '{h}{' lorem ipsum' * (i % 40)}'); SELECT 'ack', {i};")
EOF
( "$BIN/mysql" --socket="$(srv_sock)" -uroot -N -B < "$W/writes.sql" 2>/dev/null |
    awk '$1 == "ack" {print $2; fflush()}' > "$W/acks.txt" ) &
writer_pid=$!
sleep 12
i=$(status Innodb_zip_codec_compress_isal)
srv_kill
wait "$writer_pid" 2>/dev/null || true
writer_pid=
acked=$(wc -l < "$W/acks.txt"); last=$(tail -1 "$W/acks.txt")
say "      $acked transactions acknowledged before the kill; $i pages compressed by ISA-L"
start "$NEW/mysqld" "$D2" "$W/noisal-4.err" ||
  die "the no-ISA-L server did not recover the ISA-L build's crash: $(tail -10 "$W/noisal-4.err")"
e=$(errors_in "$W/noisal-4.err"); check "the no-ISA-L server recovers it, no [ERROR]" "$e" eq "$e" ""
have=$(client -e "SELECT COUNT(*) FROM xi.w WHERE id <= ${last:-0}")
check "every acknowledged transaction is there" "$acked acknowledged, $have rows up to the last one" \
  eq "$(gt "$acked" 0 && [ "$have" -ge "$acked" ] && echo y)" y
bad=$(check_tables xi w "${TABLES[@]}"); check "CHECK TABLE ... EXTENDED: OK (5 tables)" "$bad" eq "$bad" ""
stop

# ---------------------------------------------------------------------------
say ""
say "## 9. innodb_compression_codec=isal persisted (SET PERSIST) by the ISA-L build, read by the no-ISA-L build"
start "$BIN/mysqld" "$D2" "$W/isal-4.err" || die "the build's server did not start: $(tail -5 "$W/isal-4.err")"
client -e "SET PERSIST innodb_compression_codec = 'isal'"
stop
# server-lib.sh runs mysqld with --no-defaults, which skips mysqld-auto.cnf:
# this wrapper puts --defaults-file=<empty file> in its place, so that the
# persisted options are read as they are by a server in production.
: > "$W/empty.cnf"
cat > "$W/with-persisted.sh" <<EOF
#!/bin/sh
bin=\$1; shift; [ "\$1" = --no-defaults ] && shift
exec "\$bin" --defaults-file="$W/empty.cnf" "\$@"
EOF
chmod +x "$W/with-persisted.sh"
rc=0; SRV_WRAPPER="$W/with-persisted.sh" SRV_WAIT=120 start "$NEW/mysqld" "$D2" "$W/noisal-5.err" || rc=$?
l=$(grep -iE 'MY-049012|MY-013140|persist' "$W/noisal-5.err" | sed -E 's/^[^ ]+ [0-9]+ //' || true)
# shellcheck disable=SC2001
say "$(sed 's/^/      error log: /' <<< "$l")"
check "the no-ISA-L build starts with its persisted options read (mysqld-auto.cnf: innodb_compression_codec isal)" \
  "" eq "$rc" 0
if [ "$rc" = 0 ]; then
  c=$(codec); check "  ... and compresses with zlib" "@@innodb_compression_codec $c" eq "$c" zlib
  check "  ... its error log says why (MY-011268, the persisted value refused)" "" \
    has "$l" "MY-011268.*Configuring persisted options failed: .*innodb_compression_codec.* to the value of 'isal'"
  bad=$(check_tables xi w "${TABLES[@]}"); check "  CHECK TABLE ... EXTENDED: OK (5 tables)" "$bad" eq "$bad" ""
  note "that line is an [ERROR] of the server's persisted options, where --innodb-compression-codec=isal gives InnoDB's [Warning] MY-049012"
  stop
else
  srv_kill
fi

# ---------------------------------------------------------------------------
finished=1
elapsed=$((SECONDS - T0))
say ""
say "objects recompiled: ${#objs[@]} ($nchanged differ from the build's); compile time $(mins "$compile_total")"
say "time: $(mins "$elapsed") ($elapsed s); checks: $npass ok, $nfail failed, $nwarn warnings"
say "work directory (objects, commands, logs, data directories): $W"
if [ "$nfail" -eq 0 ]; then
  say "RESULT: PASS: InnoDB builds, links and runs without ISA-L ($npass checks)"
else
  say "RESULT: FAIL: $nfail of $((npass + nfail)) checks failed"
  exit 1
fi
