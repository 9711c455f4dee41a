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

/** @file page/page0zip_est.cc
 Space savings estimator.

 For each B-tree of a table, a trial starts at a leaf page (at random
 positions, or at every leaf page in a full scan): the records of that page
 and of its right siblings are copied, in key order and without the
 delete-marked ones, into a scratch page of the buffer pool until it is as
 full as the uncompressed page loader of ALTER TABLE would fill it. Then,
 for each KEY_BLOCK_SIZE from 16 KB down to 1 KB, a binary search on the
 number of leading records finds the most records that page_zip_compress()
 fits into that size. This is InnoDB's own compressed page format (dense
 directory, uncompressed system columns, node pointers), at the zlib level
 the table would use.

 The fits are then fed to a model of the compressed page loader of
 ALTER TABLE (btr0load.cc): it fills a page up to the adaptive pad and
 compresses it; on failure it keeps what fits with
 innodb_compression_bulk_free_pct of the page free and carries the rest on
 (innodb_compression_bulk_split=TIGHT, then the fits are searched with that
 free space), or splits the page in half (HALF); the pad follows
 dict_index_zip_pad_update(). The variables are read when the estimate
 starts. The pages the model produces per byte of
 records, times the bytes of records in the leaf pages, give the leaf
 pages of the compressed B-tree; non-leaf pages scale with them.

 Nothing is written: the scratch pages are private, page_zip_compress()
 runs with no mini-transaction, and page_zip_est_trial keeps the trials
 out of every compression statistic and out of the adaptive padding.

 Created 2026-11-21 */

#include "page0zip_est.h"

#include <mysql/plugin.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "btr0btr.h"
#include "btr0cur.h"
#include "btr0pcur.h"
#include "buf0buf.h"
#include "ddl0ddl.h"
#include "dict0dd.h"
#include "dict0dict.h"
#include "dict0mem.h"
#include "dict0zip_opt.h"
#include "fsp0fsp.h"
#include "mtr0mtr.h"
#include "page0cur.h"
#include "page0page.h"
#include "page0zip.h"
#include "btr0load_zip.h"
#include "page0zip_fit.h"
#include "rem0rec.h"
#include "sql/current_thd.h"
#include "srv0shutdown.h"
#include "srv0srv.h"
#include "srv0start.h"

thread_local bool page_zip_est_trial = false;

thread_local page_zip_stat_t page_zip_est_stat_sink;

namespace {

/** KEY_BLOCK_SIZEs in KB, in the order of innodb_zip_estimate_t::sizes. */
constexpr ulint page_zip_est_kbs[INNODB_ZIP_EST_N_SIZES] = {1, 2, 4, 8, 16};

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

/** Page builds the loader model simulates at most per index and size;
the rest is extrapolated from the steady state. */
constexpr uint64_t PAGE_ZIP_EST_MAX_BUILDS = 1 << 20;

/** One trial: the records of a run of leaf pages as they fill one
uncompressed page. */
struct page_zip_est_unit_t {
  /** cum[c]: bytes of the first c records with their page directory. */
  std::vector<uint32_t> cum;
  /** Per size: the most leading records that compress into it with the
  free space of the bulk loader (innodb_compression_bulk_free_pct). */
  uint32_t fit[INNODB_ZIP_EST_N_SIZES];
  /** Per size: the most leading records that compress into it with
  nothing left free, as far as key-ordered inserts fill a page. */
  uint32_t fit0[INNODB_ZIP_EST_N_SIZES];
};

/** One B-tree being estimated. */
struct page_zip_est_index_t {
  /** Index id. */
  space_index_t id;
  /** Whether it is the clustered index. */
  bool clustered;
  /** Failure threshold of its adaptive padding. */
  ulint threshold;
  /** Maximum pad in percent. */
  ulint pad_max;
  /** Whether ALTER TABLE would split tightly
  (innodb_compression_bulk_split=TIGHT) */
  bool tight;
  /** Share of each compressed page in percent that the tight split keeps
  free (innodb_compression_bulk_free_pct); 0 with HALF */
  ulint free_pct;
  /** Leaf pages in use. */
  ulint leaf_pages;
  /** Pages in use in both segments. */
  ulint used_pages;
  /** Sum of the used bytes of the trials' start pages. */
  uint64_t start_bytes;
  /** Whether a trial starts at every leaf page: a full scan, or an index
  with no more leaf pages than the sample. */
  bool full;
  /** The trials. */
  std::vector<page_zip_est_unit_t> units;
};

/** Scratch blocks of the buffer pool, released at the end of the scope. */
class Page_zip_est_scratch {
 public:
  Page_zip_est_scratch()
      : m_full(buf_block_alloc(nullptr)),
        m_trial(buf_block_alloc(nullptr)),
        m_zip(buf_block_alloc(nullptr)),
        m_heap(mem_heap_create(UNIV_PAGE_SIZE, UT_LOCATION_HERE)) {}
  ~Page_zip_est_scratch() {
    buf_block_free(m_full);
    buf_block_free(m_trial);
    buf_block_free(m_zip);
    mem_heap_free(m_heap);
  }
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
};

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

/** Bytes the uncompressed loader (btr0load.cc) leaves free in a page.
@param[in]  clustered  whether the index is clustered */
ulint page_zip_est_reserve(bool clustered) {
  if (ddl::fill_factor == 100 && clustered) {
    return dict_index_get_space_reserve();
  }
  return UNIV_PAGE_SIZE * (100 - ddl::fill_factor) / 100;
}

/** Copy the user records of a leaf page and of its right siblings into
the scratch page until it is full.
@param[in]      index    index
@param[in]      start    latched leaf page to start at
@param[in,out]  mtr      mini-transaction holding the latches
@param[in,out]  s        scratch blocks
@param[out]     unit     cumulative record sizes
@param[in,out]  n_ext    records with off-page columns, added to */
void page_zip_est_collect(dict_index_t *index, buf_block_t *start,
                          mtr_t *mtr, Page_zip_est_scratch &s,
                          page_zip_est_unit_t &unit, uint64_t &n_ext) {
  page_zip_est_page_init(s.m_full, index);
  rec_t *cur = page_get_infimum_rec(s.m_full->frame);
  const ulint limit = page_get_free_space_of_empty(true);
  ulint bytes = 0;
  ulint *offsets = nullptr;
  const page_t *page = buf_block_get_frame(start);

  mem_heap_empty(s.m_heap);
  unit.cum.assign(1, 0);

  for (ulint n_pages = 1;; n_pages++) {
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
      }
      if (bytes + size + page_dir_calc_reserved_space(n) > limit) {
        return;
      }
      rec_t *ins = page_cur_insert_rec_low(cur, index, rec, offsets, nullptr);
      if (ins == nullptr) {
        return;
      }
      cur = ins;
      bytes += size;
      unit.cum.push_back(
          static_cast<uint32_t>(bytes + page_dir_calc_reserved_space(n)));
    }

    const page_no_t next = btr_page_get_next(page, mtr);
    if (n_pages >= page_zip_est_max_run(index) || next == FIL_NULL) {
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

/** Whether the first n records of the trial compress into a size.
@param[in]      index     index
@param[in,out]  s         scratch blocks
@param[in]      n         number of leading records
@param[in]      n_all     number of records in s.m_full
@param[in]      zip_size  compressed page size in bytes
@param[in]      level     zlib level
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

  page_zip_est_trial = true;
  const bool ok =
      page_zip_compress_fit(&page_zip, page, index, level, nullptr, &fit);
  page_zip_est_trial = false;
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
  while (hi - lo > 1 && unit.cum[hi] - unit.cum[lo] > PAGE_ZIP_EST_PRECISION) {
    const ulint mid = lo + (hi - lo) / 2;
    if (page_zip_est_fits(index, s, mid, n_all, zip_size, level, reserve)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** Find, for every size, how many leading records of the trial fit, with
the bulk loader's free space and with none.
@param[in]      index     index
@param[in,out]  s         scratch blocks (m_full holds the trial)
@param[in]      level     zlib level
@param[in]      free_pct  free space of the bulk loader in percent
@param[in,out]  unit      the trial */
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

/** Records of a trial that fit in a page filled up to a number of bytes.
@param[in]  unit   the trial
@param[in]  limit  bytes of records and directory the page may hold
@return number of leading records, at least 2 (or all there are), as the
loader keeps at least two records in a page */
ulint page_zip_est_recs_upto(const page_zip_est_unit_t &unit, ulint limit) {
  const auto it = std::upper_bound(unit.cum.begin(), unit.cum.end(),
                                   static_cast<uint32_t>(limit));
  const ulint n = static_cast<ulint>(it - unit.cum.begin()) - 1;
  return std::max(n, std::min<ulint>(2, unit.cum.size() - 1));
}

/** How the pages of a model are filled. */
enum page_zip_est_build_t {
  /** ALTER TABLE's page loader as innodb_compression_bulk_split and
  innodb_compression_bulk_free_pct select it. */
  PAGE_ZIP_EST_ALTER,
  /** Rows inserted in key order into the compressed table: each page
  takes records as long as it compresses with nothing left free (the
  tight split with no free space, which builds the same pages). */
  PAGE_ZIP_EST_INSERTED
};

/** Leaf pages of innodb_page_size the records of an index take packed
into full uncompressed pages, with no byte left free: the baseline of the
space savings. No compressed page holds more records than one such page (it
decompresses into one), so no size saves more than its page size promises,
records that do not compress save nothing, and compression is not credited
with pages fuller than ALTER TABLE or inserts leave uncompressed pages (15/16
of a clustered index page). Exact bytes, not whole records per page: the
record that does not fit any more is a property of the page size, not of
compression.
@param[in]  bytes  bytes of records (with their directory) in the index's
                   leaf pages
@return leaf pages */
double page_zip_est_full(double bytes) {
  return bytes / page_get_free_space_of_empty(true);
}

/** Model of the page loader of ALTER TABLE for one index: pages filled up
to the adaptive pad, compressed, split tightly or in half on failure; the
pad as in dict_index_zip_pad_update().
@param[in]  idx    the index and its trials
@param[in]  k      size index, or INNODB_ZIP_EST_N_SIZES for uncompressed
@param[in]  bytes  bytes of records in the index's leaf pages
@param[in]  build  ALTER TABLE's loader or key-ordered inserts
@return leaf pages the index would have */
double page_zip_est_model(const page_zip_est_index_t &idx, ulint k,
                          double bytes,
                          page_zip_est_build_t build = PAGE_ZIP_EST_ALTER) {
  const ulint usable = page_get_free_space_of_empty(true);
  const auto &units = idx.units;

  if (units.empty() || bytes <= 0) {
    return 0;
  }

  if (k == INNODB_ZIP_EST_N_SIZES) {
    /* Uncompressed: fill to the reserve, no compression. */
    const ulint limit = usable - page_zip_est_reserve(idx.clustered);
    double filled = 0;
    for (const auto &u : units) {
      filled += u.cum[page_zip_est_recs_upto(u, limit)];
    }
    return filled > 0 ? bytes * units.size() / filled : 0;
  }

  const ulint pad_limit = UNIV_PAGE_SIZE * idx.pad_max / 100;
  ulint pad = 0;
  ulint success = 0;
  ulint failure = 0;
  ulint n_rounds = 0;

  /* Account one compression as dict_index_zip_success() or
  dict_index_zip_failure() would. */
  auto account = [&](bool ok) {
    if (idx.threshold == 0) {
      return;
    }
    (ok ? success : failure)++;
    if (success + failure < ZIP_PAD_ROUND_LEN) {
      return;
    }
    const ulint fail_pct = failure * 100 / (success + failure);
    success = failure = 0;
    if (fail_pct > idx.threshold) {
      if (pad + ZIP_PAD_INCR < pad_limit) {
        pad += ZIP_PAD_INCR;
      }
      n_rounds = 0;
    } else if (++n_rounds >= ZIP_PAD_SUCCESSFUL_ROUND_LIMIT && pad > 0) {
      pad -= ZIP_PAD_INCR;
      n_rounds = 0;
    }
  };

  double done = 0;
  double pages = 0;
  uint64_t builds = 0;

  for (size_t i = 0; done < bytes && builds < PAGE_ZIP_EST_MAX_BUILDS;
       i = (i + 1) % units.size(), builds++) {
    const page_zip_est_unit_t &u = units[i];
    const ulint fit = build == PAGE_ZIP_EST_INSERTED ? u.fit0[k] : u.fit[k];
    if (u.cum.size() < 2) {
      /* An empty page (an empty index). */
      continue;
    }
    /* dict_index_zip_pad_optimal_page_size() */
    ulint padding = 0;
    if (idx.threshold != 0) {
      const ulint optimal =
          std::max(UNIV_PAGE_SIZE - pad,
                   UNIV_PAGE_SIZE * (100 - idx.pad_max) / 100);
      padding = UNIV_PAGE_SIZE - optimal;
    }
    const ulint n = page_zip_est_recs_upto(u, usable - std::min(padding, usable));
    /* Page_load::init() compresses the new empty page (page_create_zip()),
    a success the padding counts too. */
    account(true);
    if (n <= fit) {
      done += u.cum[n];
      account(true);
      pages += 1;
      continue;
    }
    if (idx.tight || build == PAGE_ZIP_EST_INSERTED) {
      /* Btree_load::page_split_tight(): the page keeps what fits with the
      free space (one record at least), the rest goes on to the next page,
      which this model starts afresh; failed trials do not count in the
      padding, the final compression does. */
      done += u.cum[std::max<ulint>(fit, 1)];
      account(false);
      account(true);
      pages += 1;
      continue;
    }
    done += u.cum[n];
    /* Btree_load::page_split(): halves, split again while too big; every
    new half starts as an empty compressed page. */
    account(false);
    ulint pieces = 2;
    account(true);
    while ((n + pieces - 1) / pieces > fit && pieces < n) {
      for (ulint j = 0; j < pieces; j++) {
        account(false);
        account(true);
      }
      pieces *= 2;
    }
    for (ulint j = 0; j < pieces; j++) {
      account(true);
    }
    pages += pieces;
  }

  if (done <= 0) {
    return 0;
  }
  /* Beyond the simulated builds, the last state goes on. */
  return pages * bytes / done;
}

/** Share of trials whose fully filled uncompressed page does not fit.
@param[in]  idx  the index and its trials
@param[in]  k    size index
@return failures and trials, added to the sums given */
void page_zip_est_failures(const page_zip_est_index_t &idx, ulint k,
                           uint64_t &fail, uint64_t &total) {
  const ulint limit = page_get_free_space_of_empty(true) -
                      page_zip_est_reserve(idx.clustered);
  for (const auto &u : idx.units) {
    if (u.cum.size() < 2) {
      continue;
    }
    total++;
    if (page_zip_est_recs_upto(u, limit) > u.fit[k]) {
      fail++;
    }
  }
}

/** Open the table of an estimate for one step.
@param[in]   thd       connection
@param[in]   table_id  table id
@param[out]  mdl       metadata lock
@return the table, or nullptr if it is gone */
dict_table_t *page_zip_est_open(THD *thd, uint64_t table_id, MDL_ticket **mdl) {
  *mdl = nullptr;
  return dd_table_open_on_id(table_id, thd, mdl, false, true);
}

/** Whether the records of a table may be in a format that a rebuild
would not write: instantly added columns, or row versions (INSTANT ADD or
DROP COLUMN). page_zip_compress() must not see such records.
@param[in]  table  table, held open under a metadata lock
@return true if the table cannot be estimated */
bool page_zip_est_instant(const dict_table_t *table) {
  return table->has_instant_cols() || table->has_row_versions();
}

/** Pages of a B-tree built by a model: whole leaf pages (one at least), and
non-leaf pages in the ratio of the tree now, with a root above two or more
leaves (a one-page tree now that a compressed build splits gets one).
@param[in]  leaf   leaf pages the model built (a fraction, extrapolated)
@param[in]  upper  pages in use per leaf page in the tree now
@return pages */
double page_zip_est_tree_pages(double leaf, double upper) {
  if (leaf <= 0) {
    return 0;
  }
  const double n_leaf = std::max(1.0, std::ceil(leaf - 1e-6));
  if (n_leaf <= 1) {
    return 1;
  }
  return n_leaf + std::max(1.0, n_leaf * (upper - 1));
}

/** Count the pages of an index.
@param[in]   index  index
@param[out]  leaf   leaf pages in use
@param[out]  used   pages in use in both segments
@return false if the index cannot be read */
bool page_zip_est_index_size(dict_index_t *index, ulint *leaf, ulint *used) {
  mtr_t mtr;
  mtr_start(&mtr);
  mtr_s_lock(dict_index_get_lock(index), &mtr, UT_LOCATION_HERE);
  *leaf = btr_get_size(index, BTR_N_LEAF_PAGES, &mtr);
  if (*leaf == ULINT_UNDEFINED) {
    mtr_commit(&mtr);
    return false;
  }
  page_t *root = btr_root_get(index, &mtr);
  ulint top = 0;
  ulint n_leaf = 0;
  fseg_n_reserved_pages(root + PAGE_HEADER + PAGE_BTR_SEG_TOP, &top, &mtr);
  fseg_n_reserved_pages(root + PAGE_HEADER + PAGE_BTR_SEG_LEAF, &n_leaf, &mtr);
  *used = top + n_leaf;
  mtr_commit(&mtr);
  return true;
}

/** Whether an index is estimated: a committed B-tree that a rebuild keeps
(not full-text, not spatial, not corrupted, not being built or dropped). */
bool page_zip_est_wanted(const dict_index_t *index) {
  return !(index->type & (DICT_FTS | DICT_SPATIAL)) &&
         !index->is_corrupted() && !index->to_be_dropped &&
         index->is_committed() && index->page != FIL_NULL &&
         !dict_index_is_online_ddl(index);
}

}  // namespace

int page_zip_est_table(uint64_t table_id, uint64_t sample_pages,
                       bool full_scan, innodb_zip_est_progress_t progress,
                       void *ctx, innodb_zip_estimate_t *est) {
  THD *thd = current_thd;

  if (thd == nullptr || srv_is_being_started || dict_sys == nullptr ||
      srv_shutdown_state.load() != SRV_SHUTDOWN_NONE || table_id == 0 ||
      table_id == UINT64_MAX || dict_table_is_sdi(table_id)) {
    return INNODB_ZIP_EST_NO_TABLE;
  }
  if (UNIV_PAGE_SIZE > UNIV_ZIP_SIZE_MAX) {
    /* ROW_FORMAT=COMPRESSED needs innodb_page_size <= 16K. */
    return INNODB_ZIP_EST_PAGE_SIZE;
  }
  if (sample_pages == 0) {
    sample_pages = 1;
  }
  /* The loader ALTER TABLE would use now, read once for all indexes. */
  const bool tight = btr_load_zip_split == BTR_LOAD_ZIP_SPLIT_TIGHT;
  const ulint free_pct = btr_load_zip_free_pct;

  std::vector<page_zip_est_index_t> indexes;
  ulint other_pages = 0;
  ulint level = 0;

  /* 1. What to estimate, under one metadata lock. */
  {
    MDL_ticket *mdl;
    dict_table_t *table = page_zip_est_open(thd, table_id, &mdl);
    if (table == nullptr) {
      return INNODB_ZIP_EST_NO_TABLE;
    }
    int err = INNODB_ZIP_EST_OK;
    if (!dict_table_is_comp(table)) {
      err = INNODB_ZIP_EST_REDUNDANT;
    } else if (table->ibd_file_missing || dict_table_is_discarded(table) ||
               table->is_corrupted() ||
               srv_force_recovery >= SRV_FORCE_NO_IBUF_MERGE) {
      err = INNODB_ZIP_EST_UNREADABLE;
    } else if (page_zip_est_instant(table)) {
      err = INNODB_ZIP_EST_INSTANT;
    }

    const page_size_t page_size = dict_table_page_size(table);
    est->logical_page_size = static_cast<uint32_t>(page_size.logical());
    est->physical_page_size = static_cast<uint32_t>(page_size.physical());
    est->is_compressed = page_size.is_compressed() ? 1 : 0;
    level = dict_index_zip_level(table->first_index());
    est->level = static_cast<uint32_t>(level);

    for (dict_index_t *index = table->first_index();
         err == INNODB_ZIP_EST_OK && index != nullptr; index = index->next()) {
      if (index->type & DICT_FTS) {
        continue;
      }
      page_zip_est_index_t idx;
      ulint leaf = 0;
      ulint used = 0;
      if (index->page == FIL_NULL ||
          !page_zip_est_index_size(index, &leaf, &used)) {
        continue;
      }
      if (!page_zip_est_wanted(index)) {
        /* Kept at the table's average ratio. */
        other_pages += used;
        continue;
      }
      idx.id = index->id;
      idx.clustered = index->is_clustered();
      idx.threshold = dict_index_zip_failure_threshold_pct(index);
      idx.pad_max = dict_index_zip_pad_pct_max(index);
      idx.tight = tight;
      idx.free_pct = tight ? free_pct : 0;
      idx.leaf_pages = std::max<ulint>(leaf, 1);
      idx.used_pages = std::max(used, idx.leaf_pages);
      idx.start_bytes = 0;
      idx.full = full_scan || idx.leaf_pages <= sample_pages;
      indexes.push_back(std::move(idx));
    }
    dd_table_close(table, thd, &mdl, false);
    if (err != INNODB_ZIP_EST_OK) {
      return err;
    }
  }

  uint64_t total = 0;
  for (const auto &idx : indexes) {
    total += idx.full ? idx.leaf_pages : sample_pages;
  }

  /* 2. The trials, each under its own metadata lock so that DDL can go
  on between them: each trial checks the table again. */
  Page_zip_est_scratch scratch;
  uint64_t done = 0;
  uint64_t sampled_recs = 0;
  uint64_t extern_recs = 0;

  for (auto &idx : indexes) {
    const bool full = idx.full;
    const uint64_t n_trials = full ? UINT64_MAX : sample_pages;
    page_no_t next = FIL_NULL;

    for (uint64_t t = 0; t < n_trials; t++) {
      if (thd_killed(thd)) {
        return INNODB_ZIP_EST_INTERRUPTED;
      }
      MDL_ticket *mdl;
      dict_table_t *table = page_zip_est_open(thd, table_id, &mdl);
      if (table == nullptr) {
        return INNODB_ZIP_EST_DROPPED;
      }
      /* An ALTER TABLE ... ALGORITHM=INSTANT between two trials (it waits
      for the metadata lock of a trial, not for the estimate) reloads the
      table with row versions: check again under this trial's lock, which
      keeps the table as it is until dd_table_close(). */
      if (page_zip_est_instant(table)) {
        dd_table_close(table, thd, &mdl, false);
        return INNODB_ZIP_EST_INSTANT;
      }
      dict_index_t *index = table->first_index();
      while (index != nullptr && index->id != idx.id) {
        index = index->next();
      }
      if (index == nullptr || !page_zip_est_wanted(index)) {
        dd_table_close(table, thd, &mdl, false);
        return INNODB_ZIP_EST_ALTERED;
      }

      mtr_t mtr;
      mtr_start(&mtr);
      buf_block_t *block = nullptr;
      if (!full) {
        btr_cur_t cursor;
        if (btr_cur_open_at_rnd_pos(index, BTR_SEARCH_LEAF, &cursor, __FILE__,
                                    __LINE__, &mtr)) {
          block = btr_cur_get_block(&cursor);
        }
      } else if (t == 0) {
        btr_pcur_t pcur;
        pcur.open_at_side(true, index, BTR_SEARCH_LEAF, true, 0, &mtr);
        block = pcur.get_block();
        pcur.close();
      } else if (next != FIL_NULL) {
        block = btr_block_get(page_id_t(index->space, next),
                              dict_table_page_size(table), RW_S_LATCH,
                              UT_LOCATION_HERE, index, &mtr);
        const page_t *p = buf_block_get_frame(block);
        if (!fil_page_index_page_check(p) || !page_is_leaf(p) ||
            btr_page_get_index_id(p) != index->id) {
          /* The tree changed under the scan: stop it here. */
          block = nullptr;
        }
      }

      if (block != nullptr) {
        const page_t *page = buf_block_get_frame(block);
        idx.start_bytes += page_get_data_size(page) +
                           page_dir_calc_reserved_space(page_get_n_recs(page));
        next = btr_page_get_next(page, &mtr);
        page_zip_est_unit_t unit;
        page_zip_est_collect(index, block, &mtr, scratch, unit, extern_recs);
        mtr_commit(&mtr);
        sampled_recs += unit.cum.size() - 1;
        page_zip_est_fit_sizes(index, scratch, level, idx.free_pct, unit);
        idx.units.push_back(std::move(unit));
      } else {
        mtr_commit(&mtr);
        next = FIL_NULL;
      }
      dd_table_close(table, thd, &mdl, false);

      if (full && total < done + 1) {
        /* The index grew during the scan. */
        total = done + 1;
      }
      if (progress != nullptr) {
        progress(ctx, ++done, total);
      }
      if (full && next == FIL_NULL) {
        break;
      }
    }
  }

  /* 3. Extrapolation. */
  double uncompressed = 0;
  double full = 0;
  double estimated[INNODB_ZIP_EST_N_SIZES] = {};
  double inserted[INNODB_ZIP_EST_N_SIZES] = {};
  uint64_t fail[INNODB_ZIP_EST_N_SIZES] = {};
  uint64_t trials[INNODB_ZIP_EST_N_SIZES] = {};
  uint64_t leaf_pages = 0;
  uint64_t used_pages = other_pages;
  uint64_t sampled_pages = 0;
  double data_bytes = 0;
  double known_used = 0;

  for (const auto &idx : indexes) {
    leaf_pages += idx.leaf_pages;
    used_pages += idx.used_pages;
    sampled_pages += idx.units.size();
    if (idx.units.empty()) {
      continue;
    }
    /* Bytes of records in all leaf pages: every leaf page was a start
    page in a full scan; else the average start page times the pages. */
    const double bytes =
        idx.full ? static_cast<double>(idx.start_bytes)
                  : static_cast<double>(idx.start_bytes) / idx.units.size() *
                        idx.leaf_pages;
    data_bytes += bytes;
    known_used += idx.used_pages;
    /* Non-leaf pages in proportion to the leaf pages. */
    const double upper = static_cast<double>(idx.used_pages) / idx.leaf_pages;
    uncompressed += page_zip_est_tree_pages(
        page_zip_est_model(idx, INNODB_ZIP_EST_N_SIZES, bytes), upper);
    /* The baseline is not rounded to whole pages: the compressed sizes
    are, so that a small table that does not compress saves nothing. */
    full += std::max(1.0, page_zip_est_full(bytes) * upper);
    for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
      estimated[k] +=
          page_zip_est_tree_pages(page_zip_est_model(idx, k, bytes), upper);
      inserted[k] += page_zip_est_tree_pages(
          page_zip_est_model(idx, k, bytes, PAGE_ZIP_EST_INSERTED), upper);
      page_zip_est_failures(idx, k, fail[k], trials[k]);
    }
  }

  /* Indexes not estimated (spatial) keep the table's ratio. */
  const double scale = known_used > 0 ? (known_used + other_pages) / known_used
                                      : 1.0;

  bool all_full = true;
  for (const auto &idx : indexes) {
    all_full = all_full && idx.full;
  }
  est->full_scan = all_full ? 1 : 0;
  est->n_indexes = static_cast<uint32_t>(indexes.size());
  est->used_pages = used_pages;
  est->leaf_pages = leaf_pages;
  est->sampled_pages = sampled_pages;
  est->sampled_records = sampled_recs;
  est->data_bytes = static_cast<uint64_t>(data_bytes);
  /* The same loader model for both sizes, so that the savings measure how
  the data compresses, not how fragmented the table is now. */
  est->uncompressed_pages = static_cast<uint64_t>(uncompressed * scale + 0.5);
  est->full_pages = static_cast<uint64_t>(full * scale + 0.5);
  est->extern_records = extern_recs;
  for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
    const ulint kbs = page_zip_est_kbs[k];
    auto &out = est->sizes[k];
    if (kbs * 1024 > UNIV_PAGE_SIZE) {
      out.key_block_size = 0;
      out.pages = 0;
      out.failure_pct = 0;
      est->inserted_pages[k] = 0;
      continue;
    }
    est->inserted_pages[k] = static_cast<uint64_t>(inserted[k] * scale + 0.5);
    out.key_block_size = static_cast<uint32_t>(kbs);
    out.pages = static_cast<uint64_t>(estimated[k] * scale + 0.5);
    out.failure_pct =
        trials[k] == 0 ? 0.0 : 100.0 * static_cast<double>(fail[k]) / trials[k];
  }
  return INNODB_ZIP_EST_OK;
}
