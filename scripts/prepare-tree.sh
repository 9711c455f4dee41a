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
set -euo pipefail
. "$(dirname "$0")/common.sh"

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
series_files=()
for s in "$COMPRESS_ROOT/patches/series" "$COMPRESS_ROOT/storage/innobase/patches/series"; do
  [ -f "$s" ] && series_files+=("$s")
done
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
overlay_list() {
  (cd "$COMPRESS_ROOT" && for d in storage plugin mysql-test include sql components; do
     [ -d "$d" ] && find "$d" -type f ! -path '*/patches/*' ! -name '*.orig' ! -name '*.rej' ! -name '*~'
   done) | sort
}
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
