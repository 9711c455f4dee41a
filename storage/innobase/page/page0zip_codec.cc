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

/** @file page/page0zip_codec.cc
 The codecs of page_zip_compress() (page0zip_codec.h): zlib with a
 per-thread stream, and ISA-L's igzip, with the rescue of a page ISA-L
 does not fit by zlib. Also the codec variables. Continuing a page's
 stream is in page0zip_codec_append.cc, compressed BLOBs in
 page0zip_codec_lob.cc, the counters and innodb_compression_codec_check
 in page0zip_codec_stat.cc; the workspace they share in
 page0zip_codec_ws.h.

 Created 2026-11-25 */

#include "page0zip_codec.h"
#include "page0zip_codec_ws.h"

#include <string.h>

#include <algorithm>
#include <atomic>
#include <memory>

#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif /* HAVE_ISAL */

#include "mem0mem.h"
#include "my_dbug.h"
#include "mysql/status_var.h"
#include "page/zipdecompress.h"
#include "page0zip.h"
#include "dict0dict.h"
#include "dict0zip_stat.h"
#include "page0page.h"
#include "ut0new.h"

const char *page_zip_codec_names[PAGE_ZIP_CODEC_N + 1] = {"zlib", "isal", NullS};

#ifdef HAVE_ISAL
ulong page_zip_codec = PAGE_ZIP_CODEC_ISAL;
#else
ulong page_zip_codec = PAGE_ZIP_CODEC_ZLIB;
#endif /* HAVE_ISAL */

bool page_zip_codec_check = false;

bool page_zip_append = false;

const char *page_zip_rescue_names[PAGE_ZIP_RESCUE_N + 1] = {
    "OFF", "ZLIB_PAGES", "ON", NullS};

ulong page_zip_zlib_rescue = PAGE_ZIP_RESCUE_ZLIB_PAGES;

namespace {

/** zlib allocator of the per-thread stream, instrumented. */
void *page_zip_codec_zalloc(void *, uInt items, uInt size) {
  return ut::malloc_withkey(UT_NEW_THIS_FILE_PSI_KEY,
                            static_cast<size_t>(items) * size);
}

/** zlib deallocator of the per-thread stream. */
void page_zip_codec_zfree(void *, void *address) { ut::free(address); }

/** Frees a workspace when its thread exits. */
struct page_zip_deflate_ws_free_t {
  void operator()(page_zip_deflate_ws_t *ws) const {
    if (ws->m_zs_ready) {
      deflateEnd(&ws->m_zs);
    }
    ws->~page_zip_deflate_ws_t();
    ut::aligned_free(ws);
  }
};

thread_local std::unique_ptr<page_zip_deflate_ws_t, page_zip_deflate_ws_free_t>
    page_zip_deflate_ws;

}  // namespace

/** @return the calling thread's workspace, or nullptr */
page_zip_deflate_ws_t *page_zip_deflate_ws_get() {
  if (UNIV_UNLIKELY(page_zip_deflate_ws == nullptr)) {
    if (UNIV_PAGE_SIZE > UNIV_PAGE_SIZE_DEF) {
      return nullptr;
    }
    /* alignas() members: the allocation must honour the struct's
    alignment (ut::malloc_withkey() gives 16 bytes). */
    void *p = ut::aligned_alloc_withkey(UT_NEW_THIS_FILE_PSI_KEY,
                                        sizeof(page_zip_deflate_ws_t),
                                        alignof(page_zip_deflate_ws_t));
    if (p == nullptr) {
      return nullptr;
    }
    page_zip_deflate_ws.reset(new (p) page_zip_deflate_ws_t);
  }
  ut_ad(ut::is_aligned_as<page_zip_deflate_ws_t>(page_zip_deflate_ws.get()));
  return page_zip_deflate_ws.get();
}

namespace {

/** Set up the workspace's zlib stream for a page compression at a level:
deflateInit2() with InnoDB's parameters the first time, then the same
state by deflateReset() (and deflateParams() before any input, which only
sets the level's parameters).
@param[in,out]  ws     workspace
@param[in]      level  zlib level
@return zlib status */
int page_zip_zlib_ws_start(page_zip_deflate_ws_t *ws, int level) {
  z_stream &zs = ws->m_zs;
  int err;
  if (!ws->m_zs_ready) {
    memset(&zs, 0, sizeof zs);
    zs.zalloc = page_zip_codec_zalloc;
    zs.zfree = page_zip_codec_zfree;
    err = deflateInit2(&zs, level, Z_DEFLATED, UNIV_PAGE_SIZE_SHIFT,
                       MAX_MEM_LEVEL, Z_DEFAULT_STRATEGY);
    if (err != Z_OK) {
      return err;
    }
    ws->m_zs_ready = true;
  } else {
    err = deflateReset(&zs);
    if (err == Z_OK && ws->m_zs_level != level) {
      err = deflateParams(&zs, level, Z_DEFAULT_STRATEGY);
    }
    if (err != Z_OK) {
      return err;
    }
  }
  ws->m_zs_level = level;
  return Z_OK;
}

#ifdef HAVE_ISAL
}  // namespace

/** Run ISA-L over the input it is given, into the workspace's output.
@param[in,out]  ws     workspace
@param[in]      in     input
@param[in]      len    bytes of input
@param[in]      flush  ISA-L flush mode
@param[in]      last   whether this ends the stream
@return COMP_OK if all input was taken (and the stream ended if last);
else ISA-L's error, or PAGE_ZIP_ISAL_INCOMPLETE: the output always has
room for twice the input, so this is a failure of the library, never a
page that does not fit (that is decided on the stream's length) */
int page_zip_isal_run(page_zip_deflate_ws_t *ws, const byte *in, ulint len,
                      uint16_t flush, bool last) {
  isal_zstream &zs = ws->m_izs;
  zs.next_in = const_cast<byte *>(in);
  zs.avail_in = static_cast<uint32_t>(len);
  zs.flush = flush;
  zs.end_of_stream = last ? 1 : 0;
  /* An error of the library (compress.codec_isal_error). */
  DBUG_EXECUTE_IF("page_zip_isal_error", return ISAL_INVALID_OPERATION;);
  const int err = isal_deflate(&zs);
  if (err != COMP_OK) {
    return err;
  }
  /* avail_in == 0 proves nothing (levels 1-3 take all input into their
  buffers): the state says whether the flush or the end was written. */
  return zs.avail_in == 0 &&
                 zs.internal_state.state == (last ? ZSTATE_END : ZSTATE_NEW_HDR)
             ? COMP_OK
             : PAGE_ZIP_ISAL_INCOMPLETE;
}

/** Set up ISA-L for a zlib stream and write its header ourselves: the
window it announces, and zlib's level class of the level, as zlib's
deflateInit2() would write them; ISA-L adds the adler32 trailer.
@param[in,out]  zs           ISA-L stream, after isal_deflate_init(), with
                             its output set
@param[in]      window_bits  log2 of the window
@param[in]      level        zlib-scale level
@return whether the header was written */
bool page_zip_isal_zlib_header(isal_zstream *zs, ulint window_bits,
                               ulint level) {
  zs->hist_bits = static_cast<uint32_t>(window_bits);
  zs->gzip_flag = IGZIP_ZLIB_NO_HDR;
  isal_zlib_header hdr{};
  hdr.info = static_cast<uint32_t>(window_bits - 8);
  hdr.level = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
  return isal_write_zlib_header(zs, &hdr) == 0;
}

namespace {

/** Copy output of the workspace to the caller's stream.
@param[in,out]  strm  stream
@param[in]      from  first byte of ws output to copy
@param[in]      to    end of the bytes to copy
@return whether it fitted */
bool page_zip_isal_copy_out(page_zip_deflate_stream_t *strm, const byte *from,
                            const byte *to) {
  const ulint n = to - from;
  if (n > strm->avail_out) {
    return false;
  }
  memcpy(strm->next_out, from, n);
  strm->next_out += n;
  strm->avail_out -= static_cast<uInt>(n);
  strm->total_out += n;
  return true;
}

/** Bytes of the blocks around the field list: a stored block header
(1 byte of block type, LEN, NLEN) before it and the empty stored block of
a full flush (00 00 00 ff ff) after it. */
constexpr ulint PAGE_ZIP_ISAL_FIELDS_FRAME = 5 + 5;

/** Write the zlib header that deflateInit2(level, Z_DEFLATED, window_bits)
writes: the window, and zlib's level class of the level.
@param[out]     out          2 bytes
@param[in]      window_bits  log2 of the window
@param[in]      level        zlib-scale level */
void page_zip_isal_zlib_header_bytes(byte *out, ulint window_bits,
                                     ulint level) {
  const uint32_t cmf = static_cast<uint32_t>(((window_bits - 8) << 4) | 8);
  const uint32_t lclass = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
  uint32_t flg = lclass << 6;
  flg += 31 - ((cmf << 8) + flg) % 31;
  out[0] = static_cast<byte>(cmf);
  out[1] = static_cast<byte>(flg);
}

}  // namespace

/** Set up ISA-L for the records' raw deflate stream, which follows the
full flush after the field list (an empty history).
@param[in,out]  ws     workspace
@param[in]      begin  where the output goes
@param[in]      limit  end of the room for it */
void page_zip_isal_records_init(page_zip_deflate_ws_t *ws, byte *begin,
                                byte *limit) {
  isal_zstream &zs = ws->m_izs;
  isal_deflate_init(&zs);
  zs.level = ws->m_level;
  zs.level_buf = ws->m_level_buf;
  zs.level_buf_size = static_cast<uint32_t>(sizeof ws->m_level_buf);
  zs.hist_bits = UNIV_PAGE_SIZE_SHIFT;
  zs.gzip_flag = IGZIP_DEFLATE;
  zs.next_out = begin;
  zs.avail_out = static_cast<uint32_t>(limit - begin);
}

namespace {

/** An append that misses the room by more than the compressed page size
divided by this is not tried again as a whole compression: on Wikipedia
text a stream in n pieces was larger than one piece by 104 bytes on
average and at most 350 for n = 2, 240 and 687 for n = 4 (16 KB pages,
ISA-L level 2); an eighth of an 8 KB page is 1 KB. */
constexpr ulint PAGE_ZIP_APPEND_SLACK_DIV = 8;
/** ... but at least this many bytes (1 and 2 KB pages). */
constexpr ulint PAGE_ZIP_APPEND_SLACK_MIN = 256;

/** A whole ISA-L compression that misses its room by at most the room
divided by this (1 %: 78 bytes of an 8 KB page's 7,800) is written again by
zlib at the table's level, which compresses a page's records about 2 %
better: on DBT-2's tables at 8 KB (BENCHMARKS.md 6p) half of ISA-L's
failures missed by less than 1 % and zlib made 79 % of those fit, while
no miss of 1 % or more did. A page that fits is neither split nor counted
as a failure, which the adaptive padding would answer by leaving every
later page of the index emptier. */
constexpr ulint PAGE_ZIP_ZLIB_RESCUE_DIV = 100;

/** A page whose current stream zlib wrote (a rescued page, or a page of
a table written under the zlib codec) is rescued when ISA-L misses its
room by at most the room divided by this (12.5 %). ISA-L's stream of the
records zlib fitted is larger: by about 2 % on DBT-2's 8 KB pages, by
5-8 % on 4 KB pages of order_line-like rows (compress.codec_rescue_keep).
With the 1 % band such a page split at its next compression: after one
UPDATE of every row of DBT-2's tables the rescue cost more bytes than
ISA-L alone, and a table loaded under zlib then updated under ISA-L split
every page it updated (BENCHMARKS.md 6p). A page zlib cannot fit either
costs one zlib compression more before it splits. */
constexpr ulint PAGE_ZIP_ZLIB_RESCUE_KEEP_DIV = 8;

}  // namespace

/** Whether zlib wrote a compressed page's stream: the first deflate
block, the field list's, is a compressed one. page_zip_deflate_isal()
always stores the field list; zlib stores it only when that is smaller
than any code, which only long field lists of incompressible bytes are
(such a page counts as ISA-L's, and is rescued within the narrow band).
@param[in]  page_zip  compressed page
@return whether the page's first block has BTYPE 01 or 10 */
bool page_zip_stream_by_zlib(const page_zip_des_t *page_zip) {
  return page_zip->m_end > PAGE_DATA + 2 &&
         (page_zip->data[PAGE_DATA + 2] & 6) != 0;
}

namespace {

/** Write the page's stream with zlib, from the header (ISA-L's stream
missed the room by a little). The zlib header, the field list (a full
flush) and the records, as the zlib codec would, into the caller's
output from its start; the stream does not end appendably.
Also what a failure of ISA-L falls back to (page_zip_isal_error()).
@param[in,out]  strm    stream; on success its output is zlib's
@param[in,out]  ws      workspace, with the field list and the records
@param[in]      rescue  whether this is a rescue (counted as one)
@return whether zlib's stream fitted */
bool page_zip_zlib_rewrite(page_zip_deflate_stream_t *strm,
                           page_zip_deflate_ws_t *ws, bool rescue) {
  if (page_zip_zlib_ws_start(ws, ws->m_zlevel) != Z_OK) {
    return false;
  }
  z_stream &zs = ws->m_zs;
  byte *const out = strm->next_out - strm->total_out;
  const ulint room = strm->total_out + strm->avail_out;
  /* The field list, as page_zip_deflate_isal() stored it: after the
  2-byte zlib header and the 5-byte stored block header. */
  const ulint fields = ulint(ws->m_out[3]) | (ulint(ws->m_out[4]) << 8);
  zs.next_out = out;
  zs.avail_out = static_cast<uInt>(room);
  zs.next_in = ws->m_out + 7;
  zs.avail_in = static_cast<uInt>(fields);
  if (deflate(&zs, Z_FULL_FLUSH) != Z_OK) {
    return false;
  }
  zs.next_in = ws->m_in;
  zs.avail_in = static_cast<uInt>(ws->m_in_len);
  if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
    return false;
  }
  strm->next_out = out + zs.total_out;
  strm->avail_out = static_cast<uInt>(room - zs.total_out);
  strm->total_out = zs.total_out;
  strm->m_app_end = false;
  strm->m_rescued = rescue;
  return true;
}

/** After a failure of ISA-L (page_zip_isal_error()), write the page with
zlib at the table's level, as the zlib codec would: a page that fits is
neither split nor counted as a compression failure, which would grow the
index's padding; one that zlib cannot fit either is a full page.
@param[in,out]  strm  stream
@param[in,out]  ws    workspace, with the field list and the records
@return Z_STREAM_END, or Z_BUF_ERROR if zlib's stream does not fit */
int page_zip_isal_fallback(page_zip_deflate_stream_t *strm,
                           page_zip_deflate_ws_t *ws) {
  strm->m_appended = false;
  strm->m_needed = 0;
  return page_zip_zlib_rewrite(strm, ws, false) ? Z_STREAM_END : Z_BUF_ERROR;
}

/** deflate() with ISA-L. The field list goes into a stored block followed
by the empty stored block of a full flush, written here: the same shape as
zlib's full flush after a compressed block, so the zlib header and the
field list cost no ISA-L call (a deflate block of its own would cost the
building of its Huffman tables, which for a few bytes costs more than the
bytes). The records are gathered and deflated in one call of ISA-L as a
raw deflate stream with an empty history, which is what follows a full
flush; a page without records ends with an empty fixed-code block written
here. The adler32 trailer of the whole input is computed here too.
@param[in,out]  strm   stream
@param[in]      flush  Z_NO_FLUSH, Z_FULL_FLUSH or Z_FINISH
@return zlib status */
int page_zip_deflate_isal(page_zip_deflate_stream_t *strm, int flush) {
  auto *ws = static_cast<page_zip_deflate_ws_t *>(strm->m_ws);

  if (flush == Z_FULL_FLUSH) {
    /* The field list: at most 2 bytes for each of at most 1023 fields
    and 2 more (page_zip_fields_encode()). */
    const ulint len = strm->avail_in;
    ut_ad(strm->total_in == 0);
    ut_ad(ws->m_hdr_len == 2);
    if (len > 0xffff ||
        ws->m_hdr_len + len + PAGE_ZIP_ISAL_FIELDS_FRAME > sizeof ws->m_out) {
      return Z_STREAM_ERROR;
    }
    byte *out = ws->m_out + ws->m_hdr_len;
    /* BFINAL 0, BTYPE 00 (stored), padded to the byte; LEN, NLEN */
    out[0] = 0;
    out[1] = static_cast<byte>(len);
    out[2] = static_cast<byte>(len >> 8);
    out[3] = static_cast<byte>(~len);
    out[4] = static_cast<byte>(~len >> 8);
    memcpy(out + 5, strm->next_in, len);
    out += 5 + len;
    /* The full flush: an empty stored block. */
    memcpy(out, "\0\0\0\377\377", 5);
    out += 5;
    ws->m_adler = isal_adler32(ws->m_adler, strm->next_in, len);
    strm->next_in += len;
    strm->total_in += len;
    strm->avail_in = 0;
    const byte *from = ws->m_out + (strm->total_out == 0 ? 0 : ws->m_hdr_len);
    ws->m_hdr_len = out - ws->m_out;
    /* A stream is continued only after the same header and fields. */
    const page_zip_des_t *old = strm->m_app_old;
    if (old != nullptr &&
        (old->m_app_end < PAGE_DATA + ws->m_hdr_len ||
         memcmp(old->data + PAGE_DATA, ws->m_out, ws->m_hdr_len) != 0)) {
      strm->m_app_old = nullptr;
    }
    /* zlib has written the field list by now; so does this. */
    return page_zip_isal_copy_out(strm, from, out) ? Z_OK : Z_BUF_ERROR;
  }

  /* Gather the records. */
  if (strm->avail_in > sizeof ws->m_in - ws->m_in_len) {
    return Z_STREAM_ERROR;
  }
  memcpy(ws->m_in + ws->m_in_len, strm->next_in, strm->avail_in);
  ws->m_in_len += strm->avail_in;
  strm->next_in += strm->avail_in;
  strm->total_in += strm->avail_in;
  strm->avail_in = 0;

  if (flush != Z_FINISH) {
    return Z_OK;
  }

  byte *const begin = ws->m_out + ws->m_hdr_len;
  byte *const limit = ws->m_out + sizeof ws->m_out - 4;
  strm->m_in_len = ws->m_in_len;
  uint32_t adler = 0;
  byte *end = nullptr;
  if (strm->m_app_old != nullptr) {
    end = page_zip_isal_append(strm, ws, begin, limit, &adler);
    if (end != nullptr && ulint(end + 4 - begin) > strm->avail_out) {
      /* It does not fit. The whole page compressed is smaller by the
      block headers of the appends, about 100 bytes each on text; if the
      append missed by much more, so would a whole compression, which
      would be the most expensive one of the page's life: fail now, as
      it would (the caller splits the page). */
      if (ulint(end + 4 - begin) - strm->avail_out >
          std::max(page_zip_get_size(strm->m_app_old) /
                       PAGE_ZIP_APPEND_SLACK_DIV,
                   PAGE_ZIP_APPEND_SLACK_MIN)) {
        strm->m_needed = 0;
        return Z_BUF_ERROR;
      }
      end = nullptr;
    }
    strm->m_appended = end != nullptr;
  }
  if (end != nullptr) {
  } else if (strm->m_isal_failed) {
    /* ISA-L failed on the append: zlib writes the whole page. */
    return page_zip_isal_fallback(strm, ws);
  } else if (ws->m_in_len == 0) {
    /* No records (a new page): BFINAL 1, BTYPE 01 (fixed codes), and
    the end-of-block code, 7 zero bits. After the full flush, this is
    the appendable end too. */
    begin[0] = 3;
    begin[1] = 0;
    end = begin + 2;
    adler = ws->m_adler;
  } else {
    isal_zstream &zs = ws->m_izs;
    page_zip_isal_records_init(ws, begin, limit);
    if (strm->m_app_end) {
      /* Appendable: a sync flush, then an empty final block. */
      zs.avail_out -= 2;
      const int err =
          page_zip_isal_run(ws, ws->m_in, ws->m_in_len, SYNC_FLUSH, false);
      if (err != COMP_OK) {
        page_zip_isal_error("a page", err);
        return page_zip_isal_fallback(strm, ws);
      }
      end = zs.next_out;
      end[0] = 3;
      end[1] = 0;
      end += 2;
    } else {
      const int err =
          page_zip_isal_run(ws, ws->m_in, ws->m_in_len, NO_FLUSH, true);
      if (err != COMP_OK) {
        page_zip_isal_error("a page", err);
        return page_zip_isal_fallback(strm, ws);
      }
      end = zs.next_out;
    }
    adler = isal_adler32(ws->m_adler, ws->m_in, ws->m_in_len);
  }
  /* The adler32 trailer, most significant byte first. */
  end[0] = static_cast<byte>(adler >> 24);
  end[1] = static_cast<byte>(adler >> 16);
  end[2] = static_cast<byte>(adler >> 8);
  end[3] = static_cast<byte>(adler);
  end += 4;

  if (!page_zip_isal_copy_out(
          strm, strm->total_out == 0 ? ws->m_out : begin, end)) {
    /* Does not fit: page_zip_deflate_needed() tells how much it took. */
    strm->m_needed = end - ws->m_out;
    const ulint room = strm->total_out + strm->avail_out;
    if ((strm->m_prev_zlib || page_zip_zlib_rescue == PAGE_ZIP_RESCUE_ON) &&
        !strm->m_appended && ws->m_in_len > 0 &&
        strm->m_needed - room <=
            room / (strm->m_prev_zlib ? PAGE_ZIP_ZLIB_RESCUE_KEEP_DIV
                                      : PAGE_ZIP_ZLIB_RESCUE_DIV) &&
        page_zip_zlib_rewrite(strm, ws, true)) {
      return Z_STREAM_END;
    }
    return Z_BUF_ERROR;
  }
  return Z_STREAM_END;
}
#endif /* HAVE_ISAL */

}  // namespace

bool page_zip_codec_available(ulint codec) {
#ifdef HAVE_ISAL
  return codec < PAGE_ZIP_CODEC_N;
#else
  return codec == PAGE_ZIP_CODEC_ZLIB;
#endif /* HAVE_ISAL */
}

const char *page_zip_codec_version(ulint codec) {
  if (codec == PAGE_ZIP_CODEC_ZLIB) {
    return "zlib " ZLIB_VERSION;
  }
#ifdef HAVE_ISAL
  return "ISA-L " HAVE_ISAL_VERSION " (igzip)";
#else
  return "not built";
#endif /* HAVE_ISAL */
}

bool page_zip_log_images(ulint word) {
  return page_zip_log_pages ||
         page_zip_level_codec(word) != PAGE_ZIP_CODEC_ZLIB;
}

int page_zip_deflate_init(page_zip_deflate_stream_t *strm, ulint word,
                          mem_heap_t *heap) {
  ulint codec = page_zip_level_codec(word);
  const int level = static_cast<int>(page_zip_level_value(word));

  if (!page_zip_codec_available(codec) || level == 0) {
    /* Level 0 stores, which only zlib does. */
    codec = PAGE_ZIP_CODEC_ZLIB;
  }

  strm->m_codec = codec;
  strm->m_needed = 0;
  strm->m_app_old = nullptr;
  strm->m_app_end = false;
  strm->m_appended = false;
  strm->m_rescued = false;
  strm->m_isal_failed = false;
  strm->m_prev_zlib = false;
  strm->m_in_len = 0;
  strm->m_ws = page_zip_deflate_ws_get();
  strm->m_zs = strm;
  strm->total_in = strm->total_out = 0;
  strm->msg = nullptr;

  /* Trials (the estimator's, the tight split's) are InnoDB's own work:
  not counted; page_zip_fit_count() counts the page a split keeps. */
  if (!dict_zip_trial) {
    page_zip_codec_n_compress[codec].fetch_add(1, std::memory_order_relaxed);
  }

  auto *ws = static_cast<page_zip_deflate_ws_t *>(strm->m_ws);

#ifdef HAVE_ISAL
  if (codec == PAGE_ZIP_CODEC_ISAL && ws != nullptr) {
    /* ISA-L's own zlib header always announces a 32 KB window, which
    inflateInit2(UNIV_PAGE_SIZE_SHIFT) refuses: write the header of the
    page's window (and zlib's level class) here; ISA-L is set up only
    for the records (page_zip_deflate_isal()). */
    page_zip_isal_zlib_header_bytes(ws->m_out, UNIV_PAGE_SIZE_SHIFT, level);
    ws->m_hdr_len = 2;
    ws->m_in_len = 0;
    ws->m_adler = 1;
    ws->m_level = page_zip_codec_isal_level(level);
    ws->m_zlevel = level;
    return Z_OK;
  }
  if (codec == PAGE_ZIP_CODEC_ISAL) {
    strm->m_codec = PAGE_ZIP_CODEC_ZLIB;
  }
#endif /* HAVE_ISAL */

  if (ws == nullptr) {
    /* No workspace: as upstream, a stream on the caller's heap. */
    page_zip_set_alloc(strm, heap);
    return deflateInit2(strm, level, Z_DEFLATED, UNIV_PAGE_SIZE_SHIFT,
                        MAX_MEM_LEVEL, Z_DEFAULT_STRATEGY);
  }

  const int err = page_zip_zlib_ws_start(ws, level);
  if (err == Z_OK) {
    strm->m_zs = &ws->m_zs;
  }
  return err;
}

void page_zip_codec_count(ulint word) {
  ulint codec = page_zip_level_codec(word);
  if (!page_zip_codec_available(codec) || page_zip_level_value(word) == 0) {
    codec = PAGE_ZIP_CODEC_ZLIB;
  }
  page_zip_codec_n_compress[codec].fetch_add(1, std::memory_order_relaxed);
}

int page_zip_deflate(z_stream *strm, int flush) {
  auto *s = static_cast<page_zip_deflate_stream_t *>(strm);

#ifdef HAVE_ISAL
  if (s->m_codec == PAGE_ZIP_CODEC_ISAL) {
    return page_zip_deflate_isal(s, flush);
  }
#endif /* HAVE_ISAL */

  if (s->m_zs == s) {
    return deflate(s, flush);
  }

  /* The workspace's stream works on the caller's buffers. */
  z_stream *zs = s->m_zs;
  zs->next_in = s->next_in;
  zs->avail_in = s->avail_in;
  zs->next_out = s->next_out;
  zs->avail_out = s->avail_out;
  const uLong in0 = zs->total_in;
  const uLong out0 = zs->total_out;
  const int err = deflate(zs, flush);
  s->next_in = zs->next_in;
  s->avail_in = zs->avail_in;
  s->next_out = zs->next_out;
  s->avail_out = zs->avail_out;
  s->total_in += zs->total_in - in0;
  s->total_out += zs->total_out - out0;
  s->msg = zs->msg;
  return err;
}

int page_zip_deflate_end(z_stream *strm) {
  auto *s = static_cast<page_zip_deflate_stream_t *>(strm);
  if (s->m_codec == PAGE_ZIP_CODEC_ZLIB && s->m_zs == s) {
    return deflateEnd(s);
  }
  return Z_OK;
}

ulint page_zip_deflate_needed(z_stream *strm) {
  auto *s = static_cast<page_zip_deflate_stream_t *>(strm);
  if (s->m_codec != PAGE_ZIP_CODEC_ZLIB) {
    return s->m_needed;
  }
  /* zlib: what was written, what is pending, and the adler32 trailer
  (page0zip_fit.cc). */
  z_stream *zs = s->m_zs;
  unsigned pending = 0;
  int bits = 0;
  if (s->avail_in != 0 || deflatePending(zs, &pending, &bits) != Z_OK) {
    return 0;
  }
  return s->total_out + pending + (bits != 0 ? 1 : 0) + 4;
}

byte *page_zip_lob_deflate_alloc(ulint len) {
  return static_cast<byte *>(ut::malloc_withkey(
      UT_NEW_THIS_FILE_PSI_KEY, page_zip_lob_deflate_bound(len)));
}

void page_zip_lob_deflate_free(byte *buf) { ut::free(buf); }

ulint page_zip_deflate_heap_saved() {
  return page_zip_deflate_ws_get() != nullptr
             ? UNIV_PAGE_SIZE * 4 + (512 << MAX_MEM_LEVEL)
             : 0;
}

void page_zip_codec_thread_free() { page_zip_deflate_ws.reset(); }
