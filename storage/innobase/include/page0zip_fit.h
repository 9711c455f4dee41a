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

/** @file include/page0zip_fit.h
 Fitting records into a compressed page: what page_zip_compress_fit() can
 tell about a page that did not compress, and how many of its records to
 try to keep (used by the tight split of the B-tree bulk loader,
 btr0load_zip.h).

 Created 2026-11-23 */

#ifndef page0zip_fit_h
#define page0zip_fit_h

#include "univ.i"

#include "dict0types.h"
#include "mem0mem.h"
#include "mtr0types.h"
#include "page0types.h"

/** Input and output of one page_zip_compress() call of the tight split.
None of it changes the bytes a successful compression produces. */
struct page_zip_fit_t {
  /** in: bytes of the compressed page to keep free, beyond the end marker
  of the modification log; a compression that leaves less fails */
  ulint reserve{0};

  /** out: bytes of the zlib stream after the field information (the zlib
  header and the index fields), or 0 if compression stopped before */
  ulint hdr{0};

  /** out: after a failure, the bytes the whole zlib stream (header, field
  information, records, adler32 trailer) needed; 0 if the compression
  stopped before zlib had seen every record, which tells nothing */
  ulint needed{0};

  /** out (Page_load::compress()): microseconds the compression took,
  which count when the tight split keeps the page */
  uint64_t usecs{0};

  /** in: page_zip_reorganize() compresses the page in place, as it is:
  the stream may be continued and written appendably
  (page_zip_deflate_append_setup()) */
  bool append{false};
};

/** Count a compression that the tight split of the bulk loader keeps, as
page_zip_compress() counts a successful one (INNODB_CMP,
INNODB_CMP_PER_INDEX, the table's counters, the monitor counter and a
success in the adaptive padding): its trials ran under
dict_zip_trial_scope and counted nowhere, so that only the final page of
every split counts.
@param[in]     page_zip  the compressed page
@param[in]     page      the uncompressed page
@param[in,out] index     its index
@param[in]     usecs     microseconds the compression took */
void page_zip_fit_count(const page_zip_des_t *page_zip, const page_t *page,
                        dict_index_t *index, uint64_t usecs);

/** page_zip_compress() with a request: keep fit->reserve bytes free, and
report the sizes of page_zip_fit_t. With fit == nullptr it is
page_zip_compress(). Defined in page0zip.cc.
@param[in,out] page_zip  compressed page: size; out: data, n_blobs,
                         m_start, m_end, m_nonempty
@param[in]     page      uncompressed page
@param[in]     index     index tree
@param[in]     level     zlib compression level
@param[in,out] mtr       mini-transaction, or nullptr
@param[in,out] fit       the request, or nullptr
@return true on success, false on failure; page_zip is left intact on
failure */
bool page_zip_compress_fit(page_zip_des_t *page_zip, const page_t *page,
                           dict_index_t *index, ulint level, mtr_t *mtr,
                           page_zip_fit_t *fit);

/** Record, after deflate(Z_FINISH) did not end the stream, how many bytes
the stream needed. Called by page_zip_compress() only.
@param[in,out] fit     the caller's request; needed is set
@param[in]     stream  the z_stream (z_streamp) of page_zip_compress() */
void page_zip_fit_measure(page_zip_fit_t *fit, void *stream);

/** Measure the user records of an uncompressed index page, in list order,
the way page_zip_compress() stores them.
@param[in]     page   index page with at least n user records
@param[in]     index  its index
@param[in]     n      number of leading user records to measure
@param[out]    recs   recs[i]: the i-th record, i < n
@param[out]    u      u[i]: bytes of the first i records that go through
                      zlib, i <= n
@param[out]    t      t[i]: bytes of the first i records stored uncompressed
                      (dense directory, system columns, child page numbers,
                      BLOB pointers), i <= n
@param[in,out] heap   memory heap for rec_get_offsets() */
void page_zip_fit_scan(page_t *page, const dict_index_t *index, size_t n,
                       rec_t **recs, ulint *u, ulint *t, mem_heap_t **heap);

/** Choose how many leading records of a page to try next, after
page_zip_compress_fit() failed on the first k_tried records.

The model: the zlib stream of the first k records takes hdr + 4 +
rho * u[k] bytes, where rho is the ratio measured on the failed attempt;
the largest k whose stream, with a margin, and whose uncompressed trailer
t[k] fit into the page less PAGE_DATA, the end marker and fit.reserve is
chosen. Without a measurement the records are halved.
@param[in] u         prefix sums of page_zip_fit_scan()
@param[in] t         prefix sums of page_zip_fit_scan()
@param[in] k_tried   records of the attempt that failed, at least 2
@param[in] fit       what that attempt measured, and the reserve
@param[in] zip_size  compressed page size in bytes
@param[in] guided    false to halve whatever was measured
@return records to try next, 1 <= k < k_tried */
size_t page_zip_fit_cut(const ulint *u, const ulint *t, size_t k_tried,
                        const page_zip_fit_t &fit, ulint zip_size,
                        bool guided);

/** Trials guided by page_zip_fit_cut() per failed page before the tight
split bisects between what fits and what does not (log2 of the records
more compressions), so that the common page costs one or two compressions
and the rare one (small pages, where a record is 5-10 % of the page and
the guess is often off) still ends on the most records that fit. */
constexpr size_t PAGE_ZIP_FIT_MAX_TRIALS = 3;

/** How the tight split of the bulk loader searches the most leading
records of a page that compress: up to PAGE_ZIP_FIT_MAX_TRIALS trials
guided by page_zip_fit_cut() from what the last failure measured (the first
that compresses ends the search, unless nothing was measured and the guess
was a halving: then the search goes on upwards), then a bisection between the most records
known to compress and the fewest known not to, which ends on the most that
compress. The caller trims the page to next() records, compresses it and
reports the outcome to done(). */
class Page_zip_fit_search {
 public:
  /** @param[in] n  records of the page, which did not compress whole */
  explicit Page_zip_fit_search(size_t n) : m_k(n), m_bad(n) { ut_ad(n >= 2); }

  /** The number of leading records to try next.
  @param[in] u         page_zip_fit_scan(): bytes fed to zlib per prefix
  @param[in] t         page_zip_fit_scan(): bytes kept uncompressed
  @param[in] fit       what the last failed compression measured
  @param[in] zip_size  compressed page size
  @return records to keep, from 1 to the records of the page - 1 */
  size_t next(const ulint *u, const ulint *t, const page_zip_fit_t &fit,
              ulint zip_size);

  /** Take the outcome of compressing next() records.
  @param[in] ok  whether they compressed
  @return true if the search is over: the page holds the most records found
  to compress (ok), or not even one record compresses (!ok) */
  bool done(bool ok);

 private:
  /** Trials made. */
  size_t m_trial{0};
  /** Records of the last trial. */
  size_t m_k;
  /** Most records known to compress; 0 if none is known. */
  size_t m_good{0};
  /** Fewest records known not to compress. */
  size_t m_bad;
  /** Whether the last guided trial came from a measured failure; the
  first success of one ends the search, that of a guess does not. */
  bool m_measured{true};
};

#endif /* page0zip_fit_h */
