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
 Space savings estimator: trial compression of sampled leaf pages with
 page_zip_compress(), for every KEY_BLOCK_SIZE, extrapolated to a table.

 Created 2026-11-21 */

#ifndef page0zip_est_h
#define page0zip_est_h

#include <mysql/components/services/innodb_compression_estimate.h>

#include "page0types.h"
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
int page_zip_est_table(uint64_t table_id, uint64_t sample_pages,
                       bool full_scan, innodb_zip_est_progress_t progress,
                       void *ctx, innodb_zip_estimate_t *est);

#endif /* page0zip_est_h */
