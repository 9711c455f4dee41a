/* Copyright (c) 2026, the mysql-compress authors.

   This program is free software; you can redistribute it and/or modify it under
   the terms of the GNU General Public License, version 2.0, as published by the
   Free Software Foundation.

   This program is designed to work with certain software (including but not
   limited to OpenSSL) that is licensed under separate terms, as designated in a
   particular file or component or in included license documentation. The
   authors of this program hereby grant you an additional permission to link the
   program and your derivative works with the separately licensed software that
   they have either included with the program or referenced in the
   documentation.

   This program is distributed in the hope that it will be useful, but WITHOUT
   ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
   FOR A PARTICULAR PURPOSE. See the GNU General Public License, version 2.0,
   for more details.

   You should have received a copy of the GNU General Public License along with
   this program; if not, write to the Free Software Foundation, Inc.,
   51 Franklin St, Fifth Floor, Boston, MA 02110-1301  USA */

/**
  @file plugin/compression_stats/cs_table.cc
  INFORMATION_SCHEMA.COMPRESSION_STATS.

  Tables are enumerated from the data dictionary (the server's view), the
  visibility rule is the one of INFORMATION_SCHEMA.TABLES (CAN_ACCESS_TABLE:
  any table privilege, or any database privilege), and the engine facts come
  from InnoDB through the innodb_compression_stats service. Estimates
  (the SELECTIVE columns) need more: see may_see_estimates().
*/

#include "plugin/compression_stats/cs_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "my_inttypes.h"
#include "mysql/strings/m_ctype.h"
#include "plugin/compression_stats/cs_engine.h"
#include "plugin/compression_stats/cs_estimates.h"
#include "sql/auth/auth_acls.h"
#include "sql/auth/auth_common.h"
#include "sql/dd/cache/dictionary_client.h"
#include "sql/dd/properties.h"
#include "sql/dd/types/partition.h"
#include "sql/dd/types/schema.h"
#include "sql/dd/types/table.h"
#include "sql/derror.h"
#include "sql/item.h"
#include "sql/item_cmpfunc.h"
#include "sql/mdl.h"
#include "sql/error_handler.h"
#include "sql/field.h"
#include "sql/mysqld.h"
#include "sql/mysqld_cs.h"
#include "sql/sql_class.h"
#include "sql/sql_show.h"
#include "sql/table.h"

namespace compression_stats {

namespace {

/** Column positions. */
enum cs_column {
  COL_TABLE_SCHEMA = 0,
  COL_TABLE_NAME,
  COL_PARTITION_NAME,
  COL_SUBPARTITION_NAME,
  COL_TABLE_ID,
  COL_ROW_FORMAT,
  COL_KEY_BLOCK_SIZE,
  COL_LOGICAL_PAGE_SIZE,
  COL_PHYSICAL_PAGE_SIZE,
  COL_ALLOCATED_PAGES,
  COL_PHYSICAL_BYTES,
  COL_ALLOCATED_PAGES_SOURCE,
  COL_EXPECTED_SPACE_SAVINGS,
  COL_COMPRESS_OPS,
  COL_COMPRESS_OPS_OK,
  COL_COMPRESS_USECS,
  COL_UNCOMPRESS_OPS,
  COL_UNCOMPRESS_USECS,
  COL_COMPRESS_OPS_PRIMARY,
  COL_COMPRESS_OPS_OK_PRIMARY,
  COL_COMPRESS_USECS_PRIMARY,
  COL_UNCOMPRESS_OPS_PRIMARY,
  COL_UNCOMPRESS_USECS_PRIMARY,
  COL_ZIP_SPLITS,
  COL_ZIP_REORGS,
  COL_ZIP_REORGS_LOG_FULL,
  COL_ZIP_REORGS_COMPRESS_FAILED,
  COL_ZIP_REORG_USECS_LOG_FULL,
  COL_ZIP_UPDATES,
  COL_UPDATES_PER_LOG_REORG,
  COL_COMPRESS_FAILURE_PCT,
  COL_COMPRESS_PADDING,
  COL_EFFECTIVE_COMPRESSION_LEVEL,
  COL_EFFECTIVE_COMPRESSION_CODEC,
  COL_EFFECTIVE_FAILURE_THRESHOLD_PCT,
  COL_EFFECTIVE_PAD_PCT_MAX,
  COL_COMPRESS_LOG_RESERVE,
  COL_EFFECTIVE_LOG_REORG_THRESHOLD_PCT,
  COL_EFFECTIVE_LOG_RESERVE_PCT_MAX,
  COL_AVG_RECORD_SIZE,
  COL_AVG_RECORD_SIZE_SAMPLED_AT,
  COL_PADDING_HINT,
  COL_PADDING_COLUMN_BYTES,
  COL_SUGGESTED_KEY_BLOCK_SIZE,
  COL_SUGGESTED_BULK_FREE_PCT,
  COL_TARGET_KEY_BLOCK_SIZE,
  COL_SPACE_SAVINGS,
  COL_INSERTED_SPACE_SAVINGS,
  COL_CURRENT_SIZE_SAVINGS,
  COL_SPACE_SAVINGS_SOURCE,
  COL_SPACE_SAVINGS_COMPUTED_AT,
  COL_CLOSENESS,
  COL_SELECTIVE_VERDICT,
  COL_PAGE_COMPRESSION,
  COL_PAGE_ZLIB_SPACE_SAVINGS,
  COL_PAGE_LZ4_SPACE_SAVINGS,
};


}  // namespace

ST_FIELD_INFO table_fields[] = {
    CS_STR("TABLE_SCHEMA", NAME_CHAR_LEN, 0),
    CS_STR("TABLE_NAME", NAME_CHAR_LEN, 0),
    CS_STR("PARTITION_NAME", NAME_CHAR_LEN, MY_I_S_MAYBE_NULL),
    CS_STR("SUBPARTITION_NAME", NAME_CHAR_LEN, MY_I_S_MAYBE_NULL),
    CS_U64("TABLE_ID", 0),
    CS_STR("ROW_FORMAT", 10, 0),
    CS_U64("KEY_BLOCK_SIZE", 0),
    CS_U64("LOGICAL_PAGE_SIZE", 0),
    CS_U64("PHYSICAL_PAGE_SIZE", 0),
    CS_U64("ALLOCATED_PAGES", MY_I_S_MAYBE_NULL),
    CS_U64("PHYSICAL_BYTES", MY_I_S_MAYBE_NULL),
    CS_STR("ALLOCATED_PAGES_SOURCE", 10, MY_I_S_MAYBE_NULL),
    CS_DOUBLE("EXPECTED_SPACE_SAVINGS"),
    CS_U64("COMPRESS_OPS", MY_I_S_MAYBE_NULL),
    CS_U64("COMPRESS_OPS_OK", MY_I_S_MAYBE_NULL),
    CS_U64("COMPRESS_USECS", MY_I_S_MAYBE_NULL),
    CS_U64("UNCOMPRESS_OPS", MY_I_S_MAYBE_NULL),
    CS_U64("UNCOMPRESS_USECS", MY_I_S_MAYBE_NULL),
    CS_U64("COMPRESS_OPS_PRIMARY", MY_I_S_MAYBE_NULL),
    CS_U64("COMPRESS_OPS_OK_PRIMARY", MY_I_S_MAYBE_NULL),
    CS_U64("COMPRESS_USECS_PRIMARY", MY_I_S_MAYBE_NULL),
    CS_U64("UNCOMPRESS_OPS_PRIMARY", MY_I_S_MAYBE_NULL),
    CS_U64("UNCOMPRESS_USECS_PRIMARY", MY_I_S_MAYBE_NULL),
    CS_U64("ZIP_SPLITS", MY_I_S_MAYBE_NULL),
    CS_U64("ZIP_REORGS", MY_I_S_MAYBE_NULL),
    CS_U64("ZIP_REORGS_LOG_FULL", MY_I_S_MAYBE_NULL),
    CS_U64("ZIP_REORGS_COMPRESS_FAILED", MY_I_S_MAYBE_NULL),
    CS_U64("ZIP_REORG_USECS_LOG_FULL", MY_I_S_MAYBE_NULL),
    CS_U64("ZIP_UPDATES", MY_I_S_MAYBE_NULL),
    CS_DOUBLE("UPDATES_PER_LOG_REORG"),
    CS_DOUBLE("COMPRESS_FAILURE_PCT"),
    CS_U64("COMPRESS_PADDING", MY_I_S_MAYBE_NULL),
    CS_U64("EFFECTIVE_COMPRESSION_LEVEL", MY_I_S_MAYBE_NULL),
    CS_STR("EFFECTIVE_COMPRESSION_CODEC", 8, MY_I_S_MAYBE_NULL),
    CS_U64("EFFECTIVE_FAILURE_THRESHOLD_PCT", MY_I_S_MAYBE_NULL),
    CS_U64("EFFECTIVE_PAD_PCT_MAX", MY_I_S_MAYBE_NULL),
    CS_U64("COMPRESS_LOG_RESERVE", MY_I_S_MAYBE_NULL),
    CS_U64("EFFECTIVE_LOG_REORG_THRESHOLD_PCT", MY_I_S_MAYBE_NULL),
    CS_U64("EFFECTIVE_LOG_RESERVE_PCT_MAX", MY_I_S_MAYBE_NULL),
    CS_U64("AVG_RECORD_SIZE", MY_I_S_MAYBE_NULL),
    {"AVG_RECORD_SIZE_SAMPLED_AT", 0, MYSQL_TYPE_DATETIME, 0,
     MY_I_S_MAYBE_NULL, "", 0},
    CS_STR("PADDING_HINT", 32, MY_I_S_MAYBE_NULL),
    CS_U64("PADDING_COLUMN_BYTES", MY_I_S_MAYBE_NULL),
    CS_U64("SUGGESTED_KEY_BLOCK_SIZE", MY_I_S_MAYBE_NULL),
    CS_U64("SUGGESTED_BULK_FREE_PCT", MY_I_S_MAYBE_NULL),
    CS_U64("TARGET_KEY_BLOCK_SIZE", MY_I_S_MAYBE_NULL),
    CS_DOUBLE("SPACE_SAVINGS"),
    CS_DOUBLE("INSERTED_SPACE_SAVINGS"),
    CS_DOUBLE("CURRENT_SIZE_SAVINGS"),
    CS_STR("SPACE_SAVINGS_SOURCE", 10, MY_I_S_MAYBE_NULL),
    {"SPACE_SAVINGS_COMPUTED_AT", 0, MYSQL_TYPE_DATETIME, 0,
     MY_I_S_MAYBE_NULL, "", 0},
    CS_DOUBLE("CLOSENESS"),
    CS_STR("SELECTIVE_VERDICT", 32, 0),
    CS_STR("PAGE_COMPRESSION", 4, 0),
    CS_DOUBLE("PAGE_ZLIB_SPACE_SAVINGS"),
    CS_DOUBLE("PAGE_LZ4_SPACE_SAVINGS"),
    {nullptr, 0, MYSQL_TYPE_NULL, 0, 0, nullptr, 0}};

void store_string(Field *f, const char *s) {
  if (s == nullptr) {
    f->set_null();
    return;
  }
  f->set_notnull();
  f->store(s, strlen(s), system_charset_info);
}

void store_number(Field *f, uint64_t v) {
  f->set_notnull();
  f->store(static_cast<longlong>(v), true);
}

void store_dbl(Field *f, bool is_null, double v) {
  if (is_null) {
    f->set_null();
    return;
  }
  f->set_notnull();
  f->store(v);
}

namespace {

/** Whether the user holds privileges on a table.
@param thd          the session
@param db           schema name
@param tbl          table name
@param want         the privileges
@param any          true: any one of want, also on a column only (the rule
                    of CAN_ACCESS_TABLE); false: all of want on the table
                    itself (global, schema or table grant), column grants do
                    not count
@return whether it does */
bool has_table_access(THD *thd, const char *db, const char *tbl,
                      Access_bitmask want, bool any) {
  char db_buf[NAME_LEN + 1];
  char tbl_buf[NAME_LEN + 1];
  snprintf(db_buf, sizeof(db_buf), "%s", db);
  snprintf(tbl_buf, sizeof(tbl_buf), "%s", tbl);
  if (lower_case_table_names == 2) {
    my_casedn_str(files_charset_info, db_buf);
    my_casedn_str(files_charset_info, tbl_buf);
  }
  Access_bitmask db_access = 0;
  if (check_access(thd, SELECT_ACL, db_buf, &db_access, nullptr, false,
                   true)) {
    return false;
  }
  if (any ? (db_access & want) != 0 : (db_access & want) == want) {
    return true;
  }
  Table_ref tl;
  tl.db = db_buf;
  tl.db_length = strlen(db_buf);
  tl.table_name = tbl_buf;
  tl.table_name_length = strlen(tbl_buf);
  tl.grant.privilege = db_access;
  if (check_grant(thd, want, &tl, any, 1, true)) {
    return false;
  }
  /* check_grant() also passes when only some columns are granted, leaving
  the checks of the columns to later: what the table grants is in
  grant.privilege. */
  return any || (tl.grant.privilege & want) == want;
}

/** Whether the user may see a table: the rule of CAN_ACCESS_TABLE
(sql/item_func.cc), which INFORMATION_SCHEMA.TABLES applies. */
bool can_access_table(THD *thd, const char *db, const char *tbl) {
  return has_table_access(thd, db, tbl, TABLE_OP_ACLS, true);
}

}  // namespace

bool may_see_estimates(THD *thd, const char *db, const char *tbl) {
  return thd->security_context()->check_access(PROCESS_ACL) ||
         has_table_access(thd, db, tbl, SELECT_ACL, false);
}

namespace {

void store_str(Field *f, const char *s) { store_string(f, s); }

void store_u64(Field *f, uint64_t v) { store_number(f, v); }

void store_double(Field *f, bool is_null, double v) { store_dbl(f, is_null, v); }

const char *row_format_name(dd::Table::enum_row_format rf) {
  switch (rf) {
    case dd::Table::RF_FIXED:
      return "Fixed";
    case dd::Table::RF_DYNAMIC:
      return "Dynamic";
    case dd::Table::RF_COMPRESSED:
      return "Compressed";
    case dd::Table::RF_REDUNDANT:
      return "Redundant";
    case dd::Table::RF_COMPACT:
      return "Compact";
    case dd::Table::RF_PAGED:
      return "Paged";
  }
  return "";
}

/** Downgrades the errors InnoDB may raise while opening one table
(a corrupted table, a metadata lock timeout, a missing tablespace) to
warnings, so that one bad table does not fail the whole SELECT: its row is
left out and the warning says why. */
class Downgrade_errors : public Internal_error_handler {
 public:
  bool handle_condition(THD *, uint, const char *,
                        Sql_condition::enum_severity_level *level,
                        const char *) override {
    if (*level == Sql_condition::SL_ERROR) {
      *level = Sql_condition::SL_WARNING;
    }
    return false;
  }
};

/** Whether InnoDB filled a field of the statistics (older servers fill
less). */
#define CS_HAS(s, field) \
  ((s).size >= offsetof(innodb_zip_table_stats_t, field) + sizeof((s).field))

/** Store a number, or NULL. */
void store_u64_or_null(Field *f, bool is_null, uint64_t v) {
  if (is_null) {
    f->set_null();
  } else {
    store_u64(f, v);
  }
}

/** Failed compressions, from the attempts and the successes.

InnoDB counts an attempt (COMPRESS_OPS) and then its success
(COMPRESS_OPS_OK) in separate atomics, which are read one by one while
compressions go on: an engine that reads the attempts before the
successes, or a reset racing a compression, can hand over a success whose
attempt it missed, so successes can exceed attempts. Subtracting would wrap
around to about 1.8e19 (1.8e21 %) and flip the padding hint; such a read
counts as no failure, so failures are never negative and their rate never
above 100 %. Every failure count or rate of this plugin comes from here.
@param ops  compressions attempted
@param ok   compressions that fitted
@return failed compressions */
uint64_t compress_failures(uint64_t ops, uint64_t ok) {
  return ok >= ops ? 0 : ops - ok;
}

/** The part of the padding hint about the modification log (README.md,
"Padding hint"): when the clustered index recompresses its pages because
the log is full more often than allowed, and more often than compressions
fail, the cure is room for the log, not padding.
Allowed: innodb_compression_log_reorg_threshold_pct in effect, or the
failure threshold while the reserve is off. Needs a round of updates.
@param[in]   s    statistics of the table
@param[out]  kbs  SUGGESTED_KEY_BLOCK_SIZE in KB, or unchanged
@return the hint, or nullptr if the log is not the table's cost */
const char *log_hint(const innodb_zip_table_stats_t &s, uint64_t *kbs,
                     uint64_t *free_pct) {
  if (!CS_HAS(s, log_reserve_step)) {
    return nullptr;
  }
  const innodb_zip_reorg_counters_t &r = s.primary_reorg;
  const uint64_t t = s.effective_log_reorg_threshold_pct > 0
                         ? s.effective_log_reorg_threshold_pct
                         : s.effective_failure_threshold_pct;
  const uint64_t failures =
      compress_failures(s.primary.compress_ops, s.primary.compress_ops_ok);
  if (r.updates < s.zip_pad_round_len || t == 0 ||
      100 * r.log_update <= t * r.updates || r.log_update <= failures) {
    return nullptr;
  }
  /* Do inserts fill the pages? The reserve keeps room only in pages that
  inserts fill: inserts that found the log full (recompressions on insert)
  and page splits (new pages) show them. Fewer than one of either per 100
  log-full recompressions on update: the recompressed pages are the ones a
  load filled, which only free space given at a rebuild can reach. */
  if (100 * (r.log_insert + s.primary.zip_splits) < r.log_update &&
      s.primary_avg_record_size != 0 && s.physical_page_size != 0) {
    /* Room for the updates a page takes between two recompressions to
    grow from U0 (measured: updates / log-full recompressions) to U1 =
    100 / T1, each update logging about a record: F = (U1 - U0) * R bytes,
    in percent of the compressed page. T1 is the log threshold in effect,
    or 25 (one recompression per 4 updates) without one: where BENCHMARKS
    2d measured the gain of free space on TPC-C's stock and customer. */
    const double t1 = s.effective_log_reorg_threshold_pct > 0
                          ? s.effective_log_reorg_threshold_pct
                          : 25.0;
    const double u0 = static_cast<double>(r.updates) / r.log_update;
    const double u1 = 100.0 / t1;
    const double pct = u1 > u0 ? 100.0 * (u1 - u0) * s.primary_avg_record_size /
                                     s.physical_page_size
                               : 0.0;
    if (pct <= 25.0) {
      /* innodb_compression_bulk_free_pct takes 0 to 25. */
      *free_pct = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(pct)));
      return "REBUILD_WITH_FREE_SPACE";
    }
  } else if (s.effective_log_reorg_threshold_pct == 0) {
    return "ENABLE_LOG_RESERVE";
  }
  if (s.effective_log_reorg_threshold_pct == 0) {
    /* Update-only pages that need more room than a rebuild can leave. */
    const uint64_t bigger = 2 * s.physical_page_size;
    if (bigger >= s.logical_page_size) {
      return "UNCOMPRESS";
    }
    *kbs = bigger / 1024;
    return "INCREASE_KEY_BLOCK_SIZE";
  }
  if (!s.primary_log_reserve_at_max && s.primary_log_reserve > 0) {
    /* The reserve is still growing. */
    return "LOG_RESERVE_GROWING";
  }
  /* At its maximum, or 0 with the log still the cost: the reserve cannot
  help (it grows only in rounds with inserts; pages filled by a load and
  then only updated need more room than it can hold back). */
  const uint64_t bigger = 2 * s.physical_page_size;
  if (bigger >= s.logical_page_size) {
    return "UNCOMPRESS";
  }
  *kbs = bigger / 1024;
  return "INCREASE_KEY_BLOCK_SIZE";
}

/** The padding hint of a compressed table; see README.md, "Padding hint".
@param[in]   s       statistics of the table
@param[out]  width   PADDING_COLUMN_BYTES, or 0
@param[out]  kbs     SUGGESTED_KEY_BLOCK_SIZE in KB, or 0
@return the hint */
const char *padding_hint(const innodb_zip_table_stats_t &s, uint64_t *width,
                         uint64_t *kbs, uint64_t *free_pct) {
  *width = 0;
  *kbs = 0;
  *free_pct = 0;
  const innodb_zip_counters_t &p = s.primary;
  const uint64_t u = s.logical_page_size;
  const uint64_t threshold = s.effective_failure_threshold_pct;
  const uint64_t pad = s.primary_padding;
  const uint64_t step = s.zip_pad_increment;

  if (const char *h = log_hint(s, kbs, free_pct); h != nullptr) {
    return h;
  }
  if (threshold == 0) {
    /* Adaptive padding is off: InnoDB gives no padding to learn from. */
    return "ADAPTIVE_PADDING_OFF";
  }
  /* Not even one round of InnoDB's adaptive padding yet. */
  if (p.compress_ops < s.zip_pad_round_len) {
    return "NOT_ENOUGH_DATA";
  }
  const bool failing =
      100 * compress_failures(p.compress_ops, p.compress_ops_ok) >
      threshold * p.compress_ops;
  if (!failing && pad == 0) {
    return "NONE";
  }
  if (failing && s.primary_pad_at_max) {
    /* The pad is at its maximum and failures are still too frequent. */
    const uint64_t bigger = 2 * s.physical_page_size;
    if (bigger >= u) {
      return "UNCOMPRESS";
    }
    *kbs = bigger / 1024;
    return "INCREASE_KEY_BLOCK_SIZE";
  }
  if (s.primary_avg_record_size == 0) {
    return "NOT_ENOUGH_DATA";
  }
  /* The pad InnoDB converged to, or its next step while still failing,
  turned into bytes per row: rows of R + W bytes fill a page with as much
  data as rows of R bytes fill it minus the pad. */
  const uint64_t target = pad + (failing ? step : 0);
  const uint64_t r = s.primary_avg_record_size;
  *width = (r * target + (u - target) - 1) / (u - target);
  return "ADD_PADDING_COLUMN";
}

/** The SELECTIVE columns: space savings (measured for a compressed
table, estimated at the target size for an uncompressed one), closeness
and verdict. A user who may not see the table's estimate
(may_see_estimates()) gets them as if there were none. */
void store_selective(THD *thd, Field **f, const dd::Schema &schema,
                     const dd::Table &tab, const innodb_zip_table_stats_t &s,
                     uint64_t table_id) {
  const uint kbs = s.is_compressed ? s.physical_page_size / 1024
                                   : target_kbs_of(thd);
  store_u64(f[COL_TARGET_KEY_BLOCK_SIZE], kbs);
  Estimate m;
  const bool have =
      may_see_estimates(thd, schema.name().c_str(), tab.name().c_str()) &&
      estimate_get(table_id, &m);
  double ss = 0;
  const bool have_ss =
      have && estimate_savings(m.e, kbs, Savings::TABLE, &ss);
  store_double(f[COL_SPACE_SAVINGS], !have_ss, ss);
  /* Beside it: key-ordered inserts at that size, and the rebuild against
  the table's size now (README.md, "Which savings"). */
  for (const auto &[col, which] :
       {std::pair{COL_INSERTED_SPACE_SAVINGS, Savings::INSERTED},
        std::pair{COL_CURRENT_SIZE_SAVINGS, Savings::CURRENT_SIZE}}) {
    double v = 0;
    const bool h = have_ss && estimate_savings(m.e, kbs, which, &v);
    store_double(f[col], !h, v);
  }
  if (have_ss) {
    store_str(f[COL_SPACE_SAVINGS_SOURCE],
              m.e.is_compressed ? "MEASURED" : "ESTIMATED");
    store_time(thd, f[COL_SPACE_SAVINGS_COMPUTED_AT], m.computed_at);
  } else {
    f[COL_SPACE_SAVINGS_SOURCE]->set_null();
    f[COL_SPACE_SAVINGS_COMPUTED_AT]->set_null();
  }
  double rebuilt = -1000;
  if (have_ss && !estimate_savings(m.e, kbs, Savings::REBUILT, &rebuilt)) {
    rebuilt = -1000;
  }
  const double cp = expected_savings(kbs, s.logical_page_size);
  double closeness = std::nan("");
  const char *verdict =
      tab.row_format() == dd::Table::RF_REDUNDANT && !s.is_compressed
          ? "REDUNDANT_ROW_FORMAT"
          : selective_verdict(s.is_compressed, have_ss,
                              have && m.e.data_bytes == 0, ss, rebuilt, cp,
                              delta_of(thd), &closeness);
  store_double(f[COL_CLOSENESS], std::isnan(closeness), closeness);
  store_str(f[COL_SELECTIVE_VERDICT], verdict);
  /* The table's COMPRESSION now, and page compression of the same
  estimate, against the same baseline (COMPRESSION_ESTIMATES has the reason
  where there is none). */
  static const char *const page_names[] = INNODB_ZIP_PAGE_COMPRESSION_NAMES;
  store_str(f[COL_PAGE_COMPRESSION], page_names[dd_page_compression(tab)]);
  for (const auto &[col, method] :
       {std::pair{COL_PAGE_ZLIB_SPACE_SAVINGS, 0},
        std::pair{COL_PAGE_LZ4_SPACE_SAVINGS, 1}}) {
    double v = 0;
    const bool h = have && page_savings(m.e, method, Savings::TABLE, &v);
    store_double(f[col], !h, v);
  }
}

/** A schema or table name as the metadata lock keys spell it: lowered
when lower_case_table_names is 2 (names are stored as given, locked in
lower case), as stored otherwise.
@param[in]  name  name as stored in the data dictionary
@param[out] buf   buffer of NAME_LEN + 1 bytes
@return the name to lock */
const char *mdl_name_case(const char *name, char *buf) {
  if (lower_case_table_names != 2) {
    return name;
  }
  snprintf(buf, NAME_LEN + 1, "%s", name);
  my_casedn_str(files_charset_info, buf);
  return buf;
}

/** Warn that a table was left out of the result because a DDL statement
holds its metadata lock. */
void warn_table_skipped(THD *thd, const char *schema, const char *table) {
  push_warning_printf(thd, Sql_condition::SL_WARNING,
                      ER_COMPRESSION_STATS_TABLE_SKIPPED,
                      ER_THD(thd, ER_COMPRESSION_STATS_TABLE_SKIPPED), schema,
                      table, "a DDL statement holds its metadata lock");
}

/** Take a table's shared metadata lock only if it is free now.
MDL_SHARED_HIGH_PRIO is granted unless an exclusive lock is granted (a DDL
in its exclusive phase), even while a DDL waits for one.
@param[in]  thd     session
@param[in]  schema  schema name as stored
@param[in]  table   table name as stored
@param[out] ticket  the lock, or nullptr if it is not free now
@return true on error */
bool try_lock_table(THD *thd, const char *schema, const char *table,
                    MDL_ticket **ticket) {
  char sbuf[NAME_LEN + 1];
  char tbuf[NAME_LEN + 1];
  MDL_request req;
  MDL_REQUEST_INIT(&req, MDL_key::TABLE, mdl_name_case(schema, sbuf),
                   mdl_name_case(table, tbuf), MDL_SHARED_HIGH_PRIO,
                   MDL_EXPLICIT);
  if (thd->mdl_context.try_acquire_lock(&req)) {
    return true;
  }
  *ticket = req.ticket;
  return false;
}

/** Emit one row. @return true on error */
bool emit_row(THD *thd, TABLE *t, const dd::Schema &schema,
              const dd::Table &tab, const char *part, const char *subpart,
              uint64_t table_id) {
  /* A monitoring query must not wait behind DDL: take the table's shared
  metadata lock only if it is free now; InnoDB's own shared request for
  the same table then finds this lock and does not wait either. */
  MDL_ticket *ticket = nullptr;
  if (try_lock_table(thd, schema.name().c_str(), tab.name().c_str(),
                     &ticket)) {
    return true;
  }
  if (ticket == nullptr) {
    warn_table_skipped(thd, schema.name().c_str(), tab.name().c_str());
    return false;
  }
  innodb_zip_table_stats_t s;
  Downgrade_errors handler;
  thd->push_internal_handler(&handler);
  const bool missing = engine_get_table(table_id, &s);
  thd->pop_internal_handler();
  thd->mdl_context.release_lock(ticket);
  if (missing) {
    /* Dropped since we listed it, or InnoDB cannot open it: no row. */
    return false;
  }

  Field **f = t->field;
  store_str(f[COL_TABLE_SCHEMA], schema.name().c_str());
  store_str(f[COL_TABLE_NAME], tab.name().c_str());
  store_str(f[COL_PARTITION_NAME], part);
  store_str(f[COL_SUBPARTITION_NAME], subpart);
  store_u64(f[COL_TABLE_ID], table_id);
  /* The row format InnoDB really uses: a table created with
  KEY_BLOCK_SIZE but no ROW_FORMAT is compressed too. */
  store_str(f[COL_ROW_FORMAT], s.is_compressed
                                   ? "Compressed"
                                   : row_format_name(tab.row_format()));
  store_u64(f[COL_KEY_BLOCK_SIZE],
            s.is_compressed ? s.physical_page_size / 1024 : 0);
  store_u64(f[COL_LOGICAL_PAGE_SIZE], s.logical_page_size);
  store_u64(f[COL_PHYSICAL_PAGE_SIZE], s.physical_page_size);
  const bool size_unknown = s.allocated_pages == UINT64_MAX;
  if (size_unknown) {
    f[COL_ALLOCATED_PAGES]->set_null();
    f[COL_PHYSICAL_BYTES]->set_null();
    f[COL_ALLOCATED_PAGES_SOURCE]->set_null();
  } else {
    store_u64(f[COL_ALLOCATED_PAGES], s.allocated_pages);
    store_u64(f[COL_PHYSICAL_BYTES], s.allocated_pages * s.physical_page_size);
    store_str(f[COL_ALLOCATED_PAGES_SOURCE],
              CS_HAS(s, allocated_pages_from_stats) &&
                      s.allocated_pages_from_stats != 0
                  ? "STATISTICS"
                  : "COUNTED");
  }
  /* CP_ss: the savings the compressed page size promises. */
  store_double(f[COL_EXPECTED_SPACE_SAVINGS], !s.is_compressed,
               (1.0 - static_cast<double>(s.physical_page_size) /
                          s.logical_page_size) *
                   100.0);

  const innodb_zip_counters_t &p = s.primary;
  const innodb_zip_counters_t &q = s.secondary;
  const uint64_t ops = p.compress_ops + q.compress_ops;
  const uint64_t ok = p.compress_ops_ok + q.compress_ops_ok;
  store_u64(f[COL_COMPRESS_OPS], ops);
  store_u64(f[COL_COMPRESS_OPS_OK], ok);
  store_u64(f[COL_COMPRESS_USECS], p.compress_usecs + q.compress_usecs);
  store_u64(f[COL_UNCOMPRESS_OPS], p.uncompress_ops + q.uncompress_ops);
  store_u64(f[COL_UNCOMPRESS_USECS], p.uncompress_usecs + q.uncompress_usecs);
  store_u64(f[COL_COMPRESS_OPS_PRIMARY], p.compress_ops);
  store_u64(f[COL_COMPRESS_OPS_OK_PRIMARY], p.compress_ops_ok);
  store_u64(f[COL_COMPRESS_USECS_PRIMARY], p.compress_usecs);
  store_u64(f[COL_UNCOMPRESS_OPS_PRIMARY], p.uncompress_ops);
  store_u64(f[COL_UNCOMPRESS_USECS_PRIMARY], p.uncompress_usecs);
  store_u64(f[COL_ZIP_SPLITS], p.zip_splits + q.zip_splits);
  store_u64(f[COL_ZIP_REORGS], p.zip_reorgs + q.zip_reorgs);
  /* Recompressions by cause (README.md, "Recompressions by cause"); NULL
  from an InnoDB that does not count them. */
  const bool has_reorgs = CS_HAS(s, secondary_reorg);
  const innodb_zip_reorg_counters_t &pr = s.primary_reorg;
  const innodb_zip_reorg_counters_t &sr = s.secondary_reorg;
  store_u64_or_null(f[COL_ZIP_REORGS_LOG_FULL], !has_reorgs,
                    has_reorgs ? pr.log_update + pr.log_insert +
                                     sr.log_update + sr.log_insert
                               : 0);
  store_u64_or_null(f[COL_ZIP_REORGS_COMPRESS_FAILED], !has_reorgs,
                    has_reorgs ? pr.compress_failed + sr.compress_failed : 0);
  store_u64_or_null(f[COL_ZIP_REORG_USECS_LOG_FULL], !has_reorgs,
                    has_reorgs ? pr.usecs_log_update + pr.usecs_log_insert +
                                     sr.usecs_log_update + sr.usecs_log_insert
                               : 0);
  store_u64_or_null(f[COL_ZIP_UPDATES], !has_reorgs,
                    has_reorgs ? pr.updates + sr.updates : 0);
  const uint64_t log_updates =
      has_reorgs ? pr.log_update + sr.log_update : 0;
  store_double(f[COL_UPDATES_PER_LOG_REORG], log_updates == 0,
               log_updates == 0 ? 0.0
                                : static_cast<double>(pr.updates + sr.updates) /
                                      log_updates);
  /* Failed compressions in percent of attempts; NULL before any. */
  const uint64_t failures = compress_failures(ops, ok);
  store_double(f[COL_COMPRESS_FAILURE_PCT], ops == 0,
               ops == 0 ? 0.0 : 100.0 * static_cast<double>(failures) / ops);
  /* The adaptive pad of the clustered index (Facebook's COMPRESS_PADDING). */
  store_u64(f[COL_COMPRESS_PADDING],
            s.size >= offsetof(innodb_zip_table_stats_t, primary_padding) +
                          sizeof(s.primary_padding)
                ? s.primary_padding
                : 0);

  /* Per-table options and the padding hint: compressed tables only. */
  const bool has_opts = s.is_compressed && CS_HAS(s, primary_pad_at_max);
  store_u64_or_null(f[COL_EFFECTIVE_COMPRESSION_LEVEL], !has_opts,
                    has_opts ? s.effective_level : 0);
  {
    static const char *const codec_names[] = INNODB_ZIP_CODEC_NAMES;
    const bool has_codec = has_opts && CS_HAS(s, own_codec) &&
                           s.effective_codec < INNODB_ZIP_N_CODECS;
    store_str(f[COL_EFFECTIVE_COMPRESSION_CODEC],
              has_codec ? codec_names[s.effective_codec] : nullptr);
  }
  store_u64_or_null(f[COL_EFFECTIVE_FAILURE_THRESHOLD_PCT], !has_opts,
                    has_opts ? s.effective_failure_threshold_pct : 0);
  store_u64_or_null(f[COL_EFFECTIVE_PAD_PCT_MAX], !has_opts,
                    has_opts ? s.effective_pad_pct_max : 0);
  const bool has_log = has_opts && CS_HAS(s, log_reserve_step);
  store_u64_or_null(f[COL_COMPRESS_LOG_RESERVE], !has_log,
                    has_log ? s.primary_log_reserve : 0);
  store_u64_or_null(f[COL_EFFECTIVE_LOG_REORG_THRESHOLD_PCT], !has_log,
                    has_log ? s.effective_log_reorg_threshold_pct : 0);
  store_u64_or_null(f[COL_EFFECTIVE_LOG_RESERVE_PCT_MAX], !has_log,
                    has_log ? s.effective_log_reserve_pct_max : 0);
  store_u64_or_null(f[COL_AVG_RECORD_SIZE],
                    !has_opts || s.primary_avg_record_size == 0,
                    has_opts ? s.primary_avg_record_size : 0);
  if (has_opts && s.primary_avg_record_size != 0 &&
      CS_HAS(s, primary_avg_record_size_sampled_at) &&
      s.primary_avg_record_size_sampled_at != 0) {
    store_time(thd, f[COL_AVG_RECORD_SIZE_SAMPLED_AT],
               static_cast<time_t>(s.primary_avg_record_size_sampled_at));
  } else {
    f[COL_AVG_RECORD_SIZE_SAMPLED_AT]->set_null();
  }
  uint64_t width = 0;
  uint64_t kbs = 0;
  uint64_t free_pct = 0;
  store_str(f[COL_PADDING_HINT],
            has_opts ? padding_hint(s, &width, &kbs, &free_pct) : nullptr);
  store_u64_or_null(f[COL_PADDING_COLUMN_BYTES], width == 0, width);
  store_u64_or_null(f[COL_SUGGESTED_KEY_BLOCK_SIZE], kbs == 0, kbs);
  store_u64_or_null(f[COL_SUGGESTED_BULK_FREE_PCT], free_pct == 0, free_pct);

  store_selective(thd, f, schema, tab, s, table_id);

  if (!may_see_estimates(thd, schema.name().c_str(), tab.name().c_str())) {
    /* The activity of the table (compressions, failures, splits, updates,
    the pad, the record size and the hints drawn from them) under the
    estimate's rule: PROCESS, as INNODB_CMP_PER_TABLE asks, or SELECT on
    the whole table. Insert by insert, the counters would tell a user with
    only INSERT or a column grant whether a page compressed. */
    for (int c : {COL_COMPRESS_OPS, COL_COMPRESS_OPS_OK, COL_COMPRESS_USECS,
                  COL_UNCOMPRESS_OPS, COL_UNCOMPRESS_USECS,
                  COL_COMPRESS_OPS_PRIMARY, COL_COMPRESS_OPS_OK_PRIMARY,
                  COL_COMPRESS_USECS_PRIMARY, COL_UNCOMPRESS_OPS_PRIMARY,
                  COL_UNCOMPRESS_USECS_PRIMARY, COL_ZIP_SPLITS, COL_ZIP_REORGS,
                  COL_ZIP_REORGS_LOG_FULL, COL_ZIP_REORGS_COMPRESS_FAILED,
                  COL_ZIP_REORG_USECS_LOG_FULL, COL_ZIP_UPDATES,
                  COL_UPDATES_PER_LOG_REORG, COL_COMPRESS_FAILURE_PCT,
                  COL_COMPRESS_PADDING, COL_COMPRESS_LOG_RESERVE,
                  COL_AVG_RECORD_SIZE, COL_AVG_RECORD_SIZE_SAMPLED_AT,
                  COL_PADDING_HINT, COL_PADDING_COLUMN_BYTES,
                  COL_SUGGESTED_KEY_BLOCK_SIZE, COL_SUGGESTED_BULK_FREE_PCT}) {
      f[c]->set_null();
    }
  }

  return schema_table_store_record(thd, t);
}

}  // namespace

namespace {

/** Whether a name matches a lookup value under the columns' collation
(case-insensitive, trailing spaces ignored). */
bool name_matches(const std::string &value, const char *name) {
  const CHARSET_INFO *cs = system_charset_info;
  return cs->coll->strnncollsp(cs, pointer_cast<const uchar *>(value.data()),
                               value.size(), pointer_cast<const uchar *>(name),
                               strlen(name)) == 0;
}

/** If an item is "column = constant" (either way round) on a column of
the filled table, the column's position and the constant, in the system
character set. */
bool lookup_equality(Item *item, const TABLE *table, uint *field_index,
                     std::string *value) {
  if (item->type() != Item::FUNC_ITEM) {
    return false;
  }
  auto *func = down_cast<Item_func *>(item);
  if (func->functype() != Item_func::EQ_FUNC || func->argument_count() != 2) {
    return false;
  }
  for (uint k = 0; k < 2; k++) {
    Item *col = func->arguments()[k];
    Item *val = func->arguments()[1 - k];
    /* A constant that is cheap to evaluate: no subquery, no stored
    function. */
    /* A string: "TABLE_NAME = 5" compares as numbers ('5.0' matches),
    which a name filter cannot follow. */
    if (col->type() != Item::FIELD_ITEM || !val->const_item() ||
        val->has_subquery() || val->has_stored_program() ||
        val->result_type() != STRING_RESULT) {
      continue;
    }
    const Field *field = down_cast<Item_field *>(col)->field;
    if (field == nullptr || field->table != table) {
      continue;
    }
    String buf;
    const String *res = val->val_str(&buf);
    if (res == nullptr || val->null_value) {
      continue;
    }
    String conv;
    uint errors = 0;
    if (conv.copy(res->ptr(), res->length(), res->charset(),
                  system_charset_info, &errors) ||
        errors != 0) {
      continue;
    }
    *field_index = field->field_index();
    value->assign(conv.ptr(), conv.length());
    return true;
  }
  return false;
}

void lookup_add(Item *item, const TABLE *table, Lookup *lk) {
  uint idx = 0;
  std::string value;
  if (!lookup_equality(item, table, &idx, &value)) {
    return;
  }
  if (idx == 0 && !lk->has_schema) {
    lk->has_schema = true;
    lk->schema = value;
  } else if (idx == 1 && !lk->has_table) {
    lk->has_table = true;
    lk->table = value;
  }
}

/** Shared metadata locks on the tables that a look-up by name loads into
the dictionary cache: the dictionary client requires one for as long as a
cached object is in use (a debug build asserts it). Taken without waiting;
a table whose lock is not free now is skipped with a warning, as in
emit_row(). Released when the object goes out of scope, which must be
after the Auto_releaser that holds the cached objects. */
class Name_locks {
 public:
  explicit Name_locks(THD *thd) : m_thd(thd) {}
  Name_locks(const Name_locks &) = delete;
  Name_locks &operator=(const Name_locks &) = delete;
  ~Name_locks() {
    for (MDL_ticket *t : m_tickets) {
      m_thd->mdl_context.release_lock(t);
    }
  }

  /** Lock a table by name.
  @param[in]  schema  schema name as stored
  @param[in]  table   table name as stored
  @param[out] locked  true if the lock is held now; false if a DDL
                      statement holds it (a warning was pushed)
  @return true on error */
  bool try_lock(const char *schema, const char *table, bool *locked) {
    MDL_ticket *ticket = nullptr;
    if (try_lock_table(m_thd, schema, table, &ticket)) {
      return true;
    }
    *locked = ticket != nullptr;
    if (ticket == nullptr) {
      warn_table_skipped(m_thd, schema, table);
    } else {
      m_tickets.push_back(ticket);
    }
    return false;
  }

 private:
  THD *m_thd;
  std::vector<MDL_ticket *> m_tickets;
};

}  // namespace

Lookup lookup_from_cond(Item *cond, const TABLE *table) {
  Lookup lk;
  if (cond == nullptr) {
    return lk;
  }
  if (cond->type() == Item::COND_ITEM &&
      down_cast<Item_cond *>(cond)->functype() == Item_func::COND_AND_FUNC) {
    for (Item &arg : *down_cast<Item_cond *>(cond)->argument_list()) {
      lookup_add(&arg, table, &lk);
    }
  } else {
    lookup_add(cond, table, &lk);
  }
  return lk;
}

int for_each_table(THD *thd, const Table_visitor &visit, Table_filter may_see,
                   const Lookup *lookup) {
  if (may_see == nullptr) {
    may_see = can_access_table;
  }
  const Lookup all;
  const Lookup &lk = lookup != nullptr ? *lookup : all;
  dd::cache::Dictionary_client *dc = thd->dd_client();
  const dd::cache::Dictionary_client::Auto_releaser releaser(dc);

  std::vector<const dd::Schema *> schemas;
  if (dc->fetch_global_components(&schemas)) {
    return 1;
  }
  for (const dd::Schema *sch : schemas) {
    if (lk.has_schema && !name_matches(lk.schema, sch->name().c_str())) {
      continue;
    }
    /* The tables of one schema at a time: released before the next one,
    so that a full read holds one schema's table objects, not every
    schema's. The locks are declared before the releaser: released after
    the cached objects. */
    Name_locks locks(thd);
    const dd::cache::Dictionary_client::Auto_releaser schema_releaser(dc);
    std::vector<const dd::Table *> tabs;
    if (lk.has_table && lower_case_table_names != 0) {
      /* Names are stored in lower case: one look-up finds the table. */
      std::string name(lk.table);
      name.resize(my_casedn_str(files_charset_info, name.data()));
      const dd::Table *tab = nullptr;
      bool locked = false;
      /* The privilege first: a table the user may not see is not locked,
      so no warning names it. */
      if (!may_see(thd, sch->name().c_str(), name.c_str())) {
        continue;
      }
      if (locks.try_lock(sch->name().c_str(), name.c_str(), &locked) ||
          (locked && dc->acquire(sch->name().c_str(), name.c_str(), &tab))) {
        return 1;
      }
      if (tab != nullptr) {
        tabs.push_back(tab);
      }
    } else if (lk.has_table) {
      /* Names may differ in case: match the names first (one index scan
      of the dictionary), then load only the tables that match. */
      std::vector<dd::String_type> names;
      if (dc->fetch_schema_table_names_by_engine(sch, "InnoDB", &names)) {
        return 1;
      }
      for (const dd::String_type &name : names) {
        if (!name_matches(lk.table, name.c_str()) ||
            !may_see(thd, sch->name().c_str(), name.c_str())) {
          continue;
        }
        const dd::Table *tab = nullptr;
        bool locked = false;
        if (locks.try_lock(sch->name().c_str(), name.c_str(), &locked) ||
            (locked && dc->acquire(sch->name().c_str(), name.c_str(), &tab))) {
          return 1;
        }
        if (tab != nullptr) {
          tabs.push_back(tab);
        }
      }
    } else if (dc->fetch_schema_components(sch, &tabs)) {
      return 1;
    }
    for (const dd::Table *tab : tabs) {
      if (thd->killed) {
        return 1;
      }
      if (lk.has_table && !name_matches(lk.table, tab->name().c_str())) {
        continue;
      }
      if (tab->engine() != "InnoDB" ||
          tab->hidden() != dd::Abstract_table::HT_VISIBLE ||
          !may_see(thd, sch->name().c_str(), tab->name().c_str())) {
        continue;
      }
      if (tab->partition_type() == dd::Table::PT_NONE) {
        if (visit(*sch, *tab, nullptr, nullptr, tab->se_private_id())) {
          return 1;
        }
        continue;
      }
      for (const dd::Partition *p : tab->leaf_partitions()) {
        const dd::Partition *parent = p->parent();
        if (visit(*sch, *tab,
                  parent != nullptr ? parent->name().c_str()
                                    : p->name().c_str(),
                  parent != nullptr ? p->name().c_str() : nullptr,
                  p->se_private_id())) {
          return 1;
        }
      }
    }
  }
  return 0;
}

int fill_table(THD *thd, Table_ref *tables, Item *cond) {
  TABLE *t = tables->table;
  const Lookup lk = lookup_from_cond(cond, t);
  return for_each_table(
      thd,
      [&](const dd::Schema &sch, const dd::Table &tab, const char *part,
          const char *subpart, uint64_t id) {
        return emit_row(thd, t, sch, tab, part, subpart, id);
      },
      nullptr, &lk);
}

}  // namespace compression_stats
