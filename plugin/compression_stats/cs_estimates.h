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

#ifndef PLUGIN_COMPRESSION_STATS_CS_ESTIMATES_H
#define PLUGIN_COMPRESSION_STATS_CS_ESTIMATES_H

/**
  @file plugin/compression_stats/cs_estimates.h
  Savings estimates: the loadable function COMPRESSION_STATS_ESTIMATE()
  that runs InnoDB's estimator, the store of its results (persisted in the
  data directory, keyed by InnoDB table id) and
  INFORMATION_SCHEMA.COMPRESSION_ESTIMATES.
*/

#include <mysql/components/services/innodb_compression_estimate.h>

#include <cstdint>
#include <ctime>

#include "sql/sql_show.h"
#include "sql/table.h"

class THD;
namespace dd {
class Table;
}

namespace compression_stats {

/** System variables (compression_stats.cc). */
extern ulong sysvar_sample_pages;
extern ulong sysvar_max_running;

/** compression_stats_delta of a session (its global value for nullptr). */
double delta_of(THD *thd);

/** compression_stats_target_key_block_size of a session (its global value
for nullptr). */
uint target_kbs_of(THD *thd);

/** One stored estimate of a table or partition. */
struct Estimate {
  /** When it was computed (seconds since the epoch). */
  time_t computed_at;
  /** What InnoDB returned. */
  innodb_zip_estimate_t e;
};

/** Load the stored estimates and register the stage and the function.
@return true on error (logged) */
bool estimates_init();

/** Whether the plugin may be uninstalled: unregisters the function,
which the server refuses while a statement uses it (an estimate running).
@return 0 if it may (the function is gone), 1 if not (a warning says why) */
int estimates_check_uninstall();

/** Unregister the function if still registered, wait for the users of the
store under way and free it. */
void estimates_deinit();

/** The estimates in memory and the lines of their journal, 0 and 0 while
the store is closed (cs_store.h). */
void estimates_store_sizes(uint64_t *journal_lines, uint64_t *entries);

/** Look up the stored estimate of a table or partition.
@return true if there is one */
bool estimate_get(uint64_t table_id, Estimate *out);

/** Size index (into innodb_zip_estimate_t::sizes) of a KEY_BLOCK_SIZE in
KB, or -1. */
int kbs_index(uint kbs);

/** The savings of an estimate (README.md, "Which savings"). */
enum class Savings {
  /** SPACE_SAVINGS: the table at that size against the records in full
  uncompressed pages (full_pages); measured (the pages in use) when the
  table is compressed at that size, else ALTER TABLE's result */
  TABLE,
  /** REBUILT_SPACE_SAVINGS: ALTER TABLE's result even for a table
  compressed at that size now, against the same baseline */
  REBUILT,
  /** INSERTED_SPACE_SAVINGS: rows inserted in key order into the table
  compressed at that size, against the same baseline */
  INSERTED,
  /** CURRENT_SIZE_SAVINGS: ALTER TABLE's result against the pages in use
  now (negative: the table grows) */
  CURRENT_SIZE
};

/** Savings in percent of an estimate at a KEY_BLOCK_SIZE.
@param[in]  e      the estimate
@param[in]  kbs    KEY_BLOCK_SIZE in KB
@param[in]  which  which savings
@param[out] ss     the savings
@return false if there is no figure (empty table, size impossible, an
estimate without that figure) */
bool estimate_savings(const innodb_zip_estimate_t &e, uint kbs,
                      Savings which, double *ss);

/** The COMPRESSION of a table as the data dictionary has it: 0 none, 1
zlib, 2 lz4 (INNODB_ZIP_PAGE_COMPRESSION_NAMES). */
uint32_t dd_page_compression(const dd::Table &tab);

/** Why an estimate has no figure for page compression (COMPRESSION='zlib'
or 'lz4'), in words for a DBA; nullptr if it has one. */
const char *page_unavailable_reason(const innodb_zip_estimate_t &e);

/** Bytes the pages in use of a table or partition take on disk now: of its
page size, or, if it is page-compressed now, what its file has allocated
less the free pages of the file (which a file keeps allocated). */
double current_bytes(const innodb_zip_estimate_t &e);

/** Savings in percent of page compression with a method.
@param[in]  e      the estimate
@param[in]  m      method: 0 zlib, 1 lz4 (INNODB_ZIP_PAGE_METHOD_NAMES)
@param[in]  which  TABLE, REBUILT and INSERTED are the same figure (the
                   pages of an uncompressed rebuild, each written
                   compressed) against full_pages; CURRENT_SIZE against
                   current_bytes()
@param[out] ss     the savings
@return false if there is no figure (page_unavailable_reason(), empty) */
bool page_savings(const innodb_zip_estimate_t &e, int m, Savings which,
                  double *ss);

/** CP_ss in percent: (1 - KEY_BLOCK_SIZE / page size) * 100. */
double expected_savings(uint kbs, uint logical_page_size);

/** Whether T_ss is delta-close to CP_ss (README.md, "SELECTIVE"). */
bool delta_close(double ss, double cp, double delta);

/** The SELECTIVE verdict.
@param is_compressed  whether the table is compressed now
@param have_ss        whether ss is known
@param empty          whether the table holds no records
@param ss             T_ss in percent (measured if compressed)
@param rebuilt_ss     T_ss a rebuild at the same size would have, or a
                      value below -100 if unknown
@param cp             CP_ss in percent
@param delta          delta
@param[out] closeness T_ss / CP_ss, or NaN if there is none (CP_ss 0, no T_ss)
@return the verdict */
const char *selective_verdict(bool is_compressed, bool have_ss, bool empty,
                              double ss, double rebuilt_ss, double cp,
                              double delta, double *closeness);

/** Store a point in time in a DATETIME field, in the session time zone. */
void store_time(THD *thd, Field *f, time_t t);

/** INFORMATION_SCHEMA.COMPRESSION_ESTIMATES. */
extern ST_FIELD_INFO estimate_fields[];
int fill_estimates(THD *thd, Table_ref *tables, Item *cond);

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_ESTIMATES_H
