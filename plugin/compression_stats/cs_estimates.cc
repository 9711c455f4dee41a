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
  @file plugin/compression_stats/cs_estimates.cc
  INFORMATION_SCHEMA.COMPRESSION_ESTIMATES: its columns and its fill
  function, the stored estimate of every table or partition the user may
  estimate (may_see_estimates()), one row per KEY_BLOCK_SIZE and one per
  page compression method. The estimates are made by
  COMPRESSION_STATS_ESTIMATE() (cs_udf.h) and kept by the store
  (cs_store.h); their savings are computed in cs_advice.h.
*/

#include "plugin/compression_stats/cs_estimates.h"

#include <cstdio>
#include <utility>

#include "my_inttypes.h"
#include "plugin/compression_stats/cs_advice.h"
#include "plugin/compression_stats/cs_dd_walk.h"
#include "plugin/compression_stats/cs_fields.h"
#include "plugin/compression_stats/cs_privileges.h"
#include "plugin/compression_stats/cs_store.h"
#include "sql/dd/types/schema.h"
#include "sql/dd/types/table.h"
#include "sql/field.h"
#include "sql/sql_class.h"
#include "sql/sql_show.h"
#include "sql/table.h"

namespace compression_stats {

namespace {

/** Column positions. */
enum ce_column {
  CE_TABLE_SCHEMA = 0,
  CE_TABLE_NAME,
  CE_PARTITION_NAME,
  CE_SUBPARTITION_NAME,
  CE_TABLE_ID,
  CE_IS_COMPRESSED,
  CE_PAGE_COMPRESSION,
  CE_METHOD,
  CE_KEY_BLOCK_SIZE,
  CE_SOURCE,
  CE_USED_PAGES,
  CE_UNCOMPRESSED_BYTES,
  CE_ESTIMATED_BYTES,
  CE_ALLOCATED_SIZE_SPARSE,
  CE_ALLOCATED_SIZE_NOT_SPARSE,
  CE_SPACE_SAVINGS,
  CE_REBUILT_SPACE_SAVINGS,
  CE_INSERTED_SPACE_SAVINGS,
  CE_CURRENT_SIZE_SAVINGS,
  CE_EXPECTED_SPACE_SAVINGS,
  CE_CLOSENESS,
  CE_ESTIMATED_FAILURE_PCT,
  CE_COMPRESSION_LEVEL,
  CE_COMPRESSION_CODEC,
  CE_SAMPLED_PAGES,
  CE_LEAF_PAGES,
  CE_FULL_SCAN,
  CE_OFF_PAGE_RECORDS,
  CE_OFF_PAGE_BYTES,
  CE_BLOB_PAGES,
  CE_FS_BLOCK_SIZE,
  CE_UNAVAILABLE_REASON,
  CE_COMPUTED_AT,
};

}  // namespace

ST_FIELD_INFO estimate_fields[] = {
    CS_STR("TABLE_SCHEMA", NAME_CHAR_LEN, 0),
    CS_STR("TABLE_NAME", NAME_CHAR_LEN, 0),
    CS_STR("PARTITION_NAME", NAME_CHAR_LEN, MY_I_S_MAYBE_NULL),
    CS_STR("SUBPARTITION_NAME", NAME_CHAR_LEN, MY_I_S_MAYBE_NULL),
    CS_U64("TABLE_ID", 0),
    CS_STR("IS_COMPRESSED", 3, 0),
    CS_STR("PAGE_COMPRESSION", 4, 0),
    CS_STR("METHOD", 20, 0),
    CS_U64("KEY_BLOCK_SIZE", MY_I_S_MAYBE_NULL),
    CS_STR("SOURCE", 10, 0),
    CS_U64("USED_PAGES", 0),
    CS_U64("UNCOMPRESSED_BYTES", 0),
    CS_U64("ESTIMATED_BYTES", MY_I_S_MAYBE_NULL),
    CS_U64("ALLOCATED_SIZE_SPARSE", MY_I_S_MAYBE_NULL),
    CS_U64("ALLOCATED_SIZE_NOT_SPARSE", MY_I_S_MAYBE_NULL),
    CS_DOUBLE("SPACE_SAVINGS"),
    CS_DOUBLE("REBUILT_SPACE_SAVINGS"),
    CS_DOUBLE("INSERTED_SPACE_SAVINGS"),
    CS_DOUBLE("CURRENT_SIZE_SAVINGS"),
    CS_DOUBLE("EXPECTED_SPACE_SAVINGS"),
    CS_DOUBLE("CLOSENESS"),
    CS_DOUBLE("ESTIMATED_FAILURE_PCT"),
    CS_U64("COMPRESSION_LEVEL", MY_I_S_MAYBE_NULL),
    CS_STR("COMPRESSION_CODEC", 8, 0),
    CS_U64("SAMPLED_PAGES", 0),
    CS_U64("LEAF_PAGES", 0),
    CS_STR("FULL_SCAN", 3, 0),
    CS_U64("OFF_PAGE_RECORDS", 0),
    CS_U64("OFF_PAGE_BYTES", 0),
    CS_U64("BLOB_PAGES", 0),
    CS_U64("FS_BLOCK_SIZE", MY_I_S_MAYBE_NULL),
    CS_STR("UNAVAILABLE_REASON", 160, MY_I_S_MAYBE_NULL),
    {"COMPUTED_AT", 0, MYSQL_TYPE_DATETIME, 0, MY_I_S_MAYBE_NULL, "", 0},
    {nullptr, 0, MYSQL_TYPE_NULL, 0, 0, nullptr, 0}};

namespace {

/** A table or partition whose estimate fills rows: what the walk gives
and the estimate. */
struct Estimate_rows {
  const dd::Schema &sch;
  const dd::Table &tab;
  const char *part;
  const char *subpart;
  uint64_t id;
  /** The estimate, with the table's COMPRESSION as the data dictionary
  has it. */
  const Estimate &m;
};

/** A byte count, rounded to a byte, or NULL if there is none. */
void store_bytes(Field *f, bool have, double bytes) {
  if (have) {
    store_number(f, static_cast<uint64_t>(bytes + 0.5));
  } else {
    f->set_null();
  }
}

/** The columns that every row of a table or partition has: its names and
id, its compression now, its pages and the sample the estimate read. */
void store_common(THD *thd, Field **f, const Estimate_rows &r) {
  static const char *const page_names[] = INNODB_ZIP_PAGE_COMPRESSION_NAMES;
  const innodb_zip_estimate_t &e = r.m.e;
  store_string(f[CE_TABLE_SCHEMA], r.sch.name().c_str());
  store_string(f[CE_TABLE_NAME], r.tab.name().c_str());
  store_string(f[CE_PARTITION_NAME], r.part);
  store_string(f[CE_SUBPARTITION_NAME], r.subpart);
  store_number(f[CE_TABLE_ID], r.id);
  store_string(f[CE_IS_COMPRESSED], e.is_compressed ? "YES" : "NO");
  store_string(f[CE_PAGE_COMPRESSION],
               page_names[e.page_compression <= 2 ? e.page_compression : 0]);
  store_number(f[CE_USED_PAGES], e.used_pages);
  store_number(f[CE_UNCOMPRESSED_BYTES], e.full_pages * e.logical_page_size);
  store_number(f[CE_SAMPLED_PAGES], e.sampled_pages);
  store_number(f[CE_LEAF_PAGES], e.leaf_pages);
  store_string(f[CE_FULL_SCAN], e.full_scan ? "YES" : "NO");
  store_number(f[CE_OFF_PAGE_RECORDS], e.extern_records);
  store_number(f[CE_OFF_PAGE_BYTES], e.extern_bytes);
  store_number(f[CE_BLOB_PAGES], e.extern_pages);
  store_time(thd, f[CE_COMPUTED_AT], r.m.computed_at);
}

/** The rows of the KEY_BLOCK_SIZEs the estimate has, 1 to 16 KB.
@return true on error */
bool emit_kbs_rows(THD *thd, TABLE *t, const Estimate_rows &r) {
  const innodb_zip_estimate_t &e = r.m.e;
  for (int k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
    const uint kbs = e.sizes[k].key_block_size;
    if (kbs == 0) {
      continue;
    }
    Field **f = t->field;
    store_common(thd, f, r);
    char method[32];
    snprintf(method, sizeof method, "KEY_BLOCK_SIZE=%u", kbs);
    store_string(f[CE_METHOD], method);
    store_number(f[CE_KEY_BLOCK_SIZE], kbs);
    /* The table's own size: what it uses now, measured. */
    const bool measured =
        e.is_compressed && e.physical_page_size == kbs * 1024;
    store_string(f[CE_SOURCE], measured ? "MEASURED" : "ESTIMATED");
    const uint64_t pages = measured ? e.used_pages : e.sizes[k].pages;
    store_number(f[CE_ESTIMATED_BYTES],
                 pages * static_cast<uint64_t>(kbs) * 1024);
    /* The whole file, never punched: the same with and without
    innodb_page_compression_sparse. */
    double fb = 0;
    const bool hf = kbs_file_bytes(e, kbs, &fb);
    store_bytes(f[CE_ALLOCATED_SIZE_SPARSE], hf, fb);
    store_bytes(f[CE_ALLOCATED_SIZE_NOT_SPARSE], hf, fb);
    /* SPACE_SAVINGS uses the same pages (compressed_pages()). */
    double ss = 0;
    const bool have = estimate_savings(e, kbs, Savings::TABLE, &ss);
    for (const auto &[col, which] :
         {std::pair{CE_SPACE_SAVINGS, Savings::TABLE},
          std::pair{CE_REBUILT_SPACE_SAVINGS, Savings::REBUILT},
          std::pair{CE_INSERTED_SPACE_SAVINGS, Savings::INSERTED},
          std::pair{CE_CURRENT_SIZE_SAVINGS, Savings::CURRENT_SIZE}}) {
      double v = 0;
      const bool h = estimate_savings(e, kbs, which, &v);
      store_dbl(f[col], !h, v);
    }
    const double cp = expected_savings(kbs, e.logical_page_size);
    store_dbl(f[CE_EXPECTED_SPACE_SAVINGS], false, cp);
    store_dbl(f[CE_CLOSENESS], !have || cp <= 0, cp > 0 ? ss / cp : 0);
    store_dbl(f[CE_ESTIMATED_FAILURE_PCT], !have, e.sizes[k].failure_pct);
    store_number(f[CE_COMPRESSION_LEVEL], e.level);
    static const char *const codec_names[] = INNODB_ZIP_CODEC_NAMES;
    store_string(f[CE_COMPRESSION_CODEC],
                 codec_names[e.codec < INNODB_ZIP_N_CODECS ? e.codec : 0]);
    f[CE_FS_BLOCK_SIZE]->set_null();
    f[CE_UNAVAILABLE_REASON]->set_null();
    if (schema_table_store_record(thd, t)) {
      return true;
    }
  }
  return false;
}

/** The rows of page compression: one per method, NULL figures and a
reason where the table's file cannot take it.
@return true on error */
bool emit_page_rows(THD *thd, TABLE *t, const Estimate_rows &r) {
  const innodb_zip_estimate_t &e = r.m.e;
  static const char *const methods[] = INNODB_ZIP_PAGE_METHOD_NAMES;
  const char *reason = page_unavailable_reason(e);
  for (int pm = 0; pm < INNODB_ZIP_EST_N_PAGE_METHODS; pm++) {
    Field **f = t->field;
    store_common(thd, f, r);
    store_string(f[CE_METHOD], pm == 0 ? "PAGE_ZLIB" : "PAGE_LZ4");
    f[CE_KEY_BLOCK_SIZE]->set_null();
    /* Always an estimate of a rebuild: the pages a page-compressed
    table writes now are not all compressed yet (only a rebuild
    compresses the pages written before). */
    store_string(f[CE_SOURCE], "ESTIMATED");
    double ss = 0;
    const bool have = page_savings(e, pm, Savings::TABLE, &ss);
    if (have) {
      store_number(f[CE_ESTIMATED_BYTES], e.page_bytes[pm]);
    } else {
      f[CE_ESTIMATED_BYTES]->set_null();
    }
    /* The whole file after the conversion: free pages as holes
    (innodb_page_compression_sparse=ON) or whole (OFF). */
    for (const auto &[col, sparse] :
         {std::pair{CE_ALLOCATED_SIZE_SPARSE, true},
          std::pair{CE_ALLOCATED_SIZE_NOT_SPARSE, false}}) {
      double fb = 0;
      const bool hf = page_file_bytes(e, pm, sparse, &fb);
      store_bytes(f[col], hf, fb);
    }
    store_dbl(f[CE_SPACE_SAVINGS], !have, ss);
    store_dbl(f[CE_REBUILT_SPACE_SAVINGS], !have, ss);
    store_dbl(f[CE_INSERTED_SPACE_SAVINGS], !have, ss);
    double cur = 0;
    const bool hc = page_savings(e, pm, Savings::CURRENT_SIZE, &cur);
    store_dbl(f[CE_CURRENT_SIZE_SAVINGS], !hc, cur);
    /* No page size promises anything: CP_ss and closeness are of
    KEY_BLOCK_SIZE. */
    store_dbl(f[CE_EXPECTED_SPACE_SAVINGS], true, 0);
    store_dbl(f[CE_CLOSENESS], true, 0);
    /* The pages that stay whole (do not shrink by a block). */
    store_dbl(f[CE_ESTIMATED_FAILURE_PCT], !have, e.page_whole_pct[pm]);
    if (pm == 0 && reason == nullptr) {
      store_number(f[CE_COMPRESSION_LEVEL], e.page_zlib_level);
    } else {
      f[CE_COMPRESSION_LEVEL]->set_null();
    }
    store_string(f[CE_COMPRESSION_CODEC], methods[pm]);
    if (e.fs_block_size != 0) {
      store_number(f[CE_FS_BLOCK_SIZE], e.fs_block_size);
    } else {
      f[CE_FS_BLOCK_SIZE]->set_null();
    }
    store_string(f[CE_UNAVAILABLE_REASON],
                 reason != nullptr
                     ? reason
                     : (have ? nullptr : "the table holds no records"));
    if (schema_table_store_record(thd, t)) {
      return true;
    }
  }
  return false;
}

}  // namespace

int fill_estimates(THD *thd, Table_ref *tables, Item *cond) {
  TABLE *t = tables->table;
  const Lookup lk = lookup_from_cond(cond, t);
  /* Only the tables whose estimates the user may see: the rule of the
  estimator itself (may_see_estimates()). */
  return for_each_table(
      thd,
      [&](const dd::Schema &sch, const dd::Table &tab, const char *part,
          const char *subpart, uint64_t id) {
        Estimate m;
        if (!estimate_get(id, &m)) {
          return false;
        }
        /* The table's COMPRESSION as the data dictionary has it (InnoDB's
        tablespace learns it only when a statement opens the table). */
        if (m.e.page_status != INNODB_ZIP_EST_PAGE_NOT_ESTIMATED) {
          m.e.page_compression = dd_page_compression(tab);
        }
        const Estimate_rows r{sch, tab, part, subpart, id, m};
        return emit_kbs_rows(thd, t, r) || emit_page_rows(thd, t, r);
      },
      may_see_estimates, &lk);
}

}  // namespace compression_stats
