-- TPC-C-like initial population (TPC-C 5.11, clause 4.3.3.1) in SQL, for
-- the estimator's accuracy measurement: random a-strings and n-strings,
-- NURand(255,0,999) last names, 10 % "ORIGINAL" in i_data and s_data,
-- 10 % bad credit, 30 % undelivered orders. Random a-strings are base64
-- (64 symbols) instead of the specification's alphanumerics (62): the same
-- entropy to within 1 %.
--
-- SET @tpcc_data = 'words' before CALL tpcc_load() makes a variant whose
-- a-strings are English words drawn at random from a list of 64 (the length
-- rules are kept): text of the kind real applications store in names,
-- addresses and notes, which compresses well. It is not the specification's
-- data; bench/bulk-load.sh uses it as a second, compressible data set.
--
-- The data options of bench/tpcc/tpcc.lua (--data, BENCHMARKS.md "Data";
-- the sources are in docs/notes/issue12-generators.md):
--   'spec' (or unset): the rules above.
--   'dbt2': DBT-2's generator (dbt2-0.37.50, src/common.c and
--     src/datagen.c), loaded into DBT-2's schema (tpcc_schema_dbt2.sql,
--     latin1): a-strings over DBT-2's 127 symbols (0x21, 0x23-0x2B,
--     0x2D-0x7E, 0xDC-0xFE: its 128-entry table drawn with rand() % 127),
--     "l-strings" of DBT-2's 51 letters (A-Z, a-y) for S_DIST_xx,
--     OL_DIST_INFO and the states; numbers as the specification draws them.
--   'aged': the spec rules, with the text columns the specification's
--     transactions write, as in a database aged by long runs: H_DATA =
--     W_NAME || 4 spaces || D_NAME (clause 2.5.2.2); OL_DIST_INFO = the
--     stock row's S_DIST_xx for the order's district, the item drawn as
--     New-Order draws it, NURand(8191, 1, 100000) (clauses 2.4.1.5,
--     2.4.2.2); a bad-credit customer's C_DATA prefixed with 0-10 (mean 5)
--     payment records "C_ID C_D_ID C_W_ID D_ID W_ID H_AMOUNT " as tpcc.lua's
--     Payment writes them (clause 2.5.2.2). Every row is aged: an upper
--     bound for a database that ran for hours.
DELIMITER //
DROP FUNCTION IF EXISTS tpcc_words//
CREATE FUNCTION tpcc_words(len INT) RETURNS VARCHAR(600) NO SQL
BEGIN
  DECLARE s VARCHAR(700) DEFAULT '';
  WHILE CHAR_LENGTH(s) < len DO
    SET s = CONCAT(s, ELT(1 + FLOOR(RAND() * 64),
      'the','of','and','to','in','is','was','for','on','with','as','by','at',
      'from','order','stock','item','customer','district','warehouse',
      'payment','delivery','street','city','state','north','south','east',
      'west','main','park','oak','pine','lake','hill','river','market',
      'company','service','account','credit','balance','new','old','first',
      'last','good','great','small','large','blue','green','red','black',
      'white','quality','product','supply','shipping','express','standard',
      'premium','special','general'), ' ');
  END WHILE;
  RETURN LEFT(s, len);
END//
-- DBT-2's a-string: random bytes read as latin1, those outside DBT-2's
-- 127 symbols removed ('c': case-sensitive), cut to a length in [x, y].
-- About half the bytes stay (127 of 256 values): 4y + 32 random bytes
-- fall short of y characters only about 6 standard deviations out.
DROP FUNCTION IF EXISTS tpcc_dbt2_astr//
CREATE FUNCTION tpcc_dbt2_astr(x INT, y INT) RETURNS VARCHAR(600) NO SQL
  RETURN SUBSTR(REGEXP_REPLACE(CONVERT(CONCAT(
           RANDOM_BYTES(LEAST(1024, 4 * y + 32)),
           IF(4 * y + 32 > 1024, RANDOM_BYTES(GREATEST(1, 4 * y + 32 - 1024)), ''))
           USING latin1),
           '[^\\x{21}\\x{23}-\\x{2B}\\x{2D}-\\x{7E}\\x{DC}-\\x{FE}]', '', 1, 0, 'c'),
         1, x + FLOOR(RAND() * (y - x + 1)))//
DROP FUNCTION IF EXISTS tpcc_astr//
CREATE FUNCTION tpcc_astr(x INT, y INT) RETURNS VARCHAR(600) NO SQL
  RETURN CASE @tpcc_data
    WHEN 'words' THEN tpcc_words(x + FLOOR(RAND() * (y - x + 1)))
    WHEN 'dbt2' THEN tpcc_dbt2_astr(x, y)
    ELSE SUBSTR(TO_BASE64(RANDOM_BYTES(y)), 1, x + FLOOR(RAND() * (y - x + 1)))
  END//
-- A string of len letters: DBT-2's l-string (51 letters, A-Z and a-y) for
-- 'dbt2', an a-string otherwise (our spec generator's rule).
DROP FUNCTION IF EXISTS tpcc_lstr//
CREATE FUNCTION tpcc_lstr(len INT) RETURNS VARCHAR(32) NO SQL
  RETURN IF(@tpcc_data = 'dbt2',
            SUBSTR(REGEXP_REPLACE(TO_BASE64(RANDOM_BYTES(45)), '[^A-Za-y]', '', 1, 0, 'c'), 1, len),
            tpcc_astr(len, len))//
-- 'aged': k payment records as tpcc.lua's Payment prefixes them to C_DATA.
DROP FUNCTION IF EXISTS tpcc_payinfo//
CREATE FUNCTION tpcc_payinfo(c INT, d INT, w INT, k INT) RETURNS VARCHAR(700) NO SQL
BEGIN
  DECLARE s VARCHAR(700) DEFAULT '';
  WHILE k > 0 AND CHAR_LENGTH(s) < 500 DO
    SET s = CONCAT(c, ' ', d, ' ', w, ' ', d, ' ', w, ' ',
                   CAST((100 + FLOOR(RAND() * 499901)) / 100 AS DECIMAL(8,2)), ' ', s);
    SET k = k - 1;
  END WHILE;
  RETURN s;
END//
DROP FUNCTION IF EXISTS tpcc_nstr//
CREATE FUNCTION tpcc_nstr(len INT) RETURNS VARCHAR(32) NO SQL
  RETURN LPAD(FLOOR(RAND() * POW(10, LEAST(len, 15))), len, '0')//
DROP FUNCTION IF EXISTS tpcc_original//
CREATE FUNCTION tpcc_original(s VARCHAR(600)) RETURNS VARCHAR(600) NO SQL
  RETURN IF(RAND() < 0.1, INSERT(s, 1 + FLOOR(RAND() * (CHAR_LENGTH(s) - 8)), 8, 'ORIGINAL'), s)//
DROP FUNCTION IF EXISTS tpcc_last//
CREATE FUNCTION tpcc_last(n INT) RETURNS VARCHAR(16) NO SQL
  RETURN CONCAT(ELT(1 + n DIV 100, 'BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'),
                ELT(1 + (n DIV 10) % 10, 'BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'),
                ELT(1 + n % 10, 'BAR','OUGHT','ABLE','PRI','PRES','ESE','ANTI','CALLY','ATION','EING'))//
DROP FUNCTION IF EXISTS tpcc_nurand//
CREATE FUNCTION tpcc_nurand(a INT, x INT, y INT, c INT) RETURNS INT NO SQL
  RETURN (((FLOOR(RAND() * (a + 1)) | (x + FLOOR(RAND() * (y - x + 1)))) + c) % (y - x + 1)) + x//
-- tpcc_load_items(): the numbers 1..100000 in tpcc_seq (a helper table the
-- warehouse loads read) and the item table. Run once, before any warehouse.
DROP PROCEDURE IF EXISTS tpcc_load_items//
CREATE PROCEDURE tpcc_load_items()
BEGIN
  DROP TABLE IF EXISTS tpcc_seq;
  CREATE TABLE tpcc_seq (n INT PRIMARY KEY);
  INSERT INTO tpcc_seq
    SELECT 1 + a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d
    FROM (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
          UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) a,
         (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
          UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) b,
         (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
          UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) c,
         (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
          UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) e,
         (SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
          UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) f;

  INSERT INTO item
    SELECT n, 1 + FLOOR(RAND() * 10000), tpcc_astr(14, 24),
           1 + FLOOR(RAND() * 9900) / 100, tpcc_original(tpcc_astr(26, 50))
    FROM tpcc_seq ORDER BY n;
END//
-- tpcc_load_warehouse(w): warehouse w with its stock, districts, customers,
-- history, orders, order lines and new orders. Sessions may load different
-- warehouses at the same time (bench/tpcc/tpcc.lua prepare does).
DROP PROCEDURE IF EXISTS tpcc_load_warehouse//
CREATE PROCEDURE tpcc_load_warehouse(w INT)
BEGIN
    INSERT INTO warehouse VALUES (w, tpcc_astr(6, 10), tpcc_astr(10, 20),
      tpcc_astr(10, 20), tpcc_astr(10, 20), tpcc_lstr(2),
      CONCAT(tpcc_nstr(4), '11111'), FLOOR(RAND() * 2000) / 10000, 300000);
    INSERT INTO stock
      SELECT n, w, 10 + FLOOR(RAND() * 91), tpcc_lstr(24), tpcc_lstr(24),
             tpcc_lstr(24), tpcc_lstr(24), tpcc_lstr(24),
             tpcc_lstr(24), tpcc_lstr(24), tpcc_lstr(24),
             tpcc_lstr(24), tpcc_lstr(24), 0, 0, 0,
             tpcc_original(tpcc_astr(26, 50))
      FROM tpcc_seq ORDER BY n;
    INSERT INTO district
      SELECT n, w, tpcc_astr(6, 10), tpcc_astr(10, 20), tpcc_astr(10, 20),
             tpcc_astr(10, 20), tpcc_lstr(2), CONCAT(tpcc_nstr(4), '11111'),
             FLOOR(RAND() * 2000) / 10000, 30000, 3001
      FROM tpcc_seq WHERE n <= 10 ORDER BY n;
    -- The credit is drawn once per row in a materialized derived table,
    -- so that 'aged' can prefix payments to the C_DATA of exactly the
    -- bad-credit customers.
    INSERT INTO customer
      SELECT /*+ NO_MERGE(x) */ x.c, x.d, w, tpcc_astr(8, 16), 'OE',
             tpcc_last(IF(x.c <= 1000, x.c - 1, tpcc_nurand(255, 0, 999, 123))),
             tpcc_astr(10, 20), tpcc_astr(10, 20), tpcc_astr(10, 20),
             tpcc_lstr(2), CONCAT(tpcc_nstr(4), '11111'), tpcc_nstr(16),
             NOW(), x.credit, 50000,
             FLOOR(RAND() * 5001) / 10000, -10, 10, 1, 0,
             IF(@tpcc_data = 'aged' AND x.credit = 'BC',
                LEFT(CONCAT(tpcc_payinfo(x.c, x.d, w, FLOOR(RAND() * 11)),
                            tpcc_astr(300, 500)), 500),
                tpcc_astr(300, 500))
      FROM (SELECT c.n c, d.n d, IF(RAND() < 0.1, 'BC', 'GC') credit
            FROM tpcc_seq d, tpcc_seq c WHERE d.n <= 10 AND c.n <= 3000) x
      ORDER BY x.d, x.c;
    INSERT INTO history
      SELECT c.n, d.n, w, d.n, w, NOW(), 10,
             IF(@tpcc_data = 'aged', CONCAT(wh.w_name, '    ', di.d_name),
                tpcc_astr(12, 24))
      FROM tpcc_seq d JOIN district di ON di.d_w_id = w AND di.d_id = d.n
           JOIN warehouse wh ON wh.w_id = w, tpcc_seq c
      WHERE d.n <= 10 AND c.n <= 3000
      ORDER BY d.n, c.n;
    -- o_c_id: a permutation of 1..3000 per district (multiplication by a
    -- number prime to 3000); the specification asks for a random one, which
    -- makes no difference to the space the rows take.
    INSERT INTO orders
      SELECT c.n, d.n, w, 1 + (c.n * 1237 + d.n * 101) % 3000, NOW(),
             IF(c.n < 2101, 1 + FLOOR(RAND() * 10), NULL),
             5 + FLOOR(RAND() * 11), 1
      FROM tpcc_seq d, tpcc_seq c WHERE d.n <= 10 AND c.n <= 3000
      ORDER BY d.n, c.n;
    IF @tpcc_data = 'aged' THEN
      -- The item drawn once per row in a materialized derived table, then
      -- its stock row's S_DIST_xx for the order's district.
      INSERT INTO order_line
        SELECT /*+ NO_MERGE(x) */ x.o_id, x.d, w, x.n, x.i, w, x.dd, 5,
               x.amt, ELT(x.d, s.s_dist_01, s.s_dist_02, s.s_dist_03,
                          s.s_dist_04, s.s_dist_05, s.s_dist_06, s.s_dist_07,
                          s.s_dist_08, s.s_dist_09, s.s_dist_10)
        FROM (SELECT o.o_id, o.o_d_id d, l.n,
                     tpcc_nurand(8191, 1, 100000, 5987) i,
                     IF(o.o_id < 2101, o.o_entry_d, NULL) dd,
                     IF(o.o_id < 2101, 0, (1 + FLOOR(RAND() * 999999)) / 100) amt
              FROM orders o JOIN tpcc_seq l ON l.n <= o.o_ol_cnt
              WHERE o.o_w_id = w) x
        JOIN stock s ON s.s_w_id = w AND s.s_i_id = x.i
        ORDER BY x.d, x.o_id, x.n;
    ELSE
      INSERT INTO order_line
        SELECT o.o_id, o.o_d_id, w, l.n, 1 + FLOOR(RAND() * 100000), w,
               IF(o.o_id < 2101, o.o_entry_d, NULL), 5,
               IF(o.o_id < 2101, 0, (1 + FLOOR(RAND() * 999999)) / 100),
               tpcc_lstr(24)
        FROM orders o, tpcc_seq l
        WHERE o.o_w_id = w AND l.n <= o.o_ol_cnt
        ORDER BY o.o_d_id, o.o_id, l.n;
    END IF;
    INSERT INTO new_orders
      SELECT o_id, o_d_id, w FROM orders
      WHERE o_w_id = w AND o_id >= 2101 ORDER BY o_d_id, o_id;
END//
-- tpcc_load(n): the whole database of n warehouses in this session.
DROP PROCEDURE IF EXISTS tpcc_load//
CREATE PROCEDURE tpcc_load(n_wh INT)
BEGIN
  DECLARE w INT DEFAULT 1;
  CALL tpcc_load_items();
  WHILE w <= n_wh DO
    CALL tpcc_load_warehouse(w);
    SET w = w + 1;
  END WHILE;
  DROP TABLE tpcc_seq;
END//
DELIMITER ;
