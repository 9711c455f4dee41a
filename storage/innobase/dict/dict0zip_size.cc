/*****************************************************************************

Copyright (c) 2026, the mysql-compress authors.

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
51 Franklin St, Fifth Floor, Boston, MA 02110-1301  USA

*****************************************************************************/


/** @file dict/dict0zip_size.cc
 What a table occupies, for the readers of its compression statistics
 (include/dict0zip_size.h): the pages allocated to its indexes and the
 average record size of its clustered index, sampled and cached.

 Created 2026-11-21 (moved from handler/zip_stat_service.cc in issue 31) */

#include "dict0zip_size.h"

#include <chrono>
#include <ctime>

#include "btr0btr.h"
#include "btr0cur.h"
#include "dict0dict.h"
#include "dict0mem.h"
#include "dict0stats.h"
#include "dict0zip_stat.h"
#include "mtr0mtr.h"
#include "page0page.h"
#include "srv0srv.h"

namespace {

/** Count the pages allocated to all indexes of a table, as
dict_stats_update_transient() does for the index sizes. Reads the root page
and the segment inode pages of every index.
@param[in]  table  open table
@return number of pages, UINT64_MAX if they cannot be counted */
uint64_t dict_zip_size_count_pages(dict_table_t *table) {
  uint64_t total = 0;

  for (dict_index_t *index = table->first_index(); index != nullptr;
       index = index->next()) {
    /* The indexes dict_stats_should_ignore_index() skips. */
    if ((index->type & DICT_FTS) || index->is_corrupted() ||
        index->to_be_dropped) {
      continue;
    }
    mtr_t mtr;
    mtr_start(&mtr);
    mtr_s_lock(dict_index_get_lock(index), &mtr, UT_LOCATION_HERE);
    const ulint n = btr_get_size(index, BTR_TOTAL_SIZE, &mtr);
    mtr_commit(&mtr);
    if (n != ULINT_UNDEFINED) {
      total += n;
    }
  }
  return total;
}

/** Leaf pages of the clustered index sampled for the average record size. */
constexpr unsigned DICT_ZIP_SIZE_REC_SAMPLES = 8;

/** Age after which a cached average record size is sampled again. */
constexpr std::chrono::seconds DICT_ZIP_SIZE_REC_MAX_AGE{600};

/** Average size of a clustered index record in the uncompressed page
(headers included), from a few leaf pages at random positions, as
dict_stats does for its estimates.
@param[in]  table  table, open
@return bytes per record, 0 if the table is empty or cannot be read */
uint32_t dict_zip_size_sample_record_size(dict_table_t *table) {
  dict_index_t *index = table->first_index();

  if (index == nullptr || table->ibd_file_missing ||
      dict_table_is_discarded(table) || index->is_corrupted() ||
      srv_force_recovery >= SRV_FORCE_NO_IBUF_MERGE) {
    return 0;
  }

  uint64_t bytes = 0;
  uint64_t recs = 0;

  for (unsigned i = 0; i < DICT_ZIP_SIZE_REC_SAMPLES; i++) {
    mtr_t mtr;
    btr_cur_t cursor;
    mtr_start(&mtr);
    if (btr_cur_open_at_rnd_pos(index, BTR_SEARCH_LEAF, &cursor,
                                __FILE__, __LINE__, &mtr)) {
      const page_t *page = btr_cur_get_page(&cursor);
      bytes += page_get_data_size(page);
      recs += page_get_n_recs(page);
    }
    mtr_commit(&mtr);
  }

  return recs == 0 ? 0 : static_cast<uint32_t>(bytes / recs);
}

}  // namespace

uint64_t dict_zip_size_allocated_pages(dict_table_t *table, bool *from_stats) {
  *from_stats = false;
  if (table->ibd_file_missing || dict_table_is_discarded(table) ||
      srv_force_recovery >= SRV_FORCE_NO_IBUF_MERGE) {
    return UINT64_MAX;
  }

  if (!table->stat_initialized && dict_stats_is_persistent_enabled(table)) {
    dict_stats_init(table);
  }

  dict_table_stats_lock(table, RW_S_LATCH);
  const bool initialized = table->stat_initialized;
  const uint64_t from_statistics =
      static_cast<uint64_t>(table->stat_clustered_index_size) +
      table->stat_sum_of_other_index_sizes;
  dict_table_stats_unlock(table, RW_S_LATCH);

  if (initialized) {
    *from_stats = true;
    return from_statistics;
  }
  return dict_zip_size_count_pages(table);
}

uint32_t dict_zip_size_avg_record_size(dict_table_t *table, bool active,
                                       int64_t *wall) {
  const dict_index_t *clust = table->first_index();
  *wall = 0;
  if (clust == nullptr) {
    return 0;
  }

  using clock = std::chrono::steady_clock;
  const auto now = clock::now();
  uint32_t size = 0;
  int64_t steady = 0;
  const bool cached = dict_zip_stat_get_rec_size(clust, &size, &steady, wall);
  const auto sampled_at = clock::time_point(clock::duration(steady));

  if (cached) {
    dict_table_stats_lock(table, RW_S_LATCH);
    const auto recalc = table->stats_last_recalc;
    dict_table_stats_unlock(table, RW_S_LATCH);
    if (now - sampled_at < DICT_ZIP_SIZE_REC_MAX_AGE && recalc <= sampled_at) {
      return size;
    }
  }

  if (!active) {
    /* An idle table keeps its old sample, if any. */
    return cached ? size : 0;
  }

  size = dict_zip_size_sample_record_size(table);
  *wall = static_cast<int64_t>(time(nullptr));
  dict_zip_stat_set_rec_size(
      clust, size, static_cast<int64_t>(now.time_since_epoch().count()),
      *wall);
  return size;
}
