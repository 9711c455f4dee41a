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


/** @file dict/dict0zip_est.cc
 Space savings estimator, the driver (include/dict0zip_est.h).

 Created 2026-11-21 (moved from page/page0zip_est.cc in issue 31) */

#include "dict0zip_est.h"
#include "btr0load_est.h"
#include "page0comp_est.h"
#include "page0zip_codec.h"
#include "page0zip_est.h"

#include <mysql/plugin.h>

#include <algorithm>
#include <vector>

#include "btr0btr.h"
#include "btr0cur.h"
#include "btr0load_zip.h"
#include "btr0pcur.h"
#include "buf0buf.h"
#include "dict0dd.h"
#include "dict0dict.h"
#include "dict0mem.h"
#include "dict0zip_opt.h"
#include "fsp0est.h"
#include "fsp0fsp.h"
#include "lob0pages.h"
#include "mtr0mtr.h"
#include "page0page.h"
#include "page0zip.h"
#include "sql/current_thd.h"
#include "srv0shutdown.h"
#include "srv0srv.h"
#include "srv0start.h"

namespace {

/** Trials of one index the loader model keeps at most. A full scan (or a
sample that large) trial-compresses every page it reads and counts every
page in the sums, but keeps the record sizes of a uniform sample of this
many trials (reservoir sampling) for the model: bounded memory, 2 bytes per
record of a trial, so at most 2.5 MB per index (the narrowest records,
1,250 in a 16 KB page) and 0.2 MB for 200-byte rows, whatever the size of
the table. (It kept every trial: a quarter of the leaf bytes of narrow
rows.) */
constexpr size_t DICT_ZIP_EST_MAX_UNITS = 1024;

/** One B-tree being estimated. */
struct dict_zip_est_index_t {
  /** Index id. */
  space_index_t id;
  /** Its page loader (clustered, adaptive padding, split). */
  btr_load_est_t loader;
  /** Share of each compressed page in percent that the tight split keeps
  free (innodb_compression_bulk_free_pct); 0 with HALF */
  ulint free_pct;
  /** B-tree leaf pages. */
  ulint leaf_pages;
  /** Pages in use in both segments, BLOB pages included. */
  ulint used_pages;
  /** BLOB pages in the leaf segment now. */
  ulint lob_pages;
  /** Sum of the used bytes of the trials' start pages. */
  uint64_t start_bytes;
  /** Whether a trial starts at every leaf page: a full scan, or an index
  with no more leaf pages than the sample. */
  bool full;
  /** Trials made (start pages read). */
  uint64_t started{0};
  /** Sums over all trials made, of what each unit also holds: bytes of the
  off-page columns, their uncompressed and compressed BLOB pages. */
  double sum_lob_bytes{0};
  double sum_lob_pages{0};
  double sum_lob_zip[INNODB_ZIP_EST_N_SIZES]{};
  /** Page compression: trials measured, and by method the sums of their
  bytes on disk and the trials that stay whole; BLOB data pages measured
  and their bytes on disk. */
  uint64_t pc_trials{0};
  double sum_pc_bytes[INNODB_ZIP_EST_N_PAGE_METHODS]{};
  uint64_t pc_whole[INNODB_ZIP_EST_N_PAGE_METHODS]{};
  double sum_lob_pc_pages{0};
  double sum_lob_pc_bytes[INNODB_ZIP_EST_N_PAGE_METHODS]{};
  /** A uniform sample of at most DICT_ZIP_EST_MAX_UNITS of the trials,
  for the loader model. */
  page_zip_est_vector_t<page_zip_est_unit_t> units{
      page_zip_est_vector<page_zip_est_unit_t>()};
  /** State of the reservoir sampling. */
  uint64_t rng{0x9E3779B97F4A7C15ULL};

  /** Add a trial: count it in the sums, keep it in the sample with
  probability DICT_ZIP_EST_MAX_UNITS / started (Algorithm R). */
  void add(page_zip_est_unit_t &&unit) {
    started++;
    sum_lob_bytes += unit.lob_bytes;
    sum_lob_pages += unit.lob_pages;
    for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
      sum_lob_zip[k] += unit.lob_zip[k];
    }
    if (unit.pc_bytes[0] != 0) {
      pc_trials++;
      for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
        sum_pc_bytes[m] += unit.pc_bytes[m];
        pc_whole[m] += unit.pc_bytes[m] >= UNIV_PAGE_SIZE;
      }
    }
    sum_lob_pc_pages += unit.lob_pc_pages;
    for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
      sum_lob_pc_bytes[m] += unit.lob_pc_bytes[m];
    }
    if (units.size() < DICT_ZIP_EST_MAX_UNITS) {
      units.push_back(std::move(unit));
      return;
    }
    /* xorshift64: the same tables give the same estimates. */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    const uint64_t j = rng % started;
    if (j < DICT_ZIP_EST_MAX_UNITS) {
      units[j] = std::move(unit);
    }
  }
};

/** Open the table of an estimate for one step.
@param[in]   thd       connection
@param[in]   table_id  table id
@param[out]  mdl       metadata lock
@return the table, or nullptr if it is gone */
dict_table_t *dict_zip_est_open(THD *thd, uint64_t table_id, MDL_ticket **mdl) {
  *mdl = nullptr;
  return dd_table_open_on_id(table_id, thd, mdl, false, true);
}

/** Whether the records of a table may be in a format that a rebuild
would not write: instantly added columns, or row versions (INSTANT ADD or
DROP COLUMN). page_zip_compress() must not see such records.
@param[in]  table  table, held open under a metadata lock
@return true if the table cannot be estimated */
bool dict_zip_est_instant(const dict_table_t *table) {
  return table->has_instant_cols() || table->has_row_versions();
}

/** Whether the records of an index may have columns stored off-page: a
clustered index with a long column (BLOB, TEXT, JSON, long VARCHAR). */
bool dict_zip_est_may_have_lobs(const dict_index_t *index) {
  if (!index->is_clustered()) {
    return false;
  }
  for (ulint i = 0; i < index->n_fields; i++) {
    if (DATA_BIG_COL(index->get_col(i))) {
      return true;
    }
  }
  return false;
}

/** Leaf pages of a B-tree, counted as the node pointers one level up.
@param[in]      index  index
@param[in]      root   its latched root page
@param[in,out]  mtr    mini-transaction holding the index SX-latched
@return leaf pages */
ulint dict_zip_est_count_leaves(dict_index_t *index, const page_t *root,
                                mtr_t *mtr) {
  if (page_is_leaf(root)) {
    return 1;
  }
  btr_pcur_t pcur;
  pcur.open_at_side(true, index, BTR_SEARCH_TREE | BTR_ALREADY_S_LATCHED, true,
                    1, mtr);
  buf_block_t *block = pcur.get_block();
  pcur.close();
  ulint n = 0;
  for (;;) {
    const page_t *page = buf_block_get_frame(block);
    n += page_get_n_recs(page);
    const page_no_t next = btr_page_get_next(page, mtr);
    if (next == FIL_NULL) {
      break;
    }
    /* The index latch keeps the level as it is; keep only one page of
    it latched. */
    buf_block_t *right =
        btr_block_get(page_id_t(index->space, next),
                      dict_table_page_size(index->table), RW_S_LATCH,
                      UT_LOCATION_HERE, index, mtr);
    mtr->memo_release(block, MTR_MEMO_PAGE_S_FIX);
    block = right;
  }
  return std::max<ulint>(n, 1);
}

/** Count the pages of an index.
@param[in]   index  index
@param[out]  leaf   B-tree leaf pages
@param[out]  used   pages in use in both segments
@param[out]  lobs   BLOB pages in the leaf segment
@return false if the index cannot be read */
bool dict_zip_est_index_size(dict_index_t *index, ulint *leaf, ulint *used,
                             ulint *lobs) {
  mtr_t mtr;
  mtr_start(&mtr);
  mtr_s_lock(dict_index_get_lock(index), &mtr, UT_LOCATION_HERE);
  *leaf = btr_get_size(index, BTR_N_LEAF_PAGES, &mtr);
  *lobs = 0;
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
  if (!dict_zip_est_may_have_lobs(index)) {
    return true;
  }
  /* The leaf segment holds the BLOB pages too (btr_get_size()): count the
  B-tree leaves one level up. Walking a level needs the index SX-latched
  (btr_cur_open_at_index_side() with BTR_ALREADY_S_LATCHED, as dict_stats
  does), where btr_get_size() wants it S-latched: a second
  mini-transaction. The tree may have changed in between; the clamp below
  keeps the figures consistent. */
  mtr_start(&mtr);
  mtr_sx_lock(dict_index_get_lock(index), &mtr, UT_LOCATION_HERE);
  if (index->page != FIL_NULL && !dict_index_is_online_ddl(index) &&
      index->is_committed()) {
    const ulint btree =
        dict_zip_est_count_leaves(index, btr_root_get(index, &mtr), &mtr);
    if (btree < *leaf) {
      *lobs = *leaf - btree;
      *leaf = btree;
    }
  }
  mtr_commit(&mtr);
  return true;
}

/** Whether an index is estimated: a committed B-tree that a rebuild keeps
(not full-text, not spatial, not corrupted, not being built or dropped). */
bool dict_zip_est_wanted(const dict_index_t *index) {
  return !(index->type & (DICT_FTS | DICT_SPATIAL)) &&
         !index->is_corrupted() && !index->to_be_dropped &&
         index->is_committed() && index->page != FIL_NULL &&
         !dict_index_is_online_ddl(index);
}

/** What an estimate works on, found by its first phase. */
struct dict_zip_est_plan_t {
  /** The indexes estimated. */
  page_zip_est_vector_t<dict_zip_est_index_t> indexes{
      page_zip_est_vector<dict_zip_est_index_t>()};
  /** Pages of the indexes not estimated (spatial, being built), kept at
  the table's average ratio. */
  ulint other_pages{0};
  /** The table's zlib level word (page0zip_codec.h). */
  ulint level{0};
  /** Whether the file can take page compression, and its block size. */
  page_comp_est_file_t pc_file;
};

/** Phase 1: what to estimate, under one metadata lock: the table's page
size, level and file, and for each index its loader, its pages and whether
every leaf page starts a trial. Fills the page size, level and codec of
the estimate even when the table cannot be estimated.
@param[in]   thd           connection
@param[in]   table_id      table id
@param[in]   sample_pages  leaf pages to sample per index
@param[in]   full_scan     start a trial at every leaf page
@param[out]  plan          what to estimate
@param[out]  est           the estimate: its page sizes, level and codec
@return INNODB_ZIP_EST_OK or why the table cannot be estimated */
int dict_zip_est_prepare(THD *thd, uint64_t table_id, uint64_t sample_pages,
                         bool full_scan, dict_zip_est_plan_t &plan,
                         innodb_zip_estimate_t *est) {
  /* The loader ALTER TABLE would use now, read once for all indexes. */
  const bool tight = btr_load_zip_split == BTR_LOAD_ZIP_SPLIT_TIGHT;
  const ulint free_pct = btr_load_zip_free_pct;

  MDL_ticket *mdl;
  dict_table_t *table = dict_zip_est_open(thd, table_id, &mdl);
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
  } else if (dict_zip_est_instant(table)) {
    err = INNODB_ZIP_EST_INSTANT;
  }

  const page_size_t page_size = dict_table_page_size(table);
  est->logical_page_size = static_cast<uint32_t>(page_size.logical());
  est->physical_page_size = static_cast<uint32_t>(page_size.physical());
  est->is_compressed = page_size.is_compressed() ? 1 : 0;
  plan.level = dict_index_zip_level(table->first_index());
  est->level = static_cast<uint32_t>(page_zip_level_value(plan.level));
  est->codec = static_cast<uint32_t>(page_zip_level_codec(plan.level));
  if (err == INNODB_ZIP_EST_OK) {
    page_comp_est_file(table->space, &plan.pc_file);
  }

  for (dict_index_t *index = table->first_index();
       err == INNODB_ZIP_EST_OK && index != nullptr; index = index->next()) {
    if (index->type & DICT_FTS) {
      continue;
    }
    dict_zip_est_index_t idx;
    ulint leaf = 0;
    ulint used = 0;
    ulint lobs = 0;
    if (index->page == FIL_NULL ||
        !dict_zip_est_index_size(index, &leaf, &used, &lobs)) {
      continue;
    }
    if (!dict_zip_est_wanted(index)) {
      /* Kept at the table's average ratio. */
      plan.other_pages += used;
      continue;
    }
    idx.id = index->id;
    idx.loader.clustered = index->is_clustered();
    idx.loader.threshold = dict_index_zip_failure_threshold_pct(index);
    idx.loader.pad_max = dict_index_zip_pad_pct_max(index);
    idx.loader.tight = tight;
    idx.free_pct = tight ? free_pct : 0;
    idx.leaf_pages = std::max<ulint>(leaf, 1);
    idx.used_pages = std::max(used, idx.leaf_pages + lobs);
    idx.lob_pages = lobs;
    idx.start_bytes = 0;
    idx.full = full_scan || idx.leaf_pages <= sample_pages;
    plan.indexes.push_back(std::move(idx));
  }
  dd_table_close(table, thd, &mdl, false);
  return err;
}

/** One trial of an index, under its own metadata lock: the table is
opened and checked again, the trial's start page found (a random leaf
page, or the next one of a full scan), its records refilled into a page,
their fits found at every size and, where the file can take it, their page
compression measured.
@param[in]      thd           connection
@param[in]      table_id      table id
@param[in,out]  idx           the index: the trial is added to it
@param[in]      t             number of the trial in the index
@param[in,out]  next          in a full scan, the leaf page after the last
                              start page; FIL_NULL after the last one
@param[in,out]  scratch       scratch blocks
@param[in]      level         the table's zlib level word
@param[in,out]  sampled_recs  records refilled, added to
@param[in,out]  extern_recs   records with off-page columns, added to
@return INNODB_ZIP_EST_OK, or why the estimate stops */
int dict_zip_est_trial(THD *thd, uint64_t table_id, dict_zip_est_index_t &idx,
                       uint64_t t, page_no_t &next,
                       Page_zip_est_scratch &scratch, ulint level,
                       uint64_t &sampled_recs, uint64_t &extern_recs) {
  const bool full = idx.full;
  MDL_ticket *mdl;
  dict_table_t *table = dict_zip_est_open(thd, table_id, &mdl);
  if (table == nullptr) {
    return INNODB_ZIP_EST_DROPPED;
  }
  /* An ALTER TABLE ... ALGORITHM=INSTANT between two trials (it waits
  for the metadata lock of a trial, not for the estimate) reloads the
  table with row versions: check again under this trial's lock, which
  keeps the table as it is until dd_table_close(). */
  if (dict_zip_est_instant(table)) {
    dd_table_close(table, thd, &mdl, false);
    return INNODB_ZIP_EST_INSTANT;
  }
  dict_index_t *index = table->first_index();
  while (index != nullptr && index->id != idx.id) {
    index = index->next();
  }
  if (index == nullptr || !dict_zip_est_wanted(index)) {
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
    page_zip_est_collect(index, block, &mtr, scratch, unit, extern_recs,
                         level);
    mtr_commit(&mtr);
    sampled_recs += unit.cum.size() - 1;
    page_zip_est_fit_sizes(index, scratch, level, idx.free_pct, unit);
    if (scratch.m_pc_block_size != 0) {
      page_zip_est_page_comp(index, scratch, unit);
    }
    idx.add(std::move(unit));
  } else {
    mtr_commit(&mtr);
    next = FIL_NULL;
  }
  dd_table_close(table, thd, &mdl, false);
  return INNODB_ZIP_EST_OK;
}

/** Phase 2: the trials of every index, each under its own metadata lock
so that DDL can go on between them (each trial checks the table again).
@param[in]      thd           connection
@param[in]      table_id      table id
@param[in]      sample_pages  leaf pages to sample per index
@param[in]      progress      progress callback, or nullptr
@param[in]      ctx           argument of the callback
@param[in,out]  plan          what to estimate: the trials are added
@param[out]     sampled_recs  records refilled
@param[out]     extern_recs   records with off-page columns
@return INNODB_ZIP_EST_OK, or why the estimate stopped */
int dict_zip_est_sample(THD *thd, uint64_t table_id, uint64_t sample_pages,
                        innodb_zip_est_progress_t progress, void *ctx,
                        dict_zip_est_plan_t &plan, uint64_t &sampled_recs,
                        uint64_t &extern_recs) {
  uint64_t total = 0;
  for (const auto &idx : plan.indexes) {
    total += idx.full ? idx.leaf_pages : sample_pages;
  }

  Page_zip_est_scratch scratch;
  if (plan.pc_file.status == INNODB_ZIP_EST_PAGE_OK) {
    scratch.m_pc_block_size = plan.pc_file.block_size;
  }
  uint64_t done = 0;
  sampled_recs = 0;
  extern_recs = 0;

  for (auto &idx : plan.indexes) {
    const bool full = idx.full;
    const uint64_t n_trials = full ? UINT64_MAX : sample_pages;
    page_no_t next = FIL_NULL;

    for (uint64_t t = 0; t < n_trials; t++) {
      if (thd_killed(thd)) {
        return INNODB_ZIP_EST_INTERRUPTED;
      }
      const int err = dict_zip_est_trial(thd, table_id, idx, t, next, scratch,
                                         plan.level, sampled_recs, extern_recs);
      if (err != INNODB_ZIP_EST_OK) {
        return err;
      }
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
  return INNODB_ZIP_EST_OK;
}

/** The segments of one rebuilt index, for the file model (fsp0est.h):
its leaf segment (leaf pages and BLOB pages) and its non-leaf segment (the
pages above the leaves, the root among them; the root alone if the index
fits on one page).
@param[in]      leaf      leaf pages of the rebuilt index
@param[in]      tree      all its B-tree pages
@param[in]      lob       its BLOB pages
@param[in,out]  segments  the two segments are appended */
void dict_zip_est_segments(double leaf, double tree, double lob,
                           page_zip_est_vector_t<uint64_t> &segments) {
  const auto round = [](double x) {
    return static_cast<uint64_t>(std::max(0.0, x) + 0.5);
  };
  if (tree <= 1.5) {
    segments.push_back(round(lob));
    segments.push_back(1);
  } else {
    segments.push_back(round(leaf + lob));
    segments.push_back(std::max<uint64_t>(1, round(tree - leaf)));
  }
}

/** Phase 3: extrapolation of the trials to the table, and the estimate.
@param[in]   plan          what was estimated, with the trials
@param[in]   sampled_recs  records refilled
@param[in]   extern_recs   records with off-page columns
@param[out]  est           the estimate */
void dict_zip_est_extrapolate(const dict_zip_est_plan_t &plan,
                              uint64_t sampled_recs, uint64_t extern_recs,
                              innodb_zip_estimate_t *est) {
  const auto &indexes = plan.indexes;
  const ulint other_pages = plan.other_pages;
  const page_comp_est_file_t &pc_file = plan.pc_file;
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
  double extern_bytes = 0;
  uint64_t extern_pages = 0;
  double known_used = 0;
  double pc_bytes[INNODB_ZIP_EST_N_PAGE_METHODS] = {};
  uint64_t pc_trials = 0;
  uint64_t pc_whole[INNODB_ZIP_EST_N_PAGE_METHODS] = {};
  /* The pages of each segment of the rebuilt indexes, uncompressed and by
  KEY_BLOCK_SIZE: the file the rebuild leaves (fsp0est.h). */
  page_zip_est_vector_t<uint64_t> segments{page_zip_est_vector<uint64_t>()};
  page_zip_est_vector_t<uint64_t> zip_segments[INNODB_ZIP_EST_N_SIZES];
  for (auto &z : zip_segments) {
    z = page_zip_est_vector<uint64_t>();
  }

  for (const auto &idx : indexes) {
    leaf_pages += idx.leaf_pages;
    used_pages += idx.used_pages;
    sampled_pages += idx.started;
    if (idx.units.empty()) {
      continue;
    }
    /* Bytes of records in all leaf pages: every leaf page was a start
    page in a full scan; else the average start page times the pages. */
    const double bytes =
        idx.full ? static_cast<double>(idx.start_bytes)
                  : static_cast<double>(idx.start_bytes) / idx.started *
                        idx.leaf_pages;
    data_bytes += bytes;
    known_used += idx.used_pages;
    /* Off-page columns: as the bytes of records, the start pages' times the
    leaf pages. */
    const double per_start =
        idx.full ? 1.0 : static_cast<double>(idx.leaf_pages) / idx.started;
    const double lob_bytes = idx.sum_lob_bytes * per_start;
    const double lob_pages = idx.sum_lob_pages * per_start;
    double lob_zip[INNODB_ZIP_EST_N_SIZES] = {};
    for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
      lob_zip[k] = idx.sum_lob_zip[k] * per_start;
    }
    extern_bytes += lob_bytes;
    extern_pages += idx.lob_pages;
    /* Non-leaf pages in proportion to the leaf pages. */
    const double upper =
        static_cast<double>(idx.used_pages - idx.lob_pages) / idx.leaf_pages;
    const double leaf = btr_load_est_leaf_pages(
        idx.loader, idx.units, INNODB_ZIP_EST_N_SIZES, bytes);
    const double tree_pages = btr_load_est_tree_pages(leaf, upper);
    uncompressed += tree_pages + lob_pages;
    dict_zip_est_segments(leaf, tree_pages, lob_pages, segments);
    /* Page compression: the pages of the uncompressed rebuild, at the
    average bytes on disk of the trials' pages (non-leaf pages as leaf
    pages) and of the BLOB data pages read (whole if none was). */
    pc_trials += idx.pc_trials;
    for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
      const double page = idx.pc_trials > 0
                              ? idx.sum_pc_bytes[m] / idx.pc_trials
                              : static_cast<double>(UNIV_PAGE_SIZE);
      const double lob = idx.sum_lob_pc_pages > 0
                             ? idx.sum_lob_pc_bytes[m] / idx.sum_lob_pc_pages
                             : static_cast<double>(UNIV_PAGE_SIZE);
      pc_bytes[m] += tree_pages * page + lob_pages * lob;
      pc_whole[m] += idx.pc_whole[m];
    }
    /* The baseline is not rounded to whole pages: the compressed sizes
    are, so that a small table that does not compress saves nothing.
    Off-page columns in full BLOB data pages. */
    full += std::max(1.0, btr_load_est_full(bytes) * upper) +
            lob_bytes / lob::data_page_t::payload();
    for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
      const double leaf_k =
          btr_load_est_leaf_pages(idx.loader, idx.units, k, bytes);
      const double tree_k = btr_load_est_tree_pages(leaf_k, upper);
      estimated[k] += tree_k + lob_zip[k];
      dict_zip_est_segments(leaf_k, tree_k, lob_zip[k], zip_segments[k]);
      inserted[k] +=
          btr_load_est_tree_pages(
              btr_load_est_leaf_pages(idx.loader, idx.units, k, bytes,
                                      BTR_LOAD_EST_INSERTED),
              upper) +
          lob_zip[k];
      btr_load_est_failures(idx.loader, idx.units, k, fail[k], trials[k]);
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
  est->extern_bytes = static_cast<uint64_t>(extern_bytes + 0.5);
  est->extern_pages = extern_pages;
  est->page_status = pc_file.status;
  est->fs_block_size = pc_file.block_size;
  est->page_compression = pc_file.current;
  est->page_zlib_level = page_zip_level;
  est->file_bytes = pc_file.file_bytes;
  est->file_allocated_bytes = pc_file.allocated_bytes;
  est->file_free_allocated_bytes = pc_file.free_allocated_bytes;
  est->file_free_measured = pc_file.free_measured ? 1 : 0;
  for (ulint m = 0; m < INNODB_ZIP_EST_N_PAGE_METHODS; m++) {
    const bool ok = pc_file.status == INNODB_ZIP_EST_PAGE_OK;
    est->page_bytes[m] =
        ok ? static_cast<uint64_t>(pc_bytes[m] * scale + 0.5) : 0;
    est->page_whole_pct[m] =
        ok && pc_trials > 0 ? 100.0 * pc_whole[m] / pc_trials : 0.0;
  }
  /* The file a rebuild leaves, where the table has a file of its own. */
  const bool own_file = pc_file.status != INNODB_ZIP_EST_PAGE_NOT_ESTIMATED &&
                        pc_file.status != INNODB_ZIP_EST_PAGE_SHARED_TABLESPACE;
  /* The indexes not estimated as the others, in proportion. */
  const auto scale_segments = [scale](page_zip_est_vector_t<uint64_t> &v) {
    for (auto &u : v) {
      u = static_cast<uint64_t>(static_cast<double>(u) * scale + 0.5);
    }
  };
  scale_segments(segments);
  for (auto &z : zip_segments) {
    scale_segments(z);
  }
  est->rebuilt_file_estimated = own_file ? 1 : 0;
  const fsp_est_file_t file =
      own_file ? fsp_est_rebuilt_file(univ_page_size, segments.data(),
                                      segments.size())
               : fsp_est_file_t{};
  est->rebuilt_other_pages = file.other_pages;
  est->rebuilt_free_pages = file.free_pages;
  for (ulint k = 0; k < INNODB_ZIP_EST_N_SIZES; k++) {
    const ulint kbs = page_zip_est_kbs[k];
    auto &out = est->sizes[k];
    est->rebuilt_zip_file_pages[k] = 0;
    if (kbs * 1024 > UNIV_PAGE_SIZE) {
      out.key_block_size = 0;
      out.pages = 0;
      out.failure_pct = 0;
      est->inserted_pages[k] = 0;
      continue;
    }
    if (own_file) {
      const page_size_t zip_size(kbs * 1024, UNIV_PAGE_SIZE, true);
      const fsp_est_file_t zf = fsp_est_rebuilt_file(
          zip_size, zip_segments[k].data(), zip_segments[k].size());
      est->rebuilt_zip_file_pages[k] =
          static_cast<uint64_t>(estimated[k] * scale + 0.5) + zf.other_pages +
          zf.free_pages;
    }
    est->inserted_pages[k] = static_cast<uint64_t>(inserted[k] * scale + 0.5);
    out.key_block_size = static_cast<uint32_t>(kbs);
    out.pages = static_cast<uint64_t>(estimated[k] * scale + 0.5);
    out.failure_pct =
        trials[k] == 0 ? 0.0 : 100.0 * static_cast<double>(fail[k]) / trials[k];
  }
}

}  // namespace

int dict_zip_est_table(uint64_t table_id, uint64_t sample_pages,
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

  dict_zip_est_plan_t plan;
  int err =
      dict_zip_est_prepare(thd, table_id, sample_pages, full_scan, plan, est);
  if (err != INNODB_ZIP_EST_OK) {
    return err;
  }
  uint64_t sampled_recs;
  uint64_t extern_recs;
  err = dict_zip_est_sample(thd, table_id, sample_pages, progress, ctx, plan,
                            sampled_recs, extern_recs);
  if (err != INNODB_ZIP_EST_OK) {
    return err;
  }
  dict_zip_est_extrapolate(plan, sampled_recs, extern_recs, est);
  return INNODB_ZIP_EST_OK;
}
