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
  INFORMATION_SCHEMA.COMPRESSION_STATS: its columns and its fill function,
  one row per table or leaf partition, stored column group by column
  group (emit_row()).

  Tables are enumerated from the data dictionary (cs_dd_walk.h), the
  visibility rule is the one of INFORMATION_SCHEMA.TABLES (CAN_ACCESS_TABLE:
  any table privilege, or any database privilege; cs_privileges.h), and the
  engine facts come from InnoDB through the innodb_compression_stats
  service (cs_engine.h). The hints and verdicts are computed in
  cs_advice.h. Estimates (the SELECTIVE columns) and the activity of a
  table need more: see may_see_estimates().
*/

#include "plugin/compression_stats/cs_table.h"

#include <cmath>
#include <utility>

#include "my_inttypes.h"
#include "plugin/compression_stats/cs_advice.h"
#include "plugin/compression_stats/cs_dd_walk.h"
#include "plugin/compression_stats/cs_engine.h"
#include "plugin/compression_stats/cs_fields.h"
#include "plugin/compression_stats/cs_privileges.h"
#include "plugin/compression_stats/cs_store.h"
#include "plugin/compression_stats/cs_sysvars.h"
#include "sql/dd/types/schema.h"
#include "sql/dd/types/table.h"
#include "sql/error_handler.h"
#include "sql/field.h"
#include "sql/mdl.h"
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

namespace {

/** Short names of the cs_fields.h functions, for the many columns below. */
void store_str(Field *f, const char *s) { store_string(f, s); }

void store_u64(Field *f, uint64_t v) { store_number(f, v); }

void store_double(Field *f, bool is_null, double v) {
  store_dbl(f, is_null, v);
}

/** A row format InnoDB reports (innodb_zip_table_stats_t::row_format) as
SHOW TABLE STATUS names it; nullptr if InnoDB did not say. */
const char *innodb_row_format_name(uint32_t rf) {
  switch (rf) {
    case INNODB_ZIP_ROW_FORMAT_REDUNDANT:
      return "Redundant";
    case INNODB_ZIP_ROW_FORMAT_COMPACT:
      return "Compact";
    case INNODB_ZIP_ROW_FORMAT_DYNAMIC:
      return "Dynamic";
    case INNODB_ZIP_ROW_FORMAT_COMPRESSED:
      return "Compressed";
  }
  return nullptr;
}

/** A row format as SHOW TABLE STATUS names it. */
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

/** Store a number, or NULL. */
void store_u64_or_null(Field *f, bool is_null, uint64_t v) {
  if (is_null) {
    f->set_null();
  } else {
    store_u64(f, v);
  }
}

/** Whether the row shows the per-table options and the padding hint:
compressed tables only, from an InnoDB that reports them. */
bool has_options(const innodb_zip_table_stats_t &s) {
  return s.is_compressed && CS_HAS(s, primary_pad_at_max);
}

/** Read InnoDB's statistics of a table or partition without waiting
behind DDL. A monitoring query must not wait: the table's shared metadata
lock is taken only if it is free now; InnoDB's own shared request for the
same table then finds this lock and does not wait either. Errors InnoDB
raises opening the table are downgraded to warnings (Downgrade_errors).
@param[in]  thd       the session
@param[in]  schema    the table's schema
@param[in]  tab       the table
@param[in]  table_id  InnoDB table id of the table or partition
@param[out] s         the statistics
@param[out] found     whether there is a row: false if a DDL statement
                      holds the lock (a warning says so), or if the table
                      was dropped since it was listed or InnoDB cannot open
                      it
@return true on error */
bool read_stats(THD *thd, const dd::Schema &schema, const dd::Table &tab,
                uint64_t table_id, innodb_zip_table_stats_t *s,
                bool *found) {
  *found = false;
  MDL_ticket *ticket = nullptr;
  if (try_lock_table(thd, schema.name().c_str(), tab.name().c_str(),
                     &ticket)) {
    return true;
  }
  if (ticket == nullptr) {
    warn_table_skipped(thd, schema.name().c_str(), tab.name().c_str());
    return false;
  }
  Downgrade_errors handler;
  thd->push_internal_handler(&handler);
  const bool missing = engine_get_table(schema.name().c_str(),
                                        tab.name().c_str(), table_id, s);
  thd->pop_internal_handler();
  thd->mdl_context.release_lock(ticket);
  /* Dropped since we listed it, or InnoDB cannot open it: no row. */
  *found = !missing;
  return false;
}

/** The columns that name the table and its page sizes, TABLE_SCHEMA to
PHYSICAL_PAGE_SIZE. */
void store_identity(Field **f, const dd::Schema &schema, const dd::Table &tab,
                    const char *part, const char *subpart, uint64_t table_id,
                    const innodb_zip_table_stats_t &s) {
  store_str(f[COL_TABLE_SCHEMA], schema.name().c_str());
  store_str(f[COL_TABLE_NAME], tab.name().c_str());
  store_str(f[COL_PARTITION_NAME], part);
  store_str(f[COL_SUBPARTITION_NAME], subpart);
  store_u64(f[COL_TABLE_ID], table_id);
  /* The row format InnoDB really uses: a table created with
  KEY_BLOCK_SIZE but no ROW_FORMAT is compressed too, and a partition may
  have a row format of its own, which the table's options do not tell. */
  const char *rf = s.is_compressed ? "Compressed" : nullptr;
  if (rf == nullptr && CS_HAS(s, row_format)) {
    rf = innodb_row_format_name(s.row_format);
  }
  store_str(f[COL_ROW_FORMAT],
            rf != nullptr ? rf : row_format_name(tab.row_format()));
  store_u64(f[COL_KEY_BLOCK_SIZE],
            s.is_compressed ? s.physical_page_size / 1024 : 0);
  store_u64(f[COL_LOGICAL_PAGE_SIZE], s.logical_page_size);
  store_u64(f[COL_PHYSICAL_PAGE_SIZE], s.physical_page_size);
}

/** The size columns: ALLOCATED_PAGES, PHYSICAL_BYTES,
ALLOCATED_PAGES_SOURCE (NULL when InnoDB does not know the size) and
EXPECTED_SPACE_SAVINGS. */
void store_size(Field **f, const innodb_zip_table_stats_t &s) {
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
}

/** The activity counters, COMPRESS_OPS to COMPRESS_PADDING: the whole
table, the clustered index, the recompressions by cause and the rates
drawn from them. */
void store_counters(Field **f, const innodb_zip_table_stats_t &s) {
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
  /* Recompressions by cause (docs/reference/information-schema.md, "Counter columns"); NULL
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
}

/** The per-table options in effect (EFFECTIVE_COMPRESSION_LEVEL to
EFFECTIVE_LOG_RESERVE_PCT_MAX) and the clustered index's record size
(AVG_RECORD_SIZE, AVG_RECORD_SIZE_SAMPLED_AT): compressed tables only. */
void store_options(THD *thd, Field **f, const innodb_zip_table_stats_t &s) {
  const bool has_opts = has_options(s);
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
}

/** The padding hint and its figures (PADDING_HINT to
SUGGESTED_BULK_FREE_PCT, padding_hint()): compressed tables only. */
void store_hint(Field **f, const innodb_zip_table_stats_t &s) {
  uint64_t width = 0;
  uint64_t kbs = 0;
  uint64_t free_pct = 0;
  store_str(f[COL_PADDING_HINT],
            has_options(s) ? padding_hint(s, &width, &kbs, &free_pct)
                           : nullptr);
  store_u64_or_null(f[COL_PADDING_COLUMN_BYTES], width == 0, width);
  store_u64_or_null(f[COL_SUGGESTED_KEY_BLOCK_SIZE], kbs == 0, kbs);
  store_u64_or_null(f[COL_SUGGESTED_BULK_FREE_PCT], free_pct == 0, free_pct);
}

/** NULL the activity of the table (compressions, failures, splits,
updates, the pad, the record size and the hints drawn from them) for a
user who may not see it: the estimate's rule (may_see_estimates()),
PROCESS, as INNODB_CMP_PER_TABLE asks, or SELECT on the whole table.
Insert by insert, the counters would tell a user with only INSERT or a
column grant whether a page compressed. */
void hide_activity(Field **f) {
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
  the table's size now (docs/estimator.md, "Which savings"). */
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

/** Emit the row of a table or leaf partition: its statistics read
without waiting behind DDL, then every column group in the order of the
columns. No row if the statistics cannot be read now (read_stats()).
@return true on error */
bool emit_row(THD *thd, TABLE *t, const dd::Schema &schema,
              const dd::Table &tab, const char *part, const char *subpart,
              uint64_t table_id) {
  innodb_zip_table_stats_t s;
  bool found = false;
  if (read_stats(thd, schema, tab, table_id, &s, &found)) {
    return true;
  }
  if (!found) {
    return false;
  }
  Field **f = t->field;
  store_identity(f, schema, tab, part, subpart, table_id, s);
  store_size(f, s);
  store_counters(f, s);
  store_options(thd, f, s);
  store_hint(f, s);
  store_selective(thd, f, schema, tab, s, table_id);
  if (!may_see_estimates(thd, schema.name().c_str(), tab.name().c_str())) {
    hide_activity(f);
  }
  return schema_table_store_record(thd, t);
}

}  // namespace

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
