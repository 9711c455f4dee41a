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

/** @file dict/dict0zip_stat.cc
 Always-on compression statistics of every index of a ROW_FORMAT=COMPRESSED
 table. See include/dict0zip_stat.h for the design.

 Created 2026-11-21 */

#include "dict0zip_stat.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>

#include "dict0dict.h"
#include "dict0mem.h"
#include "fil0fil.h"
#include "fsp0fsp.h"
#include "fsp0sysspace.h"
#include "sync0types.h"
#include "btr0btr.h"
#include "page0page.h"
#include "ut0counter.h"
#include "ut0lock_free_hash.h"
#include "ut0mutex.h"
#include "ut0new.h"

/** Statistics of one index. Cache-line aligned so that two indexes being
compressed by different threads do not share a line. Declared in dict0mem.h
(dict_index_t::zip_stat points to it). */
struct alignas(ut::INNODB_CACHE_LINE_SIZE) dict_zip_stat_t {
  /** The counters; updated with relaxed atomics, no latch. */
  std::atomic<uint64_t> m_counters[DICT_ZIP_STAT_N_COUNTERS];

  /** The fields below are protected by dict_zip_stat_sys_t::m_mutex. */

  /** Space and index id. */
  index_id_t m_id{0, 0};
  /** Table id when the entry was last registered or read, 0 while the
  entry is free (the id changes with DISCARD TABLESPACE). */
  std::atomic<table_id_t> m_table_id{0};
  /** Dictionary name of the table when last seen in the cache. */
  std::string m_table_name;
  /** Index name. */
  std::string m_index_name;
  /** Whether the index is clustered. */
  bool m_clustered{false};
  /** Whether the table is an auxiliary table of a FULLTEXT index. */
  bool m_fts_aux{false};
  /** Physical page size. */
  uint32_t m_zip_size{0};
  /** The cached index object whose zip_stat points here, nullptr while
  the index is not in the dictionary cache. An entry that an index object
  points to is never discarded by a sweep; it is discarded together with
  the pointer (dict_zip_stat_drop_table) or after the index left the
  cache. */
  const dict_index_t *m_index{nullptr};
  /** Current adaptive padding in bytes, mirrored from
  dict_index_t::zip_pad.pad so that it can be read without the index. */
  std::atomic<uint64_t> m_pad{0};
  /** Mirror of the index's log reserve (dict_index_t::zip_log). */
  std::atomic<uint64_t> m_log_reserve{0};
  /** Average record size of the index's leaf pages in bytes, cached by
  INFORMATION_SCHEMA readers (dict_zip_stat_set_rec_size()); 0 = none.
  Not cleared by a counter reset: it is a sample, not a count. */
  std::atomic<uint32_t> m_rec_size{0};
  /** When m_rec_size was sampled: std::chrono::steady_clock ticks. */
  std::atomic<int64_t> m_rec_size_steady{0};
  /** When m_rec_size was sampled: seconds since the epoch. */
  std::atomic<int64_t> m_rec_size_wall{0};

  dict_zip_stat_t() { clear(); }

  /** Zero all counters. */
  void clear() {
    for (auto &c : m_counters) {
      c.store(0, std::memory_order_relaxed);
    }
  }
};

namespace {

/** Number of entries below which no sweep is attempted on registration. */
constexpr size_t DICT_ZIP_STAT_SWEEP_MIN = 1024;

/** The registry of all entries. */
struct dict_zip_stat_sys_t {
  dict_zip_stat_sys_t() {
    m_map = ut::new_withkey<ut_lock_free_hash_t>(UT_NEW_THIS_FILE_PSI_KEY,
                                                 1024, false);
    /* Its own latch id and performance_schema key
    (wait/synch/mutex/innodb/zip_stat_registry_mutex), at the level of
    page_zip_stat_per_index_mutex, whose role this registry plays for the
    always-on counters; the two are never held together. */
    mutex_create(LATCH_ID_ZIP_STAT_REGISTRY, &m_mutex);
  }

  ~dict_zip_stat_sys_t() {
    mutex_free(&m_mutex);
    ut::delete_(m_map);
    for (auto &it : m_entries) {
      ut::aligned_delete(it.second);
    }
    for (auto *e : m_free) {
      ut::aligned_delete(e);
    }
  }

  dict_zip_stat_sys_t(const dict_zip_stat_sys_t &) = delete;
  dict_zip_stat_sys_t &operator=(const dict_zip_stat_sys_t &) = delete;

  /** Discard one entry. The caller holds m_mutex.
  @param[in]  it  entry in m_entries
  @return the next entry */
  std::unordered_map<uint64_t, dict_zip_stat_t *>::iterator drop(
      std::unordered_map<uint64_t, dict_zip_stat_t *>::iterator it) {
    dict_zip_stat_t *e = it->second;
    m_map->del(it->first);
    e->m_table_id = 0;
    e->m_index = nullptr;
    e->m_rec_size.store(0, std::memory_order_relaxed);
    m_free.push_back(e);
    return m_entries.erase(it);
  }

  /** Discard the entries whose tablespace no longer exists: dropped
  file-per-table tables and partitions, however the drop was finished.
  Entries of cached indexes are kept (a discarded tablespace of a table
  that is still cached comes back with IMPORT TABLESPACE, and the index
  object points to its entry). The caller holds m_mutex. */
  void sweep() {
    for (auto it = m_entries.begin(); it != m_entries.end();) {
      if (it->second->m_index != nullptr) {
        ++it;
        continue;
      }
      fil_space_t *space = fil_space_acquire_silent(it->second->m_id.m_space_id);
      if (space == nullptr) {
        it = drop(it);
      } else {
        fil_space_release(space);
        ++it;
      }
    }
    m_sweep_at = std::max(DICT_ZIP_STAT_SWEEP_MIN, 2 * m_entries.size());
  }

  /** Lock-free lookup: index_id_t::conv_to_int() -> dict_zip_stat_t*. */
  ut_lock_free_hash_t *m_map;
  /** Protects m_entries, m_free, m_sweep_at, the identity fields of
  entries and dict_index_t::zip_stat of registered indexes. */
  ib_mutex_t m_mutex;
  /** All live entries, for iteration and registration. */
  std::unordered_map<uint64_t, dict_zip_stat_t *> m_entries;
  /** Entries of dropped indexes, reused by the next registrations. */
  std::vector<dict_zip_stat_t *> m_free;
  /** Sweep when a registration finds this many entries: keeps the
  registry bounded even if INFORMATION_SCHEMA is never read. */
  size_t m_sweep_at{DICT_ZIP_STAT_SWEEP_MIN};
};

/** Redo records with compressed page images and their bytes, all tables:
sharded counters, no shared cache line on the logging path. */
ib_counter_t<uint64_t> dict_zip_stat_redo_images_total;
ib_counter_t<uint64_t> dict_zip_stat_redo_bytes_total;

/** The registry, nullptr before start-up and after shutdown. Published
with release/acquire: I/O threads that decompress pages may run before
dict_init() creates it. */
std::atomic<dict_zip_stat_sys_t *> dict_zip_stat_sys{nullptr};

/** Whether an index id can be a key of the lock-free hash: not the change
buffer, not a temporary or system tablespace (compressed tables never live
there), not an index whose id is not assigned yet (indexes being loaded from
the data dictionary, and the dummy indexes of redo recovery, have id 0), and
small enough for index_id_t::conv_to_int().
@param[in]  id  space and index id
@return true if the id can be tracked */
bool dict_zip_stat_trackable(const index_id_t &id) {
  return id.m_index_id != 0 && id.m_space_id != 0 && !id.is_ibuf() &&
         !fsp_is_system_or_temp_tablespace(id.m_space_id) &&
         (id.m_index_id & 0xFFFFFFFF00000000ULL) == 0;
}

/** Look up an entry without any latch.
@param[in]  id  space and index id
@return entry or nullptr */
dict_zip_stat_t *dict_zip_stat_lookup(const index_id_t &id) {
  dict_zip_stat_sys_t *sys = dict_zip_stat_sys.load(std::memory_order_acquire);
  if (sys == nullptr || !dict_zip_stat_trackable(id)) {
    return nullptr;
  }
  const int64_t v = sys->m_map->get(id.conv_to_int());
  if (v == ut_lock_free_hash_t::NOT_FOUND) {
    return nullptr;
  }
  return reinterpret_cast<dict_zip_stat_t *>(static_cast<intptr_t>(v));
}

/** Read the counters of an entry so that successes never exceed attempts:
page_zip_compress() counts the attempt before the success, so reading
the successes first sees at most the attempts read after them. A reset
that races with a compression can still leave one success without its
attempt; readers clamp.
@param[in]   e  entry
@param[out]  c  counter values */
void dict_zip_stat_read(const dict_zip_stat_t *e,
                        uint64_t c[DICT_ZIP_STAT_N_COUNTERS]) {
  c[DICT_ZIP_STAT_COMPRESS_OK] =
      e->m_counters[DICT_ZIP_STAT_COMPRESS_OK].load(std::memory_order_acquire);
  for (unsigned i = 0; i < DICT_ZIP_STAT_N_COUNTERS; i++) {
    if (i != DICT_ZIP_STAT_COMPRESS_OK) {
      c[i] = e->m_counters[i].load(std::memory_order_acquire);
    }
  }
  if (c[DICT_ZIP_STAT_COMPRESS_OK] > c[DICT_ZIP_STAT_COMPRESS_OPS]) {
    c[DICT_ZIP_STAT_COMPRESS_OK] = c[DICT_ZIP_STAT_COMPRESS_OPS];
  }
}

/** Copy one entry. The caller holds the registry mutex.
@param[in]     e      entry
@param[in]     reset  whether to zero the counters as they are read
@param[out]    snap   copy */
void dict_zip_stat_copy(dict_zip_stat_t *e, bool reset,
                        dict_zip_stat_snapshot_t &snap) {
  snap.m_id = e->m_id;
  if (e->m_index != nullptr) {
    /* The index is cached: its table's id is current even after DISCARD
    TABLESPACE gave the table a new one (the evict hook, which runs under
    the registry mutex before the index is freed, clears m_index). */
    e->m_table_id = e->m_index->table->id;
  }
  snap.m_table_id = e->m_table_id;
  snap.m_table_name = e->m_table_name;
  snap.m_index_name = e->m_index_name;
  snap.m_clustered = e->m_clustered;
  snap.m_fts_aux = e->m_fts_aux;
  snap.m_zip_size = e->m_zip_size;
  snap.m_pad = e->m_pad.load(std::memory_order_relaxed);
  snap.m_log_reserve = e->m_log_reserve.load(std::memory_order_relaxed);
  if (!reset) {
    dict_zip_stat_read(e, snap.m_counters);
    return;
  }
  /* Successes first, as dict_zip_stat_read() does. */
  snap.m_counters[DICT_ZIP_STAT_COMPRESS_OK] =
      e->m_counters[DICT_ZIP_STAT_COMPRESS_OK].exchange(
          0, std::memory_order_acq_rel);
  for (unsigned i = 0; i < DICT_ZIP_STAT_N_COUNTERS; i++) {
    if (i != DICT_ZIP_STAT_COMPRESS_OK) {
      snap.m_counters[i] =
          e->m_counters[i].exchange(0, std::memory_order_acq_rel);
    }
  }
  if (snap.m_counters[DICT_ZIP_STAT_COMPRESS_OK] >
      snap.m_counters[DICT_ZIP_STAT_COMPRESS_OPS]) {
    snap.m_counters[DICT_ZIP_STAT_COMPRESS_OK] =
        snap.m_counters[DICT_ZIP_STAT_COMPRESS_OPS];
  }
}

/** The registry, for the functions below that run under its mutex
(published before any of them can be called). */
dict_zip_stat_sys_t *dict_zip_stat_get_sys() {
  return dict_zip_stat_sys.load(std::memory_order_acquire);
}

}  // namespace

void dict_zip_stat_create() {
  ut_a(dict_zip_stat_get_sys() == nullptr);
  dict_zip_stat_sys.store(
      ut::new_withkey<dict_zip_stat_sys_t>(UT_NEW_THIS_FILE_PSI_KEY),
      std::memory_order_release);
}

void dict_zip_stat_free() {
  dict_zip_stat_sys_t *sys = dict_zip_stat_sys.exchange(nullptr);
  ut::delete_(sys);
}

void dict_zip_stat_register(dict_index_t *index) {
  dict_zip_stat_sys_t *sys = dict_zip_stat_get_sys();
  const dict_table_t *table = index->table;
  const index_id_t id(index->space, index->id);

  if (sys == nullptr || table == nullptr ||
      !DICT_TF_GET_ZIP_SSIZE(table->flags) || table->is_temporary() ||
      dict_index_is_ibuf(index) || dict_index_is_sdi(index) ||
      (index->type & DICT_FTS) || !dict_zip_stat_trackable(id)) {
    return;
  }

  const uint64_t key = id.conv_to_int();

  mutex_enter(&sys->m_mutex);

  dict_zip_stat_t *e;
  auto it = sys->m_entries.find(key);

  if (it != sys->m_entries.end()) {
    /* A known index: reloaded into the cache, or renamed, or its table
    got a new id (DISCARD TABLESPACE). */
    e = it->second;
  } else {
    if (sys->m_entries.size() >= sys->m_sweep_at) {
      sys->sweep();
    }
    if (sys->m_free.empty()) {
      e = ut::aligned_new_withkey<dict_zip_stat_t>(UT_NEW_THIS_FILE_PSI_KEY,
                                                   alignof(dict_zip_stat_t));
    } else {
      e = sys->m_free.back();
      sys->m_free.pop_back();
      e->clear();
    }
    sys->m_entries.emplace(key, e);
    sys->m_map->set(key, static_cast<int64_t>(reinterpret_cast<intptr_t>(e)));
  }

  e->m_table_id = table->id;
  e->m_id = id;
  e->m_table_name = table->name.m_name;
  e->m_index_name = index->name();
  e->m_clustered = index->is_clustered();
  e->m_fts_aux = table->is_fts_aux();
  e->m_zip_size = static_cast<uint32_t>(dict_table_page_size(table).physical());
  e->m_index = index;
  /* A reloaded index starts with no padding. */
  e->m_pad.store(index->zip_pad.pad.load(), std::memory_order_relaxed);
  e->m_log_reserve.store(index->zip_log.bytes.load(),
                         std::memory_order_relaxed);
  index->zip_stat.store(e, std::memory_order_release);

  mutex_exit(&sys->m_mutex);
}

void dict_zip_stat_register_table(dict_table_t *table) {
  if (!DICT_TF_GET_ZIP_SSIZE(table->flags)) {
    return;
  }
  for (dict_index_t *index = table->first_index(); index != nullptr;
       index = index->next()) {
    dict_zip_stat_register(index);
  }
}

namespace {

/** Call f(sys, index, entry) for every index of a table that points to an
entry, under the registry mutex.
@param[in,out]  table  table in the dictionary cache
@param[in]      f      callable taking (dict_zip_stat_sys_t *, dict_index_t *,
                       dict_zip_stat_t *) */
template <typename F>
void dict_zip_stat_for_each_entry(dict_table_t *table, F &&f) {
  dict_zip_stat_sys_t *sys = dict_zip_stat_get_sys();

  if (sys == nullptr) {
    return;
  }

  mutex_enter(&sys->m_mutex);
  for (dict_index_t *index = table->first_index(); index != nullptr;
       index = index->next()) {
    dict_zip_stat_t *e = index->zip_stat.load(std::memory_order_relaxed);
    if (e != nullptr) {
      f(sys, index, e);
    }
  }
  mutex_exit(&sys->m_mutex);
}

}  // namespace

void dict_zip_stat_evict(dict_index_t *index) {
  dict_zip_stat_sys_t *sys = dict_zip_stat_get_sys();

  if (sys == nullptr) {
    return;
  }

  mutex_enter(&sys->m_mutex);
  dict_zip_stat_t *e = index->zip_stat.load(std::memory_order_relaxed);
  if (e != nullptr && e->m_index == index) {
    /* Keep the counters; remember the latest name and id of the table. */
    e->m_table_name = index->table->name.m_name;
    e->m_table_id = index->table->id;
    e->m_index = nullptr;
  }
  index->zip_stat.store(nullptr, std::memory_order_relaxed);
  mutex_exit(&sys->m_mutex);
}

void dict_zip_stat_drop_table(dict_table_t *table) {
  dict_zip_stat_for_each_entry(table, [](dict_zip_stat_sys_t *sys,
                                         dict_index_t *index,
                                         dict_zip_stat_t *e) {
    /* A thread that loaded the pointer just before this can at worst add
    one event to the entry after it is reused; it is never freed. */
    index->zip_stat.store(nullptr, std::memory_order_relaxed);
    auto it = sys->m_entries.find(e->m_id.conv_to_int());
    if (it != sys->m_entries.end() && it->second == e) {
      sys->drop(it);
    }
  });
}

void dict_zip_stat_drop_indexes(const std::vector<index_id_t> &ids) {
  dict_zip_stat_sys_t *sys = dict_zip_stat_get_sys();

  if (sys == nullptr || ids.empty()) {
    return;
  }

  mutex_enter(&sys->m_mutex);
  for (const index_id_t &id : ids) {
    auto it = sys->m_entries.find(id.conv_to_int());
    if (it != sys->m_entries.end() && it->second->m_index == nullptr) {
      sys->drop(it);
    }
  }
  mutex_exit(&sys->m_mutex);
}

void dict_zip_stat_add(const index_id_t &id, dict_zip_stat_counter_t counter,
                       uint64_t n) {
  dict_zip_stat_t *e = dict_zip_stat_lookup(id);

  if (e != nullptr) {
    e->m_counters[counter].fetch_add(n, std::memory_order_relaxed);
  }
}

void dict_zip_stat_add(const dict_index_t *index,
                       dict_zip_stat_counter_t counter, uint64_t n) {
  if (dict_zip_trial) {
    /* A trial compression (the estimator's, the tight split's). */
    return;
  }
  dict_zip_stat_t *e = index->zip_stat.load(std::memory_order_relaxed);
  if (e != nullptr) {
    e->m_counters[counter].fetch_add(n, std::memory_order_relaxed);
  }
}

thread_local bool dict_zip_trial = false;

thread_local page_zip_stat_t dict_zip_trial_sink;

thread_local dict_zip_reorg_cause_t dict_zip_reorg_cause =
    DICT_ZIP_REORG_OTHER;

dict_zip_reorg_timer::dict_zip_reorg_timer(const dict_index_t *index)
    : m_index(index), m_cause(dict_zip_reorg_cause), m_start(0) {
  if (m_index == nullptr) {
    return;
  }
  dict_zip_stat_add(m_index, DICT_ZIP_STAT_REORGS, 1);
  dict_zip_stat_add(m_index,
                    dict_zip_stat_counter_t(
                        unsigned(DICT_ZIP_STAT_REORGS_OTHER) + m_cause),
                    1);
  m_start = std::chrono::steady_clock::now().time_since_epoch().count();
}

dict_zip_reorg_timer::~dict_zip_reorg_timer() {
  if (m_index == nullptr) {
    return;
  }
  const auto usecs = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::duration(
          std::chrono::steady_clock::now().time_since_epoch().count() -
          m_start));
  dict_zip_stat_add(
      m_index,
      dict_zip_stat_counter_t(unsigned(DICT_ZIP_STAT_REORG_USECS_OTHER) +
                              m_cause),
      usecs.count());
}

namespace {

/** Mirror a changed adaptive value of an index (pad, log reserve) to its
entry and count the change. Lock-free.
@param[in]  index   index (without an entry: nothing is done)
@param[in]  mirror  the entry's mirror of the value
@param[in]  up      counter of increments
@param[in]  down    counter of decrements
@param[in]  before  value before
@param[in]  after   value after */
void dict_zip_stat_adaptive_changed(const dict_index_t *index,
                                    std::atomic<uint64_t> dict_zip_stat_t::*mirror,
                                    dict_zip_stat_counter_t up,
                                    dict_zip_stat_counter_t down, ulint before,
                                    ulint after) {
  dict_zip_stat_t *e = index->zip_stat.load(std::memory_order_relaxed);

  if (e == nullptr) {
    return;
  }
  (e->*mirror).store(after, std::memory_order_relaxed);
  e->m_counters[after > before ? up : down].fetch_add(
      1, std::memory_order_relaxed);
}

}  // namespace

void dict_zip_stat_pad_changed(const dict_index_t *index, ulint before,
                               ulint after) {
  dict_zip_stat_adaptive_changed(index, &dict_zip_stat_t::m_pad,
                                 DICT_ZIP_STAT_PAD_INCREMENTS,
                                 DICT_ZIP_STAT_PAD_DECREMENTS, before, after);
}

void dict_zip_stat_log_reserve_changed(const dict_index_t *index,
                                       ulint before, ulint after) {
  dict_zip_stat_adaptive_changed(index, &dict_zip_stat_t::m_log_reserve,
                                 DICT_ZIP_STAT_LOG_RESERVE_INCREMENTS,
                                 DICT_ZIP_STAT_LOG_RESERVE_DECREMENTS, before,
                                 after);
}

void dict_zip_stat_redo_image(const dict_index_t *index, const byte *page,
                              uint64_t bytes) {
  dict_zip_stat_redo_images_total.inc();
  dict_zip_stat_redo_bytes_total.add(bytes);

  /* A dummy index of a change buffer merge has no entry of its own: find
  the index through the page header. */
  dict_zip_stat_t *e = index->zip_stat.load(std::memory_order_relaxed);
  if (e == nullptr && index->id == 0) {
    e = dict_zip_stat_lookup(
        index_id_t(page_get_space_id(page), btr_page_get_index_id(page)));
  }
  if (e != nullptr) {
    e->m_counters[DICT_ZIP_STAT_REDO_IMAGES].fetch_add(
        1, std::memory_order_relaxed);
    e->m_counters[DICT_ZIP_STAT_REDO_IMAGE_BYTES].fetch_add(
        bytes, std::memory_order_relaxed);
  }
}

bool dict_zip_stat_with_index(
    const index_id_t &id, const std::function<void(const dict_index_t &)> &f) {
  /* Most pages of a merge have no entry (not compressed): no mutex. */
  dict_zip_stat_t *e = dict_zip_stat_lookup(id);
  if (e == nullptr) {
    return false;
  }
  dict_zip_stat_sys_t *sys = dict_zip_stat_get_sys();
  if (sys == nullptr) {
    return false;
  }
  bool called = false;
  mutex_enter(&sys->m_mutex);
  /* The entry may have been dropped (its index pointer cleared) or reused
  for another index since the look-up; under the mutex its ids and its
  index pointer are stable, and a cached index stays in the cache. */
  if (e->m_id == id && e->m_index != nullptr) {
    f(*e->m_index);
    called = true;
  }
  mutex_exit(&sys->m_mutex);
  return called;
}

void dict_zip_stat_redo_totals(uint64_t &images, uint64_t &bytes) {
  images = dict_zip_stat_redo_images_total;
  bytes = dict_zip_stat_redo_bytes_total;
}

std::vector<dict_zip_stat_snapshot_t> dict_zip_stat_snapshot(bool reset) {
  std::vector<dict_zip_stat_snapshot_t> out;
  dict_zip_stat_sys_t *sys = dict_zip_stat_get_sys();

  if (sys == nullptr) {
    return out;
  }

  mutex_enter(&sys->m_mutex);
  sys->sweep();
  out.resize(sys->m_entries.size());
  size_t i = 0;
  for (auto &it : sys->m_entries) {
    dict_zip_stat_copy(it.second, reset, out[i++]);
  }
  mutex_exit(&sys->m_mutex);

  return out;
}

size_t dict_zip_stat_get_table(const dict_table_t *table,
                               uint64_t primary[DICT_ZIP_STAT_N_COUNTERS],
                               uint64_t secondary[DICT_ZIP_STAT_N_COUNTERS]) {
  size_t n = 0;

  for (unsigned i = 0; i < DICT_ZIP_STAT_N_COUNTERS; i++) {
    primary[i] = secondary[i] = 0;
  }

  /* The caller holds the table open, so its index list is stable and
  every entry an index points to stays attached to it. No latch. */
  for (const dict_index_t *index = table->first_index(); index != nullptr;
       index = index->next()) {
    const dict_zip_stat_t *e = index->zip_stat.load(std::memory_order_acquire);
    if (e == nullptr) {
      continue;
    }
    uint64_t c[DICT_ZIP_STAT_N_COUNTERS];
    dict_zip_stat_read(e, c);
    uint64_t *dst = index->is_clustered() ? primary : secondary;
    for (unsigned i = 0; i < DICT_ZIP_STAT_N_COUNTERS; i++) {
      dst[i] += c[i];
    }
    n++;
  }

  return n;
}

bool dict_zip_stat_get_rec_size(const dict_index_t *index, uint32_t *size,
                                int64_t *steady, int64_t *wall) {
  const dict_zip_stat_t *e = index->zip_stat.load(std::memory_order_acquire);
  if (e == nullptr) {
    return false;
  }
  /* Read the times first: a concurrent writer stores the size last, so a
  size read after them is at least as new as they are. */
  *steady = e->m_rec_size_steady.load(std::memory_order_acquire);
  *wall = e->m_rec_size_wall.load(std::memory_order_acquire);
  *size = e->m_rec_size.load(std::memory_order_acquire);
  return *size != 0;
}

void dict_zip_stat_set_rec_size(const dict_index_t *index, uint32_t size,
                                int64_t steady, int64_t wall) {
  dict_zip_stat_t *e = index->zip_stat.load(std::memory_order_acquire);
  if (e == nullptr) {
    return;
  }
  e->m_rec_size_steady.store(steady, std::memory_order_release);
  e->m_rec_size_wall.store(wall, std::memory_order_release);
  e->m_rec_size.store(size, std::memory_order_release);
}
