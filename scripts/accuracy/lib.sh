# Helpers of the measurement scripts (scripts/accuracy/run.sh,
# bench/bulk-load.sh, bench/bulk-write.sh), sourced after scripts/common.sh.
# They talk to the server of scripts/server.sh (COMPRESS_SERVER_DIR).
sql() { bash "$COMPRESS_ROOT/scripts/server.sh" client -N -B "$@"; }
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }
# used_pages DB TABLE: pages in use by the table's B-trees (USED_PAGES of a
# one-page COMPRESSION_STATS_ESTIMATE(); the plugin must be installed).
used_pages() {
  sql -e "SELECT COMPRESSION_STATS_ESTIMATE('$1', '$2', 1)" >/dev/null
  sql -e "SELECT MAX(USED_PAGES) FROM information_schema.COMPRESSION_ESTIMATES
          WHERE TABLE_SCHEMA='$1' AND TABLE_NAME='$2'"
}
# load_set SET DB: load a data set into schema DB (dropped first).
#   spec    TPC-C-like, specification-conformant random a-strings ($W
#           warehouses)
#   words   the same schema and rules, a-strings of English words
#           (@tpcc_data = 'words'): compresses well
#   dbt2    DBT-2's schema and generator (@tpcc_data = 'dbt2')
#   text    40,812 paragraphs of English prose (text_corpus.py)
#   docs    the same prose as documents of 8 to 64 KB (text_corpus.py
#           --docs): columns stored off-page
#   random  25,000 rows of 200 random bytes (RANDOM_BYTES): nothing to save
#   small   300,000 small records (id, a = id mod 7, KEY (a)): hundreds of
#           records per page, where at 1-2 KB a failed compression often
#           stops before it can measure (issue 28's case)
load_set() {
  local acc="$COMPRESS_ROOT/scripts/accuracy"
  log "loading data set $1 into schema $2" >&2
  sql -e "DROP DATABASE IF EXISTS $2; CREATE DATABASE $2"
  case "$1" in
    spec|words)
      sql "$2" < "$acc/tpcc_schema.sql"
      sql "$2" < "$acc/tpcc_load.sql"
      sql "$2" -e "SET @tpcc_data = '$1'; CALL tpcc_load(${W:-1}); DROP TABLE IF EXISTS tpcc_seq" ;;
    dbt2)
      sql "$2" < "$acc/tpcc_schema_dbt2.sql"
      sql "$2" < "$acc/tpcc_load.sql"
      sql "$2" -e "SET @tpcc_data = 'dbt2'; CALL tpcc_load(${W:-1}); DROP TABLE IF EXISTS tpcc_seq" ;;
    text)
      sql "$2" -e "CREATE TABLE text_doc (id INT AUTO_INCREMENT PRIMARY KEY,
        source VARCHAR(64) NOT NULL, body TEXT NOT NULL, KEY (source))"
      python3 "$acc/text_corpus.py" "$SRC_DIR" | sql "$2" ;;
    docs)
      sql "$2" -e "CREATE TABLE text_blob (id INT AUTO_INCREMENT PRIMARY KEY,
        title VARCHAR(64) NOT NULL, body MEDIUMTEXT NOT NULL)"
      python3 "$acc/text_corpus.py" --docs "$SRC_DIR" | sql "$2" ;;
    random)
      sql "$2" -e "SET SESSION cte_max_recursion_depth = 100000;
        CREATE TABLE random_bytes (id INT PRIMARY KEY, n INT NOT NULL,
                                   b VARBINARY(255) NOT NULL);
        INSERT INTO random_bytes WITH RECURSIVE s(i) AS
          (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 25000)
          SELECT i, i, RANDOM_BYTES(200) FROM s" ;;
    small)
      sql "$2" -e "SET SESSION cte_max_recursion_depth = 300000;
        CREATE TABLE small_rows (id INT PRIMARY KEY, a INT, KEY (a));
        INSERT INTO small_rows WITH RECURSIVE s(i) AS
          (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 300000)
          SELECT i, i % 7 FROM s" ;;
    *) die "unknown data set $1" ;;
  esac
}

# acc_setup: what the accuracy scripts share: the output directory
# ($COMPRESS_ACCURACY_OUT, default $COMPRESS_CACHE_DIR/accuracy, in OUT),
# the size floor (COMPRESS_ACCURACY_MIN_MB, default 1 MB, in MIN_PAGES), the
# local server started and the plugin installed.
acc_setup() {
  OUT="${COMPRESS_ACCURACY_OUT:-$COMPRESS_CACHE_DIR/accuracy}"
  MIN_PAGES=$(( ${COMPRESS_ACCURACY_MIN_MB:-1} * 64 ))
  mkdir -p "$OUT"
  bash "$COMPRESS_ROOT/scripts/server.sh" start >&2
  sql -e "INSTALL PLUGIN compression_stats SONAME 'compression_stats.so'" 2>/dev/null || true
}
