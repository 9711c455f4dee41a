#!/usr/bin/env bash
# A file system of a chosen type on a loop device, for the measurements of
# sparse page-compressed files (issue 47: du against the estimate on ext4
# and XFS, DROP TABLE of punched files, a full file system).
# Usage: scripts/loopfs.sh mount TYPE SIZE DIR   (TYPE xfs|ext4|tmpfs; SIZE as truncate takes it)
#        scripts/loopfs.sh umount DIR
# The image is $COMPRESS_CACHE_DIR/loopfs/<basename of DIR>.img, a sparse
# file removed at umount. Needs root (or sudo) and loop devices; it says so
# and exits 2 where the machine has none.
set -euo pipefail
. "$(dirname "$0")/common.sh"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

case "${1:-}" in
  mount)
    type=${2:?TYPE}; size=${3:?SIZE}; dir=${4:?DIR}
    mkdir -p "$dir"
    if mountpoint -q "$dir"; then die "$dir is mounted already"; fi
    if [ "$type" = tmpfs ]; then
      $SUDO mount -t tmpfs -o size="$size" tmpfs "$dir"
    else
      command -v "mkfs.$type" >/dev/null || bash "$COMPRESS_ROOT/scripts/setup-deps.sh" --loopfs
      img="$COMPRESS_CACHE_DIR/loopfs/$(basename "$dir").img"
      mkdir -p "$(dirname "$img")"
      rm -f "$img"
      truncate -s "$size" "$img"
      case "$type" in
        xfs) mkfs.xfs -q -f "$img" ;;
        ext4) mkfs.ext4 -q -F -m 0 "$img" ;;  # no blocks reserved for root: full is full
        *) die "unknown type $type (xfs, ext4 or tmpfs)" ;;
      esac
      if ! $SUDO mount -o loop "$img" "$dir" 2>/dev/null; then
        rm -f "$img"
        log "this machine cannot mount a loop device"
        exit 2
      fi
    fi
    $SUDO chown "$(id -u):$(id -g)" "$dir"
    log "$type of $size on $dir ($(df -h "$dir" | tail -1 | awk '{print $2}'))"
    ;;
  umount)
    dir=${2:?DIR}
    $SUDO umount "$dir"
    rm -f "$COMPRESS_CACHE_DIR/loopfs/$(basename "$dir").img"
    ;;
  *) die "usage: $0 mount TYPE SIZE DIR | umount DIR" ;;
esac
