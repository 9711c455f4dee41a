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

/** @file dict/dict0zip_opt.cc
 Per-table compression options of ROW_FORMAT=COMPRESSED tables. See
 include/dict0zip_opt.h for the design.

 Created 2026-11-21 */

#include "dict0zip_opt.h"

#include <atomic>

#include "btr0btr.h"
#include "dict0mem.h"
#include "dict0zip_stat.h"
#include "page0page.h"
#include "page0zip.h"
#include "ut0lock_free_hash.h"
#include "ut0new.h"

namespace {

/** Table id -> packed dict_zip_opt_t. */
std::atomic<ut_lock_free_hash_t *> dict_zip_opt_map{nullptr};

/** Whether any table was given options since start-up: until then the
look-ups return the globals without touching the hash. Never reset while
the server runs, so that no race between two DDL can hide options. */
std::atomic<bool> dict_zip_opt_any{false};

/** Pack options into a hash value: one byte per option, value + 1, so that
0 means "not set". The result is never NOT_FOUND or DELETED.
@param[in]  opt  options
@return packed value */
int64_t dict_zip_opt_pack(const dict_zip_opt_t &opt) {
  return static_cast<int64_t>(opt.m_level + 1) |
         static_cast<int64_t>(opt.m_failure_threshold_pct + 1) << 8 |
         static_cast<int64_t>(opt.m_pad_pct_max + 1) << 16;
}

/** Unpack a hash value.
@param[in]  v  packed value
@return options */
dict_zip_opt_t dict_zip_opt_unpack(int64_t v) {
  dict_zip_opt_t opt;
  opt.m_level = static_cast<int>(v & 0xFF) - 1;
  opt.m_failure_threshold_pct = static_cast<int>((v >> 8) & 0xFF) - 1;
  opt.m_pad_pct_max = static_cast<int>((v >> 16) & 0xFF) - 1;
  return opt;
}

/** Whether a table id can be a key: 0 is the id of the dummy tables of
recovery and of change buffer merges; the two highest values are reserved
by ut_lock_free_hash_t. */
bool dict_zip_opt_key_ok(table_id_t id) {
  return id != 0 && id < ~table_id_t{0} - 1;
}

/** Options of the table an index belongs to, without any latch.
@param[in]  index  index
@param[in]  page   page of the index or nullptr; used to find the table of
                   a dummy index
@return options, empty if none */
dict_zip_opt_t dict_zip_opt_of_index(const dict_index_t *index,
                                     const page_t *page) {
  if (!dict_zip_opt_any.load(std::memory_order_relaxed) ||
      index == nullptr || index->table == nullptr) {
    return dict_zip_opt_t{};
  }
  table_id_t id = index->table->id;
  if (id == 0 && page != nullptr) {
    /* A change buffer merge: the dummy index does not know the table. */
    id = dict_zip_stat_table_id(
        index_id_t(page_get_space_id(page), btr_page_get_index_id(page)));
  }
  return dict_zip_opt_get(id);
}

}  // namespace

void dict_zip_opt_create() {
  ut_a(dict_zip_opt_map.load() == nullptr);
  dict_zip_opt_map.store(
      ut::new_withkey<ut_lock_free_hash_t>(UT_NEW_THIS_FILE_PSI_KEY, 64, false),
      std::memory_order_release);
}

void dict_zip_opt_free() {
  ut_lock_free_hash_t *map = dict_zip_opt_map.exchange(nullptr);
  dict_zip_opt_any.store(false);
  ut::delete_(map);
}

void dict_zip_opt_set(table_id_t table_id, const dict_zip_opt_t &opt) {
  ut_lock_free_hash_t *map = dict_zip_opt_map.load(std::memory_order_acquire);

  if (map == nullptr || !dict_zip_opt_key_ok(table_id)) {
    return;
  }

  if (opt.empty()) {
    if (map->get(table_id) != ut_lock_free_hash_t::NOT_FOUND) {
      map->del(table_id);
    }
    return;
  }

  ut_ad(opt.m_level <= DICT_ZIP_OPT_LEVEL_MAX);
  ut_ad(opt.m_failure_threshold_pct <= DICT_ZIP_OPT_THRESHOLD_MAX);
  ut_ad(opt.m_pad_pct_max <= DICT_ZIP_OPT_PAD_MAX);

  /* First the flag: a reader that sees the entry must not skip the map. */
  dict_zip_opt_any.store(true);
  map->set(table_id, dict_zip_opt_pack(opt));
}

dict_zip_opt_t dict_zip_opt_get(table_id_t table_id) {
  ut_lock_free_hash_t *map = dict_zip_opt_map.load(std::memory_order_acquire);

  if (map == nullptr || !dict_zip_opt_key_ok(table_id)) {
    return dict_zip_opt_t{};
  }
  const int64_t v = map->get(table_id);
  if (v == ut_lock_free_hash_t::NOT_FOUND) {
    return dict_zip_opt_t{};
  }
  return dict_zip_opt_unpack(v);
}

void dict_zip_opt_forget(table_id_t table_id) {
  dict_zip_opt_set(table_id, dict_zip_opt_t{});
}

ulint dict_index_zip_level(const dict_index_t *index, const page_t *page) {
  const dict_zip_opt_t opt = dict_zip_opt_of_index(index, page);
  return opt.m_level >= 0 ? static_cast<ulint>(opt.m_level) : page_zip_level;
}

ulint dict_index_zip_failure_threshold_pct(const dict_index_t *index) {
  const dict_zip_opt_t opt = dict_zip_opt_of_index(index, nullptr);
  return opt.m_failure_threshold_pct >= 0
             ? static_cast<ulint>(opt.m_failure_threshold_pct)
             : zip_failure_threshold_pct;
}

ulint dict_index_zip_pad_pct_max(const dict_index_t *index) {
  const dict_zip_opt_t opt = dict_zip_opt_of_index(index, nullptr);
  return opt.m_pad_pct_max >= 0 ? static_cast<ulint>(opt.m_pad_pct_max)
                                : zip_pad_max;
}
