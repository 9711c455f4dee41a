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

/** @file fuzz/fuzz_lob_inflate.cc
 Fuzz target: arbitrary bytes as the chain of ZBLOB pages of a compressed
 BLOB, read by lob::zip_read_fast() (storage/innobase/lob/lob0zip_read.cc,
 compiled as it is) with the ISA-L inflate of page0zip_inflate.cc
 (page_zip_lob_inflate_begin/feed/end()).

 zip_read_fast() takes its pages from the buffer pool
 (buf_page_get_zip()); this file defines that function over the pages of
 the input instead, so lob0zip_read.cc and page0zip_inflate.cc run
 unchanged without the server. What it does not cover: zReader itself
 (lob0lob.cc needs the server), whose zlib loop is copied below as the
 reference that the fast inflate must agree with.

 Input: a selector byte, three bytes of the BLOB's length (the length in
 the BLOB reference, which is the room zReader gives), then the pages of
 the chain, each the compressed page size (the last one padded with zero
 bytes). The first page is the one the BLOB reference names; the BLOB
 starts at its header (offset FIL_PAGE_NEXT), as zInserter writes them.

   selector bits 0-2  compressed page size: 1 KB << (value modulo 5)
   selector bit  3    0: the chain is the input's pages in order (each
                      page's FIL_PAGE_NEXT is rewritten to the next one,
                      the last one's to FIL_NULL); 1: the pages' own
                      FIL_PAGE_NEXT, page number FIRST_PAGE_NO + i being
                      the input's page i (a chain that leaves the input or
                      comes back to a page is not run)
   selector bit  4    1: also read the chain with zlib as zReader does;
                      whenever the fast inflate accepts the BLOB, zlib must
                      read the same length and the same bytes (the known
                      differences of fuzz/known_bugs.txt are let through
                      when FUZZ_SKIP names them, as long as the bytes
                      both give agree)
   bytes 1-3          the BLOB's length: 1 + (the little-endian value
                      modulo 256 KB)

 Each page is a malloc() of exactly the compressed page size and the
 output buffer one of exactly the BLOB's length. */

#include "fuzz_common.h"

#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include <vector>

#include "buf0buf.h"
#include "fil0types.h"
#include "lob0lob.h"
#include "lob0zip_read.h"
#include "mach0data.h"

namespace {

/** Page number of the input's first page. */
constexpr page_no_t FIRST_PAGE_NO = 5;
/** Tablespace of the chain. */
constexpr space_id_t SPACE_ID = 7;
/** Longest BLOB tried: twice lob::Z_CHUNK_SIZE. */
constexpr ulint MAX_LEN = 256 * 1024;
/** Most pages in a chain. */
constexpr size_t MAX_PAGES = 512;

/** The pages the stub buffer pool serves. */
struct chain_t {
  std::vector<byte *> pages;
  ulint zip_size{0};
  /** page descriptors handed out, one per page */
  std::vector<byte *> descs;
  /** buf_page_get_zip() calls */
  size_t n_get{0};
};

chain_t *chain = nullptr;

/** A buffer-fixed compressed page as the buffer pool hands it out
(BUF_BLOCK_ZIP_PAGE, buf_fix_count 1): only what buf_page_release_zip()
and zip_read_fast() touch is set. buf_page_t has no default constructor;
its storage is zeroed and these members set. */
buf_page_t *make_desc(byte *data) {
  byte *mem = static_cast<byte *>(aligned_alloc(alignof(buf_page_t),
                                                (sizeof(buf_page_t) +
                                                 alignof(buf_page_t) - 1) &
                                                    ~(alignof(buf_page_t) - 1)));
  memset(mem, 0, sizeof(buf_page_t));
  buf_page_t *b = reinterpret_cast<buf_page_t *>(mem);
  b->state = BUF_BLOCK_ZIP_PAGE;
  b->buf_fix_count.store(1);
  b->zip.data = data;
  chain->descs.push_back(mem);
  return b;
}

/** The reference: zReader::fetch()'s zlib loop (lob0lob.cc), on the same
pages; where zReader stops the server (ut_error on a zlib error), this
returns false.
@return whether zlib read the BLOB; its length in *len */
bool zlib_read(page_no_t page_no, ulint offset, byte *out, ulint out_len,
               ulint *len, bool *chain_ended) {
  *chain_ended = false;
  z_stream s;
  memset(&s, 0, sizeof s);
  s.next_out = out;
  s.avail_out = static_cast<uInt>(out_len);
  if (inflateInit(&s) != Z_OK) {
    return false;
  }
  /* zReader's err == DB_SUCCESS */
  bool ok = true;
  while (page_no != FIL_NULL) {
    const byte *page = chain->pages[page_no - FIRST_PAGE_NO];
    page_no = mach_read_from_4(page + FIL_PAGE_NEXT);
    offset = offset == FIL_PAGE_NEXT ? FIL_PAGE_DATA : offset + 4;
    s.next_in = const_cast<byte *>(page + offset);
    s.avail_in = static_cast<uInt>(chain->zip_size - offset);
    const int err = inflate(&s, Z_NO_FLUSH);
    if (err == Z_OK) {
      if (s.avail_out == 0) {
        break;
      }
    } else if (err == Z_STREAM_END && page_no == FIL_NULL) {
      break;
    } else if (err == Z_BUF_ERROR) {
      /* zReader ends the BLOB there, without an error. */
      break;
    } else {
      /* zReader: ut_error (a damaged BLOB stops the server); also the
      end of the stream before the end of the chain. */
      ok = false;
      break;
    }
    offset = FIL_PAGE_NEXT;
  }
  /* A chain that ends before the stream: zReader returns what it read. */
  *chain_ended = ok && page_no == FIL_NULL && s.avail_out > 0 &&
                 s.avail_in == 0;
  *len = s.total_out;
  inflateEnd(&s);
  return ok;
}

}  // namespace

/** The buffer pool of this fuzz target: the input's pages. */
buf_page_t *buf_page_get_zip(const page_id_t &page_id, const page_size_t &) {
  const page_no_t page_no = page_id.page_no();
  ut_a(page_id.space() == SPACE_ID);
  ut_a(page_no >= FIRST_PAGE_NO &&
       page_no - FIRST_PAGE_NO < chain->pages.size());
  chain->n_get++;
  return make_desc(chain->pages[page_no - FIRST_PAGE_NO]);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4) {
    return 0;
  }
  const uint8_t sel = data[0];
  const ulint zshift = UNIV_ZIP_SIZE_SHIFT_MIN + (sel & 7) % 5;
  const bool own_links = (sel >> 3) & 1;
  const bool differential = (sel >> 4) & 1;
  /* zReader reads only BLOBs of a length above 0 (is_valid_blob()). */
  const ulint blob_len =
      1 + (ulint(data[1]) | ulint(data[2]) << 8 | ulint(data[3]) << 16) %
              MAX_LEN;
  data += 4;
  size -= 4;

  fuzz::set_logical_page_size(UNIV_PAGE_SIZE_SHIFT_DEF);

  const ulint zip_size = ulint{1} << zshift;
  const size_t n_pages = (size + zip_size - 1) / zip_size;
  if (n_pages == 0 || n_pages > MAX_PAGES) {
    return 0;
  }

  chain_t c;
  chain = &c;
  c.zip_size = zip_size;
  for (size_t i = 0; i < n_pages; i++) {
    byte *p = static_cast<byte *>(malloc(zip_size));
    const size_t n = std::min<size_t>(zip_size, size - i * zip_size);
    memcpy(p, data + i * zip_size, n);
    memset(p + n, 0, zip_size - n);
    if (!own_links) {
      mach_write_to_4(p + FIL_PAGE_NEXT, i + 1 < n_pages
                                             ? page_no_t(FIRST_PAGE_NO + i + 1)
                                             : FIL_NULL);
    }
    c.pages.push_back(p);
  }

  bool runnable = true;
  if (own_links) {
    /* The chain must stay in the input and end: a chain that loops is
    read forever by zReader and by the fast inflate alike. */
    std::vector<bool> seen(n_pages, false);
    page_no_t page_no = FIRST_PAGE_NO;
    while (page_no != FIL_NULL) {
      if (page_no < FIRST_PAGE_NO || page_no - FIRST_PAGE_NO >= n_pages ||
          seen[page_no - FIRST_PAGE_NO]) {
        runnable = false;
        break;
      }
      seen[page_no - FIRST_PAGE_NO] = true;
      page_no = mach_read_from_4(c.pages[page_no - FIRST_PAGE_NO] +
                                 FIL_PAGE_NEXT);
    }
  }

  if (runnable) {
    /* The clustered index record's field: the BLOB reference alone, as
    ROW_FORMAT=COMPRESSED stores no local prefix. */
    byte ref[BTR_EXTERN_FIELD_REF_SIZE];
    memset(ref, 0, sizeof ref);
    mach_write_to_4(ref + lob::BTR_EXTERN_SPACE_ID, SPACE_ID);
    mach_write_to_4(ref + lob::BTR_EXTERN_PAGE_NO, FIRST_PAGE_NO);
    mach_write_to_4(ref + lob::BTR_EXTERN_OFFSET, FIL_PAGE_NEXT);
    mach_write_to_8(ref + lob::BTR_EXTERN_LEN, blob_len);

    byte *out = static_cast<byte *>(malloc(blob_len));
    const page_size_t page_size(zip_size, UNIV_PAGE_SIZE, true);
    lob::ReadContext rctx(page_size, ref, BTR_EXTERN_FIELD_REF_SIZE, out,
                          blob_len);

    ulint fast_len = 0;
    const bool fast_ok = lob::zip_read_fast(rctx, &fast_len);
    /* FUZZ_VERBOSE=1: one line per input, for checking seeds. */
    static const bool verbose = getenv("FUZZ_VERBOSE") != nullptr;
    if (verbose) {
      fprintf(stderr, "lob_inflate: zip %lu, %zu pages, length %lu: %s %lu\n",
              (ulong)zip_size, n_pages, (ulong)blob_len,
              fast_ok ? "fast read" : "fast refused", (ulong)fast_len);
    }

    /* Every page handed out was released (buf_page_release_zip()). */
    for (byte *d : c.descs) {
      if (reinterpret_cast<buf_page_t *>(d)->buf_fix_count.load() != 0) {
        fuzz::mismatch("a page of the chain is still buffer-fixed");
      }
    }
    if (fast_ok && fast_len > blob_len) {
      fuzz::mismatch("the fast inflate read more than the BLOB's length");
    }

    if (differential && fast_ok) {
      byte *out2 = static_cast<byte *>(malloc(blob_len));
      ulint zlib_len = 0;
      bool chain_ended = false;
      const bool zlib_ok = zlib_read(FIRST_PAGE_NO, FIL_PAGE_NEXT, out2,
                                     blob_len, &zlib_len, &chain_ended);
      if (zlib_ok && chain_ended && fast_len <= zlib_len &&
          memcmp(out, out2, fast_len) == 0 &&
          fuzz::skip_known("lob-truncated-chain")) {
        /* Known (fuzz/known_bugs.txt): where the chain ends before the
        stream, ISA-L keeps the last few bytes back for more input that
        never comes, and zip_read_fast() takes the shorter read; zlib
        decodes all it can. The bytes it gives must still be zlib's. */
        free(out2);
        free(out);
        goto done;
      }
      if (!zlib_ok && zlib_len <= fast_len &&
          memcmp(out, out2, zlib_len) == 0 &&
          fuzz::skip_known("isal-lenient")) {
        /* Known (fuzz/known_bugs.txt): ISA-L decodes some damaged streams
        that zlib refuses (an incomplete set of Huffman code lengths), and
        a BLOB read up to its length or to the end of its chain has no
        adler32 checked by either. The bytes zlib gave before it refused
        must still be the same. */
        free(out2);
        free(out);
        goto done;
      }
      if (!zlib_ok) {
        fuzz::mismatch("the fast inflate read a BLOB that zlib refuses");
      }
      if (zlib_len != fast_len) {
        fuzz::mismatch("the fast inflate and zlib read different lengths");
      }
      if (memcmp(out, out2, fast_len) != 0) {
        fuzz::mismatch("the fast inflate and zlib read different bytes");
      }
      free(out2);
    }
    free(out);
  }

done:
  for (byte *d : c.descs) {
    free(d);
  }
  for (byte *p : c.pages) {
    free(p);
  }
  chain = nullptr;
  return 0;
}
