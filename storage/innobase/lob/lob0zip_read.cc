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

/** @file lob/lob0zip_read.cc
 The fast inflate of compressed BLOBs (include/lob0zip_read.h).

 Created 2026-11-27 */

#include "lob0zip_read.h"

#include "buf0buf.h"
#include "my_dbug.h"
#include "fil0fil.h"
#include "page0zip_codec.h"

namespace lob {

bool zip_read_fast(const ReadContext &rctx, ulint *len) {
  const ulint local_prefix = rctx.m_local_len - BTR_EXTERN_FIELD_REF_SIZE;

  page_zip_lob_inflate_t z;
  if (!page_zip_lob_inflate_begin(&z, rctx.m_buf + local_prefix,
                                  rctx.m_len - local_prefix)) {
    return false;
  }

  /* The walk of zReader::fetch() and zReader::fetch_page(), on copies of
  the page number and the offset: zReader starts from rctx's if the fast
  inflate refuses the stream. */
  page_no_t page_no = rctx.m_page_no;
  ulint offset = rctx.m_offset;
  /* Only a stream that ends, or a buffer that fills, is a read: a chain
  that runs out of pages first (a damaged chain) goes to zReader, which
  reads and reports it as stock MySQL does (ISA-L keeps the last symbols
  back until more input comes, so its bytes would differ from zlib's;
  found by fuzz/, regressions/lob_inflate/fast-short-read-truncated-chain). */
  bool ok = false;

  while (page_no != FIL_NULL) {
    buf_page_t *bpage =
        buf_page_get_zip(page_id_t(rctx.m_space_id, page_no), rctx.m_page_size);
    ut_a(bpage != nullptr);
    ut_ad(fil_page_get_type(bpage->zip.data) == FIL_PAGE_TYPE_ZBLOB ||
          fil_page_get_type(bpage->zip.data) == FIL_PAGE_TYPE_ZBLOB2 ||
          fil_page_get_type(bpage->zip.data) == FIL_PAGE_SDI_ZBLOB);
    page_no = mach_read_from_4(bpage->zip.data + FIL_PAGE_NEXT);

    /* When the BLOB begins at a page header, the compressed payload does
    not immediately follow the next page pointer. */
    offset = offset == FIL_PAGE_NEXT ? FIL_PAGE_DATA : offset + 4;

    auto status = page_zip_lob_inflate_feed(
        &z, bpage->zip.data + offset, rctx.m_page_size.physical() - offset);
    /* A stream the fast inflate refuses (compress.codec_lob_debug). */
    DBUG_EXECUTE_IF("lob_zip_read_fast_refuse",
                    status = PAGE_ZIP_LOB_ERROR;);

    buf_page_release_zip(bpage);
    offset = FIL_PAGE_NEXT;

    if (status == PAGE_ZIP_LOB_MORE) {
      continue;
    }
    /* zlib's inflate() returns Z_STREAM_END before the last page of the
    chain only for a damaged chain: zReader reports it. */
    ok = status == PAGE_ZIP_LOB_FULL ||
         (status == PAGE_ZIP_LOB_END && page_no == FIL_NULL);
    break;
  }

  *len = page_zip_lob_inflate_end(&z, ok);
  return ok;
}

}  // namespace lob
