#!/usr/bin/env bash
# Builds a stock MySQL 9.7.2 server (none of our InnoDB patches) for the
# downgrade check (scripts/downgrade-check.sh), copies its programs to
# OUTDIR, then rebuilds the patched server. Usage:
#   scripts/build-stock.sh [OUTDIR]     (default $COMPRESS_CACHE_DIR/stock/bin)
#
# How: the same superbuild with every patch of storage/innobase/patches/series
# and of patches/series but 0001 left out (COMPRESS_SKIP_PATCHES), in the
# same source tree, build tree and ccache. Our new InnoDB files are still
# copied into the tree, but without the patches InnoDB's CMakeLists.txt
# does not list them, so nothing of ours is compiled into mysqld. The one
# patch kept is the top-level patches/0001-share-compression-messages.patch:
# it only adds message texts in number ranges of their own (clients
# 7900-7914, error log 49000-49010), no code and nothing on disk, and
# keeping it keeps mysqld_error.h identical, so the ~940 objects that
# include it stay ccache hits (a build without it takes about 95 min
# here). InnoDB recompiles there and back, and so does what includes
# sql/partition_element.h (patch 0004), a ccache hit where both states were
# built before.
#
# While it runs, the build tree holds stock InnoDB: run no test or
# benchmark of the default build meanwhile (the mtr suites of another
# COMPRESS_VARIANT are not affected: their binaries are in their own tree
# and the suite files in the source tree stay ours).
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ -z "$COMPRESS_VARIANT" ] || die "build the default variant only (COMPRESS_VARIANT is $COMPRESS_VARIANT)"
out="${1:-$COMPRESS_CACHE_DIR/stock/bin}"

skip=""
while read -r p _; do
  case "$p" in ''|'#'*) continue ;; esac
  skip="$skip ${p%.patch}"
done < "$COMPRESS_ROOT/storage/innobase/patches/series"
# Of the top-level series only 0001 stays (see above): 0002-0003 are test
# files, 0004-0005 give partitions their own ROW_FORMAT/KEY_BLOCK_SIZE in
# the SQL layer, which stock does not know.
while read -r p _; do
  case "$p" in ''|'#'*|0001-*) continue ;; esac
  skip="$skip ${p%.patch}"
done < "$COMPRESS_ROOT/patches/series"

restore() {
  log "rebuilding the patched server"
  COMPRESS_SKIP_PATCHES="" bash "$COMPRESS_ROOT/scripts/build.sh"
}
trap restore EXIT

log "building stock $UPSTREAM_VER InnoDB (skipping:$skip)"
COMPRESS_SKIP_PATCHES="$skip" bash "$COMPRESS_ROOT/scripts/build.sh"
mkdir -p "$out"
for p in mysqld mysql mysqladmin mysqldump; do
  cp "$BUILD_DIR/runtime_output_directory/$p" "$out/$p"
done
cp "$BUILD_DIR"/plugin_output_directory/component_reference_cache.so "$out/" 2>/dev/null || true
# Proof that it is stock: none of our symbols in the binary.
if nm -C "$out/mysqld" 2>/dev/null | grep -qE 'dict_zip_stat_add|dict_zip_opt_get|page0zip_est'; then
  die "$out/mysqld contains symbols of our patches: not a stock build"
fi
"$out/mysqld" --version > "$out/VERSION" 2>&1 || true
log "stock mysqld: $out/mysqld ($(cat "$out/VERSION"))"
