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

/** @file page/page0zip_codec_lob.cc
 Compressed BLOBs written by ISA-L (patch 0027): one zlib stream per
 BLOB, as zlib's writers make it. Split from page0zip_codec.cc.

 Created 2026-12-06 */

#include "my_dbug.h"
#include "page0zip_codec.h"
#include "page0zip_codec_ws.h"

ulint page_zip_lob_deflate(ulint word, const byte *in, ulint len, byte *out,
                           ulint out_len, bool count) {
#ifdef HAVE_ISAL
  const ulint level = page_zip_level_value(word);
  if (page_zip_level_codec(word) != PAGE_ZIP_CODEC_ISAL || level == 0) {
    return 0;
  }
  ulint n = 0;
  page_zip_deflate_ws_t *ws = page_zip_deflate_ws_get();
  if (ws != nullptr && len <= UINT32_MAX && out_len <= UINT32_MAX) {
    isal_zstream &zs = ws->m_izs;
    isal_deflate_init(&zs);
    zs.level = page_zip_codec_isal_level(level);
    zs.level_buf = ws->m_level_buf;
    zs.level_buf_size = static_cast<uint32_t>(sizeof ws->m_level_buf);
    zs.next_out = out;
    zs.avail_out = static_cast<uint32_t>(out_len);
    /* zInserter's deflateInit2(level, Z_DEFLATED, 15, 7) and
    z_insert_chunk()'s deflateInit() both announce a 32 KB window. */
    if (page_zip_isal_zlib_header(&zs, 15, level)) {
      zs.next_in = const_cast<byte *>(in);
      zs.avail_in = static_cast<uint32_t>(len);
      zs.flush = NO_FLUSH;
      zs.end_of_stream = 1;
      /* One call takes all input; the loop only guards against a
      library that returns early while it still has room. */
      int err = COMP_OK;
      for (int calls = 0; calls < 8; calls++) {
        err = isal_deflate(&zs);
        DBUG_EXECUTE_IF("page_zip_isal_error", err = ISAL_INVALID_OPERATION;);
        if (err != COMP_OK || zs.internal_state.state == ZSTATE_END ||
            zs.avail_out == 0) {
          break;
        }
      }
      if (err == COMP_OK && zs.internal_state.state == ZSTATE_END &&
          zs.avail_in == 0) {
        n = zs.next_out - out;
      } else if (err != COMP_OK ||
                 zs.avail_out >= page_zip_lob_deflate_bound(0)) {
        /* An error, or a stream left unfinished with room to spare: the
        library failed (a full output is the caller's bound). zlib
        writes the BLOB, as for any refusal. */
        page_zip_isal_error("a BLOB",
                            err != COMP_OK ? err : PAGE_ZIP_ISAL_INCOMPLETE);
      }
    }
  }
#ifdef UNIV_ZIP_DEBUG
  if (n != 0) {
    /* Each stream written is read back and compared with its input. */
    page_zip_lob_validate(in, len, out, n);
  }
#endif /* UNIV_ZIP_DEBUG */
  /* A stream the fast codec does not write (compress.codec_lob_debug). */
  DBUG_EXECUTE_IF("lob_zip_write_fast_refuse", n = 0;);
  if (count) {
    (n != 0 ? page_zip_lob_deflate_n_fast : page_zip_lob_deflate_n_fallback)
        .fetch_add(1, std::memory_order_relaxed);
  }
  return n;
#else
  (void)word;
  (void)in;
  (void)len;
  (void)out;
  (void)out_len;
  (void)count;
  return 0;
#endif /* HAVE_ISAL */
}
