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
DROP FUNCTION IF EXISTS tpcc_astr//
CREATE FUNCTION tpcc_astr(x INT, y INT) RETURNS VARCHAR(600) NO SQL
  RETURN IF(@tpcc_data = 'words', tpcc_words(x + FLOOR(RAND() * (y - x + 1))),
            SUBSTR(TO_BASE64(RANDOM_BYTES(y)), 1, x + FLOOR(RAND() * (y - x + 1))))//
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
      tpcc_astr(10, 20), tpcc_astr(10, 20), tpcc_astr(2, 2),
      CONCAT(tpcc_nstr(4), '11111'), FLOOR(RAND() * 2000) / 10000, 300000);
    INSERT INTO stock
      SELECT n, w, 10 + FLOOR(RAND() * 91), tpcc_astr(24, 24), tpcc_astr(24, 24),
             tpcc_astr(24, 24), tpcc_astr(24, 24), tpcc_astr(24, 24),
             tpcc_astr(24, 24), tpcc_astr(24, 24), tpcc_astr(24, 24),
             tpcc_astr(24, 24), tpcc_astr(24, 24), 0, 0, 0,
             tpcc_original(tpcc_astr(26, 50))
      FROM tpcc_seq ORDER BY n;
    INSERT INTO district
      SELECT n, w, tpcc_astr(6, 10), tpcc_astr(10, 20), tpcc_astr(10, 20),
             tpcc_astr(10, 20), tpcc_astr(2, 2), CONCAT(tpcc_nstr(4), '11111'),
             FLOOR(RAND() * 2000) / 10000, 30000, 3001
      FROM tpcc_seq WHERE n <= 10 ORDER BY n;
    INSERT INTO customer
      SELECT c.n, d.n, w, tpcc_astr(8, 16), 'OE',
             tpcc_last(IF(c.n <= 1000, c.n - 1, tpcc_nurand(255, 0, 999, 123))),
             tpcc_astr(10, 20), tpcc_astr(10, 20), tpcc_astr(10, 20),
             tpcc_astr(2, 2), CONCAT(tpcc_nstr(4), '11111'), tpcc_nstr(16),
             NOW(), IF(RAND() < 0.1, 'BC', 'GC'), 50000,
             FLOOR(RAND() * 5001) / 10000, -10, 10, 1, 0, tpcc_astr(300, 500)
      FROM tpcc_seq d, tpcc_seq c WHERE d.n <= 10 AND c.n <= 3000
      ORDER BY d.n, c.n;
    INSERT INTO history
      SELECT c.n, d.n, w, d.n, w, NOW(), 10, tpcc_astr(12, 24)
      FROM tpcc_seq d, tpcc_seq c WHERE d.n <= 10 AND c.n <= 3000
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
    INSERT INTO order_line
      SELECT o.o_id, o.o_d_id, w, l.n, 1 + FLOOR(RAND() * 100000), w,
             IF(o.o_id < 2101, o.o_entry_d, NULL), 5,
             IF(o.o_id < 2101, 0, (1 + FLOOR(RAND() * 999999)) / 100),
             tpcc_astr(24, 24)
      FROM orders o, tpcc_seq l
      WHERE o.o_w_id = w AND l.n <= o.o_ol_cnt
      ORDER BY o.o_d_id, o.o_id, l.n;
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
