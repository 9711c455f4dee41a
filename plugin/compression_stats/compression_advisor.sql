-- compression_advisor: the SELECTIVE strategy in SQL, sys-schema style, and
-- CHOOSE, which picks per table among ROW_FORMAT=COMPRESSED, page
-- compression (COMPRESSION='zlib' or 'lz4') and none (view table_choices;
-- docs/page-compression.md).
-- Install: mysql < plugin/compression_stats/compression_advisor.sql (needs the
-- compression_stats plugin: COMPRESSION_STATS, COMPRESSION_ESTIMATES and
-- COMPRESSION_STATS_ESTIMATE()). Views and procedures run with the
-- invoker's privileges: a user sees and changes only the tables he may.
--
--   CALL compression_advisor.estimate_all('shop', NULL);    -- estimate
--   SELECT * FROM compression_advisor.selective_alters;     -- the advice
--   CALL compression_advisor.plan('shop', 'SELECTIVE', 8, 0.10);
--   CALL compression_advisor.apply('shop', 'SELECTIVE', 8, 0.10, TRUE, NULL, NULL);  -- dry run
--   CALL compression_advisor.apply('shop', 'SELECTIVE', 8, 0.10, FALSE, NULL, NULL); -- do it
--   SELECT * FROM compression_advisor.table_choices;        -- CHOOSE's verdicts
--   CALL compression_advisor.plan('shop', 'CHOOSE', 8, 0.10);
--
-- Schemas: a schema argument is a schema name, matched exactly by the
-- server's rules for identifiers (case-sensitively unless
-- lower_case_table_names is 1 or 2); an unknown name is an error
-- (ER_BAD_DB_ERROR). NULL means every schema but the system ones. Only
-- estimate_all_like(), plan_like() and apply_like() take a LIKE pattern
-- (case-sensitive, `\` escapes `_` and `%`); patterns never match the
-- system schemas.
--
-- One code path: the views and the procedures read the same per-table
-- verdicts (view table_verdicts), which aggregate the plugin's own
-- per-partition SELECTIVE_VERDICT. plan() and apply() set the plugin's
-- session variables compression_stats_target_key_block_size and
-- compression_stats_delta to their arguments for the time of the call, so
-- that the plugin computes the verdicts at that size and delta with its own
-- rule; the views use the session's values. One builder: every strategy's
-- ALTER TABLE statement, in the views and in plan() and apply(), comes from
-- alter_statement().
--
-- apply() runs every statement with ALGORITHM=INPLACE, LOCK=NONE (a table
-- InnoDB cannot rebuild online is reported FAILED with InnoDB's reason,
-- unless p_allow_blocking is TRUE) and lock_wait_timeout set to
-- p_lock_wait_timeout (NULL: 5 seconds), so that an ALTER queued behind a
-- long transaction gives up instead of blocking the table's readers.
-- Arguments that are NULL take the defaults: the plugin's target and delta,
-- dry run, 5 seconds, online only.

CREATE DATABASE IF NOT EXISTS compression_advisor;
USE compression_advisor;

DELIMITER //
-- Whether a schema is one of the server's own (or the advisor's).
DROP FUNCTION IF EXISTS is_system_schema//
CREATE DEFINER = CURRENT_USER FUNCTION is_system_schema(
    p_schema VARCHAR(64) CHARSET utf8mb4) RETURNS BOOLEAN
DETERMINISTIC NO SQL SQL SECURITY INVOKER
RETURN p_schema COLLATE utf8mb4_bin IN
         ('mysql', 'sys', 'performance_schema', 'information_schema',
          'compression_advisor')//

-- Whether a stored schema name is the one asked for: NULL asks for every
-- schema but the system ones; otherwise the name (p_pattern FALSE) or a LIKE
-- pattern (p_pattern TRUE), compared as the server compares identifiers:
-- byte for byte with lower_case_table_names = 0, in lower case otherwise.
DROP FUNCTION IF EXISTS schema_matches//
CREATE DEFINER = CURRENT_USER FUNCTION schema_matches(
    p_stored VARCHAR(64) CHARSET utf8mb4, p_wanted VARCHAR(64) CHARSET utf8mb4,
    p_pattern BOOLEAN) RETURNS BOOLEAN
DETERMINISTIC NO SQL SQL SECURITY INVOKER
BEGIN
  DECLARE s, w VARCHAR(64) CHARSET utf8mb4;
  IF p_wanted IS NULL OR (p_pattern AND is_system_schema(p_stored)) THEN
    RETURN p_wanted IS NULL AND NOT is_system_schema(p_stored);
  END IF;
  SET s = IF(@@lower_case_table_names = 0, p_stored, LOWER(p_stored));
  SET w = IF(@@lower_case_table_names = 0, p_wanted, LOWER(p_wanted));
  RETURN IF(p_pattern, s COLLATE utf8mb4_bin LIKE w COLLATE utf8mb4_bin,
            s COLLATE utf8mb4_bin = w COLLATE utf8mb4_bin);
END//

-- The session's SELECTIVE target size (views cannot read variables).
DROP FUNCTION IF EXISTS target_key_block_size//
CREATE DEFINER = CURRENT_USER FUNCTION target_key_block_size() RETURNS INT
NOT DETERMINISTIC NO SQL SQL SECURITY INVOKER
RETURN @@SESSION.compression_stats_target_key_block_size//

-- The action of a table or a partition from its partitions' (or
-- subpartitions') verdicts: theirs when they agree; empty ones
-- (EMPTY_TABLE) have no say; MIXED when they disagree. A partitioned table
-- whose partitions disagree is not MIXED but PER_PARTITION (table_verdicts):
-- each partition is altered on its own (partition_verdicts); a partition
-- whose subpartitions disagree is MIXED and left alone (listed by plan(),
-- run by nobody).
DROP FUNCTION IF EXISTS table_action//
CREATE DEFINER = CURRENT_USER FUNCTION table_action(
    p_verdicts INT, p_verdict VARCHAR(32)) RETURNS VARCHAR(32)
DETERMINISTIC NO SQL SQL SECURITY INVOKER
RETURN CASE p_verdicts WHEN 0 THEN 'EMPTY_TABLE' WHEN 1 THEN p_verdict
                       ELSE 'MIXED' END//

-- The one ALTER TABLE builder: the statement of every strategy (SELECTIVE,
-- ALL, CHOOSE) comes from here, so that they cannot drift apart. p_action
-- is what the table is to become:
--   COMPRESS    ROW_FORMAT=COMPRESSED at p_key_block_size;
--   REBUILD     rebuilt as it is (FORCE): a compressed table whose pages
--               are no longer delta-close;
--   UNCOMPRESS  neither compressed pages nor page compression;
--   PAGE_ZLIB, PAGE_LZ4  page compression (COMPRESSION='zlib' or 'lz4');
-- any other action (KEEP_COMPRESSED, KEEP_UNCOMPRESSED, EMPTY_TABLE, MIXED,
-- NO_ESTIMATE, REDUNDANT_ROW_FORMAT) has no statement: NULL. p_row_format,
-- p_key_block_size_now and p_compression_now are the table now
-- (COMPRESSION_STATS.ROW_FORMAT, KEY_BLOCK_SIZE and PAGE_COMPRESSION); a
-- table that is what p_action asks for already gets NULL. InnoDB refuses
-- page compression with ROW_FORMAT=COMPRESSED or KEY_BLOCK_SIZE > 0, and
-- an ALTER keeps the options it does not state, so the statement that
-- sets one mechanism undoes the other:
--   - leaving ROW_FORMAT=COMPRESSED states ROW_FORMAT=DYNAMIC
--     KEY_BLOCK_SIZE=0 and drops the compression options
--     (ENGINE_ATTRIBUTE='', which InnoDB refuses on a table that is not
--     compressed); COMPRESS and REBUILD keep them;
--   - leaving page compression states COMPRESSION='' (nothing left in the
--     table's options; COMPRESSION='None' would stay there);
--   - page compression adds FORCE: only a rebuild compresses the pages
--     written before (a new ROW_FORMAT rebuilds anyway).
-- p_online adds ALGORITHM=INPLACE, LOCK=NONE: InnoDB then refuses, with its
-- reason, what it cannot do without blocking writes. With p_partition the
-- statement is that partition's: REBUILD PARTITION with the pair (COMPRESS,
-- UNCOMPRESS) or without (REBUILD); online it takes ALGORITHM=INPLACE,
-- LOCK=SHARED (the partition is copied: reads go on, writes wait).
DROP FUNCTION IF EXISTS alter_part_statement//
CREATE DEFINER = CURRENT_USER FUNCTION alter_part_statement(
    p_schema VARCHAR(64) CHARSET utf8mb4, p_table VARCHAR(64) CHARSET utf8mb4,
    p_partition VARCHAR(64) CHARSET utf8mb4,
    p_action VARCHAR(32), p_key_block_size INT, p_row_format VARCHAR(16),
    p_key_block_size_now INT, p_compression_now VARCHAR(8), p_online BOOLEAN)
    RETURNS VARCHAR(400) CHARSET utf8mb4
DETERMINISTIC NO SQL SQL SECURITY INVOKER
BEGIN
  DECLARE zipped BOOLEAN DEFAULT IFNULL(p_row_format = 'Compressed', FALSE);
  DECLARE paged BOOLEAN DEFAULT IFNULL(p_compression_now, 'none') <> 'none';
  DECLARE page VARCHAR(8) DEFAULT IF(p_action IN ('PAGE_ZLIB', 'PAGE_LZ4'),
                                     LOWER(SUBSTRING(p_action, 6)), NULL);
  DECLARE unzip VARCHAR(60) DEFAULT
      'ROW_FORMAT=DYNAMIC KEY_BLOCK_SIZE=0 ENGINE_ATTRIBUTE=''''';
  DECLARE unpage VARCHAR(20) DEFAULT IF(paged, 'COMPRESSION=''''', NULL);
  DECLARE part VARCHAR(200) CHARSET utf8mb4 DEFAULT
      CONCAT('REBUILD PARTITION `', REPLACE(p_partition, '`', '``'), '`');
  DECLARE clause VARCHAR(200);
  IF p_partition IS NOT NULL THEN
    -- One partition (REBUILD PARTITION with its own pair, patch 0005):
    -- the table's COMPRESSION and options stay; page compression is the
    -- table's, never a partition's.
    SET clause = CASE
      WHEN p_action = 'COMPRESS' THEN
        IF(zipped AND p_key_block_size_now = p_key_block_size, NULL,
           CONCAT(part, ' ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=',
                  p_key_block_size))
      WHEN p_action = 'REBUILD' THEN part
      WHEN p_action = 'UNCOMPRESS' THEN
        IF(zipped, CONCAT(part, ' ROW_FORMAT=DYNAMIC'), NULL)
      ELSE NULL END;
    -- REBUILD PARTITION copies the partition: reads go on, writes to the
    -- table wait (LOCK=SHARED; InnoDB refuses LOCK=NONE for it).
    RETURN IF(clause IS NULL, NULL,
              CONCAT('ALTER TABLE `', REPLACE(p_schema, '`', '``'), '`.`',
                     REPLACE(p_table, '`', '``'), '` ',
                     IF(p_online, 'ALGORITHM=INPLACE, LOCK=SHARED, ', ''),
                     clause));
  END IF;
  SET clause = CASE
    WHEN p_action = 'COMPRESS' THEN
      IF(zipped AND p_key_block_size_now = p_key_block_size AND NOT paged,
         NULL,
         CONCAT_WS(' ', CONCAT('ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=',
                               p_key_block_size), unpage))
    WHEN p_action = 'REBUILD' THEN CONCAT_WS(', ', unpage, 'FORCE')
    WHEN p_action = 'UNCOMPRESS' THEN
      CASE WHEN zipped THEN CONCAT_WS(' ', unzip, unpage)
           WHEN paged THEN CONCAT(unpage, ', FORCE')
           ELSE NULL END
    WHEN page IS NOT NULL THEN
      IF(NOT zipped AND p_compression_now = page, NULL,
         CONCAT(IF(zipped, CONCAT(unzip, ' '), ''),
                'COMPRESSION=''', page, ''', FORCE'))
    ELSE NULL END;
  RETURN IF(clause IS NULL, NULL,
            CONCAT('ALTER TABLE `', REPLACE(p_schema, '`', '``'), '`.`',
                   REPLACE(p_table, '`', '``'), '` ', clause,
                   IF(p_online, ', ALGORITHM=INPLACE, LOCK=NONE', '')));
END//

-- The table's statement: alter_part_statement() with no partition.
DROP FUNCTION IF EXISTS alter_statement//
CREATE DEFINER = CURRENT_USER FUNCTION alter_statement(
    p_schema VARCHAR(64) CHARSET utf8mb4, p_table VARCHAR(64) CHARSET utf8mb4,
    p_action VARCHAR(32), p_key_block_size INT, p_row_format VARCHAR(16),
    p_key_block_size_now INT, p_compression_now VARCHAR(8), p_online BOOLEAN)
    RETURNS VARCHAR(400) CHARSET utf8mb4
DETERMINISTIC NO SQL SQL SECURITY INVOKER
RETURN alter_part_statement(p_schema, p_table, NULL, p_action,
                            p_key_block_size, p_row_format,
                            p_key_block_size_now, p_compression_now,
                            p_online)//

-- CHOOSE (docs/page-compression.md, "The CHOOSE rule"): its constants.
-- Least savings worth a conversion, in percent of the table.
DROP FUNCTION IF EXISTS choose_min_gain//
CREATE DEFINER = CURRENT_USER FUNCTION choose_min_gain() RETURNS DOUBLE
DETERMINISTIC NO SQL SQL SECURITY INVOKER RETURN 10//
-- Row operations since start-up below which a table's activity is unknown.
DROP FUNCTION IF EXISTS choose_min_ops//
CREATE DEFINER = CURRENT_USER FUNCTION choose_min_ops() RETURNS BIGINT
DETERMINISTIC NO SQL SQL SECURITY INVOKER RETURN 1000//
-- Share of writes (inserts, updates, deletes) below which a table is
-- read-mostly, and from which it is write-heavy, in percent.
DROP FUNCTION IF EXISTS choose_read_mostly_pct//
CREATE DEFINER = CURRENT_USER FUNCTION choose_read_mostly_pct() RETURNS DOUBLE
DETERMINISTIC NO SQL SQL SECURITY INVOKER RETURN 10//
DROP FUNCTION IF EXISTS choose_write_heavy_pct//
CREATE DEFINER = CURRENT_USER FUNCTION choose_write_heavy_pct() RETURNS DOUBLE
DETERMINISTIC NO SQL SQL SECURITY INVOKER RETURN 50//
-- Points by which zlib must beat lz4 to be worth its CPU.
DROP FUNCTION IF EXISTS choose_zlib_margin//
CREATE DEFINER = CURRENT_USER FUNCTION choose_zlib_margin() RETURNS DOUBLE
DETERMINISTIC NO SQL SQL SECURITY INVOKER RETURN 5//

-- CHOOSE's verdict for a table: 'METHOD: why', METHOD one of
-- KEY_BLOCK_SIZE=n, PAGE_ZLIB, PAGE_LZ4, NONE (or EMPTY_TABLE, MIXED,
-- NO_ESTIMATE, REDUNDANT_ROW_FORMAT: no say), from SELECTIVE's verdict at
-- size p_kbs (whether the table is delta-close), its savings there and
-- CP_ss, the savings of page compression with zlib and lz4 (NULL where its
-- file cannot take it, p_page_reason saying why) and its row operations and
-- writes since start-up (performance_schema). The rule, in order:
--   1. delta-close at n KB: KEY_BLOCK_SIZE=n (SELECTIVE's choice: its pages
--      fit, it saves buffer pool too, and writes cost little);
--   2. read-mostly (writes < choose_read_mostly_pct()) and n KB saves at
--      least choose_min_gain() and no less than page compression less
--      choose_zlib_margin(): KEY_BLOCK_SIZE=n (compressed pages are paid
--      for on writes, and save memory and reads);
--   3. lz4 page compression saves at least choose_min_gain(): PAGE_LZ4,
--      or PAGE_ZLIB if the table is read-mostly and zlib saves
--      choose_zlib_margin() points more;
--   4. only zlib's saves at least choose_min_gain(): PAGE_ZLIB if the table
--      is read-mostly, else NONE (zlib on every page write and read cost
--      more than half the throughput in docs/benchmarks/paper.md section 7, lz4 less
--      than a tenth);
--   5. otherwise NONE.
DROP FUNCTION IF EXISTS choose_verdict//
CREATE DEFINER = CURRENT_USER FUNCTION choose_verdict(
    p_selective VARCHAR(32), p_kbs INT, p_ss DOUBLE, p_cp DOUBLE,
    p_zlib DOUBLE, p_lz4 DOUBLE, p_page_reason VARCHAR(200),
    p_ops BIGINT, p_writes BIGINT) RETURNS VARCHAR(300) CHARSET utf8mb4
DETERMINISTIC NO SQL SQL SECURITY INVOKER
BEGIN
  DECLARE known BOOLEAN DEFAULT IFNULL(p_ops, 0) >= choose_min_ops();
  DECLARE wpct DOUBLE DEFAULT IF(known, 100 * IFNULL(p_writes, 0) / p_ops, NULL);
  DECLARE page DOUBLE DEFAULT GREATEST(IFNULL(p_zlib, -1000), IFNULL(p_lz4, -1000));
  DECLARE at_kbs VARCHAR(60) DEFAULT CONCAT(ROUND(p_ss), ' % ',
      IF(p_selective IN ('COMPRESS', 'KEEP_COMPRESSED', 'REBUILD'),
         'delta-close', 'delta-far'), ' at ', p_kbs, ' KB');
  DECLARE activity VARCHAR(60) DEFAULT IF(NOT known, 'activity unknown',
      CONCAT(CASE WHEN wpct < choose_read_mostly_pct() THEN 'read-mostly'
                  WHEN wpct >= choose_write_heavy_pct() THEN 'write-heavy'
                  ELSE 'mixed' END, ' (', ROUND(wpct), ' % writes)'));
  IF p_selective IN ('EMPTY_TABLE', 'MIXED', 'PER_PARTITION', 'NO_ESTIMATE',
                     'REDUNDANT_ROW_FORMAT') OR p_ss IS NULL THEN
    -- PER_PARTITION: CHOOSE picks one mechanism per table (page
    -- compression is a table's); SELECTIVE acts on the partitions.
    RETURN IF(p_selective IN ('EMPTY_TABLE', 'MIXED', 'PER_PARTITION',
                              'REDUNDANT_ROW_FORMAT'),
              p_selective, 'NO_ESTIMATE');
  END IF;
  IF p_selective IN ('COMPRESS', 'KEEP_COMPRESSED', 'REBUILD') THEN
    RETURN CONCAT('KEY_BLOCK_SIZE=', p_kbs, ': ', at_kbs, ' (CP_ss ',
                  ROUND(p_cp), ' %), ', activity);
  END IF;
  IF known AND wpct < choose_read_mostly_pct() AND p_ss >= choose_min_gain()
     AND p_ss >= page - choose_zlib_margin() THEN
    RETURN CONCAT('KEY_BLOCK_SIZE=', p_kbs, ': ', activity, ', ', at_kbs,
                  ' vs ', IF(page < -100, 'no page compression',
                             CONCAT(ROUND(page), ' % with page compression')));
  END IF;
  IF IFNULL(p_lz4, -1000) >= choose_min_gain() THEN
    IF known AND wpct < choose_read_mostly_pct() AND
       p_zlib - p_lz4 >= choose_zlib_margin() THEN
      RETURN CONCAT('PAGE_ZLIB: ', activity, ', ', ROUND(p_zlib),
                    ' % with page compression (lz4 ', ROUND(p_lz4), ' %) vs ',
                    at_kbs);
    END IF;
    RETURN CONCAT('PAGE_LZ4: ', activity, ', ', ROUND(p_lz4),
                  ' % with page compression (zlib ', ROUND(p_zlib), ' %) vs ',
                  at_kbs);
  END IF;
  IF IFNULL(p_zlib, -1000) >= choose_min_gain() THEN
    IF known AND wpct < choose_read_mostly_pct() THEN
      RETURN CONCAT('PAGE_ZLIB: ', activity, ', ', ROUND(p_zlib),
                    ' % with page compression (lz4 ', ROUND(p_lz4), ' %) vs ',
                    at_kbs);
    END IF;
    RETURN CONCAT('NONE: ', activity, ', only zlib saves (', ROUND(p_zlib),
                  ' %, lz4 ', ROUND(p_lz4), ' %): ',
                  IF(known, 'too dear on writes',
                     'zlib only where reads are known to dominate'),
                  '; ', at_kbs);
  END IF;
  RETURN CONCAT('NONE: ', at_kbs, ', ',
                IF(p_page_reason IS NOT NULL,
                   CONCAT('no page compression: ', p_page_reason),
                   CONCAT(ROUND(page), ' % with page compression')));
END//

-- CHOOSE's method as an action of alter_statement(), which builds its
-- statement: KEY_BLOCK_SIZE=n is COMPRESS at n (REBUILD for a compressed
-- table SELECTIVE says to rebuild: CHOOSE keeps SELECTIVE's choice), NONE
-- is UNCOMPRESS (undoing either mechanism), PAGE_ZLIB and PAGE_LZ4 stay;
-- a verdict with no say (EMPTY_TABLE, MIXED, ...) has no action: NULL.
DROP FUNCTION IF EXISTS choose_action//
CREATE DEFINER = CURRENT_USER FUNCTION choose_action(
    p_method VARCHAR(32), p_selective VARCHAR(32)) RETURNS VARCHAR(32)
DETERMINISTIC NO SQL SQL SECURITY INVOKER
RETURN CASE
         WHEN p_method LIKE 'KEY\_BLOCK\_SIZE=%' THEN
           IF(p_selective = 'REBUILD', 'REBUILD', 'COMPRESS')
         WHEN p_method = 'NONE' THEN 'UNCOMPRESS'
         WHEN p_method IN ('PAGE_ZLIB', 'PAGE_LZ4') THEN p_method
         ELSE NULL END//
-- CHOOSE's statements had a builder of their own, choose_statement(),
-- until alter_statement() built them all: drop it from an older install.
DROP FUNCTION IF EXISTS choose_statement//
DELIMITER ;

-- One row per InnoDB table (names grouped byte for byte: `cafe` and `café`
-- are two tables): its partitions' verdicts at the session's
-- compression_stats_target_key_block_size and compression_stats_delta
-- (computed by the plugin), the action of each strategy and its statement.
-- A partitioned table whose partitions' verdicts disagree, or that ALL
-- finds partly at the target size, is PER_PARTITION: no statement of its
-- own, its partitions' statements are in partition_verdicts.
CREATE OR REPLACE SQL SECURITY INVOKER VIEW table_verdicts AS
SELECT g.TABLE_SCHEMA, g.TABLE_NAME, g.ROW_FORMAT, g.KEY_BLOCK_SIZE,
       g.PAGE_COMPRESSION, g.TARGET_KEY_BLOCK_SIZE, g.PARTITIONS, g.PHYSICAL_BYTES,
       g.MIN_SPACE_SAVINGS, g.MAX_SPACE_SAVINGS, g.EXPECTED_SPACE_SAVINGS,
       g.MIN_CLOSENESS, g.SOURCE, g.COMPUTED_AT,
       g.SELECTIVE_VERDICT,
       compression_advisor.alter_statement(g.TABLE_SCHEMA, g.TABLE_NAME,
                       g.SELECTIVE_VERDICT, g.TARGET_KEY_BLOCK_SIZE,
                       g.ROW_FORMAT, g.KEY_BLOCK_SIZE,
                       g.PAGE_COMPRESSION, TRUE) AS SELECTIVE_STATEMENT,
       g.ALL_ACTION,
       compression_advisor.alter_statement(g.TABLE_SCHEMA, g.TABLE_NAME, g.ALL_ACTION,
                       compression_advisor.target_key_block_size(), g.ROW_FORMAT,
                       g.KEY_BLOCK_SIZE, g.PAGE_COMPRESSION, TRUE) AS ALL_STATEMENT
FROM (
  SELECT TABLE_SCHEMA COLLATE utf8mb3_bin AS TABLE_SCHEMA,
         TABLE_NAME COLLATE utf8mb3_bin AS TABLE_NAME,
         MAX(ROW_FORMAT) AS ROW_FORMAT,
         MAX(KEY_BLOCK_SIZE) AS KEY_BLOCK_SIZE,
         MAX(PAGE_COMPRESSION) AS PAGE_COMPRESSION,
         MAX(TARGET_KEY_BLOCK_SIZE) AS TARGET_KEY_BLOCK_SIZE,
         COUNT(*) AS PARTITIONS,
         SUM(PHYSICAL_BYTES) AS PHYSICAL_BYTES,
         MIN(SPACE_SAVINGS) AS MIN_SPACE_SAVINGS,
         MAX(SPACE_SAVINGS) AS MAX_SPACE_SAVINGS,
         MAX(GREATEST(0, 100 * (1 - TARGET_KEY_BLOCK_SIZE * 1024 /
                                    LOGICAL_PAGE_SIZE)))
           AS EXPECTED_SPACE_SAVINGS,
         MIN(CLOSENESS) AS MIN_CLOSENESS,
         MIN(SPACE_SAVINGS_SOURCE) AS SOURCE,
         MIN(SPACE_SAVINGS_COMPUTED_AT) AS COMPUTED_AT,
         IF(COUNT(DISTINCT PARTITION_NAME) > 1 AND
            COUNT(DISTINCT NULLIF(SELECTIVE_VERDICT, 'EMPTY_TABLE')) > 1,
            'PER_PARTITION',
            compression_advisor.table_action(
                COUNT(DISTINCT NULLIF(SELECTIVE_VERDICT, 'EMPTY_TABLE')),
                MAX(NULLIF(SELECTIVE_VERDICT, 'EMPTY_TABLE'))))
           AS SELECTIVE_VERDICT,
         CASE
           WHEN MAX(KEY_BLOCK_SIZE) = 0 AND MAX(ROW_FORMAT) = 'Redundant'
             THEN 'REDUNDANT_ROW_FORMAT'
           WHEN MIN(KEY_BLOCK_SIZE) = compression_advisor.target_key_block_size()
                AND MAX(KEY_BLOCK_SIZE) = compression_advisor.target_key_block_size()
             THEN 'KEEP_COMPRESSED'
           WHEN COUNT(DISTINCT PARTITION_NAME) > 1 AND
                SUM(KEY_BLOCK_SIZE = compression_advisor.target_key_block_size()) > 0
             THEN 'PER_PARTITION'
           ELSE 'COMPRESS' END AS ALL_ACTION
  FROM information_schema.COMPRESSION_STATS
  WHERE NOT compression_advisor.is_system_schema(TABLE_SCHEMA)
  GROUP BY 1, 2) g;

-- One row per partition of a partitioned InnoDB table (its subpartitions
-- taken together as a table's partitions are: MIXED if they disagree), the
-- same columns as table_verdicts and statements of that partition only
-- (ALTER TABLE ... REBUILD PARTITION with the pair, from the one builder).
-- They are the ones plan() and apply() run for a PER_PARTITION table.
CREATE OR REPLACE SQL SECURITY INVOKER VIEW partition_verdicts AS
SELECT g.TABLE_SCHEMA, g.TABLE_NAME, g.PARTITION_NAME, g.ROW_FORMAT,
       g.KEY_BLOCK_SIZE, g.PAGE_COMPRESSION, g.TARGET_KEY_BLOCK_SIZE,
       g.PARTITIONS AS SUBPARTITIONS, g.PHYSICAL_BYTES,
       g.MIN_SPACE_SAVINGS, g.MAX_SPACE_SAVINGS, g.EXPECTED_SPACE_SAVINGS,
       g.MIN_CLOSENESS, g.SOURCE, g.COMPUTED_AT,
       g.SELECTIVE_VERDICT,
       compression_advisor.alter_part_statement(g.TABLE_SCHEMA, g.TABLE_NAME,
                       g.PARTITION_NAME, g.SELECTIVE_VERDICT,
                       g.TARGET_KEY_BLOCK_SIZE, g.ROW_FORMAT, g.KEY_BLOCK_SIZE,
                       g.PAGE_COMPRESSION, TRUE) AS SELECTIVE_STATEMENT,
       g.ALL_ACTION,
       compression_advisor.alter_part_statement(g.TABLE_SCHEMA, g.TABLE_NAME,
                       g.PARTITION_NAME, g.ALL_ACTION,
                       compression_advisor.target_key_block_size(), g.ROW_FORMAT,
                       g.KEY_BLOCK_SIZE, g.PAGE_COMPRESSION, TRUE) AS ALL_STATEMENT
FROM (
  SELECT TABLE_SCHEMA COLLATE utf8mb3_bin AS TABLE_SCHEMA,
         TABLE_NAME COLLATE utf8mb3_bin AS TABLE_NAME,
         PARTITION_NAME COLLATE utf8mb3_bin AS PARTITION_NAME,
         MAX(ROW_FORMAT) AS ROW_FORMAT,
         MAX(KEY_BLOCK_SIZE) AS KEY_BLOCK_SIZE,
         MAX(PAGE_COMPRESSION) AS PAGE_COMPRESSION,
         MAX(TARGET_KEY_BLOCK_SIZE) AS TARGET_KEY_BLOCK_SIZE,
         COUNT(*) AS PARTITIONS,
         SUM(PHYSICAL_BYTES) AS PHYSICAL_BYTES,
         MIN(SPACE_SAVINGS) AS MIN_SPACE_SAVINGS,
         MAX(SPACE_SAVINGS) AS MAX_SPACE_SAVINGS,
         MAX(GREATEST(0, 100 * (1 - TARGET_KEY_BLOCK_SIZE * 1024 /
                                    LOGICAL_PAGE_SIZE)))
           AS EXPECTED_SPACE_SAVINGS,
         MIN(CLOSENESS) AS MIN_CLOSENESS,
         MIN(SPACE_SAVINGS_SOURCE) AS SOURCE,
         MIN(SPACE_SAVINGS_COMPUTED_AT) AS COMPUTED_AT,
         compression_advisor.table_action(
             COUNT(DISTINCT NULLIF(SELECTIVE_VERDICT, 'EMPTY_TABLE')),
             MAX(NULLIF(SELECTIVE_VERDICT, 'EMPTY_TABLE')))
           AS SELECTIVE_VERDICT,
         CASE
           WHEN MAX(KEY_BLOCK_SIZE) = 0 AND MAX(ROW_FORMAT) = 'Redundant'
             THEN 'REDUNDANT_ROW_FORMAT'
           WHEN MIN(KEY_BLOCK_SIZE) = compression_advisor.target_key_block_size()
                AND MAX(KEY_BLOCK_SIZE) = compression_advisor.target_key_block_size()
             THEN 'KEEP_COMPRESSED'
           ELSE 'COMPRESS' END AS ALL_ACTION
  FROM information_schema.COMPRESSION_STATS
  WHERE NOT compression_advisor.is_system_schema(TABLE_SCHEMA)
    AND PARTITION_NAME IS NOT NULL
  GROUP BY 1, 2, 3) g;

-- The ALTER TABLE statements SELECTIVE asks for at the session's target
-- size and delta: compress the delta-close tables, uncompress the
-- compressed tables that are no longer delta-close, rebuild the compressed
-- tables whose data is delta-close but whose pages are not (REBUILD); for
-- a PER_PARTITION table the same per partition (PARTITION_NAME).
-- Exactly what apply(..., 'SELECTIVE', NULL, NULL, ...) runs.
CREATE OR REPLACE SQL SECURITY INVOKER VIEW selective_alters AS
SELECT TABLE_SCHEMA, TABLE_NAME, CAST(NULL AS CHAR(64)) AS PARTITION_NAME,
       SELECTIVE_VERDICT AS ACTION,
       MIN_SPACE_SAVINGS AS SPACE_SAVINGS, SELECTIVE_STATEMENT AS STATEMENT
FROM table_verdicts
WHERE SELECTIVE_STATEMENT IS NOT NULL
UNION ALL
SELECT p.TABLE_SCHEMA, p.TABLE_NAME, p.PARTITION_NAME, p.SELECTIVE_VERDICT,
       p.MIN_SPACE_SAVINGS, p.SELECTIVE_STATEMENT
FROM partition_verdicts p
JOIN table_verdicts t
  ON t.TABLE_SCHEMA = p.TABLE_SCHEMA AND t.TABLE_NAME = p.TABLE_NAME
WHERE t.SELECTIVE_VERDICT = 'PER_PARTITION' AND p.SELECTIVE_STATEMENT IS NOT NULL;

-- The ALTER TABLE statements of ALL: every table not compressed at the
-- session's target size (compressed at another size included); for a table
-- partly at that size, its other partitions. Exactly what
-- apply(..., 'ALL', NULL, NULL, ...) runs.
CREATE OR REPLACE SQL SECURITY INVOKER VIEW all_alters AS
SELECT TABLE_SCHEMA, TABLE_NAME, CAST(NULL AS CHAR(64)) AS PARTITION_NAME,
       ALL_ACTION AS ACTION, ALL_STATEMENT AS STATEMENT
FROM table_verdicts
WHERE ALL_STATEMENT IS NOT NULL
UNION ALL
SELECT p.TABLE_SCHEMA, p.TABLE_NAME, p.PARTITION_NAME, p.ALL_ACTION,
       p.ALL_STATEMENT
FROM partition_verdicts p
JOIN table_verdicts t
  ON t.TABLE_SCHEMA = p.TABLE_SCHEMA AND t.TABLE_NAME = p.TABLE_NAME
WHERE t.ALL_ACTION = 'PER_PARTITION' AND p.ALL_STATEMENT IS NOT NULL;

-- Estimates per table (partitions summed) and method: KEY_BLOCK_SIZE=n
-- (ROW_FORMAT=COMPRESSED; for a table compressed at that size its own size
-- is measured), PAGE_ZLIB and PAGE_LZ4 (COMPRESSION='zlib' or 'lz4', bytes
-- on disk of the pages; NULL where the file cannot take it, with the reason
-- in COMPRESSION_ESTIMATES.UNAVAILABLE_REASON). ALLOCATED_SIZE_SPARSE and
-- _NOT_SPARSE: the files after the conversion, as du counts them, with
-- innodb_page_compression_sparse ON and OFF (NULL if a partition has none).
CREATE OR REPLACE SQL SECURITY INVOKER VIEW table_estimates AS
SELECT TABLE_SCHEMA COLLATE utf8mb3_bin AS TABLE_SCHEMA,
       TABLE_NAME COLLATE utf8mb3_bin AS TABLE_NAME,
       METHOD COLLATE utf8mb3_bin AS METHOD, MAX(KEY_BLOCK_SIZE) AS KEY_BLOCK_SIZE,
       SUM(UNCOMPRESSED_BYTES) AS UNCOMPRESSED_BYTES,
       SUM(ESTIMATED_BYTES) AS ESTIMATED_BYTES,
       IF(COUNT(SPACE_SAVINGS) = 0, NULL,
          100 * (1 - SUM(IF(SPACE_SAVINGS IS NULL, 0, ESTIMATED_BYTES)) /
                     SUM(IF(SPACE_SAVINGS IS NULL, 0, UNCOMPRESSED_BYTES))))
         AS SPACE_SAVINGS,
       IF(COUNT(REBUILT_SPACE_SAVINGS) = 0, NULL,
          100 * (1 - SUM(IF(REBUILT_SPACE_SAVINGS IS NULL, 0,
                            UNCOMPRESSED_BYTES *
                            (1 - REBUILT_SPACE_SAVINGS / 100))) /
                     SUM(IF(REBUILT_SPACE_SAVINGS IS NULL, 0,
                            UNCOMPRESSED_BYTES))))
         AS REBUILT_SPACE_SAVINGS,
       MAX(EXPECTED_SPACE_SAVINGS) AS EXPECTED_SPACE_SAVINGS,
       MAX(ESTIMATED_FAILURE_PCT) AS MAX_ESTIMATED_FAILURE_PCT,
       MAX(OFF_PAGE_RECORDS) AS OFF_PAGE_RECORDS,
       MIN(SOURCE) AS SOURCE,
       MIN(COMPUTED_AT) AS COMPUTED_AT,
       MIN(UNAVAILABLE_REASON) AS UNAVAILABLE_REASON,
       IF(COUNT(ALLOCATED_SIZE_SPARSE) = COUNT(*), SUM(ALLOCATED_SIZE_SPARSE),
          NULL) AS ALLOCATED_SIZE_SPARSE,
       IF(COUNT(ALLOCATED_SIZE_NOT_SPARSE) = COUNT(*),
          SUM(ALLOCATED_SIZE_NOT_SPARSE), NULL) AS ALLOCATED_SIZE_NOT_SPARSE
FROM information_schema.COMPRESSION_ESTIMATES
GROUP BY 1, 2, 3;

-- CHOOSE, one row per InnoDB table: which of ROW_FORMAT=COMPRESSED at the
-- session's target size, page compression with zlib or lz4, or none, and
-- why (choose_verdict()), from table_verdicts (SELECTIVE's verdict and
-- savings), table_estimates (page compression, partitions summed) and the
-- table's row operations since start-up
-- (performance_schema.table_io_waits_summary_by_table, as the sys schema's
-- schema_table_statistics reads them; the invoker needs SELECT on it), with
-- the statement apply(..., 'CHOOSE', ...) runs and the file it leaves
-- (ALLOCATED_SIZE_SPARSE, ALLOCATED_SIZE_NOT_SPARSE of table_estimates for
-- the chosen method; NULL if CHOOSE changes nothing).
CREATE OR REPLACE SQL SECURITY INVOKER VIEW table_choices AS
SELECT m.*,
       compression_advisor.alter_statement(m.TABLE_SCHEMA, m.TABLE_NAME,
           m.CHOOSE_ACTION, m.TARGET_KEY_BLOCK_SIZE, m.ROW_FORMAT,
           m.KEY_BLOCK_SIZE, m.PAGE_COMPRESSION, TRUE) AS CHOOSE_STATEMENT,
       f.ALLOCATED_SIZE_SPARSE, f.ALLOCATED_SIZE_NOT_SPARSE
FROM (
SELECT c.*, SUBSTRING_INDEX(c.CHOOSE_VERDICT, ':', 1) AS CHOOSE_METHOD,
       compression_advisor.choose_action(SUBSTRING_INDEX(c.CHOOSE_VERDICT, ':', 1),
                                         c.SELECTIVE_VERDICT) AS CHOOSE_ACTION
FROM (
  SELECT v.TABLE_SCHEMA, v.TABLE_NAME, v.ROW_FORMAT, v.KEY_BLOCK_SIZE,
         v.PAGE_COMPRESSION, v.TARGET_KEY_BLOCK_SIZE,
         v.MIN_SPACE_SAVINGS AS SPACE_SAVINGS, v.EXPECTED_SPACE_SAVINGS,
         z.SPACE_SAVINGS AS PAGE_ZLIB_SPACE_SAVINGS,
         l.SPACE_SAVINGS AS PAGE_LZ4_SPACE_SAVINGS,
         io.COUNT_STAR AS ROW_OPERATIONS, io.COUNT_WRITE AS ROW_WRITES,
         v.SELECTIVE_VERDICT,
         compression_advisor.choose_verdict(v.SELECTIVE_VERDICT,
             v.TARGET_KEY_BLOCK_SIZE, v.MIN_SPACE_SAVINGS,
             v.EXPECTED_SPACE_SAVINGS, z.SPACE_SAVINGS, l.SPACE_SAVINGS,
             z.UNAVAILABLE_REASON, io.COUNT_STAR, io.COUNT_WRITE)
           AS CHOOSE_VERDICT
  FROM table_verdicts v
  LEFT JOIN table_estimates z
    ON z.TABLE_SCHEMA = v.TABLE_SCHEMA AND z.TABLE_NAME = v.TABLE_NAME
   AND z.METHOD = 'PAGE_ZLIB'
  LEFT JOIN table_estimates l
    ON l.TABLE_SCHEMA = v.TABLE_SCHEMA AND l.TABLE_NAME = v.TABLE_NAME
   AND l.METHOD = 'PAGE_LZ4'
  LEFT JOIN performance_schema.table_io_waits_summary_by_table io
    ON io.OBJECT_TYPE = 'TABLE'
   AND io.OBJECT_SCHEMA COLLATE utf8mb4_bin =
       CONVERT(v.TABLE_SCHEMA USING utf8mb4) COLLATE utf8mb4_bin
   AND io.OBJECT_NAME COLLATE utf8mb4_bin =
       CONVERT(v.TABLE_NAME USING utf8mb4) COLLATE utf8mb4_bin) c) m
  -- The file the chosen method leaves (NULL for NONE).
  LEFT JOIN table_estimates f
    ON f.TABLE_SCHEMA = m.TABLE_SCHEMA AND f.TABLE_NAME = m.TABLE_NAME
   AND CONVERT(f.METHOD USING utf8mb4) COLLATE utf8mb4_bin =
       CONVERT(m.CHOOSE_METHOD USING utf8mb4) COLLATE utf8mb4_bin;

-- The ALTER TABLE statements of CHOOSE: exactly what
-- apply(..., 'CHOOSE', NULL, NULL, ...) runs.
CREATE OR REPLACE SQL SECURITY INVOKER VIEW choose_alters AS
SELECT TABLE_SCHEMA, TABLE_NAME, CHOOSE_METHOD AS ACTION,
       CHOOSE_VERDICT AS VERDICT, CHOOSE_STATEMENT AS STATEMENT
FROM table_choices
WHERE CHOOSE_STATEMENT IS NOT NULL;

DELIMITER //

-- Refuse a schema name that names no schema the user can see.
DROP PROCEDURE IF EXISTS check_schema//
CREATE DEFINER = CURRENT_USER PROCEDURE check_schema(
    IN p_schema VARCHAR(64) CHARSET utf8mb4, IN p_pattern BOOLEAN)
SQL SECURITY INVOKER
BEGIN
  DECLARE msg VARCHAR(300);
  IF p_schema IS NOT NULL AND NOT p_pattern AND NOT EXISTS (
       SELECT 1 FROM information_schema.SCHEMATA
       WHERE schema_matches(SCHEMA_NAME, p_schema, FALSE)) THEN
    SET msg = CONCAT('Unknown database ''', p_schema, ''' (schema names ',
                     'match exactly; *_like() procedures take a pattern)');
    SIGNAL SQLSTATE '42000' SET MYSQL_ERRNO = 1049, MESSAGE_TEXT = msg;
  END IF;
END//

-- Estimate every InnoDB base table of the schemas asked for (see the top),
-- with p_sample_pages leaf pages per index (NULL:
-- @@compression_stats_estimate_sample_pages; 0: full scan). Reports one row
-- per table: the function's answer or its error.
DROP PROCEDURE IF EXISTS estimate_tables//
CREATE DEFINER = CURRENT_USER PROCEDURE estimate_tables(
    IN p_schema VARCHAR(64) CHARSET utf8mb4, IN p_pattern BOOLEAN,
    IN p_sample_pages BIGINT)
SQL SECURITY INVOKER
BEGIN
  DECLARE done INT DEFAULT 0;
  DECLARE s, t VARCHAR(64) CHARSET utf8mb4;
  DECLARE cur CURSOR FOR
    SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES
    WHERE ENGINE = 'InnoDB' AND TABLE_TYPE = 'BASE TABLE'
      AND schema_matches(TABLE_SCHEMA, p_schema, p_pattern)
    ORDER BY TABLE_SCHEMA COLLATE utf8mb3_bin, TABLE_NAME COLLATE utf8mb3_bin;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;
  CALL check_schema(p_schema, p_pattern);
  DROP TEMPORARY TABLE IF EXISTS estimate_report;
  CREATE TEMPORARY TABLE estimate_report (
    ID INT AUTO_INCREMENT PRIMARY KEY,
    TABLE_SCHEMA VARCHAR(64) CHARSET utf8mb4 COLLATE utf8mb4_bin,
    TABLE_NAME VARCHAR(64) CHARSET utf8mb4 COLLATE utf8mb4_bin, RESULT TEXT);
  OPEN cur;
  tables: LOOP
    FETCH cur INTO s, t;
    IF done THEN LEAVE tables; END IF;
    BEGIN
      DECLARE CONTINUE HANDLER FOR SQLEXCEPTION
      BEGIN
        GET DIAGNOSTICS CONDITION 1 @compression_advisor_msg = MESSAGE_TEXT;
        SET @compression_advisor_r =
            CONCAT('ERROR: ', @compression_advisor_msg);
      END;
      SET @compression_advisor_r = NULL;
      IF p_sample_pages = 0 THEN
        SELECT COMPRESSION_STATS_ESTIMATE(s, t, 'FULL')
          INTO @compression_advisor_r;
      ELSE
        SELECT COMPRESSION_STATS_ESTIMATE(s, t, p_sample_pages)
          INTO @compression_advisor_r;
      END IF;
      INSERT INTO estimate_report (TABLE_SCHEMA, TABLE_NAME, RESULT)
        VALUES (s, t, @compression_advisor_r);
    END;
  END LOOP;
  CLOSE cur;
  SELECT TABLE_SCHEMA, TABLE_NAME, RESULT FROM estimate_report ORDER BY ID;
  DROP TEMPORARY TABLE estimate_report;
END//

DROP PROCEDURE IF EXISTS estimate_all//
CREATE DEFINER = CURRENT_USER PROCEDURE estimate_all(
    IN p_schema VARCHAR(64) CHARSET utf8mb4, IN p_sample_pages BIGINT)
SQL SECURITY INVOKER
CALL estimate_tables(p_schema, FALSE, p_sample_pages)//

DROP PROCEDURE IF EXISTS estimate_all_like//
CREATE DEFINER = CURRENT_USER PROCEDURE estimate_all_like(
    IN p_schema_like VARCHAR(64) CHARSET utf8mb4, IN p_sample_pages BIGINT)
SQL SECURITY INVOKER
CALL estimate_tables(p_schema_like, TRUE, p_sample_pages)//

-- Fill the temporary table plan_rows: what p_strategy ('SELECTIVE', 'ALL'
-- or 'CHOOSE') does at p_key_block_size (NULL: the plugin's target) and
-- p_delta (NULL: the plugin's delta) to every InnoDB table of the schemas
-- asked for, from the rows of table_verdicts (table_choices for CHOOSE) at
-- that size and delta, with the statements apply() runs: the views' own
-- online, else alter_statement() called with the views' arguments and
-- p_online FALSE (p_allow_blocking).
DROP PROCEDURE IF EXISTS make_plan//
CREATE DEFINER = CURRENT_USER PROCEDURE make_plan(
    IN p_schema VARCHAR(64) CHARSET utf8mb4, IN p_pattern BOOLEAN,
    IN p_strategy VARCHAR(16), IN p_key_block_size INT, IN p_delta DOUBLE,
    IN p_allow_blocking BOOLEAN)
SQL SECURITY INVOKER
BEGIN
  DECLARE kbs INT DEFAULT IFNULL(
      p_key_block_size, @@SESSION.compression_stats_target_key_block_size);
  DECLARE d DOUBLE DEFAULT IFNULL(p_delta, @@SESSION.compression_stats_delta);
  DECLARE old_kbs INT DEFAULT @@SESSION.compression_stats_target_key_block_size;
  DECLARE old_d DOUBLE DEFAULT @@SESSION.compression_stats_delta;
  DECLARE all_strategy BOOLEAN DEFAULT UPPER(p_strategy) = 'ALL';
  DECLARE choose_strategy BOOLEAN DEFAULT UPPER(p_strategy) = 'CHOOSE';
  DECLARE v_online BOOLEAN DEFAULT NOT IFNULL(p_allow_blocking, FALSE);
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    SET SESSION compression_stats_target_key_block_size = old_kbs;
    SET SESSION compression_stats_delta = old_d;
    RESIGNAL;
  END;
  IF UPPER(IFNULL(p_strategy, '')) NOT IN ('SELECTIVE', 'ALL', 'CHOOSE') THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT =
      'strategy must be SELECTIVE, ALL or CHOOSE';
  END IF;
  IF kbs IS NULL OR kbs NOT IN (1, 2, 4, 8, 16) THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT =
      'key_block_size must be 1, 2, 4, 8 or 16';
  END IF;
  IF d IS NULL OR d < 0 OR d > 1 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT =
      'delta must be a number from 0 to 1';
  END IF;
  CALL check_schema(p_schema, p_pattern);
  SET SESSION compression_stats_target_key_block_size = kbs;
  SET SESSION compression_stats_delta = d;
  DROP TEMPORARY TABLE IF EXISTS plan_rows;
  IF choose_strategy THEN
    CREATE TEMPORARY TABLE plan_rows AS
    SELECT ROW_NUMBER() OVER (ORDER BY TABLE_SCHEMA, TABLE_NAME) AS ID,
           TABLE_SCHEMA, TABLE_NAME, CAST(NULL AS CHAR(64)) AS PARTITION_NAME,
           ROW_FORMAT, KEY_BLOCK_SIZE,
           SPACE_SAVINGS, EXPECTED_SPACE_SAVINGS,
           CAST(NULL AS DOUBLE) AS CLOSENESS, CAST(NULL AS CHAR(10)) AS SOURCE,
           CAST(NULL AS DATETIME) AS COMPUTED_AT,
           CAST(CHOOSE_VERDICT AS CHAR(300)) AS VERDICT,
           CAST(CHOOSE_METHOD AS CHAR(32)) AS ACTION,
           CAST(IF(v_online, CHOOSE_STATEMENT,
                   alter_statement(TABLE_SCHEMA, TABLE_NAME, CHOOSE_ACTION,
                                   TARGET_KEY_BLOCK_SIZE, ROW_FORMAT,
                                   KEY_BLOCK_SIZE, PAGE_COMPRESSION, FALSE))
                AS CHAR(400)) AS STATEMENT,
           CAST(NULL AS CHAR(600)) AS OUTCOME,
           CAST(NULL AS DOUBLE) AS SECONDS
    FROM table_choices
    WHERE schema_matches(TABLE_SCHEMA, p_schema, p_pattern);
  ELSE
    -- The tables, and the partitions of each PER_PARTITION table (listed
    -- after it; the table's own row has no statement).
    CREATE TEMPORARY TABLE plan_rows AS
    SELECT ROW_NUMBER() OVER (ORDER BY u.TABLE_SCHEMA, u.TABLE_NAME,
                                       u.PARTITION_NAME) AS ID, u.*
    FROM (
      SELECT TABLE_SCHEMA, TABLE_NAME,
             CAST(NULL AS CHAR(64)) AS PARTITION_NAME, ROW_FORMAT,
             KEY_BLOCK_SIZE, MIN_SPACE_SAVINGS AS SPACE_SAVINGS,
             EXPECTED_SPACE_SAVINGS, MIN_CLOSENESS AS CLOSENESS, SOURCE,
             COMPUTED_AT,
             CAST(IF(all_strategy, ALL_ACTION, SELECTIVE_VERDICT) AS CHAR(300))
               AS VERDICT,
             CAST(IF(all_strategy, ALL_ACTION, SELECTIVE_VERDICT) AS CHAR(32))
               AS ACTION,
             CAST(IF(all_strategy,
                     IF(v_online, ALL_STATEMENT,
                        alter_statement(TABLE_SCHEMA, TABLE_NAME, ALL_ACTION,
                                        kbs, ROW_FORMAT, KEY_BLOCK_SIZE,
                                        PAGE_COMPRESSION, FALSE)),
                     IF(v_online, SELECTIVE_STATEMENT,
                        alter_statement(TABLE_SCHEMA, TABLE_NAME,
                                        SELECTIVE_VERDICT, TARGET_KEY_BLOCK_SIZE,
                                        ROW_FORMAT, KEY_BLOCK_SIZE,
                                        PAGE_COMPRESSION, FALSE)))
                  AS CHAR(400)) AS STATEMENT,
             CAST(NULL AS CHAR(600)) AS OUTCOME,
             CAST(NULL AS DOUBLE) AS SECONDS
      FROM table_verdicts
      WHERE schema_matches(TABLE_SCHEMA, p_schema, p_pattern)
      UNION ALL
      SELECT p.TABLE_SCHEMA, p.TABLE_NAME, p.PARTITION_NAME, p.ROW_FORMAT,
             p.KEY_BLOCK_SIZE, p.MIN_SPACE_SAVINGS, p.EXPECTED_SPACE_SAVINGS,
             p.MIN_CLOSENESS, p.SOURCE, p.COMPUTED_AT,
             IF(all_strategy, p.ALL_ACTION, p.SELECTIVE_VERDICT),
             IF(all_strategy, p.ALL_ACTION, p.SELECTIVE_VERDICT),
             IF(all_strategy,
                IF(v_online, p.ALL_STATEMENT,
                   alter_part_statement(p.TABLE_SCHEMA, p.TABLE_NAME,
                                        p.PARTITION_NAME, p.ALL_ACTION, kbs,
                                        p.ROW_FORMAT, p.KEY_BLOCK_SIZE,
                                        p.PAGE_COMPRESSION, FALSE)),
                IF(v_online, p.SELECTIVE_STATEMENT,
                   alter_part_statement(p.TABLE_SCHEMA, p.TABLE_NAME,
                                        p.PARTITION_NAME, p.SELECTIVE_VERDICT,
                                        p.TARGET_KEY_BLOCK_SIZE, p.ROW_FORMAT,
                                        p.KEY_BLOCK_SIZE, p.PAGE_COMPRESSION,
                                        FALSE))),
             NULL, NULL
      FROM partition_verdicts p
      JOIN table_verdicts t
        ON t.TABLE_SCHEMA = p.TABLE_SCHEMA AND t.TABLE_NAME = p.TABLE_NAME
      WHERE schema_matches(p.TABLE_SCHEMA, p_schema, p_pattern)
        AND IF(all_strategy, t.ALL_ACTION, t.SELECTIVE_VERDICT) =
            'PER_PARTITION') u;
  END IF;
  SET SESSION compression_stats_target_key_block_size = old_kbs;
  SET SESSION compression_stats_delta = old_d;
END//

-- Show what a strategy would do to every table.
DROP PROCEDURE IF EXISTS show_plan//
CREATE DEFINER = CURRENT_USER PROCEDURE show_plan(
    IN p_schema VARCHAR(64) CHARSET utf8mb4, IN p_pattern BOOLEAN,
    IN p_strategy VARCHAR(16), IN p_key_block_size INT, IN p_delta DOUBLE)
SQL SECURITY INVOKER
BEGIN
  CALL make_plan(p_schema, p_pattern, p_strategy, p_key_block_size, p_delta,
                 FALSE);
  IF UPPER(p_strategy) = 'CHOOSE' THEN
    -- The verdict says which method and why.
    SELECT TABLE_SCHEMA, TABLE_NAME, ROW_FORMAT, KEY_BLOCK_SIZE,
           ROUND(SPACE_SAVINGS, 1) AS SPACE_SAVINGS, ACTION, VERDICT, STATEMENT
    FROM plan_rows ORDER BY ID;
  ELSE
    -- Rounded as a person reads them: savings to a tenth of a point,
    -- closeness to a hundredth (the views keep the full figures).
    SELECT TABLE_SCHEMA, TABLE_NAME, PARTITION_NAME, ROW_FORMAT,
           KEY_BLOCK_SIZE, ROUND(SPACE_SAVINGS, 1) AS SPACE_SAVINGS,
           ROUND(EXPECTED_SPACE_SAVINGS, 1) AS EXPECTED_SPACE_SAVINGS,
           ROUND(CLOSENESS, 2) AS CLOSENESS, SOURCE, ACTION, STATEMENT
    FROM plan_rows ORDER BY ID;
  END IF;
  DROP TEMPORARY TABLE plan_rows;
END//

DROP PROCEDURE IF EXISTS plan//
CREATE DEFINER = CURRENT_USER PROCEDURE plan(
    IN p_schema VARCHAR(64) CHARSET utf8mb4, IN p_strategy VARCHAR(16),
    IN p_key_block_size INT, IN p_delta DOUBLE)
SQL SECURITY INVOKER
CALL show_plan(p_schema, FALSE, p_strategy, p_key_block_size, p_delta)//

DROP PROCEDURE IF EXISTS plan_like//
CREATE DEFINER = CURRENT_USER PROCEDURE plan_like(
    IN p_schema_like VARCHAR(64) CHARSET utf8mb4, IN p_strategy VARCHAR(16),
    IN p_key_block_size INT, IN p_delta DOUBLE)
SQL SECURITY INVOKER
CALL show_plan(p_schema_like, TRUE, p_strategy, p_key_block_size, p_delta)//

-- Run the ALTER TABLE statements of a strategy, one table at a time, and
-- report each outcome. p_dry_run (default TRUE) only lists them. Each
-- statement runs with lock_wait_timeout = p_lock_wait_timeout (default 5
-- seconds) and, unless p_allow_blocking, ALGORITHM=INPLACE, LOCK=NONE.
DROP PROCEDURE IF EXISTS run_plan//
CREATE DEFINER = CURRENT_USER PROCEDURE run_plan(
    IN p_schema VARCHAR(64) CHARSET utf8mb4, IN p_pattern BOOLEAN,
    IN p_strategy VARCHAR(16), IN p_key_block_size INT, IN p_delta DOUBLE,
    IN p_dry_run BOOLEAN, IN p_lock_wait_timeout INT,
    IN p_allow_blocking BOOLEAN)
SQL SECURITY INVOKER
BEGIN
  DECLARE done INT DEFAULT 0;
  DECLARE v_id INT;
  DECLARE stmt VARCHAR(400) CHARSET utf8mb4;
  DECLARE t0 DATETIME(6);
  DECLARE lwt INT DEFAULT IFNULL(p_lock_wait_timeout, 5);
  DECLARE old_lwt BIGINT DEFAULT @@SESSION.lock_wait_timeout;
  DECLARE cur CURSOR FOR
    SELECT ID, STATEMENT FROM plan_rows WHERE STATEMENT IS NOT NULL
    ORDER BY ID;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;
  IF lwt < 1 OR lwt > 31536000 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT =
      'lock_wait_timeout must be from 1 to 31536000 seconds';
  END IF;
  CALL make_plan(p_schema, p_pattern, p_strategy, p_key_block_size, p_delta,
                 p_allow_blocking);
  IF IFNULL(p_dry_run, TRUE) THEN
    UPDATE plan_rows SET OUTCOME = 'DRY RUN' WHERE STATEMENT IS NOT NULL;
  ELSE
    OPEN cur;
    tables: LOOP
      FETCH cur INTO v_id, stmt;
      IF done THEN LEAVE tables; END IF;
      SET t0 = NOW(6);
      SET @compression_advisor_outcome = 'DONE';
      BEGIN
        DECLARE CONTINUE HANDLER FOR SQLEXCEPTION
        BEGIN
          GET DIAGNOSTICS CONDITION 1 @compression_advisor_msg = MESSAGE_TEXT;
          SET @compression_advisor_outcome =
              CONCAT('FAILED: ', @compression_advisor_msg);
        END;
        SET @compression_advisor_stmt = stmt;
        SET SESSION lock_wait_timeout = lwt;
        PREPARE compression_advisor_alter FROM @compression_advisor_stmt;
        EXECUTE compression_advisor_alter;
        DEALLOCATE PREPARE compression_advisor_alter;
      END;
      SET SESSION lock_wait_timeout = old_lwt;
      UPDATE plan_rows
         SET OUTCOME = @compression_advisor_outcome,
             SECONDS = TIMESTAMPDIFF(MICROSECOND, t0, NOW(6)) / 1e6
       WHERE plan_rows.ID = v_id;
    END LOOP;
    CLOSE cur;
  END IF;
  SELECT TABLE_SCHEMA, TABLE_NAME, PARTITION_NAME, ACTION,
         ROUND(SPACE_SAVINGS, 1) AS SPACE_SAVINGS, STATEMENT, OUTCOME, SECONDS
  FROM plan_rows WHERE STATEMENT IS NOT NULL ORDER BY ID;
  DROP TEMPORARY TABLE plan_rows;
END//

DROP PROCEDURE IF EXISTS apply//
CREATE DEFINER = CURRENT_USER PROCEDURE apply(
    IN p_schema VARCHAR(64) CHARSET utf8mb4, IN p_strategy VARCHAR(16),
    IN p_key_block_size INT, IN p_delta DOUBLE, IN p_dry_run BOOLEAN,
    IN p_lock_wait_timeout INT, IN p_allow_blocking BOOLEAN)
SQL SECURITY INVOKER
CALL run_plan(p_schema, FALSE, p_strategy, p_key_block_size, p_delta,
              p_dry_run, p_lock_wait_timeout, p_allow_blocking)//

DROP PROCEDURE IF EXISTS apply_like//
CREATE DEFINER = CURRENT_USER PROCEDURE apply_like(
    IN p_schema_like VARCHAR(64) CHARSET utf8mb4, IN p_strategy VARCHAR(16),
    IN p_key_block_size INT, IN p_delta DOUBLE, IN p_dry_run BOOLEAN,
    IN p_lock_wait_timeout INT, IN p_allow_blocking BOOLEAN)
SQL SECURITY INVOKER
CALL run_plan(p_schema_like, TRUE, p_strategy, p_key_block_size, p_delta,
              p_dry_run, p_lock_wait_timeout, p_allow_blocking)//

DELIMITER ;
