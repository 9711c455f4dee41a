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

/** @file lob/lob0zip_write.cc
 Compressed BLOBs written by the fast codec: the parts of lob::zInserter
 (include/lob0zip.h) that choose between ISA-L and zlib.

 A BLOB of a compressed table up to lob::Z_CHUNK_SIZE is one zlib stream
 over a chain of ZBLOB pages; zInserter writes it page by page, each page
 taking the next bytes of the stream (upstream: deflate(Z_FINISH) with the
 page's payload as output). When the index's level word names the fast
 codec, deflate_begin() deflates the whole BLOB at once with
 page_zip_lob_deflate() into a buffer of the inserter, and deflate_page()
 hands out its next bytes: the pages hold a stream of the same format, cut
 at the same places (every page but the last full), so the readers (zlib's
 zReader, lob::zip_read_fast(), stock MySQL) see no difference. zlib's
 stream, a heap of 250 KB, is set up only if the fast codec refuses a
 BLOB.

 Created 2026-11-27 */

#include "lob0zip.h"

#include <string.h>

#include <algorithm>

#include "dict0zip_opt.h"
#include "page0zip_codec.h"

namespace lob {

dberr_t zInserter::prepare() {
  m_word = dict_index_zip_level(m_ctx->index());
  /* deflateBound() of calc_total_pages() reads a stream that is not set
  up as such. */
  memset(&m_stream, 0, sizeof m_stream);
  if (page_zip_level_codec(m_word) != PAGE_ZIP_CODEC_ZLIB &&
      page_zip_codec_available(page_zip_level_codec(m_word))) {
    /* The fast codec writes the BLOBs; zlib is set up if it refuses
    one (deflate_begin()). */
    return DB_SUCCESS;
  }
  return prepare_zlib();
}

int zInserter::deflate_begin(const big_rec_field_t &field) {
  m_fast_blob = false;

  if (!m_zlib_ready) {
    const ulint bound = page_zip_lob_deflate_bound(field.len);
    if (bound > m_fast_size) {
      page_zip_lob_deflate_free(m_fast_buf);
      m_fast_size = 0;
      m_fast_buf = page_zip_lob_deflate_alloc(field.len);
      if (m_fast_buf != nullptr) {
        m_fast_size = bound;
      }
    }
    const ulint n =
        m_fast_buf == nullptr
            ? 0
            : page_zip_lob_deflate(m_word, static_cast<const byte *>(field.data),
                                   field.len, m_fast_buf, m_fast_size, true);
    if (n != 0) {
      m_fast_blob = true;
      m_fast_pos = m_fast_buf;
      m_fast_left = n;
      m_stream.next_in = static_cast<Bytef *>(const_cast<void *>(field.data));
      m_stream.avail_in = static_cast<uInt>(field.len);
      m_stream.total_in = 0;
      m_stream.total_out = 0;
      return Z_OK;
    }
    if (prepare_zlib() != DB_SUCCESS) {
      return Z_MEM_ERROR;
    }
  }

  int err = deflateReset(&m_stream);
  m_stream.next_in = static_cast<Bytef *>(const_cast<void *>(field.data));
  m_stream.avail_in = static_cast<uInt>(field.len);
  return err;
}

int zInserter::deflate_page() {
  if (!m_fast_blob) {
    return deflate(&m_stream, Z_FINISH);
  }

  const ulint n = std::min<ulint>(m_fast_left, m_stream.avail_out);
  memcpy(m_stream.next_out, m_fast_pos, n);
  m_fast_pos += n;
  m_fast_left -= n;
  m_stream.next_out += n;
  m_stream.avail_out -= static_cast<uInt>(n);
  m_stream.total_out += n;

  if (m_fast_left > 0) {
    return Z_OK;
  }

  /* The end of the stream: all input taken, as zlib reports it. The pages
  before carry no input count of their own (blob_page_info_t, a debugging
  aid). */
  m_stream.total_in += m_stream.avail_in;
  m_stream.next_in += m_stream.avail_in;
  m_stream.avail_in = 0;
  return Z_STREAM_END;
}

}  // namespace lob
