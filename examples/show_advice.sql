-- What the demo shows next: estimate every table of the sample schema, then
-- the SELECTIVE verdicts at KEY_BLOCK_SIZE=8, delta 0.10 and the ALTER TABLE
-- statements the advisor would run (dry run).
CALL compression_advisor.estimate_all('compress_demo', NULL);
SELECT TABLE_NAME, PARTITION_NAME, ROW_FORMAT, TARGET_KEY_BLOCK_SIZE AS KBS,
       ROUND(SPACE_SAVINGS, 1) AS SS, SPACE_SAVINGS_SOURCE AS SOURCE,
       ROUND(CLOSENESS, 2) AS CLOSENESS, SELECTIVE_VERDICT
  FROM information_schema.COMPRESSION_STATS
 WHERE TABLE_SCHEMA = 'compress_demo'
 ORDER BY TABLE_NAME, PARTITION_NAME;
CALL compression_advisor.apply('compress_demo', 'SELECTIVE', 8, 0.10, TRUE, NULL, NULL);
