/*****************************************************************************

Copyright (c) 2026, the mysql-compress authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation.

This program is distributed in the hope that it will be useful, but WITHOUT
ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
FOR A PARTICULAR PURPOSE. See the GNU General Public License, version 2.0,
for more details.

*****************************************************************************/

/** @file include/dict0zip_opt.h
 Per-table compression options of ROW_FORMAT=COMPRESSED tables.

 A table (and each of its partitions) can carry its own zlib level,
 failure threshold and maximum padding, set by the user in ENGINE_ATTRIBUTE:

   ENGINE_ATTRIBUTE='{"compression_level": 1,
                      "compression_failure_threshold_pct": 10,
                      "compression_pad_pct_max": 25}'

 The data dictionary persists the attribute (the server stores it with the
 table); InnoDB keeps the parsed values in a lock-free hash keyed by table
 id, filled when a table is created, loaded into the dictionary cache or
 altered, and emptied when the table is dropped. A value that is not set
 follows the global variable (innodb_compression_level,
 innodb_compression_failure_threshold_pct, innodb_compression_pad_pct_max),
 read at each use, so a change of the global applies at once.

 The look-ups below run on the compression path and take no latch. While no
 table has an option of its own they cost one relaxed atomic load.

 Crash recovery needs no look-up: the redo records that make recovery
 recompress a page (MLOG_ZIP_PAGE_COMPRESS_NO_DATA, MLOG_ZIP_PAGE_REORGANIZE)
 carry the level that was used, which is now the table's own level.

 Created 2026-11-21 */

#ifndef dict0zip_opt_h
#define dict0zip_opt_h

#include "univ.i"

#include "dict0types.h"
#include "page0types.h"

struct dict_index_t;

/** Highest zlib level. */
constexpr int DICT_ZIP_OPT_LEVEL_MAX = 9;
/** Highest innodb_compression_failure_threshold_pct. */
constexpr int DICT_ZIP_OPT_THRESHOLD_MAX = 100;
/** Highest innodb_compression_pad_pct_max. */
constexpr int DICT_ZIP_OPT_PAD_MAX = 75;

/** The options of one table. A negative value means "not set: follow the
global variable". */
struct dict_zip_opt_t {
  /** zlib level, 0..9. */
  int m_level{-1};
  /** Failure threshold in percent, 0..100 (0 disables adaptive padding). */
  int m_failure_threshold_pct{-1};
  /** Maximum padding in percent of the page, 0..75. */
  int m_pad_pct_max{-1};

  /** @return whether no option is set */
  bool empty() const {
    return m_level < 0 && m_failure_threshold_pct < 0 && m_pad_pct_max < 0;
  }

  bool operator==(const dict_zip_opt_t &o) const {
    return m_level == o.m_level &&
           m_failure_threshold_pct == o.m_failure_threshold_pct &&
           m_pad_pct_max == o.m_pad_pct_max;
  }
};

/** Create the option map. Called once at start-up, with
dict_zip_stat_create(). */
void dict_zip_opt_create();

/** Free the option map at shutdown. */
void dict_zip_opt_free();

/** Set the options of a table, replacing the previous ones. Setting empty
options removes the table's entry.
@param[in]  table_id  table (or partition) id
@param[in]  opt       options */
void dict_zip_opt_set(table_id_t table_id, const dict_zip_opt_t &opt);

/** Get the options of a table. Lock-free.
@param[in]  table_id  table (or partition) id
@return the options; empty if none were set */
dict_zip_opt_t dict_zip_opt_get(table_id_t table_id);

/** Forget the options of a dropped table.
@param[in]  table_id  table (or partition) id */
void dict_zip_opt_forget(table_id_t table_id);

/** zlib level to compress a page of an index with: the table's own level,
else innodb_compression_level. Lock-free.
@param[in]  index  index; may be the dummy index of a change buffer merge,
                   whose table is then found through the page header
@param[in]  page   the page being compressed, or nullptr
@return level 0..9 */
ulint dict_index_zip_level(const dict_index_t *index,
                           const page_t *page = nullptr);

/** Failure threshold of the adaptive padding of an index: the table's own
value, else innodb_compression_failure_threshold_pct. Lock-free.
@param[in]  index  index (a dummy index gets the global value)
@return threshold in percent; 0 means no adaptive padding */
ulint dict_index_zip_failure_threshold_pct(const dict_index_t *index);

/** Maximum padding of an index: the table's own value, else
innodb_compression_pad_pct_max. Lock-free.
@param[in]  index  index (a dummy index gets the global value)
@return maximum pad in percent of the page */
ulint dict_index_zip_pad_pct_max(const dict_index_t *index);

#endif /* dict0zip_opt_h */
