-- The TPC-C-like schema as DBT-2 creates it for MySQL (dbt2-0.37.50,
-- scripts/mysql_load_db.sh, the kit Lee et al. 2015 most likely ran; see
-- docs/notes/issue12-generators.md): INT(11) for every id, DOUBLE for
-- quantities, counters, prices, taxes and discounts, DECIMAL(24,12) for
-- money, TIMESTAMP dates, VARCHAR text, CHARACTER SET latin1, DBT-2's keys
-- (history keyed by an auto-increment h_id; an extra stock index).
-- Used by tpcc.lua prepare --data=dbt2. Differences from DBT-2, so that
-- the same workload and loader run on both schemas: our table name
-- new_orders (DBT-2: new_order) and its index of Lee (2015) on
-- (no_w_id, no_d_id); history's h_id is INVISIBLE, so the loader's
-- positional INSERTs skip it as DBT-2's LOAD DATA column list does; our
-- tpcc-mysql index on stock (s_i_id) is not there (DBT-2 has none).
CREATE TABLE warehouse (
  w_id int(11) NOT NULL default '0', w_name varchar(10) default NULL,
  w_street_1 varchar(20) default NULL, w_street_2 varchar(20) default NULL,
  w_city varchar(20) default NULL, w_state char(2) default NULL,
  w_zip varchar(9) default NULL, w_tax double default NULL,
  w_ytd decimal(24,12) default NULL, PRIMARY KEY (w_id)) CHARACTER SET latin1;
CREATE TABLE district (
  d_id int(11) NOT NULL default '0', d_w_id int(11) NOT NULL default '0',
  d_name varchar(10) default NULL, d_street_1 varchar(20) default NULL,
  d_street_2 varchar(20) default NULL, d_city varchar(20) default NULL,
  d_state char(2) default NULL, d_zip varchar(9) default NULL,
  d_tax double default NULL, d_ytd decimal(24,12) default NULL,
  d_next_o_id int(11) default NULL, PRIMARY KEY (d_w_id, d_id)) CHARACTER SET latin1;
CREATE TABLE customer (
  c_id int(11) NOT NULL default '0', c_d_id int(11) NOT NULL default '0',
  c_w_id int(11) NOT NULL default '0', c_first varchar(16) default NULL,
  c_middle char(2) default NULL, c_last varchar(16) default NULL,
  c_street_1 varchar(20) default NULL, c_street_2 varchar(20) default NULL,
  c_city varchar(20) default NULL, c_state char(2) default NULL,
  c_zip varchar(9) default NULL, c_phone varchar(16) default NULL,
  c_since timestamp NOT NULL, c_credit char(2) default NULL,
  c_credit_lim decimal(24,12) default NULL, c_discount double default NULL,
  c_balance decimal(24,12) default NULL,
  c_ytd_payment decimal(24,12) default NULL,
  c_payment_cnt double default NULL, c_delivery_cnt double default NULL,
  c_data varchar(500), PRIMARY KEY (c_w_id, c_d_id, c_id),
  KEY idx_customer (c_w_id, c_d_id, c_last, c_first)) CHARACTER SET latin1;
CREATE TABLE history (
  h_id bigint(20) NOT NULL AUTO_INCREMENT INVISIBLE,
  h_c_id int(11) default NULL, h_c_d_id int(11) default NULL,
  h_c_w_id int(11) default NULL, h_d_id int(11) default NULL,
  h_w_id int(11) NOT NULL default '0', h_date timestamp NOT NULL,
  h_amount double default NULL, h_data varchar(24) default NULL,
  PRIMARY KEY (h_id, h_w_id)) CHARACTER SET latin1;
CREATE TABLE new_orders (
  no_o_id int(11) NOT NULL default '0', no_d_id int(11) NOT NULL default '0',
  no_w_id int(11) NOT NULL default '0', PRIMARY KEY (no_w_id, no_d_id, no_o_id),
  KEY idx_new_orders (no_w_id, no_d_id)) CHARACTER SET latin1;
CREATE TABLE orders (
  o_id int(11) NOT NULL default '0', o_d_id int(11) NOT NULL default '0',
  o_w_id int(11) NOT NULL default '0', o_c_id int(11) default NULL,
  o_entry_d timestamp NOT NULL, o_carrier_id int(11) default NULL,
  o_ol_cnt int(11) default NULL, o_all_local double default NULL,
  PRIMARY KEY (o_w_id, o_d_id, o_id),
  KEY idx_orders (o_w_id, o_d_id, o_c_id, o_id)) CHARACTER SET latin1;
CREATE TABLE order_line (
  ol_o_id int(11) NOT NULL default '0', ol_d_id int(11) NOT NULL default '0',
  ol_w_id int(11) NOT NULL default '0', ol_number int(11) NOT NULL default '0',
  ol_i_id int(11) default NULL, ol_supply_w_id int(11) default NULL,
  ol_delivery_d timestamp NULL default NULL, ol_quantity double default NULL,
  ol_amount double default NULL, ol_dist_info varchar(24) default NULL,
  PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)) CHARACTER SET latin1;
CREATE TABLE item (
  i_id int(11) NOT NULL default '0', i_im_id int(11) default NULL,
  i_name varchar(24) default NULL, i_price double default NULL,
  i_data varchar(50) default NULL, PRIMARY KEY (i_id)) CHARACTER SET latin1;
CREATE TABLE stock (
  s_i_id int(11) NOT NULL default '0', s_w_id int(11) NOT NULL default '0',
  s_quantity double NOT NULL default '0',
  s_dist_01 varchar(24) default NULL, s_dist_02 varchar(24) default NULL,
  s_dist_03 varchar(24) default NULL, s_dist_04 varchar(24) default NULL,
  s_dist_05 varchar(24) default NULL, s_dist_06 varchar(24) default NULL,
  s_dist_07 varchar(24) default NULL, s_dist_08 varchar(24) default NULL,
  s_dist_09 varchar(24) default NULL, s_dist_10 varchar(24) default NULL,
  s_ytd decimal(16,8) default NULL, s_order_cnt double default NULL,
  s_remote_cnt double default NULL, s_data varchar(50) default NULL,
  PRIMARY KEY (s_w_id, s_i_id),
  KEY idx_stock_q (s_w_id, s_i_id, s_quantity)) CHARACTER SET latin1;
