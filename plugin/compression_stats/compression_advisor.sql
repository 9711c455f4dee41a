-- compression_advisor: the SELECTIVE strategy in SQL, sys-schema style.
-- Install: mysql < plugin/compression_stats/compression_advisor.sql (needs the
-- compression_stats plugin: COMPRESSION_STATS, COMPRESSION_ESTIMATES and
-- COMPRESSION_STATS_ESTIMATE()). Views and procedures run with the
-- invoker's privileges: a user sees and changes only the tables he may.
--
--   CALL compression_advisor.estimate_all('shop%', NULL);   -- estimate
--   SELECT * FROM compression_advisor.selective_alters;     -- the advice
--   CALL compression_advisor.plan('shop%', 'SELECTIVE', 8, 0.10);
--   CALL compression_advisor.apply('shop%', 'SELECTIVE', 8, 0.10, TRUE);  -- dry run
--   CALL compression_advisor.apply('shop%', 'SELECTIVE', 8, 0.10, FALSE); -- do it
-- Arguments that are NULL take the defaults: all schemas but the system
-- ones, @@compression_stats_target_key_block_size, @@compression_stats_delta,
-- dry run.

CREATE DATABASE IF NOT EXISTS compression_advisor;
USE compression_advisor;

DELIMITER //
-- The ALTER TABLE statement of an action on a table: COMPRESS at a
-- KEY_BLOCK_SIZE, UNCOMPRESS, or REBUILD (FORCE); NULL for other actions.
-- UNCOMPRESS also drops the table's compression options (ENGINE_ATTRIBUTE),
-- which InnoDB refuses on a table that is not compressed; COMPRESS and
-- REBUILD keep them.
DROP FUNCTION IF EXISTS alter_statement//
CREATE DEFINER = CURRENT_USER FUNCTION alter_statement(
    p_schema VARCHAR(64), p_table VARCHAR(64), p_action VARCHAR(32),
    p_key_block_size INT) RETURNS VARCHAR(400)
DETERMINISTIC NO SQL SQL SECURITY INVOKER
RETURN IF(p_action NOT IN ('COMPRESS', 'UNCOMPRESS', 'REBUILD'), NULL,
          CONCAT('ALTER TABLE `', REPLACE(p_schema, '`', '``'), '`.`',
                 REPLACE(p_table, '`', '``'), '` ',
                 CASE p_action
                   WHEN 'COMPRESS' THEN
                     CONCAT('ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=',
                            p_key_block_size)
                   WHEN 'REBUILD' THEN 'FORCE'
                   ELSE CONCAT('ROW_FORMAT=DYNAMIC KEY_BLOCK_SIZE=0 ',
                               'ENGINE_ATTRIBUTE=''''') END))//
DELIMITER ;

-- One row per InnoDB table: its partitions' verdicts at
-- @@compression_stats_target_key_block_size and @@compression_stats_delta
-- (computed by the plugin), and the table's space savings.
CREATE OR REPLACE SQL SECURITY INVOKER VIEW table_verdicts AS
SELECT TABLE_SCHEMA, TABLE_NAME,
       MAX(ROW_FORMAT) AS ROW_FORMAT,
       MAX(KEY_BLOCK_SIZE) AS KEY_BLOCK_SIZE,
       MAX(TARGET_KEY_BLOCK_SIZE) AS TARGET_KEY_BLOCK_SIZE,
       COUNT(*) AS PARTITIONS,
       SUM(PHYSICAL_BYTES) AS PHYSICAL_BYTES,
       MIN(SPACE_SAVINGS) AS MIN_SPACE_SAVINGS,
       MAX(SPACE_SAVINGS) AS MAX_SPACE_SAVINGS,
       MIN(SPACE_SAVINGS_COMPUTED_AT) AS COMPUTED_AT,
       IF(COUNT(DISTINCT SELECTIVE_VERDICT) = 1, MAX(SELECTIVE_VERDICT),
          'MIXED') AS SELECTIVE_VERDICT
FROM information_schema.COMPRESSION_STATS
WHERE TABLE_SCHEMA NOT IN ('mysql', 'sys', 'performance_schema',
                           'information_schema', 'compression_advisor')
GROUP BY TABLE_SCHEMA, TABLE_NAME;

-- The ALTER TABLE statements SELECTIVE asks for at the plugin's target
-- size and delta: compress the delta-close tables, uncompress the
-- compressed tables that are no longer delta-close, rebuild the compressed
-- tables whose data is delta-close but whose pages are not (REBUILD).
CREATE OR REPLACE SQL SECURITY INVOKER VIEW selective_alters AS
SELECT TABLE_SCHEMA, TABLE_NAME, SELECTIVE_VERDICT AS ACTION,
       MIN_SPACE_SAVINGS AS SPACE_SAVINGS,
       alter_statement(TABLE_SCHEMA, TABLE_NAME, SELECTIVE_VERDICT,
                       TARGET_KEY_BLOCK_SIZE) AS STATEMENT
FROM table_verdicts
WHERE SELECTIVE_VERDICT IN ('COMPRESS', 'UNCOMPRESS', 'REBUILD');

-- The ALTER TABLE statements of ALL: every table not yet compressed at the
-- target size.
CREATE OR REPLACE SQL SECURITY INVOKER VIEW all_alters AS
SELECT TABLE_SCHEMA, TABLE_NAME, 'COMPRESS' AS ACTION,
       alter_statement(TABLE_SCHEMA, TABLE_NAME, 'COMPRESS',
                       TARGET_KEY_BLOCK_SIZE) AS STATEMENT
FROM table_verdicts
WHERE KEY_BLOCK_SIZE <> TARGET_KEY_BLOCK_SIZE
  AND ROW_FORMAT <> 'Redundant';

-- Estimates per table (partitions summed) and KEY_BLOCK_SIZE. For a
-- compressed table, its own size is measured.
CREATE OR REPLACE SQL SECURITY INVOKER VIEW table_estimates AS
SELECT TABLE_SCHEMA, TABLE_NAME, KEY_BLOCK_SIZE,
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
       MIN(COMPUTED_AT) AS COMPUTED_AT
FROM information_schema.COMPRESSION_ESTIMATES
GROUP BY TABLE_SCHEMA, TABLE_NAME, KEY_BLOCK_SIZE;

DELIMITER //

-- Estimate every InnoDB base table whose schema matches a LIKE pattern
-- (NULL: all but the system schemas), with p_sample_pages leaf pages per index
-- (NULL: @@compression_stats_estimate_sample_pages; 0: full scan).
-- Reports one row per table: the function's answer or its error.
DROP PROCEDURE IF EXISTS estimate_all//
CREATE DEFINER = CURRENT_USER PROCEDURE estimate_all(
    IN p_schema VARCHAR(64), IN p_sample_pages BIGINT)
SQL SECURITY INVOKER
BEGIN
  DECLARE done INT DEFAULT 0;
  DECLARE s, t VARCHAR(64);
  DECLARE cur CURSOR FOR
    SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES
    WHERE ENGINE = 'InnoDB' AND TABLE_TYPE = 'BASE TABLE'
      AND TABLE_SCHEMA LIKE IFNULL(p_schema, '%')
      AND TABLE_SCHEMA NOT IN ('mysql', 'sys', 'performance_schema',
                               'information_schema', 'compression_advisor')
    ORDER BY TABLE_SCHEMA, TABLE_NAME;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;
  DROP TEMPORARY TABLE IF EXISTS estimate_report;
  CREATE TEMPORARY TABLE estimate_report (
    TABLE_SCHEMA VARCHAR(64), TABLE_NAME VARCHAR(64), RESULT TEXT);
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
      INSERT INTO estimate_report VALUES (s, t, @compression_advisor_r);
    END;
  END LOOP;
  CLOSE cur;
  SELECT * FROM estimate_report ORDER BY TABLE_SCHEMA, TABLE_NAME;
  DROP TEMPORARY TABLE estimate_report;
END//

-- Fill the temporary table plan_rows: what p_strategy ('SELECTIVE' or
-- 'ALL') does at p_key_block_size (NULL: the plugin's target) and p_delta
-- (NULL: the plugin's delta) to every InnoDB table of the schemas matching
-- p_schema (LIKE; NULL: all but the system schemas).
DROP PROCEDURE IF EXISTS make_plan//
CREATE DEFINER = CURRENT_USER PROCEDURE make_plan(
    IN p_schema VARCHAR(64), IN p_strategy VARCHAR(16),
    IN p_key_block_size INT, IN p_delta DOUBLE)
SQL SECURITY INVOKER
BEGIN
  DECLARE kbs INT DEFAULT IFNULL(p_key_block_size,
                                 @@compression_stats_target_key_block_size);
  DECLARE d DOUBLE DEFAULT IFNULL(p_delta, @@compression_stats_delta);
  IF UPPER(IFNULL(p_strategy, '')) NOT IN ('SELECTIVE', 'ALL') THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT =
      'strategy must be SELECTIVE or ALL';
  END IF;
  IF kbs NOT IN (1, 2, 4, 8, 16) THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT =
      'key_block_size must be 1, 2, 4, 8 or 16';
  END IF;
  IF d IS NULL OR d < 0 OR d > 1 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT =
      'delta must be a number from 0 to 1';
  END IF;
  DROP TEMPORARY TABLE IF EXISTS plan_rows;
  CREATE TEMPORARY TABLE plan_rows AS
  SELECT v.TABLE_SCHEMA, v.TABLE_NAME, v.ROW_FORMAT, v.KEY_BLOCK_SIZE,
         e.SPACE_SAVINGS, e.EXPECTED_SPACE_SAVINGS,
         e.SPACE_SAVINGS / NULLIF(e.EXPECTED_SPACE_SAVINGS, 0) AS CLOSENESS,
         e.SOURCE, e.COMPUTED_AT,
         CAST(CASE
           WHEN v.ROW_FORMAT = 'Redundant' THEN 'REDUNDANT_ROW_FORMAT'
           WHEN UPPER(p_strategy) = 'ALL' THEN
             IF(v.KEY_BLOCK_SIZE = kbs, 'KEEP_COMPRESSED', 'COMPRESS')
           WHEN e.TABLE_NAME IS NULL THEN 'NO_ESTIMATE'
           WHEN e.SPACE_SAVINGS IS NULL THEN 'EMPTY_TABLE'
           WHEN e.EXPECTED_SPACE_SAVINGS > 0
                AND e.SPACE_SAVINGS >= (1 - d) * e.EXPECTED_SPACE_SAVINGS THEN
             IF(v.KEY_BLOCK_SIZE = kbs, 'KEEP_COMPRESSED', 'COMPRESS')
           WHEN v.KEY_BLOCK_SIZE = kbs AND e.EXPECTED_SPACE_SAVINGS > 0
                AND e.REBUILT_SPACE_SAVINGS >=
                    (1 - d) * e.EXPECTED_SPACE_SAVINGS THEN 'REBUILD'
           ELSE IF(v.KEY_BLOCK_SIZE > 0, 'UNCOMPRESS', 'KEEP_UNCOMPRESSED')
         END AS CHAR(32)) AS ACTION,
         CAST(NULL AS CHAR(400)) AS STATEMENT,
         CAST(NULL AS CHAR(600)) AS OUTCOME,
         CAST(NULL AS DOUBLE) AS SECONDS
  FROM table_verdicts v
  LEFT JOIN table_estimates e
    ON e.TABLE_SCHEMA = v.TABLE_SCHEMA AND e.TABLE_NAME = v.TABLE_NAME
   AND e.KEY_BLOCK_SIZE = kbs
  WHERE v.TABLE_SCHEMA LIKE IFNULL(p_schema, '%');
  UPDATE plan_rows
     SET STATEMENT = alter_statement(TABLE_SCHEMA, TABLE_NAME, ACTION, kbs);
END//

-- Show what a strategy would do to every table.
DROP PROCEDURE IF EXISTS plan//
CREATE DEFINER = CURRENT_USER PROCEDURE plan(
    IN p_schema VARCHAR(64), IN p_strategy VARCHAR(16),
    IN p_key_block_size INT, IN p_delta DOUBLE)
SQL SECURITY INVOKER
BEGIN
  CALL make_plan(p_schema, p_strategy, p_key_block_size, p_delta);
  SELECT TABLE_SCHEMA, TABLE_NAME, ROW_FORMAT, KEY_BLOCK_SIZE, SPACE_SAVINGS,
         EXPECTED_SPACE_SAVINGS, CLOSENESS, SOURCE, ACTION, STATEMENT
  FROM plan_rows ORDER BY TABLE_SCHEMA, TABLE_NAME;
  DROP TEMPORARY TABLE plan_rows;
END//

-- Run the ALTER TABLE statements of a strategy, one table at a time, and
-- report each outcome. p_dry_run (default TRUE) only lists them.
DROP PROCEDURE IF EXISTS apply//
CREATE DEFINER = CURRENT_USER PROCEDURE apply(
    IN p_schema VARCHAR(64), IN p_strategy VARCHAR(16),
    IN p_key_block_size INT, IN p_delta DOUBLE, IN p_dry_run BOOLEAN)
SQL SECURITY INVOKER
BEGIN
  DECLARE done INT DEFAULT 0;
  DECLARE s, t VARCHAR(64);
  DECLARE stmt VARCHAR(400);
  DECLARE t0 DATETIME(6);
  DECLARE cur CURSOR FOR
    SELECT TABLE_SCHEMA, TABLE_NAME, STATEMENT FROM plan_rows
    WHERE STATEMENT IS NOT NULL ORDER BY TABLE_SCHEMA, TABLE_NAME;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;
  CALL make_plan(p_schema, p_strategy, p_key_block_size, p_delta);
  IF IFNULL(p_dry_run, TRUE) THEN
    UPDATE plan_rows SET OUTCOME = 'DRY RUN' WHERE STATEMENT IS NOT NULL;
  ELSE
    OPEN cur;
    tables: LOOP
      FETCH cur INTO s, t, stmt;
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
        PREPARE compression_advisor_alter FROM @compression_advisor_stmt;
        EXECUTE compression_advisor_alter;
        DEALLOCATE PREPARE compression_advisor_alter;
      END;
      UPDATE plan_rows
         SET OUTCOME = @compression_advisor_outcome,
             SECONDS = TIMESTAMPDIFF(MICROSECOND, t0, NOW(6)) / 1e6
       WHERE TABLE_SCHEMA = s AND TABLE_NAME = t;
    END LOOP;
    CLOSE cur;
  END IF;
  SELECT TABLE_SCHEMA, TABLE_NAME, ACTION, SPACE_SAVINGS, STATEMENT, OUTCOME,
         SECONDS
  FROM plan_rows WHERE STATEMENT IS NOT NULL
  ORDER BY TABLE_SCHEMA, TABLE_NAME;
  DROP TEMPORARY TABLE plan_rows;
END//

DELIMITER ;
