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

/** @file include/page0comp_est.h
 Estimate of transparent page compression (COMPRESSION='zlib' or 'lz4'):
 the pages the estimator builds are compressed by os_file_compress_page(),
 the function InnoDB writes page-compressed pages with, and rounded up to
 the file system block of the table's file as the punched file keeps them.

 Created 2026-11-25 */

#ifndef page0comp_est_h
#define page0comp_est_h

#include <mysql/components/services/innodb_compression_estimate.h>

#include "univ.i"

/** What the estimator needs to know of a table's file. */
struct page_comp_est_file_t {
  /** An innodb_zip_est_page_status_t. */
  uint32_t status{INNODB_ZIP_EST_PAGE_NOT_ESTIMATED};
  /** File system block size of the file in bytes (fil_node_t::block_size,
  from stat() of the file). */
  uint32_t block_size{0};
  /** COMPRESSION of the tablespace now: 0 none, 1 zlib, 2 lz4. */
  uint32_t current{0};
  /** Bytes of the file (its size). */
  uint64_t file_bytes{0};
  /** Bytes allocated to the file on disk (st_blocks). */
  uint64_t allocated_bytes{0};
  /** Bytes allocated to the free pages of a page-compressed file
  (fil_sparse_free_allocated()); valid if free_measured. */
  uint64_t free_allocated_bytes{0};
  /** Whether free_allocated_bytes was measured. */
  bool free_measured{false};
};

/** Whether and how the file of a tablespace can take page compression:
the checks of fil_set_compression() (a file-per-table tablespace, not
temporary, not ROW_FORMAT=COMPRESSED is not checked: converting undoes it),
the block size of the file (at most half a page, as Fil_shard::create_node()
requires) and hole punching, probed on a scratch file in the directory of
the table's file (the table's own file is never punched).
@param[in]   space_id  tablespace id
@param[out]  file      what was found */
void page_comp_est_file(space_id_t space_id, page_comp_est_file_t *file);

/** Bytes a page takes on disk with page compression: os_file_compress_page()
on a copy of it, rounded up to the block; a page that does not shrink by a
block stays whole.
@param[in]   page        an uncompressed page of UNIV_PAGE_SIZE bytes
@param[in]   block_size  file system block size
@param[out]  scratch     UNIV_PAGE_SIZE bytes for the compressed page
@param[out]  bytes       by method (zlib, lz4): bytes on disk */
void page_comp_est_page(const byte *page, ulint block_size, byte *scratch,
                        uint32_t bytes[INNODB_ZIP_EST_N_PAGE_METHODS]);

/** Bytes on disk of the BLOB data pages that hold a column (or a prefix
of it), each page as lob::data_page_t fills it, compressed as above.
@param[in]   data        the column or its prefix
@param[in]   len         bytes of data
@param[in]   block_size  file system block size
@param[out]  page        UNIV_PAGE_SIZE bytes for the page being built
@param[out]  scratch     UNIV_PAGE_SIZE bytes for the compressed page
@param[in]   complete    whether data is the whole column (else its last
                         partial page is not counted)
@param[out]  n_pages     BLOB pages the data fills, added to
@param[out]  bytes       by method: bytes on disk of those pages, added to */
void page_comp_est_lob(const byte *data, ulint len, bool complete,
                       ulint block_size, byte *page, byte *scratch,
                       double *n_pages,
                       double bytes[INNODB_ZIP_EST_N_PAGE_METHODS]);

#endif /* page0comp_est_h */
