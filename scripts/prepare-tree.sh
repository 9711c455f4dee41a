#!/usr/bin/env bash
# Builds the patched source tree in the cache from three inputs:
#   1. the pristine upstream tree (scripts/fetch-upstream.sh),
#   2. the quilt-style patch series (patches/series, storage/innobase/patches/series),
#      each patch applied with -p1 and no fuzz to pristine copies of the files,
#   3. our own files, overlaid at their natural paths.
# Only files whose content changed are written into the tree, and files that a
# previous run changed but that are no longer ours are restored from pristine,
# so ninja rebuilds only what really changed.
#   COMPRESS_SKIP_PATCHES="0003 0002"  leave these patches out (by number
#   prefix), to check that the tests of a feature fail without its patch.
#
#   prepare-tree.sh --check-upstream TARBALL|DIR
# checks the series against another upstream version (its source tarball, or
# an unpacked tree) without touching the cache: the files the patches touch
# are taken from it into a temporary directory, each patch is applied in
# order as the build applies it (no fuzz; offsets are fine) and, where that
# fails, with fuzz 1-3 to tell how far off it is; our overlaid files that
# exist upstream are named (the build refuses them). Prints one line per
# patch and a summary; exit 0 only if the build would take that upstream
# as it is (docs/building.md, "Upstream versions").
set -euo pipefail
. "$(dirname "$0")/common.sh"

series_files=()
for s in "$COMPRESS_ROOT/patches/series" "$COMPRESS_ROOT/storage/innobase/patches/series"; do
  [ -f "$s" ] && series_files+=("$s")
done
# series_patches: every patch of the series, in order, as a path.
series_patches() {
  local s dir p
  for s in "${series_files[@]}"; do
    dir=$(dirname "$s")
    while read -r p _; do
      case "$p" in ''|'#'*) continue ;; esac
      [ -f "$dir/$p" ] || die "$s names $p, which does not exist"
      echo "$dir/$p"
    done < "$s"
  done
}
# patch_targets PATCH: the files it changes, relative to the tree.
patch_targets() {
  grep -E '^\+\+\+ ' "$1" | awk '{print $2}' | sed 's#^[^/]*/##'
}
overlay_list() {
  (cd "$COMPRESS_ROOT" && for d in storage plugin mysql-test include sql components; do
     [ -d "$d" ] && find "$d" -type f ! -path '*/patches/*' ! -name '*.orig' ! -name '*.rej' ! -name '*~'
   done) | sort
}

check_upstream() {
  local up="$1" tree listing="" pf name f fuzz out status
  [ -n "$up" ] || die "usage: prepare-tree.sh --check-upstream TARBALL|DIR"
  work=$(mktemp -d "${TMPDIR:-/tmp}/compress-check.XXXXXX")   # global: the trap needs it
  trap 'rm -rf "$work"' EXIT
  series_patches > "$work/patches"
  while read -r pf; do patch_targets "$pf"; done < "$work/patches" | sort -u > "$work/targets"
  if [ -d "$up" ]; then
    tree="$up"
  elif [ -f "$up" ]; then
    # Two reads of the tarball (its list, then the few files the patches
    # change), no 1.3 GB tree written.
    log "listing $up"
    tar -tf "$up" > "$work/members" || die "$up is not a tar archive tar can read"
    local top; top=$(head -1 "$work/members" | cut -d/ -f1)
    sed -n "s#^$top/##p" "$work/members" | grep -v '/$' | sort > "$work/files" || true
    listing="$work/files"
    tree="$work/tree"; mkdir -p "$tree"
    { comm -12 "$work/targets" "$work/files"; grep -x MYSQL_VERSION "$work/files" || true; } |
      sed "s#^#$top/#" > "$work/wanted"
    log "extracting the files the series changes ($(wc -l < "$work/wanted") with MYSQL_VERSION)"
    tar -xf "$up" -C "$tree" --strip-components=1 -T "$work/wanted" 2>/dev/null ||
      die "could not extract the series' files from $up"
  else
    die "$up is neither a file nor a directory"
  fi
  upstream_has() {
    if [ -n "$listing" ]; then grep -qxF "$1" "$listing"; else [ -e "$tree/$1" ]; fi
  }
  local ver="unknown version"
  if [ -f "$tree/MYSQL_VERSION" ]; then
    ver=$(awk -F= '/^MYSQL_VERSION_(MAJOR|MINOR|PATCH)/{gsub(/ /,"",$2); v=v (v==""?"":".") $2} END{print v}' "$tree/MYSQL_VERSION")
  fi
  log "checking the series (made for $UPSTREAM_VER) against MySQL $ver"
  local stage="$work/stage" n=0 n_clean=0 n_fuzz=0 n_fail=0 failed_files=""
  mkdir -p "$stage" "$work/rej"
  while read -r pf; do
    name=$(basename "$pf"); n=$((n + 1))
    patch_targets "$pf" | while read -r f; do
      if [ ! -e "$stage/$f" ] && [ -e "$tree/$f" ]; then
        mkdir -p "$stage/$(dirname "$f")"; cp -p "$tree/$f" "$stage/$f"
      fi
    done
    status=""
    for fuzz in 0 1 2 3; do
      if out=$(patch -p1 --fuzz=$fuzz --dry-run --forward -d "$stage" < "$pf" 2>&1); then
        patch -p1 --fuzz=$fuzz --forward --no-backup-if-mismatch -s -d "$stage" < "$pf" >/dev/null 2>&1 ||
          die "patch $name: the dry run passed, the application did not"
        local offs; offs=$(grep -c 'offset' <<< "$out" || true)
        if [ "$fuzz" = 0 ]; then
          status="applies"
          [ "$offs" -gt 0 ] && status="applies, $offs hunk(s) at an offset"
          n_clean=$((n_clean + 1))
        else
          status="applies only with fuzz $fuzz ($(grep -c 'with fuzz' <<< "$out") hunk(s)): the build refuses it"
          n_fuzz=$((n_fuzz + 1))
        fi
        break
      fi
    done
    if [ -z "$status" ]; then
      out=$(patch -p1 --fuzz=3 --forward --no-backup-if-mismatch -r "$work/rej/$name.rej" -d "$stage" < "$pf" 2>&1) || true
      local nh where exists=""
      nh=$(grep -c '^Hunk .* FAILED' <<< "$out" || true)
      where=$(grep -E '^(patching file|checking file)' <<< "$out" | awk '{print $3}' | tr '\n' ' ' || true)
      grep -q 'already exists' <<< "$out" && exists=", creates a file upstream already has"
      status="FAILS: $nh hunk(s) rejected even with fuzz 3$exists (files: ${where% })"
      n_fail=$((n_fail + 1))
      failed_files="$failed_files $(patch_targets "$pf" | tr '\n' ' ')"
    fi
    # after a failure in the same file, what follows is only indicative
    for f in $(patch_targets "$pf"); do
      case " $failed_files " in *" $f "*) [ "${status#FAILS}" = "$status" ] && status="$status (after an earlier failure in $f)"; break ;; esac
    done
    printf '  %-50s %s\n' "$name" "$status"
  done < "$work/patches"
  local clash=0
  while read -r f; do
    [ -n "$f" ] || continue
    if upstream_has "$f"; then
      echo "  our file $f exists upstream: the build refuses to overlay it (make it a patch)"
      clash=$((clash + 1))
    fi
  done < <(overlay_list)
  echo "MySQL $ver: $n_clean of $n patches apply as the build applies them (no fuzz), $n_fuzz only with fuzz, $n_fail fail; $clash of our files exist upstream"
  [ "$n_clean" = "$n" ] && [ "$clash" = 0 ]
}

if [ "${1:-}" = "--check-upstream" ]; then
  check_upstream "${2:-}"
  exit $?
fi

[ -f "$PRISTINE_DIR/.verified" ] || bash "$COMPRESS_ROOT/scripts/fetch-upstream.sh"

if [ ! -f "$SRC_DIR/.compress-tree" ]; then
  log "creating the source tree $SRC_DIR from pristine"
  rm -rf "$SRC_DIR"
  cp -a "$PRISTINE_DIR" "$SRC_DIR"
  rm -f "$SRC_DIR/.verified"
  touch "$SRC_DIR/.compress-tree"
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/compress-stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# 1. The patch series, in order.
n_patches=0
for s in "${series_files[@]}"; do
  dir=$(dirname "$s")
  while read -r p _; do
    case "$p" in ''|'#'*) continue ;; esac
    pf="$dir/$p"
    [ -f "$pf" ] || die "$s names $p, which does not exist"
    skip=0
    for k in ${COMPRESS_SKIP_PATCHES:-}; do
      case "$p" in "$k"*) skip=1 ;; esac
    done
    if [ "$skip" = 1 ]; then
      log "SKIPPING $p (COMPRESS_SKIP_PATCHES)"
      continue
    fi
    # Bring pristine copies of the files this patch touches into the stage.
    grep -E '^\+\+\+ ' "$pf" | awk '{print $2}' | sed 's#^[^/]*/##' | while read -r f; do
      if [ ! -e "$stage/$f" ] && [ -e "$PRISTINE_DIR/$f" ]; then
        mkdir -p "$stage/$(dirname "$f")"
        cp -p "$PRISTINE_DIR/$f" "$stage/$f"
      fi
    done
    if ! out=$(patch -p1 --fuzz=0 --no-backup-if-mismatch --forward -s -d "$stage" < "$pf" 2>&1); then
      printf '%s\n' "$out" >&2
      die "patch $p does not apply to pristine $UPSTREAM_VER without fuzz"
    fi
    n_patches=$((n_patches + 1))
  done < "$s"
done

# 2. Our own files, overlaid at their natural paths.
n_overlay=0
while read -r f; do
  [ -n "$f" ] || continue
  if [ -e "$PRISTINE_DIR/$f" ]; then
    die "$f exists upstream: change it with a patch, not by overlaying the whole file"
  fi
  mkdir -p "$stage/$(dirname "$f")"
  cp -p "$COMPRESS_ROOT/$f" "$stage/$f"
  n_overlay=$((n_overlay + 1))
done < <(overlay_list)

# 3. Sync the stage into the tree, writing changed files only.
manifest="$SRC_DIR/.compress-manifest"
(cd "$stage" && find . -type f | sed 's#^\./##' | sort) > "$stage/.manifest"
n_written=0
while read -r f; do
  if ! cmp -s "$stage/$f" "$SRC_DIR/$f"; then
    mkdir -p "$SRC_DIR/$(dirname "$f")"
    cp "$stage/$f" "$SRC_DIR/$f"
    n_written=$((n_written + 1))
  fi
done < "$stage/.manifest"
# Files a previous run wrote but that are no longer ours: back to pristine.
if [ -f "$manifest" ]; then
  comm -23 "$manifest" "$stage/.manifest" | while read -r f; do
    if [ -e "$PRISTINE_DIR/$f" ]; then
      cmp -s "$PRISTINE_DIR/$f" "$SRC_DIR/$f" || cp "$PRISTINE_DIR/$f" "$SRC_DIR/$f"
    else
      rm -f "$SRC_DIR/$f"
    fi
  done
fi
cp "$stage/.manifest" "$manifest"
log "$n_patches patches applied without fuzz, $n_overlay files of ours overlaid, $n_written files written to $SRC_DIR"
