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

#ifndef PLUGIN_COMPRESSION_STATS_CS_ADVICE_H
#define PLUGIN_COMPRESSION_STATS_CS_ADVICE_H

/**
  @file plugin/compression_stats/cs_advice.h
  The advice arithmetic of the plugin: the padding hint of a compressed
  table, the savings of an estimate at a KEY_BLOCK_SIZE or with page
  compression, CP_ss and the SELECTIVE verdict.

  Pure functions of the plain structures of the services
  (innodb_zip_table_stats_t, innodb_zip_estimate_t) and of numbers: no
  session, no table, no lock, no allocation, so that they can be tested
  without a server (cs_advice.cc compiles on its own with the two service
  headers).
*/

#include <mysql/components/services/innodb_compression_estimate.h>
#include <mysql/components/services/innodb_compression_stats.h>

#include <cstddef>
#include <cstdint>

/** Whether InnoDB filled a field of the statistics (older servers fill
less). */
#define CS_HAS(s, field) \
  ((s).size >= offsetof(innodb_zip_table_stats_t, field) + sizeof((s).field))

namespace compression_stats {

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
uint64_t compress_failures(uint64_t ops, uint64_t ok);

/** The padding hint of a compressed table; see docs/tuning.md, "Padding hint".
@param[in]   s         statistics of the table
@param[out]  width     PADDING_COLUMN_BYTES, or 0
@param[out]  kbs       SUGGESTED_KEY_BLOCK_SIZE in KB, or 0
@param[out]  free_pct  SUGGESTED_BULK_FREE_PCT, or 0
@return the hint */
const char *padding_hint(const innodb_zip_table_stats_t &s, uint64_t *width,
                         uint64_t *kbs, uint64_t *free_pct);

/** Size index (into innodb_zip_estimate_t::sizes) of a KEY_BLOCK_SIZE in
KB, or -1. */
int kbs_index(unsigned kbs);

/** The savings of an estimate (docs/estimator.md, "Which savings"). */
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

/** Pages of kbs KB a table or partition takes at that size.
@param[in]   e        its estimate
@param[in]   kbs      KEY_BLOCK_SIZE in KB
@param[in]   rebuilt  the estimate for a rebuild even if the table is
                      compressed at that size now
@param[out]  pages    the pages: measured (used now) for a table compressed
                      at that size unless rebuilt, else estimated
@return false if there is no figure (empty, size impossible) */
bool compressed_pages(const innodb_zip_estimate_t &e, unsigned kbs,
                      bool rebuilt, double *pages);

/** Formula (1): savings in percent of pages of kbs KB against
uncompressed pages of logical bytes (full_pages, the baseline). */
double savings_pct(double pages, unsigned kbs, double uncompressed_pages,
                   unsigned logical);

/** Savings in percent of an estimate at a KEY_BLOCK_SIZE.
@param[in]  e      the estimate
@param[in]  kbs    KEY_BLOCK_SIZE in KB
@param[in]  which  which savings
@param[out] ss     the savings
@return false if there is no figure (empty table, size impossible, an
estimate without that figure) */
bool estimate_savings(const innodb_zip_estimate_t &e, unsigned kbs,
                      Savings which, double *ss);

/** Why an estimate has no figure for page compression (COMPRESSION='zlib'
or 'lz4'), in words for a DBA; nullptr if it has one. */
const char *page_unavailable_reason(const innodb_zip_estimate_t &e);

/** Bytes the pages in use of a table or partition take on disk now: of its
page size, or, if it is page-compressed now, what its file has allocated
less what its free pages have allocated: measured by the engine
(file_free_measured; holes with innodb_page_compression_sparse), else
taken as whole pages, as upstream keeps them. */
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

/** Bytes allocated on disk to the file a conversion to page compression
leaves (ALTER TABLE ... COMPRESSION=...; OPTIMIZE TABLE): the pages of
page_savings() (B-tree and BLOB pages, each rounded up to blocks), page 0
whole (never compressed), the other pages that belong to no index a block
each, and the free pages the file keeps: holes with
innodb_page_compression_sparse=ON, whole pages with OFF (or upstream).
@param[in]  e       the estimate
@param[in]  m       method: 0 zlib, 1 lz4
@param[in]  sparse  whether free pages are holes
@param[out] bytes   the bytes
@return false if there is no figure (page_savings() has none, or the
rebuilt file was not estimated: a shared tablespace, an older estimate) */
bool page_file_bytes(const innodb_zip_estimate_t &e, int m, bool sparse,
                     double *bytes);

/** Bytes allocated on disk to the file of a table compressed at a
KEY_BLOCK_SIZE: the file now if the table is compressed at that size
(MEASURED), else the file a rebuild at that size leaves: its pages, those
that belong to no index and the free pages it keeps, all of kbs KB (a
ROW_FORMAT=COMPRESSED file is never punched).
@param[in]  e      the estimate
@param[in]  kbs    KEY_BLOCK_SIZE in KB
@param[out] bytes  the bytes
@return false if there is no figure */
bool kbs_file_bytes(const innodb_zip_estimate_t &e, unsigned kbs,
                    double *bytes);

/** CP_ss in percent: (1 - KEY_BLOCK_SIZE / page size) * 100. */
double expected_savings(unsigned kbs, unsigned logical_page_size);

/** Whether T_ss is delta-close to CP_ss (docs/estimator.md, "SELECTIVE"). */
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

}  // namespace compression_stats

#endif  // PLUGIN_COMPRESSION_STATS_CS_ADVICE_H
