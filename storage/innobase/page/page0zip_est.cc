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


/** @file page/page0zip_est.cc
 Savings estimator, the trial pages (include/page0zip_est.h names the other
 parts).

 A trial starts at a leaf page: the records of that page and of its right
 siblings are copied, in key order and without the delete-marked ones,
 into a scratch page of the buffer pool until it is as full as the
 uncompressed page loader of ALTER TABLE would fill it. Then, for each
 KEY_BLOCK_SIZE from 16 KB down to 1 KB, a binary search on the number of
 leading records finds the most records that page_zip_compress() fits into
 that size. This is InnoDB's own compressed page format (dense directory,
 uncompressed system columns, node pointers), at the zlib level the table
 would use. The off-page columns of the start page's records go to the LOB
 model (lob0zip_est.h) while it is the only page of the trial latched.

 Nothing is written: the scratch pages are private, page_zip_compress()
 runs with no mini-transaction, and dict_zip_trial keeps the trials
 out of every compression statistic and out of the adaptive padding.

 Created 2026-11-21 */

#include "page0zip_est.h"
#include "btr0load_est.h"
#include "lob0zip_est.h"
#include "page0comp_est.h"

#include <algorithm>
#include <cstring>

#include "btr0btr.h"
#include "btr0load_zip.h"
#include "buf0buf.h"
#include "dict0dict.h"
#include "dict0mem.h"
#include "dict0zip_stat.h"
#include "mtr0mtr.h"
#include "page0cur.h"
#include "page0page.h"
#include "page0zip.h"
#include "page0zip_fit.h"
#include "rem0rec.h"

PSI_memory_key page_zip_est_mem_key() { return UT_NEW_THIS_FILE_PSI_KEY(); }

Page_zip_est_scratch::Page_zip_est_scratch()
    : m_full(buf_block_alloc(nullptr)),
      m_trial(buf_block_alloc(nullptr)),
      m_zip(buf_block_alloc(nullptr)),
      m_heap(mem_heap_create(UNIV_PAGE_SIZE, UT_LOCATION_HERE)) {}

Page_zip_est_scratch::~Page_zip_est_scratch() {
  buf_block_free(m_full);
  buf_block_free(m_trial);
  buf_block_free(m_zip);
  mem_heap_free(m_heap);
  if (m_lob_heap != nullptr) {
    mem_heap_free(m_lob_heap);
  }
  if (m_zlib_heap != nullptr) {
    mem_heap_free(m_zlib_heap);
  }
}

byte *Page_zip_est_scratch::lob_buf() {
  if (m_lob_heap == nullptr) {
    m_lob_heap =
        mem_heap_create(LOB_ZIP_EST_PREFIX + LOB_ZIP_EST_OUT, UT_LOCATION_HERE);
    m_lob_buf = static_cast<byte *>(
        mem_heap_alloc(m_lob_heap, LOB_ZIP_EST_PREFIX + LOB_ZIP_EST_OUT));
  }
  return m_lob_buf;
}

mem_heap_t *Page_zip_est_scratch::zlib_heap() {
  if (m_zlib_heap == nullptr) {
    m_zlib_heap = mem_heap_create(250000, UT_LOCATION_HERE);
  } else {
    mem_heap_empty(m_zlib_heap);
  }
  return m_zlib_heap;
}

namespace {

/** Leaf pages of innodb_page_size one trial may read (the start page and
right siblings); a table with smaller (compressed) pages may read as many
bytes of pages, so that its trials fill a page as well: a 1 KB page holds a
sixteenth of the records a 16 KB page holds, and a trial cut short after 8
of them would count a page that is half empty as full. */
constexpr ulint PAGE_ZIP_EST_MAX_RUN = 8;

/** Leaf pages one trial of an index may read.
@param[in]  index  index
@return PAGE_ZIP_EST_MAX_RUN pages' worth of bytes in the index's pages */
ulint page_zip_est_max_run(const dict_index_t *index) {
  const ulint physical = dict_table_page_size(index->table).physical();
  return PAGE_ZIP_EST_MAX_RUN * std::max<ulint>(1, UNIV_PAGE_SIZE / physical);
}

/** Binary search precision: stop when the candidates differ by fewer
bytes of records than this. */
constexpr ulint PAGE_ZIP_EST_PRECISION = 64;

/** Make a scratch block an empty leaf page of an index.
@param[in,out]  block  scratch block
@param[in]      index  index */
void page_zip_est_page_init(buf_block_t *block, const dict_index_t *index) {
  page_t *page = page_create_low(block, true, FIL_PAGE_INDEX);
  /* page_create_low() leaves the level, the index id and the siblings to
  the caller, and the block holds whatever it held before. */
  mach_write_to_2(page + PAGE_HEADER + PAGE_LEVEL, 0);
  mach_write_to_8(page + PAGE_HEADER + PAGE_INDEX_ID, index->id);
  mach_write_to_4(page + FIL_PAGE_PREV, FIL_NULL);
  mach_write_to_4(page + FIL_PAGE_NEXT, FIL_NULL);
}

/** Whether the first n records of the trial compress into a size.
@param[in]      index     index
@param[in,out]  s         scratch blocks
@param[in]      n         number of leading records
@param[in]      n_all     number of records in s.m_full
@param[in]      zip_size  compressed page size in bytes
@param[in]      level     zlib level
@param[in]      reserve   bytes to keep free
@return true if page_zip_compress() succeeds */
bool page_zip_est_fits(dict_index_t *index, Page_zip_est_scratch &s, ulint n,
                       ulint n_all, ulint zip_size, ulint level,
                       ulint reserve) {
  const page_t *page = s.m_full->frame;

  if (n < n_all) {
    page_zip_est_page_init(s.m_trial, index);
    rec_t *cur = page_get_infimum_rec(s.m_trial->frame);
    const rec_t *rec = page_rec_get_next_const(page_get_infimum_rec(page));
    ulint *offsets = nullptr;
    mem_heap_empty(s.m_heap);
    for (ulint i = 0; i < n; i++, rec = page_rec_get_next_const(rec)) {
      offsets = rec_get_offsets(rec, index, offsets, ULINT_UNDEFINED,
                                UT_LOCATION_HERE, &s.m_heap);
      cur = page_cur_insert_rec_low(cur, index, rec, offsets, nullptr);
      ut_a(cur != nullptr);
    }
    page = s.m_trial->frame;
  }

  page_zip_des_t page_zip;
  page_zip_des_init(&page_zip);
  page_zip_set_size(&page_zip, zip_size);
  page_zip.data = s.m_zip->frame;

  page_zip_fit_t fit;
  fit.reserve = reserve;

  dict_zip_trial = true;
  const bool ok =
      page_zip_compress_fit(&page_zip, page, index, level, nullptr, &fit);
  dict_zip_trial = false;
  return ok;
}

/** The most leading records of the trial, between two bounds, that
compress into a size.
@param[in]      index     index
@param[in,out]  s         scratch blocks (m_full holds the trial)
@param[in]      unit      the trial
@param[in]      zip_size  compressed page size in bytes
@param[in]      level     zlib level
@param[in]      reserve   bytes to keep free
@param[in]      lo        a number of records known to fit (0 always does)
@param[in]      hi        no more records than this can fit
@return the number found, within PAGE_ZIP_EST_PRECISION bytes */
ulint page_zip_est_search(dict_index_t *index, Page_zip_est_scratch &s,
                          const page_zip_est_unit_t &unit, ulint zip_size,
                          ulint level, ulint reserve, ulint lo, ulint hi) {
  const ulint n_all = unit.cum.size() - 1;
  if (hi <= lo ||
      page_zip_est_fits(index, s, hi, n_all, zip_size, level, reserve)) {
    return std::max(lo, hi);
  }
  /* lo fits, hi does not. */
  while (hi - lo > 1 &&
         ulint{unit.cum[hi]} - unit.cum[lo] > PAGE_ZIP_EST_PRECISION) {
    const ulint mid = lo + (hi - lo) / 2;
    if (page_zip_est_fits(index, s, mid, n_all, zip_size, level, reserve)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

}  // namespace

void page_zip_est_collect(dict_index_t *index, buf_block_t *start,
                          mtr_t *mtr, Page_zip_est_scratch &s,
                          page_zip_est_unit_t &unit, uint64_t &n_ext,
                          ulint level) {
  page_zip_est_page_init(s.m_full, index);
  rec_t *cur = page_get_infimum_rec(s.m_full->frame);
  const ulint limit = page_get_free_space_of_empty(true);
  ulint bytes = 0;
  ulint *offsets = nullptr;
  const page_t *page = buf_block_get_frame(start);

  /* Only a clustered index has off-page columns. */
  auto lobs = page_zip_est_vector<lob_zip_est_field_t>();
  const bool with_lobs = index->is_clustered();

  mem_heap_empty(s.m_heap);
  unit.cum.assign(1, 0);

  for (ulint n_pages = 1;; n_pages++) {
    bool full = false;
    for (const rec_t *rec = page_rec_get_next_const(page_get_infimum_rec(page));
         !page_rec_is_supremum(rec); rec = page_rec_get_next_const(rec)) {
      if (rec_get_deleted_flag(rec, true)) {
        /* Purged or rolled back: a rebuilt table does not have it. */
        continue;
      }
      offsets = rec_get_offsets(rec, index, offsets, ULINT_UNDEFINED,
                                UT_LOCATION_HERE, &s.m_heap);
      const ulint size = rec_offs_size(offsets);
      const ulint n = unit.cum.size();
      if (rec_offs_any_extern(offsets)) {
        n_ext++;
        if (n_pages == 1 && with_lobs) {
          lob_zip_est_rec_fields(index, rec, offsets, lobs);
        }
      }
      if (bytes + size + page_dir_calc_reserved_space(n) > limit) {
        full = true;
        break;
      }
      rec_t *ins = page_cur_insert_rec_low(cur, index, rec, offsets, nullptr);
      if (ins == nullptr) {
        full = true;
        break;
      }
      cur = ins;
      bytes += size;
      unit.cum.push_back(
          static_cast<uint16_t>(bytes + page_dir_calc_reserved_space(n)));
    }

    if (n_pages == 1) {
      /* The start page's columns, read while it is the only page of the
      trial latched. */
      lob_zip_est_fields(index, lobs, level, s, unit);
    }
    const page_no_t next = btr_page_get_next(page, mtr);
    if (full || n_pages >= page_zip_est_max_run(index) || next == FIL_NULL) {
      return;
    }
    /* Left to right, as every B-tree scan latches siblings. */
    buf_block_t *block = btr_block_get(
        page_id_t(index->space, next), dict_table_page_size(index->table),
        RW_S_LATCH, UT_LOCATION_HERE, index, mtr);
    page = buf_block_get_frame(block);
    if (!page_is_leaf(page) || btr_page_get_index_id(page) != index->id) {
      return;
    }
  }
}

void page_zip_est_fit_sizes(dict_index_t *index, Page_zip_est_scratch &s,
                            ulint level, ulint free_pct,
                            page_zip_est_unit_t &unit) {
  const ulint n_all = unit.cum.size() - 1;
  /* A smaller size never fits more records than a larger one, and a page
  with free space never more than one without. */
  ulint hi = n_all;
  ulint hi0 = n_all;

  for (ulint k = INNODB_ZIP_EST_N_SIZES; k-- > 0;) {
    const ulint zip_size = page_zip_est_kbs[k] * 1024;
    if (zip_size > UNIV_PAGE_SIZE) {
      unit.fit[k] = unit.fit0[k] = static_cast<uint32_t>(n_all);
      continue;
    }
    const ulint reserve = btr_load_zip_reserve(zip_size, free_pct);
    const ulint fit =
        page_zip_est_search(index, s, unit, zip_size, level, reserve, 0, hi);
    /* With no free space: from what fits with it up to what fits at the
    larger size; the same search when there is no free space. */
    const ulint fit0 =
        reserve == 0 ? fit
                     : page_zip_est_search(index, s, unit, zip_size, level, 0,
                                           fit, std::max(fit, hi0));
    unit.fit[k] = static_cast<uint32_t>(fit);
    unit.fit0[k] = static_cast<uint32_t>(fit0);
    hi = fit;
    hi0 = fit0;
  }
}

ulint page_zip_est_recs_upto(const page_zip_est_unit_t &unit, ulint limit) {
  const auto it = std::upper_bound(
      unit.cum.begin(), unit.cum.end(),
      static_cast<uint16_t>(std::min<ulint>(limit, UINT16_MAX)));
  const ulint n = static_cast<ulint>(it - unit.cum.begin()) - 1;
  return std::max(n, std::min<ulint>(2, unit.cum.size() - 1));
}

void page_zip_est_page_comp(dict_index_t *index, Page_zip_est_scratch &s,
                            page_zip_est_unit_t &unit) {
  if (unit.cum.size() < 2) {
    return;
  }
  const ulint limit = page_get_free_space_of_empty(true) -
                      btr_load_est_reserve(index->is_clustered());
  const ulint n = page_zip_est_recs_upto(unit, limit);
  memset(s.m_trial->frame, 0, UNIV_PAGE_SIZE);
  page_zip_est_page_init(s.m_trial, index);
  rec_t *cur = page_get_infimum_rec(s.m_trial->frame);
  const rec_t *rec =
      page_rec_get_next_const(page_get_infimum_rec(s.m_full->frame));
  ulint *offsets = nullptr;
  mem_heap_empty(s.m_heap);
  for (ulint i = 0; i < n; i++, rec = page_rec_get_next_const(rec)) {
    offsets = rec_get_offsets(rec, index, offsets, ULINT_UNDEFINED,
                              UT_LOCATION_HERE, &s.m_heap);
    cur = page_cur_insert_rec_low(cur, index, rec, offsets, nullptr);
    ut_a(cur != nullptr);
  }
  uint32_t bytes[INNODB_ZIP_EST_N_PAGE_METHODS];
  page_comp_est_page(s.m_trial->frame, s.m_pc_block_size, s.m_zip->frame,
                     bytes);
  for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
    unit.pc_bytes[m] = static_cast<uint16_t>(bytes[m]);
  }
}
