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

/** @file dict/dict0zip_opt.cc
 Per-table compression options of ROW_FORMAT=COMPRESSED tables. See
 include/dict0zip_opt.h for the design.

 Created 2026-11-21 */

#include "dict0zip_opt.h"
#include "page0zip_codec.h"

#include "btr0btr.h"
#include "dict0mem.h"
#include "dict0zip_stat.h"
#include "page0page.h"
#include "page0zip.h"

ulong dict_zip_opt_log_reorg_threshold_pct = 0;
ulong dict_zip_opt_log_reserve_pct_max = 25;

namespace {

/** Options of the table an index belongs to.
@param[in]  index  index
@param[in]  page   page of the index or nullptr; used to find the options
                   of a dummy index
@return options, empty if none */
dict_zip_opt_t dict_zip_opt_of_index(const dict_index_t *index,
                                     const page_t *page) {
  if (index == nullptr || index->table == nullptr) {
    return dict_zip_opt_t{};
  }
  if (index->table->id == 0) {
    /* The dummy index of a change buffer merge or of recovery does not
    know the table: the page header names the index; read the options of
    its table if the index is in the dictionary cache. */
    dict_zip_opt_word_t word = 0;
    if (page != nullptr) {
      dict_zip_stat_with_index(
          index_id_t(page_get_space_id(page), btr_page_get_index_id(page)),
          [&word](const dict_index_t &cached) {
            word = cached.table->zip_opt.load(std::memory_order_relaxed);
          });
    }
    return dict_zip_opt_unpack(word);
  }
  /* The common case: one relaxed load, no latch. */
  return dict_zip_opt_unpack(
      index->table->zip_opt.load(std::memory_order_relaxed));
}

}  // namespace

void dict_zip_opt_set(dict_table_t *table, const dict_zip_opt_t &opt) {
  ut_ad(opt.m_level <= DICT_ZIP_OPT_LEVEL_MAX);
  ut_ad(opt.m_failure_threshold_pct <= DICT_ZIP_OPT_THRESHOLD_MAX);
  ut_ad(opt.m_pad_pct_max <= DICT_ZIP_OPT_PAD_MAX);
  ut_ad(opt.m_log_reorg_threshold_pct <= DICT_ZIP_OPT_THRESHOLD_MAX);
  ut_ad(opt.m_log_reserve_pct_max <= DICT_ZIP_OPT_LOG_RESERVE_MAX);

  ut_ad(opt.m_codec <= DICT_ZIP_OPT_CODEC_MAX);

  table->zip_opt.store(dict_zip_opt_pack(opt), std::memory_order_relaxed);
}

dict_zip_opt_t dict_zip_opt_get(const dict_table_t *table) {
  return dict_zip_opt_unpack(table->zip_opt.load(std::memory_order_relaxed));
}

ulint dict_index_zip_level(const dict_index_t *index, const page_t *page) {
  const dict_zip_opt_t opt = dict_zip_opt_of_index(index, page);
  const ulint level =
      opt.m_level >= 0 ? static_cast<ulint>(opt.m_level) : page_zip_level;
  const ulint codec =
      opt.m_codec >= 0 ? static_cast<ulint>(opt.m_codec) : page_zip_codec;
  return page_zip_level_word(
      page_zip_codec_available(codec) ? codec : PAGE_ZIP_CODEC_ZLIB, level);
}

ulint dict_zip_opt_failure_threshold_pct(const dict_zip_opt_t &opt) {
  return opt.m_failure_threshold_pct >= 0
             ? static_cast<ulint>(opt.m_failure_threshold_pct)
             : zip_failure_threshold_pct;
}

ulint dict_zip_opt_pad_pct_max(const dict_zip_opt_t &opt) {
  return opt.m_pad_pct_max >= 0 ? static_cast<ulint>(opt.m_pad_pct_max)
                                : zip_pad_max;
}

ulint dict_index_zip_failure_threshold_pct(const dict_index_t *index) {
  return dict_zip_opt_failure_threshold_pct(
      dict_zip_opt_of_index(index, nullptr));
}

ulint dict_index_zip_pad_pct_max(const dict_index_t *index) {
  return dict_zip_opt_pad_pct_max(dict_zip_opt_of_index(index, nullptr));
}

ulint dict_index_zip_log_reorg_threshold_pct(const dict_index_t *index) {
  const dict_zip_opt_t opt = dict_zip_opt_of_index(index, nullptr);
  return opt.m_log_reorg_threshold_pct >= 0
             ? static_cast<ulint>(opt.m_log_reorg_threshold_pct)
             : dict_zip_opt_log_reorg_threshold_pct;
}

ulint dict_index_zip_log_reserve_pct_max(const dict_index_t *index) {
  const dict_zip_opt_t opt = dict_zip_opt_of_index(index, nullptr);
  return opt.m_log_reserve_pct_max >= 0
             ? static_cast<ulint>(opt.m_log_reserve_pct_max)
             : dict_zip_opt_log_reserve_pct_max;
}
