#!/usr/bin/env bash
# Builds mysqld and compression_stats.so of an older commit of this
# repository, for `bench/run.sh hotpath --mysqld-before PATH`, then rebuilds
# the current checkout. Usage:
#   bench/build-before.sh COMMIT [OUTDIR]
# OUTDIR defaults to $COMPRESS_CACHE_DIR/bench/bin/COMMIT; the binary is
# OUTDIR/mysqld, with the plugin (and the component every start loads) next
# to it, where the harness looks for them.
#
# How: a detached worktree of COMMIT gets this checkout's build scripts and
# top-level patch series (share/'s messages: mysqld_error.h is included by
# about 940 objects, so keeping it identical keeps them ccache hits), and is
# built in the same source tree, build tree and ccache. Only what COMMIT's
# engine patches and plugin change recompiles, twice (there and back):
# about 15-25 min each on 2 cores. While it runs the build tree holds the
# old code: run no test or benchmark of the default build meanwhile (the
# mtr suites of another COMPRESS_VARIANT are not affected).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/../scripts/common.sh"

[ $# -ge 1 ] || die "usage: bench/build-before.sh COMMIT [OUTDIR]"
commit=$(git -C "$COMPRESS_ROOT" rev-parse --short "$1^{commit}") ||
  die "$1 is not a commit of this repository"
[ -z "$COMPRESS_VARIANT" ] || die "build the default variant only (COMPRESS_VARIANT is $COMPRESS_VARIANT)"
out="${2:-$COMPRESS_CACHE_DIR/bench/bin/$commit}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compress-before.XXXXXX")
wt="$tmp/tree"

restore() {
  git -C "$COMPRESS_ROOT" worktree remove --force "$wt" 2>/dev/null || true
  rm -rf "$tmp"
  log "rebuilding the current checkout"
  bash "$COMPRESS_ROOT/scripts/build.sh"
}

git -C "$COMPRESS_ROOT" worktree add --detach "$wt" "$commit" >/dev/null
trap restore EXIT
cp "$COMPRESS_ROOT/CMakeLists.txt" "$wt/"
cp "$COMPRESS_ROOT"/scripts/*.sh "$wt/scripts/"
rm -rf "$wt/patches"
cp -a "$COMPRESS_ROOT/patches" "$wt/patches"
# The mtr suite stays this checkout's: the source tree's mysql-test/ is what
# mtr runs from (also for the other COMPRESS_VARIANTs), and COMMIT's tests
# are not needed to build COMMIT.
rm -rf "$wt/mysql-test"
cp -a "$COMPRESS_ROOT/mysql-test" "$wt/mysql-test"

log "building $commit"
bash "$wt/scripts/build.sh"
mkdir -p "$out"
cp "$BUILD_DIR/runtime_output_directory/mysqld" "$out/mysqld"
cp "$BUILD_DIR/plugin_output_directory/compression_stats.so" "$out/"
cp "$BUILD_DIR"/plugin_output_directory/component_reference_cache.so "$out/" 2>/dev/null || true
log "$commit: $out/mysqld"
