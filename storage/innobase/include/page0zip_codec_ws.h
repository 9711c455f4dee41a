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

/** @file include/page0zip_codec_ws.h
 The codecs' per-thread workspace and the helpers the codec's files share
 (page0zip_codec.cc: the deflate of pages and the rescue by zlib;
 page0zip_codec_append.cc: continuing a page's stream;
 page0zip_codec_lob.cc: compressed BLOBs). Internal to them: the rest of
 InnoDB uses page0zip_codec.h.

 Created 2026-12-06 (split from page0zip_codec.cc) */

#ifndef page0zip_codec_ws_h
#define page0zip_codec_ws_h

#include <algorithm>

#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif /* HAVE_ISAL */

#include "page0zip_codec.h"
#include "univ.i"

#ifdef HAVE_ISAL
/** Bytes ISA-L needs for its levels 1 to 3 with inputs of a page. */
constexpr size_t PAGE_ZIP_ISAL_LEVEL_BUF =
    std::max({size_t{ISAL_DEF_LVL1_SMALL}, size_t{ISAL_DEF_LVL2_SMALL},
              size_t{ISAL_DEF_LVL3_SMALL}});
/** Room for ISA-L's output: a page of incompressible bytes grows a little
(stored blocks, block headers); twice the page is far more than enough. */
constexpr size_t PAGE_ZIP_ISAL_OUT = 2 * UNIV_PAGE_SIZE_DEF + 1024;
#endif /* HAVE_ISAL */

/** Per-thread workspace of the compression codecs. */
struct page_zip_deflate_ws_t {
  /** zlib stream, set up by deflateInit2() once */
  z_stream m_zs;
  /** whether m_zs is set up */
  bool m_zs_ready{false};
  /** level m_zs was last used with */
  int m_zs_level{-1};
#ifdef HAVE_ISAL
  /** ISA-L stream */
  isal_zstream m_izs;
  /** records gathered after the field list */
  ulint m_in_len;
  /** bytes of output of the zlib header and the field list */
  ulint m_hdr_len;
  /** adler32 of the input so far (the field list) */
  uint32_t m_adler;
  /** ISA-L level of this compression */
  uint32_t m_level;
  /** zlib-scale level of this compression (for a rescue by zlib) */
  int m_zlevel;
  /** ISA-L's level buffer */
  alignas(64) byte m_level_buf[PAGE_ZIP_ISAL_LEVEL_BUF];
  /** records gathered after the field list */
  alignas(64) byte m_in[UNIV_PAGE_SIZE_DEF];
  /** ISA-L's output */
  alignas(64) byte m_out[PAGE_ZIP_ISAL_OUT];
#endif /* HAVE_ISAL */
};

/** @return the calling thread's workspace, or nullptr (pages larger than
UNIV_PAGE_SIZE_DEF, or out of memory: the callers fall back to a stream
of their own) */
page_zip_deflate_ws_t *page_zip_deflate_ws_get();

#ifdef HAVE_ISAL
/** Run ISA-L over the input it is given, into the workspace's output.
@param[in,out]  ws     workspace
@param[in]      in     input
@param[in]      len    bytes of input
@param[in]      flush  ISA-L flush mode
@param[in]      last   whether this ends the stream
@return COMP_OK if all input was taken (and the stream ended if last);
else ISA-L's error, or PAGE_ZIP_ISAL_INCOMPLETE */
int page_zip_isal_run(page_zip_deflate_ws_t *ws, const byte *in, ulint len,
                      uint16_t flush, bool last);

/** Set up ISA-L for a zlib stream and write its header ourselves.
@param[in,out]  zs           ISA-L stream, after isal_deflate_init(), with
                             its output set
@param[in]      window_bits  log2 of the window
@param[in]      level        zlib-scale level
@return whether the header was written */
bool page_zip_isal_zlib_header(isal_zstream *zs, ulint window_bits,
                               ulint level);

/** Set up ISA-L for the records' raw deflate stream, which follows the
full flush after the field list (an empty history).
@param[in,out]  ws     workspace
@param[in]      begin  where the output goes
@param[in]      limit  end of the room for it */
void page_zip_isal_records_init(page_zip_deflate_ws_t *ws, byte *begin,
                                byte *limit);

/** Whether the current stream of a compressed page was written by zlib.
@param[in]  page_zip  compressed page
@return true if zlib wrote it */
bool page_zip_stream_by_zlib(const page_zip_des_t *page_zip);

/** Continue the old stream of the page (page0zip_codec_append.cc).
@param[in,out]  strm   stream
@param[in,out]  ws     workspace
@param[in]      begin  where the records' stream goes
@param[in]      limit  end of the room for it
@param[out]     adler  adler32 of the whole input
@return the end of the output (before the trailer), or nullptr if the old
stream cannot be continued: compress the whole page */
byte *page_zip_isal_append(page_zip_deflate_stream_t *strm,
                           page_zip_deflate_ws_t *ws, byte *begin, byte *limit,
                           uint32_t *adler);
#endif /* HAVE_ISAL */

#endif /* page0zip_codec_ws_h */
