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

/** @file include/dict0zip_stat.h
 Always-on compression statistics of every index of a ROW_FORMAT=COMPRESSED
 table.

 Upstream keeps per-index compression statistics only when
 innodb_cmp_per_index_enabled=ON, because every update takes the global
 page_zip_stat_per_index_mutex. These counters are always on and cost no
 mutex on the compression path: each index owns a dict_zip_stat_t whose
 counters are relaxed atomics. The cached index object points to it
 (dict_index_t::zip_stat), so compressions, splits, reorganizations and pad
 changes reach it with one load. page_zip_decompress() and the dummy index
 of a change buffer merge know only the space and index id from the page
 header: for them the entries are also found through a lock-free hash
 (ut_lock_free_hash_t, as buf_stat_per_index does for
 INNODB_CACHED_INDEXES) keyed by index_id_t. Keys never change: index ids
 are never reused, and DISCARD/IMPORT TABLESPACE keeps the space and index
 ids (only the table id changes).

 Life cycle of an entry:
 - registered when an index of a compressed table enters the dictionary
   cache: dict_index_add_to_cache() for indexes being created (CREATE TABLE,
   ADD INDEX, TRUNCATE, rebuilds), dict_table_add_to_cache() for tables
   loaded from the data dictionary (their index ids are set only just before
   that); registering a known index only refreshes its names;
 - kept whenever a table or index leaves the dictionary cache (LRU eviction,
   reload after DDL, partition DDL on other partitions): leaving the cache is
   never taken as a drop; the index object's pointer is cleared;
 - removed when the index really goes away: row_drop_table_for_mysql()
   (DROP TABLE, TRUNCATE, the old copy of a rebuild, dropped partitions)
   drops the entries of the table's indexes and clears their pointers; a
   sweep drops entries of uncached indexes whose tablespace no longer exists
   (file-per-table drops, also those finished by the DDL log) and, while
   reading INFORMATION_SCHEMA, entries of uncached indexes whose cached table
   no longer has them (DROP INDEX, a rolled back ADD INDEX). An entry a
   cached index points to is never dropped by a sweep (a discarded
   tablespace of a cached table comes back with IMPORT);
 - all entries start from zero at server start (nothing is persisted).

 Entries are never freed while the server runs: a dropped entry goes to a
 free list and is reused by the next registration, so a thread that looked
 the entry up just before the drop can at worst add one event to the reused
 entry; it can never touch freed memory.

 Latching: the registry mutex (LATCH_ID_ZIP_STAT_REGISTRY, shown in
 performance_schema as wait/synch/mutex/innodb/zip_stat_registry_mutex)
 protects the identity fields (names, table id), the membership of entries
 and the index objects' pointers to them. It has the level of upstream's
 page_zip_stat_per_index_mutex (SYNC_PAGE_ZIP_STAT): it is acquired after
 dict_sys->mutex and never held while acquiring dict_sys, and, like
 page_zip_stat_per_index_mutex, it may be acquired while page latches are
 held (dict_zip_stat_with_index(), when a change buffer merge recompresses
 a page). The counters themselves are read and updated without it.

 Created 2026-11-21 */

#ifndef dict0zip_stat_h
#define dict0zip_stat_h

#include "univ.i"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dict0types.h"
#include "page0types.h"

struct dict_index_t;
struct dict_table_t;

/** The counters kept per index. */
enum dict_zip_stat_counter_t : unsigned {
  /** Calls of page_zip_compress() on a page of the index. */
  DICT_ZIP_STAT_COMPRESS_OPS = 0,
  /** Calls of page_zip_compress() that fitted the compressed page. */
  DICT_ZIP_STAT_COMPRESS_OK,
  /** Microseconds spent in page_zip_compress(), failed calls included. */
  DICT_ZIP_STAT_COMPRESS_USECS,
  /** Successful calls of page_zip_decompress() on a page of the index. */
  DICT_ZIP_STAT_UNCOMPRESS_OPS,
  /** Microseconds spent in page_zip_decompress(). */
  DICT_ZIP_STAT_UNCOMPRESS_USECS,
  /** B-tree page splits of a compressed page whose record would have
  fitted the uncompressed page after a reorganization: splits that only
  compression (a failed compression, or the adaptive padding that avoids
  one) made necessary. */
  DICT_ZIP_STAT_SPLITS,
  /** Reorganizations of a compressed page outside recovery: InnoDB
  rebuilds and recompresses the whole page when a change no longer fits
  the free space or the modification log of the compressed page. */
  DICT_ZIP_STAT_REORGS,
  /** Times the adaptive padding of the index grew by ZIP_PAD_INCR bytes
  (a round of ZIP_PAD_ROUND_LEN compressions failed more often than
  innodb_compression_failure_threshold_pct). */
  DICT_ZIP_STAT_PAD_INCREMENTS,
  /** Times it shrank again (after ZIP_PAD_SUCCESSFUL_ROUND_LIMIT good
  rounds). */
  DICT_ZIP_STAT_PAD_DECREMENTS,
  /** Redo records holding a whole compressed page image
  (MLOG_ZIP_PAGE_COMPRESS), written for the index. */
  DICT_ZIP_STAT_REDO_IMAGES,
  /** Redo bytes of those records. */
  DICT_ZIP_STAT_REDO_IMAGE_BYTES,
  /** DICT_ZIP_STAT_REORGS by cause (dict_zip_reorg_cause_t, in its
  order): reorganizations that no cause named (a page with only deleted
  space to reclaim, a merge, an R-tree node pointer) ... */
  DICT_ZIP_STAT_REORGS_OTHER,
  /** ... an update found no room in the modification log of the
  compressed page ... */
  DICT_ZIP_STAT_REORGS_LOG_UPDATE,
  /** ... an insert found no room in it ... */
  DICT_ZIP_STAT_REORGS_LOG_INSERT,
  /** ... and the compression of a page being filled by a split, a merge
  or a root raise failed. */
  DICT_ZIP_STAT_REORGS_COMPRESS_FAILED,
  /** Microseconds spent in those reorganizations, by cause in the same
  order; the recompression inside is also in COMPRESS_USECS. */
  DICT_ZIP_STAT_REORG_USECS_OTHER,
  DICT_ZIP_STAT_REORG_USECS_LOG_UPDATE,
  DICT_ZIP_STAT_REORG_USECS_LOG_INSERT,
  DICT_ZIP_STAT_REORG_USECS_COMPRESS_FAILED,
  /** Updates of records in compressed pages that found room in the
  page, after a reorganization or without one. */
  DICT_ZIP_STAT_UPDATES,
  /** Times the log reserve of the index grew by one step, and shrank
  (dict0zip_log.h). */
  DICT_ZIP_STAT_LOG_RESERVE_INCREMENTS,
  DICT_ZIP_STAT_LOG_RESERVE_DECREMENTS,
  /** Inserts that the log reserve sent to a page split. */
  DICT_ZIP_STAT_LOG_RESERVE_REFUSALS,
  /** Number of counters. */
  DICT_ZIP_STAT_N_COUNTERS
};

/** Why a compressed page is being reorganized (recompressed). */
enum dict_zip_reorg_cause_t : unsigned {
  /** None of the causes below. */
  DICT_ZIP_REORG_OTHER = 0,
  /** The modification log had no room for an updated record. */
  DICT_ZIP_REORG_LOG_UPDATE,
  /** The modification log had no room for an inserted record. */
  DICT_ZIP_REORG_LOG_INSERT,
  /** A page being filled by a split, merge or root raise did not
  compress. */
  DICT_ZIP_REORG_COMPRESS_FAILED,
  DICT_ZIP_REORG_N_CAUSES
};

static_assert(unsigned(DICT_ZIP_STAT_REORGS_COMPRESS_FAILED) -
                      unsigned(DICT_ZIP_STAT_REORGS_OTHER) + 1 ==
                  unsigned(DICT_ZIP_REORG_N_CAUSES),
              "one REORGS counter per cause");
static_assert(unsigned(DICT_ZIP_STAT_REORG_USECS_OTHER) ==
                  unsigned(DICT_ZIP_STAT_REORGS_OTHER) +
                      unsigned(DICT_ZIP_REORG_N_CAUSES),
              "one REORG_USECS counter per cause");

/** True while this thread runs trial compressions, whose result nobody
keeps: the savings estimator's, and those of the bulk loader's tight split
(btr0load.cc). page_zip_compress() then leaves INNODB_CMP (its counts go to
dict_zip_trial_sink), INNODB_CMP_PER_INDEX, the per-table counters of this
registry (dict_zip_stat_add() of an index object), the monitor counter, the
codec counters and the adaptive padding of the index alone. Here, with the
counters, so that every module that counts sees it without depending on
those that run trials. */
extern thread_local bool dict_zip_trial;

/** Where page_zip_compress() counts a trial compression: nowhere that
anybody reads. */
extern thread_local page_zip_stat_t dict_zip_trial_sink;

/** Marks the compressions of a scope as trials (dict_zip_trial). */
class dict_zip_trial_scope {
 public:
  dict_zip_trial_scope() : m_was(dict_zip_trial) { dict_zip_trial = true; }
  ~dict_zip_trial_scope() { dict_zip_trial = m_was; }
  dict_zip_trial_scope(const dict_zip_trial_scope &) = delete;
  dict_zip_trial_scope &operator=(const dict_zip_trial_scope &) = delete;

 private:
  /** The flag before the scope. */
  const bool m_was;
};

/** The cause of the reorganizations that the current thread starts;
DICT_ZIP_REORG_OTHER outside a dict_zip_reorg_cause_scope. A thread-local
keeps the cause out of the signatures of btr_page_reorganize() and
page_zip_reorganize() and their callers. */
extern thread_local dict_zip_reorg_cause_t dict_zip_reorg_cause;

/** Names the cause of the reorganizations started while it lives. The
outermost scope wins: a record reinserted by a pessimistic update counts
as the update it is. Set only on the branches that reorganize. */
class dict_zip_reorg_cause_scope {
 public:
  /** @param[in]  cause  cause, DICT_ZIP_REORG_OTHER to name none */
  explicit dict_zip_reorg_cause_scope(dict_zip_reorg_cause_t cause)
      : m_set(cause != DICT_ZIP_REORG_OTHER &&
              dict_zip_reorg_cause == DICT_ZIP_REORG_OTHER) {
    if (m_set) {
      dict_zip_reorg_cause = cause;
    }
  }
  ~dict_zip_reorg_cause_scope() {
    if (m_set) {
      dict_zip_reorg_cause = DICT_ZIP_REORG_OTHER;
    }
  }
  dict_zip_reorg_cause_scope(const dict_zip_reorg_cause_scope &) = delete;
  dict_zip_reorg_cause_scope &operator=(const dict_zip_reorg_cause_scope &) =
      delete;

 private:
  /** Whether this scope set the cause. */
  const bool m_set;
};

/** Counts one reorganization of a compressed page (DICT_ZIP_STAT_REORGS
and the counter of the current cause) when created, and the time until it
is destroyed. Lock-free. */
class dict_zip_reorg_timer {
 public:
  /** @param[in]  index  index of the page, nullptr to count nothing
                         (recovery) */
  explicit dict_zip_reorg_timer(const dict_index_t *index);
  ~dict_zip_reorg_timer();
  dict_zip_reorg_timer(const dict_zip_reorg_timer &) = delete;
  dict_zip_reorg_timer &operator=(const dict_zip_reorg_timer &) = delete;

 private:
  /** Index, or nullptr. */
  const dict_index_t *m_index;
  /** Cause at the start. */
  dict_zip_reorg_cause_t m_cause;
  /** Start, std::chrono::steady_clock ticks. */
  int64_t m_start;
};

/** A consistent copy of one index's entry, for INFORMATION_SCHEMA. */
struct dict_zip_stat_snapshot_t {
  /** Space and index id. */
  index_id_t m_id{0, 0};
  /** Table (or partition) id, as in dict_table_t::id. */
  table_id_t m_table_id{0};
  /** Table name in the dictionary ("db/t" or "db/t#p#p0"), as last seen
  in the dictionary cache. */
  std::string m_table_name;
  /** Index name. */
  std::string m_index_name;
  /** Whether this is the clustered (primary) index. */
  bool m_clustered{false};
  /** Whether the table is an auxiliary table of a FULLTEXT index. */
  bool m_fts_aux{false};
  /** Physical (compressed) page size in bytes. */
  uint32_t m_zip_size{0};
  /** Current adaptive padding of the index in bytes (not a counter: a
  reset leaves it). */
  uint64_t m_pad{0};
  /** Current log reserve of the index in bytes (dict0zip_log.h; not a
  counter). */
  uint64_t m_log_reserve{0};
  /** Counter values. */
  uint64_t m_counters[DICT_ZIP_STAT_N_COUNTERS]{};
};

/** Create the registry. Called once at InnoDB start-up, before any table
is loaded into the dictionary cache. */
void dict_zip_stat_create();

/** Free the registry. Called at shutdown, after the dictionary cache has
been closed. */
void dict_zip_stat_free();

/** Attach statistics to an index that enters the dictionary cache. Creates
the entry if the index is not known yet, refreshes its names otherwise.
Does nothing unless the table is ROW_FORMAT=COMPRESSED.
Points index->zip_stat to the entry.
@param[in,out]  index  index that was added to the dictionary cache */
void dict_zip_stat_register(dict_index_t *index);

/** Attach statistics to all indexes of a table that enters the dictionary
cache. @see dict_zip_stat_register()
@param[in,out]  table  table added to the dictionary cache */
void dict_zip_stat_register_table(dict_table_t *table);

/** Note that an index leaves the dictionary cache. Its counters are kept;
the entry remembers the latest name and id of its table, and the index no
longer points to it.
@param[in,out]  index  index being removed from the cache */
void dict_zip_stat_evict(dict_index_t *index);

/** Discard the counters of all indexes of a dropped table.
@param[in,out]  table  the dropped table, still in the cache */
void dict_zip_stat_drop_table(dict_table_t *table);

/** Discard the counters of indexes that no longer exist.
@param[in]  ids  space and index ids */
void dict_zip_stat_drop_indexes(const std::vector<index_id_t> &ids);

/** Add to a counter of an index. Lock-free; does nothing for an index
without an entry (not compressed, not registered).
@param[in]  id       space and index id
@param[in]  counter  which counter
@param[in]  n        amount to add */
void dict_zip_stat_add(const index_id_t &id, dict_zip_stat_counter_t counter,
                       uint64_t n);

/** Add to a counter of an index. Lock-free.
@param[in]  index    index
@param[in]  counter  which counter
@param[in]  n        amount to add */
void dict_zip_stat_add(const dict_index_t *index,
                       dict_zip_stat_counter_t counter, uint64_t n);

/** Note a change of the adaptive padding of an index. Called under the
index's zip_pad mutex, only when the pad changed. Lock-free.
@param[in]  index   index (a dummy index of recovery or of a change buffer
                    merge is ignored)
@param[in]  before  pad before the update, in bytes
@param[in]  after   pad after the update, in bytes */
void dict_zip_stat_pad_changed(const dict_index_t *index, ulint before,
                               ulint after);

/** Note a change of the log reserve of an index (dict0zip_log.h).
Lock-free.
@param[in]  index   index
@param[in]  before  reserve before, in bytes
@param[in]  after   reserve after, in bytes */
void dict_zip_stat_log_reserve_changed(const dict_index_t *index,
                                       ulint before, ulint after);

/** Count a redo record holding a compressed page image. Lock-free.
@param[in]  index  index of the page (a dummy index of a change buffer
                   merge is resolved through the page header)
@param[in]  page   the uncompressed page
@param[in]  bytes  size of the redo record */
void dict_zip_stat_redo_image(const dict_index_t *index, const byte *page,
                              uint64_t bytes);

/** Call a function on the cached index object of an index known by its
ids only (the dummy index of a change buffer merge knows the ids of the
page header): the entry of those ids is found lock-free, then, under the
registry mutex, which dict_zip_stat_evict() takes before an index leaves
the cache, the index it points to is passed to f. Nothing is called for
an index without an entry or that is not in the dictionary cache.
@param[in]  id  space and index id from a page header
@param[in]  f   called with the cached index, under the registry mutex:
                it must not take latches nor call back into the registry
@return whether f was called */
bool dict_zip_stat_with_index(
    const index_id_t &id, const std::function<void(const dict_index_t &)> &f);

/** Redo records with compressed page images written since start-up.
@param[out] images  number of records
@param[out] bytes   their bytes */
void dict_zip_stat_redo_totals(uint64_t &images, uint64_t &bytes);

/** Copy all entries.
@param[in]  reset  whether to reset each counter to zero as it is read
@return one snapshot per registered index */
std::vector<dict_zip_stat_snapshot_t> dict_zip_stat_snapshot(bool reset);

/** Sum the counters of one open table (or partition), through its index
objects: no latch, no look-up. Successes never exceed attempts.
@param[in]  table      table, open (the caller holds a reference and a
                       metadata lock, so its index list cannot change)
@param[out] primary    counters of the clustered index
@param[out] secondary  sum of the counters of the secondary indexes
@return number of indexes found */
size_t dict_zip_stat_get_table(const dict_table_t *table,
                               uint64_t primary[DICT_ZIP_STAT_N_COUNTERS],
                               uint64_t secondary[DICT_ZIP_STAT_N_COUNTERS]);

/** Read the average record size that an INFORMATION_SCHEMA reader cached
for an index (dict_zip_stat_set_rec_size()), so that a monitoring query
does not dive into the index every time. Lock-free.
@param[in]   index   index, open
@param[out]  size    bytes per record
@param[out]  steady  when sampled, std::chrono::steady_clock ticks
@param[out]  wall    when sampled, seconds since the epoch
@return false if the index has no entry or nothing is cached */
bool dict_zip_stat_get_rec_size(const dict_index_t *index, uint32_t *size,
                                int64_t *steady, int64_t *wall);

/** Cache the average record size of an index with the time it was
sampled. Lock-free; a no-op for an index without an entry.
@param[in]  index   index, open
@param[in]  size    bytes per record, 0 to forget the sample
@param[in]  steady  when sampled, std::chrono::steady_clock ticks
@param[in]  wall    when sampled, seconds since the epoch */
void dict_zip_stat_set_rec_size(const dict_index_t *index, uint32_t size,
                                int64_t steady, int64_t wall);

#endif /* dict0zip_stat_h */
