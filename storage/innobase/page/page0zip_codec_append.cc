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

/** @file page/page0zip_codec_append.cc
 Continuing a compressed page's stream instead of compressing the page
 again (innodb_compression_append, patch 0031): which compressions may
 append, the append itself with ISA-L, and what the page keeps for the
 next one. Split from page0zip_codec.cc.

 Created 2026-12-06 */

#include <string.h>

#include "dict0dict.h"
#include "dict0zip_stat.h"
#include "page0page.h"
#include "page0zip.h"
#include "page0zip_codec.h"
#include "page0zip_codec_ws.h"

#ifdef HAVE_ISAL
/** The appendable end of a stream: the empty stored block of a sync flush
(its LEN and NLEN, after the block header's bits), the empty final
fixed-code block, then the 4 bytes of the adler32 trailer. */
constexpr byte PAGE_ZIP_APPEND_TAIL[] = {0, 0, 0xff, 0xff, 3, 0};

/** Continue the old stream of the page (page_zip_deflate_stream_t::
m_app_old) with the records added since it was written: its bytes up to
the sync flush, then the new records deflated on their own (no
dictionary), a sync flush and an empty final block.
The caller has gathered the whole input and written the header and the
field list at the start of the workspace's output, equal to the old
stream's.
@param[in,out]  strm   stream
@param[in,out]  ws     workspace
@param[in]      begin  where the records' stream goes
@param[in]      limit  end of the room for it
@param[out]     adler  adler32 of the whole input
@return the end of the output (before the trailer), or nullptr if the old
stream cannot be continued: compress the whole page */
byte *page_zip_isal_append(page_zip_deflate_stream_t *strm,
                           page_zip_deflate_ws_t *ws, byte *begin, byte *limit,
                           uint32_t *adler) {
  const page_zip_des_t *old = strm->m_app_old;
  const ulint old_in = old->m_app_len;
  if (old_in == 0 || old_in >= ws->m_in_len || old->m_app_end <= PAGE_DATA) {
    return nullptr;
  }
  const byte *o = old->data + PAGE_DATA;
  const ulint o_len = old->m_app_end - PAGE_DATA;
  const ulint tail = sizeof PAGE_ZIP_APPEND_TAIL + 4;
  if (o_len < ws->m_hdr_len + tail ||
      memcmp(o + o_len - tail, PAGE_ZIP_APPEND_TAIL,
             sizeof PAGE_ZIP_APPEND_TAIL) != 0) {
    return nullptr;
  }
  /* The old stream's input must be the first old_in bytes of the
  records: the structure proves it (page0zip_codec.h), the adler32
  trailer checks it. */
  const uint32_t a = isal_adler32(ws->m_adler, ws->m_in, old_in);
  const byte *t = o + o_len - 4;
  if (a != ((uint32_t(t[0]) << 24) | (uint32_t(t[1]) << 16) |
            (uint32_t(t[2]) << 8) | uint32_t(t[3]))) {
    return nullptr;
  }
  /* The old records' blocks, through the sync flush. */
  const ulint keep = o_len - tail + 4 - ws->m_hdr_len;
  if (keep + 2 + 16 >= ulint(limit - begin)) {
    return nullptr;
  }
  memcpy(begin, o + ws->m_hdr_len, keep);

  /* No dictionary of the old records: isal_deflate_set_dict() costs
  about 62,000 instructions whatever the dictionary's size (it sets up the
  level's whole hash table), as much as compressing 1.7 KB of text, and a
  1 KB dictionary made 4 KB of appended Wikipedia text only 3 % smaller
  (callgrind, ISA-L 2.30 level 2; BENCHMARKS.md 6n). The new records'
  back-references stay among themselves; the stream is as valid. */
  isal_zstream &zs = ws->m_izs;
  page_zip_isal_records_init(ws, begin + keep, limit - 2);
  const int err = page_zip_isal_run(ws, ws->m_in + old_in,
                                    ws->m_in_len - old_in, SYNC_FLUSH, false);
  if (err != COMP_OK) {
    /* The library failed: zlib writes the whole page. */
    page_zip_isal_error("a page", err);
    strm->m_isal_failed = true;
    return nullptr;
  }
  byte *end = zs.next_out;
  end[0] = 3;
  end[1] = 0;
  *adler = isal_adler32(a, ws->m_in + old_in, ws->m_in_len - old_in);
  return end + 2;
}
#endif /* HAVE_ISAL */

void page_zip_deflate_append_setup(page_zip_deflate_stream_t *strm,
                                   const page_zip_des_t *page_zip,
                                   const page_t *page,
                                   const dict_index_t *index, bool in_place) {
#ifdef HAVE_ISAL
  /* A page zlib wrote stays zlib's while ISA-L's stream of it misses by
  a little (the estimator's trials compress no page of the table). */
  strm->m_prev_zlib = page_zip_zlib_rescue != PAGE_ZIP_RESCUE_OFF &&
                      strm->m_codec == PAGE_ZIP_CODEC_ISAL && !dict_zip_trial &&
                      page_zip_stream_by_zlib(page_zip);
  /* Only reorganizations in place of pages that only had records added
  since their last compression (m_app_heap kept) write appendable streams:
  they are what key-ordered inserts do, and elsewhere (pages whose log
  filled with updates) the sync flush and the 8 bytes of the appendable
  end would be paid for nothing. A page with free or garbage records has
  records the heap order does not prove unchanged. */
  if (!in_place || !page_zip_append || strm->m_codec != PAGE_ZIP_CODEC_ISAL ||
      dict_zip_trial || page_zip->m_app_heap == 0 ||
      dict_index_is_spatial(index) ||
      page_header_get_field(page, PAGE_FREE) != 0 ||
      page_header_get_field(page, PAGE_GARBAGE) != 0) {
    return;
  }
  strm->m_app_end = true;
  if (page_zip->m_app_end != 0 &&
      page_dir_get_n_heap(page) > page_zip->m_app_heap &&
      page_zip->m_end >= page_zip->m_app_end) {
    strm->m_app_old = page_zip;
  }
#else
  (void)strm;
  (void)page_zip;
  (void)page;
  (void)index;
  (void)in_place;
#endif /* HAVE_ISAL */
}

void page_zip_deflate_append_done(const page_zip_deflate_stream_t *strm,
                                  page_zip_des_t *page_zip,
                                  const page_t *page) {
  /* Whatever the codec and the stream's end: from now on, a record below
  this heap number that changes (page_zip_append_forget()) means the page
  is not only being added to. */
  if (page_header_get_field(page, PAGE_FREE) != 0 ||
      page_header_get_field(page, PAGE_GARBAGE) != 0) {
    page_zip->m_app_heap = 0;
    return;
  }
  page_zip->m_app_heap = static_cast<uint16_t>(page_dir_get_n_heap(page));
  page_zip->m_app_len = static_cast<uint16_t>(strm->m_in_len);
  page_zip->m_app_end =
      strm->m_app_end ? static_cast<uint16_t>(PAGE_DATA + strm->total_out) : 0;
  if (strm->m_appended) {
    page_zip_codec_n_appended.fetch_add(1, std::memory_order_relaxed);
  }
  /* With ON the estimator's trials are rescued too, so that they model
  the table's pages (never as zlib's pages: they compress no page of the
  table); they count nowhere. */
  if (strm->m_rescued && !dict_zip_trial) {
    page_zip_codec_n_rescued.fetch_add(1, std::memory_order_relaxed);
  }
}
