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

/** @file include/page0zip_codec.h
 The codec layer of compressed pages: which deflate implementation
 page_zip_compress() uses, and which inflate implementation
 page_zip_decompress() uses after the page's field list.

 Every codec writes the same on-disk format, one zlib stream per page
 (RFC 1950 around RFC 1951, a 2^UNIV_PAGE_SIZE_SHIFT window): the field
 list, a full flush, the records, the end of the stream. Stock zlib, and so
 stock MySQL, reads what any of them writes; any of them reads any page.

 Codecs:
 - PAGE_ZIP_CODEC_ZLIB: zlib's deflate() fed record by record and zlib's
   inflate() record by record, as upstream does, byte for byte. The stream
   state is kept per thread and reset (deflateReset(), which gives the same
   output as a new deflateInit2()) instead of being set up on a new 330 KB
   memory heap at every compression.
 - PAGE_ZIP_CODEC_ISAL: Intel ISA-L's igzip (Debian's libisal). The zlib
   header and the field list (a stored block, then the empty stored block
   of a full flush) are written without ISA-L; the records are gathered
   into a per-thread buffer and deflated in one call of ISA-L as the raw
   stream that follows a full flush (a page without records gets an empty
   fixed-code block, no ISA-L call), and the adler32 trailer of the whole
   input is appended. ISA-L has levels 0 to 3, mapped from the table's
   zlib-scale level by page_zip_codec_isal_level(). Reading: the field list
   with zlib, then the rest of the stream (it starts byte-aligned with an
   empty history after the full flush) in one call of ISA-L's inflate into
   a per-thread scratch page, adler32 checked, then served to the
   record-by-record steps of page_zip_decompress() by copying. A stream
   that does not have that shape is read by zlib.
 Compressed BLOBs (off-page columns) follow the same level word: ISA-L
 writes each BLOB's stream in one call (page_zip_lob_deflate()) and reads
 single-stream BLOBs page by page (page_zip_lob_inflate_*()); zlib both
 where the codec is zlib.
 Built without ISA-L (HAVE_ISAL undefined), only zlib exists and
 innodb_compression_codec refuses 'isal'.

 Which codec compresses a page: the table's ENGINE_ATTRIBUTE key
 "compression_codec", else innodb_compression_codec. It is carried, with
 the zlib-scale level, in one "level word" (page_zip_level_word()) that
 callers compute once and pass down: the decision to log the page image
 and the compression then agree even while the global variable changes.

 Recovery: a page compressed by ISA-L always has its compressed image in
 the redo log (page_zip_log_images()), as with
 innodb_log_compressed_pages=ON, because ISA-L's output may differ between
 its versions and between the CPU code paths it dispatches to; recovery
 then never recompresses an ISA-L page and needs neither ISA-L nor the
 same version. The redo records that do make recovery recompress
 (MLOG_ZIP_PAGE_COMPRESS_NO_DATA, MLOG_ZIP_PAGE_REORGANIZE) are written
 only for zlib pages and carry a plain zlib level, which the zlib
 version guard (srv0zip_guard.h) covers.

 Created 2026-11-25 */

#ifndef page0zip_codec_h
#define page0zip_codec_h

#include <zlib.h>

#include <atomic>

#include "univ.i"
#include "mem0mem.h"
#include "page0types.h"

/** Compression codecs of compressed pages (innodb_compression_codec). */
enum page_zip_codec_t : ulint {
  /** zlib, as upstream */
  PAGE_ZIP_CODEC_ZLIB = 0,
  /** Intel ISA-L igzip */
  PAGE_ZIP_CODEC_ISAL = 1,
  /** number of codecs */
  PAGE_ZIP_CODEC_N
};

/** Bits of a level word below the codec. */
constexpr ulint PAGE_ZIP_LEVEL_CODEC_SHIFT = 8;

/** Names of the codecs, indexed by page_zip_codec_t, NullS-terminated
(the values of innodb_compression_codec and of the "compression_codec"
ENGINE_ATTRIBUTE key). */
extern const char *page_zip_codec_names[PAGE_ZIP_CODEC_N + 1];

/** innodb_compression_codec: the codec of tables that name none, and the
inflate implementation of every decompression. */
extern ulong page_zip_codec;

/** @return whether this build has the codec
@param[in]  codec  codec */
bool page_zip_codec_available(ulint codec);

/** A short description of the library behind the codec, for the error log
and SHOW STATUS: "zlib 1.2.13", "ISA-L 2.30 (igzip)".
@param[in]  codec  codec
@return NUL-terminated text */
const char *page_zip_codec_version(ulint codec);

/** Make a level word.
@param[in]  codec  codec
@param[in]  level  zlib-scale level, 0..9; 0 (store) is always zlib's
@return level word */
inline ulint page_zip_level_word(ulint codec, ulint level) {
  ut_ad(codec < PAGE_ZIP_CODEC_N);
  ut_ad(level <= 9);
  return ((level == 0 ? PAGE_ZIP_CODEC_ZLIB : codec)
          << PAGE_ZIP_LEVEL_CODEC_SHIFT) |
         level;
}

/** @return the codec of a level word
@param[in]  word  level word, or a plain zlib level (from a redo record) */
inline ulint page_zip_level_codec(ulint word) {
  return word >> PAGE_ZIP_LEVEL_CODEC_SHIFT;
}

/** @return the zlib-scale level 0..9 of a level word
@param[in]  word  level word, or a plain zlib level */
inline ulint page_zip_level_value(ulint word) {
  return word & ((1U << PAGE_ZIP_LEVEL_CODEC_SHIFT) - 1);
}

/** The ISA-L level of a zlib-scale level: 1-3 give ISA-L level 1, 4-6
level 2, 7-9 level 3. Level 0 stores, which only zlib does: a level word
of level 0 always names zlib (page_zip_level_word()). ISA-L's own level 0
(a fixed Huffman code) is never used: it does not compress row data.
@param[in]  level  zlib-scale level 1..9
@return ISA-L level 1..3 */
inline int page_zip_codec_isal_level(ulint level) {
  return level <= 3 ? 1 : static_cast<int>((level + 2) / 3);
}

#ifndef UNIV_LIBRARY
#include "mysql/status_var.h"

/** Whether a compression with this level word must log the compressed
page image rather than a record that makes recovery recompress it.
@param[in]  word  level word
@return innodb_log_compressed_pages, or true for any codec but zlib */
bool page_zip_log_images(ulint word);

/** The zlib stream of page_zip_compress(), with the codec's state. */
struct page_zip_deflate_stream_t : z_stream {
  /** codec of this compression */
  ulint m_codec;
  /** per-thread workspace of the codec, or nullptr */
  void *m_ws;
  /** zlib stream of the workspace, or this */
  z_stream *m_zs;
  /** bytes the whole stream needed when it did not fit, or 0 */
  ulint m_needed;
  /** the page whose stream this compression may continue, or nullptr
  (page_zip_deflate_append_setup()) */
  const page_zip_des_t *m_app_old;
  /** whether the stream is to end appendably: a sync flush, then an
  empty final block */
  bool m_app_end;
  /** out: whether the stream continued m_app_old's */
  bool m_appended;
  /** out: whether zlib wrote the stream, ISA-L's having missed the room
  by a little (page0zip_codec.cc, PAGE_ZIP_ZLIB_RESCUE_DIV) */
  bool m_rescued;
  /** whether ISA-L failed (an error of the library, page_zip_isal_error())
  and zlib writes the page */
  bool m_isal_failed;
  /** whether zlib wrote the page's current stream, so that a miss of
  ISA-L is rescued within the wider band PAGE_ZIP_ZLIB_RESCUE_KEEP_DIV
  (page_zip_deflate_append_setup(), innodb_compression_zlib_rescue
  ZLIB_PAGES or ON) */
  bool m_prev_zlib;
  /** out: bytes of input after the field list */
  ulint m_in_len;
};

/** Start a page compression: deflateInit2() with InnoDB's parameters
for zlib, the gather buffer for ISA-L.
@param[out]     strm  stream; its next/avail fields are the caller's
@param[in]      word  level word
@param[in,out]  heap  memory heap for a zlib stream that has no workspace
@return Z_OK */
int page_zip_deflate_init(page_zip_deflate_stream_t *strm, ulint word,
                          mem_heap_t *heap);

/** Appending to a page's stream (ISA-L only). A leaf page filled in key
order has its modification log fill up several times before its
compressed space does; each time page_zip_reorganize() compresses it in
place (patch 0029), the records already in the stream would be deflated
again. Instead the stream is written appendably (the records' raw deflate
stream ends with a sync flush and an empty final fixed-code block, 03 00,
before the adler32 trailer), and the next compression in place keeps the
old stream up to its sync flush, deflates only the records added since,
as a new raw deflate segment (no dictionary: it costs ISA-L more than
it saves), and ends appendably again.
The result is one valid zlib stream that decodes to exactly the input a
full compression would have; stock zlib reads it.

What proves that the old stream's input is a prefix of the new input:
- page_zip_des_t::m_app_heap (set by page_zip_deflate_append_done()
  after every compression): the records of heap number below it are the
  stream's; it is set only when the page had no free list and no
  garbage, so they were all live; m_app_end says whether the stream
  ended appendably (only a compression in place of a page that was only
  added to since its last compression writes it so);
- page_zip_append_forget() resets it when one of those records is
  written to the modification log (the only way a compressed page's
  record changes) or any record is deleted;
- the append runs only from page_zip_reorganize() in place: the records
  tile the heap in heap-number order along the list, so the new input
  is the old records' bytes followed by the new records';
- and it is checked: the zlib header and field list are equal, the old
  stream ends with the appendable tail at m_app_end, and the adler32 of
  the first m_app_len bytes of the new input equals the old trailer;
- the state belongs to the page whose data the descriptor holds: a frame
  that gets a new page (buf_page_init()) and every decompression
  (page_zip_decompress_low(), which rebuilds the frame from the data, as
  after a read) start without it (page_zip_append_reset()); debug builds
  assert that a page being read has none.
Builds with UNIV_ZIP_DEBUG (COMPRESS_VARIANT=zipdebug) decompress every
page compressed and compare it with the uncompressed page
(page_zip_validate()). Anything else compresses the whole page; so does
an append that does not fit.

Recovery: ISA-L pages always log their images (page_zip_log_images()),
so recovery never appends; it does not append on its own (reorganize
during recovery). */

/** innodb_compression_append (default OFF): whether reorganizations in
place may write appendable streams and continue them. Each append saves
deflating the page's old records again (18 % of the page compression
instructions of the Wikipedia 8K load) and costs every later
decompression of the page one more deflate block, about 80,000
instructions with ISA-L's inflate (BENCHMARKS.md 6n). */
extern bool page_zip_append;

/** Forget whether a page's stream can be continued.
@param[in,out]  page_zip  compressed page
@param[in]      heap_no   heap number of a record written to the
                          modification log, or 0 (a record deleted, the
                          data replaced) */
inline void page_zip_append_forget(page_zip_des_t *page_zip, ulint heap_no) {
  if (heap_no < page_zip->m_app_heap) {
    page_zip->m_app_heap = 0;
  }
}

/** Decide, after page_zip_deflate_init(), what this compression takes
from the page's current stream: whether it continues that stream,
whether it writes an appendable one, and (innodb_compression_zlib_rescue
not OFF) whether zlib wrote it.
@param[in,out]  strm      stream
@param[in]      page_zip  the compressed page (still the old one)
@param[in]      page      the uncompressed page
@param[in]      index     its index
@param[in]      in_place  whether page_zip_reorganize() compresses the
                          page in place (page_zip_fit_t::append) */
void page_zip_deflate_append_setup(page_zip_deflate_stream_t *strm,
                                   const page_zip_des_t *page_zip,
                                   const page_t *page,
                                   const dict_index_t *index, bool in_place);

/** After a successful compression, once page_zip->data has the new
stream: remember how it can be continued, or that it cannot.
@param[in]      strm      stream
@param[in,out]  page_zip  compressed page
@param[in]      page      uncompressed page */
void page_zip_deflate_append_done(const page_zip_deflate_stream_t *strm,
                                  page_zip_des_t *page_zip,
                                  const page_t *page);

/** Count, in the codec counters, a compression made as a trial
(dict_zip_trial) that the caller keeps (page_zip_fit_count()).
@param[in] word  the level word the page was compressed with */
void page_zip_codec_count(ulint word);

/** deflate() of page_zip_compress().
@param[in,out]  strm   stream, a page_zip_deflate_stream_t
@param[in]      flush  Z_NO_FLUSH, Z_FULL_FLUSH or Z_FINISH
@return zlib status */
int page_zip_deflate(z_stream *strm, int flush);

/** deflateEnd() of page_zip_compress().
@param[in,out]  strm  stream, a page_zip_deflate_stream_t
@return Z_OK */
int page_zip_deflate_end(z_stream *strm);

/** What a compression that did not fit needed, in bytes of stream: the
zlib stream that ran out of room at Z_FINISH, or the ISA-L stream that was
deflated whole into the workspace.
@param[in]  strm  stream, a page_zip_deflate_stream_t, after Z_FINISH
@return bytes, or 0 if not known */
ulint page_zip_deflate_needed(z_stream *strm);

/** Bytes of memory heap page_zip_compress() no longer needs for a zlib
stream: 0 if this thread cannot have a workspace.
@return bytes */
ulint page_zip_deflate_heap_saved();

/** Free the calling thread's workspaces (also done at thread exit). */
void page_zip_codec_thread_free();

/** The fast deflate of a compressed BLOB's zlib stream, in one call: the
single stream of lob::zInserter (a BLOB up to lob::Z_CHUNK_SIZE) or the
stream of one chunk of lob::z_insert_chunk(). The stream has the format
zlib's deflateInit2(level, Z_DEFLATED, 15, ...) writes (RFC 1950 around
RFC 1951, a 32 KB window, the adler32 trailer); stock zlib, and so stock
MySQL, reads it. Pages of compressed BLOBs are redo-logged byte for byte,
so recovery never compresses a BLOB again and does not depend on the codec
or its version. Uses the calling thread's compression workspace, between
two page compressions.
@param[in]   word     level word of the index (dict_index_zip_level())
@param[in]   in       the BLOB, or the chunk
@param[in]   len      bytes of in
@param[out]  out      the stream
@param[in]   out_len  room in out; page_zip_lob_deflate_bound(len) is
                      always enough
@param[in]   count    whether to count it in Innodb_zip_codec_lob_deflate_%
                      (false for the estimator's own work)
@return bytes of the stream; 0 if the level word's codec is zlib, the
build has no ISA-L, or ISA-L did not write the stream: zlib then writes
it (a fallback, counted if the fast codec was selected) */
ulint page_zip_lob_deflate(ulint word, const byte *in, ulint len, byte *out,
                           ulint out_len, bool count);

/** Room page_zip_lob_deflate() needs: incompressible bytes go to stored
blocks, which add 5 bytes per 64 KB, and the stream has a 2-byte header
and a 4-byte trailer.
@param[in]  len  bytes of input
@return bytes */
constexpr ulint page_zip_lob_deflate_bound(ulint len) {
  return len + (len >> 10) + 1024;
}

/** Allocate the output of page_zip_lob_deflate() for a BLOB of len
bytes (memory/innodb/page0zip_codec).
@param[in]  len  bytes of the BLOB
@return page_zip_lob_deflate_bound(len) bytes, or nullptr */
byte *page_zip_lob_deflate_alloc(ulint len);

/** Free what page_zip_lob_deflate_alloc() allocated.
@param[in]  buf  the buffer, or nullptr */
void page_zip_lob_deflate_free(byte *buf);

/** innodb_compression_codec_check: after each page compression,
decompress the page with zlib and with the fast inflate and compare the
two pages byte for byte (costs two decompressions per compression). */
extern bool page_zip_codec_check;

/** Values of innodb_compression_zlib_rescue: which pages whose ISA-L
stream misses its room are written again by zlib at the table's level
(page0zip_codec.cc, page_zip_deflate_isal()); counted in
Innodb_zip_codec_compress_rescued. */
enum page_zip_rescue_t : ulong {
  /** none: a page ISA-L cannot fit splits */
  PAGE_ZIP_RESCUE_OFF = 0,
  /** (default) pages whose current stream zlib wrote (rescued before,
  or written under the zlib codec, as by a server before an upgrade),
  when ISA-L misses by at most 12.5 % (PAGE_ZIP_ZLIB_RESCUE_KEEP_DIV):
  ISA-L's stream of the records zlib fitted is 2-8 % larger, so without
  this such pages split at their next compression (a table loaded under
  zlib, updated under ISA-L: up to twice its bytes, BENCHMARKS.md 6p) */
  PAGE_ZIP_RESCUE_ZLIB_PAGES = 1,
  /** those, and any page whose ISA-L stream misses by at most 1 %
  (PAGE_ZIP_ZLIB_RESCUE_DIV): zlib's bytes on key-ordered loads */
  PAGE_ZIP_RESCUE_ON = 2,
  PAGE_ZIP_RESCUE_N
};

/** Names of page_zip_rescue_t, for the variable's TYPELIB */
extern const char *page_zip_rescue_names[PAGE_ZIP_RESCUE_N + 1];

/** innodb_compression_zlib_rescue, a page_zip_rescue_t. A rescued page is
a zlib stream like any other (stock MySQL reads it); as every page of an
ISA-L table it logs its image, so recovery never recompresses it. */
extern ulong page_zip_zlib_rescue;

/** The check of innodb_compression_codec_check.
@param[in]  page_zip  the page just compressed */
void page_zip_codec_check_page(const page_zip_des_t *page_zip);

/** Codec counters for SHOW GLOBAL STATUS. */
struct page_zip_codec_stat_t {
  /** page compressions by codec */
  uint64_t compress[PAGE_ZIP_CODEC_N];
  /** decompressions whose records the fast inflate read */
  uint64_t inflate_fast;
  /** decompressions read by zlib although the fast inflate was selected
  (a stream of another shape) */
  uint64_t inflate_fast_fallback;
  /** pages checked by innodb_compression_codec_check */
  uint64_t checks;
  /** pages the check found different */
  uint64_t check_failures;
  /** compressed BLOBs (single-stream) the fast inflate read */
  uint64_t lob_inflate_fast;
  /** compressed BLOBs zlib read again after the fast inflate refused them */
  uint64_t lob_inflate_fast_fallback;
  /** compressed BLOB streams (single streams and chunks) the fast codec
  wrote */
  uint64_t lob_deflate_fast;
  /** compressed BLOB streams zlib wrote although the fast codec was
  selected */
  uint64_t lob_deflate_fast_fallback;
  /** page compressions that continued the page's stream */
  uint64_t compress_appended;
  /** ISA-L page compressions that fitted only as zlib wrote them */
  uint64_t compress_rescued;
  /** page compressions and BLOB streams ISA-L failed (an error of the
  library, not a page that does not fit): zlib wrote them */
  uint64_t isal_errors;
  /** pages decompressed and compared after their compression
  (page_zip_validate(), builds with UNIV_ZIP_DEBUG only) */
  uint64_t validated_pages;
  /** compressed BLOB streams inflated and compared with their input
  (builds with UNIV_ZIP_DEBUG only) */
  uint64_t validated_lobs;
};

/** Read the codec counters.
@param[out]  stat  counters */
void page_zip_codec_stat_get(page_zip_codec_stat_t *stat);

/** SHOW GLOBAL STATUS Innodb_zip_codec_%: the counters above. */
extern SHOW_VAR page_zip_codec_status_variables[];

/* The counters, kept by page0zip_codec_stat.cc. */
/** Compressions by codec (the estimator's trials excluded, as in
INNODB_CMP). */
extern std::atomic<uint64_t> page_zip_codec_n_compress[PAGE_ZIP_CODEC_N];
/** Page compressions that continued the page's stream. */
extern std::atomic<uint64_t> page_zip_codec_n_appended;
/** ISA-L page compressions that fitted only as zlib wrote them. */
extern std::atomic<uint64_t> page_zip_codec_n_rescued;
/** Compressed BLOB streams the fast codec wrote. */
extern std::atomic<uint64_t> page_zip_lob_deflate_n_fast;
/** Compressed BLOB streams zlib wrote although the fast codec was
selected. */
extern std::atomic<uint64_t> page_zip_lob_deflate_n_fallback;
/** Pages checked by innodb_compression_codec_check. */
extern std::atomic<uint64_t> page_zip_codec_n_checks;
/** Pages the check found different. */
extern std::atomic<uint64_t> page_zip_codec_n_check_failures;

/** Note a failure of ISA-L (an error code, or a stream it did not finish
with ample room): counted in Innodb_zip_codec_isal_errors and logged
once (ER_IB_ZIP_CODEC_ISAL_ERROR); the caller has zlib write the data.
Not "the page does not fit": that is a full page, this is the library.
@param[in]  what  "a page", "a BLOB"
@param[in]  code  ISA-L's return code, or PAGE_ZIP_ISAL_INCOMPLETE */
void page_zip_isal_error(const char *what, int code);

/** What page_zip_isal_error() is told when ISA-L returned COMP_OK but did
not finish the stream with room to spare (not one of ISA-L's codes). */
constexpr int PAGE_ZIP_ISAL_INCOMPLETE = 1;

/** Log the codec in use and the versions of ISA-L (the one the build was
compiled with, and the file loaded) and zlib (ER_IB_ZIP_CODEC_VERSIONS);
also Innodb_zip_codec_isal_version. Called at InnoDB's start. */
void page_zip_codec_log_versions();

/** @return "ISA-L built with x.y.z, loaded from <path>", or "not built" */
const char *page_zip_codec_isal_version();

#ifdef UNIV_ZIP_DEBUG
/** Log the validation counters (at shutdown): a run's error logs tell
what it validated. */
void page_zip_validate_log();

/** Count a page that page_zip_validate() found right after its
compression (Innodb_zip_codec_validated_pages). */
void page_zip_validate_count_page();

/** Inflate a compressed BLOB stream just written with zlib and assert
that it gives back its input, all of it and nothing more
(Innodb_zip_codec_validated_lobs).
@param[in]  in          the BLOB's bytes
@param[in]  len         their length
@param[in]  stream      the zlib stream written
@param[in]  stream_len  its length */
void page_zip_lob_validate(const byte *in, ulint len, const byte *stream,
                           ulint stream_len);
#endif /* UNIV_ZIP_DEBUG */
#endif /* !UNIV_LIBRARY */

/* The append state is reset by the decompression, which the tools'
decompression library shares. */
/** Forget how the page's stream was written: the descriptor gets another
page's data, or a frame rebuilt from its data.
@param[in,out]  page_zip  compressed page descriptor */
inline void page_zip_append_reset(page_zip_des_t *page_zip) {
  page_zip->m_app_heap = 0;
  page_zip->m_app_len = 0;
  page_zip->m_app_end = 0;
}

/** @return whether a compressed page descriptor keeps no append state
@param[in]  page_zip  compressed page descriptor */
inline bool page_zip_append_is_reset(const page_zip_des_t *page_zip) {
  return page_zip->m_app_heap == 0 && page_zip->m_app_len == 0 &&
         page_zip->m_app_end == 0;
}

/** Whether page_zip_decompress() reads the records with the fast inflate
(innodb_compression_codec is not zlib and the build has ISA-L). Set by
the variable's update function; the tools that link the decompression
library get the build's best. */
extern bool page_zip_inflate_fast;

/** @return whether the decompression starting now may use the fast
inflate: page_zip_inflate_fast, unless overridden for the thread */
bool page_zip_inflate_use_fast();

/** Override page_zip_inflate_fast for the calling thread.
@param[in]  force  0: zlib, 1: fast inflate, -1: follow the variable */
void page_zip_inflate_force(int force);

/** The fast inflate of one whole zlib stream given in pieces into one
output buffer: a compressed BLOB stored as a single stream over a chain of
pages (lob::zReader, lob_zip_read_fast()). The pages of the chain are fed
in order; ISA-L checks the zlib header and the adler32 trailer. */
struct page_zip_lob_inflate_t {
  /** ISA-L's state (the calling thread's workspace), nullptr: not taken */
  void *m_state{nullptr};
};

/** What page_zip_lob_inflate_feed() found. */
enum page_zip_lob_inflate_status_t {
  /** the piece is consumed; the stream goes on and there is room left */
  PAGE_ZIP_LOB_MORE,
  /** the output buffer is full (a prefix was wanted) */
  PAGE_ZIP_LOB_FULL,
  /** the stream ended, its trailer checked */
  PAGE_ZIP_LOB_END,
  /** the fast inflate refused the stream: let zlib read it from the start */
  PAGE_ZIP_LOB_ERROR
};

/** Start the fast inflate of a BLOB's stream.
@param[out]  z        state
@param[out]  out      where the uncompressed bytes go
@param[in]   out_len  room in out
@return whether the fast inflate reads the stream (false: it is off, as
with innodb_compression_codec=zlib, or not in the build: zlib reads it) */
bool page_zip_lob_inflate_begin(page_zip_lob_inflate_t *z, byte *out,
                                ulint out_len);

/** Feed the next piece of a BLOB's stream.
@param[in,out]  z    state
@param[in]      in   the piece (the compressed payload of one page)
@param[in]      len  bytes in the piece
@return what was found */
page_zip_lob_inflate_status_t page_zip_lob_inflate_feed(
    page_zip_lob_inflate_t *z, const byte *in, ulint len);

/** End the fast inflate of a BLOB's stream.
@param[in,out]  z   state
@param[in]      ok  whether its output is used (false: zlib reads the
                    stream again)
@return bytes of output */
ulint page_zip_lob_inflate_end(page_zip_lob_inflate_t *z, bool ok);

/** The zlib stream of page_zip_decompress(), with the fast inflate's
state. */
struct page_zip_inflate_stream_t : z_stream {
  /** 0: not decided; 1: the records come from m_buf; 2: zlib reads
  them */
  int m_mode{0};
  /** the records of the page, decompressed */
  const byte *m_buf{nullptr};
  /** bytes in m_buf */
  ulint m_len{0};
  /** bytes of m_buf handed out */
  ulint m_pos{0};
  /** where the compressed stream ends, past the adler32 trailer */
  const byte *m_end_in{nullptr};
  /** whether the fast inflate may be tried (page_zip_inflate_fast at
  the start of the decompression) */
  bool m_fast{false};
};

/** Sort the records of a page's dense directory by address, for
page_zip_dir_decode(), in place of std::sort (6.7 % of an ISA-L
decompression in BENCHMARKS.md 7d): nothing if one pass finds them in
order already (a page filled in key order or rebuilt), else a bitmap of
the page's offsets, set once per record and scanned in order. Two records at one offset (a corrupt
page) are sorted by std::sort instead, which keeps both, as upstream, so
the result is always std::sort's. The offsets come from disk: a record at
or past the end of the page (a dense directory slot holds 14 bits, more
than a 4 KB or 8 KB page needs) makes the page corrupt.
@param[in,out]  recs  the records
@param[in]      n     number of records
@param[in]      page  the uncompressed page
@return false if a record lies outside the page (corrupt page) */
[[nodiscard]] bool page_zip_dir_sort(rec_t **recs, ulint n,
                                     const page_t *page);

/** Configure zlib's allocator for page_zip_decompress(): memory of the
memory heap, as page_zip_set_alloc(), but not zeroed. zlib's own allocator
is malloc() and inflate() reads only what it wrote; upstream's zeroing
allocator cleared 23 KB per decompression (inflate's 7 KB state, and the
16 KB window at the field list's first output), 8 % of an ISA-L
decompression's instructions (BENCHMARKS.md 6m).
@param[in,out]  stream  z_stream of page_zip_decompress()
@param[in]      heap    memory heap of the decompression */
void page_zip_inflate_set_alloc(void *stream, mem_heap_t *heap);

/** Bytes of a decompression's memory heap for zlib's inflate state (7,160
bytes in zlib 1.2.13 on 64-bit platforms), beyond the page size that
upstream reserves (zlib's window): without them zlib's allocations
overflowed the heap's first block and every decompression allocated a
second one. */
constexpr ulint PAGE_ZIP_INFLATE_HEAP_STATE = 8192;

/** inflate() of page_zip_decompress(): Z_BLOCK goes to zlib (the header
and the field list); the first other call decides whether the fast
inflate reads the rest.
@param[in,out]  strm   stream, a page_zip_inflate_stream_t
@param[in]      flush  zlib flush mode
@return zlib status, as inflate() would return it */
int page_zip_inflate(z_stream *strm, int flush);

#endif /* page0zip_codec_h */
