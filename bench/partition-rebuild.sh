#!/usr/bin/env bash
# Issue 48 (bench/results/partition-rebuild/): how long REBUILD PARTITION takes on a 1 GB partition, and what the other partition can do meanwhile.
cd /work/main
export COMPRESS_SERVER_DIR=$HOME/.cache/mysql-compress/part1g-srv COMPRESS_SERVER_PORT=13308
bash scripts/server.sh start >/dev/null 2>&1
M="bash scripts/server.sh client"
$M -e "CREATE DATABASE IF NOT EXISTS p; DROP TABLE IF EXISTS p.h;
CREATE TABLE p.h (id BIGINT NOT NULL, y INT NOT NULL, body VARCHAR(400) NOT NULL, PRIMARY KEY (id, y))
 PARTITION BY RANGE (y) (PARTITION p2025 VALUES LESS THAN (2026), PARTITION p2026 VALUES LESS THAN MAXVALUE);
SET SESSION cte_max_recursion_depth = 1000000;
INSERT INTO p.h WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 100000)
 SELECT n, 2025, CONCAT('order ', n % 997, ' of customer ', n % 3001, ' shipped to district ', n % 10, ' ', SHA2(n % 5000, 256)) FROM s;
INSERT INTO p.h SELECT id, 2026, body FROM p.h WHERE id <= 20000;"
for i in 1 2 3 4 5 6; do
  $M -e "INSERT INTO p.h SELECT id + (SELECT MAX(id) FROM p.h WHERE y = 2025), 2025, body FROM p.h WHERE y = 2025"
done
$M -e "ANALYZE TABLE p.h; SELECT PARTITION_NAME, DATA_LENGTH/1048576 AS MB, TABLE_ROWS FROM information_schema.PARTITIONS WHERE TABLE_SCHEMA='p' AND TABLE_NAME='h'; SELECT NAME, FILE_SIZE/1048576 AS file_MB FROM information_schema.INNODB_TABLESPACES WHERE NAME LIKE 'p/h#%'"
# writer on the other partition during the rebuild: count how many inserts complete, and reads
( t0=$(date +%s.%N); n=0; while [ ! -f /tmp/part1g.done ]; do $M -e "INSERT INTO p.h VALUES ($((900000000 + n)), 2026, 'x')" 2>/dev/null && n=$((n+1)); done; echo "writes to p2026 during the rebuild: $n"; ) > /tmp/part1g.writer &
( r=0; while [ ! -f /tmp/part1g.done ]; do $M -e "SELECT COUNT(*) FROM p.h PARTITION (p2026)" >/dev/null 2>&1 && r=$((r+1)); done; echo "reads of p2026 during the rebuild: $r"; ) > /tmp/part1g.reader &
rm -f /tmp/part1g.done
t0=$(date +%s.%N)
$M -e "ALTER TABLE p.h REBUILD PARTITION p2025 ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8"
t1=$(date +%s.%N)
touch /tmp/part1g.done; sleep 2
echo "REBUILD PARTITION p2025 KEY_BLOCK_SIZE=8: $(echo "$t1 - $t0" | bc) s"
cat /tmp/part1g.writer /tmp/part1g.reader
$M -e "SELECT NAME, ROW_FORMAT, ZIP_PAGE_SIZE, FILE_SIZE/1048576 AS file_MB FROM information_schema.INNODB_TABLESPACES WHERE NAME LIKE 'p/h#%'"
bash scripts/server.sh stop >/dev/null 2>&1
