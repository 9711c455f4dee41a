# Developer helper, sourced: a sparse quilt tree in the cache for editing the
# patch series. Usage: . scripts/quilt-env.sh; qadd FILE; (edit) ; quilt refresh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
QTREE="$COMPRESS_CACHE_DIR/quilt"
export QUILT_PATCHES="$COMPRESS_ROOT/storage/innobase/patches"



mkdir -p "$QTREE"
ln -sfn "$QUILT_PATCHES" "$QTREE/patches"
# qadd FILE: bring the pristine copy into the sparse tree, then quilt add it.
qadd() { for f in "$@"; do
  if [ ! -e "$QTREE/$f" ]; then mkdir -p "$QTREE/$(dirname "$f")"; cp -p "$PRISTINE_DIR/$f" "$QTREE/$f"; fi
  (cd "$QTREE" && quilt add "$f"); done; }
# qsync: copy every file of the sparse tree that quilt manages into the source tree.
qsync() { bash "$COMPRESS_ROOT/scripts/prepare-tree.sh"; }
quilt() { command quilt --quiltrc "$COMPRESS_ROOT/scripts/quiltrc" "$@"; }
