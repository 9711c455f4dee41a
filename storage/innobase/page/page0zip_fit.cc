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

/** @file page/page0zip_fit.cc
 Fitting records into a compressed page.

 page_zip_compress() feeds the records of a page to one deflate stream and
 flushes it only at the end. A page of at most 16 KB never fills deflate's
 window or symbol buffer (deflateInit2() with a 2^UNIV_PAGE_SIZE_SHIFT
 window and MAX_MEM_LEVEL), so zlib emits the records as one block at
 Z_FINISH. When that block does not fit, deflate() has nevertheless
 compressed all of it: the bytes written plus the bytes still pending
 (deflatePending()) plus the adler32 trailer are exactly what the page
 needed. That measurement, and the sizes of the records
 (page_zip_fit_scan()), let the tight split of the bulk loader
 (btr0load_zip.h) guess the largest prefix of the records that fits and
 confirm it with one compression, rarely two.

 Created 2026-11-23 */

#include "page0zip_fit.h"
#include "page0zip_codec.h"

#include <zlib.h>

#include <algorithm>

#include "btr0types.h"
#include "data0type.h"
#include "dict0dict.h"
#include "dict0mem.h"
#include "dict0zip_opt.h"
#include "dict0zip_stat.h"
#include "page0page.h"
#include "page0types.h"
#include "page0zip.h"
#include "rem0rec.h"
#include "srv0mon.h"
#include "srv0srv.h"

/** Margin on the predicted compressed size of the records, in 1/256: a
shorter prefix has less history to match against and compresses a little
worse than the whole page it was measured on. */
static constexpr ulint PAGE_ZIP_FIT_MARGIN_256 = 5;

void page_zip_fit_measure(page_zip_fit_t *fit, void *stream) {
  /* zlib: written + pending + trailer; ISA-L: the whole stream, which it
  deflated into its workspace (page0zip_codec.h). 0 if not known. */
  fit->needed = page_zip_deflate_needed(static_cast<z_streamp>(stream));
}

void page_zip_fit_count(const page_zip_des_t *page_zip, const page_t *page,
                        dict_index_t *index, uint64_t usecs) {
#ifndef UNIV_HOTBACKUP
  const std::chrono::microseconds time{usecs};

  MONITOR_INC(MONITOR_PAGE_COMPRESS);
  page_zip_codec_count(dict_index_zip_level(index, page));

  page_zip_stat_t &zip_stat = page_zip_stat[page_zip->ssize - 1];
  zip_stat.compressed++;
  zip_stat.compressed_ok++;
  zip_stat.compress_time += time;

  dict_zip_stat_add(index, DICT_ZIP_STAT_COMPRESS_OPS, 1);
  dict_zip_stat_add(index, DICT_ZIP_STAT_COMPRESS_OK, 1);
  dict_zip_stat_add(index, DICT_ZIP_STAT_COMPRESS_USECS, usecs);

  if (srv_cmp_per_index_enabled) {
    const index_id_t ind_id(index->space, index->id);
    mutex_enter(&page_zip_stat_per_index_mutex);
    auto &s = page_zip_stat_per_index[ind_id];
    if (!s.dropped) {
      s.compressed++;
      s.compressed_ok++;
      s.compress_time += time;
    }
    mutex_exit(&page_zip_stat_per_index_mutex);
  }

  if (page_is_leaf(page)) {
    dict_index_zip_success(index);
  }
#else
  (void)page_zip;
  (void)page;
  (void)index;
  (void)usecs;
#endif /* !UNIV_HOTBACKUP */
}

void page_zip_fit_scan(page_t *page, const dict_index_t *index, size_t n,
                       rec_t **recs, ulint *u, ulint *t, mem_heap_t **heap) {
  /* Columns page_zip_compress() keeps out of the stream. */
  const ulint sys = !page_is_leaf(page)     ? REC_NODE_PTR_SIZE
                    : index->is_clustered() ? DATA_TRX_ID_LEN +
                                                  DATA_ROLL_PTR_LEN
                                            : 0;
  ulint *offsets = nullptr;
  rec_t *rec = page_rec_get_next(page_get_infimum_rec(page));

  u[0] = t[0] = 0;

  for (size_t i = 0; i < n; ++i) {
    ut_ad(page_rec_is_user_rec(rec));
    offsets = rec_get_offsets(rec, index, offsets, ULINT_UNDEFINED,
                              UT_LOCATION_HERE, heap);
    const ulint ext =
        rec_offs_n_extern(index, offsets) * BTR_EXTERN_FIELD_REF_SIZE;
    const ulint size = rec_offs_size(offsets);

    recs[i] = rec;
    t[i + 1] = t[i] + PAGE_ZIP_DIR_SLOT_SIZE + sys + ext;
    /* The fixed extra bytes of the header are not compressed either. */
    u[i + 1] = u[i] + size - std::min(size, REC_N_NEW_EXTRA_BYTES + sys + ext);
    rec = page_rec_get_next(rec);
  }
}

size_t page_zip_fit_cut(const ulint *u, const ulint *t, size_t k_tried,
                        const page_zip_fit_t &fit, ulint zip_size,
                        bool guided) {
  ut_ad(k_tried >= 2);

  const ulint fixed = fit.hdr + 4 /* adler32 trailer */;
  const ulint needed = guided ? fit.needed : 0;
  const ulint page = zip_size - PAGE_DATA - 1;
  const ulint avail = page - std::min(page, fit.reserve);

  if (needed <= fixed || u[k_tried] == 0) {
    /* Nothing measured (the compression stopped before the records were
    all seen, typically because the dense directory and the uncompressed
    columns alone did not fit): halve, as upstream's split does, but no
    higher than the uncompressed parts allow. Page_zip_fit_search goes on
    from here if it compresses. */
    size_t k = k_tried / 2;
    while (k > 1 && fixed + t[k] > avail) {
      --k;
    }
    return std::max<size_t>(k, 1);
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

size_t Page_zip_fit_search::next(const ulint *u, const ulint *t,
                                 const page_zip_fit_t &fit, ulint zip_size) {
  if (m_trial < PAGE_ZIP_FIT_MAX_TRIALS) {
    /* Guided by the failure of m_k records (the guided phase ends at the
    first success). */
    m_measured = fit.needed > fit.hdr + 4 && u[m_k] != 0;
    m_k = page_zip_fit_cut(u, t, m_k, fit, zip_size, true);
  } else if (m_bad - m_good <= 1) {
    /* The last trial failed just above the best: compress the best
    again. */
    m_k = m_good;
  } else {
    m_k = m_good == 0 ? m_bad / 2 : m_good + (m_bad - m_good) / 2;
  }
  ut_ad(m_k >= 1);
  return m_k;
}

bool Page_zip_fit_search::done(bool ok) {
  const bool guided = m_trial++ < PAGE_ZIP_FIT_MAX_TRIALS;

  if (ok) {
    m_good = m_k;
    if (guided && !m_measured) {
      /* A guess without a measurement (page_zip_fit_cut() halved) says
      nothing about how many more records fit: bisect upwards. */
      m_trial = PAGE_ZIP_FIT_MAX_TRIALS;
      return m_bad - m_good <= 1;
    }
    return guided || m_bad - m_good <= 1;
  }

  m_bad = m_k;
  return m_k == 1;
}
