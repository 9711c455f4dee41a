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

/** @file dict/dict0zip_log.cc
 The adaptive reserve for the modification log of compressed pages
 (dict0zip_log.h).

 Created 2026-11-23 */

#include "dict0zip_log.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "current_thd.h"
#include "debug_sync.h"
#include "dict0mem.h"
#include "dict0zip_opt.h"
#include "dict0zip_stat.h"
#include "page0zip.h"
#include "sync0rw.h"

namespace {

/** The highest reserve of an index, in bytes.
@param[in]  index     index
@param[in]  zip_size  compressed page size in bytes
@return bytes */
ulint dict_index_zip_log_reserve_max(const dict_index_t *index,
                                     ulint zip_size) {
  return zip_size * dict_index_zip_log_reserve_pct_max(index) / 100;
}

}  // namespace

ulint dict_index_zip_log_reserve(const dict_index_t *index, ulint zip_size) {
  /* The common case, a reserve that never grew: one relaxed load. */
  const ulint r = index->zip_log.bytes.load(std::memory_order_relaxed);
  if (r == 0 || dict_index_zip_log_reorg_threshold_pct(index) == 0) {
    return 0;
  }
  /* A lowered maximum applies at once. */
  return std::min(r, dict_index_zip_log_reserve_max(index, zip_size));
}

namespace {

/** Whether this thread holds the latch of an index in X or SX mode, as
the MODIFY_TREE pass of an insert does (the MODIFY_LEAF pass does not).
@param[in]  index  index
@return true if so */
bool zip_log_tree_latched(const dict_index_t *index) {
  const rw_lock_t *lock = &index->lock;
  return rw_lock_get_writer(lock) != RW_LOCK_NOT_LOCKED &&
         lock->writer_thread.load(std::memory_order_relaxed) ==
             std::this_thread::get_id();
}

}  // namespace

bool dict_index_zip_log_admits(dict_index_t *index,
                               const page_zip_des_t *page_zip,
                               ulint rec_size) {
  /* Note that the round saw an insert: only pages that inserts fill can
  keep a reserve. A load, and a store only once per round. */
  std::atomic<uint32_t> &events = index->zip_log.n_log_full;
  if (!(events.load(std::memory_order_relaxed) & DICT_ZIP_LOG_INSERTED)) {
    events.fetch_or(DICT_ZIP_LOG_INSERTED, std::memory_order_relaxed);
  }
  const ulint r = dict_index_zip_log_reserve(index, page_zip_get_size(page_zip));
  if (r == 0 ||
      page_zip_available(page_zip, index->is_clustered(), rec_size + r, true)) {
    return true;
  }
  if (zip_log_tree_latched(index)) {
    /* The MODIFY_TREE pass, which splits: the refusal counts once. */
    dict_zip_stat_add(index, DICT_ZIP_STAT_LOG_RESERVE_REFUSALS, 1);
  }
  return false;
}

namespace {

/** The threshold of an index for the reserve's rounds, 0 if it has none.
@param[in]  index  index
@return log-full recompressions per 100 updates */
ulint dict_index_zip_log_threshold(const dict_index_t *index) {
  if (index->table == nullptr || index->table->id == 0) {
    /* The dummy index of a change buffer merge. */
    return 0;
  }
  return dict_index_zip_log_reorg_threshold_pct(index);
}

}  // namespace

void dict_index_zip_log_full(dict_index_t *index,
                             const page_zip_des_t *page_zip) {
  if (dict_index_zip_log_threshold(index) == 0) {
    return;
  }
  zip_log_reserve_info_t &z = index->zip_log;
  /* Only a page that keeps the reserve after its recompression shows that
  the reserve is too small. */
  const lint room = page_zip_max_ins_size(page_zip, index->is_clustered());
  if (room >= lint(z.bytes.load(std::memory_order_relaxed))) {
    z.n_log_full.fetch_add(1, std::memory_order_relaxed);
  }
}

void dict_index_zip_log_update(dict_index_t *index,
                               const page_zip_des_t *page_zip) {
  const ulint threshold = dict_index_zip_log_threshold(index);
  if (threshold == 0) {
    return;
  }
  zip_log_reserve_info_t &z = index->zip_log;

  /* Exactly one thread sees each round end: the one whose increment
  reaches a multiple of the round length. The counter is never reset (a
  check for == ZIP_PAD_ROUND_LEN followed by a subtraction missed the round
  for ever when other updates landed in between), and it wraps at 2^32,
  which ZIP_PAD_ROUND_LEN divides. */
  static_assert((uint64_t{1} << 32) % ZIP_PAD_ROUND_LEN == 0);
  const uint32_t n = z.n_updates.fetch_add(1, std::memory_order_relaxed) + 1;
  if (n % ZIP_PAD_ROUND_LEN != 0) {
    return;
  }
  /* Updates of other threads may land here, before the round's events are
  taken: a debug test (compress.log_reserve_round) holds a thread here. */
  DEBUG_SYNC_C("zip_log_round_end");
  const uint32_t events = z.n_log_full.exchange(0, std::memory_order_relaxed);
  const bool inserted = (events & DICT_ZIP_LOG_INSERTED) != 0;
  const ulint full = events & ~DICT_ZIP_LOG_INSERTED;

  const ulint zip_size = page_zip_get_size(page_zip);
  const uint32_t step = uint32_t(zip_size / DICT_ZIP_LOG_STEP_DIV);
  const ulint max = dict_index_zip_log_reserve_max(index, zip_size);
  uint32_t before = z.bytes.load(std::memory_order_relaxed);
  uint32_t after = before;

  if (inserted && full * 100 > threshold * ZIP_PAD_ROUND_LEN) {
    /* A bad round: grow by one step, up to the maximum. A round without
    an insert is never bad: no reserve could have kept room in pages that
    no insert filled (a table filled by its load and then only updated). */
    z.n_good_rounds.store(0, std::memory_order_relaxed);
    if (before + step <= max) {
      after = before + step;
    }
  } else if (z.n_good_rounds.fetch_add(1, std::memory_order_relaxed) + 1 >=
             ZIP_PAD_SUCCESSFUL_ROUND_LIMIT) {
    /* Enough good rounds in a row: give one step back. */
    z.n_good_rounds.store(0, std::memory_order_relaxed);
    if (before >= step) {
      after = before - step;
    }
  }

  if (after != before &&
      z.bytes.compare_exchange_strong(before, after,
                                      std::memory_order_relaxed)) {
    dict_zip_stat_log_reserve_changed(index, before, after);
  }
}
