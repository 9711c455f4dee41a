-- A sample schema for the demo: compressed and uncompressed tables, one of
-- them built to fail compression (random bytes on 1K pages).
DROP DATABASE IF EXISTS compress_demo;
CREATE DATABASE compress_demo;
USE compress_demo;

-- Repetitive text: compresses well on 8K pages.
CREATE TABLE orders (
  id INT PRIMARY KEY,
  customer INT NOT NULL,
  status VARCHAR(20) NOT NULL,
  note VARCHAR(400) NOT NULL,
  KEY (customer)
) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;

-- Random bytes on 1K pages: built to fail compression.
CREATE TABLE blobs_random (
  id INT PRIMARY KEY,
  payload VARBINARY(120) NOT NULL
) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=1;

-- Uncompressed: no compression counters.
CREATE TABLE customers (
  id INT PRIMARY KEY,
  name VARCHAR(100) NOT NULL,
  city VARCHAR(50) NOT NULL
) ENGINE=InnoDB ROW_FORMAT=DYNAMIC;

-- Partitioned and compressed at 4K: one row per partition.
-- Partitioned by year, a compressed page size per partition (issue 48):
-- 2024 compressed at 8 KB, 2025 not yet, 2026 (random-looking messages)
-- not; SELECTIVE acts on each partition.
CREATE TABLE history (
  id INT NOT NULL,
  created DATE NOT NULL,
  msg VARCHAR(200) NOT NULL,
  PRIMARY KEY (id, created)
) ENGINE=InnoDB
  PARTITION BY RANGE (YEAR(created)) (
    PARTITION p2024 VALUES LESS THAN (2025) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8,
    PARTITION p2025 VALUES LESS THAN (2026),
    PARTITION p2026 VALUES LESS THAN MAXVALUE);

SET SESSION cte_max_recursion_depth = 100000;

INSERT INTO customers
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 5000)
  SELECT n, CONCAT('customer ', n), ELT(1 + n % 5, 'Lisbon', 'Oslo', 'Lima', 'Pune', 'Osaka') FROM s;

INSERT INTO orders
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 20000)
  SELECT n, 1 + n % 5000, ELT(1 + n % 3, 'new', 'paid', 'shipped'),
         REPEAT(CONCAT('order ', n % 50, ' standard delivery; '), 8) FROM s;

INSERT INTO blobs_random
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3000)
  SELECT n, RANDOM_BYTES(100) FROM s;

INSERT INTO history
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 15000)
  SELECT n, DATE '2024-01-01' + INTERVAL (n % 1000) DAY,
         IF(n % 1000 < 731, CONCAT('event ', n % 40, ' logged by the order service for customer ', n % 300),
            TO_BASE64(RANDOM_BYTES(90))) FROM s;

-- Some writes: updates that grow rows, deletes.
UPDATE orders SET status = 'delivered', note = CONCAT(note, ' delivered on time') WHERE id % 4 = 0;
UPDATE blobs_random SET payload = RANDOM_BYTES(110) WHERE id % 2 = 0;
DELETE FROM history WHERE id % 10 = 0;

-- Sizes in COMPRESSION_STATS come from InnoDB's index statistics (like
-- INFORMATION_SCHEMA.TABLES): refresh them after the load, as after any
-- bulk change.
ANALYZE TABLE customers, orders, blobs_random, history;
