#!/usr/bin/env bash
# Fetches MySQL 9.7.2 (Debian source package mysql-9.7, 9.7.2-4) with apt's
# source-package support, verifies the orig tarball and unpacks a pristine
# tree into the cache. The deb-src entry is derived from the machine's own
# Debian sources (same URIs), never from a host name written here.
set -euo pipefail
. "$(dirname "$0")/common.sh"

orig="$DL_DIR/${UPSTREAM_PKG}_${UPSTREAM_VER}.orig.tar.gz"

verify() {
  local got
  got=$(sha256sum "$1" | cut -d' ' -f1)
  [ "$got" = "$UPSTREAM_SHA256" ] || die "sha256 of $(basename "$1") is $got, expected $UPSTREAM_SHA256: refusing to build from an unverified upstream"
}

find_orig() {
  ls "$DL_DIR"/${UPSTREAM_PKG}_${UPSTREAM_VER}.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -1 || true
}

ensure_deb_src() {
  local SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  local out=/etc/apt/sources.list.d/mysql-compress-deb-src.sources
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
  [ -n "$uris" ] || die "no Debian apt source found to derive a deb-src entry from"
  log "adding deb-src for: $uris (suites bookworm sid)"
  $SUDO tee "$out" >/dev/null <<SRC
Types: deb-src
URIs: $uris
Suites: bookworm sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
}

o=$(find_orig)
if [ -z "$o" ]; then
  mkdir -p "$DL_DIR"
  ensure_deb_src
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq || die "apt-get update failed"
  (cd "$DL_DIR" && apt-get source --download-only "${UPSTREAM_PKG}=${UPSTREAM_DEBVER}") \
    || die "could not fetch ${UPSTREAM_PKG}=${UPSTREAM_DEBVER} with apt-get source (is a Debian mirror reachable?)"
  o=$(find_orig)
  [ -n "$o" ] || die "apt-get source did not produce an orig tarball"
fi
if [ ! -f "$PRISTINE_DIR/.verified" ]; then
  verify "$o"
  log "unpacking $(basename "$o")"
  rm -rf "$PRISTINE_DIR.tmp"; mkdir -p "$PRISTINE_DIR.tmp"
  tar -xf "$o" -C "$PRISTINE_DIR.tmp" --strip-components=1
  [ -f "$PRISTINE_DIR.tmp/storage/innobase/page/page0zip.cc" ] || die "unpacked tree does not look like MySQL"
  rm -rf "$PRISTINE_DIR"; mv "$PRISTINE_DIR.tmp" "$PRISTINE_DIR"
  sha256sum "$o" | cut -d' ' -f1 > "$PRISTINE_DIR/.verified"
fi
log "pristine upstream at $PRISTINE_DIR"
