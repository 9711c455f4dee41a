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


/** @file include/btr0load_est.h
 Savings estimator, the model of the page loader of ALTER TABLE
 (btr0load.cc) that turns the trials (page0zip_est.h, which names the other
 parts) into pages: it fills a page up to the adaptive pad and compresses
 it; on failure it keeps what fits with innodb_compression_bulk_free_pct of
 the page free and carries the rest on (innodb_compression_bulk_split=
 TIGHT, then the fits are searched with that free space), or splits the
 page in half (HALF); the pad follows dict_index_zip_pad_update(). The
 pages the model produces per byte of records, times the bytes of records
 in the leaf pages, give the leaf pages of the compressed B-tree; non-leaf
 pages scale with them.

 Created 2026-11-21 (moved from page/page0zip_est.cc in issue 31) */

#ifndef btr0load_est_h
#define btr0load_est_h

#include <cstdint>

#include "page0zip_est.h"
#include "univ.i"

/** How the pages of a model are filled. */
enum btr_load_est_build_t {
  /** ALTER TABLE's page loader as innodb_compression_bulk_split and
  innodb_compression_bulk_free_pct select it. */
  BTR_LOAD_EST_ALTER,
  /** Rows inserted in key order into the compressed table: each page
  takes records as long as it compresses with nothing left free (the
  tight split with no free space, which builds the same pages). */
  BTR_LOAD_EST_INSERTED
};

/** The page loader of one index, as ALTER TABLE would run it now. */
struct btr_load_est_t {
  /** Whether it is the clustered index. */
  bool clustered;
  /** Failure threshold of its adaptive padding. */
  ulint threshold;
  /** Maximum pad in percent. */
  ulint pad_max;
  /** Whether ALTER TABLE would split tightly
  (innodb_compression_bulk_split=TIGHT) */
  bool tight;
};

/** Bytes the uncompressed loader (btr0load.cc) leaves free in a page.
@param[in]  clustered  whether the index is clustered
@return bytes */
ulint btr_load_est_reserve(bool clustered);

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
double btr_load_est_full(double bytes);

/** Model of the page loader of ALTER TABLE for one index: pages filled up
to the adaptive pad, compressed, split tightly or in half on failure; the
pad as in dict_index_zip_pad_update().
@param[in]  idx    the index's loader
@param[in]  units  the index's trials
@param[in]  k      size index, or INNODB_ZIP_EST_N_SIZES for uncompressed
@param[in]  bytes  bytes of records in the index's leaf pages
@param[in]  build  ALTER TABLE's loader or key-ordered inserts
@return leaf pages the index would have */
double btr_load_est_leaf_pages(
    const btr_load_est_t &idx,
    const page_zip_est_vector_t<page_zip_est_unit_t> &units, ulint k,
    double bytes, btr_load_est_build_t build = BTR_LOAD_EST_ALTER);

/** Share of trials whose fully filled uncompressed page does not fit.
@param[in]      idx    the index's loader
@param[in]      units  the index's trials
@param[in]      k      size index
@param[in,out]  fail   failures, added to
@param[in,out]  total  trials, added to */
void btr_load_est_failures(
    const btr_load_est_t &idx,
    const page_zip_est_vector_t<page_zip_est_unit_t> &units, ulint k,
    uint64_t &fail, uint64_t &total);

/** Pages of a B-tree built by a model: whole leaf pages (one at least), and
non-leaf pages in the ratio of the tree now, with a root above two or more
leaves (a one-page tree now that a compressed build splits gets one).
@param[in]  leaf   leaf pages the model built (a fraction, extrapolated)
@param[in]  upper  pages in use per leaf page in the tree now
@return pages */
double btr_load_est_tree_pages(double leaf, double upper);

#endif /* btr0load_est_h */
