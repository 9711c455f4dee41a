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


/** @file include/page0zip_est.h
 Savings estimator, the trial pages: the records of a run of leaf pages
 copied into a scratch page as ALTER TABLE would fill it, then compressed
 at every KEY_BLOCK_SIZE to find how many of them fit. Also the types and
 the memory key that the estimator's other parts share:

 - dict/dict0zip_est.cc (include/dict0zip_est.h): the driver: it opens the
   table under a metadata lock, walks the indexes, positions the trials
   and extrapolates;
 - page/page0zip_est.cc (this header): the trial pages and their
   compression;
 - lob/lob0zip_est.cc (include/lob0zip_est.h): the off-page columns;
 - btr/btr0load_est.cc (include/btr0load_est.h): the model of the bulk
   loader of ALTER TABLE that turns the trials into pages;
 - page/page0comp_est.cc (include/page0comp_est.h): page compression.

 Created 2026-11-21 */

#ifndef page0zip_est_h
#define page0zip_est_h

#include <mysql/components/services/innodb_compression_estimate.h>

#include <cstdint>
#include <vector>

#include "buf0types.h"
#include "dict0types.h"
#include "mem0mem.h"
#include "mtr0types.h"
#include "page0types.h"
#include "univ.i"
#include "ut0new.h"

/** KEY_BLOCK_SIZEs in KB, in the order of innodb_zip_estimate_t::sizes. */
constexpr ulint page_zip_est_kbs[INNODB_ZIP_EST_N_SIZES] = {1, 2, 4, 8, 16};

/** The memory key of every allocation of the estimator,
memory/innodb/page0zip_est (this file's), whichever of its files makes it.
@return the key */
PSI_memory_key page_zip_est_mem_key();

/** A vector whose memory performance_schema counts
(memory/innodb/page0zip_est). */
template <typename T>
using page_zip_est_vector_t = std::vector<T, ut::allocator<T>>;

/** A new, empty page_zip_est_vector_t. */
template <typename T>
page_zip_est_vector_t<T> page_zip_est_vector() {
  return page_zip_est_vector_t<T>(ut::allocator<T>(page_zip_est_mem_key()));
}

/* page_zip_est_unit_t::cum holds bytes of one uncompressed page, and the
estimator runs only where pages can be compressed (dict_zip_est_table()). */
static_assert(UNIV_ZIP_SIZE_MAX <= UINT16_MAX);

/** One trial: the records of a run of leaf pages as they fill one
uncompressed page. */
struct page_zip_est_unit_t {
  /** cum[c]: bytes of the first c records with their page directory
  (at most innodb_page_size, which is 16 KB at most for compression). */
  page_zip_est_vector_t<uint16_t> cum{page_zip_est_vector<uint16_t>()};
  /** Per size: the most leading records that compress into it with the
  free space of the bulk loader (innodb_compression_bulk_free_pct). */
  uint32_t fit[INNODB_ZIP_EST_N_SIZES];
  /** Per size: the most leading records that compress into it with
  nothing left free, as far as key-ordered inserts fill a page. */
  uint32_t fit0[INNODB_ZIP_EST_N_SIZES];
  /** Bytes of the off-page columns of the start page's records. */
  double lob_bytes{0};
  /** Uncompressed BLOB pages those columns take when rebuilt. */
  double lob_pages{0};
  /** Per size: compressed BLOB pages those columns take. */
  double lob_zip[INNODB_ZIP_EST_N_SIZES]{};
  /** Page compression (page0comp_est.h), if estimated: by method, bytes on
  disk of the start page as ALTER TABLE fills an uncompressed page
  (0: not estimated). */
  uint16_t pc_bytes[INNODB_ZIP_EST_N_PAGE_METHODS]{};
  /** BLOB data pages of the columns read, and by method their bytes on
  disk with page compression. */
  double lob_pc_pages{0};
  double lob_pc_bytes[INNODB_ZIP_EST_N_PAGE_METHODS]{};
};

/** Scratch blocks of the buffer pool, released at the end of the scope. */
class Page_zip_est_scratch {
 public:
  Page_zip_est_scratch();
  ~Page_zip_est_scratch();

  /** A buffer of LOB_ZIP_EST_PREFIX bytes for an off-page column
  (lob0zip_est.h), and LOB_ZIP_EST_OUT bytes after them for its deflate
  output, allocated on first use. */
  byte *lob_buf();

  /** An empty heap for zlib (page_zip_set_alloc()), as zInserter uses. */
  mem_heap_t *zlib_heap();

  Page_zip_est_scratch(const Page_zip_est_scratch &) = delete;
  Page_zip_est_scratch &operator=(const Page_zip_est_scratch &) = delete;

  /** The records of the current trial, as a full uncompressed page. */
  buf_block_t *m_full;
  /** A prefix of m_full being tried. */
  buf_block_t *m_trial;
  /** Output of page_zip_compress(). */
  buf_block_t *m_zip;
  /** Heap for record offsets. */
  mem_heap_t *m_heap;
  /** File system block size of the table's file if page compression is
  estimated, else 0. */
  ulint m_pc_block_size{0};

 private:
  /** Heap of m_lob_buf. */
  mem_heap_t *m_lob_heap{nullptr};
  /** Off-page column being read; its zlib output goes to its end. */
  byte *m_lob_buf{nullptr};
  /** Heap of the zlib streams. */
  mem_heap_t *m_zlib_heap{nullptr};
};

/** Records of a trial that fit in a page filled up to a number of bytes.
@param[in]  unit   the trial
@param[in]  limit  bytes of records and directory the page may hold
@return number of leading records, at least 2 (or all there are), as the
loader keeps at least two records in a page */
ulint page_zip_est_recs_upto(const page_zip_est_unit_t &unit, ulint limit);

/** Copy the user records of a leaf page and of its right siblings into
the scratch page until it is full.
@param[in]      index    index
@param[in]      start    latched leaf page to start at
@param[in,out]  mtr      mini-transaction holding the latches
@param[in,out]  s        scratch blocks
@param[out]     unit     cumulative record sizes
@param[in,out]  n_ext    records with off-page columns, added to
@param[in]      level    zlib level, for the off-page columns of the start
                         page (lob_zip_est_fields()) */
void page_zip_est_collect(dict_index_t *index, buf_block_t *start,
                          mtr_t *mtr, Page_zip_est_scratch &s,
                          page_zip_est_unit_t &unit, uint64_t &n_ext,
                          ulint level);

/** Find, for every size, how many leading records of the trial fit, with
the bulk loader's free space and with none.
@param[in]      index     index
@param[in,out]  s         scratch blocks (m_full holds the trial)
@param[in]      level     zlib level
@param[in]      free_pct  free space of the bulk loader in percent
@param[in,out]  unit      the trial */
void page_zip_est_fit_sizes(dict_index_t *index, Page_zip_est_scratch &s,
                            ulint level, ulint free_pct,
                            page_zip_est_unit_t &unit);

/** Page compression of a trial: the start of its records as ALTER TABLE
fills an uncompressed page (the model of btr_load_est_leaf_pages() for
INNODB_ZIP_EST_N_SIZES), in a zeroed page as a new page is, written as
page compression writes it (page0comp_est.h).
@param[in]      index  index
@param[in,out]  s      scratch blocks (m_full holds the trial)
@param[in,out]  unit   the trial: pc_bytes is set */
void page_zip_est_page_comp(dict_index_t *index, Page_zip_est_scratch &s,
                            page_zip_est_unit_t &unit);

#endif /* page0zip_est_h */
