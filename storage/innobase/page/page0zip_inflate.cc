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

/** @file page/page0zip_inflate.cc
 The fast inflate of compressed pages (page0zip_codec.h).

 page_zip_decompress() reads a page's zlib stream in steps: the header and
 the field list with inflate(Z_BLOCK), then each record's bytes into their
 place on the page with inflate(Z_SYNC_FLUSH), skipping the columns kept
 outside the stream. zlib decodes each step as it goes.

 page_compress() ends the field list with a full flush: an empty stored
 block (00 00 ff ff) after which the stream is byte-aligned and refers to
 nothing before it. From there the rest is an independent raw deflate
 stream. The fast inflate decodes it in one call of ISA-L into a scratch
 page of the thread, checks the adler32 trailer (continued from zlib's
 check of the field list), and then hands the bytes to the steps by
 copying, with the return codes inflate() would give. A stream without
 that shape, or one that the fast decoder refuses, is read by zlib from
 where it stood, so errors are reported as zlib reports them.

 This file is also compiled into the decompression library of the tools
 (innochecksum, ibd2sdi): UNIV_LIBRARY, no counters.

 Created 2026-11-25 */

#include "page0zip_codec.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

#ifdef HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif /* HAVE_ISAL */

#ifndef UNIV_LIBRARY
#include "ut0new.h"
#endif /* !UNIV_LIBRARY */

#ifdef HAVE_ISAL
bool page_zip_inflate_fast = true;
#else
bool page_zip_inflate_fast = false;
#endif /* HAVE_ISAL */

namespace {
/** Overrides page_zip_inflate_fast for the calling thread: -1 none. */
thread_local int page_zip_inflate_forced = -1;
}  // namespace

bool page_zip_inflate_use_fast() {
  return page_zip_inflate_forced >= 0 ? page_zip_inflate_forced != 0
                                      : page_zip_inflate_fast;
}

void page_zip_inflate_force(int force) { page_zip_inflate_forced = force; }

#ifndef UNIV_LIBRARY
/** Decompressions whose records the fast inflate read. */
std::atomic<uint64_t> page_zip_inflate_n_fast{0};
/** Decompressions that fell back to zlib with the fast inflate on. */
std::atomic<uint64_t> page_zip_inflate_n_fallback{0};
/** Compressed BLOBs the fast inflate read. */
std::atomic<uint64_t> page_zip_lob_inflate_n_fast{0};
/** Compressed BLOBs zlib read again after the fast inflate refused them. */
std::atomic<uint64_t> page_zip_lob_inflate_n_fallback{0};
#endif /* !UNIV_LIBRARY */

#ifdef HAVE_ISAL
namespace {

/** The per-thread state of the fast inflate. */
struct page_zip_inflate_ws_t {
  /** ISA-L's decoder; stateless use needs no history buffer of its own */
  inflate_state m_state;
  /** ISA-L's decoder of a BLOB's stream, which lives across the buffer
  pool calls that fetch the BLOB's pages: a page decompression may run in
  between on this thread (the eviction's page_zip_validate() in builds
  with UNIV_ZIP_DEBUG did), so it must not share m_state (found by the
  differential twins, 2026-11-28: wrong BLOB bytes read, and an UPDATE
  that took the wrong bytes for the old value and left the column) */
  inflate_state m_lob_state;
  /** whether a BLOB read holds m_lob_state */
  bool m_lob_busy;
  /** the records of the page being decompressed */
  alignas(64) byte m_buf[UNIV_PAGE_SIZE_DEF];
};

/** Frees the workspace when its thread exits. */
struct page_zip_inflate_ws_free_t {
  void operator()(page_zip_inflate_ws_t *ws) const {
#ifdef UNIV_LIBRARY
    free(ws);
#else
    ut::aligned_free(ws);
#endif /* UNIV_LIBRARY */
  }
};

thread_local std::unique_ptr<page_zip_inflate_ws_t, page_zip_inflate_ws_free_t>
    page_zip_inflate_ws;

/** @return the calling thread's workspace, or nullptr if out of memory */
page_zip_inflate_ws_t *page_zip_inflate_ws_get() {
  if (UNIV_UNLIKELY(page_zip_inflate_ws == nullptr)) {
    /* alignas() members: the allocation must honour the struct's
    alignment (malloc() and ut::malloc_withkey() give 16 bytes). */
#ifdef UNIV_LIBRARY
    void *p = nullptr;
    if (posix_memalign(&p, alignof(page_zip_inflate_ws_t),
                       sizeof(page_zip_inflate_ws_t)) != 0) {
      p = nullptr;
    }
#else
    void *p = ut::aligned_alloc_withkey(UT_NEW_THIS_FILE_PSI_KEY,
                                        sizeof(page_zip_inflate_ws_t),
                                        alignof(page_zip_inflate_ws_t));
#endif /* UNIV_LIBRARY */
    if (p != nullptr) {
      static_cast<page_zip_inflate_ws_t *>(p)->m_lob_busy = false;
    }
    page_zip_inflate_ws.reset(static_cast<page_zip_inflate_ws_t *>(p));
  }
  ut_ad(page_zip_inflate_ws == nullptr ||
        reinterpret_cast<uintptr_t>(page_zip_inflate_ws.get()) %
                alignof(page_zip_inflate_ws_t) ==
            0);
  return page_zip_inflate_ws.get();
}

/** Decide how the records of a page are read, at the first step after
the field list. On success the whole rest of the stream is decoded into
the workspace and checked.
@param[in,out]  s  stream, just after the field list
@return Z_OK to go on (fast or zlib, see s->m_mode), or a zlib error */
int page_zip_inflate_start(page_zip_inflate_stream_t *s) {
  s->m_mode = 2;

  if (!s->m_fast || UNIV_PAGE_SIZE > UNIV_PAGE_SIZE_DEF) {
    return Z_OK;
  }

  /* zlib stopped after the end-of-block code of the field list, usually
  in the middle of a byte. Step over the empty blocks of the full flush
  (an empty stored block 00 00 ff ff; ISA-L may put an empty fixed-code
  block before it) with zlib itself and no room for output: empty blocks
  need none, and anything else stops before its first byte of output and
  resumes later. */
  const uInt avail_out = s->avail_out;
  const uLong total_out = s->total_out;
  bool aligned = false;
  s->avail_out = 0;
  for (int i = 0; i < 4 && !aligned; i++) {
    const uLong total_in = s->total_in;
    const int err = inflate(s, Z_BLOCK);
    if (err != Z_OK && err != Z_BUF_ERROR) {
      s->avail_out = avail_out;
      return err;
    }
    /* data_type: bits left in the bit buffer, + 64 in the last block,
    + 128 at a block boundary. 128: aligned, nothing buffered. */
    aligned = s->data_type == 128 && s->total_out == total_out &&
              s->total_in >= 6 &&
              memcmp(s->next_in - 4, "\0\0\377\377", 4) == 0;
    if (s->total_in == total_in || s->total_out != total_out) {
      break;
    }
  }
  s->avail_out = avail_out;

  if (!aligned) {
    return Z_OK;
  }

  page_zip_inflate_ws_t *ws = page_zip_inflate_ws_get();
  if (ws == nullptr) {
    return Z_OK;
  }

  inflate_state &st = ws->m_state;
  isal_inflate_init(&st);
  st.next_in = const_cast<byte *>(s->next_in);
  st.avail_in = s->avail_in;
  st.next_out = ws->m_buf;
  st.avail_out = static_cast<uint32_t>(UNIV_PAGE_SIZE);
  st.crc_flag = ISAL_DEFLATE;

  if (isal_inflate_stateless(&st) != ISAL_DECOMP_OK) {
    /* Not a complete raw stream of at most a page, or a lookback into
    the field list (a sync flush, not a full one): zlib reads it. */
    return Z_OK;
  }

  /* ISA-L reads ahead into its bit buffer and does not give the bytes
  back: the stream's data ends read_in_length / 8 bytes before next_in,
  and the adler32 trailer follows. */
  const byte *end = st.next_in - st.read_in_length / 8;
  if (end + 4 > s->next_in + s->avail_in) {
    return Z_OK;
  }

  const uint32_t adler = isal_adler32(static_cast<uint32_t>(s->adler),
                                      ws->m_buf, st.total_out);
  if (adler != ((uint32_t(end[0]) << 24) | (uint32_t(end[1]) << 16) |
                (uint32_t(end[2]) << 8) | uint32_t(end[3]))) {
    /* zlib reports it, as it would have. */
    return Z_OK;
  }

  s->m_buf = ws->m_buf;
  s->m_len = st.total_out;
  s->m_pos = 0;
  s->m_end_in = end + 4;
  s->m_mode = 1;
  return Z_OK;
}

}  // namespace
#endif /* HAVE_ISAL */

bool page_zip_lob_inflate_begin(page_zip_lob_inflate_t *z, byte *out,
                                ulint out_len) {
  z->m_state = nullptr;
#ifdef HAVE_ISAL
  if (!page_zip_inflate_use_fast()) {
    return false;
  }
  /* A decoder of its own in the thread's workspace: page decompressions
  may run while the BLOB's pages are fetched (page_zip_inflate_ws_t). */
  page_zip_inflate_ws_t *ws = page_zip_inflate_ws_get();
  if (ws == nullptr) {
    return false;
  }
  /* One BLOB at a time per thread: zReader does not nest. Should it
  ever, zlib reads the inner BLOB, as with the fast inflate off. */
  if (UNIV_UNLIKELY(ws->m_lob_busy)) {
    ut_ad(0);
    return false;
  }
  ws->m_lob_busy = true;
  inflate_state &st = ws->m_lob_state;
  isal_inflate_init(&st);
  /* The zlib header and the adler32 trailer are ISA-L's to check. */
  st.crc_flag = ISAL_ZLIB;
  st.next_out = out;
  st.avail_out = static_cast<uint32_t>(out_len);
  z->m_state = &st;
  return true;
#else
  (void)out;
  (void)out_len;
  return false;
#endif /* HAVE_ISAL */
}

page_zip_lob_inflate_status_t page_zip_lob_inflate_feed(
    page_zip_lob_inflate_t *z, const byte *in, ulint len) {
#ifdef HAVE_ISAL
  inflate_state &st = *static_cast<inflate_state *>(z->m_state);
  st.next_in = const_cast<byte *>(in);
  st.avail_in = static_cast<uint32_t>(len);
  if (isal_inflate(&st) != ISAL_DECOMP_OK) {
    return PAGE_ZIP_LOB_ERROR;
  }
  if (st.block_state == ISAL_BLOCK_FINISH) {
    return PAGE_ZIP_LOB_END;
  }
  if (st.avail_out == 0) {
    return PAGE_ZIP_LOB_FULL;
  }
  /* ISA-L consumes the whole piece unless the stream ended or the output
  is full; anything else is a stream zlib should judge. */
  return st.avail_in == 0 ? PAGE_ZIP_LOB_MORE : PAGE_ZIP_LOB_ERROR;
#else
  (void)z;
  (void)in;
  (void)len;
  return PAGE_ZIP_LOB_ERROR;
#endif /* HAVE_ISAL */
}

ulint page_zip_lob_inflate_end(page_zip_lob_inflate_t *z, bool ok) {
#ifdef HAVE_ISAL
  if (z->m_state == nullptr) {
    return 0;
  }
  const auto &st = *static_cast<inflate_state *>(z->m_state);
  z->m_state = nullptr;
  page_zip_inflate_ws_get()->m_lob_busy = false;
#ifndef UNIV_LIBRARY
  (ok ? page_zip_lob_inflate_n_fast : page_zip_lob_inflate_n_fallback)
      .fetch_add(1, std::memory_order_relaxed);
#endif /* !UNIV_LIBRARY */
  return ok ? st.total_out : 0;
#else
  (void)z;
  (void)ok;
  return 0;
#endif /* HAVE_ISAL */
}

int page_zip_inflate(z_stream *strm, int flush) {
  auto *s = static_cast<page_zip_inflate_stream_t *>(strm);

  if (flush == Z_BLOCK) {
    return inflate(strm, flush);
  }

#ifdef HAVE_ISAL
  if (UNIV_UNLIKELY(s->m_mode == 0)) {
    const int err = page_zip_inflate_start(s);
    if (err != Z_OK) {
      return err;
    }
#ifndef UNIV_LIBRARY
    if (s->m_fast) {
      (s->m_mode == 1 ? page_zip_inflate_n_fast : page_zip_inflate_n_fallback)
          .fetch_add(1, std::memory_order_relaxed);
    }
#endif /* !UNIV_LIBRARY */
  }

  if (s->m_mode == 1) {
    /* Hand out the decoded bytes as zlib would: all that fit, then
    Z_STREAM_END as soon as nothing is left (zlib also reads the end of
    the last block and the trailer without needing room for output). */
    const ulint left = s->m_len - s->m_pos;
    const ulint n = std::min<ulint>(left, s->avail_out);
    if (n > 0) {
      memcpy(s->next_out, s->m_buf + s->m_pos, n);
      s->next_out += n;
      s->avail_out -= static_cast<uInt>(n);
      s->total_out += n;
      s->m_pos += n;
    }
    if (s->m_pos == s->m_len) {
      if (s->next_in != s->m_end_in) {
        const ulint in = s->m_end_in - s->next_in;
        s->next_in = const_cast<byte *>(s->m_end_in);
        s->avail_in -= static_cast<uInt>(in);
        s->total_in += in;
      }
      return Z_STREAM_END;
    }
    return n > 0 ? Z_OK : Z_BUF_ERROR;
  }
#else
  (void)s;
#endif /* HAVE_ISAL */

  return inflate(strm, flush);
}

extern "C" {
/** zlib allocator of page_zip_decompress(): the heap's memory, not
zeroed.
@param[in,out]  opaque  the memory heap
@param[in]      items   number of items
@param[in]      size    bytes per item
@return the memory */
static void *page_zip_inflate_zalloc(void *opaque, uInt items, uInt size) {
  return mem_heap_alloc(static_cast<mem_heap_t *>(opaque),
                        static_cast<ulint>(items) * size);
}

/** zlib deallocator of page_zip_decompress(): the heap frees it all. */
static void page_zip_inflate_zfree(void *, void *) {}
} /* extern "C" */

void page_zip_inflate_set_alloc(void *stream, mem_heap_t *heap) {
  z_stream *strm = static_cast<z_stream *>(stream);
  strm->zalloc = page_zip_inflate_zalloc;
  strm->zfree = page_zip_inflate_zfree;
  strm->opaque = heap;
}

bool page_zip_dir_sort(rec_t **recs, ulint n, const page_t *page) {
  /* One bit per byte offset of a page of up to 16 KB (compressed pages
  are never larger): 2 KB on the stack. */
  constexpr ulint WORDS = UNIV_PAGE_SIZE_DEF / 64;
  /* The offsets come from disk: a dense directory slot holds 14 bits, so
  on a 4 KB or 8 KB page a corrupt one can point past the page, where no
  record can be (and where the bitmap below has no cleared word). */
  const page_t *const end = page + UNIV_PAGE_SIZE;
  if (n == 0) {
    return true;
  }
  /* The records come in key order, which is their address order on a
  page filled in key order or rebuilt (page_zip_reorganize()): one pass
  finds that out, cheaper than either sort. */
  ulint sorted = 1;
  while (sorted < n && recs[sorted - 1] < recs[sorted]) {
    sorted++;
  }
  if (sorted == n) {
    /* Ascending: the last record is the highest. */
    return recs[n - 1] < end;
  }
  if (n < 8 || UNIV_PAGE_SIZE > UNIV_PAGE_SIZE_DEF) {
    for (ulint i = 0; i < n; i++) {
      if (UNIV_UNLIKELY(recs[i] >= end)) {
        return false;
      }
    }
    std::sort(recs, recs + n);
    return true;
  }
  uint64_t map[WORDS];
  const ulint words = UNIV_PAGE_SIZE / 64;
  memset(map, 0, words * sizeof map[0]);
  ulint lo = words;
  ulint hi = 0;
  for (ulint i = 0; i < n; i++) {
    if (UNIV_UNLIKELY(recs[i] >= end)) {
      return false;
    }
    const ulint off = static_cast<ulint>(recs[i] - page);
    const ulint w = off >> 6;
    const uint64_t bit = uint64_t{1} << (off & 63);
    if (UNIV_UNLIKELY((map[w] & bit) != 0)) {
      /* Two slots name one record (a damaged page): std::sort keeps
      both, as upstream did; the records not seen yet must still lie on
      the page (found by fuzz/: an offset past an 8 KB page after a
      duplicate). */
      for (ulint j = i + 1; j < n; j++) {
        if (UNIV_UNLIKELY(recs[j] >= end)) {
          return false;
        }
      }
      std::sort(recs, recs + n);
      return true;
    }
    map[w] |= bit;
    lo = std::min(lo, w);
    hi = std::max(hi, w);
  }
#ifdef UNIV_DEBUG
  /* Debug builds check every sort against std::sort. */
  std::vector<rec_t *> expected(recs, recs + n);
  std::sort(expected.begin(), expected.end());
#endif /* UNIV_DEBUG */
  /* n distinct offsets below the page size, all within [lo, hi]: exactly
  n bits are set there. */
  ulint k = 0;
  for (ulint w = lo; w <= hi; w++) {
    for (uint64_t m = map[w]; m != 0; m &= m - 1) {
      recs[k++] = const_cast<rec_t *>(page) + (w << 6) +
                  static_cast<ulint>(__builtin_ctzll(m));
    }
  }
  ut_a(k == n);
  ut_ad(std::equal(expected.begin(), expected.end(), recs));
  return true;
}
