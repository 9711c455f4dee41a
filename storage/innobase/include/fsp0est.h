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

/** @file include/fsp0est.h
 The file a rebuild leaves: a model of the pages a sorted index build
 (ALTER TABLE's rebuild, OPTIMIZE TABLE) makes a file-per-table tablespace
 reserve, for the space savings estimator (dict0zip_est.h).

 A DBA compares what the estimator promises with the file: du, or
 ALLOCATED_SIZE of INFORMATION_SCHEMA.INNODB_TABLESPACES. The file is more
 than the pages the indexes use: its header pages, the pages its segments
 hold for later and the whole extents it keeps free. The model replays
 the rules of fsp0fsp.cc that decide them, for the page counts the
 estimator gives each segment:
 - a segment takes its first FSEG_FRAG_LIMIT pages one by one from
   fragment extents, which pages 0-3 of the file open;
 - after that it takes a whole extent whenever less than
   innodb_segment_reserve_factor of what it holds is free
   (fseg_alloc_page_no()), and keeps the pages it did not use;
 - every page the load allocates reserves free extents first
   (fsp_reserve_free_extents(), FSP_NORMAL): 2 extents and 1 % of the
   file, one more to allocate, and the file grows when fewer are free;
 - the file grows to a megabyte, then by a megabyte below 32 MB and by
   FSP_FREE_ADD megabytes above (fsp_get_pages_to_extend_ibd()): its size
   is the first point of that grid with room for the extents taken and
   the free ones;
 - each range of as many pages as a page has bytes starts with an extent
   descriptor page and a change buffer bitmap page.
 Not modelled: AUTOEXTEND_SIZE, ALGORITHM=COPY (rows inserted one by one
 into a new table), LOAD DATA's bulk path, a second inode page (more than
 42 indexes). */

#ifndef fsp0est_h
#define fsp0est_h

#include "univ.i"

#include "page0size.h"

/** The file a rebuild leaves, in pages of the rebuilt page size. */
struct fsp_est_file_t {
  /** Pages in use that belong to no index: pages 0-3 (header, change
  buffer bitmap, inode, SDI root) and the extent descriptor and change
  buffer bitmap pages of each later range. */
  uint64_t other_pages{0};
  /** Pages of the file that are free: reserved by the segments, in its
  fragment extents, in its free extents. */
  uint64_t free_pages{0};
};

/** The file a sorted index build leaves.
@param[in]  page_size  page size of the rebuilt table (physical: the
                       compressed page size for ROW_FORMAT=COMPRESSED)
@param[in]  segments   pages each segment takes: of each index, its leaf
                       segment (leaf and BLOB pages), its non-leaf segment
                       (the pages above the leaves; 1 for an index that is
                       only its root)
@param[in]  n_segments number of segments
@return the file's other and free pages */
fsp_est_file_t fsp_est_rebuilt_file(const page_size_t &page_size,
                                    const uint64_t *segments,
                                    size_t n_segments);

/** Pages a segment of used pages holds after a load that allocated them
one by one, in ascending order (fseg_alloc_page_no() with FSP_UP).
@param[in]  used  pages the segment uses
@return pages it holds: its fragment pages and its extents */
uint64_t fsp_est_segment_reserved(uint64_t used);

#endif /* fsp0est_h */
