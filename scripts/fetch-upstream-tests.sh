#!/usr/bin/env bash
# Quick checks of scripts/fetch-upstream.sh (seconds; scripts/run-tests.sh
# runs them before the build). Each run uses a temporary cache and stand-ins
# for apt-get, apt-cache and sudo that record every call, so nothing here
# touches the real cache, apt or the network:
#   - a wrong file named with COMPRESS_UPSTREAM_TARBALL is refused (small
#     file of the wrong bytes; nothing is left in the cache, apt not called);
#   - --tarball naming no file is refused, with what to look for;
#   - apt failing: the message names the version the index lists instead,
#     the file option, the file names and SHA-256, and the rebase (once with
#     9.7.2-4 gone from the index, once with it listed but not served);
#   - 9.7.2-4 gone but 9.7.2-5 listed: apt fetches 9.7.2-5 (the same orig
#     tarball), and its tarball is verified (a wrong one refused);
#   - the file path: the cache's own tarball, named under MySQL's file name
#     (mysql-9.7.2.tar.gz), is verified and copied into an empty cache with
#     apt never called, and a second run finds it there (--no-unpack: the
#     1.3 GB tree is not unpacked). Needs a tarball to copy: the one in
#     $COMPRESS_CACHE_DIR/upstream, or COMPRESS_UPSTREAM_TARBALL.
# Options: --no-file-path (skip the last group), --file-path-only.
# Prints "ok N - ..." lines and "fetch-upstream-tests: N passed, M failed".
set -euo pipefail
. "$(dirname "$0")/common.sh"

groups=all
case "${1:-}" in
  '') ;;
  --no-file-path) groups=refusals ;;
  --file-path-only) groups=file ;;
  *) die "usage: fetch-upstream-tests.sh [--no-file-path|--file-path-only]" ;;
esac

src="${COMPRESS_UPSTREAM_TARBALL:-$DL_DIR/${UPSTREAM_PKG}_${UPSTREAM_VER}.orig.tar.gz}"
fetch="$COMPRESS_ROOT/scripts/fetch-upstream.sh"
T=$(mktemp -d "${TMPDIR:-/tmp}/compress-fetch-tests.XXXXXX")
trap 'rm -rf "$T"' EXIT

# Stand-ins for apt and sudo: record the call; apt-get source fails as a
# mirror that dropped the files does; apt-cache showsrc lists $STUB_VERSIONS.
mkdir -p "$T/bin"
cat > "$T/bin/apt-get" <<'EOF'
#!/bin/sh
echo "apt-get $*" >> "$STUB_LOG"
case "$*" in
  *source*"=${STUB_ALT:-none}") printf 'not the tarball\n' > "$STUB_ORIG"; exit 0 ;;
  *source*) echo "Err:1 stub://mirror/pool/main/m/mysql-9.7/mysql-9.7_9.7.2-4.dsc"
            echo "E: Failed to fetch stub://mirror/pool/main/m/mysql-9.7/mysql-9.7_9.7.2-4.dsc  404  Not Found"
            exit 100 ;;
esac
exit 0
EOF
cat > "$T/bin/apt-cache" <<'EOF'
#!/bin/sh
echo "apt-cache $*" >> "$STUB_LOG"
for v in $STUB_VERSIONS; do printf 'Package: mysql-9.7\nVersion: %s\n\n' "$v"; done
EOF
printf '#!/bin/sh\necho "sudo $*" >> "$STUB_LOG"\nexec "$@"\n' > "$T/bin/sudo"
chmod +x "$T/bin/"*
: > "$T/deb-src.sources"   # an entry "exists": none is written to /etc/apt

n_ok=0; n_fail=0
ok()   { n_ok=$((n_ok + 1)); echo "ok $((n_ok + n_fail)) - $*"; }
fail() { n_fail=$((n_fail + 1)); echo "not ok $((n_ok + n_fail)) - $*"; }
check() { local what="$1"; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
has() { grep -qF -- "$1" "$T/err"; }

# run NAME [ENV=VALUE...] -- ARGS: fetch-upstream.sh with the cache
# $T/NAME (new unless a run before used NAME), the stand-ins first on PATH; stderr in $T/err, status in $rc.
run() {
  local name="$1"; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  : > "$T/apt.log"
  set +e
  env -u COMPRESS_UPSTREAM_TARBALL PATH="$T/bin:$PATH" STUB_LOG="$T/apt.log" \
      STUB_ORIG="${UPSTREAM_PKG}_${UPSTREAM_VER}.orig.tar.gz" \
      COMPRESS_CACHE_DIR="$T/$name" COMPRESS_DEB_SRC_FILE="$T/deb-src.sources" \
      "${envs[@]}" bash "$fetch" "$@" > "$T/out" 2> "$T/err"
  rc=$?
  set -e
}
no_apt() { [ ! -s "$T/apt.log" ]; }
empty_cache() { [ -z "$(ls -A "$T/$1/upstream" 2>/dev/null)" ] && [ ! -e "$T/$1/pristine" ]; }
show_err() { sed 's/^/#   /' "$T/err"; }

if [ "$groups" != file ]; then
  # 1. a wrong file named with the environment variable
  mkdir -p "$T/bad"
  head -c 4096 /dev/urandom > "$T/bad/mysql-$UPSTREAM_VER.tar.gz"
  run wrong COMPRESS_UPSTREAM_TARBALL="$T/bad/mysql-$UPSTREAM_VER.tar.gz" -- --no-unpack
  check "wrong file: refused (exit $rc)" [ "$rc" -ne 0 ]
  check "wrong file: the message says refusing and gives the expected SHA-256 and size" \
    eval 'has "refusing to build from an unverified upstream" && has "expected $UPSTREAM_SHA256" && has "$UPSTREAM_BYTES"'
  check "wrong file: nothing left in the cache" empty_cache wrong
  check "wrong file: apt not called" no_apt
  [ "$n_fail" = 0 ] || show_err

  # 2. --tarball naming no file
  run missing -- --tarball "$T/no-such.tar.gz" --no-unpack
  check "missing file: refused (exit $rc), names the file and what to look for" \
    eval '[ "$rc" -ne 0 ] && has "$T/no-such.tar.gz" && has "mysql-$UPSTREAM_VER.tar.gz" && has "$UPSTREAM_SHA256"'
  check "missing file: apt not called, cache empty" eval 'no_apt && empty_cache missing'

  # 3. apt cannot get 9.7.2-4: the index moved on to 9.7.4-2
  run moved STUB_VERSIONS="9.7.4-2" -- --no-unpack
  check "apt, index moved on: fails (exit $rc) after apt-get source was tried" \
    eval '[ "$rc" -ne 0 ] && grep -q "apt-get source --download-only ${UPSTREAM_PKG}=${UPSTREAM_DEBVER}" "$T/apt.log"'
  check "apt, index moved on: says what happened, naming the version listed" \
    eval 'has "could not fetch ${UPSTREAM_PKG}=${UPSTREAM_DEBVER}" && has "Debian has moved on" && has "lists $UPSTREAM_PKG 9.7.4-2, not"'
  check "apt, index moved on: says what to do (the file option, both file names, size, SHA-256)" \
    eval 'has COMPRESS_UPSTREAM_TARBALL= && has "--tarball" && has "${UPSTREAM_PKG}_${UPSTREAM_VER}.orig.tar.gz" && has "mysql-$UPSTREAM_VER.tar.gz" && has "SHA-256: $UPSTREAM_SHA256" && has "$UPSTREAM_BYTES bytes"'
  check "apt, index moved on: says another version (9.7.4) needs the series rebased" \
    eval 'has "such as 9.7.4, of $UPSTREAM_PKG 9.7.4-2" && has "needs the series rebased"'
  [ "$n_fail" = 0 ] || show_err

  # 4. the index still lists 9.7.2-4 beside 9.7.4-2 but the mirror has dropped its files
  run dropped STUB_VERSIONS="$UPSTREAM_DEBVER 9.7.4-2" -- --no-unpack
  check "apt, files dropped: fails (exit $rc), says the index still lists it, apt's 404, the file option" \
    eval '[ "$rc" -ne 0 ] && has "still lists $UPSTREAM_DEBVER (beside 9.7.4-2)" && has "404  Not Found" && has COMPRESS_UPSTREAM_TARBALL= && has "needs the series rebased"'
  check "apt, files dropped: nothing left in the cache" empty_cache dropped
  [ "$n_fail" = 0 ] || show_err

  # 5. 9.7.2-4 gone, 9.7.2-5 listed: its orig tarball is fetched and verified
  # like any other (here the stand-in serves a wrong one, which is refused)
  alt="${UPSTREAM_VER}-5"
  run alt STUB_VERSIONS="$alt 9.7.4-2" STUB_ALT="$alt" -- --no-unpack
  check "apt, another revision of $UPSTREAM_VER listed: $alt fetched, its tarball verified and refused (exit $rc)" \
    eval '[ "$rc" -ne 0 ] && grep -q "source --download-only ${UPSTREAM_PKG}=$alt" "$T/apt.log" && has "another Debian revision of $UPSTREAM_VER" && has "refusing to build from an unverified upstream"'
  [ "$n_fail" = 0 ] || show_err
fi

if [ "$groups" != refusals ]; then
  if [ ! -f "$src" ]; then
    echo "# file path: SKIPPED, no tarball to copy ($src does not exist yet)"
  else
    # 6. the file path, the tarball named under MySQL's own file name
    mkdir -p "$T/good-dl"
    ln -s "$(readlink -f "$src")" "$T/good-dl/mysql-$UPSTREAM_VER.tar.gz"
    run good COMPRESS_UPSTREAM_TARBALL="$T/good-dl/mysql-$UPSTREAM_VER.tar.gz" -- --no-unpack
    cached="$T/good/upstream/${UPSTREAM_PKG}_${UPSTREAM_VER}.orig.tar.gz"
    check "named file: accepted (exit $rc)" [ "$rc" -eq 0 ]
    check "named file: in the cache under Debian's name, $(stat -c %s "$cached" 2>/dev/null || echo no) bytes, verified" \
      eval '[ "$(stat -c %s "$cached" 2>/dev/null)" = "$UPSTREAM_BYTES" ] && has "verified $cached (SHA-256 $UPSTREAM_SHA256)"'
    check "named file: apt not called, nothing else in the cache" \
      eval 'no_apt && [ "$(ls -A "$T/good/upstream")" = "$(basename "$cached")" ] && [ ! -e "$T/good/pristine" ]'
    [ "$n_fail" = 0 ] || show_err
    # 7. a later run without the option finds it in the cache
    run good -- --no-unpack
    check "later run: the cached copy verified again (exit $rc), apt not called" \
      eval '[ "$rc" -eq 0 ] && no_apt && has "verified $cached"'
    [ "$n_fail" = 0 ] || show_err
  fi
fi

echo "fetch-upstream-tests: $n_ok passed, $n_fail failed"
[ "$n_fail" = 0 ]
