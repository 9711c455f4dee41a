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

/** @file include/lob0zip_read.h
 The fast inflate of compressed BLOBs (include/page0zip_codec.h).

 A BLOB of a ROW_FORMAT=COMPRESSED table up to Z_CHUNK_SIZE bytes is one
 zlib stream over a chain of ZBLOB pages, written by lob::zInserter and
 read by lob::zReader with zlib's inflate() page by page. With the fast
 inflate on (innodb_compression_codec other than zlib, and ISA-L in the
 build), lob_zip_read_fast() reads the chain first, feeding each page to
 ISA-L; if ISA-L refuses the stream anywhere, zReader reads it again with
 zlib from the start, so an error is reported exactly as before. The
 streams themselves are unchanged: compressed BLOBs are still written by
 zlib (patch 0020), and BLOBs over Z_CHUNK_SIZE (one zlib stream per
 chunk, lob::z_read_chunk()) are read by zlib.

 Created 2026-11-27 */

#ifndef lob0zip_read_h
#define lob0zip_read_h

#include "lob0lob.h"

namespace lob {

/** Read a single-stream compressed BLOB with the fast inflate.
@param[in]   rctx  what zReader::fetch() reads (not changed)
@param[out]  len   bytes of the BLOB read into rctx.m_buf after its local
                   prefix, if true is returned
@return whether the fast inflate read it (false: zReader reads it with
zlib, from the start) */
bool zip_read_fast(const ReadContext &rctx, ulint *len);

}  // namespace lob

#endif /* lob0zip_read_h */
