#!/usr/bin/env bash
# Copy the built server, clients and plugins into a snapshot directory that
# looks like the build tree to the benchmark harness, and print its path:
#   COMPRESS_BENCH_BUILD=$(scripts/bench-snapshot.sh [name]) bench/run.sh ...
# (name: a second snapshot beside one a running benchmark uses; default
# "default").
# so that rebuilding while a long benchmark runs does not replace the
# binaries it restarts. Everything else of the build tree is linked.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
. "$HERE/common.sh"
B="$COMPRESS_CACHE_DIR/build"
S="$COMPRESS_CACHE_DIR/bench/build-snapshot-${1:-default}"
rm -rf "$S"
mkdir -p "$S"
for e in "$B"/*; do
  n=$(basename "$e")
  case "$n" in
    runtime_output_directory|plugin_output_directory|library_output_directory)
      cp -a "$e" "$S/$n" ;;
    *) ln -s "$e" "$S/$n" ;;
  esac
done
log "snapshot of $B in $S"
echo "$S"
