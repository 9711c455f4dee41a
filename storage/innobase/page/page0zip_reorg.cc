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

/** @file page/page0zip_reorg.cc
 page_zip_reorganize() without the rebuild (page0zip_reorg.h).

 Created 2026-11-27 */

#include "page0zip_reorg.h"

#include <atomic>

#include "page0page.h"
#include "rem0rec.h"

#ifdef UNIV_DEBUG
#include "mem0mem.h"
#endif /* UNIV_DEBUG */

namespace {
/** page_zip_reorganize() calls that only compressed the page. */
std::atomic<uint64_t> page_zip_reorganize_n_in_place{0};
}  // namespace

bool page_zip_reorganize_is_noop(const page_t *page,
                                 const dict_index_t *index) {
  ut_ad(page_is_comp(page));
  if (page_header_get_field(page, PAGE_GARBAGE) != 0 ||
      page_header_get_field(page, PAGE_FREE) != 0) {
    return false;
  }
  const ulint n_recs = page_get_n_recs(page);
  if (page_dir_get_n_heap(page) != n_recs + PAGE_HEAP_NO_USER_LOW) {
    return false;
  }

  /* The records in heap number order along the list. With no garbage
  and no free list, every byte of the heap belongs to a record, and a
  record's heap number grows with its address (a record reused from the
  free list took the place and the number of the one deleted there), so
  that the records tile the heap in list order, as a rebuild puts them. */
  ulint heap_no = PAGE_HEAP_NO_USER_LOW;
  for (const rec_t *rec = page_rec_get_next_low(page + PAGE_NEW_INFIMUM, true);
       rec != nullptr && !page_rec_is_supremum(rec);
       rec = page_rec_get_next_low(rec, true)) {
    if (rec_get_heap_no_new(rec) != heap_no) {
      return false;
    }
    heap_no++;
  }
  if (heap_no != n_recs + PAGE_HEAP_NO_USER_LOW) {
    return false;
  }

#ifdef UNIV_DEBUG
  /* Check the tiling: each record starts where the one before it ends,
  from PAGE_ZIP_START to PAGE_HEAP_TOP, as the rebuild would put them. */
  mem_heap_t *heap = nullptr;
  ulint offsets_[REC_OFFS_NORMAL_SIZE];
  rec_offs_init(offsets_);
  ulint *offsets = offsets_;
  const byte *end = page + PAGE_ZIP_START;
  for (const rec_t *rec = page_rec_get_next_low(page + PAGE_NEW_INFIMUM, true);
       !page_rec_is_supremum(rec); rec = page_rec_get_next_low(rec, true)) {
    offsets = rec_get_offsets(rec, index, offsets, ULINT_UNDEFINED,
                              UT_LOCATION_HERE, &heap);
    ut_a(rec - rec_offs_extra_size(offsets) == end);
    end = rec + rec_offs_data_size(offsets);
  }
  ut_a(end == page + page_header_get_field(page, PAGE_HEAP_TOP));
  if (heap != nullptr) {
    mem_heap_free(heap);
  }
#else
  (void)index;
#endif /* UNIV_DEBUG */
  return true;
}

void page_zip_reorganize_count_in_place() {
  page_zip_reorganize_n_in_place.fetch_add(1, std::memory_order_relaxed);
}

int show_innodb_zip_reorganize_in_place(THD *, SHOW_VAR *var, char *buff) {
  var->type = SHOW_LONGLONG;
  var->value = buff;
  var->scope = SHOW_SCOPE_GLOBAL;
  *reinterpret_cast<longlong *>(buff) = static_cast<longlong>(
      page_zip_reorganize_n_in_place.load(std::memory_order_relaxed));
  return 0;
}
