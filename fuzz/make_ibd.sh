#!/usr/bin/env bash
# The .ibd files that the seed corpora are cut from (scripts/fuzz.sh ibd
# OUTDIR; fuzz/README.md). For each logical page size (16, 8 and 4 KB) it
# initializes a private server (scripts/server.sh with its own
# COMPRESS_SERVER_DIR and port), creates ROW_FORMAT=COMPRESSED tables at
# every KEY_BLOCK_SIZE the page size allows, under both codecs (zlib and
# isal, the table's ENGINE_ATTRIBUTE) and with innodb_compression_append ON
# for some, fills them (B-trees of several levels, updates that go to the
# modification log, deletes, inserts out of key order, secondary indexes,
# off-page BLOBs of 1-100 KB that compress well and badly, a spatial
# index), stops the server cleanly (every page written) and copies the
# .ibd files to OUTDIR/<page size>k/. Every server it starts it stops.
#   FUZZ_IBD_FAMILIES   page sizes to do (default "16k 8k 4k")
#   FUZZ_IBD_PORT       first TCP port (default 13399)
#   FUZZ_IBD_SERVER_DIR parent of the servers' directories (default /tmp)
set -euo pipefail
. "$(dirname "$0")/../scripts/common.sh"

out=${1:?usage: make_ibd.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
BIN="$BUILD_DIR/runtime_output_directory"
[ -x "$BIN/mysqld" ] || die "mysqld is not built ($BIN/mysqld)"
port=${FUZZ_IBD_PORT:-13399}
parent=${FUZZ_IBD_SERVER_DIR:-/tmp}

# sql FAMILY_KB: the statements for one server.
sql() {
  local fam=$1 kbs codec app t
  echo "CREATE DATABASE IF NOT EXISTS fz; USE fz;"
  echo "SET SESSION cte_max_recursion_depth = 100000;"
  echo "SET SESSION group_concat_max_len = 1048576;"
  echo "CREATE TABLE rnd (k INT PRIMARY KEY, v VARBINARY(1024)) ROW_FORMAT=DYNAMIC;"
  echo "INSERT INTO rnd WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 100) SELECT n, RANDOM_BYTES(1024) FROM s;"
  for kbs in 1 2 4 8 16; do
    [ "$kbs" -le "$fam" ] || continue
    for codec in zlib isal isal_app; do
      t="t_k${kbs}_${codec}"
      app=OFF; [ "$codec" = isal_app ] && app=ON
      cat <<EOF
SET GLOBAL innodb_compression_append = $app;
CREATE TABLE $t (
  id INT NOT NULL PRIMARY KEY,
  a VARCHAR(200) NOT NULL,
  b INT NOT NULL,
  c VARCHAR(40),
  d DATETIME NOT NULL,
  e DECIMAL(12,2),
  KEY (b), KEY (c, b)
) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=$kbs
  ENGINE_ATTRIBUTE='{"compression_codec":"${codec%_app}"}';
INSERT INTO $t
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3000)
  SELECT n * 4, CONCAT('row ', n, ' ', REPEAT(CHAR(65 + n % 26), n % 60),
                       IF(n % 7 = 0, LEFT(SHA2(n, 256), 32), '')),
         n % 97, IF(n % 5 = 0, NULL, LEFT(SHA2(n % 300, 256), 40)),
         '2026-01-01' + INTERVAL n MINUTE, n * 1.25
  FROM s;
-- out of key order: records in the middle of pages
INSERT INTO $t
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 600)
  SELECT ((n * 7919) % 3000) * 4 + 1 + n % 3, CONCAT('late ', n), n % 11,
         LEFT(SHA2(n, 256), 32), '2026-06-01' + INTERVAL n SECOND, NULL
  FROM s;
-- in place: the modification log
UPDATE $t SET e = e + 1, b = b + 1 WHERE id % 13 = 0;
UPDATE $t SET a = CONCAT(a, '+') WHERE id % 29 = 0;
-- deleted records: the free list, garbage
DELETE FROM $t WHERE id % 17 = 0;
SET GLOBAL innodb_compression_append = OFF;
EOF
    done
    for codec in zlib isal; do
      t="b_k${kbs}_${codec}"
      cat <<EOF
CREATE TABLE $t (
  id INT NOT NULL PRIMARY KEY,
  note VARCHAR(100),
  body MEDIUMBLOB,
  txt MEDIUMTEXT
) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=$kbs
  ENGINE_ATTRIBUTE='{"compression_codec":"$codec"}';
INSERT INTO $t
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 48)
  SELECT n, CONCAT('blob ', n),
         IF(n % 3 = 0,
            -- badly compressible: random bytes, n * 2 KB
            (SELECT GROUP_CONCAT(v ORDER BY k SEPARATOR '') FROM rnd WHERE k <= n * 2),
            REPEAT(CONCAT('The blob of row ', n, ' says hello. '), n * 40)),
         IF(n % 4 = 0, REPEAT(CONCAT(LEFT(SHA2(n, 256), 32), ' text '), n * 20), NULL)
  FROM s;
UPDATE $t SET note = CONCAT(note, ' updated') WHERE id % 5 = 0;
DELETE FROM $t WHERE id % 11 = 0;
EOF
    done
  done
  cat <<EOF
CREATE TABLE g_k$(( fam < 8 ? fam : 8 ))_isal (
  id INT NOT NULL PRIMARY KEY,
  p POINT NOT NULL SRID 0,
  SPATIAL KEY (p)
) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=$(( fam < 8 ? fam : 8 ));
INSERT INTO g_k$(( fam < 8 ? fam : 8 ))_isal
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3000)
  SELECT n, POINT(n % 100, n DIV 100) FROM s;
EOF
}

started=()
cleanup() {
  local d
  for d in "${started[@]}"; do
    COMPRESS_SERVER_DIR="$d" bash "$COMPRESS_ROOT/scripts/server.sh" stop || true
  done
}
trap cleanup EXIT

for fam in ${FUZZ_IBD_FAMILIES:-16k 8k 4k}; do
  kb=${fam%k}
  sdir="$parent/fuzzsrv-$fam"
  opts=""
  [ "$kb" = 16 ] || opts="--innodb-page-size=$fam"
  if [ ! -d "$sdir/data/mysql" ]; then
    rm -rf "$sdir"
    mkdir -p "$sdir"
    # server.sh initializes without options: the page size is fixed at
    # initialization, so initialize here.
    SRV_DIR="$sdir" SRV_BIN="$BIN" SRV_PORT="$port" bash "$COMPRESS_ROOT/scripts/server-lib.sh" \
      init "$BIN" "$sdir/data" $opts
  fi
  started+=("$sdir")
  COMPRESS_SERVER_DIR="$sdir" COMPRESS_SERVER_PORT="$port" COMPRESS_SERVER_OPTS="$opts" \
    bash "$COMPRESS_ROOT/scripts/server.sh" start
  log "$fam: creating the tables"
  COMPRESS_SERVER_DIR="$sdir" COMPRESS_SERVER_PORT="$port" \
    bash "$COMPRESS_ROOT/scripts/server.sh" client -e "DROP DATABASE IF EXISTS fz"
  sql "$kb" | COMPRESS_SERVER_DIR="$sdir" COMPRESS_SERVER_PORT="$port" \
    bash "$COMPRESS_ROOT/scripts/server.sh" client
  # A clean shutdown writes every page.
  COMPRESS_SERVER_DIR="$sdir" bash "$COMPRESS_ROOT/scripts/server.sh" stop
  mkdir -p "$out/$fam"
  cp "$sdir"/data/fz/*.ibd "$out/$fam"/
  log "$fam: $(ls "$out/$fam" | wc -l) .ibd files, $(du -sh "$out/$fam" | cut -f1) in $out/$fam"
  port=$((port + 1))
done
