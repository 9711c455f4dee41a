#!/usr/bin/env bash
# Gets MySQL 9.7.2's source tarball into the cache, verifies it against the
# recorded SHA-256 and unpacks a pristine tree. Two ways to get the tarball,
# both verified the same way (the copy in the cache is hashed before use):
#   - apt: Debian's source package mysql-9.7 9.7.2-4 with apt's
#     source-package support (the default). The deb-src entry is derived
#     from the machine's own Debian sources (same URIs), never from a host
#     name written here.
#   - a file the user names, for a machine whose apt no longer offers
#     9.7.2-4 (Debian's sid keeps one version of a source package) or has no
#     network: Debian's mysql-9.7_9.7.2.orig.tar.gz or MySQL's own
#     mysql-9.7.2.tar.gz (Debian's is the file MySQL signed; docs/building.md,
#     "Getting MySQL 9.7.2"). apt is not used.
#       COMPRESS_UPSTREAM_TARBALL=FILE bash scripts/demo.sh   (any script)
#       bash scripts/fetch-upstream.sh --tarball FILE
#     The file is copied into the cache only when the cache needs it (no
#     tarball there, or no verified pristine tree yet).
# Options:
#   --tarball FILE  as COMPRESS_UPSTREAM_TARBALL=FILE (the option wins)
#   --no-unpack     stop once the verified tarball is in the cache
#                   (scripts/fetch-upstream-tests.sh uses it)
# COMPRESS_DEB_SRC_FILE: where the deb-src entry is written (default under
# /etc/apt/sources.list.d; the tests point it into a temporary directory).
set -euo pipefail
. "$(dirname "$0")/common.sh"

named="${COMPRESS_UPSTREAM_TARBALL:-}"
unpack=1
while [ $# -gt 0 ]; do
  case "$1" in
    --tarball) [ $# -ge 2 ] || die "--tarball needs a file name"; named="$2"; shift 2 ;;
    --tarball=*) named="${1#--tarball=}"; shift ;;
    --no-unpack) unpack=0; shift ;;
    *) die "unknown argument $1 (usage: fetch-upstream.sh [--tarball FILE] [--no-unpack])" ;;
  esac
done

orig="$DL_DIR/${UPSTREAM_PKG}_${UPSTREAM_VER}.orig.tar.gz"
deb_src_file="${COMPRESS_DEB_SRC_FILE:-/etc/apt/sources.list.d/mysql-compress-deb-src.sources}"
verified=""   # the file this run has hashed and found right

# What to look for when apt cannot help, for the messages.
wanted() {
  cat <<EOF
  Get MySQL $UPSTREAM_VER's source tarball and name it (it is verified before use):
    file: Debian's ${UPSTREAM_PKG}_${UPSTREAM_VER}.orig.tar.gz (source package $UPSTREAM_PKG
          $UPSTREAM_DEBVER, or any $UPSTREAM_VER-N: they share it; Debian's snapshot archive
          keeps it) or MySQL's own mysql-$UPSTREAM_VER.tar.gz (Debian's is the file MySQL signed)
    size: $UPSTREAM_BYTES bytes
    SHA-256: $UPSTREAM_SHA256
  then
    COMPRESS_UPSTREAM_TARBALL=/path/to/it bash scripts/demo.sh   (or run-tests.sh, build.sh)
  or
    bash scripts/fetch-upstream.sh --tarball /path/to/it
  (docs/building.md, "Getting MySQL 9.7.2").
EOF
}

# verify FILE WHAT: refuse anything but the recorded tarball.
verify() {
  local got
  got=$(sha256sum "$1" | cut -d' ' -f1)
  if [ "$got" != "$UPSTREAM_SHA256" ]; then
    log "ERROR: sha256 of $2 is $got, expected $UPSTREAM_SHA256" \
        "($(stat -c %s "$1") bytes, expected $UPSTREAM_BYTES): it is not MySQL $UPSTREAM_VER's" \
        "source tarball; refusing to build from an unverified upstream"
    return 1
  fi
  verified="$1"
}

find_orig() {
  ls "$DL_DIR"/${UPSTREAM_PKG}_${UPSTREAM_VER}.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -1 || true
}

ensure_deb_src() {
  local SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  local out="$deb_src_file"
  if [ -f "$out" ]; then return 0; fi
  local uris=""
  # deb822 sources: take the URIs of the entries that carry Debian's main suites.
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'BEGIN{RS="";FS="\n"} {u="";s="";for(i=1;i<=NF;i++){if($i~/^URIs:/)u=$i;if($i~/^Suites:/)s=$i} if(s!~/-security/ && u!="") print u}' "$f" | sed 's/^URIs:[[:space:]]*//'
  done > /tmp/.compress-uris || true
  # one-line sources.list format
  if [ -f /etc/apt/sources.list ]; then
    awk '$1=="deb" && $0 !~ /security/ {for(i=2;i<=NF;i++) if($i ~ /^[a-z]+:\/\//){print $i; break}}' /etc/apt/sources.list >> /tmp/.compress-uris || true
  fi
  uris=$(sort -u /tmp/.compress-uris | tr '\n' ' ')
  rm -f /tmp/.compress-uris
  [ -n "$uris" ] || { log "ERROR: no Debian apt source found to derive a deb-src entry from"; wanted >&2; exit 1; }
  log "adding deb-src for: $uris (suites bookworm sid)"
  $SUDO tee "$out" >/dev/null <<SRC
Types: deb-src
URIs: $uris
Suites: bookworm sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
}

# The versions of the source package apt's index lists, oldest first.
listed_versions() {
  apt-cache showsrc "$UPSTREAM_PKG" 2>/dev/null | awk '/^Version:/{print $2}' | sort -uV || true
}

# apt_failed WHAT APT_OUTPUT: say what happened, what to do, and that
# another upstream version needs the series rebased; exit 1.
apt_failed() {
  local what="$1" out="$2" listed others newest newer apt_err
  listed=$(listed_versions | tr '\n' ' ')
  listed="${listed% }"
  others=$(listed_versions | grep -vx "$UPSTREAM_DEBVER" | tr '\n' ' ' || true)
  others="${others% }"
  # the newest listed version of another upstream version, for the rebase
  newest=$(listed_versions | awk -v p="${UPSTREAM_VER}-" 'index($0, p) != 1' | tail -1)
  newer=""
  [ -n "$others" ] && dpkg --compare-versions "${others##* }" gt "$UPSTREAM_DEBVER" 2>/dev/null &&
    newer="${others##* }"
  apt_err=$(grep -m1 '^E:' "$out" 2>/dev/null || grep -m1 '^Err' "$out" 2>/dev/null || true)
  log "ERROR: could not fetch ${UPSTREAM_PKG}=${UPSTREAM_DEBVER} ($what)."
  {
    if [ -z "$listed" ]; then
      echo "  What happened: apt's index lists no source package $UPSTREAM_PKG at all (no deb-src"
      echo "  entry for Debian's sid, $deb_src_file, or apt-get update reached no mirror)."
    elif [ -z "$(printf '%s\n' $listed | grep -x "$UPSTREAM_DEBVER")" ]; then
      echo "  What happened: Debian has moved on. apt's index lists $UPSTREAM_PKG $listed, not"
      echo "  $UPSTREAM_DEBVER (Debian's sid keeps one version of a source package), so apt"
      echo "  cannot fetch the version this series is made for."
    else
      echo "  What happened: apt's index still lists $UPSTREAM_DEBVER${others:+ (beside $others)},"
      if [ -n "$newer" ]; then
        echo "  but its files could not be downloaded: the mirror has dropped them (sid has moved"
        echo "  to $newer) or is unreachable."
      else
        echo "  but its files could not be downloaded: the mirror has dropped them or is unreachable."
      fi
    fi
    [ -n "$apt_err" ] && echo "  apt said: $apt_err"
    echo
    wanted
    echo
    local other=""
    [ -n "$newest" ] && other=" (such as ${newest%-*}, of $UPSTREAM_PKG $newest)"
    echo "  The series is made for MySQL $UPSTREAM_VER: building on another upstream version$other"
    echo "  needs the series rebased first; scripts/prepare-tree.sh --check-upstream TARBALL"
    echo "  tells which patches apply, with what fuzz (docs/building.md, \"Upstream versions\")."
  } >&2
  rm -f "$out"
  exit 1
}

fetch_with_apt() {
  local SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  local out
  out=$(mktemp "${TMPDIR:-/tmp}/compress-apt.XXXXXX")
  mkdir -p "$DL_DIR"
  ensure_deb_src
  # A failed update still leaves the lists of the last good one: go on, and
  # let apt-get source say whether they are enough.
  $SUDO apt-get update -qq > "$out" 2>&1 || { cat "$out" >&2; log "apt-get update failed; trying apt's current lists"; }
  if (cd "$DL_DIR" && apt-get source --download-only "${UPSTREAM_PKG}=${UPSTREAM_DEBVER}") 2>&1 | tee "$out" >&2; then
    rm -f "$out"; return 0
  fi
  # Another Debian revision of the same upstream version (9.7.2-5, say) has
  # the same orig tarball: Debian's archive keeps one file per name.
  local alt
  alt=$(listed_versions | awk -v p="${UPSTREAM_VER}-" 'index($0, p) == 1' | grep -vx "$UPSTREAM_DEBVER" | tail -1 || true)
  if [ -n "$alt" ]; then
    log "apt's index lists $UPSTREAM_PKG $alt, another Debian revision of $UPSTREAM_VER with the same" \
        "orig tarball: fetching that one (its tarball is checked against the recorded SHA-256)"
    if (cd "$DL_DIR" && apt-get source --download-only "${UPSTREAM_PKG}=${alt}") 2>&1 | tee -a "$out" >&2; then
      rm -f "$out"; return 0
    fi
  fi
  apt_failed "apt-get source --download-only failed" "$out"
}

# take_named FILE: copy the named tarball into the cache under Debian's
# name, hash the copy, and only then put it in place.
take_named() {
  local f="$1" part="$DL_DIR/.incoming.tar.gz"
  [ -f "$f" ] || { log "ERROR: COMPRESS_UPSTREAM_TARBALL/--tarball names $f, which is not a file"; wanted >&2; exit 1; }
  mkdir -p "$DL_DIR"
  log "taking the upstream tarball from $f (not apt)"
  cp "$f" "$part"
  if ! verify "$part" "$f"; then
    rm -f "$part"
    wanted >&2
    exit 1
  fi
  # Any other tarball the cache held for this version goes.
  local old; old=$(find_orig)
  [ -n "$old" ] && [ "$old" != "$orig" ] && rm -f "$old"
  mv -f "$part" "$orig"
  verified="$orig"
}

o=$(find_orig)
if [ -n "$named" ]; then
  if [ -n "$o" ] && [ -f "$PRISTINE_DIR/.verified" ]; then
    log "the cache already holds a verified tree of $UPSTREAM_VER: $named is not needed"
  else
    take_named "$named"
    o="$orig"
  fi
elif [ -z "$o" ]; then
  fetch_with_apt
  o=$(find_orig)
  [ -n "$o" ] || die "apt-get source did not produce an orig tarball"
fi

verify_cached() {
  [ "$verified" = "$o" ] && return 0
  verify "$o" "$o" || { log "remove $o to fetch it again, or name a good copy:"; wanted >&2; exit 1; }
}

if [ "$unpack" = 0 ]; then
  verify_cached
  log "verified $o (SHA-256 $UPSTREAM_SHA256); not unpacked (--no-unpack)"
  exit 0
fi
if [ ! -f "$PRISTINE_DIR/.verified" ]; then
  verify_cached
  log "unpacking $(basename "$o")"
  rm -rf "$PRISTINE_DIR.tmp"; mkdir -p "$PRISTINE_DIR.tmp"
  tar -xf "$o" -C "$PRISTINE_DIR.tmp" --strip-components=1
  [ -f "$PRISTINE_DIR.tmp/storage/innobase/page/page0zip.cc" ] || die "unpacked tree does not look like MySQL"
  rm -rf "$PRISTINE_DIR"; mv "$PRISTINE_DIR.tmp" "$PRISTINE_DIR"
  echo "$UPSTREAM_SHA256" > "$PRISTINE_DIR/.verified"
fi
log "pristine upstream at $PRISTINE_DIR"
