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

/** @file fuzz/fuzz_page_decompress.cc
 Fuzz target: arbitrary bytes as a compressed page, decompressed by
 page_zip_decompress_low() of InnoDB's decompression library
 (storage/innobase/page/zipdecompress.cc with page0zip_inflate.cc, as
 innochecksum and ibd2sdi link it: UNIV_LIBRARY, UNIV_NO_ERR_MSGS,
 DISABLE_PSI_MEMORY).

 Input: one selector byte, then the compressed page (cut or padded with
 zero bytes to the compressed page size).

   selector bits 0-1  logical page size (innodb_page_size):
                      0: 16 KB, 1: 8 KB, 2: 4 KB, 3: 16 KB
   selector bits 2-4  compressed page size: 1 KB << (value modulo the
                      number of sizes up to the logical size: 5, 4 or 3)
   selector bits 5-6  inflate: 0 zlib only (page_zip_inflate_force(0)),
                      1 the fast ISA-L inflate only (force(1)), 2 and 3
                      both, and they must agree: the same result, the same
                      uncompressed page, the same m_end, m_nonempty and
                      n_blobs (zipdecompress.cc reads any stream the fast
                      inflate refuses with zlib, so a difference is a bug)
   selector bit  7    repair the zlib header check bits and the adler32
                      trailer of the page's stream first, so that mutated
                      pages get past the checksums into the record code
                      (the trailer as zlib decodes the stream, or if zlib
                      refuses it, as the fast inflate would: zlib for the
                      field list, ISA-L for the rest)

 The compressed page is a malloc() of exactly its size and the
 uncompressed page an aligned_alloc() of exactly the logical page size
 (the library finds the page start by alignment, as the buffer pool's
 frames are aligned), so AddressSanitizer sees any access past either. */

#include "fuzz_common.h"

#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include <chrono>
#if defined HAVE_ISAL && !defined FUZZ_PRISTINE
#include <isa-l/igzip_lib.h>
#endif /* HAVE_ISAL && !FUZZ_PRISTINE */

#include "mach0data.h"
#include "page/zipdecompress.h"
#include "page0page.h"
#include "page0types.h"
#ifdef FUZZ_PRISTINE
/* Built against the upstream tree (FUZZ_PRISTINE=1 scripts/fuzz.sh): zlib
only, to tell upstream's bugs from ours. */
inline void page_zip_inflate_force(int) {}
#else
#include "page0zip_codec.h"
#endif /* FUZZ_PRISTINE */

/** Set by fuzz/bench_main.cc (scripts/fuzz.sh bench): each decompression
is timed, zlib only, and nothing is printed. */
extern "C" {
bool fuzz_bench_on = false;
/** The time spent in page_zip_decompress_low(), its calls, the pages it
returned. */
uint64_t fuzz_bench_ns = 0;
uint64_t fuzz_bench_calls = 0;
uint64_t fuzz_bench_ok = 0;
}

namespace {

/** The page's zlib stream starts after the page header. */
constexpr size_t STREAM_START = PAGE_DATA;

/** Make the two header bytes of the page's zlib stream pass zlib's check
(FCHECK), keeping the window size and the flags as given. */
void fix_zlib_header(byte *zip) {
  byte *h = zip + STREAM_START;
  const unsigned cmf = h[0];
  unsigned flg = h[1] & 0xe0;
  const unsigned rem = (cmf * 256 + flg) % 31;
  if (rem != 0) {
    flg += 31 - rem;
  }
  h[1] = static_cast<byte>(flg);
}

void write_be32(byte *t, uint32_t v) {
  t[0] = static_cast<byte>(v >> 24);
  t[1] = static_cast<byte>(v >> 16);
  t[2] = static_cast<byte>(v >> 8);
  t[3] = static_cast<byte>(v);
}

#if defined HAVE_ISAL && !defined FUZZ_PRISTINE
/** The repair for a stream that zlib refuses: the field list up to the
full flush with zlib, the rest with ISA-L, as the fast inflate reads a
page (page0zip_inflate.cc), and the adler32 of both written after what
ISA-L decoded. Without it no page that only ISA-L decodes would get past
the fast inflate's adler32 check, and the differential could not see
whether the fast inflate accepts pages that zlib refuses. */
void fix_adler32_isal(byte *zip, size_t zip_size) {
  static byte out[UNIV_PAGE_SIZE_MAX];
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit2(&s, 15) != Z_OK) {
    return;
  }
  s.next_in = zip + STREAM_START;
  s.avail_in = static_cast<uInt>(zip_size - (STREAM_START + 1));
  s.next_out = out;
  s.avail_out = sizeof out;
  /* The header and the field list, then the empty blocks of the flush. */
  bool aligned = false;
  for (int i = 0; i < 6 && !aligned; i++) {
    const int err = inflate(&s, Z_BLOCK);
    if (err != Z_OK) {
      break;
    }
    aligned = i >= 1 && s.data_type == 128 && s.total_in >= 6 &&
              memcmp(s.next_in - 4, "\0\0\377\377", 4) == 0;
  }
  const uLong field_adler = adler32(adler32(0L, Z_NULL, 0), out, s.total_out);
  const size_t field_len = s.total_out;
  const byte *rest = s.next_in;
  const uInt rest_len = s.avail_in;
  inflateEnd(&s);
  if (!aligned) {
    return;
  }
  inflate_state st;
  isal_inflate_init(&st);
  st.next_in = const_cast<byte *>(rest);
  st.avail_in = rest_len;
  st.next_out = out + field_len;
  st.avail_out = static_cast<uint32_t>(sizeof out - field_len);
  st.crc_flag = ISAL_DEFLATE;
  if (isal_inflate_stateless(&st) != ISAL_DECOMP_OK) {
    return;
  }
  byte *end = st.next_in - st.read_in_length / 8;
  if (end + 4 > zip + zip_size - 1) {
    return;
  }
  write_be32(end, static_cast<uint32_t>(adler32(field_adler, out + field_len,
                                                st.total_out)));
}
#endif /* HAVE_ISAL && !FUZZ_PRISTINE */

/** If the page's stream decodes to its end, write the adler32 of its
output as its trailer (where the decompressor will look for it); if zlib
refuses it, as ISA-L reads it (fix_adler32_isal()). */
void fix_adler32(byte *zip, size_t zip_size) {
  if (zip_size < STREAM_START + 2 + 1 + 4) {
    return;
  }
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit2(&s, -15) != Z_OK) {
    return;
  }
  /* What page_zip_decompress_low() gives zlib, without the zlib header:
  the page after the page header, minus the end marker of the
  modification log. */
  s.next_in = zip + STREAM_START + 2;
  s.avail_in = static_cast<uInt>(zip_size - (STREAM_START + 2 + 1));
  static byte sink[16384];
  uLong adler = adler32(0L, Z_NULL, 0);
  int err;
  do {
    s.next_out = sink;
    s.avail_out = sizeof sink;
    err = inflate(&s, Z_NO_FLUSH);
    adler = adler32(adler, sink, static_cast<uInt>(sizeof sink - s.avail_out));
  } while (err == Z_OK);
  if (err == Z_STREAM_END && s.next_in + 4 <= zip + zip_size - 1) {
    write_be32(const_cast<byte *>(s.next_in), adler);
  }
  inflateEnd(&s);
#if defined HAVE_ISAL && !defined FUZZ_PRISTINE
  /* Not in FUZZ_VERDICT mode: both trees must see the same bytes. */
  if (err != Z_STREAM_END && getenv("FUZZ_VERDICT") == nullptr) {
    fix_adler32_isal(zip, zip_size);
  }
#endif /* HAVE_ISAL && !FUZZ_PRISTINE */
}

/** Whether page_zip_fields_decode() would use the index it has just freed
(fuzz/known_bugs.txt, fields-null-index): it sets the index to nullptr when
the trx_id position (leaf pages) or the count of nullable fields (other
pages) after the field list is out of range, and then dereferences it.
Reads the field list as page_zip_decompress_low() does (two
inflate(Z_BLOCK)) and decodes it as page_zip_fields_decode() does. */
bool fields_null_index(const byte *zip, size_t zip_size) {
  static byte buf[UNIV_PAGE_SIZE_MAX];
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit2(&s, static_cast<int>(UNIV_PAGE_SIZE_SHIFT)) != Z_OK) {
    return false;
  }
  s.next_in = const_cast<byte *>(zip) + PAGE_DATA;
  s.avail_in = static_cast<uInt>(zip_size - (PAGE_DATA + 1));
  s.next_out = buf;
  s.avail_out = static_cast<uInt>(UNIV_PAGE_SIZE - PAGE_ZIP_START);
  const bool ok = inflate(&s, Z_BLOCK) == Z_OK && inflate(&s, Z_BLOCK) == Z_OK;
  const byte *end = s.next_out;
  inflateEnd(&s);
  if (!ok) {
    return false;
  }
  const byte *b;
  ulint n;
  for (b = buf, n = 0; b < end; n++) {
    if (*b++ & 0x80) {
      b++;
    }
  }
  n--;
  if (n > REC_MAX_N_FIELDS || b > end) {
    return false;
  }
  ulint n_nullable = 0;
  b = buf;
  for (ulint i = 0; i < n; i++) {
    ulint val = *b++;
    if (val & 0x80) {
      val = (val & 0x7f) << 8 | *b++;
    }
    if (!(val & 1)) {
      n_nullable++;
    }
  }
  ulint val = *b++;
  if (val & 0x80) {
    val = (val & 0x7f) << 8 | *b++;
  }
  const bool leaf = mach_read_from_2(zip + PAGE_HEADER + PAGE_LEVEL) == 0;
  return leaf ? (val != 0 && val >= n) : n_nullable > val;
}

/** Known upstream bugs (fuzz/known_bugs.txt) that the input would hit,
checked before the decompression when FUZZ_SKIP names them.
@return whether to leave the input out */
bool known_bug(const byte *zip, size_t zip_size) {
  const ulint n_heap = mach_read_from_2(zip + PAGE_HEADER + PAGE_N_HEAP) & 0x7fff;
  if (n_heap < PAGE_HEAP_NO_USER_LOW) {
    return false;
  }
  const ulint n_dense = n_heap - PAGE_HEAP_NO_USER_LOW;
  if (n_dense * PAGE_ZIP_DIR_SLOT_SIZE >= zip_size) {
    return false;
  }
  if (fuzz::skip_known("dir-low-offset")) {
    /* page_zip_dir_decode() checks the offsets of the records in the
    list, not those of the deleted ones: an offset below the first
    record's place makes page_zip_decompress_node_ptrs() (and _sec(),
    _clust()) read before the page. */
    for (ulint i = 0; i < n_dense; i++) {
      const ulint offs = mach_read_from_2(zip + zip_size -
                                          (i + 1) * PAGE_ZIP_DIR_SLOT_SIZE) &
                         PAGE_ZIP_DIR_SLOT_MASK;
      if (offs < PAGE_ZIP_START + REC_N_NEW_EXTRA_BYTES) {
        return true;
      }
    }
  }
  if (fuzz::skip_known("fields-null-index") && fields_null_index(zip, zip_size)) {
    return true;
  }
  return false;
}

/** What one decompression produced. */
struct result_t {
  bool ok;
  uint16_t m_end;
  uint16_t n_blobs;
  bool m_nonempty;
};

/** Decompress the page as ibd2sdi does.
@param[in]   zip     compressed page
@param[in]   zshift  log2 of its size
@param[out]  page    uncompressed page, the logical page size
@param[in]   fast    0: zlib, 1: the fast inflate
@return what it produced */
result_t decompress(byte *zip, ulint zshift, byte *page, int fast) {
  page_zip_des_t page_zip;
  page_zip_des_init(&page_zip);
  page_zip.data = zip;
  page_zip.ssize = static_cast<uint8_t>(zshift - (UNIV_ZIP_SIZE_SHIFT_MIN - 1));

  page_zip_inflate_force(fast);
  result_t r;
  if (fuzz_bench_on) {
    const auto start = std::chrono::steady_clock::now();
    r.ok = page_zip_decompress_low(&page_zip, page, true);
    fuzz_bench_ns += static_cast<uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(
            std::chrono::steady_clock::now() - start)
            .count());
    fuzz_bench_calls++;
    fuzz_bench_ok += r.ok;
  } else {
    r.ok = page_zip_decompress_low(&page_zip, page, true);
  }
  page_zip_inflate_force(-1);
  r.m_end = page_zip.m_end;
  r.n_blobs = page_zip.n_blobs;
  r.m_nonempty = page_zip.m_nonempty;
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) {
    return 0;
  }
  const uint8_t sel = data[0];
  data++;
  size--;

  static const ulint logical_shifts[4] = {14, 13, 12, 14};
  const ulint lshift = logical_shifts[sel & 3];
  const ulint n_zip_sizes = lshift - UNIV_ZIP_SIZE_SHIFT_MIN + 1;
  const ulint zshift = UNIV_ZIP_SIZE_SHIFT_MIN + ((sel >> 2) & 7) % n_zip_sizes;
  const int mode = (sel >> 5) & 3;
  const bool repair = (sel >> 7) != 0;

  fuzz::set_logical_page_size(lshift);

  const size_t zip_size = size_t{1} << zshift;
  const size_t page_size = size_t{1} << lshift;

  byte *zip = static_cast<byte *>(malloc(zip_size));
  memset(zip, 0, zip_size);
  memcpy(zip, data, size < zip_size ? size : zip_size);
  if (repair) {
    fix_zlib_header(zip);
    fix_adler32(zip, zip_size);
  }

  if (known_bug(zip, zip_size)) {
    free(zip);
    return 0;
  }

  byte *page = static_cast<byte *>(aligned_alloc(page_size, page_size));
  memset(page, 0, page_size);

  /* FUZZ_VERBOSE=1: one line per input, for checking seeds. */
  static const bool verbose = getenv("FUZZ_VERBOSE") != nullptr;
  /* FUZZ_VERDICT=1: zlib only, and what came out on stdout, so that the
  patched and the upstream library can be compared on the same bytes
  (scripts/fuzz.sh stock-compare). */
  static const bool verdict = getenv("FUZZ_VERDICT") != nullptr;
  if (fuzz_bench_on) {
    /* bench_main.cc: zlib only (both trees have it), silent, timed. */
    decompress(zip, zshift, page, 0);
  } else if (verdict) {
    const result_t r = decompress(zip, zshift, page, 0);
    if (r.ok) {
      printf("ok %08lx %u %u %d\n",
             static_cast<unsigned long>(crc32(0, page, page_size)),
             unsigned{r.m_end}, unsigned{r.n_blobs}, r.m_nonempty ? 1 : 0);
    } else {
      printf("refused\n");
    }
    fflush(stdout);
  } else if (mode < 2) {
    const result_t r = decompress(zip, zshift, page, mode);
    if (verbose) {
      fprintf(stderr, "page_decompress: page %lu zip %lu %s: %s\n",
              (ulong)page_size, (ulong)zip_size, mode ? "fast" : "zlib",
              r.ok ? "ok" : "refused");
    }
  } else {
    byte *page2 = static_cast<byte *>(aligned_alloc(page_size, page_size));
    memset(page2, 0, page_size);
    const result_t z = decompress(zip, zshift, page, 0);
    const result_t f = decompress(zip, zshift, page2, 1);
    if (verbose) {
      fprintf(stderr, "page_decompress: page %lu zip %lu both: %s\n",
              (ulong)page_size, (ulong)zip_size,
              z.ok == f.ok ? (z.ok ? "ok" : "refused") : "differ");
    }
    if (!z.ok && f.ok && fuzz::skip_known("isal-lenient")) {
      /* Known: ISA-L decodes streams zlib refuses (fuzz/known_bugs.txt). */
    } else if (z.ok != f.ok) {
      fuzz::mismatch(z.ok ? "zlib decompressed the page, the fast inflate not"
                          : "the fast inflate decompressed the page, zlib not");
    }
    if (z.ok) {
      if (memcmp(page, page2, page_size) != 0) {
        fuzz::mismatch("the uncompressed pages differ");
      }
      if (z.m_end != f.m_end || z.n_blobs != f.n_blobs ||
          z.m_nonempty != f.m_nonempty) {
        fuzz::mismatch("m_end, n_blobs or m_nonempty differ");
      }
    }
    free(page2);
  }

  free(page);
  free(zip);
  return 0;
}
