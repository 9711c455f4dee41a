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

/** @file page/page0zip_fit.cc
 Fitting records into a compressed page.

 page_zip_compress() feeds the records of a page to one deflate stream and
 flushes it only at the end. A page of at most 16 KB never fills deflate's
 window or symbol buffer (deflateInit2() with a 2^UNIV_PAGE_SIZE_SHIFT
 window and MAX_MEM_LEVEL), so zlib emits the records as one block at
 Z_FINISH. When that block does not fit, deflate() has nevertheless
 compressed all of it: the bytes written plus the bytes still pending
 (deflatePending()) plus the adler32 trailer are exactly what the page
 needed. That measurement, and the sizes of the records, let the tight
 split of the bulk loader guess the largest prefix of the records that fits
 and confirm it with one compression, rarely two.

 Created 2026-11-23 */

#include "page0zip_fit.h"

#include <zlib.h>

#include "page0types.h"

ulong btr_load_zip_split = BTR_LOAD_ZIP_SPLIT_TIGHT;

ulong btr_load_zip_free_pct = 3;

/** Margin on the predicted compressed size of the records, in 1/256: a
shorter prefix has less history to match against and compresses a little
worse than the whole page it was measured on. */
static constexpr ulint PAGE_ZIP_FIT_MARGIN_256 = 5;

/** Bytes of the adler32 trailer that deflate writes after the last block. */
static constexpr ulint PAGE_ZIP_FIT_TRAILER = 4;

ulint page_zip_fit_reserve(ulint zip_size) {
  return zip_size * btr_load_zip_free_pct / 100;
}

void page_zip_fit_measure(page_zip_fit_t *fit, void *stream) {
  auto *strm = static_cast<z_streamp>(stream);
  unsigned pending = 0;
  int bits = 0;

  fit->needed = 0;

  /* With input left, zlib has not seen every record: no measurement. */
  if (strm->avail_in != 0 || deflatePending(strm, &pending, &bits) != Z_OK) {
    return;
  }

  fit->needed = strm->total_out + pending + (bits != 0 ? 1 : 0) +
                PAGE_ZIP_FIT_TRAILER;
}

size_t page_zip_fit_cut(const ulint *u, const ulint *t, size_t k_tried,
                        ulint needed, ulint hdr, ulint avail) {
  ut_ad(k_tried >= 2);

  const ulint fixed = hdr + PAGE_ZIP_FIT_TRAILER;

  if (needed <= fixed || u[k_tried] == 0) {
    /* Nothing measured: halve, as upstream's split does. */
    return k_tried / 2;
  }

  /* Compressed bytes per byte of records, measured on the failed attempt,
  with the margin. */
  const double rho = double(needed - fixed) / double(u[k_tried]) *
                     double(256 + PAGE_ZIP_FIT_MARGIN_256) / 256.0;

  auto fits = [&](size_t k) {
    return double(fixed + t[k]) + rho * double(u[k]) <= double(avail);
  };

  /* The predicted size grows with k: the largest k that fits. */
  size_t lo = 1;
  size_t hi = k_tried - 1;

  if (!fits(lo)) {
    return 1;
  }

  while (lo < hi) {
    const size_t mid = lo + (hi - lo + 1) / 2;

    if (fits(mid)) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }

  return lo;
}
