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


/** @file include/lob0zip_est.h
 Savings estimator, the off-page columns (include/page0zip_est.h names the
 other parts). For the columns of a trial's start page, a few of them are
 read and deflated as InnoDB would store them in a compressed table
 (lob/zlob0ins.cc: one zlib stream in whole pages up to 128 KB, else a
 stream per 128 KB chunk, lob/lob0impl.cc), and the pages they take at each
 size, uncompressed (lob/lob0ins.cc) and packed full are extrapolated to
 the start pages.

 Created 2026-11-21 (moved from page/page0zip_est.cc in issue 31) */

#ifndef lob0zip_est_h
#define lob0zip_est_h

#include "lob0lob.h"
#include "page0zip_est.h"
#include "rem0types.h"
#include "univ.i"

/** Bytes of an off-page column read at most: its first two chunks of
lob::Z_CHUNK_SIZE; the rest takes their ratio. */
constexpr ulint LOB_ZIP_EST_PREFIX = 2 * lob::Z_CHUNK_SIZE;

/** Room for the deflate output of one stream of an off-page column: a
page for zlib's, which is written page by page; a whole chunk's stream
for the fast codec's, which is written in one call
(page_zip_lob_deflate()). */
constexpr ulint LOB_ZIP_EST_OUT =
    lob::Z_CHUNK_SIZE + (lob::Z_CHUNK_SIZE >> 10) + 1024;

/** An off-page column of a record of a trial's start page. */
struct lob_zip_est_field_t {
  /** The field in the record (in the latched start page), ending with
  the BLOB reference. */
  const byte *data;
  /** Bytes of it in the record. */
  ulint local_len;
  /** Bytes of the whole column. */
  ulint len;
};

/** List the off-page columns of a record: the written ones (reference not
null, not being written or freed).
@param[in]      index    clustered index
@param[in]      rec      record
@param[in]      offsets  its offsets
@param[in,out]  lobs     the columns, appended to */
void lob_zip_est_rec_fields(const dict_index_t *index, const rec_t *rec,
                            const ulint *offsets,
                            page_zip_est_vector_t<lob_zip_est_field_t> &lobs);

/** Model the off-page columns of the records of a trial's start page: a
few of them, evenly spaced, are read (their first LOB_ZIP_EST_PREFIX
bytes) and deflated at the table's level; the others, and the rest of
longer ones, take the ratio of those.
@param[in]      index   clustered index
@param[in]      fields  the columns (lob_zip_est_rec_fields()), in the
                        start page, which is latched
@param[in]      level   zlib level
@param[in,out]  s       scratch blocks
@param[in,out]  unit    the trial: its lob_ members are set */
void lob_zip_est_fields(
    dict_index_t *index,
    const page_zip_est_vector_t<lob_zip_est_field_t> &fields, ulint level,
    Page_zip_est_scratch &s, page_zip_est_unit_t &unit);

#endif /* lob0zip_est_h */
