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

/** @file fsp/fsp0est.cc
 The file a rebuild leaves: a model of what a sorted index build makes a
 file-per-table tablespace reserve (fsp0est.h). */

#include "fsp0est.h"

#include <algorithm>

#include "fil0fil.h"
#include "fsp0fsp.h"
#include "fsp0types.h"

uint64_t fsp_est_segment_reserved(uint64_t used) {
  const uint64_t frag = FSEG_FRAG_LIMIT;
  if (used <= frag) {
    return used;
  }
  /* fseg_alloc_page_no(): with used pages in use of reserved, a page
  allocation takes a new extent first if reserved - used < reserved *
  fseg_reserve_pct / 100 and used >= FSEG_FRAG_LIMIT; else it takes a free
  page of the segment's extents. Jump from one such allocation to the
  next. */
  const double pct = std::max(fseg_reserve_pct, 0.0) / 100;
  uint64_t reserved = frag;
  uint64_t u = frag;
  while (u < used) {
    if (static_cast<double>(reserved - u) < reserved * pct) {
      reserved += FSP_EXTENT_SIZE;
      continue;
    }
    /* The next allocation that takes an extent: the first u with
    reserved - u < reserved * pct. */
    const auto next =
        static_cast<uint64_t>(static_cast<double>(reserved) * (1 - pct)) + 1;
    u = std::max(next, u + 1);
  }
  return reserved;
}

fsp_est_file_t fsp_est_rebuilt_file(const page_size_t &page_size,
                                    const uint64_t *segments,
                                    size_t n_segments) {
  const uint64_t ext = FSP_EXTENT_SIZE;
  fsp_est_file_t file;

  /* Pages 0-3 open the first fragment extent; each segment takes up to
  FSEG_FRAG_LIMIT fragment pages, then extents of its own. */
  uint64_t used = 4;
  uint64_t frag = 4;
  uint64_t seg_pages = 0;
  bool any_extent = false;
  for (size_t i = 0; i < n_segments; i++) {
    const uint64_t u = segments[i];
    const uint64_t f = std::min<uint64_t>(u, FSEG_FRAG_LIMIT);
    used += u;
    frag += f;
    seg_pages += fsp_est_segment_reserved(u) - f;
    any_extent = any_extent || u > FSEG_FRAG_LIMIT;
  }

  if (!any_extent && frag < ext) {
    /* Small tablespaces grow page by page (fsp_reserve_free_pages()):
    the initial file, or the pages in use and the page one more
    allocation would reserve. */
    const uint64_t size = std::max<uint64_t>(FIL_IBD_FILE_INITIAL_SIZE,
                                             used + 1);
    file.other_pages = 4;
    file.free_pages = size - used;
    return file;
  }

  /* Extents below the free limit: the fragment extents and the
  segments'. */
  const uint64_t taken = (frag + ext - 1) / ext * ext + seg_pages;
  /* The whole extents kept free (fsp_reserve_free_extents(), FSP_NORMAL):
  an allocation finds more than 2 + 1 % of the file's extents and the one
  it needs above its reservation, counting one less above the free limit,
  so at least 5 + 1 % extents are free when the load ends, or the file
  grows (fsp_try_extend_data_file()): to a megabyte first, then by a
  megabyte below the threshold of fsp_get_pages_to_extend_ibd() (32 MB of
  16 KB pages) and by FSP_FREE_ADD megabytes above it. The file is the
  first size on that grid with room for the extents taken and the free
  ones. */
  const uint64_t grow = fsp_get_extent_size_in_pages(page_size);
  const uint64_t threshold =
      std::min<uint64_t>(32 * grow, page_size.physical());
  const auto on_grid = [&](uint64_t need) {
    if (need <= threshold) {
      return (need + grow - 1) / grow * grow;
    }
    const uint64_t step = FSP_FREE_ADD * grow;
    return threshold + (need - threshold + step - 1) / step * step;
  };
  uint64_t s = on_grid(taken + 5 * ext);
  for (int i = 0; i < 4; i++) {
    /* 1 % of the file's extents, as fsp_reserve_free_extents() counts. */
    const uint64_t r = s / ext * 2 / 200;
    const uint64_t next = on_grid(taken + (5 + r) * ext);
    if (next == s) {
      break;
    }
    s = next;
  }
  /* An extent descriptor page and a change buffer bitmap page open every
  range of page_size.physical() pages after the first; their extents are
  leased to the segments (fsp_alloc_xdes_free_frag()). */
  const uint64_t range = page_size.physical();
  file.other_pages = 4 + 2 * ((s - 1) / range);
  const uint64_t in_use = used + file.other_pages - 4;
  file.free_pages = s > in_use ? s - in_use : 0;
  return file;
}
