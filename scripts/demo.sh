#!/usr/bin/env bash
# The README's first command: build (incrementally), start the patched server
# on a local data directory, load a sample schema with compressed and
# uncompressed tables, run some writes and show COMPRESSION_STATS, then
# estimate every table and show the SELECTIVE advice.
set -euo pipefail
. "$(dirname "$0")/common.sh"

bash "$COMPRESS_ROOT/scripts/build.sh"
bash "$COMPRESS_ROOT/scripts/server.sh" start
log "loading examples/sample_schema.sql"
bash "$COMPRESS_ROOT/scripts/server.sh" client < "$COMPRESS_ROOT/examples/sample_schema.sql"
echo
echo "INFORMATION_SCHEMA.COMPRESSION_STATS for schema compress_demo:"
bash "$COMPRESS_ROOT/scripts/server.sh" client --table < "$COMPRESS_ROOT/examples/show_stats.sql"
log "installing plugin/compression_stats/compression_advisor.sql"
bash "$COMPRESS_ROOT/scripts/server.sh" client < "$COMPRESS_ROOT/plugin/compression_stats/compression_advisor.sql"
echo
echo "Estimates, SELECTIVE verdicts and the advisor's dry run:"
bash "$COMPRESS_ROOT/scripts/server.sh" client --table < "$COMPRESS_ROOT/examples/show_advice.sql"
cat <<MSG

blobs_random holds random bytes on 1K pages: it is built to fail, so its
FAIL_PCT and ZIP_SPLITS are high. The server keeps running:
  bash scripts/server.sh client           # a mysql prompt (root, no password)
  bash scripts/server.sh stop
MSG
