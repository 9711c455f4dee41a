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


/** @file include/dict0zip_est.h
 Space savings estimator: what a table or partition would take at every
 KEY_BLOCK_SIZE, and with page compression, before it is converted.

 For each B-tree of a table, a trial starts at a leaf page (at random
 positions, or at every leaf page in a full scan) and refills a page as
 the uncompressed loader of ALTER TABLE would; trial compressions find how
 many of its records fit each KEY_BLOCK_SIZE (page0zip_est.h). The
 off-page columns of the start page are read and deflated as a compressed
 table stores them (lob0zip_est.h). A model of the compressed page loader
 of ALTER TABLE turns the trials into pages (btr0load_est.h); page
 compression is estimated on the same trial pages (page0comp_est.h). The
 loader's variables are read when the estimate starts. The leaf segment
 holds the BLOB pages too, so the B-tree leaves of a clustered index with
 long columns are counted from the node pointers one level up.

 This file's part, the driver (dict/dict0zip_est.cc), as dict0stats.cc
 samples for the index statistics: it opens the table through the data
 dictionary under a metadata lock, chooses the indexes, counts their
 pages, positions the trials, and extrapolates, in three phases: what to
 estimate (one metadata lock), the trials (each under its own lock, so
 that DDL can go on between them), the extrapolation (no lock).

 Nothing is written: the scratch pages are private, page_zip_compress()
 runs with no mini-transaction, and dict_zip_trial keeps the trials out of
 every compression statistic and out of the adaptive padding.

 Created 2026-11-21 (moved from page/page0zip_est.cc in issue 31) */

#ifndef dict0zip_est_h
#define dict0zip_est_h

#include <mysql/components/services/innodb_compression_estimate.h>

#include <cstdint>

#include "univ.i"

/** Estimate the space savings of a table or partition.
@see innodb_compression_estimate::estimate_table
@param[in]   table_id      InnoDB table id
@param[in]   sample_pages  leaf pages to sample per index
@param[in]   full_scan     start a trial at every leaf page
@param[in]   progress      progress callback, or nullptr
@param[in]   ctx           argument of the callback
@param[out]  est           the estimate
@return an innodb_zip_est_status_t */
int dict_zip_est_table(uint64_t table_id, uint64_t sample_pages,
                       bool full_scan, innodb_zip_est_progress_t progress,
                       void *ctx, innodb_zip_estimate_t *est);

#endif /* dict0zip_est_h */
