#!/usr/bin/env bash
# Downgrade check: a data directory written by the patched server, with
# per-table options, a page-compressed table in a sparse file with punched
# pages (innodb_page_compression_sparse), partitioned tables whose partitions
# had (or have) a KEY_BLOCK_SIZE of their own, the zlib guard's file, the plugin's estimates file and
# a mysql.plugin row, opened by stock MySQL 9.7.2; the same after a kill -9
# (stock recovers redo the patched server wrote, page images off); a
# mysqldump of it loaded into a fresh stock server; the data directory
# the stock server wrote opened again by the patched server; and a data
# directory stock created and wrote (the upgrade) opened by the patched
# one, which updates a compressed table stock filled in key order (pages
# zlib filled, written by zlib again where ISA-L's stream misses), and
# opened by stock again.
# Not part of CI: it needs a stock build (scripts/build-stock.sh, about 30-40 min here).
#
#   scripts/downgrade-check.sh
#   COMPRESS_STOCK_BIN   stock programs (default $COMPRESS_CACHE_DIR/stock/bin)
#   COMPRESS_DOWNGRADE_DIR work directory (default $COMPRESS_CACHE_DIR/downgrade)
#   COMPRESS_DOWNGRADE_CODEC innodb_compression_codec of the patched server
#                        (default isal: stock must read ISA-L's pages)
#
# Every check prints "ok" or "FAIL"; the report goes to
# $COMPRESS_DOWNGRADE_DIR/report.txt; exits 1 if any check failed. Checks
# marked "expected error" record what stock refuses (and that it refuses
# cleanly, with the table intact).
set -uo pipefail
. "$(dirname "$0")/common.sh"

W="${COMPRESS_DOWNGRADE_DIR:-$COMPRESS_CACHE_DIR/downgrade}"
STOCK="${COMPRESS_STOCK_BIN:-$COMPRESS_CACHE_DIR/stock/bin}"
PBIN="$BUILD_DIR/runtime_output_directory"
PLUGIN_DIR="$BUILD_DIR/plugin_output_directory"
MSG_DIR="$BUILD_DIR/share"
[ -x "$PBIN/mysqld" ] || die "the patched mysqld is not built: run scripts/build.sh"
[ -x "$STOCK/mysqld" ] || die "no stock mysqld in $STOCK: run scripts/build-stock.sh"

rm -rf "$W"; mkdir -p "$W"
REPORT="$W/report.txt"
fails=0
say() { printf '%s\n' "$*" | tee -a "$REPORT"; }
check() {  # check NAME CONDITION-RESULT(0/1) [detail]
  if [ "$2" = 0 ]; then say "ok    $1${3:+: $3}"; else say "FAIL  $1${3:+: $3}"; fails=$((fails + 1)); fi
}

SRV_DIR="$W"; SRV_BIN="$PBIN"; SRV_PORT=13326; SRV_WAIT=240
. "$(dirname "$0")/server-lib.sh"
client() { srv_client "$@"; }
alive() { srv_alive; }
stop() { srv_stop; }
crash() { srv_kill; }
# start BIN DATADIR ERRLOG [mysqld options]; returns 1 if it does not start
start() {
  local bin=$1 data=$2 err=$3; shift 3
  srv_start "$bin" "$data" "$err" --lc-messages-dir="$MSG_DIR" \
    --innodb-buffer-pool-size=64M --skip-log-bin "$@"
}
init() { srv_init "$1" "$2" --lc-messages-dir="$MSG_DIR"; }  # init BIN DATADIR
errors_in() { grep -E '\[ERROR\]' "$1" | sed -E 's/^[^ ]+ [0-9]+ //' ; }

CODEC="${COMPRESS_DOWNGRADE_CODEC:-isal}"
TABLES="t8 t4 t1k tp tb4 tb1k tu t8_plain tpc"
# The schema and data, written by the patched server.
schema_sql() {
  cat <<'EOF'
SET SESSION cte_max_recursion_depth = 100000;
CREATE DATABASE dg;
USE dg;
CREATE TABLE t8 (id INT PRIMARY KEY, k INT, c VARCHAR(600), KEY (k))
  ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8
  ENGINE_ATTRIBUTE='{"compression_level": 1, "compression_pad_pct_max": 20}';
CREATE TABLE t4 (id INT PRIMARY KEY, c VARCHAR(300))
  ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4
  ENGINE_ATTRIBUTE='{"compression_level": 9}';
CREATE TABLE t1k (id INT PRIMARY KEY, c VARCHAR(40))
  ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=1;
CREATE TABLE tp (id INT PRIMARY KEY, b BLOB)
  ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8
  ENGINE_ATTRIBUTE='{"compression_level": 3}'
  PARTITION BY HASH (id) PARTITIONS 4;
-- Off-page columns at 4 and 1 KB: one stream per BLOB up to 128 KB (text
-- and incompressible bytes), one per 128 KB chunk above (issue 27: written
-- by ISA-L with the isal codec).
CREATE TABLE tb4 (id INT PRIMARY KEY, b LONGBLOB)
  ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4;
CREATE TABLE tb1k (id INT PRIMARY KEY, b LONGBLOB)
  ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=1 ENGINE_ATTRIBUTE='{"compression_level": 1}';
CREATE TABLE tu (id INT PRIMARY KEY, c VARCHAR(600)) ROW_FORMAT=DYNAMIC;
-- The documented way to downgrade: options removed first (instant).
CREATE TABLE t8_plain (id INT PRIMARY KEY, c VARCHAR(600))
  ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8
  ENGINE_ATTRIBUTE='{"compression_level": 2}';
INSERT INTO t8 WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 20000)
  SELECT n, n % 997, CONCAT(SHA2(n, 256), REPEAT(' order line item', n % 30)) FROM s;
SET GLOBAL innodb_log_compressed_pages = OFF;
INSERT INTO t4 WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 20000)
  SELECT n, CONCAT(SHA2(n, 256), REPEAT(' customer', n % 20)) FROM s;
INSERT INTO t1k WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 20000)
  SELECT n, LEFT(SHA2(n, 256), 20) FROM s;
INSERT INTO tp WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 2000)
  SELECT n, REPEAT(SHA2(n, 256), 1 + n % 200) FROM s;
SET SESSION group_concat_max_len = 10000000;
INSERT INTO tb4 WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 60)
  SELECT n, LEFT(REPEAT(CONCAT('article ', n, ' text that repeats ', SHA2(n, 256), ' '), 2000), 9000 + n * 1900) FROM s;
INSERT INTO tb4 WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 200)
  SELECT 1000 + m.n, (SELECT GROUP_CONCAT(RANDOM_BYTES(1024) SEPARATOR '') FROM s WHERE s.n <= 8 + m.n * 8)
  FROM s m WHERE m.n <= 5;
INSERT INTO tb4 VALUES (2000, REPEAT(CONCAT('a chunked body ', SHA2('x', 256)), 3800));
INSERT INTO tb4 WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 200)
  SELECT 2001, GROUP_CONCAT(RANDOM_BYTES(1024) SEPARATOR '') FROM s;
INSERT INTO tb1k SELECT * FROM tb4 WHERE id % 3 = 0 OR id >= 1000;
UPDATE tb4 SET b = CONCAT(b, ' updated') WHERE id % 5 = 0;
INSERT INTO tu SELECT id, c FROM t8;
INSERT INTO t8_plain SELECT id, c FROM t8;
UPDATE t8 SET c = CONCAT(c, ' updated') WHERE id % 7 = 0;
DELETE FROM t1k WHERE id % 5 = 0;
SET GLOBAL innodb_log_compressed_pages = ON;
ALTER TABLE t8_plain ENGINE_ATTRIBUTE = '';
-- A page-compressed table in a sparse file (innodb_page_compression_sparse,
-- issue 47): grown as a hole, an index dropped so that its pages are freed
-- and then punched.
CREATE TABLE tpc (id INT PRIMARY KEY, c VARCHAR(600), KEY k (c(100))) COMPRESSION='lz4';
INSERT INTO tpc SELECT id, c FROM t8;
ALTER TABLE tpc DROP INDEX k;
EOF
}
sums() {  # one line per table: name checksum
  for t in $TABLES; do client -e "CHECKSUM TABLE dg.$t" | awk '{print $1, $2}'; done
}
check_tables() {  # CHECK TABLE ... EXTENDED of every table; prints the non-OK lines
  for t in $TABLES; do client -e "CHECK TABLE dg.$t EXTENDED" | grep -v $'\tstatus\tOK$' || true; done
}
# try NAME EXPECT(ok|error) SQL: runs SQL, records what happened
try() {
  local name=$1 expect=$2 sql=$3 out rc
  out=$(client -e "$sql" 2>&1); rc=$?
  if [ "$expect" = ok ]; then
    check "$name" "$rc" "${out:0:200}"
  else
    [ $rc -ne 0 ]; check "$name (expected error)" $? "${out:0:200}"
  fi
}

say "# Downgrade check, $(date -u +%Y-%m-%dT%H:%MZ)"
say "patched: $("$PBIN/mysqld" --version 2>&1 | head -1)"
say "codec of the patched server: $CODEC"
say "stock:   $(cat "$STOCK/VERSION" 2>/dev/null || "$STOCK/mysqld" --version 2>&1 | head -1)"
say ""
say "## 1. A clean shutdown of the patched server, opened by stock"
D1="$W/data1"
init "$PBIN" "$D1"
start "$PBIN" "$D1" "$W/patched1.err" --plugin-dir="$PLUGIN_DIR" \
  --innodb-compression-codec="$CODEC" --innodb-compression-append=ON \
  --innodb-compression-zlib-rescue=ON --innodb-page-compression-sparse=ON --innodb-page-compression-punch-freed=ON \
  || die "patched server did not start"
client -e "INSTALL PLUGIN compression_stats SONAME 'compression_stats.so';
           INSTALL PLUGIN compression_estimates SONAME 'compression_stats.so'"
schema_sql | client || die "loading the schema failed"
# Every page of the schema was compressed by the codec under test (ISA-L by
# default, issue 27): stock reads the pages it wrote.
codec_n=$(client -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_zip_codec_compress_$CODEC'")
[ "${codec_n:-0}" -gt 1000 ]; check "the patched server compressed the pages with $CODEC ($codec_n pages)" $?
if [ "$CODEC" = isal ]; then
  lob_n=$(client -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_zip_codec_lob_deflate_fast'")
  lob_fb=$(client -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_zip_codec_lob_deflate_fast_fallback'")
  [ "${lob_n:-0}" -gt 100 ] && [ "${lob_fb:-1}" -eq 0 ]
  check "ISA-L wrote the compressed BLOB streams ($lob_n streams, $lob_fb by zlib)" $?
  # Pages filled in key order continue their stream (patch 0031): stock
  # reads such streams too.
  app_n=$(client -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_zip_codec_compress_appended'")
  [ "${app_n:-0}" -gt 100 ]; check "pages were compressed by continuing their stream ($app_n compressions)" $?
  # Near misses of ISA-L written by zlib (patch 0032): plain zlib streams
  # among ISA-L's.
  resc_n=$(client -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_zip_codec_compress_rescued'")
  [ "${resc_n:-0}" -gt 0 ]; check "near misses of ISA-L were written by zlib ($resc_n compressions)" $?
fi
# The dropped index's pages are punched once a checkpoint has passed their
# free (patch 0038): wait for it, then the file allocates less than its size.
for _ in $(seq 120); do
  [ "$(client -e "SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME = 'file_sparse_pages_punched'")" -gt 0 ] && break
  sleep 1
done
punched=$(client -e "SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME = 'file_sparse_pages_punched'")
read -r fsz asz < <(client -e "SELECT FILE_SIZE, ALLOCATED_SIZE FROM information_schema.INNODB_TABLESPACES WHERE NAME = 'dg/tpc'")
[ "${punched:-0}" -gt 0 ] && [ $(( ${asz:-0} * 2 )) -lt "${fsz:-0}" ]
check "the page-compressed table's file is sparse ($punched pages punched, $asz of $fsz bytes allocated)" $?
# Issue 48: a table whose partitions have a ROW_FORMAT and KEY_BLOCK_SIZE of
# their own (pp), and one whose partitions had them and were given the
# table's pair before the downgrade, as operations.md says (pu). In a
# database of their own: section 1 records what stock does with pp.
client -e "CREATE DATABASE dgp;
  CREATE TABLE dgp.pp (id INT NOT NULL, y INT NOT NULL, c VARCHAR(600), PRIMARY KEY (id, y))
    PARTITION BY RANGE (y) (PARTITION p1 VALUES LESS THAN (2026) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4,
                            PARTITION p2 VALUES LESS THAN MAXVALUE);
  INSERT INTO dgp.pp SELECT id, 2025 + id % 2, c FROM dg.t8;
  CREATE TABLE dgp.pu LIKE dgp.pp;
  INSERT INTO dgp.pu SELECT * FROM dgp.pp;
  ALTER TABLE dgp.pu ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;" || die "the partitioned tables failed"
client -e "CHECKSUM TABLE dgp.pu" > "$W/pu-patched.txt"
client -e "SELECT COMPRESSION_STATS_ESTIMATE('dg', 'tu')" > "$W/estimate.txt"
client -e "SELECT TABLE_NAME, PARTITION_NAME, EFFECTIVE_COMPRESSION_LEVEL FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'dg' ORDER BY 1, 2" > "$W/levels-patched.txt"
sums > "$W/sums-patched.txt"
"$PBIN/mysqldump" --socket="$(srv_sock)" -uroot --single-transaction --databases dg > "$W/dg.sql" \
  || die "mysqldump failed"
"$PBIN/mysqldump" --socket="$(srv_sock)" -uroot --single-transaction --set-gtid-purged=OFF dgp pp > "$W/dgp-pp.sql" \
  || die "mysqldump of dgp.pp failed"
stop
for f in ib_zlib_version compression_stats_estimates.txt; do
  [ -f "$D1/$f" ]; check "the patched data directory has $f" $?
done
grep -c "ENGINE_ATTRIBUTE" "$W/dg.sql" > "$W/dump-attrs.txt"

start "$STOCK" "$D1" "$W/stock1.err"; check "stock starts on the patched data directory" $? \
  "$(errors_in "$W/stock1.err" | tr '\n' ' ' | cut -c1-300)"
alive || { say "stock did not start: $(tail -5 "$W/stock1.err")"; exit 1; }
bad=$(check_tables); [ -z "$bad" ]; check "CHECK TABLE clean on stock" $? "$bad"
sums > "$W/sums-stock1.txt"
cmp -s "$W/sums-patched.txt" "$W/sums-stock1.txt"; check "CHECKSUM TABLE equal ($(wc -w <<<"$TABLES") tables, the sparse one included)" $?
try "stock reads the tables with options" ok "SELECT COUNT(*), SUM(LENGTH(c)) FROM dg.t8 FORCE INDEX (k) WHERE k < 500"
client -e "CHECKSUM TABLE dgp.pu" > "$W/pu-stock.txt" 2>&1
cmp -s "$W/pu-patched.txt" "$W/pu-stock.txt"; check "stock reads a partitioned table given the table's pair before the downgrade (CHECKSUM TABLE equal)" $?
client -e "SHOW CREATE TABLE dg.t8" > "$W/stock-show-create.txt" 2>&1
grep -q 'compression_level' "$W/stock-show-create.txt"; check "stock keeps ENGINE_ATTRIBUTE in the dictionary" $?
try "stock writes into every compressed table" ok "
  SET SESSION cte_max_recursion_depth = 100000;
  INSERT INTO dg.t8 WITH RECURSIVE s(n) AS (SELECT 100001 UNION ALL SELECT n + 1 FROM s WHERE n < 105000)
    SELECT n, n % 997, REPEAT(SHA2(n, 256), 3) FROM s;
  INSERT INTO dg.t4 SELECT id + 100000, c FROM dg.t4 WHERE id <= 5000;
  INSERT INTO dg.t1k SELECT id + 100000, c FROM dg.t1k WHERE id <= 5000;
  INSERT INTO dg.tp SELECT id + 100000, b FROM dg.tp WHERE id <= 500;
  INSERT INTO dg.tb4 SELECT id + 100000, b FROM dg.tb4 WHERE id <= 30;
  UPDATE dg.tb1k SET b = CONCAT(b, ' stock') WHERE id % 2 = 0;
  UPDATE dg.t8 SET c = CONCAT(c, ' stock') WHERE id % 11 = 0;
  DELETE FROM dg.t4 WHERE id % 13 = 0;
  INSERT INTO dg.tpc SELECT id + 100000, c FROM dg.tpc WHERE id <= 5000;
  UPDATE dg.tpc SET c = CONCAT(c, ' stock') WHERE id % 9 = 0"
try "ALTER without ENGINE_ATTRIBUTE on a table with options (ADD COLUMN, instant)" ok \
  "ALTER TABLE dg.t8 ADD COLUMN extra INT"
try "ALTER ... FORCE (rebuild) of a table with options" ok "ALTER TABLE dg.t4 FORCE"
try "stock refuses to change ENGINE_ATTRIBUTE" error "ALTER TABLE dg.t8 ENGINE_ATTRIBUTE=''"
try "the table is intact after the refusal" ok "SELECT COUNT(*) FROM dg.t8"
try "OPTIMIZE TABLE on stock" ok "OPTIMIZE TABLE dg.t1k"
bad=$(check_tables); [ -z "$bad" ]; check "CHECK TABLE clean after stock's writes and DDL" $? "$bad"
sums > "$W/sums-stock1-after.txt"
# What stock does with partitions of their own KEY_BLOCK_SIZE: recorded
# (operations.md, "Upgrade and downgrade"), not judged; last, as it might
# stop stock (section 2 then starts the patched server after a crash).
out=$(client -e "SELECT COUNT(*) FROM dgp.pp; CHECK TABLE dgp.pp" 2>&1); rc=$?
say "info  stock on a table whose partition has a KEY_BLOCK_SIZE of its own: rc $rc: $(tr '\n' ' ' <<<"${out:0:400}")"
grep -E '\[ERROR\].*(MY-011904|MY-011899)' "$W/stock1.err" | sed -E 's/^[^ ]+ [0-9]+ //' | awk '!s[$0]++' | head -2 |
  while read -r l; do say "info  stock's error log: ${l:0:300}"; done
if alive; then stop; else say "info  stock stopped on it: $(tail -3 "$W/stock1.err" | tr '\n' ' ' | cut -c1-300)"; fi

say ""
say "## 2. Back to the patched server (the data directory stock wrote)"
start "$PBIN" "$D1" "$W/patched1b.err" --plugin-dir="$PLUGIN_DIR"; check "patched server starts again" $? \
  "$(errors_in "$W/patched1b.err" | tr '\n' ' ' | cut -c1-300)"
bad=$(check_tables); [ -z "$bad" ]; check "CHECK TABLE clean" $? "$bad"
sums > "$W/sums-patched-again.txt"
cmp -s "$W/sums-stock1-after.txt" "$W/sums-patched-again.txt"; check "CHECKSUM TABLE equal to what stock left" $?
lv=$(client -e "SELECT CONCAT(TABLE_NAME, '=', EFFECTIVE_COMPRESSION_LEVEL) FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'dg' AND TABLE_NAME IN ('t8', 't4') ORDER BY 1" | tr '\n' ' ')
[ "$lv" = "t4=9 t8=1 " ]; check "the options take effect again (t8 level 1, t4 level 9)" $? "$lv"
stop

say ""
say "## 3. A kill -9 of the patched server (page images off), recovered by stock"
D2="$W/data2"
init "$PBIN" "$D2"
start "$PBIN" "$D2" "$W/patched2.err" --plugin-dir="$PLUGIN_DIR" --plugin-load-add=compression_stats.so \
  --innodb-log-compressed-pages=OFF --innodb-compression-codec="$CODEC" \
  --innodb-compression-append=ON --innodb-compression-zlib-rescue=ON \
  || die "patched server did not start"
client -e "CREATE DATABASE dg; CREATE TABLE dg.w (id INT PRIMARY KEY, c VARCHAR(600), KEY (c(20)))
  ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4 ENGINE_ATTRIBUTE='{\"compression_level\": 1}';
  CREATE TABLE dg.wb (id INT PRIMARY KEY, b MEDIUMBLOB) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4"
# Committed transactions are acknowledged after COMMIT returns.
python3 - > "$W/writes.sql" <<'EOF'
import hashlib
for i in range(1, 200001):
    h = hashlib.sha256(str(i).encode()).hexdigest()
    # Every 10th transaction also writes an off-page BLOB of 9.6-16 KB.
    blob = f"INSERT INTO dg.wb VALUES ({i}, REPEAT('{h}', {150 + i % 100})); " if i % 10 == 0 else ""
    print(f"INSERT INTO dg.w VALUES ({i}, '{h}{' lorem ipsum' * (i % 40)}'); {blob}SELECT 'ack', {i};")
EOF
( "$PBIN/mysql" --socket="$(srv_sock)" -uroot -N -B < "$W/writes.sql" 2>/dev/null | awk '$1 == "ack" {print $2; fflush()}' > "$W/acks.txt" ) &
wpid=$!
sleep 12
crash
wait $wpid 2>/dev/null
acked=$(wc -l < "$W/acks.txt"); last=$(tail -1 "$W/acks.txt")
start "$STOCK" "$D2" "$W/stock2.err"; check "stock recovers the crashed patched server" $? \
  "$(errors_in "$W/stock2.err" | tr '\n' ' ' | cut -c1-300)"
if alive; then
  have=$(client -e "SELECT COUNT(*) FROM dg.w WHERE id <= ${last:-0}")
  [ "${have:-0}" -ge "$acked" ] && [ "$acked" -gt 0 ]; check "every acknowledged transaction is there" $? "$acked acknowledged, $have rows up to the last one"
  have_b=$(client -e "SELECT COUNT(*) FROM dg.wb WHERE id <= ${last:-0} AND LENGTH(b) = 64 * (150 + id % 100) AND b = REPEAT(SHA2(id, 256), 150 + id % 100)")
  [ "${have_b:-0}" -ge $(( ${last:-0} / 10 )) ] && [ "${have_b:-0}" -gt 0 ]; check "every acknowledged off-page BLOB is there, whole" $? "$have_b BLOBs up to the last acknowledged transaction"
  bad=$(client -e "CHECK TABLE dg.w, dg.wb EXTENDED" | grep -v $'\tstatus\tOK$'); [ -z "$bad" ]; check "CHECK TABLE EXTENDED clean" $? "$bad"
  stop
fi

say ""
say "## 4. The mysqldump of the patched server loaded into a fresh stock server"
D3="$W/data3"
init "$STOCK" "$D3"
start "$STOCK" "$D3" "$W/stock3.err" || die "stock did not start on a fresh data directory"
out=$(client < "$W/dg.sql" 2>&1); rc=$?
[ $rc -ne 0 ]; check "the dump as is: stock refuses ENGINE_ATTRIBUTE (expected error)" $? "${out:0:200}"
client -e "DROP DATABASE IF EXISTS dg"
sed "s#/\*!80021 ENGINE_ATTRIBUTE='[^']*' \*/##" "$W/dg.sql" > "$W/dg-stock.sql"
out=$(client -e "CREATE DATABASE dgp" 2>&1 && client dgp < "$W/dgp-pp.sql" 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q "ERROR 1064" <<<"$out"
check "the dump of a table whose partition has its own pair: stock refuses it (syntax error, expected)" $? "${out:0:200}"
client -e "DROP DATABASE IF EXISTS dgp"
out=$(client < "$W/dg-stock.sql" 2>&1); check "the dump without ENGINE_ATTRIBUTE loads" $? "${out:0:200}"
sums > "$W/sums-stock3.txt"
cmp -s "$W/sums-patched.txt" "$W/sums-stock3.txt"; check "CHECKSUM TABLE equal to the patched server's" $?
kbs=$(client -e "SELECT GROUP_CONCAT(TABLE_NAME, ':', CREATE_OPTIONS ORDER BY TABLE_NAME SEPARATOR ' ') FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'dg'")
say "      create options on stock: $kbs"
bad=$(check_tables); [ -z "$bad" ]; check "CHECK TABLE clean" $? "$bad"
# A table stock fills in key order with rows like TPC-C's order_line, whose
# pages ISA-L's stream does not fit as zlib's does (section 5 updates it),
# and its twin olz (section 6: the same updates by stock).
try "stock loads an order_line-like table in key order" ok "SET SESSION cte_max_recursion_depth = 100000;
  CREATE TABLE dg.ol (o INT, d TINYINT, num TINYINT, i_id INT, sw SMALLINT, dd DATETIME, qty TINYINT,
    amt DECIMAL(6,2), b CHAR(24), PRIMARY KEY (o, d, num)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4;
  INSERT INTO dg.ol WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 29999)
    SELECT i DIV 100, (i DIV 10) % 10, i % 10, 1 + (i * 7919) % 100000, 1,
      IF(i % 3 = 0, NULL, '2026-11-27 10:00:00'), 5, ROUND((i * 37) % 999999 / 100, 2),
      CONCAT(CHAR(97 + (i * 13) % 26), CHAR(97 + (i * 17) % 26), LEFT(SHA2(i, 256), 10),
             CHAR(97 + (i * 7) % 26), REPEAT(CHAR(97 + i % 5), 11)) FROM s;
  CREATE TABLE dg.olz LIKE dg.ol; INSERT INTO dg.olz SELECT * FROM dg.ol ORDER BY o, d, num"
stop

say ""
say "## 5. Upgrade: the data directory stock 9.7.2 created and wrote, opened by the patched server"
[ ! -e "$D3/ib_zlib_version" ] && [ ! -e "$D3/compression_stats_estimates.txt" ]
check "stock's data directory has no file of ours" $?
start "$PBIN" "$D3" "$W/patched3.err" --plugin-dir="$PLUGIN_DIR"; check "patched server starts on stock's data directory" $? \
  "$(errors_in "$W/patched3.err" | tr '\n' ' ' | cut -c1-300)"
[ -s "$D3/ib_zlib_version" ]; check "the zlib guard records its file at the first start" $?
bad=$(check_tables); [ -z "$bad" ]; check "CHECK TABLE clean" $? "$bad"
sums > "$W/sums-patched3.txt"
cmp -s "$W/sums-stock3.txt" "$W/sums-patched3.txt"; check "CHECKSUM TABLE equal to what stock wrote" $?
try "the plugin installs" ok "INSTALL PLUGIN compression_stats SONAME 'compression_stats.so'"
n=$(client -e "SELECT COUNT(DISTINCT TABLE_NAME) FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'dg' AND ROW_FORMAT = 'Compressed'")
[ "${n:-0}" -eq 9 ]; check "COMPRESSION_STATS shows stock's 9 compressed tables" $? "$n"
try "per-table options on a table stock compressed" ok "ALTER TABLE dg.t8 ENGINE_ATTRIBUTE='{\"compression_level\": 1}'"
lv=$(client -e "SELECT EFFECTIVE_COMPRESSION_LEVEL FROM information_schema.COMPRESSION_STATS WHERE TABLE_SCHEMA = 'dg' AND TABLE_NAME = 't8'")
[ "$lv" = 1 ]; check "the option takes effect" $? "level $lv"
client -e "SELECT COMPRESSION_STATS_ESTIMATE('dg', 'tu')" > /dev/null 2>&1
[ -s "$D3/compression_stats_estimates.txt" ]; check "the first estimate creates the estimates file" $?
try "uninstall the plugin" ok "UNINSTALL PLUGIN compression_stats"
# The upgrade's first updates: stock filled ol's pages to zlib's brim, in
# key order. ISA-L's stream of such a page is 2-8 % larger;
# innodb_compression_zlib_rescue=ZLIB_PAGES (the default) has zlib write it
# again instead of splitting it (docs/benchmarks/codecs.md 6p).
rescued() { client -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_zip_codec_compress_rescued'"; }
olbytes() { client -e "ANALYZE TABLE dg.ol" > /dev/null
  client -e "SELECT DATA_LENGTH + INDEX_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'dg' AND TABLE_NAME = 'ol'"; }
mode=$(client -e "SELECT @@GLOBAL.innodb_compression_zlib_rescue")
r0=$(rescued); b0=$(olbytes)
try "every row of stock's ol updated twice" ok "UPDATE dg.ol SET amt = amt - 1; UPDATE dg.ol SET amt = amt - 1"
r1=$(rescued); b1=$(olbytes)
[ $(( ${r1:-0} - ${r0:-0} )) -gt 0 ]; st=$?
check "pages stock wrote were written by zlib again where ISA-L's stream missed (innodb_compression_zlib_rescue=$mode, the default)" $st \
  "$(( ${r1:-0} - ${r0:-0} )) compressions; ol: $b0 -> $b1 bytes"
bad=$( (check_tables; client -e "CHECK TABLE dg.ol EXTENDED" | grep -v $'\tstatus\tOK$') ); [ -z "$bad" ]
check "CHECK TABLE clean after the update" $? "$bad"
(sums; client -e "CHECKSUM TABLE dg.ol" | awk '{print $1, $2}') > "$W/sums-patched3-upd.txt"
stop

say ""
say "## 6. Back to stock after the upgrade's updates"
start "$STOCK" "$D3" "$W/stock4.err"; check "stock starts on the data directory the patched server updated" $? \
  "$(errors_in "$W/stock4.err" | tr '\n' ' ' | cut -c1-300)"
bad=$( (check_tables; client -e "CHECK TABLE dg.ol EXTENDED" | grep -v $'\tstatus\tOK$') ); [ -z "$bad" ]
check "CHECK TABLE clean" $? "$bad"
(sums; client -e "CHECKSUM TABLE dg.ol" | awk '{print $1, $2}') > "$W/sums-stock4.txt"
cmp -s "$W/sums-patched3-upd.txt" "$W/sums-stock4.txt"; check "CHECKSUM TABLE equal to the patched server's" $?
try "stock updates the twin olz as the patched server updated ol" ok "UPDATE dg.olz SET amt = amt - 1; UPDATE dg.olz SET amt = amt - 1"
client -e "ANALYZE TABLE dg.ol, dg.olz" > /dev/null
bz=$(client -e "SELECT DATA_LENGTH + INDEX_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'dg' AND TABLE_NAME = 'olz'")
bo=$(client -e "SELECT DATA_LENGTH + INDEX_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'dg' AND TABLE_NAME = 'ol'")
[ "${bo:-0}" -gt 0 ] && [ "${bo:-0}" -le $(( ${bz:-0} * 102 / 100 )) ]
check "the updated table is no larger than stock's twin after the same updates (+2 % at most)" $? \
  "ol (patched server, ISA-L, $mode) $bo bytes, olz (stock, zlib) $bz bytes"
stop

say ""
say "dump: $(cat "$W/dump-attrs.txt") ENGINE_ATTRIBUTE clauses in dg.sql"
say "stock error log lines [ERROR], clean start (1): $(errors_in "$W/stock1.err" | wc -l)"
# Repeated lines once, with their count (stock retries a page read 100 times).
errors_in "$W/stock1.err" | awk '{ if (!c[$0]++) o[++n] = $0 }
  END { for (i = 1; i <= n; i++) printf "      %s%s\n", (c[o[i]] > 1 ? c[o[i]] "x " : ""), o[i] }' | tee -a "$REPORT"
say "$fails failed"
[ "$fails" -eq 0 ]
